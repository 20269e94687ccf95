"""The plain lines of UTF-8 text runs, fast: what ``utf8-inspector strings`` prints in the
standard ``utf-8`` dialect without ``--jsonl`` (each run's text on a line, perhaps after
its offset). The runs are the unit contract's "Text runs", exactly those of
:func:`.finder.find_runs` (a test compares them); only what plain output needs is worked
out: no damage flags, no scripts.

Why a second path: the finder cuts every unit with numpy, a gather per multi-byte
character, about twice the per-byte loop of GNU ``strings``. Here CPython's own UTF-8
decoder (C) cuts the units and a regular expression over the decoded text (C) finds the
runs. In standard UTF-8 both agree with the contract's units: an invalid byte becomes one
lone surrogate (``surrogateescape``), which is not printable, and no valid character is
ever part of an error (a maximal subpart holds a lead and continuation bytes, and a
continuation byte starts no character).

Three steps a block (1 MiB, cut at a unit boundary):

1. Candidate regions from byte classes (a few numpy passes): printable ASCII, a lead
   followed by a continuation byte, a continuation byte after a lead or a continuation
   byte. A run's bytes all lie in one region of at least MIN bytes; in binary data these
   regions are a few per cent of the bytes, and random bytes are slow to decode (every
   invalid byte takes the decoder's error path), so only the regions are decoded,
   gathered with a NUL between two (it ends any run), unless they cover nearly all.
2. The regions decoded with ``surrogateescape``; the runs are the matches of
   ``[P]{MIN,}`` where P is the printable characters of the Basic Multilingual Plane and
   every supplementary one: a long class of supplementary ranges would be tried in
   order for each non-printable character (the regex engine keeps a bitmap for the BMP
   only). So the lead byte of each valid but non-printable supplementary character
   (unassigned, private use, tags: found by numpy among the few F0..F4 bytes) is made an
   invalid byte before decoding.
3. The printable stretches at the block's edges join those of the neighbouring blocks
   (:class:`Lines`), and the lines go out as bytes, one join a block.

For a large file, slices of it run in worker processes (:func:`slice_pieces`), their
pieces stitched in order by the same :class:`Lines`.
"""

from __future__ import annotations

import os
import re

import numpy as np

from inspector.core.units.boundaries import boundary_at_or_after, chunk_end
from inspector.core.units.chartables import printable_table
from inspector.core.analysis.textruns.masks import PAD, mask_runs

BLOCK_SIZE = 1 << 20
SLICE_BYTES = 8 << 20  # one worker task: long enough that its fixed costs vanish, short
# enough that the slices waiting for their turn to be written stay small (text: output
# as large as the input)
COMPACT_BELOW = 0.9  # share of a block in regions under which they are gathered
# (random bytes decode ten times slower than text: a block half text, half random is
# quicker gathered)
SLICED_REGIONS = 256  # up to this many regions, gathered by slicing (else by numpy)
_patterns: dict[int, tuple] = {}


def _printable_class() -> str:
    """A regex class of the printable BMP characters and every supplementary one."""
    bmp = printable_table()[:0x10000].view(np.uint8)
    step = np.diff(np.concatenate(([0], bmp, [0])).astype(np.int8))
    starts, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1) - 1
    parts = [f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}"
             for a, b in zip(starts.tolist(), ends.tolist())]
    return "[" + "".join(parts) + "\\U00010000-\\U0010ffff]"


def patterns(min_chars: int) -> tuple:
    """(runs of at least ``min_chars``, the stretch at a position, the stretch that
    ends the text), compiled once per process."""
    found = _patterns.get(min_chars)
    if found is None:
        if not _patterns.get(0):
            cls = _printable_class()
            _patterns[0] = (cls, re.compile(cls + "*"), re.compile(cls + "*\\Z"))
        cls, lead, tail = _patterns[0]
        found = _patterns[min_chars] = (re.compile(f"{cls}{{{min_chars},}}"), lead, tail)
    return found


class Piece:
    """What a stretch of bytes gives: ``lead``, the printable text at its start (all of
    it when ``whole``), ``body`` the finished lines of the runs strictly inside it
    (bytes), ``tail`` the printable text that ends it (from ``tail_offset``). ``base``:
    the offset of its first byte."""

    __slots__ = ("base", "lead", "whole", "body", "tail", "tail_offset")

    def __init__(self, base, lead, whole, body, tail, tail_offset):
        self.base = base
        self.lead = lead
        self.whole = whole
        self.body = body
        self.tail = tail
        self.tail_offset = tail_offset


class Lines:
    """Joins pieces, in order, into the output lines: the stretch open at the end of one
    piece goes on into the next. A run longer than ``min_chars`` is written as soon as
    it is known to be a run, so a run of any length costs no memory."""

    def __init__(self, min_chars: int, radix: str | None = None, prefix: bytes = b""):
        self.min_chars = min_chars
        self.radix = radix
        self.prefix = prefix
        self._parts: list[str] = []
        self._chars = 0
        self._offset = 0
        self._written = False

    def _line_start(self, offset: int) -> bytes:
        if self.radix is None:
            return self.prefix
        return self.prefix + self.radix.format(offset).encode()

    def _extend(self, text: str, offset: int, out: list) -> None:
        if not text:
            return
        if self._written:
            out.append(text.encode())
            return
        if not self._parts:
            self._offset = offset
        self._parts.append(text)
        self._chars += len(text)
        if self._chars >= self.min_chars:
            out.append(self._line_start(self._offset) + "".join(self._parts).encode())
            self._parts = []
            self._written = True

    def _close(self, out: list) -> None:
        if self._written:
            out.append(b"\n")
        self._parts = []
        self._chars = 0
        self._written = False

    def feed(self, piece: Piece) -> bytes:
        """The output the piece finishes."""
        out: list[bytes] = []
        self._extend(piece.lead, piece.base, out)
        if not piece.whole:
            self._close(out)
            out.append(piece.body)
            self._extend(piece.tail, piece.tail_offset, out)
        return b"".join(out)

    def finish(self) -> bytes:
        out: list[bytes] = []
        self._close(out)
        return b"".join(out)


class _Work:
    """Buffers for one block's byte classes, kept between blocks: a fresh megabyte array
    per operation costs page faults (a third of the time once)."""

    def __init__(self, size: int):
        self.size = size
        self.u8 = np.empty(size, np.uint8)
        self.sup = np.empty(size, bool)
        self.cont = np.empty(size, bool)
        self.lead = np.empty(size, bool)
        self.tmp = np.empty(size, bool)


_work: _Work | None = None


def _workspace(n: int) -> _Work:
    global _work
    if _work is None or _work.size < n:
        _work = _Work(max(n, BLOCK_SIZE + PAD))
    return _work


def _regions(data: bytes, n: int, min_chars: int):
    """(starts, ends) of the stretches of ``data[:n]`` that may hold a run (see the
    module's docstring); those touching the block's edges are kept whatever their
    length."""
    w = _workspace(n)
    m = np.frombuffer(data, np.uint8, count=n)
    u8, sup, cont, lead, tmp = w.u8[:n], w.sup[:n], w.cont[:n], w.lead[:n], w.tmp[:n]
    np.subtract(m, np.uint8(0x20), out=u8)
    np.less(u8, 0x5F, out=sup)
    np.equal(m, 0x09, out=tmp)
    sup |= tmp
    np.less(m.view(np.int8), -64, out=cont)
    np.subtract(m, np.uint8(0xC2), out=u8)
    np.less(u8, 0x33, out=lead)
    np.bitwise_or(lead[:-1], cont[:-1], out=tmp[:-1])
    tmp[:-1] &= cont[1:]
    sup[1:] |= tmp[:-1]
    lead[:-1] &= cont[1:]
    sup[:-1] |= lead[:-1]
    return mask_runs(sup.view(np.uint8), min_chars)


def _gather(data: bytes, n: int, min_chars: int):
    """The bytes to decode and, per gathered region, (its position there, its offset in
    the block) for mapping offsets back (None: the block itself). None, None: no byte
    can be in a run."""
    starts, ends = _regions(data, n, min_chars)
    if not len(starts):
        return None, None
    lens = ends - starts
    if int(lens.sum()) >= COMPACT_BELOW * n:
        return _neutralized(data[:n]), None
    # Each region and a NUL after it (NUL ends any run), but one that ends the block;
    # a NUL first when the first region does not start the block.
    head = int(starts[0] != 0)
    if len(starts) <= SLICED_REGIONS:  # few and long (text): a slice each
        s_list, e_list = starts.tolist(), ends.tolist()
        sub = (b"\0" if head else b"") + b"\0".join([data[a:b] for a, b in zip(s_list, e_list)]) \
            + (b"" if e_list[-1] == n else b"\0")
        at = head + np.cumsum(lens + 1) - (lens + 1)
        return _neutralized(sub), (at, starts)
    sep = np.ones(len(starts), np.int64)
    sep[-1] = int(ends[-1] != n)
    slot = lens + sep
    at = head + np.cumsum(slot) - slot  # where each region sits in the gathered bytes
    total = head + int(slot.sum())
    # A separator's index is its region's end: a byte inside the block, zeroed after.
    pos = np.repeat(starts - at, slot) + np.arange(head, total, dtype=np.int64)
    sub = np.zeros(total, np.uint8)
    sub[head:] = np.frombuffer(data, np.uint8, count=n)[pos]
    sub[(at + lens)[sep == 1]] = 0
    return _neutralized(sub.tobytes()), (at, starts)


def _neutralized(sub: bytes) -> bytes:
    """``sub`` with the lead byte of each valid but non-printable supplementary
    character (unassigned, private use, tags) made an invalid byte (FF), so that the
    decoder gives lone surrogates there: the regex lets every supplementary character
    in (see the module's docstring). Its byte count stays."""
    a = np.frombuffer(sub, np.uint8)
    pos = np.flatnonzero(a[:-3] >= 0xF0) if len(a) > 3 else np.zeros(0, np.int64)
    if not len(pos):
        return sub
    b0, b1, b2, b3 = a[pos], a[pos + 1], a[pos + 2], a[pos + 3]
    ok = (b0 <= 0xF4) & ((b1 & 0xC0) == 0x80) & ((b2 & 0xC0) == 0x80) & ((b3 & 0xC0) == 0x80)
    cp = ((b0.astype(np.int64) & 7) << 18) | ((b1.astype(np.int64) & 0x3F) << 12) \
        | ((b2.astype(np.int64) & 0x3F) << 6) | (b3 & 0x3F)
    ok &= (cp >= 0x10000) & (cp <= 0x10FFFF)
    bad = pos[ok & ~printable_table()[np.minimum(cp, 0x10FFFF)]]
    if not len(bad):
        return sub
    fixed = bytearray(sub)
    np.frombuffer(fixed, np.uint8)[bad] = 0xFF
    return bytes(fixed)


def block_piece(data: bytes, n: int, base: int, min_chars: int, radix: str | None = None,
                prefix: bytes = b"") -> Piece:
    """The piece of ``data[:n]`` (``n`` a unit boundary no unit crosses), at ``base``
    in the source. With ``radix`` (a format such as ``"{:7d} "``) each line starts
    with the offset of the run's first byte; ``prefix`` comes before each line."""
    runs_re, lead_re, tail_re = patterns(min_chars)
    sub, layout = _gather(data, n, min_chars)
    if sub is None:
        return Piece(base, "", False, b"", "", base + n)  # no printable byte at all
    text = sub.decode("utf-8", "surrogateescape")
    k = lead_re.match(text).end()
    if k == len(text):
        return Piece(base, text, True, b"", "", base + n)
    lead = text[:k]
    if radix is None:
        runs = runs_re.findall(text, k)
        at = None
    else:
        found = list(runs_re.finditer(text, k))
        runs = [f.group() for f in found]
        at = [f.start() for f in found]
    if runs and text.endswith(runs[-1]):
        tail = runs.pop()  # the trailing stretch: it is the last match (see the doc)
        if at is not None:
            at.pop()
    else:  # shorter than MIN: it lies in the last MIN - 1 characters
        tail = tail_re.search(text, max(k, len(text) - min_chars + 1)).group()
    body = _body(runs, at, text, layout, base, radix, prefix) if runs else b""
    return Piece(base, lead, False, body, tail, base + n - len(tail.encode()))


def _body(runs, at, s, layout, base, radix, prefix) -> bytes:
    """The lines of ``runs`` (a run holds no line feed: it is no printable character)."""
    if radix is None:
        body_text = "\n".join(runs)
        if not prefix:
            return body_text.encode() + b"\n"
        return prefix + body_text.encode().replace(b"\n", b"\n" + prefix) + b"\n"
    offsets = _offsets(s, at, layout, base)
    return b"".join(prefix + radix.format(o).encode() + r.encode() + b"\n"
                    for o, r in zip(offsets, runs))


def _offsets(s: str, at: list, layout, base: int) -> list:
    """The source offsets of the characters of ``s`` at the positions ``at``."""
    cps = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), "<u4")
    width = (1 + (cps >= 0x80) + (cps >= 0x800) + (cps >= 0x10000)).astype(np.int64)
    width[(cps >= 0xDC80) & (cps <= 0xDCFF)] = 1  # an escaped byte
    first = np.concatenate(([0], np.cumsum(width)))[np.asarray(at, np.int64)]
    if layout is None:
        return (base + first).tolist()
    region_at, region_offset = layout
    k = np.searchsorted(region_at, first, side="right") - 1
    return (base + region_offset[k] + (first - region_at[k])).tolist()


def pieces(source, min_chars: int, start: int = 0, end: int | None = None,
           radix: str | None = None, prefix: bytes = b"", block_size: int = BLOCK_SIZE):
    """The pieces of ``source[start:end]`` block by block (``start`` a unit boundary)."""
    end = source.size if end is None else min(end, source.size)
    pos = start
    block_size = max(block_size, 16)
    while pos < end:
        data = source.read_uncached(pos, min(block_size + PAD, end - pos))
        if not data:
            break
        if pos + len(data) >= end:
            data = data[:end - pos]
            n = len(data)
        else:
            n = chunk_end(data, block_size, False)
            if n <= 0:
                n = block_size
        yield block_piece(data, n, pos, min_chars, radix, prefix)
        pos += n


def lines(source, min_chars: int, radix: str | None = None, prefix: bytes = b"",
          block_size: int = BLOCK_SIZE):
    """The output of ``source``, a block's worth of bytes at a time."""
    joiner = Lines(min_chars, radix, prefix)
    for piece in pieces(source, min_chars, radix=radix, prefix=prefix, block_size=block_size):
        out = joiner.feed(piece)
        if out:
            yield out
    out = joiner.finish()
    if out:
        yield out


class _SliceReader:
    """A worker's own view of the file: ``read_uncached`` and ``size``."""

    def __init__(self, fd: int, size: int):
        self.fd = fd
        self.size = size

    def read_uncached(self, offset: int, length: int) -> bytes:
        return os.pread(self.fd, max(0, min(length, self.size - offset)), offset)


def _boundary(reader, p: int) -> int:
    """The first unit boundary at or after ``p`` (as every slice computes it)."""
    if p <= 0 or p >= reader.size:
        return min(max(p, 0), reader.size)
    lo = max(0, p - 8)
    return lo + boundary_at_or_after(reader.read_uncached(lo, p + 16 - lo), p - lo, 0)


def slice_pieces(job: tuple) -> list[Piece]:
    """A worker's task: the pieces of one slice of a file, ``job`` = (path, size, lo,
    hi, min_chars, radix, prefix); the slice runs from the first unit boundary at or
    after ``lo`` to the one at or after ``hi``, so that slices meet exactly."""
    path, size, lo, hi, min_chars, radix, prefix = job
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        reader = _SliceReader(fd, size)
        start, end = _boundary(reader, lo), _boundary(reader, hi)
        return list(pieces(reader, min_chars, start, end, radix, prefix))
    finally:
        os.close(fd)


def slice_jobs(path, size: int, min_chars: int, radix: str | None, prefix: bytes,
               slice_bytes: int | None = None) -> list[tuple]:
    """The tasks of a file of ``size`` bytes, one a ``slice_bytes`` (default
    :data:`SLICE_BYTES`), for :func:`slice_pieces`."""
    slice_bytes = slice_bytes or SLICE_BYTES
    return [(path, size, lo, min(lo + slice_bytes, size), min_chars, radix, prefix)
            for lo in range(0, size, slice_bytes)]
