"""The note of a finding: asked when one is added (Ctrl+D) and when its note is edited."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout,
                               QWidget)

from inspector.core.units.ranges import byte_range

PREVIEW = 16   # bytes shown in the dialog


class FindingNoteDialog(QDialog):
    """Shows the bytes being marked and asks for a note; ``noteChosen(start, end,
    note, finding)`` on OK (``finding`` None for a new one). Opened with ``open()``:
    the window keeps running."""

    noteChosen = Signal(object, object, str, object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("findingNoteDialog")
        self.setMinimumWidth(420)
        self.start = self.end = 0
        self.finding = None
        layout = QVBoxLayout(self)
        self.what = QLabel(self)
        self.what.setObjectName("findingWhat")
        self.what.setWordWrap(True)
        layout.addWidget(self.what)
        self.edit = QLineEdit(self)
        self.edit.setObjectName("findingNote")
        self.edit.setPlaceholderText("What is it? (e.g. overlong '/', filter bypass)")
        self.edit.setMaxLength(20_000)
        layout.addWidget(self.edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def prepare(self, start: int, end: int, data: bytes, note: str = "", finding=None) -> None:
        self.start, self.end, self.finding = start, end, finding
        self.setWindowTitle("Edit the finding's note" if finding is not None else "Add a finding")
        shown = data[:PREVIEW].hex(" ").upper() + (" …" if end - start > PREVIEW else "")
        self.what.setText(f"Bytes {byte_range(start, end)}: {shown}")
        self.edit.setText(note)
        self.edit.selectAll()
        self.edit.setFocus()

    def accept(self) -> None:
        super().accept()
        self.noteChosen.emit(self.start, self.end, self.edit.text(), self.finding)
