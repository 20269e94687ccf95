"""Go to offset: the dialog and the parser of what is typed into it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QLineEdit,
                               QVBoxLayout, QWidget)



class LineTarget:
    """A line (and column) typed into Go to: ``L120``, ``L120:5`` or ``120:5``."""

    __slots__ = ("line", "column")

    def __init__(self, line: int, column: int = 1):
        self.line = line
        self.column = column

    def __eq__(self, other):
        return isinstance(other, LineTarget) and (self.line, self.column) == (other.line, other.column)

    def __repr__(self):
        return f"LineTarget({self.line}, {self.column})"


HINT = ("Offsets: 4096, 0x1000, +16, -16 or end. Lines: L120 (line 120), L120:5 or "
        "120:5 (line 120, column 5).")


def parse_line(text: str) -> LineTarget | None:
    """``L<line>``, ``L<line>:<column>`` or ``<line>:<column>`` (decimal, 1-based; the
    ``L`` in either case), else None: no offset has an ``L`` or a colon, so the two
    syntaxes never meet."""
    t = text.strip().replace("_", "").replace(",", "")
    marked = t[:1] in ("L", "l")
    if marked:
        t = t[1:].strip()
    elif ":" not in t:
        return None
    line, _, column = t.partition(":")
    line, column = line.strip(), column.strip()
    if not line.isdigit() or (column and not column.isdigit()) or (":" in t and not column) \
            or len(t) > 40:
        raise ValueError(f"“{text.strip()}” is not a line. Use L120 for line 120, or L120:5 "
                         "or 120:5 for line 120, column 5.")
    target = LineTarget(int(line), int(column) if column else 1)
    if target.line < 1 or target.column < 1:
        raise ValueError("Lines and columns start at 1.")
    return target


def parse_goto_target(text: str, cursor: int, size: int) -> int | LineTarget:
    """What a Go-to entry names: an offset (see :func:`parse_goto`) or a
    :class:`LineTarget`."""
    line = parse_line(text)
    return line if line is not None else parse_goto(text, cursor, size)


def parse_goto(text: str, cursor: int, size: int) -> int:
    """The offset a Go-to entry names: decimal, ``0x`` hex, ``+n`` / ``-n`` relative to
    the cursor (either base), or ``end`` (the last byte). Raises ValueError with a message
    for the dialog. The result is inside the file."""
    t = text.strip().replace("_", "").replace(",", "")
    if not t:
        raise ValueError("Type an offset (4096, 0x1000, +16, -16 or end) or a line "
                         "(L120, 120:5).")
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
                         "(0x1000), +n or -n to move from the cursor, or end; "
                         "L120 or 120:5 for a line.") from None
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
    """Ask for an offset or a line; a bad entry is explained in the dialog, which stays
    open. ``line_resolver(line, column)`` turns a line into an offset (or raises
    ValueError saying why not, e.g. the scan has not reached it yet)."""

    offsetChosen = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gotoDialog")
        self.setWindowTitle("Go to offset or line")
        self._cursor = 0
        self._size = 0
        self.offset: int | None = None
        self.line_resolver = None
        lay = QVBoxLayout(self)
        self.prompt = QLabel()
        lay.addWidget(self.prompt)
        self.entry = QLineEdit()
        self.entry.setObjectName("gotoEntry")
        self.entry.setPlaceholderText("4096, 0x1000, +16, -16, end, L120 or 120:5")
        lay.addWidget(self.entry)
        self.hint = QLabel(HINT)
        self.hint.setObjectName("gotoHint")
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)  # greyed: a hint, not a message
        lay.addWidget(self.hint)
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
            target = parse_goto_target(self.entry.text(), self._cursor, self._size)
            if isinstance(target, LineTarget):
                if self.line_resolver is None:
                    raise ValueError("Lines cannot be found here.")
                target = self.line_resolver(target.line, target.column)
        except ValueError as e:
            self.message.setText(str(e))
            self.message.show()
            self.entry.setFocus()
            self.entry.selectAll()
            return  # stays open
        self.offset = target
        super().accept()
        self.offsetChosen.emit(target)


