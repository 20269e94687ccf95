"""The document: the one object that owns what the panes show.

It holds the byte source, the cursor, the selection, the origin, the dialect and the
view anchor (the byte at the top of the viewport). Views never keep their own copy of
any of these: they read them here, paint, and send user input back through the
setters. Every setter emits its signal only when the value really changes, so a view
that reacts to a signal by calling a setter with the same value ends the loop.

One user action, one notification per concern: opening a file emits ``sourceChanged``
alone (the cursor, selection, origin, anchor and scan start afresh with it, and every
view reads them again on that signal), a selection grown by shift+arrow emits
``selectionChanged`` and ``cursorChanged`` once each.

Offsets are Python ints carried in ``Signal(object)``: a 16 GiB file overflows Qt's
32-bit ``int`` signals.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict

from PySide6.QtCore import QObject, Signal

from inspector.core.analysis import verdict as verdict_module
from inspector.core.scan import lines as LN
from inspector.core.scan import pagecut
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import Interpretation, interpretation
from inspector.core.source.bytesource import ByteSource, FileSource, MemorySource, SourceChange


def _unit_offset(unit: decoder.Unit) -> int:
    return unit.offset


class Document(QObject):
    # A file was opened, reloaded or closed: the cursor, selection, origin, anchor and
    # scan were reset with it (no signal of their own: read them again).
    sourceChanged = Signal()
    cursorChanged = Signal(object)           # offset
    # A jump's target (Go to, F8, a found match, a listed problem), just before the
    # cursor moves there: the views bring it on screen with a few rows above it.
    jumpedTo = Signal(object)                # offset
    selectionChanged = Signal(object, object)  # start, end (end exclusive; equal = none)
    originChanged = Signal(object)           # None or offset
    dialectChanged = Signal(str)
    anchorChanged = Signal(object)           # offset at the top of the viewport
    fileChanged = Signal(object)             # a SourceChange noticed on disk
    scanChanged = Signal(object)             # the background analysis (or None)
    findingsChanged = Signal()               # the findings drawn on the bytes
    matchesChanged = Signal()                # the find bar's highlighted ranges
    # The units of pages the views hold changed: the scan's sync points reached them (a
    # multi-byte encoding's page begun afresh at a 16 KiB mark is cut exactly now).
    cutChanged = Signal()

    UNIT_CACHE = 16

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._source: ByteSource = MemorySource(b"", name="(no file)")
        self._cursor = 0
        self._selection = (0, 0)
        self._origin: int | None = None
        self._dialect = K.UTF8
        # The interpretation itself (a UTF-8 dialect, another encoding, the encoding
        # map's reading); ``_dialect`` is its name.
        self._reading: Interpretation = interpretation(K.UTF8)
        self._anchor = 0
        self._fixed = 0  # the end a shift-selection grows from
        self._scan = None
        self._units_cache: OrderedDict = OrderedDict()
        self._cut_cache: OrderedDict = OrderedDict()
        self._resync_cache = None
        # Byte ranges [start, end) to highlight, sorted: the find bar's matches.
        self._matches: list[tuple[int, int]] = []
        # The findings on these bytes (objects with start, end, note), by start.
        self._findings: list = []
        self._finding_starts: list[int] = []
        self._finding_reach = 0   # the longest finding: how far back one may start

    # ------------------------------------------------------------------ the source
    @property
    def source(self) -> ByteSource:
        return self._source

    @property
    def size(self) -> int:
        return self._source.size

    @property
    def path(self):
        return self._source.path

    def open_path(self, path) -> None:
        """Open a file read-only; raises ByteSourceError with a clear message and leaves
        the current document untouched if the file cannot be opened."""
        self.set_source(FileSource(path))

    def set_source(self, source: ByteSource, cursor: int = 0) -> None:
        old = self._source
        self._source = source
        self._units_cache.clear()
        self._cut_cache.clear()
        self._resync_cache = None
        self._scan = None
        self._origin = None
        size = source.size
        self._cursor = max(0, min(cursor, max(size - 1, 0)))
        self._selection = (self._cursor, self._cursor)
        self._anchor = 0
        # The encoding map's reading belongs to the file it was made for.
        by_map = self._reading.name == "map"
        if by_map:
            self._reading, self._dialect = interpretation(K.UTF8), K.UTF8
        if old is not source:
            old.close()
        if by_map:
            self.dialectChanged.emit(K.UTF8)
        self.sourceChanged.emit()

    def reload(self) -> None:
        """Reopen the same path, keeping the cursor where it still makes sense."""
        path = self.path
        if path is None:
            return
        cursor, origin, dialect = self._cursor, self._origin, self._reading
        anchor = self._anchor
        self.set_source(FileSource(path), cursor=cursor)
        if origin is not None and origin < self.size:
            self.set_origin(origin)
        self.set_encoding(dialect)
        self.set_anchor(min(anchor, max(self.size - 1, 0)))

    def invalidate(self) -> None:
        """Forget every cached read and cut: the bytes on disk changed."""
        self._source.invalidate()
        self._units_cache.clear()
        self._cut_cache.clear()
        self._resync_cache = None

    def check_file(self) -> SourceChange | None:
        """Ask the source whether the file changed on disk; tell the views if so."""
        change = self._source.check()
        if change is not None:
            self.fileChanged.emit(change)
        return change

    # ------------------------------------------------------------------ cursor etc.
    @property
    def cursor(self) -> int:
        return self._cursor

    def _clamp(self, offset: int) -> int:
        return max(0, min(int(offset), max(self.size - 1, 0)))

    def set_cursor(self, offset: int, extend: bool = False, reveal: bool = False) -> None:
        """Move the cursor; with ``extend`` the selection grows from its anchor end.
        ``reveal``: a jump (see ``jumpedTo``), announced even when the cursor is already
        there, so panes that were scrolled away bring it back on screen."""
        offset = self._clamp(offset)
        if reveal:
            self.jumpedTo.emit(offset)
        if extend:
            if not self.has_selection:
                self._fixed = self._cursor
            lo, hi = min(self._fixed, offset), max(self._fixed, offset)
            self._set_selection(lo, self.unit_end(hi))
        else:
            self._fixed = offset
            self._set_selection(offset, offset)
        if offset != self._cursor or reveal:
            self._cursor = offset
            self.cursorChanged.emit(offset)

    @property
    def selection(self) -> tuple[int, int]:
        return self._selection

    def set_selection(self, start: int, end: int, reveal: bool = False) -> None:
        """Select bytes [start, end) and put the cursor on the first one.

        ``reveal`` (a found match, a listed problem): a jump (see ``jumpedTo``),
        announced even when the cursor is already there, so panes that were scrolled
        away bring it back on screen."""
        start, end = sorted((max(0, int(start)), max(0, int(end))))
        end = min(end, self.size)
        start = min(start, end)
        self._set_selection(start, end)
        self._fixed = start
        cursor = self._clamp(start)
        if reveal:
            self.jumpedTo.emit(cursor)
        if cursor != self._cursor or reveal:
            self._cursor = cursor
            self.cursorChanged.emit(cursor)

    def select_all(self) -> None:
        self.set_selection(0, self.size)

    def _set_selection(self, start: int, end: int) -> None:
        if (start, end) != self._selection:
            self._selection = (start, end)
            self.selectionChanged.emit(start, end)

    @property
    def has_selection(self) -> bool:
        return self._selection[1] > self._selection[0]

    @property
    def origin(self) -> int | None:
        return self._origin

    def set_origin(self, offset: int | None) -> None:
        """Decode as if the stream began at ``offset``; None decodes from 0 again."""
        if offset is not None:
            offset = self._clamp(offset)
            if offset == 0:
                offset = None
        if offset != self._origin:
            self._origin = offset
            self._units_cache.clear()
            self.originChanged.emit(offset)

    def decode_from_cursor(self) -> None:
        """Go ▸ Decode from here: the origin at the cursor."""
        self.set_origin(self._cursor)

    @property
    def dialect(self) -> str:
        return self._dialect

    @property
    def interpretation(self) -> Interpretation:
        """How the bytes are read now (the dialect's object: ask it, not its name)."""
        return self._reading

    @property
    def line_feed(self) -> bytes:
        """A line feed's bytes in the reading in use (the text pane's paragraph break)."""
        return self._reading.line_feed(self._source)

    def set_dialect(self, name: str) -> None:
        self.set_encoding(name)

    def set_encoding(self, name) -> None:
        """Read the bytes in ``name``: a UTF-8 dialect's name, a codec's name as
        ``codecs.lookup`` knows it (``cp1252``, ``shift_jis``, ``utf-16-le``...),
        ``"map"`` (each region of the finished scan's encoding map in its own encoding;
        ValueError while there is no map), or an Interpretation. ``dialectChanged``
        carries the new reading's name."""
        if isinstance(name, str) and name.strip().lower() == "map":
            reading = self._map_reading()
        else:
            reading = interpretation(name)
        if reading != self._reading:
            self._reading = reading
            self._dialect = reading.name
            self._units_cache.clear()
            self._cut_cache.clear()
            self._resync_cache = None
            self.dialectChanged.emit(reading.name)

    def _map_reading(self) -> Interpretation:
        from inspector.core.analysis.verdict import known_verdict
        from inspector.core.scan.readings.mapreading import MapReading

        scan = self._scan
        verdict = known_verdict(scan) if scan is not None and scan.complete else None
        if verdict is None or verdict.regions is None:
            raise ValueError("There is no encoding map yet: it is worked out when the "
                             "scan of the file has finished.")
        return MapReading.of(verdict.regions.regions, self.size)

    @property
    def anchor(self) -> int:
        return self._anchor

    def set_anchor(self, offset: int, scrolled: bool = False) -> None:
        """The byte the views keep at the top of their viewport.

        ``scrolled`` says the user scrolled a pane there: the others must follow even
        when the anchor already holds that byte, because a pane that followed the cursor
        on its own may have left it (views never write the anchor when they do that)."""
        offset = self._clamp(offset)
        if offset != self._anchor or scrolled:
            self._anchor = offset
            self.anchorChanged.emit(offset)

    @property
    def scan(self):
        return self._scan

    @property
    def verdict(self):
        """The verdict on the finished scan, once someone has worked it out (the scan's
        worker, or a view that asked :func:`~inspector.core.analysis.verdict.verdict_of`),
        else None."""
        return verdict_module.known_verdict(self._scan)

    def set_scan(self, result, verdict=None) -> None:
        """The scan's counts: a snapshot while it runs, then the finished result with
        the verdict its worker judged (kept in the analysis layer, not on the result).
        No signal when neither changed."""
        news = verdict is not None and verdict is not verdict_module.known_verdict(result)
        verdict_module.remember(result, verdict)
        if result is self._scan and not news:
            return
        before = self.sync_points
        self._scan = result
        moved = self._sync_moved(before, self.sync_points)
        self.scanChanged.emit(result)
        if moved:
            self.cutChanged.emit()

    @property
    def sync_points(self):
        """The scan's sync points, when the scan is of the reading in use from the file's
        start (a multi-byte legacy encoding's page cut begins at them), else None."""
        scan = self._scan
        if scan is None or scan.sync_points is None or scan.origin is not None \
                or scan.reading != self._reading:
            return None
        return scan.sync_points

    def _sync_moved(self, before, after) -> bool:
        """Forget the cached cuts that new sync points may cut otherwise; says whether
        there were any."""
        if after is None or (before is not None and before.count == after.count):
            return False
        count = before.count if before is not None else 0
        ranges = [k[:2] for k in self._cut_cache] + list(self._units_cache)
        if not any(after.changed_since(count, s, e) for s, e in ranges):
            return False
        self._units_cache.clear()
        self._cut_cache.clear()
        return True

    def page_exact(self, start: int, end: int) -> bool:
        """Whether [start, end) is cut as the reading from the stream's start cuts it:
        False where a multi-byte encoding's cut began afresh at a 16 KiB mark (no byte
        that must start a unit near, no sync point from the scan yet)."""
        start, end = max(0, start), min(end, self.size)
        return start >= end or self._reading.exact_in(self._source, start, end, self._origin,
                                                      self.sync_points)

    # ------------------------------------------------------------------ lines, columns
    # What the UI thread may read to answer a line or column: a file this small is counted
    # directly; past it only the scan's block index (LF counts per block) answers.
    DIRECT_LINES = 16 << 20
    COLUMN_REACH = 1 << 20   # bytes decoded back to a line's start for its column

    def _line_index(self):
        scan = self._scan
        return scan.index if scan is not None else None

    def line_column(self, offset: int, wait: bool = True,
                    reach: int | None = None) -> tuple[int | None, int | None]:
        """(line, column), 1-based, of the unit at ``offset``, as ``scan`` counts them, in
        the reading in use (lines: line feeds before it; column: the characters a
        replacing decoder makes from the line's start; see :mod:`inspector.core.scan.lines`). The scan's block index counts the lines
        when it has reached the offset; a small file is counted directly.

        ``wait=False`` (the status bar, on the UI thread): never read far, give None for
        the line when the scan has not reached the offset in a big file, None for the
        column when the line's start is more than ``reach`` (default
        :attr:`COLUMN_REACH`) bytes back."""
        source, index = self._source, self._line_index()
        offset = self._clamp(offset)
        dialect = self._reading
        if not dialect.is_utf8 and offset < self.size:
            # The unit's line and column (a UTF-16 cursor may be on its second byte),
            # in the reading from the file's start, as the contract counts them.
            offset = dialect.unit_start(source, offset)
        if wait:
            return LN.line_column(source, offset,
                                  index if LN.index_reaches(index, offset, dialect) else None,
                                  dialect)
        line = LN.line_of_offset(source, offset, index, self.DIRECT_LINES, dialect)
        if line is None:
            return None, None
        if LN.index_reaches(index, offset, dialect):
            start = LN.line_start_indexed(source, offset, index, reach or self.COLUMN_REACH,
                                          dialect)
        elif offset <= self.DIRECT_LINES:
            start = LN.line_start(source, offset, dialect)
        else:
            start = None
        # Other dialects are cut unit by unit in Python: a shorter reach.
        reach = reach or self.COLUMN_REACH
        reach = reach if self.interpretation.scanned_by_kernels else reach >> 4
        if start is None or offset - start > reach:
            return line, None
        return line, LN.column_of(source, offset, dialect, start=start)

    def offset_of_line(self, line: int, column: int = 1) -> tuple[int, int]:
        """Where line ``line``, column ``column`` is: (offset, the column reached, less
        than asked when the line is shorter). Cheap: the scan's index (one block read) or,
        in a small file, a direct count. Raises ValueError past the last line, and
        :class:`~inspector.core.scan.lines.NotReached` (a ValueError too) when the scan has
        not counted that far yet."""
        if line < 1 or column < 1:
            raise ValueError("Lines and columns start at 1.")
        start = LN.locate_line(self._source, line, self._line_index(), self.DIRECT_LINES,
                               self._reading)
        if start is None or (start >= self.size and line > 1):
            raise ValueError(f"Line {line:,} is past the last line of the file.")
        if column == 1:
            return start, 1
        return LN.offset_of_column(self._source, start, column, self._reading)

    # ------------------------------------------------------------------ decoding
    def units(self, start: int, end: int) -> list[decoder.Unit]:
        """Units overlapping [start, end) under the current origin and dialect. A few
        recent answers are cached: the two panes and the status bar ask for the same
        rows within one repaint."""
        key = (start, end)
        hit = self._units_cache.get(key)
        if hit is not None:
            self._units_cache.move_to_end(key)
            return hit
        units = self._stitch_units(start, end)
        self._units_cache[key] = units
        if len(self._units_cache) > self.UNIT_CACHE:
            self._units_cache.popitem(last=False)
        return units

    def page_cut(self, start: int, end: int) -> pagecut.PageCut:
        """The units overlapping [start, end) as one :class:`~inspector.core.scan.pagecut.PageCut`
        (parallel arrays: what the panes paint from, with no tuple per unit). The last
        few are kept: a repaint, and the other pane, ask for the same bytes again."""
        key = (start, end, id(self._source), self._origin, self._reading)
        cache = self._cut_cache
        hit = cache.get(key)
        if hit is None:
            hit = pagecut.join(pagecut.cuts_in_range(self._source, start, end, self._origin,
                                                     self._reading, sync=self.sync_points))
            cache[key] = hit
            if len(cache) > 4:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return hit

    def _stitch_units(self, start: int, end: int) -> list[decoder.Unit]:
        """The units of [start, end), taken where they can be from cached cuts (the hex
        rows after a jump lie mostly within the text pane's paragraphs, cut a moment
        before) and cut afresh in the gaps. The cut is a partition of the stream, so a
        unit is the same whichever range it was cut for."""
        start = max(0, start)
        end = min(end, self.size)
        parts: list[tuple[list, int, int]] = []   # (a cut's units, first index, stop index)
        taken = start    # the end of the last unit taken (the seam between two cuts)
        cache = self._units_cache
        pos = start      # the first byte not yet covered
        while pos < end:
            best = None
            for (s, e), units in cache.items():
                if s <= pos < e and units and (best is None or e > best[0]):
                    best = (e, units)
            if best is None:
                # A gap: cut it, up to where a cached cut begins.
                e = min((s for s, _ in cache if pos < s < end), default=end)
                # Cut in one numpy pass (the decoder stays the reference it is tested
                # against): a trip round a Python loop per unit cost a page milliseconds.
                units = pagecut.units_in_range(self._source, pos, e, self._origin, self._reading,
                                               sync=self.sync_points)
                i = 0
            else:
                e, units = best
                i = bisect_right(units, pos, key=_unit_offset)
                if i and units[i - 1].offset + units[i - 1].length > pos:
                    i -= 1
            if parts:
                while i < len(units) and units[i].offset < taken:
                    i += 1   # taken already, from the cut before
            j = bisect_left(units, end, lo=i, key=_unit_offset)
            if j > i:
                parts.append((units, i, j))
                taken = units[j - 1].offset + units[j - 1].length
            pos = max(e, taken)
        if len(parts) == 1 and parts[0][1] == 0 and parts[0][2] == len(parts[0][0]):
            return parts[0][0]   # one whole cut answers it: no copy
        out: list[decoder.Unit] = []
        for units, i, j in parts:
            out += units[i:j]
        return out

    def unit_at(self, offset: int) -> decoder.Unit | None:
        sync = self.sync_points
        if sync is None:
            return self._reading.unit_at(self._source, offset, self._origin)
        for u in pagecut.units_in_range(self._source, offset, offset + 1, self._origin,
                                        self._reading, sync=sync):
            if u.offset <= offset < u.offset + u.length:
                return u
        return None

    def unit_start(self, offset: int) -> int:
        offset = self._clamp(offset)
        if self.sync_points is None:
            return self._reading.unit_start(self._source, offset, self._origin)
        u = self.unit_at(offset)
        return offset if u is None else u.offset

    def unit_end(self, offset: int) -> int:
        u = self.unit_at(self._clamp(offset))
        return u.end if u is not None else min(offset + 1, self.size)

    @property
    def matches(self) -> list[tuple[int, int]]:
        """The highlighted byte ranges [start, end), sorted (the find bar's matches)."""
        return self._matches

    def set_matches(self, ranges) -> None:
        """Highlight these byte ranges (sorted; empty: none)."""
        ranges = list(ranges)
        if ranges != self._matches:
            self._matches = ranges
            self.matchesChanged.emit()

    def matches_in(self, start: int, end: int, look_back: int = 64) -> list[tuple[int, int]]:
        """The highlighted ranges that overlap [start, end). A binary search finds the
        first one starting in the window; a few before it may reach into it."""
        matches = self._matches
        if not matches or end <= start:
            return []
        i = bisect_left(matches, (start, -1))
        j = i
        while j > 0 and i - j < look_back and matches[j - 1][1] > start:
            j -= 1
        out = []
        for m in matches[j:]:
            if m[0] >= end:
                break
            if m[1] > start:
                out.append(m)
        return out

    # ------------------------------------------------------------------ findings
    @property
    def findings(self) -> list:
        return self._findings

    def set_findings(self, findings) -> None:
        """The findings to draw (objects with ``start``, ``end``, ``note``)."""
        items = sorted(findings, key=lambda f: (f.start, f.end))
        self._findings = items
        self._finding_starts = [f.start for f in items]
        self._finding_reach = max((f.end - f.start for f in items), default=0)
        self.findingsChanged.emit()

    def findings_in(self, start: int, end: int) -> list:
        """The findings that overlap [start, end): a binary search, then back only as
        far as the longest finding reaches (the painters ask on every paint)."""
        items = self._findings
        if not items or end <= start:
            return []
        starts = self._finding_starts
        j = bisect_left(starts, end)
        i = bisect_left(starts, start - self._finding_reach)
        return [f for f in items[i:j] if f.end > start]

    def findings_at(self, offset: int) -> list:
        return self.findings_in(offset, offset + 1)

    def resync(self) -> decoder.Resync | None:
        """What the current origin loses (None without an origin). Kept until the
        source, origin or dialect changes: every pane asks for it in every paint."""
        if self._origin is None:
            return None
        key = (id(self._source), self._origin, self._reading)
        if self._resync_cache is None or self._resync_cache[0] != key:
            self._resync_cache = (key, self._reading.resync(self._source, self._origin))
        return self._resync_cache[1]

    def read(self, offset: int, length: int) -> bytes:
        return self._source.read(offset, length)
