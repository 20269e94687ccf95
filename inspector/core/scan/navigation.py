"""Next and previous problem from any offset, with or without a scan.

Without an index, the file is read forward (or backward) in windows through the same
vectorised kernels as the scanner: a clean stretch costs one pass of CPython's C UTF-8
decoder, and when warnings are asked for, one ``bytes.translate`` pass that picks out
the few bytes that can start a code point with a warning. With a finished or partial
:class:`~inspector.core.scan.blockindex.BlockIndex` of the same dialect, finished blocks
without a match are skipped unread.

The origin is honoured as the decoder's ``units_in_range`` does: the bytes before it and
from it on are cut as two streams.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from inspector.core.scan.kernels import rows as RK
from inspector.core.scan.kernels import codes as KC
from inspector.core.scan import tables as TB
from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex, kind_selection
from inspector.core.units.decoder import Unit
from inspector.core.units.interpretation import interpretation
from inspector.core.scan.results import ScanCancelled, segments
from inspector.core.scan.tally import row_unit
from inspector.core.scan.windows import iter_windows

FORWARD_WINDOW = 1 << 20
BACKWARD_FIRST = 64 * 1024
BACKWARD_MAX = 4 << 20


class ProblemKinds:
    """Ready-made kind sets for ``kinds=``."""

    ERRORS = frozenset(K.ERROR_KINDS)
    WARNINGS = frozenset(K.WARNING_KINDS)
    ALL = ERRORS | WARNINGS


def _matcher(kinds):
    errs, warns = kind_selection(kinds)
    err_codes = np.zeros(len(KC.KIND_CODES), dtype=bool)
    for name in errs:
        err_codes[KC.CODE_OF[name]] = True
    mask = 0
    for name in warns:
        mask |= TB.WARNING_BIT[name]
    return err_codes, np.uint16(mask), bool(warns)


def _matches(rows: RK.Rows, err_codes, warn_mask) -> np.ndarray:
    hit = err_codes[rows.kind]
    if warn_mask:
        hit |= (rows.warn & warn_mask) != 0
    return hit


def _check(cancel):
    if cancel is not None and cancel():
        raise ScanCancelled("navigation cancelled")


def problem_units(source, lo: int, hi: int, dialect: str = K.UTF8, origin: int | None = None,
                  kinds=None, nth: int | None = None, cancel: Callable[[], bool] | None = None,
                  limit: int | None = None, stream: tuple[int, int] | None = None):
    """Units matching ``kinds`` that start in [lo, hi), in order (exact: cut with the
    scanner's kernels, which equal the decoder). With ``nth``, only that one (or None).
    ``limit`` stops after that many. ``stream`` is the region cut as one stream (a
    region scan's bounds; the whole file by default)."""
    err_codes, warn_mask, want_warnings = _matcher(kinds)
    size = source.size
    lo, hi = max(0, lo), min(hi, size)
    out: list[Unit] = []
    seen = 0
    s0, s1 = stream if stream is not None else (0, size)
    for seg_start, seg_end in segments(s0, min(s1, size), origin):
        a, b = max(lo, seg_start), min(hi, seg_end)
        if a >= b:
            continue
        for window in iter_windows(source, a, b, seg_start, seg_end, dialect, origin=origin,
                                   want_warnings=want_warnings, chunk_size=FORWARD_WINDOW):
            _check(cancel)
            rows = window.rows
            if not len(rows):
                continue
            hit = _matches(rows, err_codes, warn_mask) & (rows.offset >= a) & (rows.offset < b)
            idx = np.flatnonzero(hit)
            if not len(idx):
                continue
            idx = idx[np.argsort(rows.offset[idx], kind="stable")]
            if nth is not None:
                if nth - seen < len(idx):
                    return row_unit(rows, int(idx[nth - seen]))
                seen += len(idx)
                continue
            for i in idx:
                out.append(row_unit(rows, int(i)))
                if limit is not None and len(out) >= limit:
                    return out
    return None if nth is not None else out


def reading_key(dialect):
    """A UTF-8 dialect's name, or another encoding's interpretation (what a scan's block
    index records as its ``dialect``)."""
    reading = interpretation(dialect)
    return reading.name if reading.is_utf8 else reading


def _usable(index: BlockIndex | None, dialect: str, origin, size: int) -> bool:
    """An index helps only if it was made of the whole file the same way (a region scan
    cuts its region as a stream of its own)."""
    return (index is not None and index.dialect == dialect and index.origin == origin
            and index.n_blocks > 0 and index.start == 0 and index.end == size)


def _candidate_runs(index: BlockIndex, kinds, pos: int, end: int, forward: bool):
    """Ranges [a, b) of the file that may hold a match, in the direction of travel, as
    told by the index (finished blocks without a match are left out; blocks outside
    the index or not finished yet are candidates)."""
    counts = index.counts_for(kinds)
    done = index.blocks_done
    maybe = counts > 0
    maybe[done:] = True
    bs = index.block_size
    if forward:
        if pos < index.start:
            yield pos, min(end, index.start)
            pos = index.start
        while pos < min(end, index.end):
            i = index.block_of(pos)
            hit = np.flatnonzero(maybe[i:])
            if not len(hit):
                pos = index.end
                break
            j = i + int(hit[0])
            run_end = j + 1
            while run_end < index.n_blocks and maybe[run_end]:
                run_end += 1
            a = max(pos, index.start + j * bs)
            b = min(end, index.start + run_end * bs, index.end)
            if a < b:
                yield a, b
            pos = b
        if pos < end:
            yield max(pos, index.end), end
    else:
        if pos > index.end:
            yield max(end, index.end), pos
            pos = index.end
        while pos > max(end, index.start):
            i = index.block_of(pos - 1)
            hit = np.flatnonzero(maybe[:i + 1])
            if not len(hit):
                pos = index.start
                break
            j = int(hit[-1])
            run_start = j
            while run_start > 0 and maybe[run_start - 1]:
                run_start -= 1
            b = min(pos, index.start + (j + 1) * bs)
            a = max(end, index.start + run_start * bs)
            if a < b:
                yield a, b
            pos = a
        if pos > end:
            yield end, min(pos, index.start)


def next_problem(source, offset: int, dialect: str = K.UTF8, origin: int | None = None,
                 kinds=None, index: BlockIndex | None = None,
                 cancel: Callable[[], bool] | None = None) -> Unit | None:
    """The first unit strictly after the unit holding ``offset`` whose kind, or one of
    whose warnings, is in ``kinds`` (None: every error kind). A negative ``offset``
    searches from the start of the file, the first unit included."""
    dialect = reading_key(dialect)
    size = source.size
    if offset >= size:
        return None
    if offset < 0:
        pos = 0
    else:
        here = interpretation(dialect).unit_at(source, offset, origin)
        pos = here.end if here is not None else offset + 1
    runs = (_candidate_runs(index, kinds, pos, size, True) if _usable(index, dialect, origin, size)
            else [(pos, size)])
    for a, b in runs:
        found = problem_units(source, a, b, dialect, origin, kinds, cancel=cancel, limit=1)
        if found:
            return found[0]
    return None


def previous_problem(source, offset: int, dialect: str = K.UTF8, origin: int | None = None,
                     kinds=None, index: BlockIndex | None = None,
                     cancel: Callable[[], bool] | None = None) -> Unit | None:
    """The last unit strictly before the unit holding ``offset`` that matches ``kinds``.
    An ``offset`` at or past the end searches from the end, the last unit included."""
    dialect = reading_key(dialect)
    size = source.size
    if offset <= 0 or size == 0:
        return None
    if offset >= size:
        pos = size
    else:
        here = interpretation(dialect).unit_at(source, offset, origin)
        pos = here.offset if here is not None else offset
    runs = (_candidate_runs(index, kinds, pos, 0, False) if _usable(index, dialect, origin, size)
            else [(0, pos)])
    for a, b in runs:
        hi = b
        width = BACKWARD_FIRST
        while hi > a:
            lo = max(a, hi - width)
            # Keep the two streams of an origin apart: a window never crosses it.
            if origin is not None and lo < origin < hi:
                lo = origin
            found = problem_units(source, lo, hi, dialect, origin, kinds, cancel=cancel)
            if found:
                return found[-1]
            hi = lo
            width = min(width * 2, BACKWARD_MAX)
    return None


def problems_in_block(source, index: BlockIndex, i: int, kinds=None) -> list[Unit]:
    """Every unit matching ``kinds`` that starts in block ``i`` of ``index``, exact, in
    order (the block is cut again)."""
    lo, hi = index.block_range(i)
    return problem_units(source, lo, hi, index.dialect, index.origin, kinds,
                         stream=(index.start, index.end))


def count_problems_before(source, offset: int, index: BlockIndex, kinds=None) -> int:
    """Exact number of matching units that start before ``offset`` (needs the index to
    be finished up to ``offset``): the index counts to the block, the block is cut."""
    before = index.count_problems_before(offset, kinds)
    if offset <= index.start or offset >= index.end:
        return before
    block = index.block_of(offset)
    return before + sum(1 for u in problems_in_block(source, index, block, kinds) if u.offset < offset)


def nth_problem(source, n: int, index: BlockIndex, kinds=None) -> Unit | None:
    """The ``n``-th (from 0) unit matching ``kinds``, or None: the index finds its block,
    the block is cut."""
    cum = index.cumulative(kinds)
    if n < 0 or n >= cum[-1]:
        return None
    i = int(np.searchsorted(cum, n, side="right")) - 1
    lo, hi = index.block_range(i)
    return problem_units(source, lo, hi, index.dialect, index.origin, kinds, nth=n - int(cum[i]),
                         stream=(index.start, index.end))
