"""The Findings dock: the bytes the user marked with a note, and the buttons to edit,
delete, export and import them.

It shows ``window.findings`` (:class:`~inspector.gui.findings.WindowFindings`): one row
per finding (offset, length, bytes, note, when it was made); activating a row (Enter,
double-click) selects its bytes in both panes. Above the list it says when findings
wait for the file's fingerprint or could not be stored; below it, findings made on an
earlier version of the file at this path are listed apart, with a warning, and are never
drawn on the current bytes.
"""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QHeaderView,
                               QLabel, QPushButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from inspector.gui.look.tables import read_only_rows

COLUMNS = ("Offset", "Length", "Bytes", "Note", "Made")
BYTES_SHOWN = 12


def when_text(iso: str) -> str:
    """An ISO time (UTC) as local time to the minute."""
    try:
        t = _dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return iso or ""
    return t.astimezone().strftime("%Y-%m-%d %H:%M")


def _table(name: str, parent: QWidget) -> QTableWidget:
    t = QTableWidget(0, len(COLUMNS), parent)
    t.setObjectName(name)
    t.setHorizontalHeaderLabels(COLUMNS)
    read_only_rows(t)
    header = t.horizontalHeader()
    for i in range(len(COLUMNS)):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
    return t


class FindingsDock(QDockWidget):
    """The list of findings of the open file. ``editRequested(finding)``: the window
    asks for the new note; export and import ask the window for a path."""

    editRequested = Signal(object)
    exportRequested = Signal()
    importRequested = Signal()

    def __init__(self, findings, parent: QWidget | None = None):
        super().__init__("Findings", parent)
        self.setObjectName("findings")
        self.findings = findings
        self.document = findings.document
        self.shown: list = []
        body = QWidget(self)
        box = QVBoxLayout(body)
        box.setContentsMargins(4, 4, 4, 4)
        self.status = QLabel(body)
        self.status.setObjectName("findingsStatus")
        self.status.setWordWrap(True)
        box.addWidget(self.status)
        self.table = _table("findingsTable", body)
        self.table.setAccessibleName("Findings")
        self.table.itemActivated.connect(lambda item: self.jump(item.row()))
        box.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.edit_button = QPushButton("&Edit note…", body)
        self.edit_button.setObjectName("findingsEdit")
        self.edit_button.clicked.connect(self.edit_current)
        self.delete_button = QPushButton("De&lete", body)
        self.delete_button.setObjectName("findingsDelete")
        self.delete_button.clicked.connect(self.delete_current)
        self.export_button = QPushButton("E&xport…", body)
        self.export_button.setObjectName("findingsExport")
        self.export_button.clicked.connect(self.exportRequested)
        self.import_button = QPushButton("&Import…", body)
        self.import_button.setObjectName("findingsImport")
        self.import_button.clicked.connect(self.importRequested)
        for b in (self.edit_button, self.delete_button, self.export_button, self.import_button):
            row.addWidget(b)
        row.addStretch(1)
        box.addLayout(row)
        self.earlier_label = QLabel(body)
        self.earlier_label.setObjectName("findingsEarlier")
        self.earlier_label.setWordWrap(True)
        box.addWidget(self.earlier_label)
        self.earlier_table = _table("findingsEarlierTable", body)
        self.earlier_table.setAccessibleName("Findings from an earlier version")
        box.addWidget(self.earlier_table)
        self.setWidget(body)
        findings.changed.connect(self.refresh)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.refresh()

    # ------------------------------------------------------------------ showing
    def _fill(self, table: QTableWidget, items, source) -> None:
        table.setRowCount(len(items))
        for r, f in enumerate(items):
            if source is not None and f.end <= source.size:
                data = source.read(f.start, min(f.end - f.start, BYTES_SHOWN))
                shown = data.hex(" ").upper() + (" …" if f.end - f.start > BYTES_SHOWN else "")
            else:
                shown = "—"
            note = f.note.replace("\n", " ⏎ ")
            cells = (f"0x{f.start:X}", f"{f.end - f.start:,}", shown, note, when_text(f.created))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c in (0, 1):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 3:
                    item.setToolTip(f.note)
                table.setItem(r, c, item)

    def refresh(self) -> None:
        w = self.findings
        self.shown = w.items()
        current = self.current()
        self._fill(self.table, self.shown, self.document.source)
        if current is not None:
            for r, f in enumerate(self.shown):
                if f.id == current.id:
                    self.table.selectRow(r)
        text = w.status_text()
        if not text and not self.shown:
            text = ("No findings yet: select bytes (or put the cursor on a unit) and press "
                    "Ctrl+D." if self.document.size else "Open a file to mark findings.")
        self.status.setText(text)
        earlier = [f for _, fs in w.earlier for f in fs]
        if earlier:
            self.earlier_label.setText(
                f"⚠ {len(earlier)} finding(s) from an earlier version of this file: the "
                "file at this path has changed since they were made, so they are listed "
                "here only and not placed on the current bytes.")
        self._fill(self.earlier_table, earlier, None)
        self.earlier_label.setVisible(bool(earlier))
        self.earlier_table.setVisible(bool(earlier))
        self._update_buttons()

    def _update_buttons(self) -> None:
        has = self.current() is not None
        self.edit_button.setEnabled(has)
        self.delete_button.setEnabled(has)
        self.export_button.setEnabled(bool(self.shown))
        self.import_button.setEnabled(self.findings.identity is not None)

    # ------------------------------------------------------------------ acting
    def current(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        r = rows[0].row()
        return self.shown[r] if 0 <= r < len(self.shown) else None

    def jump(self, row: int) -> None:
        """Select the finding of ``row`` in both panes."""
        if 0 <= row < len(self.shown):
            f = self.shown[row]
            self.document.set_selection(f.start, f.end, reveal=True)

    def edit_current(self) -> None:
        f = self.current()
        if f is not None:
            self.editRequested.emit(f)

    def delete_current(self) -> None:
        f = self.current()
        if f is not None:
            row = self.table.currentRow()
            self.findings.remove(f)
            if self.shown:
                self.table.selectRow(min(row, len(self.shown) - 1))

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Delete and self.table.hasFocus():
            self.delete_current()
            event.accept()
            return
        super().keyPressEvent(event)
