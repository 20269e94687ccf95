"""The legend: every colour role and letter mark of the panes, with a sample."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QWidget

from inspector.core.units import kinds as K
from inspector.gui.look import regionlook, style


class _Swatch(QWidget):
    def __init__(self, fill: QColor, text: QColor, mark: str, sample: str):
        super().__init__()
        self._fill, self._text, self._mark, self._sample = fill, text, mark, sample
        self.setFixedSize(64, 22)

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect().adjusted(0, 0, -1, -1), self._fill)
        p.setPen(self._text)
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        p.drawText(self.rect().adjusted(4, 0, 0, 0),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self._sample)
        if self._mark:
            f = p.font()
            f.setPointSizeF(max(6.0, f.pointSizeF() * 0.75))
            f.setBold(True)
            p.setFont(f)
            p.drawText(self.rect().adjusted(0, 1, -3, 0),
                       Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignRight, self._mark)
        p.end()


# Samples of the rows that are not a kind; a kind's is its sample in the kinds table.
_SAMPLES = {
    style.ASCII: "41", style.MULTI2: "C3 A9", style.MULTI3: "E2 82", style.MULTI4: "F0 9F",
    style.MULTI_LONG: "ED A0", style.WARNING: "EF BB",
}
SAMPLE_BYTES = 2  # what a swatch has room for


def sample_text(role: str) -> str:
    """The bytes a row's swatch shows."""
    info = K.KINDS.get(role)
    if info is not None:
        return info.sample[:SAMPLE_BYTES].hex(" ").upper()
    return _SAMPLES.get(role, "")


class LegendDialog(QDialog):
    """What each colour and mark in the views means, from the same tables they use."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("legendDialog")
        self.setWindowTitle("Legend")
        pal = style.Palette.current()
        grid = QGridLayout(self)
        row = 0
        for role, title in style.legend():
            fill = pal.color(style.fill_role(role)) if role != style.WARNING else pal.color("warning_fill")
            mark = style.mark_of(role)
            grid.addWidget(_Swatch(fill, pal.color(role), mark, sample_text(role)), row, 0)
            words = title + (f"   (mark {mark})" if mark else "")
            grid.addWidget(QLabel(words), row, 1)
            row += 1
        extras = [
            ("lost", "bytes lost to resynchronization (hatched)"),
            ("origin", "the origin: decoding starts here (violet bar)"),
            ("sync", "back in step with the decoding from 0 (green bar)"),
            ("selection", "selection"),
        ]
        for role, title in extras:
            grid.addWidget(_Swatch(pal.color(role), pal.color("text"), "", ""), row, 0)
            grid.addWidget(QLabel(title), row, 1)
            row += 1
        title = QLabel("<b>Encoding map</b> (the band at the overview's right edge and the "
                       "statistics dock's regions; the band's tooltip names each region)")
        title.setWordWrap(True)
        grid.addWidget(title, row, 0, 1, 2)
        row += 1
        for role, words in regionlook.LEGEND:
            grid.addWidget(_Swatch(pal.color(role), pal.color("text"), "", ""), row, 0)
            label = QLabel(words)
            label.setObjectName(f"legend_{role}")
            grid.addWidget(label, row, 1)
            row += 1
        note = QLabel("A box groups the bytes of one unit, also across a row's end. "
                      "Continuation bytes of a valid unit are drawn quieter; the "
                      "character column shows each glyph at its unit's first byte and "
                      "· under the rest. Problems show \uFFFD and a mark letter.")
        note.setWordWrap(True)
        grid.addWidget(note, row, 0, 1, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        grid.addWidget(buttons, row + 1, 0, 1, 2)
