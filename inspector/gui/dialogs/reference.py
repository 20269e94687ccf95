"""The UTF-8 reference (Help menu): the encoding table, the well-formed byte ranges, and a
16x16 map of all 256 byte values coloured by class, with a legend.

Clicking a class in the legend, or any cell of the map, finds the next byte of that
class after the document's cursor and moves the cursor there. The search is numpy over
chunks read from the byte source; past a few megabytes it runs on a worker thread
(``inspector.gui.runtime.workers``) with progress and cancel, so the window never freezes.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QPushButton,
                               QSizePolicy, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.runtime import workers


class ByteClass:
    """One class of byte values: a name, the palette role that colours it, a letter that
    marks it without colour, and the values it holds."""

    def __init__(self, key: str, title: str, role: str, mark: str, values: range | tuple):
        self.key, self.title, self.role, self.mark = key, title, role, mark
        self.values = tuple(values)

    @property
    def span(self) -> str:
        parts, run = [], [self.values[0], self.values[0]]
        for v in self.values[1:]:
            if v == run[1] + 1:
                run[1] = v
            else:
                parts.append(run)
                run = [v, v]
        parts.append(run)
        return ", ".join(f"{a:02X}" if a == b else f"{a:02X}-{b:02X}" for a, b in parts)


def _kind_class(key: str, title: str, kind: str, values: range) -> ByteClass:
    """A class whose bytes always start a unit of one error kind: its colour and mark."""
    info = K.KINDS[kind]
    return ByteClass(key, title, info.role, info.mark, values)


BYTE_CLASSES = (
    ByteClass("ascii", "ASCII", "ascii", "A", range(0x00, 0x80)),
    ByteClass("continuation", "continuation", "match", "C", range(0x80, 0xC0)),
    _kind_class("overlong_lead", "2-byte lead, always overlong", K.OVERLONG, range(0xC0, 0xC2)),
    ByteClass("lead2", "2-byte lead", "multi2", "2", range(0xC2, 0xE0)),
    ByteClass("lead3", "3-byte lead", "multi3", "3", range(0xE0, 0xF0)),
    ByteClass("lead4", "4-byte lead", "multi4", "4", range(0xF0, 0xF5)),
    _kind_class("above_max", "4-byte lead, always above U+10FFFF", K.OUT_OF_RANGE,
                range(0xF5, 0xF8)),
    _kind_class("legacy_lead", "5/6-byte lead (1993 form)", K.LEGACY_LONG_FORM, range(0xF8, 0xFE)),
    _kind_class("never", "never used", K.INVALID_BYTE, range(0xFE, 0x100)),
)
CLASS_OF_BYTE = [None] * 256
for _c in BYTE_CLASSES:
    for _v in _c.values:
        CLASS_OF_BYTE[_v] = _c
CLASS_BY_KEY = {c.key: c for c in BYTE_CLASSES}

# The encoding table of RFC 3629 / the Unicode standard (table 3-6).
ENCODING_ROWS = (
    ("U+0000", "U+007F", ("0xxxxxxx",), 7),
    ("U+0080", "U+07FF", ("110xxxxx", "10xxxxxx"), 11),
    ("U+0800", "U+FFFF", ("1110xxxx", "10xxxxxx", "10xxxxxx"), 16),
    ("U+10000", "U+10FFFF", ("11110xxx", "10xxxxxx", "10xxxxxx", "10xxxxxx"), 21),
)


def well_formed_rows() -> list[tuple[str, str]]:
    """(lead bytes, allowed second byte) from the decoder's own table, consecutive leads
    with the same range joined: Unicode's table 3-7 of well-formed sequences."""
    rows, start, prev, rng = [], None, None, None
    for b in range(0xC2, 0xF5):
        r = decoder.SECOND_BYTE_RANGE[b]
        if start is not None and r == rng and b == prev + 1:
            prev = b
            continue
        if start is not None:
            rows.append((start, prev, rng))
        start, prev, rng = b, b, r
    rows.append((start, prev, rng))
    return [((f"{a:02X}" if a == b else f"{a:02X}-{b:02X}"), f"{r[0]:02X}-{r[1]:02X}")
            for a, b, r in rows]


# ------------------------------------------------------------------------ finding

CHUNK = 1 << 20
SYNC_LIMIT = 4 << 20  # search this much on the UI thread; more goes to a worker


def class_mask(byte_class: ByteClass) -> np.ndarray:
    mask = np.zeros(256, dtype=bool)
    mask[list(byte_class.values)] = True
    return mask


def find_class_steps(source, mask: np.ndarray, start: int, end: int | None = None,
                     chunk: int = CHUNK):
    """Generator: yields (done, total) per chunk and returns the offset of the first byte
    at or after ``start`` whose value is in ``mask``, or None.

    A class that is one run of values (they all are) is tested with one wrapping
    subtraction and one comparison per byte, several times faster than a table lookup."""
    end = source.size if end is None else min(end, source.size)
    total = max(0, end - start)
    read = source.read_uncached
    values = np.flatnonzero(mask)
    lo, hi = (int(values[0]), int(values[-1])) if values.size else (0, -1)
    contiguous = values.size > 0 and hi - lo + 1 == values.size
    pos = start
    while pos < end:
        data = read(pos, min(chunk, end - pos))
        if not data:
            break
        arr = np.frombuffer(data, dtype=np.uint8)
        hit = (arr - np.uint8(lo)) <= np.uint8(hi - lo) if contiguous else mask[arr]
        i = int(hit.argmax())
        if hit[i]:
            return pos + i
        pos += len(data)
        yield pos - start, total
    return None


def run_to_end(gen):
    """Drive a steps generator on this thread and return its result."""
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


# ------------------------------------------------------------------------ the map

class ByteMapView(QWidget):
    """The 16x16 map: row = high nibble, column = low nibble. Each cell is filled with its
    class's colour (blended toward the background so the hex stays readable) and carries
    the class letter in its corner."""

    byteClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.highlight: str | None = None  # a class key to outline

    def _cell(self) -> int:
        return self.fontMetrics().horizontalAdvance("00") + 16

    def _margin(self) -> int:
        return self.fontMetrics().horizontalAdvance("0_") + 8

    def sizeHint(self) -> QSize:
        side = self._margin() + 16 * self._cell() + 2
        return QSize(side, side)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def cell_rect(self, value: int) -> QRect:
        c, m = self._cell(), self._margin()
        return QRect(m + (value & 0xF) * c, m + (value >> 4) * c, c, c)

    def byte_at(self, pos) -> int | None:
        c, m = self._cell(), self._margin()
        col, row = (pos.x() - m) // c, (pos.y() - m) // c
        if 0 <= col < 16 and 0 <= row < 16:
            return row * 16 + col
        return None

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            value = self.byte_at(event.position().toPoint())
            if value is not None:
                self.byteClicked.emit(value)
                return
        super().mouseReleaseEvent(event)

    def mouseMoveEvent(self, event) -> None:
        value = self.byte_at(event.position().toPoint())
        if value is None:
            self.setToolTip("")
        else:
            bc = CLASS_OF_BYTE[value]
            self.setToolTip(f"{value:02X} ({value:08b}): {bc.title}. Click to find the next one.")
        super().mouseMoveEvent(event)

    def paintEvent(self, event) -> None:
        pal = style.Palette.current()
        p = QPainter(self)
        bg = pal.color("background")
        p.fillRect(self.rect(), bg)
        c, m = self._cell(), self._margin()
        small = self.font()
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.7))
        p.setPen(pal.color("muted_text"))
        for i in range(16):
            p.drawText(QRect(m + i * c, 0, c, m), Qt.AlignmentFlag.AlignCenter, f"_{i:X}")
            p.drawText(QRect(0, m + i * c, m, c), Qt.AlignmentFlag.AlignCenter, f"{i:X}_")
        text = pal.color("text")
        for value in range(256):
            bc = CLASS_OF_BYTE[value]
            r = self.cell_rect(value).adjusted(1, 1, -1, -1)
            p.fillRect(r, blend(pal.color(bc.role), bg, FILL_AMOUNT.get(bc.role, 0.35)))
            if self.highlight == bc.key:
                p.setPen(pal.color("cursor"))
                p.drawRect(r.adjusted(0, 0, -1, -1))
            p.setPen(text)
            p.setFont(self.font())
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, f"{value:02X}")
            p.setFont(small)
            p.setPen(pal.color(bc.role) if bc.role != "ascii" else pal.color("muted_text"))
            p.drawText(r.adjusted(2, 0, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, bc.mark)
        p.setFont(self.font())
        p.end()


# ASCII's role colour is the text colour itself: a lighter mix keeps the cells calm.
FILL_AMOUNT = {"ascii": 0.12}


def blend(color: QColor, background: QColor, amount: float) -> QColor:
    """``color`` mixed into ``background``: ``amount`` of the colour."""
    return QColor(round(color.red() * amount + background.red() * (1 - amount)),
                  round(color.green() * amount + background.green() * (1 - amount)),
                  round(color.blue() * amount + background.blue() * (1 - amount)))


def swatch(color: QColor, size: int = 14) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(color)
    return QIcon(pm)


# ------------------------------------------------------------------------ the dialog

class ReferenceDialog(QDialog):
    """``found(object)`` carries the offset moved to, or None when there is none."""

    found = Signal(object)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("referenceDialog")
        self.setWindowTitle("UTF-8 reference")
        self.document = document
        self._worker = None
        self.last_class: ByteClass | None = None
        self.last_result: int | None = None

        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        outer.addLayout(top)

        left = QVBoxLayout()
        top.addLayout(left, 1)
        left.addWidget(QLabel("<b>Encoding</b> (RFC 3629, Unicode table 3-6)"))
        self.encoding_table = self._encoding_table()
        left.addWidget(self.encoding_table)
        left.addWidget(QLabel("<b>Well-formed second bytes</b> (Unicode table 3-7); every "
                              "later byte is 80-BF"))
        self.ranges_table = self._ranges_table()
        left.addWidget(self.ranges_table)
        notes = QLabel(
            "Outside these ranges a decoder stops: E0 80-9F would be overlong, ED A0-BF an "
            "encoded surrogate (D800-DFFF), F0 80-8F overlong, F4 90-BF above U+10FFFF.<br>"
            "C0 and C1 can only spell U+0000-U+007F, so they are always overlong; F5-F7 "
            "always give more than U+10FFFF; F8-FD start the 5- and 6-byte sequences of the "
            "1993 form (withdrawn by RFC 3629); FE and FF never appear in any UTF-8.")
        notes.setWordWrap(True)
        notes.setMaximumWidth(self.encoding_table.width() + 40)
        left.addWidget(notes)
        left.addStretch(1)

        right = QVBoxLayout()
        top.addLayout(right)
        right.addWidget(QLabel("<b>All 256 byte values</b>: click one to find the next byte "
                               "of its class after the cursor"))
        self.map = ByteMapView()
        self.map.byteClicked.connect(lambda v: self.find_class(CLASS_OF_BYTE[v]))
        right.addWidget(self.map, 0, Qt.AlignmentFlag.AlignHCenter)
        legend = QGroupBox("Classes (click to find the next one)")
        grid = QGridLayout(legend)
        self.class_buttons: dict[str, QPushButton] = {}
        pal = style.Palette.current()
        for i, bc in enumerate(BYTE_CLASSES):
            button = QPushButton(f"{bc.mark}  {bc.title}  ({bc.span})")
            button.setObjectName(f"class_{bc.key}")
            button.setIcon(swatch(blend(pal.color(bc.role), pal.color("background"),
                                        min(1.0, 2 * FILL_AMOUNT.get(bc.role, 0.35)))))
            button.setFlat(True)
            button.setStyleSheet("text-align: left; padding: 2px 4px;")
            button.setToolTip(f"Find the next {bc.title} byte after the cursor")
            button.clicked.connect(lambda _checked=False, c=bc: self.find_class(c))
            grid.addWidget(button, i // 2, i % 2)
            self.class_buttons[bc.key] = button
        right.addWidget(legend)

        bottom = QHBoxLayout()
        self.status = QLabel("")
        self.status.setObjectName("referenceStatus")
        self.status.setWordWrap(True)
        bottom.addWidget(self.status, 1)
        self.cancel_button = QPushButton("Cancel search")
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel)
        bottom.addWidget(self.cancel_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        bottom.addWidget(buttons)
        outer.addLayout(bottom)
        document.sourceChanged.connect(self.cancel)

    # ------------------------------------------------------------------ tables
    def _static_table(self, headers, rows) -> QTableWidget:
        t = QTableWidget(len(rows), len(headers))
        t.setHorizontalHeaderLabels(headers)
        t.verticalHeader().setVisible(False)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        t.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        t.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                t.setItem(r, c, QTableWidgetItem(text))
        t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        t.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        t.resizeColumnsToContents()
        t.resizeRowsToContents()
        # The whole table is always shown: size it to its content, not the other way round.
        frame = 2 * t.frameWidth()
        width = sum(t.columnWidth(c) for c in range(len(headers))) + frame
        height = (t.horizontalHeader().sizeHint().height()
                  + sum(t.rowHeight(r) for r in range(len(rows))) + frame)
        t.setFixedSize(width, height)
        return t

    def _encoding_table(self) -> QTableWidget:
        rows = []
        for lo, hi, templates, bits in ENCODING_ROWS:
            cells = list(templates) + [""] * (4 - len(templates))
            rows.append((f"{lo}-{hi}", str(len(templates)), *cells, str(bits)))
        return self._static_table(["Code points", "Bytes", "Byte 1", "Byte 2", "Byte 3",
                                   "Byte 4", "Bits"], rows)

    def _ranges_table(self) -> QTableWidget:
        return self._static_table(["Lead", "Second byte"], well_formed_rows())

    # ------------------------------------------------------------------ finding
    def find_class(self, byte_class: ByteClass | str) -> None:
        """Find the next byte of ``byte_class`` after the cursor and move the cursor there
        (at once for a few megabytes, else on a worker: ``found`` says when)."""
        if isinstance(byte_class, str):
            byte_class = CLASS_BY_KEY[byte_class]
        self.cancel()
        self.last_class = byte_class
        self.last_result = None
        self.map.highlight = byte_class.key
        self.map.update()
        d = self.document
        start = d.cursor + 1
        mask = class_mask(byte_class)
        if start >= d.size:
            self._finished(None)
            return
        if d.size - start <= SYNC_LIMIT:
            self._finished(run_to_end(find_class_steps(d.source, mask, start)))
            return
        source = d.source
        worker = workers.GeneratorWorker(lambda: find_class_steps(source, mask, start))
        worker.signals.progress.connect(self._progress)
        worker.signals.finished.connect(self._finished)
        worker.signals.failed.connect(self._failed)
        worker.signals.done.connect(self._worker_done)
        self._worker = worker
        self.status.setText(f"Searching for the next {byte_class.title} byte…")
        self.cancel_button.setVisible(True)
        workers.start(worker)

    def _progress(self, value) -> None:
        if self.sender() is not None and self._worker is None:
            return
        done, total = value
        self.status.setText(f"Searching for the next {self.last_class.title} byte… "
                            f"{100 * done // max(total, 1)}%")

    def _finished(self, offset) -> None:
        self.last_result = offset
        bc = self.last_class
        if offset is None:
            self.status.setText(f"No {bc.title} byte ({bc.span}) after the cursor.")
        else:
            value = self.document.read(offset, 1)
            shown = f" ({value[0]:02X})" if value else ""
            self.status.setText(f"Next {bc.title} byte{shown} at 0x{offset:X} ({offset:,}).")
            self.document.set_cursor(offset)
        self.found.emit(offset)

    def _failed(self, error) -> None:
        self.status.setText(f"The search failed: {error}")

    def _worker_done(self) -> None:
        self._worker = None
        self.cancel_button.setVisible(False)

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def cancel(self) -> None:
        worker = self._worker
        if worker is not None:
            for sig, slot in ((worker.signals.finished, self._finished),
                              (worker.signals.progress, self._progress)):
                try:
                    sig.disconnect(slot)
                except (RuntimeError, TypeError):
                    pass
            worker.cancel()
            self._worker = None
            self.cancel_button.setVisible(False)
            self.status.setText("Search cancelled.")

    def done(self, result: int) -> None:
        self.cancel()
        super().done(result)
