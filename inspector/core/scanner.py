"""The whole-file scanner: exact counts, an index, progress, cancellation.

The results are identical to cutting the scanned stream with
:func:`inspector.core.decoder.cut` (a test compares them), but the hot path has no
per-byte Python loop: see :mod:`inspector.core._scan_kernels`.

A region [start, end) is scanned as its own stream (a unit cut by ``end`` is truncated,
continuation bytes right after ``start`` are strays), the way the decoder cuts from an
origin. With ``origin`` X inside the region, the bytes before X and from X on are two
streams, as in :func:`inspector.core.decoder.units_in_range`.

``units`` counts valid units by byte length: keys 1–4, plus 5 and 6 for the dialects that
have longer valid units (FSS-UTF's 5- and 6-byte forms; a CESU-8 / Modified UTF-8
surrogate pair is one valid 6-byte unit, under key 6).
"""

from __future__ import annotations

import codecs
import hashlib
import time
from collections import Counter
from typing import Callable, Iterator

import numpy as np

from inspector.core import _scan_kernels as KR
from inspector.core import kinds as K
from inspector.core.blockindex import DEFAULT_BLOCK, BlockIndex
from inspector.core.decoder import Unit
from inspector.core.unicode_db import UNICODE_VERSION

DEFAULT_CHUNK = 1 << 20
DENSE_WINDOW = 128 * 1024  # windows full of errors are cut smaller: their arrays are per unit
DENSE_STREAK = 8  # after a dense window, this many more go straight to the dense path
RETRY_LIMIT = 256  # errors allowed when the C decoder is tried again after a dense streak
_LOOKAHEAD = 16



def _add_warning_bits(bits, index, blk: int, result) -> None:
    """Count warnings from per-character warning bits into one block and the totals."""
    present = int(np.bitwise_or.reduce(bits))
    for w, name in enumerate(K.WARNING_KINDS):
        bit = 1 << w
        if present & bit:
            c = int(np.count_nonzero(bits & bit))
            index.warnings[blk, w] += c
            result.warnings_by_kind[name] += c

class ScanCancelled(Exception):
    """The scan was cancelled before it finished."""


class ScanProgress:
    __slots__ = ("done", "total", "result")

    def __init__(self, done: int, total: int, result: "ScanResult"):
        self.done = done  # bytes scanned so far (of the region)
        self.total = total
        self.result = result

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else self.done / self.total

    def __repr__(self):
        return f"ScanProgress({self.done}/{self.total})"


class ScanResult:
    """Counts of one scan. Filled as the scan goes (``complete`` turns True at the end)."""

    def __init__(self, size: int, dialect: str, start: int, end: int, index: BlockIndex,
                 max_errors: int, origin: int | None):
        self.size = size
        self.dialect = dialect
        self.start = start
        self.end = end
        self.origin = origin
        self.units = {length: 0 for length in (1, 2, 3, 4, 5, 6)}
        self.errors_by_kind = {k: 0 for k in K.ERROR_KINDS}
        self.warnings_by_kind = {w: 0 for w in K.WARNING_KINDS}
        self.replacements = 0
        self.error_bytes = 0
        self.binary_bytes = 0
        self.sha256: str | None = None
        self.first_errors: list[Unit] = []
        self.max_errors = max_errors
        self.index = index
        self.complete = False
        self.scanned = 0  # bytes scanned
        self.short_read = False  # the file ended before its recorded size
        self.seconds = 0.0
        self.unicode_version = UNICODE_VERSION

    @property
    def whole_file(self) -> bool:
        return self.start == 0 and self.end == self.size

    @property
    def code_points(self) -> int:
        return sum(self.units.values())

    @property
    def error_units(self) -> int:
        return sum(self.errors_by_kind.values())

    @property
    def warning_units(self) -> int:
        return sum(self.warnings_by_kind.values())

    @property
    def valid(self) -> bool:
        return self.complete and self.error_units == 0

    def units_dict(self) -> dict[str, int]:
        lengths = (1, 2, 3, 4) + {K.CESU8: (6,), K.MUTF8: (6,), K.FSS_UTF: (5, 6)}.get(self.dialect, ())
        return {str(n): self.units[n] for n in lengths}

    def to_dict(self) -> dict:
        return {
            "size": self.size,
            "start": self.start,
            "end": self.end,
            "origin": self.origin,
            "dialect": self.dialect,
            "complete": self.complete,
            "valid": self.valid,
            "sha256": self.sha256,
            "units": self.units_dict(),
            "code_points": self.code_points,
            "errors": {"total": self.error_units, "replacements": self.replacements,
                       "by_kind": dict(self.errors_by_kind)},
            "warnings": {"total": self.warning_units, "by_kind": dict(self.warnings_by_kind)},
            "unicode_version": self.unicode_version,
        }

    def __repr__(self):
        return (f"ScanResult({self.dialect}, {self.scanned}/{self.end - self.start} bytes, "
                f"{self.error_units} errors, complete={self.complete})")


def segments(start: int, end: int, origin: int | None) -> list[tuple[int, int]]:
    """The streams a region is cut as: split at the origin when it lies inside."""
    if origin is not None and start < origin < end:
        return [(start, origin), (origin, end)]
    return [(start, end)]


def _reader(source):
    return getattr(source, "read_uncached", None) or source.read


def iter_windows(source, lo: int, hi: int, seg_start: int, seg_end: int, dialect: str, *,
                 origin: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                 want_warnings: bool = True, hasher=None, dense_window: int = DENSE_WINDOW,
                 on_read: Callable[[int], None] | None = None) -> Iterator[KR.Window]:
    """Windows that together hold every unit starting in [lo, hi) of the stream
    [seg_start, seg_end) (and perhaps a few units just outside, which callers filter).

    ``hasher`` is fed every byte of [lo, hi) in order when ``lo`` is the stream start.
    """
    from inspector.core.decoder import _safe_boundary

    hi = min(hi, seg_end)
    if lo >= hi:
        return
    read = _reader(source)
    pos = lo if lo <= seg_start else _safe_boundary(source, lo, origin, dialect)
    # Where reading stops: the stream's end, or a little past hi, so the last unit that
    # starts before hi is whole.
    read_end = seg_end if hi >= seg_end else min(seg_end, hi + _LOOKAHEAD)
    dense_left = 0
    retrying = False
    chunk_size = max(64, chunk_size)
    while pos < hi:
        want = dense_window if dense_left else chunk_size
        length = min(want + _LOOKAHEAD, read_end - pos)
        # Each window is read afresh from its first byte (the few bytes after the last
        # window's stop are read twice), so nothing is copied to join pieces.
        buf = read(pos, length)
        if not buf:
            return  # the file ended sooner than it said
        short = len(buf) < length
        if pos + len(buf) >= read_end or short:
            if read_end >= seg_end or short:
                stop, stream_ends = len(buf), True
            else:
                stop, stream_ends = _stop_at_or_after(buf, hi - pos, dialect), False
        else:
            stop, stream_ends = KR.safe_stop(buf, min(want, len(buf) - 8), dialect), False
        final = stream_ends and stop == len(buf)
        window = KR.analyse(buf, pos, stop, final, dialect, dense=dense_left > 0,
                            want_warnings=want_warnings, dense_max=dense_window,
                            dense_limit=RETRY_LIMIT if retrying else None)
        retrying = False
        if window is None:  # full of errors: cut a smaller window
            dense_left = DENSE_STREAK
            if len(buf) > dense_window + 8:
                stop = KR.safe_stop(buf, dense_window, dialect)
            final = stream_ends and stop == len(buf)
            window = KR.analyse(buf, pos, stop, final, dialect, dense=True,
                                want_warnings=want_warnings)
        elif window.mode == "dense":
            dense_left -= 1
            retrying = dense_left == 0
        else:
            dense_left = 0
        if hasher is not None:
            hasher.update(memoryview(buf)[:stop])
        if on_read is not None:
            on_read(stop)
        yield window
        pos += stop
        if short and stop == len(buf):
            return


def _stop_at_or_after(buf, p: int, dialect: str) -> int:
    """The first safe unit boundary at or after ``p`` (``buf`` reaches 8+ bytes past)."""
    n = len(buf)
    q = p
    while q < n and q < p + 6 and 0x80 <= buf[q] <= 0xBF:
        q += 1
    q = min(q, n)
    if q < n and KR.splits_pair(buf, q, dialect):
        q += 3
    return min(q, n)


# ------------------------------------------------------------------------ aggregation

_LEN_CLASSES = 7


def _add_window(result: ScanResult, index: BlockIndex, window: KR.Window, seg_start: int) -> None:
    if window.all_rows and window.rows.n_leads is not None:
        _add_dense_window(result, index, window)
    else:
        _add_rows_window(result, index, window)


_LENGTHS = np.arange(8, dtype=np.int64)
_NON_BINARY = bytes(b for b in range(256) if not KR._BINARY_ASCII[b])


def _add_dense_window(result: ScanResult, index: BlockIndex, window: KR.Window) -> None:
    """A window whose rows are all its units, leads then strays, each part in order:
    counted block by block with one histogram per block, no per-row selections."""
    rows = window.rows
    bs = index.block_size
    istart = index.start
    base, stop = window.base, window.stop
    nl = rows.n_leads
    lead_off = rows.offset[:nl]
    stray_off = rows.offset[nl:]
    # code = length + 8 * kind + 64 * (one replacement for a multi-byte error)
    kind = rows.kind[:nl]
    one = (rows.repl[:nl] == 1) & (rows.length[:nl] > 1)
    code = rows.length[:nl].astype(np.uint8)
    code += kind << np.uint8(3)
    code += one.view(np.uint8) << np.uint8(6)
    problem = (kind != KR.C_VALID) | (rows.warn[:nl] != 0)
    warned = np.flatnonzero(rows.warn[:nl])
    first_block = (base - istart) // bs
    last_block = (base + stop - 1 - istart) // bs
    edges = [base] + [istart + b * bs for b in range(first_block + 1, last_block + 1)] + [base + stop]
    li = np.searchsorted(lead_off, edges)
    si = np.searchsorted(stray_off, edges)
    wi = np.searchsorted(lead_off[warned], edges) if len(warned) else None
    data = window.data
    for j, blockno in enumerate(range(first_block, last_block + 1)):
        a, b = li[j], li[j + 1]
        strays = int(si[j + 1] - si[j])
        hist = np.bincount(code[a:b], minlength=128)
        valid = hist[:8]
        for length in range(1, 7):
            index.units[blockno, length - 1] += int(valid[length])
            result.units[length] += int(valid[length])
        by = hist.reshape(2, 8, 8)  # [one replacement?, kind, length]
        counts = by.sum(axis=(0, 2))
        counts[KR.C_STRAY] += strays
        err_bytes = strays + int((by[:, 1:, :] * _LENGTHS).sum())
        repl = strays + int(by[1, 1:, :].sum()) + int((by[0, 1:, :] * _LENGTHS).sum())
        for kcode in range(1, 8):
            count = int(counts[kcode])
            if count:
                index.errors[blockno, kcode - 1] += count
                result.errors_by_kind[K.ERROR_KINDS[kcode - 1]] += count
        index.replacements[blockno] += repl
        result.replacements += repl
        index.error_bytes[blockno] += err_bytes
        result.error_bytes += err_bytes
        lo, hi = edges[j] - base, edges[j + 1] - base
        binary = len(data[lo:hi].translate(None, _NON_BINARY))
        index.binary[blockno] += err_bytes + binary
        result.binary_bytes += err_bytes + binary
        if wi is not None and wi[j + 1] > wi[j]:
            wbits = rows.warn[warned[wi[j]:wi[j + 1]]]
            present = int(np.bitwise_or.reduce(wbits))
            for w, name in enumerate(K.WARNING_KINDS):
                if present & (1 << w):
                    c = int(np.count_nonzero(wbits & (1 << w)))
                    index.warnings[blockno, w] += c
                    result.warnings_by_kind[name] += c
        firsts = []
        if b > a:
            pk = int(np.argmax(problem[a:b]))
            if problem[a + pk]:
                firsts.append(int(lead_off[a + pk]))
        if strays:
            firsts.append(int(stray_off[si[j]]))
        if firsts:
            f = min(firsts)
            cur = int(index.first_problem[blockno])
            if cur < 0 or f < cur:
                index.first_problem[blockno] = f
    _collect_first_errors(result, rows)


def _collect_first_errors(result: ScanResult, rows: KR.Rows) -> None:
    if len(result.first_errors) >= result.max_errors or not len(rows):
        return
    need = result.max_errors - len(result.first_errors)
    ei = np.flatnonzero(rows.kind != KR.C_VALID)
    if not len(ei):
        return
    if len(ei) > need:
        # The first `need` errors are among the first `need` of each ordered part.
        if rows.n_leads is not None:
            nl = rows.n_leads
            cut_at = np.searchsorted(ei, nl)
            ei = np.concatenate((ei[:cut_at][:need], ei[cut_at:][:need]))
    order = ei[np.argsort(rows.offset[ei], kind="stable")][:need]
    for i in order:
        result.first_errors.append(row_unit(rows, int(i)))


def _add_rows_window(result: ScanResult, index: BlockIndex, window: KR.Window) -> None:
    bs = index.block_size
    istart = index.start
    base, stop = window.base, window.stop
    first_block = (base - istart) // bs
    last_block = (base + stop - 1 - istart) // bs
    nbl = last_block - first_block + 1
    rows = window.rows
    sl = slice(first_block, first_block + nbl)

    def blocks_of(offsets):
        return (offsets - istart) // bs - first_block

    # Valid units by length.
    units = np.zeros((nbl, _LEN_CLASSES), dtype=np.int64)
    if window.all_rows:
        valid = rows.kind == KR.C_VALID
        units += np.bincount(blocks_of(rows.offset[valid]) * _LEN_CLASSES + rows.length[valid],
                             minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
    else:
        _byte_class_counts(units, window, istart, bs, first_block)
        if window.mode == "sparse":
            lb = window.iv_lead_byte
            cls = 1 + (lb >= 0xC0).astype(np.int64) + (lb >= 0xE0) + (lb >= 0xF0)
            units -= np.bincount(blocks_of(window.iv_lead_offset) * _LEN_CLASSES + cls,
                                 minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
            units += np.bincount(blocks_of(window.iv_valid_offset) * _LEN_CLASSES + window.iv_valid_length,
                                 minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
    index.units[sl] += units[:, 1:].astype(np.int32)
    totals = units.sum(axis=0)
    for length in range(1, 7):
        result.units[length] += int(totals[length])

    if len(rows):
        blk = blocks_of(rows.offset)
        err = rows.kind != KR.C_VALID
        if err.any():
            eb = blk[err]
            ek = rows.kind[err].astype(np.int64) - 1
            ec = np.bincount(eb * 7 + ek, minlength=nbl * 7).reshape(nbl, 7)
            index.errors[sl] += ec.astype(np.int32)
            for k, name in enumerate(K.ERROR_KINDS):
                result.errors_by_kind[name] += int(ec[:, k].sum())
            rep = np.bincount(eb, weights=rows.repl[err], minlength=nbl).astype(np.int64)
            index.replacements[sl] += rep.astype(np.int32)
            result.replacements += int(rep.sum())
            eby = np.bincount(eb, weights=rows.length[err], minlength=nbl).astype(np.int64)
            index.error_bytes[sl] += eby.astype(np.int32)
            index.binary[sl] += eby.astype(np.int32)
            result.error_bytes += int(eby.sum())
            result.binary_bytes += int(eby.sum())
        warned = rows.warn != 0
        if warned.any():
            wb = blk[warned]
            wbits = rows.warn[warned]
            present = int(np.bitwise_or.reduce(wbits))
            for w, name in enumerate(K.WARNING_KINDS):
                if present & (1 << w):
                    c = np.bincount(wb[(wbits & (1 << w)) != 0], minlength=nbl)
                    index.warnings[sl, w] += c.astype(np.int32)
                    result.warnings_by_kind[name] += int(c.sum())
        asc = (~err) & (rows.length == 1) & (rows.value >= 0) & (rows.value < 0x80)
        if asc.any():
            binmask = asc.copy()
            binmask[asc] = KR._BINARY_ASCII[rows.value[asc]]
            if binmask.any():
                c = np.bincount(blk[binmask], minlength=nbl)
                index.binary[sl] += c.astype(np.int32)
                result.binary_bytes += int(c.sum())
        problem = err | warned
        if problem.any():
            pb = blk[problem]
            first = np.full(nbl, np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(first, pb, rows.offset[problem])
            have = first != np.iinfo(np.int64).max
            cur = index.first_problem[sl]
            cur[:] = np.where(have & ((cur < 0) | (first < cur)), first, cur)
        if err.any():
            _collect_first_errors(result, rows)


def _byte_class_counts(units: np.ndarray, window: KR.Window, istart: int, bs: int,
                       first_block: int) -> None:
    """Units by length in valid UTF-8, block by block: every non-continuation byte
    starts a unit, its value range gives the length."""
    return _byte_class_counts_data(units, window.data, window.base, window.stop, istart, bs, first_block)


def _byte_class_counts_data(units, data, base, stop, istart, bs, first_block):
    m = np.frombuffer(data, dtype=np.uint8, count=stop)
    pos = 0
    b = 0
    # The whole buffer (a few bytes past stop too): no copy, and if it is all ASCII so
    # is the window; otherwise the general count is exact anyway.
    ascii_all = data.isascii()
    if not ascii_all:
        nc = m.view(np.int8) >= -64
        c0 = m >= 0xC0
        e0 = m >= 0xE0
        f0 = m >= 0xF0
    while pos < stop:
        block_end = istart + (first_block + b + 1) * bs - base
        piece_end = min(stop, block_end)
        if ascii_all:
            units[b, 1] += piece_end - pos
        else:
            s = slice(pos, piece_end)
            n_nc = np.count_nonzero(nc[s])
            n_c0 = np.count_nonzero(c0[s])
            n_e0 = np.count_nonzero(e0[s])
            n_f0 = np.count_nonzero(f0[s])
            units[b, 1] += n_nc - n_c0
            units[b, 2] += n_c0 - n_e0
            units[b, 3] += n_e0 - n_f0
            units[b, 4] += n_f0
        pos = piece_end
        b += 1


def row_unit(rows: KR.Rows, i: int) -> Unit:
    """One row as a decoder Unit."""
    kind = KR.KIND_CODES[int(rows.kind[i])]
    value = int(rows.value[i])
    bits = int(rows.warn[i])
    warnings = tuple(w for j, w in enumerate(K.WARNING_KINDS) if bits & (1 << j)) if bits else ()
    return Unit(int(rows.offset[i]), int(rows.length[i]), kind, None if value < 0 else value,
                int(rows.repl[i]), bool(rows.at_end[i]), warnings)


# ----------------------------------------------------------- the utf-8 dialect's fast path
#
# For the default dialect the scanner never builds per-unit rows. Three paths:
# * clean: a window (256 KiB) is validated by CPython's C decoder (strict); units by
#   length come from byte-class counts, warnings from one byte-table lookup per
#   decoded character (numpy's UCS-4 copy of the str), positions only for the hits;
# * sparse errors: once a window has had errors, windows follow the blocks (64 KiB,
#   so every unit of a window belongs to one block) and are decoded with the
#   surrogateescape handler: the same lookup finds the warnings and the error bytes
#   (U+DC80..U+DCFF), whose runs are classified apart (each distinct run once);
# * dense errors (more than 1 error byte in 64): the byte-level kernel
#   (:class:`_scan_kernels.Utf8Block`): one code per byte, one histogram.
# Exact rows are built only for the first ``max_errors`` errors (the report's list).

FAST_WINDOW = 256 * 1024  # a clean window: its decoded text stays in the L2 cache
_CLEAN_PREFIX = 16 * 1024  # a valid stretch before a window's first error worth decoding apart


def _block_edges(index: BlockIndex, base: int, a: int, b: int):
    """Edges (relative to ``a``) of the blocks that [base + a, base + b) touches, and
    the first block's number."""
    bs = index.block_size
    istart = index.start
    first = (base + a - istart) // bs
    last = (base + b - 1 - istart) // bs
    edges = [0] + [istart + k * bs - base - a for k in range(first + 1, last + 1)] + [b - a]
    return edges, first


def _add_units(result, index, first, per_length) -> None:
    """``per_length[L-1]`` is a list of counts per block."""
    for L, counts in enumerate(per_length, start=1):
        total = 0
        for j, c in enumerate(counts):
            if c:
                index.units[first + j, L - 1] += c
                total += c
        result.units[L] += total


def _set_first_problem(index, first, firsts) -> None:
    for j, f in enumerate(firsts):
        if f >= 0:
            cur = int(index.first_problem[first + j])
            if cur < 0 or f < cur:
                index.first_problem[first + j] = f


_CTRL_INDEX = K.WARNING_KINDS.index(K.CONTROL)


def _ascii_controls(v: np.ndarray):
    """Masks of the ASCII controls that warn (all but tab, LF, CR) and of those that
    look binary (also not VT, FF, ESC)."""
    ctrl = (v < 32) & (v >= 0)
    if not ctrl.any():
        ctrl = v == 127
        return ctrl, ctrl
    for c in (9, 10, 13):
        ctrl &= v != c
    ctrl |= v == 127
    binary = ctrl & (v != 11) & (v != 12) & (v != 27)
    return ctrl, binary


def _warned_units(result, index, first, nbl, offsets, bits, edges_abs) -> list[int]:
    """Count warning units (absolute ``offsets``, sorted, with warning ``bits``) block by
    block; return the first such offset per block (-1 if none)."""
    if not len(offsets):
        return [-1] * nbl
    blk = np.searchsorted(offsets, edges_abs)
    present = int(np.bitwise_or.reduce(bits))
    for w, name in enumerate(K.WARNING_KINDS):
        bit = 1 << w
        if present & bit:
            has = (bits & bit) != 0
            cum = np.concatenate(([0], np.cumsum(has)))
            total = 0
            for j in range(nbl):
                c = int(cum[blk[j + 1]] - cum[blk[j]])
                if c:
                    index.warnings[first + j, w] += c
                    total += c
            result.warnings_by_kind[name] += total
    return [int(offsets[blk[j]]) if blk[j + 1] > blk[j] else -1 for j in range(nbl)]


def _code_points(text: str) -> np.ndarray:
    """The code points of ``text`` as uint32, lone surrogates included (numpy copies the
    string's UCS-4 form; ``encode`` would refuse the surrogates)."""
    return np.array(text).reshape(1).view(np.uint32)


def _text_warnings(text: str):
    """(indices, code points) of the characters of ``text`` that carry a warning, or
    None: one lookup per character in a byte table."""
    cps = _code_points(text)
    flags = KR.tables().any8.take(cps).view(bool)
    if not flags.any():
        return None
    hits = np.flatnonzero(flags)
    return hits, cps[hits]


def _clean_window(result, index, buf, base: int, a: int, b: int, text: str) -> None:
    """[a, b) of ``buf`` is valid UTF-8 decoding to ``text``."""
    edges, first = _block_edges(index, base, a, b)
    nbl = len(edges) - 1
    n = b - a
    v = np.frombuffer(buf, dtype=np.int8, count=n, offset=a)
    edges_abs = [base + a + e for e in edges]
    if text.isascii():
        _add_units(result, index, first, [[edges[j + 1] - edges[j] for j in range(nbl)]])
        ctrl, binary = _ascii_controls(v)
        if ctrl.any():
            counts = KR.count_slices(ctrl, edges)
            for j, c in enumerate(counts):
                index.warnings[first + j, _CTRL_INDEX] += c
            result.warnings_by_kind[K.CONTROL] += sum(counts)
            bcounts = KR.count_slices(binary, edges)
            for j, c in enumerate(bcounts):
                index.binary[first + j] += c
            result.binary_bytes += sum(bcounts)
            firsts = KR.first_in_slices(ctrl, edges)
            _set_first_problem(index, first, [f + base + a if f >= 0 else -1 for f in firsts])
        return
    A = KR.count_slices(v >= 0, edges)
    if nbl == 1:
        cont = None
        C = [n - len(text)]  # one character per non-continuation byte
    else:
        cont = v < -64
        C = KR.count_slices(cont, edges)
    # As int8, E0..FF and F0..FF are -32..-1 and -16..-1: ASCII (0..127) is taken off.
    G3 = [g - x for g, x in zip(KR.count_slices(v >= -32, edges), A)]
    G4 = [g - x for g, x in zip(KR.count_slices(v >= -16, edges), A)]
    ln = [edges[j + 1] - edges[j] for j in range(nbl)]
    _add_units(result, index, first, [A, [ln[j] - A[j] - C[j] - G3[j] for j in range(nbl)],
                                      [G3[j] - G4[j] for j in range(nbl)], G4])
    found = _text_warnings(text)
    if found is None:
        return
    hits, cp = found
    starts = np.flatnonzero(v >= -64)[hits]  # the k-th character starts at the k-th lead
    _text_hits(result, index, first, nbl, edges_abs, starts + (base + a), cp)


def _text_hits(result, index, first, nbl, edges_abs, offsets, cp) -> None:
    t = KR.tables()
    bits = t.bits[cp]
    if offsets[0] == 0 and cp[0] == 0xFEFF:
        bits[0] = (bits[0] & ~np.uint16(KR.B_ZWNBSP)) | KR.B_BOM
    firsts = _warned_units(result, index, first, nbl, offsets, bits, edges_abs)
    _set_first_problem(index, first, firsts)
    asc = cp < 0x80
    if asc.any():
        binary = np.zeros(len(cp), dtype=bool)
        binary[asc] = KR._BINARY_ASCII[cp[asc]]
        if binary.any():
            blk = np.searchsorted(offsets[binary], edges_abs)
            for j in range(nbl):
                c = int(blk[j + 1] - blk[j])
                if c:
                    index.binary[first + j] += c
                    result.binary_bytes += c


DENSE_PIECE = 64 * 1024


def _dense_window(result, index, buf, base: int, a: int, b: int, final: bool) -> int:
    """[a, b) of ``buf`` (a unit boundary at each end) holds errors: cut at byte level,
    one block at a time. Returns the number of error units."""
    bs = index.block_size
    errors = 0
    lo = a
    while lo < b:
        next_edge = index.start + ((base + lo - index.start) // bs + 1) * bs - base
        hi = b if next_edge >= b else min(b, _boundary_at_or_after(buf, next_edge, lo))
        blk = (base + lo - index.start) // bs
        # Pieces of at most DENSE_PIECE bytes: the kernel's few dozen temporary masks
        # then stay in the L2 cache.
        while lo < hi:
            piece_end = hi if hi - lo <= DENSE_PIECE else _boundary_at_or_after(buf, lo + DENSE_PIECE, lo)
            errors += _dense_block(result, index, buf, base, lo, piece_end, blk)
            lo = piece_end
    if len(result.first_errors) < result.max_errors:
        m = np.frombuffer(buf, dtype=np.uint8, count=b - a, offset=a)
        shift = base + a
        rows = KR.classify(m, lambda ix: ix.astype(np.int64) + shift, None, final, K.UTF8)
        _collect_first_errors(result, rows)
    return errors


def _dense_block(result, index, buf, base: int, a: int, b: int, blk: int) -> int:
    """[a, b): units that all start in block ``blk``."""
    C = KR.Utf8Block(buf, a, b)
    for L, c in enumerate(C.units, start=1):
        if c:
            index.units[blk, L - 1] += c
            result.units[L] += c
    n_errors = 0
    for kcode in range(1, 8):
        c = C.errors[kcode]
        if c:
            n_errors += c
            index.errors[blk, kcode - 1] += c
            result.errors_by_kind[K.ERROR_KINDS[kcode - 1]] += c
    index.replacements[blk] += C.replacements
    result.replacements += C.replacements
    index.error_bytes[blk] += C.error_bytes
    result.error_bytes += C.error_bytes
    index.binary[blk] += C.error_bytes + C.binary
    result.binary_bytes += C.error_bytes + C.binary
    if C.control:
        index.warnings[blk, _CTRL_INDEX] += C.control
        result.warnings_by_kind[K.CONTROL] += C.control
    first = C.first_problem
    # Warnings of valid multi-byte units: their code points computed from the bytes
    # when they are few, else through the decoder (errors dropped: one character per
    # valid unit).
    n_multi = C.units[1] + C.units[2] + C.units[3]
    offsets = cp = None
    if n_multi and n_multi * 8 <= C.n:
        # Few valid multi-byte units (binary data): their (lead, second byte) pairs say
        # which can carry a warning (exactly, for 2-byte units); values are computed only
        # for those.
        pos = C.valid_multi_positions()
        m = C.padded  # zeros past the end: a short unit never reads another's bytes
        t = KR.tables()
        b0 = m[pos]
        key = b0.astype(np.intp) << 8
        key |= m[pos + 1]
        risky = t.risk2.take(key)
        if risky.any():
            pos = pos[risky]
            b0 = b0[risky].astype(np.uint32)
            b1 = (m[pos + 1] & 0x3F).astype(np.uint32)
            b2 = (m[pos + 2] & 0x3F).astype(np.uint32)
            b3 = (m[pos + 3] & 0x3F).astype(np.uint32)
            # The value for each length; the lead's high bits pick the right one.
            cpa = np.where(b0 < 0xE0, ((b0 & 0x1F) << 6) | b1,
                           np.where(b0 < 0xF0, ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
                                    ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3))
            flags = t.any8.take(cpa).view(bool)
            if flags.any():
                hits = np.flatnonzero(flags)
                offsets, cp = pos[hits], cpa[hits]
    elif n_multi:
        text = codecs.utf_8_decode(memoryview(buf)[a:b], "ignore", True)[0]
        cps = _code_points(text)
        flags = KR.tables().any8.take(cps).view(bool)
        if flags.any():
            hits = np.flatnonzero(flags)
            hcp = cps[hits]
            wide = hcp >= 0x80  # the ASCII controls are counted above
            if wide.any():
                offsets = np.flatnonzero(C.valid_starts())[hits[wide]]
                cp = hcp[wide]
    if offsets is not None:
        offsets = offsets + (base + a)
        bits = KR.tables().bits[cp]
        if offsets[0] == 0 and cp[0] == 0xFEFF:
            bits[0] = (bits[0] & ~np.uint16(KR.B_ZWNBSP)) | KR.B_BOM
        _add_warning_bits(bits, index, blk, result)
        f = int(offsets[0]) - base - a
        first = f if first < 0 else min(first, f)
    if first >= 0:
        _set_first_problem(index, blk, [base + a + first])
    return n_errors


_RUN_CACHE: dict[bytes, tuple[int, tuple[int, ...]]] = {}
_RUN_CACHE_MAX = 1 << 16
_SECOND_LO = bytes(KR._SECOND_LO.tolist())
_SECOND_HI = bytes(KR._SECOND_HI.tolist())


def _classify_run(run: bytes) -> tuple[int, tuple[int, ...]]:
    """(replacements, kind codes of its units) of a run of error bytes: a union of whole
    error units, cut alone as in the stream (the byte after it starts a valid unit or
    the stream ends). Cached: runs repeat."""
    kinds = []
    repl = 0
    i, n = 0, len(run)
    while i < n:
        b = run[i]
        if b < 0xC0 or b >= 0xFE:  # a stray continuation byte or FE/FF (never ASCII here)
            kinds.append(KR.C_STRAY if b < 0xC0 else KR.C_INVALID)
            repl += 1
            i += 1
            continue
        size = _STRUCT[b]
        j = i + 1
        while j < n and j - i < size and 0x80 <= run[j] <= 0xBF:
            j += 1
        ulen = j - i
        second_ok = ulen > 1 and _SECOND_LO[b] <= run[i + 1] <= _SECOND_HI[b]
        if ulen < size:
            kinds.append(KR.C_TRUNCATED)
            repl += 1 if ulen == 1 or second_ok else ulen
        else:
            s2 = run[i + 1]
            if size >= 5:
                kind = KR.C_LEGACY
            elif b < 0xC2 or (b == 0xE0 and s2 < 0xA0) or (b == 0xF0 and s2 < 0x90):
                kind = KR.C_OVERLONG
            elif b == 0xED and s2 >= 0xA0:
                kind = KR.C_SURROGATE
            elif b >= 0xF5 or (b == 0xF4 and s2 >= 0x90):
                kind = KR.C_OUT_OF_RANGE
            else:
                raise AssertionError(f"valid unit inside a run of error bytes: {run!r}")
            kinds.append(kind)
            repl += ulen
        i = j
    known = (repl, tuple(kinds))
    if len(_RUN_CACHE) >= _RUN_CACHE_MAX:
        _RUN_CACHE.clear()
    _RUN_CACHE[run] = known
    return known


def _escape_window(result, index, buf, base: int, stop: int, final: bool, first: int) -> int:
    """A window inside one block with few errors: CPython's decoder with the
    surrogateescape handler turns every error byte into U+DC80..U+DCFF, so one table
    lookup per character finds both the warnings and the error bytes; runs of error
    bytes are exactly unions of error units, classified apart. Returns the number of
    error bytes."""
    view = memoryview(buf)[:stop]
    text = codecs.utf_8_decode(view, "surrogateescape", True)[0]
    cps = _code_points(text)
    t = KR.tables()
    flags = t.any8_escapes.take(cps).view(bool)
    if not flags.any():
        _clean_window(result, index, buf, base, 0, stop, text)
        return 0
    hits = np.flatnonzero(flags)
    hcp = cps[hits]
    esc = (hcp >= 0xDC80) & (hcp <= 0xDCFF)
    n = stop
    v = np.frombuffer(buf, dtype=np.int8, count=n)
    A = int(np.count_nonzero(v >= 0))
    G3 = int(np.count_nonzero(v >= -32)) - A
    G4 = int(np.count_nonzero(v >= -16)) - A
    blk = first
    err_index = hits[esc]
    n_err = len(err_index)
    if n_err:
        err_bytes = (hcp[esc] - 0xDC00).astype(np.uint8)
        # The runs, split apart in C at a NUL put between them (never an error byte);
        # the same runs come back again and again (a corrupted byte and the rest of its
        # sequence), so each distinct one is classified once.
        cuts = np.flatnonzero(np.diff(err_index) != 1) + 1
        runs = Counter(np.insert(err_bytes, cuts, 0).tobytes().split(b"\0"))
        kinds = [0] * 8
        repl = 0
        cache = _RUN_CACHE
        for run, times in runs.items():
            known = cache.get(run)
            if known is None:
                known = _classify_run(run)
            repl += known[0] * times
            for kcode in known[1]:
                kinds[kcode] += times
        for kcode in range(1, 8):
            c = kinds[kcode]
            if c:
                index.errors[blk, kcode - 1] += c
                result.errors_by_kind[K.ERROR_KINDS[kcode - 1]] += c
        index.replacements[blk] += repl
        result.replacements += repl
        index.error_bytes[blk] += n_err
        result.error_bytes += n_err
        index.binary[blk] += n_err
        result.binary_bytes += n_err
        high = np.bincount(err_bytes >> 4, minlength=16)  # C, D: 2-byte leads; E; F
        e2, e3, e4 = int(high[12] + high[13]), int(high[14]), int(high[15])
    else:
        e2 = e3 = e4 = 0
    # Characters: one per valid unit (each starts with a non-continuation byte) and one
    # per error byte.
    C = n - (e2 + e3 + e4) - (len(text) - n_err)
    _add_units(result, index, first, [[A], [n - A - C - G3 - e2], [G3 - G4 - e3], [G4 - e4]])
    warn = ~esc
    if warn.any():
        wcp = hcp[warn]
        bits = t.bits[wcp]
        if base == 0 and hits[warn][0] == 0 and wcp[0] == 0xFEFF:
            bits[0] = (bits[0] & ~np.uint16(KR.B_ZWNBSP)) | KR.B_BOM
        _add_warning_bits(bits, index, blk, result)
        asc = wcp < 0x80
        if asc.any():
            nb = int(np.count_nonzero(KR._BINARY_ASCII[wcp[asc]]))
            index.binary[blk] += nb
            result.binary_bytes += nb
    first_char = int(hits[0])
    offset = base + len(text[:first_char].encode("utf-8", "surrogateescape"))
    _set_first_problem(index, first, [offset])
    if n_err and len(result.first_errors) < result.max_errors:
        m = np.frombuffer(buf, dtype=np.uint8, count=stop)
        rows = KR.classify(m, lambda ix: ix.astype(np.int64) + base, None, final, K.UTF8)
        _collect_first_errors(result, rows)
    return n_err


# Error bytes per byte above which a window is cut at byte level rather than through
# the decoder's error handler (whose cost grows with every error).
_DENSE_ERRORS = 1 / 64


def _clean_or_dense(result, index, buf, base: int, stop: int, final: bool,
                    escape_block: int | None) -> float:
    """Count the window ``buf[:stop]``; returns its density of errors (0.0: clean).
    ``escape_block``: every unit of the window starts in this block and errors are
    expected to be sparse (see :func:`_escape_window`)."""
    view = memoryview(buf)[:stop]
    if escape_block is not None:
        return _escape_window(result, index, buf, base, stop, final, escape_block) / stop
    try:
        text = codecs.utf_8_decode(view, "strict", True)[0]
    except UnicodeDecodeError as e:
        bad = e.start
    else:
        _clean_window(result, index, buf, base, 0, stop, text)
        return 0.0
    if bad >= _CLEAN_PREFIX:
        _clean_window(result, index, buf, base, 0, bad, codecs.utf_8_decode(view[:bad], "strict", True)[0])
    else:
        bad = 0
    return max(_dense_window(result, index, buf, base, bad, stop, final), 1) / stop


_STRUCT = bytes(KR._LEFF.tolist())


def _boundary_at_or_after(buf, p: int, lo: int = 0) -> int:
    """The first unit boundary at or after ``p`` in ``buf`` (where ``buf[lo]`` starts a
    unit; ``buf`` holds the bytes up to the stream's end or 8+ past ``p``)."""
    q = p
    while q > lo and q > p - 6 and 0x80 <= buf[q] <= 0xBF:
        q -= 1
    lead = buf[q]
    if q == p or 0x80 <= lead <= 0xBF:
        return p  # p starts a unit itself (a stray if it is a continuation byte)
    end = q + 1
    limit = min(len(buf), q + _STRUCT[lead])
    while end < limit and 0x80 <= buf[end] <= 0xBF:
        end += 1
    return end if end > p else p


DENSE_STREAK_WINDOWS = 16  # after a window with errors, this many go block by block


def _fast_segment(result, index, source, seg_start: int, seg_end: int, chunk_size: int, hasher):
    """Scan the stream [seg_start, seg_end) in the utf-8 dialect; yields after every
    window the offset reached.

    Clean text goes in windows of ``FAST_WINDOW``; after a window with errors, windows
    end at block edges (the first unit boundary at or after one, so that every unit of a
    window starts in one block and each mask is counted once)."""
    read = _reader(source)
    want = max(64, min(chunk_size, FAST_WINDOW))
    dense_want = max(64, min(chunk_size, DENSE_WINDOW // 2))
    bs = index.block_size
    pos = seg_start
    dense_left = 0
    density = 0.0
    while pos < seg_end:
        next_edge = index.start + ((pos - index.start) // bs + 1) * bs
        if dense_left:
            target = min(pos + dense_want, next_edge)
        else:
            target = pos + want
        length = min(target - pos + _LOOKAHEAD, seg_end - pos)
        buf = read(pos, length)
        if not buf:
            return
        short = len(buf) < length
        ends_at_edge = False  # no unit of the window starts at or past next_edge
        if target >= seg_end or short or pos + len(buf) >= seg_end and target - pos >= len(buf):
            stop, final = len(buf), True
        else:
            if dense_left:
                # Every unit starting before the block edge stays in this window.
                stop = _boundary_at_or_after(buf, target - pos)
                ends_at_edge = target == next_edge
            else:
                stop = KR.safe_stop(buf, min(target - pos, len(buf) - 8), K.UTF8)
            final = stop == len(buf) and pos + stop >= seg_end
        if hasher is not None:
            hasher.update(memoryview(buf)[:stop])
        escape_block = None
        if dense_left and density < _DENSE_ERRORS and (ends_at_edge or pos + stop <= next_edge):
            escape_block = (pos - index.start) // bs
        density = _clean_or_dense(result, index, buf, pos, stop, final, escape_block)
        if density:
            dense_left = DENSE_STREAK_WINDOWS
        elif dense_left:
            dense_left -= 1
        pos += stop
        yield pos
        if short and stop == len(buf):
            return


# ----------------------------------------------------------------------------- scans

def scan_steps(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
               max_errors: int = 100, block_size: int | None = DEFAULT_BLOCK,
               chunk_size: int = DEFAULT_CHUNK, origin: int | None = None,
               sha256: bool = True, dense_window: int = DENSE_WINDOW):
    """Scan ``source`` as a generator: yields :class:`ScanProgress` after every window
    (in the utf-8 dialect at most 256 KiB of clean data or 64 KiB once errors appear;
    otherwise ~1 MiB of clean data or 128 KiB of dense errors) and returns the final
    :class:`ScanResult`. Stopping the iteration cancels the scan."""
    dialect = K.check_dialect(dialect)
    size = source.size
    end = size if end is None else max(0, min(end, size))
    start = max(0, min(start, end))
    index = BlockIndex(start, end, block_size, dialect, origin)
    result = ScanResult(size, dialect, start, end, index, max_errors, origin)
    # SHA-256 inline: hashlib runs at ~1.5 GB/s here, and in a second thread (it releases
    # the GIL) it came out slower, the two cores being shared with the counting.
    hasher = hashlib.sha256() if sha256 and start == 0 and end == size else None
    began = time.perf_counter()
    total = end - start
    for seg_start, seg_end in segments(start, end, origin):
        if dialect == K.UTF8:
            for done in _fast_segment(result, index, source, seg_start, seg_end, chunk_size,
                                      hasher):
                index._advance(done)
                result.scanned = done - start
                yield ScanProgress(result.scanned, total, result)
        else:
            for window in iter_windows(source, seg_start, seg_end, seg_start, seg_end, dialect,
                                       origin=origin, chunk_size=chunk_size, hasher=hasher,
                                       dense_window=dense_window):
                _add_window(result, index, window, seg_start)
                window.data = None
                done = window.base + window.stop
                index._advance(done)
                result.scanned = done - start
                yield ScanProgress(result.scanned, total, result)
        if index.done < seg_end:
            result.short_read = True
            index._advance(seg_end)
    result.scanned = total
    index._advance(end)
    if hasher is not None and not result.short_read:
        result.sha256 = hasher.hexdigest()
    result.complete = True
    result.seconds = time.perf_counter() - began
    return result


def scan(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
         progress: Callable[[int, int], None] | None = None,
         cancel: Callable[[], bool] | None = None, **options) -> ScanResult:
    """Scan to the end; ``progress(done, total)`` is called after every window and
    ``cancel()`` checked as often: when it returns True, :class:`ScanCancelled` is
    raised."""
    steps = scan_steps(source, dialect, start, end, **options)
    while True:
        if cancel is not None and cancel():
            steps.close()
            raise ScanCancelled("scan cancelled")
        try:
            step = next(steps)
        except StopIteration as stop:
            return stop.value
        if progress is not None:
            progress(step.done, step.total)
