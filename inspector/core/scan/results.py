"""What a scan produces: its result (counts, first errors, the block index), its
progress, and the streams a region is cut into.
"""

from __future__ import annotations

import copy
import itertools

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit
from inspector.core.units.unicode_db import UNICODE_VERSION

# The block index's geometry (here, not in blockindex, so that a scan's result is made
# without importing numpy: see cleantext).
DEFAULT_BLOCK = 64 * 1024
MAX_BLOCKS = 1 << 16  # past 4 GiB at 64 KiB, blocks grow so the index stays a few MiB


def block_size_for(length: int, requested: int | None = None) -> int:
    size = requested or DEFAULT_BLOCK
    while length > size * MAX_BLOCKS:
        size *= 2
    return size


class ScanCancelled(Exception):
    """The scan was cancelled before it finished."""


class ScanProgress:
    __slots__ = ("done", "total", "result")

    def __init__(self, done: int, total: int, result: "ScanResult"):
        self.done = done  # bytes scanned so far (of the region)
        self.total = total
        self.result = result

    def snapshot(self) -> "ScanProgress":
        """This step with a frozen copy of the result (see :meth:`ScanResult.snapshot`):
        what another thread may be handed while the scan goes on writing its own."""
        return ScanProgress(self.done, self.total, self.result.snapshot())

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else self.done / self.total

    def __repr__(self):
        return f"ScanProgress({self.done}/{self.total})"


# Every scan's number: a result and its snapshots share it (the same scan, further on).
_scan_ids = itertools.count(1)


class ScanResult:
    """Counts of one scan. Filled as the scan goes (``complete`` turns True at the end)
    by the one thread that scans; any other thread is handed a :meth:`snapshot` while it
    runs, and the result itself only once it is complete."""

    def __init__(self, size: int, dialect: str, start: int, end: int, index,
                 max_errors: int, origin: int | None):
        self.size = size
        self.dialect = dialect
        # How the stream was read: the dialect's name, or another encoding's
        # interpretation (``dialect`` then holds its name).
        self.reading = dialect
        self.start = start
        self.end = end
        self.origin = origin
        self.units = dict.fromkeys((1, 2, 3, 4, 5, 6), 0)
        self.errors_by_kind = dict.fromkeys(K.ERROR_KINDS, 0)
        self.warnings_by_kind = dict.fromkeys(K.WARNING_KINDS, 0)
        self.replacements = 0
        self.error_bytes = 0
        self.binary_bytes = 0
        self.sha256: str | None = None
        self.first_errors: list[Unit] = []
        self.max_errors = max_errors
        self._index = index
        self._index_maker = None
        self._block_size = None
        self.complete = False
        self.scanned = 0  # bytes scanned
        self.short_read = False  # the file ended before its recorded size
        # A multi-byte legacy encoding's sync points (where units start every 16 KiB,
        # read from the file's start: the page cut begins at them), else None.
        self.sync_points = None
        self.seconds = 0.0
        self.unicode_version = UNICODE_VERSION
        self.scan_id = next(_scan_ids)   # shared by this result's snapshots
        self.is_snapshot = False

    def snapshot(self) -> "ScanResult":
        """A copy of the counts so far that the scan never writes again: the counts and
        the block index's arrays are copied (the index's up to the block being filled,
        see :meth:`BlockIndex.snapshot`). Made by the scanning thread between two
        windows, so the copy is consistent; ``scan_id`` tells it is the same scan."""
        snap = copy.copy(self)
        snap.units = dict(self.units)
        snap.errors_by_kind = dict(self.errors_by_kind)
        snap.warnings_by_kind = dict(self.warnings_by_kind)
        snap.first_errors = list(self.first_errors)
        if self.sync_points is not None:
            snap.sync_points = self.sync_points.snapshot()
        if self._index is not None:
            snap._index = self._index.snapshot()
        snap.is_snapshot = True
        return snap

    @property
    def index(self):
        """The block index (a :class:`~inspector.core.scan.blockindex.BlockIndex`); a quick
        scan (see :func:`defer_index`) makes it on the first
        call."""
        if self._index is None and self._index_maker is not None:
            make, self._index_maker = self._index_maker, None
            self._index = make()
        return self._index

    @property
    def index_if_made(self):
        """The block index when it exists, without making a deferred one (None)."""
        return self._index

    @index.setter
    def index(self, index) -> None:
        self._index = index
        self._index_maker = None

    def defer_index(self, make, block_size: int) -> None:
        """Make the index only when someone asks for it: ``make()`` returns it (a
        report of many files never does); ``block_size`` is what it will have."""
        self._index = None
        self._index_maker = make
        self._block_size = block_size

    @property
    def block_size(self) -> int:
        """The index's block size (without making a deferred index)."""
        if self._index is None and self._index_maker is not None:
            return self._block_size
        return self.index.block_size

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

    def errors_listed(self) -> dict[str, int]:
        """The counts by error kind a report lists: a UTF-8 dialect's scan leaves out the
        kinds only other encodings make (unless it counted one)."""
        utf8 = self.dialect in K.DIALECTS
        return {k: n for k, n in self.errors_by_kind.items()
                if n or not utf8 or k in K.UTF8_ERROR_KINDS}

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
                       "by_kind": self.errors_listed()},
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
