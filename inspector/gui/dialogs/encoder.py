"""The encoder (Tools menu): type characters or ``U+XXXX`` and see their UTF-8 bytes with
the bit layout of the UTF-8 standard's worked examples, the overlong, CESU-8 and
Modified UTF-8 spellings of the same text, and search the file for any of them.

The encoding itself is the core's (``inspector.core.units.unitinfo.encode``); this dialog only
reads what the person typed, lays the answer out and emits ``findRequested`` with the
bytes of the chosen spelling for the window to hand to its find bar.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox,
                               QHBoxLayout, QHeaderView, QLabel, QLayout, QLineEdit, QPushButton,
                               QScrollArea, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.analysis import search as core_search
from inspector.core.units import unitinfo
from inspector.gui.look import style
from inspector.gui.look.bitlayout import BitLayout, BitLayoutView

# Written code points: U+20AC, u+20ac, 0x20AC, \u20AC, \U0001F600. Bare hex is read as
# text ("cafe" is four letters), so only these explicit forms are code points.
_CODEPOINT_TOKEN = re.compile(r"(?:[uU]\+|0[xX])[0-9A-Fa-f]{1,8}|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}")
_SEPARATORS = re.compile(r"[\s,;]+")
MAX_SHOWN = 16  # code points laid out bit by bit; the spellings cover all of them
MAX_INPUT = 4096


def parse_input(text: str) -> list[int]:
    """The code points a person meant.

    A run of written code points (``U+00E9 U+20AC``, separated by spaces or commas) is
    read as those code points; anything else is read as the characters typed. Raises
    ValueError with a message for the dialog.
    """
    if not text:
        raise ValueError("Type a character (é, €, 😀) or a code point (U+20AC, 0x20AC).")
    if len(text) > MAX_INPUT:
        raise ValueError(f"That is {len(text):,} characters; the encoder takes up to {MAX_INPUT:,}.")
    stripped = text.strip()
    tokens = [t for t in _SEPARATORS.split(stripped) if t]
    if tokens and all(_CODEPOINT_TOKEN.fullmatch(t) for t in tokens):
        return [unitinfo.parse_codepoint(t) for t in tokens]
    looks_written = re.fullmatch(r"(?:[uU]\+|0[xX]|\\[uU])\S*", stripped)
    if looks_written:
        # "U+12G4" or "U+" alone: the person meant a code point but wrote it wrong.
        unitinfo.parse_codepoint(stripped)  # raises with the core's own message
    # Typed characters. Python keeps a lone surrogate that came from the clipboard as is.
    return [ord(c) for c in text]


class Spelling:
    """One way to write the whole input as bytes."""

    def __init__(self, name: str, data: bytes, note: str = ""):
        self.name, self.data, self.note = name, data, note

    def verdict(self, dialect: str = K.UTF8) -> str:
        """What a decoder in ``dialect`` makes of these bytes."""
        units = decoder.cut(self.data, 0, dialect)
        kinds = sorted({u.kind for u in units if u.kind != K.VALID})
        return "valid" if not kinds else ", ".join(kinds)


def spellings(encodings: list) -> list[Spelling]:
    """UTF-8, CESU-8, Modified UTF-8 and, for one code point, each overlong form."""
    out = [Spelling("UTF-8", b"".join(e.utf8 for e in encodings), "the shortest form: the only valid one"),
           Spelling("CESU-8", b"".join(e.cesu8 for e in encodings),
                    "supplementary characters as two 3-byte surrogates"),
           Spelling("Modified UTF-8", b"".join(e.mutf8 for e in encodings),
                    "as CESU-8, and NUL as C0 80 (Java)")]
    if len(encodings) == 1:
        for data in encodings[0].overlongs:
            note = "overlong: invalid; how filters were bypassed"
            if len(data) >= 5:
                note = "overlong 1993 form: invalid since RFC 3629"
            out.append(Spelling(f"overlong, {len(data)} bytes", data, note))
    return out


class EncoderDialog(QDialog):
    """``findRequested(object)`` carries what to find: an ``inspector.core.analysis.search.Pattern``
    (its ``query``, ``kind`` and ``spellings`` are what the find bar's ``set_query``
    takes). The pattern is the bytes of the selected spelling, or with "every spelling"
    ticked, the code points with all their overlong, CESU-8 and Modified UTF-8
    spellings."""

    findRequested = Signal(object)

    COLUMNS = ("spelling", "bytes", "in UTF-8", "note")

    def __init__(self, document=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("encoderDialog")
        self.setWindowTitle("Encoder: characters to UTF-8")
        self.document = document  # only to know whether there is a file to search
        self.codepoints: list[int] = []
        self.encodings: list = []
        self.spellings: list[Spelling] = []
        self.error = ""

        box = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Text or code points:"))
        self.input = QLineEdit()
        self.input.setObjectName("encoderInput")
        self.input.setPlaceholderText("é€😀  or  U+20AC U+1F600")
        self.input.setClearButtonEnabled(True)
        row.addWidget(self.input, 1)
        box.addLayout(row)
        self.legacy = QCheckBox("Allow the 1993 form (values above U+10FFFF, 5 and 6 bytes)")
        box.addWidget(self.legacy)
        self.message = QLabel()
        self.message.setObjectName("encoderMessage")
        self.message.setWordWrap(True)
        box.addWidget(self.message)

        self.layouts_widget = QWidget()
        self.layouts_box = QVBoxLayout(self.layouts_widget)
        self.layouts_box.setContentsMargins(0, 0, 0, 0)
        # Grow the scrolled widget with its content instead of squeezing the rows.
        self.layouts_box.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.layouts_widget)
        scroll.setMinimumHeight(220)
        box.addWidget(scroll, 2)

        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setObjectName("spellingTable")
        self.table.setHorizontalHeaderLabels(["Spelling", "Bytes", "Read as UTF-8", "Note"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.find())
        box.addWidget(self.table, 1)
        self.all_spellings = QCheckBox("Find every spelling at once (UTF-8, overlong, CESU-8, "
                                       "Modified UTF-8)")
        self.all_spellings.setObjectName("encoderAllSpellings")
        box.addWidget(self.all_spellings)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.find_button = QPushButton("Find in file")
        self.find_button.setObjectName("encoderFind")
        self.find_button.setToolTip("Search the file for the bytes of the selected spelling")
        buttons.addButton(self.find_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.find_button.clicked.connect(self.find)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)

        self.input.textChanged.connect(self.update_result)
        self.legacy.toggled.connect(self.update_result)
        self.resize(720, 620)
        self.update_result()

    # ------------------------------------------------------------------ results
    def update_result(self, *_args) -> None:
        self.error = ""
        try:
            self.codepoints = parse_input(self.input.text())
            allow = self.legacy.isChecked()
            self.encodings = [unitinfo.encode(cp, legacy=allow) for cp in self.codepoints]
        except ValueError as e:
            self.codepoints, self.encodings = [], []
            self.error = str(e)
        self.spellings = spellings(self.encodings) if self.encodings else []
        self._show_message()
        self._show_layouts()
        self._fill_table()
        self._update_buttons()

    def _show_message(self) -> None:
        pal = style.Palette.current()
        if self.error:
            empty = not self.input.text()
            color = pal.color("muted_text" if empty else "invalid_byte").name()
            self.message.setText(f'<span style="color:{color}">{_escape(self.error)}</span>')
            return
        notes = []
        for e in self.encodings:
            if e.kind == K.SURROGATE:
                notes.append(f"U+{e.codepoint:04X} is a surrogate code point: UTF-8 cannot "
                             "hold it (its bytes are an error); WTF-8 writes it this way.")
            elif e.kind != K.VALID:
                notes.append(f"U+{e.codepoint:X} is beyond Unicode: only the withdrawn 1993 "
                             "form spells it, and UTF-8 decoders reject it.")
        n = len(self.codepoints)
        total = sum(len(e.utf8) for e in self.encodings)
        head = f"{n} code point{'s' if n != 1 else ''}, {total} UTF-8 byte{'s' if total != 1 else ''}"
        if n > MAX_SHOWN:
            head += f" (the bit layout of the first {MAX_SHOWN} is shown)"
        color = pal.color("warning").name()
        extra = "".join(f'<br><span style="color:{color}">{_escape(t)}</span>' for t in dict.fromkeys(notes))
        self.message.setText(_escape(head) + extra)

    def _show_layouts(self) -> None:
        while self.layouts_box.count():
            item = self.layouts_box.takeAt(0)
            w = item.widget()
            if w is not None:
                w.hide()  # gone now, not at the next deferred delete
                w.setParent(None)
                w.deleteLater()
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for e in self.encodings[:MAX_SHOWN]:
            title = QLabel(f"<b>{_escape(_cp_label(e.codepoint))}</b> {_escape(e.name)}")
            self.layouts_box.addWidget(title)
            example = QLabel(example_text(e))
            example.setFont(fixed)
            example.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.layouts_box.addWidget(example)
            view = BitLayoutView()
            view.set_layout(BitLayout(decoder.cut(e.utf8)[0], e.utf8))
            self.layouts_box.addWidget(view)
        self.layouts_box.addStretch(1)

    def _fill_table(self) -> None:
        t = self.table
        t.setRowCount(len(self.spellings))
        pal = style.Palette.current()
        for r, s in enumerate(self.spellings):
            verdict = s.verdict()
            cells = (s.name, _hex_preview(s.data), verdict, s.note)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 1:
                    item.setToolTip(s.data.hex(" ").upper())
                if c == 2:
                    first = verdict.split(",")[0]
                    item.setForeground(pal.color(first if first in K.ERROR_KINDS else "multi2"))
                t.setItem(r, c, item)
        if self.spellings:
            t.selectRow(0)

    def _update_buttons(self) -> None:
        self.find_button.setEnabled(bool(self.spellings) and self.table.currentRow() >= 0)

    # ------------------------------------------------------------------ find
    def selected_spelling(self) -> Spelling | None:
        row = self.table.currentRow()
        if 0 <= row < len(self.spellings):
            return self.spellings[row]
        return self.spellings[0] if self.spellings else None

    def find_target(self):
        """What ``find`` emits (None when there is nothing to find)."""
        s = self.selected_spelling()
        if s is None:
            return None
        if self.all_spellings.isChecked():
            query = " ".join(_cp_label(cp) for cp in self.codepoints)
            try:
                return core_search.parse_query(query, core_search.CODEPOINT, spellings=True)
            except ValueError as e:
                # A surrogate or a value beyond Unicode has no other spellings to find.
                self.message.setText(_escape(f"{e}; finding the selected spelling's bytes instead."))
        return core_search.bytes_pattern(s.data)

    def find(self) -> None:
        target = self.find_target()
        if target is not None:
            self.findRequested.emit(target)


def _cp_label(cp: int) -> str:
    return f"U+{cp:04X}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _hex_preview(data: bytes, limit: int = 48) -> str:
    shown = data[:limit].hex(" ").upper()
    return shown + (f" … ({len(data):,} bytes)" if len(data) > limit else "")


def example_text(e) -> str:
    """The standard's worked-example lines for one code point."""
    return (f"code point  {_cp_label(e.codepoint)} = {' '.join(e.bit_groups)}\n"
            f"template    {e.template}\n"
            f"UTF-8       {' '.join(e.byte_bits)} = {e.hex}")
