"""The hex view's fonts at one zoom step, their glyphs, and its small pictures.

A page is drawn from small pictures (:mod:`~inspector.gui.panes.hexcolumns`): a byte's
spelling in a colour, a character in a colour, a mark, a flag, each drawn once into the
sprites' :class:`~inspector.gui.look.tileatlas.TileAtlas` from the glyphs kept here, then
placed by the thousand in one call. A character the main font lacks is shaped once
through ``QTextLayout`` (Qt picks the fallback font in C++, :meth:`HexSprites.shape`) and
its glyphs kept with their raw font; its tile is drawn from those. A framed code (U+XXXX,
a C1 control's name) in the character column is a kept picture of its own: rare, and a
frame and a fitted small text each. A zoom step makes a new :class:`HexSprites`; a move
to a screen of another scale empties the pictures and the atlas
(:meth:`HexSprites.match_ratio`).

Where things go is a :class:`HexGrid`: numpy arrays of pens and rectangles made once per
geometry (layout, font, page height), from which a paint picks by fancy indexing.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QPainter, QPixmap, QRawFont, QTextLayout,
                           QTextOption)

from inspector.core.units.unicode_db import east_asian_width_of_char
from inspector.gui.look import style
from inspector.gui.look.fallbackfonts import FallbackFonts
from inspector.gui.look.paintarrays import rects_xywh
from inspector.gui.look.tileatlas import TileAtlas


def monospace_font(point_size: float) -> QFont:
    """A monospaced font (the family both panes use) whose advance is a whole number of
    pixels (letter spacing makes up the fraction), so a run of cells drawn as one string
    lines up with the grid."""
    font = QFont(style.mono_family())
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(point_size)
    advance = QFontMetricsF(font).horizontalAdvance("0")
    font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, math.ceil(advance) - advance)
    return font


class HexSprites:
    """The main font of ``point_size`` (``font``), its cell width ``cw``, line height
    ``lh``, ``ascent`` and the row's baseline ``base_y``; the small fonts of marks and
    codes; the raw fonts glyph runs are drawn in (``raw``, ``mark_raw``) with glyph
    tables; which glyphs can be drawn at all (``coverage``, shared with the text pane);
    the framed codes drawn at pixel ratio ``ratio``, and the ``atlas`` of the page's
    small pictures at that ratio."""

    # A few MiB of tiny pictures at most.
    MAX_PICTURES = 8192

    def __init__(self, point_size: float, ratio: float):
        self.font = monospace_font(point_size)
        fm = QFontMetricsF(self.font)
        self.cw = round(fm.horizontalAdvance("0"))
        self.lh = math.ceil(fm.height()) + 4
        self.ascent = fm.ascent()
        self.base_y = int(self.ascent + (self.lh - fm.height()) / 2)
        self.small = QFont(self.font)
        self.small.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 0)
        self.small.setPointSizeF(max(4.0, point_size * 0.62))
        self.mark_font = QFont(self.small)
        self.mark_font.setBold(True)
        self.mark_ascent = QFontMetricsF(self.mark_font).ascent()
        self.coverage = style.shared_coverage(self.font)
        self.raw = QRawFont.fromFont(self.font)
        self.mark_raw = QRawFont.fromFont(self.mark_font)
        # Main-font glyph per ASCII character (0: none), and per code point met since.
        self.ascii_glyphs = np.array(
            [self.raw.glyphIndexesForString(chr(c))[0] if 0x20 <= c < 0x7F else 0
             for c in range(128)], dtype=np.int64)
        self._glyph_of: dict[int, int] = {}
        self._zero_advance = self.raw.advancesForGlyphIndexes([int(self.ascii_glyphs[0x30])])[0].x()
        self._marks: dict = {}
        self.pictures: dict = {}   # framed codes as small pictures
        self.ratio = ratio         # the pixel ratio they are drawn at
        self._glyph_width: dict[str, int] = {}
        self._cell_glyph: dict[str, bool] = {}
        self._small_fits: dict = {}
        # Characters from other fonts: the raw fonts met (slot 0 the main font's) and
        # each character's glyphs in them (see shape).
        self.fonts: list[QRawFont] = [self.raw]
        self._ours = {0}           # the slots of raw fonts made here (see _font_slot)
        self._shaped: dict = {}
        self.fallback = FallbackFonts(self.font)
        self.atlas = self._new_atlas()

    def _new_atlas(self) -> TileAtlas:
        return TileAtlas(self.ratio, self.cw, self.lh, self.base_y)

    def match_ratio(self, ratio: float) -> None:
        """Moved to a screen of another scale: the small pictures are redrawn there."""
        if ratio != self.ratio:
            self.pictures.clear()
            self.ratio = ratio
            self.atlas = self._new_atlas()

    def _keep(self, key, pm: QPixmap) -> None:
        if len(self.pictures) > self.MAX_PICTURES:
            self.pictures.clear()
        self.pictures[key] = pm

    # ------------------------------------------------------------------ glyphs
    def glyph(self, cp: int) -> int:
        """The main font's glyph index for code point ``cp`` (0: it has none)."""
        g = self._glyph_of.get(cp)
        if g is None:
            g = 0
            if self.raw.supportsCharacter(cp):
                found = self.raw.glyphIndexesForString(chr(cp))
                g = found[0] if len(found) == 1 else 0
            self._glyph_of[cp] = g
        return g

    def mark_glyphs(self, mark: str) -> tuple[list[int], list[float]]:
        """A problem mark in the small bold font: its glyph indexes and their x offsets."""
        got = self._marks.get(mark)
        if got is None:
            glyphs = list(self.mark_raw.glyphIndexesForString(mark))
            advances = self.mark_raw.advancesForGlyphIndexes(glyphs)
            xs, x = [], 0.0
            for a in advances:
                xs.append(x)
                x += a.x()
            got = self._marks[mark] = (glyphs, xs)
        return got

    def shaped(self, text: str):
        """The glyphs of ``text`` (a character the main font does not draw on the grid)
        as drawn by Qt with its fallback fonts: a tuple of (font slot in ``fonts``,
        glyph index, dx, dy) from the pen on the baseline, or None when not shaped yet
        (:meth:`shape`)."""
        return self._shaped.get(text)

    # Code points from here on (emoji, most of them) are left to Qt's shaping, which
    # draws them from a colour font where fontconfig's order would pick a plain one; the
    # text pane decides alike (panes.textplan).
    SHAPED_FROM = 0x1F000

    def shape(self, texts) -> None:
        """Shape the ``texts`` not shaped before and keep each one's glyphs
        (:meth:`shaped`): a lone code point in the font :class:`FallbackFonts` decides
        for it (the text pane's decision; Qt's own search of its fallback fonts cost
        ~0.1 ms a code point not met before), the others (a mark on its dotted circle, a
        letter and its mark, an emoji) in one ``QTextLayout`` with a line each, so Qt
        picks their fallback fonts in C++ once for the lot. A character's font is
        decided once: a page then draws its tile without a layout."""
        texts = list(dict.fromkeys(texts))
        new = [t for t in texts if t not in self._shaped]
        if not new:
            return
        if len(self._shaped) + len(new) > self.MAX_PICTURES:
            # Emptied: the page's texts shaped before are shaped again with the new.
            self._shaped.clear()
            new = texts
        left = []
        for text in new:
            got = None
            if len(text) == 1 and ord(text) < self.SHAPED_FROM:
                got = self.fallback.decide(ord(text))
            if got is None:
                left.append(text)
            else:
                font, glyph, _ = got
                slot = self._font_slot(self.fallback.raws[font], ours=True)
                self._shaped[text] = ((slot, glyph, 0.0, 0.0),)
        if left:
            self._shape_by_qt(left)

    # Before a combining mark's dotted circle: a Latin letter, so that the circle and
    # the mark are shaped as Latin text whatever came before. Left to itself the circle
    # took the mark's script, and a script no installed font covers fully (Thaana) gave
    # two boxes; in one layout with other texts it took the script of the text before.
    MARK_LEAD = "x"

    def _shape_by_qt(self, new: list[str]) -> None:
        """Shape ``new`` in one ``QTextLayout`` with a line each. (One line for all was
        cheaper, but a text's neighbours then decided the script of its dotted circle.)"""
        lead = self.MARK_LEAD
        leads = [len(lead) if t.startswith("\u25cc") else 0 for t in new]
        layout = QTextLayout("\u2028".join(lead * (k > 0) + t for k, t in zip(leads, new)), self.font)
        option = QTextOption()
        option.setTextDirection(Qt.LayoutDirection.LeftToRight)
        option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)
        option.setWrapMode(QTextOption.WrapMode.NoWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        lines = []
        for _ in new:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(1e6)
            line.setPosition(QPointF(0, 0))
            lines.append(line)
        layout.endLayout()
        for text, k, line in zip(new, leads, lines):
            # The text alone (without its lead or the line separator after it), in UTF-16
            # units, from its own pen.
            start = line.textStart() + k
            pen = line.cursorToX(start)[0] if k else 0.0
            runs = line.glyphRuns(start, len(text.encode("utf-16-le")) // 2)
            base = line.ascent()
            pieces = []
            for run in runs:
                slot = self._font_slot(run.rawFont())
                for g, pt in zip(run.glyphIndexes(), run.positions()):
                    if g:
                        pieces.append((slot, g, pt.x() - pen, pt.y() - base))
            self._shaped[text] = tuple(pieces)

    def _font_slot(self, raw: QRawFont, ours: bool = False) -> int:
        """The index in ``fonts`` of the raw font ``raw`` (added when new). A glyph run's
        raw font is only compared and drawn with, never asked anything (asking one its
        name crashed); one of ours (``ours``: made here, from a QFont) may be asked its
        glyphs' bounds, and takes the place of an equal one from a run."""
        for i, known in enumerate(self.fonts):
            if known == raw:
                if ours and i not in self._ours:
                    self.fonts[i] = raw
                    self._ours.add(i)
                return i
        self.fonts.append(raw)
        if ours:
            self._ours.add(len(self.fonts) - 1)
        return len(self.fonts) - 1

    # Room left round a glyph's bounds for hinting and antialiasing (logical pixels).
    INK_MARGIN = 2

    def ink_box(self, pieces) -> tuple | None:
        """Where the ink of ``pieces`` ((font slot, glyph, dx, dy), as :meth:`shaped`
        gives) lies from the pen: (left, top, right, bottom), logical pixels; None when
        a piece's font is a glyph run's (not to be asked)."""
        left = top = math.inf
        right = bottom = -math.inf
        for slot, g, dx, dy in pieces:
            if slot not in self._ours:
                return None
            rect = self.fonts[slot].boundingRect(g)
            left, top = min(left, dx + rect.left()), min(top, dy + rect.top())
            right, bottom = max(right, dx + rect.right()), max(bottom, dy + rect.bottom())
        if left == math.inf:
            return (0, 0, 1, 1)
        m = self.INK_MARGIN
        return (left - m, top - m, right + m, bottom + m)

    # ------------------------------------------------------------------ framed codes
    def compact(self, text: str, color: QColor, width: int) -> QPixmap:
        """A code, control name or U+XXXX in a thin frame across ``width`` pixels of the
        character column, on a transparent picture one row high."""
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
        """The small font, shrunk until ``text`` fits ``width`` pixels (a tiny box). The
        font is monospaced: texts of one length fit alike, so the fit is kept by length
        (each new U+XXXX of a page of random bytes would otherwise measure again)."""
        key = (len(text), width)
        font = self._small_fits.get(key)
        if font is None:
            font = QFont(self.small)
            size = font.pointSizeF()
            while size > 4.0 and QFontMetricsF(font).horizontalAdvance(text) > width:
                size -= 0.5
                font.setPointSizeF(size)
            self._small_fits[key] = font
        return font

    # ------------------------------------------------------------------ measures
    def is_cell_glyph(self, text: str) -> bool:
        """A single character the main font itself draws one cell wide: it is drawn
        from the main font's glyph run, on the grid. (The raw font's advance answers:
        measuring the text through font metrics costs a tenth of a millisecond.)"""
        ok = self._cell_glyph.get(text)
        if ok is None:
            ok = False
            if len(text) == 1 and self.coverage.in_main_font(ord(text)):
                g = self.glyph(ord(text))
                ok = bool(g) and abs(self.raw.advancesForGlyphIndexes([g])[0].x()
                                     - self._zero_advance) < 0.5
            self._cell_glyph[text] = ok
        return ok

    def glyph_cells(self, text: str) -> int:
        """How many one-character cells a glyph covers: two for a wide or full-width
        character (Unicode's East Asian width), else one. (Measuring the glyph would
        ask Qt's fallback fonts: a tenth of a millisecond for a code point not seen
        before.)"""
        w = self._glyph_width.get(text)
        if w is None:
            w = self._glyph_width[text] = max(
                2 if east_asian_width_of_char(ch) in ("W", "F") else 1 for ch in text)
        return w


class HexGrid:
    """Where things go on ``rows`` rows of ``layout`` with the font measures of
    ``sprites``, as numpy arrays made once per geometry (layout, font, page height): a
    paint picks a page's positions and rectangles by fancy indexing.

    Per byte of a page (index ``row * bytes_per_row + column``): ``cell_x`` the pen of
    its spelling in the hex cells, ``char_x`` the pen of its character cell, ``pen_y``
    its row's baseline. Per row: ``offset_x`` [character] the pens of the offset's
    characters, ``row_y`` the baselines. Fill rectangles (QRect arrays, see
    :mod:`~inspector.gui.look.paintarrays`): ``fill`` a hex cell's, ``gap`` the one
    between a cell and the next (joining two neighbours of one colour), ``char`` a
    character cell's, per byte; ``left`` / ``right`` per row, from the first cell to the
    left margin / the last to the right margin (a unit that goes on in the row before /
    after)."""

    def __init__(self, layout, sprites, rows: int):
        self.layout = layout
        self.rows = rows
        self.key = (id(layout), sprites.cw, sprites.lh, sprites.base_y, rows)
        lay, cw, lh = layout, sprites.cw, sprites.lh
        n = lay.bytes_per_row
        cols = np.array([lay.cell_x(c) for c in range(n)], dtype=np.int64)
        chars = np.array([lay.char_x(c) for c in range(n + 1)], dtype=np.int64)
        self.row_y = np.arange(rows, dtype=np.float64) * lh + sprites.base_y
        self.cell_x = np.tile(cols.astype(np.float64), rows)
        self.char_x = np.tile(chars[:n].astype(np.float64), rows)
        self.pen_y = np.repeat(self.row_y, n)
        self.offset_x = lay.offset_x + np.arange(lay.offset_chars, dtype=np.float64) * cw
        half, cell_w, h = cw // 2, lay.cell_w, lh - 2
        tops = np.repeat(np.arange(rows, dtype=np.int64) * lh + 1, n)
        xs = np.tile(cols, rows)
        nxt = np.tile(np.append(cols[1:], cols[-1] + cell_w + 2 * half), rows)
        self.fill = rects_xywh(xs - half + 1, tops, cell_w + 2 * half - 2, h)
        self.gap = rects_xywh(xs + cell_w + half - 1, tops, nxt - xs - cell_w - 2 * half + 2, h)
        self.char = rects_xywh(np.tile(chars[:n], rows), tops, np.tile(np.diff(chars), rows), h)
        row_tops = np.arange(rows, dtype=np.int64) * lh + 1
        self.left = rects_xywh(cols[0] - cw, row_tops, cw - half + 1, h)
        right = int(cols[-1]) + cell_w + half - 1
        self.right = rects_xywh(right, row_tops, lay.cells_end_chars * cw + cw - right, h)
