"""Counts over a selected byte range: units by length, code points, problems by kind,
replacements (what the sequence inspector shows for a selection).

Counted by the decoder a chunk at a time (``summarize_steps``, a generator a worker can
run and cancel), or for a range too large for that from the scan's block index with the
decoder for the ragged ends (``index_covers``, ``index_summary_steps``).
"""

from __future__ import annotations

from collections import Counter

from inspector.core.units.interpretation import interpretation
from inspector.core.units import kinds as K
from inspector.core.units.ranges import byte_range


class RangeSummary:
    """Counts over a byte range: units by length, code points, problems by kind,
    replacements."""

    def __init__(self, start: int, end: int):
        self.start, self.end = start, end
        self.by_length: Counter = Counter()
        self.errors: Counter = Counter()
        self.warnings: Counter = Counter()
        self.code_points = 0
        self.replacements = 0
        self.units = 0
        self.source = "decoder"

    def add(self, units) -> None:
        for u in units:
            self.units += 1
            if u.kind == K.VALID:
                self.by_length[u.length] += 1
                self.code_points += 1
                for w in u.warnings:
                    self.warnings[w] += 1
            else:
                self.errors[u.kind] += 1
                self.replacements += u.replacements

    def lines(self) -> list[str]:
        out = [f"Selection {byte_range(self.start, self.end)}"]
        if self.source == "index":
            out.append("(counted from the scan's block index; the ends by the decoder)")
        out += [f"units: {self.units:,}", f"code points: {self.code_points:,}"]
        for length in sorted(self.by_length):
            out.append(f"  {length}-byte: {self.by_length[length]:,}")
        total = sum(self.errors.values())
        out.append(f"errors: {total:,} (replacements: {self.replacements:,})")
        for k in K.ERROR_KINDS:
            if self.errors.get(k):
                out.append(f"  {k}: {self.errors[k]:,}")
        out.append(f"warnings: {sum(self.warnings.values()):,}")
        for k in K.WARNING_KINDS:
            if self.warnings.get(k):
                out.append(f"  {k}: {self.warnings[k]:,}")
        return out


def summarize_steps(source, start: int, end: int, origin, dialect: str,
                    chunk: int = 64 * 1024, summary: "RangeSummary | None" = None,
                    overlap: bool = True):
    """Generator: cut [start, end) a chunk at a time and count, keeping no units (a 4 MiB
    range is millions of them). Yields (done, total) after each chunk and returns the
    RangeSummary; closing it cancels. With ``overlap`` False a unit that starts before
    ``start`` is left out (it was counted elsewhere)."""
    if summary is None:
        summary = RangeSummary(start, end)
    pos = start
    while pos < end:
        hi = min(end, pos + chunk)
        units = interpretation(dialect).units_in_range(source, pos, hi, origin)
        # A unit that began in the previous chunk was counted there.
        summary.add(u for u in units if u.offset >= pos or (pos == start and overlap))
        pos = hi
        yield pos - start, end - start
    return summary


def index_covers(scan, start: int, end: int, origin, dialect: str):
    """The scan's block index when it can count [start, end): same stream (dialect and
    origin), the range inside what was scanned, and the blocks there finished."""
    if scan is None:
        return None
    index = scan.index
    reading = interpretation(dialect)
    # The index records a UTF-8 dialect by name, another encoding as its interpretation.
    if index.dialect != (reading.name if reading.is_utf8 else reading) or index.origin != origin:
        return None
    if start < index.start or end > index.end:
        return None
    last = index.n_blocks if end >= index.end else (end - index.start) // index.block_size
    if last > index.blocks_done:
        return None
    return index


def index_summary_steps(index, source, start: int, end: int, origin, dialect: str):
    """Generator: counts of [start, end) from the block index for the whole blocks inside
    it, and from the decoder for the ragged ends (less than two blocks). A unit belongs
    to the block where it starts, as in the index."""
    # Imported here, not at the top: importing the summary (the dock does) loads no numpy.
    import numpy as np

    from inspector.core.scan.blockindex import UNIT_LENGTHS

    bs = index.block_size
    first = -(-(start - index.start) // bs)
    last = index.n_blocks if end >= index.end else (end - index.start) // bs
    summary = RangeSummary(start, end)
    summary.source = "index"
    if first < last:
        units = index.units[first:last].sum(axis=0, dtype=np.int64)
        errors = index.errors[first:last].sum(axis=0, dtype=np.int64)
        warnings = index.warnings[first:last].sum(axis=0, dtype=np.int64)
        for length, n in zip(UNIT_LENGTHS, units.tolist()):
            if n:
                summary.by_length[length] += n
        for kind, n in zip(K.ERROR_KINDS, errors.tolist()):
            if n:
                summary.errors[kind] += n
        for kind, n in zip(K.WARNING_KINDS, warnings.tolist()):
            if n:
                summary.warnings[kind] += n
        summary.code_points += int(units.sum())
        summary.units += int(units.sum() + errors.sum())
        summary.replacements += int(index.replacements[first:last].sum(dtype=np.int64))
        head_end = index.start + first * bs
        tail_start = min(end, index.start + last * bs)
    else:
        head_end = tail_start = end
    yield from summarize_steps(source, start, min(head_end, end), origin, dialect, summary=summary)
    if tail_start < end:
        yield from summarize_steps(source, tail_start, end, origin, dialect, summary=summary,
                                   overlap=False)
    return summary


def summarize(source, start: int, end: int, origin, dialect: str,
              chunk: int = 64 * 1024) -> RangeSummary:
    """``summarize_steps`` run to the end on this thread."""
    steps = summarize_steps(source, start, end, origin, dialect, chunk)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
