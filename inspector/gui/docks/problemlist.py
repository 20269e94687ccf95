"""The problem list: every problem unit of the file in a dock, without holding them.

The model is virtual. The scan's block index knows how many problems of each kind every
block holds; the model turns the counts that match the filter into a cumulative array,
so row n is found by a binary search (numpy ``searchsorted``) for its block, and the
block's units are recomputed from the byte source with the decoder (cutting is local,
so a block costs only its own bytes). A few recent blocks are cached: a screenful of
rows almost always falls in one or two blocks. Nothing proportional to the number of
problems is ever built, so a file with 10^8 problems opens as fast as one with ten.

While the scan runs, partial results arrive through ``document.scanChanged``; the rows
of the newly finished blocks are appended (throttled), so the list grows under the
reader without jumping back to the top.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from PySide6.QtCore import (QModelIndex, Qt,
                            QTimer, Signal)
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (QComboBox, QDockWidget, QHBoxLayout,
                               QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget)

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.unitinfo import short_explanation
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.scan.navigation import nth_problem
from inspector.core.scan.results import ScanResult
from inspector.gui.look import style
from inspector.gui.look.tables import NamedColumnsModel, read_only_rows

QT_MAX_ROWS = 2**31 - 1  # Qt's row numbers are 32-bit ints

# What the "show" combo offers: which of the two families of problems are listed.
SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS = "both", "errors", "warnings"


def kinds_for(show: str, kind: str | None) -> frozenset[str]:
    """The set of kind names a filter lets through (one kind, or a whole family)."""
    if kind:
        return frozenset([kind])
    if show == SHOW_ERRORS:
        return frozenset(K.ERROR_KINDS)
    if show == SHOW_WARNINGS:
        return frozenset(K.WARNING_KINDS)
    return frozenset(K.ERROR_KINDS) | frozenset(K.WARNING_KINDS)


def unit_matches(unit: decoder.Unit, kinds: frozenset[str]) -> bool:
    if unit.kind in kinds:
        return True
    return any(w in kinds for w in unit.warnings)


def kind_text(unit: decoder.Unit, kinds: frozenset[str] | None = None) -> str:
    """The kind column: the error kind, or the warnings (those in the filter first)."""
    if unit.kind != K.VALID:
        return unit.kind
    if kinds:
        first = [w for w in unit.warnings if w in kinds]
        rest = [w for w in unit.warnings if w not in kinds]
        return ", ".join(first + rest)
    return ", ".join(unit.warnings)


# ---------------------------------------------------------------------- the index side

def block_counts(index: BlockIndex, kinds: frozenset[str]) -> np.ndarray:
    """Problems per finished block that match ``kinds``, as an int64 array.

    ``BlockIndex.counts_for(kinds)`` counts units, not warnings (a unit with several
    matching warnings is counted once).
    """
    return index.counts_for(kinds)[:index.blocks_done]


class _Run:
    """Consecutive matching units of a block: rows ``first`` … ``first + len(units) - 1``
    of the block, and the unit boundary where cutting goes on."""

    __slots__ = ("first", "pos", "units", "done")

    def __init__(self, first: int, pos: int, units: list, done: bool = False):
        self.first = first
        self.pos = pos
        self.units = units
        self.done = done

    @property
    def stop(self) -> int:
        return self.first + len(self.units)


class _BlockCut:
    """The matching units of one block found so far, as runs of consecutive rows.

    Rows near a known run are found by cutting onwards from it in small pieces with the
    decoder, so the first rows of a block (the first paint, paging down) cost a piece,
    not the whole block. A row far from every run (a jump, a dragged scrollbar) is
    found through the index (``navigation.nth_problem``: the scanner's vectorised kernels) a little
    before the wanted row, and a new run starts there.
    """

    PIECE = 2048      # bytes cut per step: a screenful of rows in dense damage
    FAR = 1024        # rows past a run beyond which a jump asks the index instead
    MARGIN = 64       # rows found before a jump's row, so scrolling back up stays cheap

    __slots__ = ("start", "end", "runs")

    def __init__(self, start: int, end: int):
        self.start = start
        self.end = end
        self.runs: list[_Run] = [_Run(0, start, [])]

    def unit(self, within: int, cutter, anchor=None):
        """The block's matching unit number ``within`` (None past the last one).
        ``cutter(pos)`` cuts one piece from a unit boundary and returns (units, next
        boundary); ``anchor(row)`` asks the index for the unit of a row, or is None."""
        while True:
            k = self._run_before(within)
            run = self.runs[k]
            if within < run.stop:
                return run.units[within - run.first]
            if run.done:
                return None
            if anchor is not None and within - run.stop > self.FAR:
                row = max(within - self.MARGIN, run.stop)
                unit = anchor(row)
                if unit is not None:
                    self.runs.insert(k + 1, _Run(row, unit.end, [unit], unit.end >= self.end))
                    continue
            self._extend(k, cutter)

    def all_units(self, cutter) -> list:
        run = self.runs[0]
        while not (len(self.runs) == 1 and run.done):
            self._extend(0, cutter)
            run = self.runs[0]
        return run.units

    def _run_before(self, within: int) -> int:
        k = 0
        for i, run in enumerate(self.runs):
            if run.first <= within:
                k = i
            else:
                break
        return k

    def _extend(self, k: int, cutter) -> None:
        run = self.runs[k]
        units, pos = cutter(run.pos, self.end)
        run.units.extend(units)
        run.pos = pos
        run.done = pos >= self.end
        # Reached the next run: join them (its rows are the same units).
        if k + 1 < len(self.runs) and run.stop >= self.runs[k + 1].first:
            nxt = self.runs.pop(k + 1)
            del run.units[nxt.first - run.first:]
            run.units.extend(nxt.units)
            run.pos, run.done = nxt.pos, nxt.done


def cut_piece(source, pos: int, end: int, dialect: str, kinds: frozenset[str], origin,
              piece: int = _BlockCut.PIECE) -> tuple[list, int]:
    """The matching units starting in [pos, pos + piece) (``pos`` a unit boundary,
    nothing at or past ``end``), and the boundary after the last unit cut."""
    # The index counts a unit in the block where it starts; cut in the scan's dialect
    # and origin so the rows agree with the counts whatever the views use now.
    stop = min(pos + piece, end)
    last_end = stop
    out = []
    for u in decoder.units_in_range(source, pos, stop, origin, dialect):
        if u.offset < pos:
            continue  # the tail of a unit already counted
        last_end = u.end
        if u.offset >= end:
            break
        if u.kind in kinds or (u.warnings and any(w in kinds for w in u.warnings)):
            out.append(u)
    return out, max(last_end, stop)


class ProblemModel(NamedColumnsModel):
    """Rows = problem units matching the filter, computed on demand from the index."""

    COLUMNS = ("Offset", "Kind", "Bytes", "Repl.", "Explanation", "Line:Col")
    OFFSET, KIND, BYTES, REPLACEMENTS, EXPLANATION, LINE = range(6)
    LINE_REACH = 64 << 10  # bytes back to a line's start a row's column may cost
    BLOCK_CACHE = 8
    ROW_CACHE = 512
    MAX_BYTES_SHOWN = 8

    totalChanged = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._source = None
        self._index = None
        self.scan_id = None   # the scan shown (its snapshots share it)
        self._dialect = K.UTF8
        self._kinds = kinds_for(SHOW_BOTH, None)
        self._cumulative = np.zeros(0, dtype=np.int64)
        self._block_size = 1
        self._base = 0        # file offset of block 0 (a region scan starts later)
        self._origin = None   # the origin the scan decoded from
        self._blocks: OrderedDict[int, _BlockCut] = OrderedDict()
        self._rows: OrderedDict[int, tuple | None] = OrderedDict()
        self.unfiltered_total = 0
        self.complete = False
        # (offset, wait=False, reach=...) -> (line, column), either None when not cheap:
        # asked only for the rows Qt paints (they are made on demand).
        self.line_column = None

    # ------------------------------------------------------------------ state
    @property
    def kinds(self) -> frozenset[str]:
        return self._kinds

    @property
    def total(self) -> int:
        """Problems matching the filter (may exceed what Qt can show)."""
        return int(self._cumulative[-1]) if len(self._cumulative) else 0

    @property
    def capped(self) -> bool:
        return self.total > QT_MAX_ROWS

    def set_scan(self, source, result: ScanResult | None) -> None:
        """Show the problems of a (partial or final) scan result, or none."""
        # A later snapshot of the same scan: the rows grow (see ScanResult.snapshot).
        same_stream = (result is not None and result.scan_id == self.scan_id
                       and source is self._source and result.dialect == self._dialect)
        self._source = source
        self._dialect = K.UTF8 if result is None else result.dialect
        self.complete = result is not None and result.complete
        if result is None:
            self.beginResetModel()
            self._index = None
            self.scan_id = None
            self._cumulative = np.zeros(0, dtype=np.int64)
            self._blocks.clear()
            self._rows.clear()
            self.unfiltered_total = 0
            self.endResetModel()
            self.totalChanged.emit()
            return
        if same_stream:
            self._index = result.index
            self._grow()
        else:
            index = result.index
            self.beginResetModel()
            self._index = index
            self.scan_id = result.scan_id
            self._block_size = index.block_size
            self._base = index.start
            self._origin = index.origin
            self._recount()
            self.endResetModel()
        self.totalChanged.emit()

    def set_filter(self, kinds: frozenset[str]) -> None:
        if kinds == self._kinds:
            return
        self.beginResetModel()
        self._kinds = frozenset(kinds)
        self._recount()
        self.endResetModel()
        self.totalChanged.emit()

    def _recount(self) -> None:
        self._blocks.clear()
        self._rows.clear()
        if self._index is None:
            self._cumulative = np.zeros(0, dtype=np.int64)
            self.unfiltered_total = 0
            return
        self._cumulative = np.cumsum(block_counts(self._index, self._kinds))
        every = kinds_for(SHOW_BOTH, None)
        if self._kinds == every:
            self.unfiltered_total = self.total
        else:
            all_counts = block_counts(self._index, every)
            self.unfiltered_total = int(all_counts.sum())

    def _grow(self) -> None:
        """New blocks finished in the same scan: append their rows (no reset, so the
        view keeps its place); fall back to a reset if earlier blocks changed."""
        old_rows = self.rowCount()
        old_blocks = len(self._cumulative)
        old_cum = self._cumulative
        counts = block_counts(self._index, self._kinds)
        cum = np.cumsum(counts)
        if len(cum) < old_blocks or (old_blocks and cum[old_blocks - 1] != old_cum[-1]):
            self.beginResetModel()
            self._recount()
            self.endResetModel()
            return
        self._cumulative = cum
        # The last block seen before may have been recomputed while unfinished.
        if old_blocks:
            self._blocks.pop(old_blocks - 1, None)
            self._rows.clear()
        every = kinds_for(SHOW_BOTH, None)
        self.unfiltered_total = (self.total if self._kinds == every
                                 else int(block_counts(self._index, every).sum()))
        new_rows = min(self.total, QT_MAX_ROWS)
        if new_rows > old_rows:
            self.beginInsertRows(QModelIndex(), old_rows, new_rows - 1)
            self.endInsertRows()

    # ------------------------------------------------------------------ rows -> units
    def block_of_row(self, row: int) -> tuple[int, int]:
        """(block number, position of the row among that block's matching problems)."""
        block = int(np.searchsorted(self._cumulative, row, side="right"))
        before = int(self._cumulative[block - 1]) if block else 0
        return block, row - before

    def _block(self, block: int) -> _BlockCut:
        entry = self._blocks.get(block)
        if entry is None:
            start = self._base + block * self._block_size
            end = min(start + self._block_size, self._index.end, self._source.size)
            entry = _BlockCut(start, end)
            self._blocks[block] = entry
            if len(self._blocks) > self.BLOCK_CACHE:
                self._blocks.popitem(last=False)
        else:
            self._blocks.move_to_end(block)
        return entry

    def _cutter(self, pos: int, end: int):
        return cut_piece(self._source, pos, end, self._dialect, self._kinds, self._origin)

    def _anchor_for(self, block: int):
        """Row of a block -> its unit, through the index."""
        before = int(self._cumulative[block - 1]) if block else 0
        index, kinds, source = self._index, self._kinds, self._source
        return lambda row: nth_problem(source, before + row, index, kinds)

    def block_units(self, block: int) -> list[decoder.Unit]:
        """Every matching unit of a block (cut from its start)."""
        return self._block(block).all_units(self._cutter)

    def unit_for_row(self, row: int) -> decoder.Unit | None:
        if self._index is None or not 0 <= row < self.rowCount():
            return None
        block, within = self.block_of_row(row)
        return self._block(block).unit(within, self._cutter, self._anchor_for(block))

    def row_for_offset(self, offset: int) -> int:
        """The first row whose unit starts at or after ``offset`` (for keeping a place)."""
        if self._index is None or not len(self._cumulative):
            return 0
        block = min(max(offset - self._base, 0) // self._block_size, len(self._cumulative) - 1)
        before = int(self._cumulative[block - 1]) if block else 0
        units = self.block_units(block)
        within = next((i for i, u in enumerate(units) if u.end > offset), len(units))
        return min(before + within, max(self.rowCount() - 1, 0))

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid():
            return 0
        return min(self.total, QT_MAX_ROWS)

    _ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
              Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.TextAlignmentRole)
    _RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def _row_texts(self, row: int):
        """(unit, the five column texts) of a row, made once for all its cells."""
        hit = self._rows.get(row)
        if hit is not None:
            return hit
        unit = self.unit_for_row(row)
        if unit is None:
            texts = None
        else:
            data = self._source.read(unit.offset, unit.length)
            shown = data[:self.MAX_BYTES_SHOWN].hex(" ").upper()
            texts = (unit, (
                f"0x{unit.offset:08X}",
                f"{style.mark_for(unit)}  {kind_text(unit, self._kinds)}",
                shown + (" …" if len(data) > self.MAX_BYTES_SHOWN else ""),
                str(unit.replacements),
                short_explanation(unit, data),
                self._line_text(unit.offset),
            ))
        self._rows[row] = texts
        if len(self._rows) > self.ROW_CACHE:
            self._rows.popitem(last=False)
        return texts

    def _line_text(self, offset: int) -> str:
        if self.line_column is None:
            return ""
        try:
            line, column = self.line_column(offset, wait=False, reach=self.LINE_REACH)
        except OSError:
            return ""
        if line is None:
            return "?"
        return f"{line}:{column}" if column is not None else f"{line}:?"

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in self._ROLES or not index.isValid():
            return None
        column = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._RIGHT if column in (self.OFFSET, self.REPLACEMENTS, self.LINE) else None
        found = self._row_texts(index.row())
        if found is None:
            return "…" if role == Qt.ItemDataRole.DisplayRole and column == 0 else None
        unit, texts = found
        if role == Qt.ItemDataRole.DisplayRole:
            return texts[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.KIND:
                return style.Palette.current().color(
                    unit.kind if unit.kind != K.VALID else style.WARNING)
            return None
        return (f"offset 0x{unit.offset:X} ({unit.offset:,})\n{texts[self.BYTES]}\n"
                f"{texts[self.EXPLANATION]}\n"
                f"{unit.replacements} U+FFFD from a conforming decoder")


class ProblemTable(QTableView):
    """The table; Enter (like a double-click) goes to the unit of the current row."""

    goRequested = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.goRequested.emit(self.currentIndex().row())
            event.accept()
            return
        super().keyPressEvent(event)


class ProblemListDock(QDockWidget):
    """A dock listing every problem unit of the scanned file, with filters."""

    REFRESH_MS = 250  # partial scan results are folded in at most this often

    def __init__(self, document, parent=None):
        super().__init__("Problems", parent)
        self.setObjectName("errorList")
        self.document = document
        self.model = ProblemModel(self)
        self.model.line_column = document.line_column

        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        filters = QHBoxLayout()
        self.show_combo = QComboBox(body)
        self.show_combo.setObjectName("problemShow")
        self.show_combo.addItem("Errors and warnings", SHOW_BOTH)
        self.show_combo.addItem("Errors only", SHOW_ERRORS)
        self.show_combo.addItem("Warnings only", SHOW_WARNINGS)
        self.kind_combo = QComboBox(body)
        self.kind_combo.setObjectName("problemKind")
        self.kind_combo.setToolTip("Show only one kind of problem")
        filters.addWidget(QLabel("Show:", body))
        filters.addWidget(self.show_combo)
        filters.addWidget(QLabel("Kind:", body))
        filters.addWidget(self.kind_combo, 1)
        layout.addLayout(filters)

        self.table = ProblemTable(body)
        self.table.setObjectName("problemTable")
        self.table.setModel(self.model)
        read_only_rows(self.table, alternating=True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.table.setFont(mono)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 4)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        width = self.table.fontMetrics().horizontalAdvance("0")
        for column, chars in ((0, 12), (1, 29), (2, 25), (3, 6), (ProblemModel.LINE, 11)):
            self.table.setColumnWidth(column, width * chars)
        # The line column is the last one in the model, shown next to the offset.
        header.moveSection(ProblemModel.LINE, 1)
        layout.addWidget(self.table, 1)

        self.status = QLabel(body)
        self.status.setObjectName("problemCount")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.setWidget(body)

        self._pending = None  # the latest scan result not yet shown
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(self.REFRESH_MS)
        self._refresh.timeout.connect(self._apply_pending)

        self._fill_kind_combo()
        self.show_combo.currentIndexChanged.connect(self._filter_changed)
        self.kind_combo.currentIndexChanged.connect(self._filter_changed)
        self.table.doubleClicked.connect(lambda index: self.go_to_row(index.row()))
        self.table.goRequested.connect(self.go_to_row)
        self.model.totalChanged.connect(self._update_status)
        document.scanChanged.connect(self._scan_changed)
        document.sourceChanged.connect(lambda: self._scan_changed(None))
        # The rows follow the scan; say so when the views decode differently.
        document.originChanged.connect(lambda _o: self._update_status())
        document.dialectChanged.connect(lambda _d: self._update_status())
        self._scan_changed(document.scan)

    # ------------------------------------------------------------------ filters
    def _fill_kind_combo(self) -> None:
        show = self.show_combo.currentData()
        current = self.kind_combo.currentData()
        self.kind_combo.blockSignals(True)
        self.kind_combo.clear()
        self.kind_combo.addItem("All kinds", None)
        names = []
        if show in (SHOW_BOTH, SHOW_ERRORS):
            names += K.ERROR_KINDS
        if show in (SHOW_BOTH, SHOW_WARNINGS):
            names += K.WARNING_KINDS
        for name in names:
            self.kind_combo.addItem(f"{name}: {K.title(name)}", name)
        found = self.kind_combo.findData(current)
        self.kind_combo.setCurrentIndex(max(found, 0))
        self.kind_combo.blockSignals(False)

    def set_filter(self, show: str = SHOW_BOTH, kind: str | None = None) -> None:
        """Choose what the list shows (the same as using the two combos)."""
        self.show_combo.setCurrentIndex(self.show_combo.findData(show))
        self._fill_kind_combo()
        self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(kind), 0))
        self._filter_changed()

    def _filter_changed(self) -> None:
        if self.sender() is self.show_combo:
            self._fill_kind_combo()
        kinds = kinds_for(self.show_combo.currentData(), self.kind_combo.currentData())
        self.model.set_filter(kinds)

    # ------------------------------------------------------------------ scan results
    def _scan_changed(self, result) -> None:
        # A new file or a cleared scan shows at once; partial results are throttled.
        if result is None or result.scan_id != self.model.scan_id or result.complete:
            self._refresh.stop()
            self._pending = None
            self.model.set_scan(self.document.source, result)
            return
        self._pending = result
        if not self._refresh.isActive():
            self._refresh.start()

    def _apply_pending(self) -> None:
        result, self._pending = self._pending, None
        if result is not None:
            self.model.set_scan(self.document.source, result)

    def _update_status(self) -> None:
        m = self.model
        if m._index is None:
            self.status.setText("No scan yet: the list fills in as the file is scanned.")
            return
        shown = m.total
        text = f"{m.unfiltered_total:,} problems (filtered: {shown:,})"
        if not m.complete:
            text += " — scanning, more to come"
        if m.capped:
            text += (f"; the list shows the first {QT_MAX_ROWS:,} (Qt's row limit): "
                     "narrow the filter to reach the rest")
        doc = self.document
        if doc.dialect != m._dialect or doc.origin != m._origin:
            where = f"from 0x{m._origin:X}" if m._origin is not None else "from the start"
            text += (f". Listed as the scan decoded the file ({m._dialect}, {where}); "
                     "the views now decode it differently")
        self.status.setText(text)

    # ------------------------------------------------------------------ going there
    def go_to_row(self, row: int) -> None:
        unit = self.model.unit_for_row(row)
        if unit is None:
            return
        self.document.set_selection(unit.offset, unit.end, reveal=True)
