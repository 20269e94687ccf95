"""Sync points: where units start in a multi-byte encoding, as the reading from the
file's start cuts them, every ``SYNC_GRID`` bytes.

In Shift_JIS, GBK, Big5 or EUC text the unit that holds an offset is known only from a
byte that must start a unit (see :mod:`inspector.core.units.encodings.multibyte`); a long
run of double-byte text may have none for megabytes. The whole-file scan reads the file
from its start anyway: it notes, for every multiple ``g`` of the grid, the first unit
start at or after ``g`` (:meth:`SyncPoints.record`). A page is then cut from the last
sync point at or before it (:meth:`SyncPoints.start_before`), at most two grid cells
back, exactly as the reading from the start cuts it.

One scanning thread records, in file order; any thread reads. The points are only ever
appended, and a reader looks only at the first ``count`` of them, so a :meth:`snapshot`
(the same points, the count it was taken at) needs no copy.
"""

from __future__ import annotations

from array import array

import numpy as np

SYNC_GRID = 16 << 10


class SyncPoints:
    """For every multiple ``g`` of ``grid`` the scan has passed, the first unit start at
    or after ``g`` in the stream that begins at offset 0 (a file without an origin, or
    the part of it before the origin)."""

    def __init__(self, grid: int = SYNC_GRID, points: array | None = None, count: int = 0):
        self.grid = grid
        self._points = points if points is not None else array("q")
        self.count = count          # points known: those of grid cells 0 .. count-1

    def record(self, starts: np.ndarray, end: int) -> None:
        """Units start at ``starts`` (in order, after every unit recorded before) and
        the next one at ``end`` (the end of the last)."""
        first = len(self._points)
        last = end // self.grid
        if last < first:
            return
        g = np.arange(first, last + 1, dtype=np.int64) * self.grid
        starts = np.asarray(starts, dtype=np.int64)
        at = np.searchsorted(starts, g)
        found = np.full(len(g), end, dtype=np.int64)   # past the last start: the next
        inside = at < len(starts)
        found[inside] = starts[at[inside]]
        self._points.extend(found.tolist())
        self.count = len(self._points)

    def snapshot(self) -> "SyncPoints":
        """The points known now, never more (the scan goes on appending to its own)."""
        return SyncPoints(self.grid, self._points, self.count)

    def knows(self, offset: int) -> bool:
        """Whether a page at ``offset`` is cut from a sync point: its grid cell or the
        one before has one."""
        return offset // self.grid <= self.count

    def start_before(self, offset: int) -> int | None:
        """The last sync point at or before ``offset`` (a unit start at most two grid
        cells back), or None when the scan has not come near ``offset``."""
        k = offset // self.grid
        if k > self.count:
            return None
        if k < self.count and self._points[k] <= offset:
            return self._points[k]
        return self._points[k - 1] if k >= 1 else None

    def changed_since(self, count: int, start: int, end: int) -> bool:
        """Whether a cut of [start, end) may differ between these points and the first
        ``count`` of them: the cut looks at the grid cells from two before ``start``
        (where its sync point may be) to the one after ``end``."""
        lo, hi = sorted((count, self.count))
        return lo != hi and start // self.grid - 2 <= hi and end // self.grid + 1 > lo
