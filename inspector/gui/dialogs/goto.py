"""Go to offset: the dialog and the parser of what is typed into it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QLineEdit,
                               QVBoxLayout, QWidget)



def parse_goto(text: str, cursor: int, size: int) -> int:
    """The offset a Go-to entry names: decimal, ``0x`` hex, ``+n`` / ``-n`` relative to
    the cursor (either base), or ``end`` (the last byte). Raises ValueError with a message
    for the dialog. The result is inside the file."""
    t = text.strip().replace("_", "").replace(",", "")
    if not t:
        raise ValueError("Type an offset: 4096, 0x1000, +16, -16 or end.")
    if t.lower() in ("end", "$"):
        return max(size - 1, 0)
    if len(t) > 40:  # no file has an offset of more than 40 digits (and int() has limits)
        raise ValueError(f"“{text.strip()[:20]}…” is too long to be an offset.")
    sign = 0
    if t[0] in "+-":
        sign = 1 if t[0] == "+" else -1
        t = t[1:].strip()
    try:
        if t.lower().startswith("0x"):
            if len(t) == 2:
                raise ValueError
            value = int(t[2:], 16)
        else:
            if not t.isdigit():
                raise ValueError
            value = int(t, 10)
    except ValueError:
        raise ValueError(f"“{text.strip()}” is not an offset. Use decimal (4096), hex with 0x "
                         "(0x1000), +n or -n to move from the cursor, or end.") from None
    target = cursor + sign * value if sign else value
    if size == 0:
        if target != 0:
            raise ValueError("The file is empty: the only offset is 0.")
        return 0
    if target < 0:
        raise ValueError(f"That is {-target:,} bytes before the start of the file.")
    if target >= size:
        raise ValueError(f"Offset {target:,} (0x{target:X}) is past the end: the file has "
                         f"{size:,} bytes, the last offset is {size - 1:,} (0x{size - 1:X}).")
    return target


class GotoDialog(QDialog):
    """Ask for an offset; a bad entry is explained in the dialog, which stays open."""

    offsetChosen = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gotoDialog")
        self.setWindowTitle("Go to offset")
        self._cursor = 0
        self._size = 0
        self.offset: int | None = None
        lay = QVBoxLayout(self)
        self.prompt = QLabel()
        lay.addWidget(self.prompt)
        self.entry = QLineEdit()
        self.entry.setObjectName("gotoEntry")
        self.entry.setPlaceholderText("4096, 0x1000, +16, -16 or end")
        lay.addWidget(self.entry)
        self.message = QLabel()
        self.message.setObjectName("gotoMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c62828;")
        self.message.hide()
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.entry.textEdited.connect(self._clear_message)

    def prepare(self, cursor: int, size: int) -> None:
        self._cursor, self._size = cursor, size
        self.offset = None
        last = max(size - 1, 0)
        self.prompt.setText(f"Offset (0 to {last:,} = 0x{last:X}); the cursor is at "
                            f"{cursor:,} (0x{cursor:X}).")
        self.entry.selectAll()
        self._clear_message()
        self.entry.setFocus()

    def _clear_message(self, *_):
        self.message.clear()
        self.message.hide()

    def accept(self) -> None:
        try:
            target = parse_goto(self.entry.text(), self._cursor, self._size)
        except ValueError as e:
            self.message.setText(str(e))
            self.message.show()
            self.entry.setFocus()
            self.entry.selectAll()
            return  # stays open
        self.offset = target
        super().accept()
        self.offsetChosen.emit(target)


