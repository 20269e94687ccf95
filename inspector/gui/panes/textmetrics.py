"""The text pane's measures: its margins, and the pixel widths its layout is given.

:class:`QtMetrics` is the Qt side of :class:`~inspector.gui.panes.textlayout.Metrics`:
the layout stays Qt-free and testable, the pane measures with its own fonts.
"""

from __future__ import annotations

import math

from PySide6.QtGui import QFont, QFontMetricsF

from inspector.gui.look import style

PAD_X = 6.0                   # left and right margin inside the viewport
PAD_Y = 2.0


class QtMetrics:
    """Pixel widths for the layout, measured once per string with ``QFontMetricsF``."""

    def __init__(self, font: QFont, small_font: QFont):
        self.font = font
        self.small_font = small_font
        self.fm = QFontMetricsF(font)
        self.small = QFontMetricsF(small_font)
        self._widths: dict[str, float] = {}
        self.coverage = style.shared_coverage(font)  # one decision per code point, both panes
        self.char_width = self.fm.horizontalAdvance("0")
        self.box_pad = max(2.0, round(self.small.horizontalAdvance("0") * 0.35))

    def text_width(self, text: str) -> float:
        w = self._widths.get(text)
        if w is None:
            w = self._widths[text] = self.fm.horizontalAdvance(text)
        return w

    def box_width(self, label: str) -> float:
        return self.to_grid(math.ceil(self.small.horizontalAdvance(label)) + 2 * self.box_pad + 2)

    def mark_width(self, mark: str) -> float:
        return math.ceil(self.small.horizontalAdvance("W")) + 1

    def to_grid(self, width: float) -> float:
        """``width`` rounded up to whole character widths: a box or a problem holds its
        place in its line's shaped string with whole letters of the main font (see
        TextLayout._layout_text), so the characters after it stay where the wrap
        measured them."""
        space = self.text_width(" ")
        if space <= 0:
            return width
        return math.ceil(width / space - 1e-6) * space

    def can_draw(self, cp: int) -> bool:
        """Whether any font (after Qt's fallback) has a glyph: otherwise U+XXXX is shown
        instead of an empty box."""
        return 0x20 <= cp < 0x7F or self.coverage.can_draw(chr(cp))

