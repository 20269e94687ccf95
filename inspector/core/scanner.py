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

import hashlib
import time
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


# ----------------------------------------------------------------------------- scans

def scan_steps(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
               max_errors: int = 100, block_size: int | None = DEFAULT_BLOCK,
               chunk_size: int = DEFAULT_CHUNK, origin: int | None = None,
               sha256: bool = True, dense_window: int = DENSE_WINDOW):
    """Scan ``source`` as a generator: yields :class:`ScanProgress` after every window
    (at most ~1 MiB of clean data or 128 KiB of dense errors) and returns the final
    :class:`ScanResult`. Stopping the iteration cancels the scan."""
    dialect = K.check_dialect(dialect)
    size = source.size
    end = size if end is None else max(0, min(end, size))
    start = max(0, min(start, end))
    index = BlockIndex(start, end, block_size, dialect, origin)
    result = ScanResult(size, dialect, start, end, index, max_errors, origin)
    hasher = hashlib.sha256() if sha256 and start == 0 and end == size else None
    began = time.perf_counter()
    total = end - start
    for seg_start, seg_end in segments(start, end, origin):
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
