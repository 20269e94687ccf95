"""Lines and columns, the way editors, compilers and CI annotations count them, in the
reading in use (the unit contract's "Lines and columns"):

* ``line``: 1 plus the line feeds before the unit (valid units of U+000A: the byte 0A
  in UTF-8, ``0A 00`` at an even offset in UTF-16 LE...; a CR alone ends no line);
* ``column``: 1 plus the characters a replacing decoder produces between the line's
  start and the unit: each valid unit counts its code points (nearly always one), each
  problem unit its replacements (U+FFFD). A line feed is always a unit of its own, so a
  line can be decoded as a stream of its own: the column does not depend on the bytes
  before it.

Where the line feeds are is :mod:`inspector.core.scan.linefeeds`' business (the byte
0A, C speed, in UTF-8 and most encodings; a numpy pass in UTF-16/32). Every function
takes ``dialect``: a UTF-8 dialect's name or any interpretation (default ``utf-8``).

:func:`line_column` answers for one offset (a window's status bar, "go to"); the lines
come from a scan's :class:`~inspector.core.scan.blockindex.BlockIndex` when there is one
(its per-block LF counts: one block read), else from counting LF bytes up to the offset
(``bytes.count`` over 4 MiB chunks, C speed, no Python loop per byte).
:func:`line_columns` answers for many sorted offsets in one pass (a report's first
errors); :class:`LineCounter` follows a stream of units window by window (CSV rows).
:func:`offset_of_line` is the way back: where line N starts.
"""

from __future__ import annotations

import codecs
from typing import Iterable

import numpy as np

from inspector.core.scan.linefeeds import feeds_of
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation

CHUNK = 4 << 20


def _is_utf8(dialect) -> bool:
    return dialect in K.DIALECTS if isinstance(dialect, str) else interpretation(dialect).is_utf8


def index_fits(index, dialect) -> bool:
    """Whether ``index`` counted the line feeds of ``dialect`` (an index counts those of
    the reading its scan was made in; the UTF-8 dialects share theirs)."""
    if index is None:
        return False
    made = getattr(index, "dialect", K.UTF8)
    if getattr(index, "origin", None) is not None and not _is_utf8(dialect):
        return False   # its streams from the origin on are not the file's reading
    if _is_utf8(dialect) and _is_utf8(made):
        return True
    return interpretation(made) == interpretation(dialect)


def _index_usable(index, offset: int, dialect=K.UTF8) -> bool:
    return (index is not None and index.start == 0
            and index.n_blocks > 0 and index.done >= offset and index_fits(index, dialect))


def lines_before(source, offset: int, index=None, dialect=K.UTF8) -> int:
    """Line feeds that start in [0, offset)."""
    pos = 0
    n = 0
    if _index_usable(index, offset, dialect):
        blk = min(index.block_of(offset), index.n_blocks - 1)
        n = int(index.lf[:blk].sum(dtype=np.int64))
        pos = index.start + blk * index.block_size
    return n + feeds_of(dialect, source).count(source, pos, offset)


def line_start(source, offset: int, dialect=K.UTF8) -> int:
    """The offset just after the last line feed before ``offset`` (0 if none)."""
    return max(0, feeds_of(dialect, source).last_end(source, 0, offset))


def _width_utf8(read, lo: int, hi: int) -> int:
    """Characters CPython's replacing decoder makes of [lo, hi), a unit boundary at each
    end (its maximal-subpart rule is the inspector's replacement count)."""
    dec = codecs.getincrementaldecoder("utf-8")("replace")
    n = 0
    pos = lo
    while pos < hi:
        data = read(pos, min(CHUNK, hi - pos))
        if not data:
            break
        n += len(dec.decode(data, False))
        pos += len(data)
    return n + len(dec.decode(b"", True))


def cut_widths(cut) -> np.ndarray:
    """Per unit of a PageCut, the characters it counts in a column: its code points
    when valid (one, or more: ``PageCut.more``), else its replacements."""
    valid = cut.kind == 0
    width = np.where(valid, 1, cut.replacements)
    if cut.more is not None:
        width = width + np.fromiter(map(len, cut.more.tolist()), dtype=np.int64,
                                    count=len(cut)) * valid
    return width


def _width_units(source, lo: int, hi: int, dialect) -> int:
    """The same through the inspector's own page cut, for the other dialects and
    readings (a valid CESU-8 pair is one character there; so is a character of another
    encoding, or two for a Big5-HKSCS letter with its mark), the line's start ``lo``
    taken as a stream start."""
    from inspector.core.scan import pagecut

    n = 0
    pos = lo
    while pos < hi:
        stop = min(hi, pos + (1 << 20))
        last = pos
        for c in pagecut.cuts_in_range(source, pos, stop, lo, dialect):
            keep = (c.offset >= pos) & (c.offset < hi)
            n += int(cut_widths(c)[keep].sum())
            if keep.any():
                k = int(np.flatnonzero(keep)[-1])
                last = max(last, int(c.offset[k] + c.length[k]))
        if last <= pos:
            break
        pos = last
    return n


def column_of(source, offset: int, dialect=K.UTF8, start: int | None = None) -> int:
    """The 1-based column of the unit that starts at ``offset``."""
    lo = line_start(source, offset, dialect) if start is None else start
    if lo >= offset:
        return 1
    if interpretation(dialect).scanned_by_kernels:
        return 1 + _width_utf8(source.read_uncached, lo, offset)
    return 1 + _width_units(source, lo, offset, dialect)


def line_column(source, offset: int, index=None, dialect=K.UTF8) -> tuple[int, int]:
    """(line, column), both 1-based, of the unit that starts at ``offset``; ``index``: a
    finished (or far enough) scan's block index, to count lines without reading the
    file up to the offset."""
    return (1 + lines_before(source, offset, index, dialect),
            column_of(source, offset, dialect))


def line_columns(source, offsets: Iterable[int], dialect=K.UTF8,
                 index=None) -> list[tuple[int, int]]:
    """(line, column) of each unit start in ``offsets`` (ascending), in one pass over the
    bytes from the first one."""
    offsets = list(offsets)
    if interpretation(dialect).scanned_by_kernels and offsets:
        lo = line_start(source, offsets[0])
        if offsets[-1] - lo <= CHUNK:
            return _line_columns_utf8(source, offsets, lo, index)
    out = []
    feeds = feeds_of(dialect, source)
    pos = 0
    lines = 0
    for off in offsets:
        if not out:
            lines = lines_before(source, off, index, dialect)
        else:
            lines += feeds.count(source, pos, off)
        pos = off
        out.append((1 + lines, column_of(source, off, dialect)))
    return out


def _line_columns_utf8(source, offsets: list[int], lo: int, index) -> list[tuple[int, int]]:
    """:func:`line_columns` in the utf-8 dialect when the offsets lie within a chunk of
    the first one's line start ``lo``: one read, and each column carried on from the
    offset before on the same line (a replacing decode of two stretches cut at a unit
    boundary is the decode of the whole)."""
    lines = lines_before(source, lo, index, K.UTF8)
    data = source.read_uncached(lo, offsets[-1] - lo)
    out = []
    pos = 0  # relative to lo: the last offset met, or the start of its line
    column = 1
    has_lf = b"\n" in data  # often not, in the few hundred bytes of a binary file's errors
    for off in offsets:
        r = off - lo
        if has_lf:
            k = data.rfind(b"\n", pos, r)
            if k >= 0:
                lines += data.count(b"\n", pos, r)
                pos, column = k + 1, 1
        if r > pos:
            column += len(data[pos:r].decode("utf-8", "replace"))
            pos = r
        out.append((1 + lines, column))
    return out


def offset_of_line(source, line: int, index=None, dialect=K.UTF8) -> int | None:
    """Where line ``line`` (1-based) starts, or None past the last line; with a finished
    scan's index, one block is read."""
    if line <= 1:
        return 0
    want = line - 1  # line feeds before the line's start
    pos, seen = 0, 0
    size = source.size
    if index is not None and index.start == 0 and index_fits(index, dialect) \
            and index.n_blocks and index.done >= index.end:
        cum = np.cumsum(index.lf, dtype=np.int64)
        blk = int(np.searchsorted(cum, want))  # the block holding the want-th LF
        if blk >= index.n_blocks:
            return None
        seen = int(cum[blk - 1]) if blk else 0
        pos = index.start + blk * index.block_size
    return _nth_end(source, feeds_of(dialect, source), pos, size, want - seen)


def _nth_end(source, feeds, pos: int, end: int, n: int) -> int | None:
    """The end of the ``n``-th (1-based) line feed starting in [pos, end), or None."""
    while pos < end:
        stop = min(end, pos + CHUNK)
        ends = feeds.ends(source, pos, stop)
        if len(ends) >= n:
            return int(ends[n - 1])
        n -= len(ends)
        pos = stop
    return None


def pair_seconds(u: np.ndarray) -> np.ndarray:
    """For each byte from the fourth on: is it the second lead of a surrogate pair
    (ED A0..AF xx ED B0..BF xx) that starts three bytes before it?"""
    n = len(u)
    cont = (u & 0xC0) == 0x80
    i = np.arange(n - 5)
    pair = ((u[i] == 0xED) & (u[i + 1] >= 0xA0) & (u[i + 1] <= 0xAF) & cont[i + 2]
            & (u[i + 3] == 0xED) & (u[i + 4] >= 0xB0) & (u[i + 4] <= 0xBF) & cont[i + 5])
    out = np.zeros(n - 3, dtype=bool)
    out[:n - 5] = pair
    return out


class LineCounter:
    """Lines and columns of error units met window by window, vectorised: between two
    error units every unit is valid, and a valid unit is one character and one byte
    that is not a continuation byte (80..BF); an error unit counts its replacements.
    In CESU-8 and Modified UTF-8 a valid surrogate pair is one unit with two such bytes
    (two ED leads): its second lead is not counted. Windows never split a pair."""

    def __init__(self, dialect=K.UTF8):
        self.line = 1
        self.column = 1  # of the next unit, at the start of the next window
        self.pairs = dialect in K.PAIR_UNIT_DIALECTS if isinstance(dialect, str) else False
        # Another reading's windows hold every unit: its line feeds are read off them.
        self.by_units = not _is_utf8(dialect)

    def feed_window(self, window, err) -> tuple[np.ndarray, np.ndarray]:
        """Lines and columns of the rows ``err`` (error rows, in offset order) of a
        scan window (:mod:`inspector.core.scan.windows`)."""
        rows = window.rows
        if self.by_units:
            return self._feed_units(rows, err, getattr(window, "widths", None))
        return self.feed(window.data, window.base, window.stop, rows.offset[err],
                         rows.length[err], rows.repl[err])

    def _feed_units(self, rows, err, widths) -> tuple[np.ndarray, np.ndarray]:
        """Another reading's window: every unit is a row, in offset order; a line feed
        is a valid row of value 10; ``widths`` the characters each row counts (None: one
        per valid row, the replacements of a problem row)."""
        valid = rows.kind == 0
        if widths is None:
            widths = np.where(valid, 1, rows.repl)
        cum = np.zeros(len(valid) + 1, dtype=np.int64)
        np.cumsum(widths, out=cum[1:])
        lf = np.flatnonzero(valid & (rows.value == 10))
        err = np.asarray(err, dtype=np.int64)
        k = np.searchsorted(lf, err)              # line feeds before each error row
        first = np.where(k > 0, lf[np.maximum(k - 1, 0)] + 1 if len(lf) else 0, 0)
        lines = self.line + k
        cols = np.where(k > 0, 1, self.column) + cum[err] - cum[first]
        if len(lf):
            self.line += len(lf)
            self.column = 1 + int(cum[-1] - cum[lf[-1] + 1])
        else:
            self.column += int(cum[-1])
        return lines, cols

    def feed(self, data, base: int, stop: int, offs, lens, repls) -> tuple[np.ndarray, np.ndarray]:
        """The window ``data[:stop]`` (file offsets from ``base``) with its error units
        (ascending ``offs``, their lengths and replacements): returns their lines and
        columns."""
        u = np.frombuffer(data, dtype=np.uint8, count=stop)
        starts = (u & 0xC0) != 0x80
        if self.pairs and stop >= 6:
            starts[3:] &= ~pair_seconds(u)
        ncum = np.zeros(stop + 1, dtype=np.int64)
        np.cumsum(starts, out=ncum[1:])
        lf = np.flatnonzero(u == 10)
        r = np.asarray(offs, dtype=np.int64) - base
        ln = np.asarray(lens, dtype=np.int64)
        adj = np.asarray(repls, dtype=np.int64) - (ncum[np.minimum(r + ln, stop)] - ncum[r])
        cadj = np.zeros(len(r) + 1, dtype=np.int64)
        np.cumsum(adj, out=cadj[1:])
        k = np.searchsorted(lf, r)
        lines = self.line + k
        lstart = np.where(k > 0, lf[np.maximum(k - 1, 0)] + 1 if len(lf) else 0, 0)
        first = np.searchsorted(r, lstart)
        chars = ncum[r] - ncum[lstart] + cadj[np.arange(len(r))] - cadj[first]
        cols = np.where(k > 0, 1, self.column) + chars
        if len(lf):
            self.line += len(lf)
            last = int(lf[-1]) + 1
            self.column = 1 + int(ncum[stop] - ncum[last]) + int(cadj[-1] - cadj[np.searchsorted(r, last)])
        else:
            self.column += int(ncum[stop]) + int(cadj[-1])
        return lines, cols


# ---------------------------------------------------------------- a window's cheap answers

class NotReached(ValueError):
    """The scan's finished blocks do not reach what was asked: ``lines`` LF bytes are
    counted so far, up to offset ``done``."""

    def __init__(self, lines: int, done: int):
        super().__init__(f"the scan has counted {lines:,} lines so far (up to offset {done:,})")
        self.lines = lines
        self.done = done


def index_reaches(index, offset: int, dialect=K.UTF8) -> bool:
    """Can ``index`` count the lines before ``offset`` (one block read) in ``dialect``?"""
    return _index_usable(index, offset, dialect)


def line_start_indexed(source, offset: int, index, limit: int | None = None,
                       dialect=K.UTF8) -> int | None:
    """The start of the line holding ``offset`` found through the index's line feed
    counts: the offset's block is read back to it, then the last earlier block with a
    line feed. ``limit``: give up (None) when the start is more than that many bytes
    back."""
    feeds = feeds_of(dialect, source)
    blk = min(index.block_of(offset), index.n_blocks - 1)
    lo = index.start + blk * index.block_size
    k = feeds.last_end(source, lo, offset) if offset > lo else -1
    if k >= 0:
        return k
    earlier = np.flatnonzero(index.lf[:blk])
    if not len(earlier):
        return 0 if limit is None or offset <= limit else None
    b = int(earlier[-1])
    lo, hi = index.block_range(b)
    if limit is not None and offset - hi > limit:
        return None
    return feeds.last_end(source, lo, hi)


def line_of_offset(source, offset: int, index=None, direct_limit: int = 16 << 20,
                   dialect=K.UTF8) -> int | None:
    """1-based line of ``offset``, cheaply: through the index when it reaches the offset,
    by counting line feeds when the offset is within ``direct_limit`` bytes of the
    start; else None (it would mean reading the file up to the offset)."""
    if _index_usable(index, offset, dialect):
        return 1 + lines_before(source, offset, index, dialect)
    if offset <= direct_limit:
        return 1 + lines_before(source, offset, None, dialect)
    return None


def locate_line(source, line: int, index=None, direct_limit: int = 16 << 20,
                dialect=K.UTF8) -> int | None:
    """Where line ``line`` starts without reading much: through the index's finished
    blocks (one block read), or by reading a file of at most ``direct_limit`` bytes. None:
    past the last line. Raises :class:`NotReached` when the scan has not counted that far
    (a big file, no finished index)."""
    if line <= 1:
        return 0
    size = source.size
    usable = (index is not None and index_fits(index, dialect)
              and index.start == 0 and index.n_blocks > 0)
    if not usable:
        if size <= direct_limit:
            return offset_of_line(source, line, None, dialect)
        raise NotReached(0, 0)
    complete = index.done >= index.end
    finished = index.n_blocks if complete else index.blocks_done
    cum = np.cumsum(index.lf[:finished], dtype=np.int64)
    want = line - 1
    known = int(cum[-1]) if len(cum) else 0
    if known < want:
        if complete:
            return None
        if size <= direct_limit:
            return offset_of_line(source, line, None, dialect)
        raise NotReached(known, index.start + finished * index.block_size)
    blk = int(np.searchsorted(cum, want))
    seen = int(cum[blk - 1]) if blk else 0
    lo, hi = index.block_range(blk)
    return _nth_end(source, feeds_of(dialect, source), lo, hi, want - seen)


def offset_of_column(source, start: int, column: int, dialect=K.UTF8) -> tuple[int, int]:
    """The unit of column ``column`` on the line that starts at ``start``: (its offset,
    the column reached). A column past the line's end gives the line's LF (or the end of
    the file) and the last column there is."""
    units_in_range = interpretation(dialect).units_in_range
    size = source.size
    col = 1
    pos = start
    while pos < size:
        stop = min(size, pos + max(4096, 6 * (column - col) + 8))
        units = [u for u in units_in_range(source, pos, stop, start) if u.offset >= pos]
        if not units:
            break
        for u in units:
            if u.kind == K.VALID and u.value == 10:
                return u.offset, col  # the line ends at or before that column
            width = u.width
            if column < col + width:
                return u.offset, col  # the unit that makes that column
            col += width
        pos = units[-1].end
    return min(pos, max(size - 1, 0)), col
