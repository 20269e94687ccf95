"""The problem list: every problem unit of the file in a dock, without holding them.

The rows are :class:`inspector.core.analysis.scanviews.problemrows.ProblemRows`' (found on demand
from the scan's block index and the bytes, so a file with 10^8 problems opens as fast as
one with ten); this module is their Qt model, the table and the filter combos.

While the scan runs, partial results arrive through ``document.scanChanged``; the rows
of the newly finished blocks are appended (throttled), so the list grows under the
reader without jumping back to the top.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import (QModelIndex, Qt,
                            QTimer, Signal)
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (QComboBox, QDockWidget, QHBoxLayout,
                               QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget)

from inspector.core.analysis.scanviews.problemrows import (SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS,
                                                           ProblemRows, kinds_for, kinds_offered)
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.scan.results import ScanResult
from inspector.gui.look import style
from inspector.gui.look.tables import NamedColumnsModel, read_only_rows

QT_MAX_ROWS = 2**31 - 1  # Qt's row numbers are 32-bit ints


class ProblemModel(NamedColumnsModel):
    """Rows = problem units matching the filter, computed on demand from the index."""

    COLUMNS = ("Offset", "Kind", "Bytes", "Repl.", "Explanation", "Line:Col")
    OFFSET, KIND, BYTES, REPLACEMENTS, EXPLANATION, LINE = range(6)
    LINE_REACH = 64 << 10  # bytes back to a line's start a row's column may cost
    ROW_CACHE = 512
    MAX_BYTES_SHOWN = 8

    totalChanged = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows = ProblemRows()
        self._rows: OrderedDict[int, tuple | None] = OrderedDict()
        # (offset, wait=False, reach=...) -> (line, column), either None when not cheap:
        # asked only for the rows Qt paints (they are made on demand).
        self.line_column = None

    # ------------------------------------------------------------------ state
    @property
    def kinds(self) -> frozenset[str]:
        return self.rows.kinds

    @property
    def total(self) -> int:
        """Problems matching the filter (may exceed what Qt can show)."""
        return self.rows.total

    @property
    def unfiltered_total(self) -> int:
        return self.rows.unfiltered_total

    @property
    def complete(self) -> bool:
        return self.rows.complete

    @property
    def capped(self) -> bool:
        return self.total > QT_MAX_ROWS

    def set_scan(self, source, result: ScanResult | None) -> None:
        """Show the problems of a (partial or final) scan result, or none."""
        if self.rows.same_stream(source, result):
            self.rows.note_result(source, result)
            self._grow()
        else:
            self.beginResetModel()
            self._rows.clear()
            self.rows.show(source, result)
            self.endResetModel()
        self.totalChanged.emit()

    def set_filter(self, kinds: frozenset[str]) -> None:
        if kinds == self.rows.kinds:
            return
        self.beginResetModel()
        self._rows.clear()
        self.rows.set_kinds(kinds)
        self.endResetModel()
        self.totalChanged.emit()

    def _grow(self) -> None:
        """New blocks finished in the same scan: append their rows (no reset, so the
        view keeps its place); fall back to a reset if earlier blocks changed."""
        old_rows = self.rowCount()
        if not self.rows.grow():
            self.beginResetModel()
            self._rows.clear()
            self.rows.recount()
            self.endResetModel()
            return
        self._rows.clear()
        new_rows = min(self.total, QT_MAX_ROWS)
        if new_rows > old_rows:
            self.beginInsertRows(QModelIndex(), old_rows, new_rows - 1)
            self.endInsertRows()

    # ------------------------------------------------------------------ rows -> units
    def unit_for_row(self, row: int) -> decoder.Unit | None:
        if not 0 <= row < self.rowCount():
            return None
        return self.rows.unit_for_row(row)

    def row_for_offset(self, offset: int) -> int:
        """The first row whose unit starts at or after ``offset`` (for keeping a place)."""
        return min(self.rows.row_for_offset(offset), max(self.rowCount() - 1, 0))

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid():
            return 0
        return min(self.total, QT_MAX_ROWS)

    _ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
              Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.TextAlignmentRole)
    _RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def _row_texts(self, row: int):
        """(unit, the six column texts) of a row, made once for all its cells."""
        hit = self._rows.get(row)
        if hit is not None:
            return hit
        unit = self.unit_for_row(row)
        if unit is None:
            texts = None
        else:
            offset, kind, shown, replacements, explanation = self.rows.texts(
                unit, self.MAX_BYTES_SHOWN)
            texts = (unit, (offset, f"{style.mark_for(unit)}  {kind}", shown, replacements,
                            explanation, self._line_text(unit.offset)))
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
        for name in kinds_offered(show):
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
        if result is None or result.scan_id != self.model.rows.scan_id or result.complete:
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
        if m.rows.index is None:
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
        scanned = m.rows
        read = scanned.dialect if isinstance(scanned.dialect, str) else scanned.dialect.name
        if doc.dialect != read or doc.origin != scanned.origin:
            where = (f"from 0x{scanned.origin:X}" if scanned.origin is not None
                     else "from the start")
            text += (f". Listed as the scan decoded the file ({read}, {where}); "
                     "the views now decode it differently")
        self.status.setText(text)

    # ------------------------------------------------------------------ going there
    def go_to_row(self, row: int) -> None:
        unit = self.model.unit_for_row(row)
        if unit is None:
            return
        self.document.set_selection(unit.offset, unit.end, reveal=True)
