"""The hex view's fonts at one zoom step, and the small pictures drawn in them.

Qt shapes every string it draws (about 8 us a call and 0.6 us a character); copying a
picture is far cheaper. So a byte's spelling, a character, a glyph with its problem
flag, a mark and a framed code are each drawn once on a small transparent picture and
kept here, by what they show. A zoom step makes a new :class:`HexSprites`; a move to a
screen of another scale empties the pictures (:meth:`HexSprites.match_ratio`).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetricsF, QPainter, QPixmap

from inspector.gui.look import style

MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Menlo", "Consolas")


def monospace_font(point_size: float) -> QFont:
    """A monospaced font whose advance is a whole number of pixels (letter spacing makes
    up the fraction), so a run of cells drawn as one string lines up with the grid."""
    font = None
    families = set(QFontDatabase.families())
    for fam in MONO_FAMILIES:
        if fam in families:
            font = QFont(fam)
            break
    if font is None:
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(point_size)
    advance = QFontMetricsF(font).horizontalAdvance("0")
    font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, math.ceil(advance) - advance)
    return font


class HexSprites:
    """The main font of ``point_size`` (``font``), its cell width ``cw``, line height
    ``lh`` and ``ascent``, the small fonts of marks and codes, which glyphs it can draw
    (``coverage``), and the pictures drawn in them at pixel ratio ``ratio``."""

    # A few MiB of tiny pictures at most.
    MAX_PICTURES = 8192

    def __init__(self, point_size: float, ratio: float):
        self.font = monospace_font(point_size)
        fm = QFontMetricsF(self.font)
        self.cw = round(fm.horizontalAdvance("0"))
        self.lh = math.ceil(fm.height()) + 4
        self.ascent = fm.ascent()
        self.small = QFont(self.font)
        self.small.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 0)
        self.small.setPointSizeF(max(4.0, point_size * 0.62))
        self.mark_font = QFont(self.small)
        self.mark_font.setBold(True)
        self.coverage = style.GlyphCoverage(self.font)
        self.pictures: dict = {}   # marks, glyphs and spellings as small pictures
        self.ratio = ratio         # the pixel ratio they are drawn at
        self._glyph_width: dict[str, int] = {}
        self._cell_glyph: dict[str, bool] = {}
        self._small_fits: dict = {}

    def match_ratio(self, ratio: float) -> None:
        """Moved to a screen of another scale: the small pictures are redrawn there."""
        if ratio != self.ratio:
            self.pictures.clear()
            self.ratio = ratio

    def _keep(self, key, pm: QPixmap) -> None:
        if len(self.pictures) > self.MAX_PICTURES:
            self.pictures.clear()
        self.pictures[key] = pm

    def mark(self, mark: str, color: QColor) -> QPixmap:
        """A problem kind's letter in the small bold font, for a box's top right."""
        key = ("mark", mark, color.rgba())
        pm = self.pictures.get(key)
        if pm is None:
            w, h = self.cw + 1, self.lh // 2 + 2
            pm = style.clear_picture(w, h, self.ratio)
            q = QPainter(pm)
            q.setFont(self.mark_font)
            q.setPen(color)
            q.drawText(QRect(0, 0, w, h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, mark)
            q.end()
            self._keep(key, pm)
        return pm

    def text(self, text: str, rgba: int, base_y: float) -> QPixmap:
        """``text`` in the main font and colour ``rgba`` on a transparent picture one
        row high, one pixel of margin on the left, its baseline where the row's text
        sits (a byte's spelling, a plain character)."""
        key = ("text", text, rgba)
        pm = self.pictures.get(key)
        if pm is None:
            w = len(text) * self.cw + 3
            pm = style.clear_picture(w, self.lh, self.ratio)
            q = QPainter(pm)
            try:
                q.setFont(self.font)
                q.setPen(QColor.fromRgba(rgba))
                q.drawText(1, int(base_y), text)
            finally:
                q.end()
            self._keep(key, pm)
        return pm

    def glyph(self, text: str, color: QColor, flagged: bool, base_y: float) -> QPixmap:
        """A character cell's glyph (and, for a problem, its flag: a small triangle in
        the corner, so it reads without colour) on a transparent picture one row high,
        one pixel of margin on the left. A page of random bytes is hundreds of flagged
        U+FFFD: drawing a picture is far cheaper than drawing text and a polygon."""
        key = ("glyph", text, color.rgba(), flagged)
        pm = self.pictures.get(key)
        if pm is None:
            cw, lh = self.cw, self.lh
            w = max(math.ceil(QFontMetricsF(self.font).horizontalAdvance(text)), cw + 2) + 2
            pm = style.clear_picture(w, lh, self.ratio)
            q = QPainter(pm)
            try:
                q.setFont(self.font)
                q.setPen(color)
                q.drawText(1, int(base_y), text)
                if flagged:
                    q.setBrush(color)
                    q.setPen(Qt.PenStyle.NoPen)
                    x = 1
                    q.drawPolygon([QPoint(x + cw - 4, 1), QPoint(x + cw + 1, 1), QPoint(x + cw + 1, 6)])
            finally:
                q.end()
            self._keep(key, pm)
        return pm

    def compact(self, text: str, color: QColor, width: int) -> QPixmap:
        """A code, control name or U+XXXX in a thin frame across ``width`` pixels of the
        character column, on a transparent picture one row high (pages of binary data
        show hundreds of them: a picture each is one copy instead of five calls and a
        shaped string)."""
        key = ("compact", text, color.rgba(), width)
        pm = self.pictures.get(key)
        if pm is None:
            lh = self.lh
            pm = style.clear_picture(width, lh, self.ratio)
            q = QPainter(pm)
            try:
                rect = QRect(0, 2, width - 1, lh - 4)
                frame = QColor(color)
                frame.setAlphaF(0.5)
                q.setPen(frame)
                q.drawRect(rect)
                q.setFont(self._fit_small(text, rect.width() - 1))
                q.setPen(color)
                q.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            finally:
                q.end()
            self._keep(key, pm)
        return pm

    def _fit_small(self, text: str, width: int) -> QFont:
        """The small font, shrunk until ``text`` fits ``width`` pixels (a tiny box)."""
        key = (text, width)
        font = self._small_fits.get(key)
        if font is None:
            font = QFont(self.small)
            size = font.pointSizeF()
            while size > 4.0 and QFontMetricsF(font).horizontalAdvance(text) > width:
                size -= 0.5
                font.setPointSizeF(size)
            self._small_fits[key] = font
        return font

    def is_cell_glyph(self, text: str) -> bool:
        """A single character the main font itself draws one cell wide: it can join a
        run of plain cells drawn as one string."""
        ok = self._cell_glyph.get(text)
        if ok is None:
            fm = QFontMetricsF(self.font)
            ok = (len(text) == 1 and self.coverage.in_main_font(ord(text))
                  and abs(fm.horizontalAdvance(text) - self.cw) < 0.5)
            self._cell_glyph[text] = ok
        return ok

    def glyph_cells(self, text: str) -> int:
        """How many one-character cells a glyph covers."""
        w = self._glyph_width.get(text)
        if w is None:
            w = self._glyph_width[text] = max(1, math.ceil(
                QFontMetricsF(self.font).horizontalAdvance(text) / self.cw - 0.1))
        return w
