"""Painting the hex view: the page from its column painters, then the cursor.

A :class:`HexPainter` belongs to one :class:`~inspector.gui.panes.hexview.HexView` and
paints its viewport from the view's layout, top row and fonts and the document's bytes,
units, selection, matches and origin. A page is drawn a page
at a time (:mod:`~inspector.gui.panes.hexcolumns`: a few calls per colour for the fills
and edges, one call for all the small pictures, none per cell), from the page cut's
arrays (:meth:`~inspector.gui.document.Document.page_cut`). The last page
without its cursor is kept as a picture: a repaint that changes none of it (a window
repaint, a cursor move on screen) is one copy.

Line numbers (View > Line numbers) are a small tag on each byte that starts a line.
Only the visible rows are looked at: the LF bytes of the bytes on screen give the line
starts, and the first one's number comes from the document (the scan's block index, or a
small file counted directly: :meth:`~inspector.gui.document.Document.line_column`), so a
page costs one block read however deep into a big file it is. Before the scan has
reached the page in a big file no number is painted (the status bar says "Ln ?").
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPixmap

from inspector.gui.look import style
from inspector.gui.look.tileatlas import TileBatch
from inspector.gui.panes.hexcolumns import CellColumn, CharColumn, OffsetColumn, PageLook
from inspector.gui.panes.hexsprites import HexGrid
from inspector.gui.panes.hexunits import PageUnits


class HexPainter:
    """Paints ``view``'s viewport; ``last_paint_range`` is the bytes it last showed."""

    def __init__(self, view):
        self.view = view
        self.document = view.document
        self.last_paint_range = (0, 0)
        # The last paint without its cursor, and what it showed.
        self._base: QPixmap | None = None
        self._base_key = None
        self._grid: HexGrid | None = None
        self._colors: dict = {}
        self._colors_for = None
        self.cells = CellColumn(view)
        self.chars = CharColumn(view)
        self.offsets = OffsetColumn(view)

    def forget_pictures(self, *_) -> None:
        """Drop the last paint (a new layout, file or font)."""
        self._base = None
        self._base_key = None

    def paint(self, p: QPainter) -> None:
        """The viewport: the last paint if nothing it shows has changed, then the cursor."""
        pal = style.Palette.current()
        lay = self.view.layout_
        doc = self.document
        vp = self.view.viewport().rect()
        start, end = lay.visible_range(self.view.top_row, vp.height())
        sel_start, sel_end = doc.selection
        selected = (max(sel_start, start), min(sel_end, end)) \
            if sel_end > sel_start and sel_start < end and sel_end > start else None
        ratio = self.view.devicePixelRatioF()
        self.view.sprites.match_ratio(ratio)
        hscroll = self.view.horizontalScrollBar().value()
        key = (id(pal), pal.theme, id(lay), id(self.view.sprites), self.view.top_row, vp.width(),
               vp.height(), hscroll, ratio, id(doc.source), doc.size, doc.origin, doc.dialect,
               selected, tuple(doc.matches_in(start, end)),
               tuple((f.start, f.end) for f in doc.findings_in(start, end)),
               self.view.line_numbers_key())
        if self._base is None or key != self._base_key:
            pm = QPixmap(max(1, math.ceil(vp.width() * ratio)), max(1, math.ceil(vp.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            if not self._paint_base(pm):
                # The page's small pictures filled the atlas, which started again
                # midway: the page is drawn again into the emptied atlas.
                self._paint_base(pm)
            self._base, self._base_key = pm, key
        p.drawPixmap(0, 0, self._base)
        p.translate(-hscroll, 0)
        self._paint_cursor(p, pal, *self.last_paint_range)

    def _grid_for(self, rows: int) -> HexGrid:
        sprites = self.view.sprites
        lay = self.view.layout_
        grid = self._grid
        if grid is None or grid.key != (id(lay), sprites.cw, sprites.lh, sprites.base_y, rows) \
                or grid.layout is not lay:
            grid = self._grid = HexGrid(lay, sprites, rows)
        return grid

    def _paint_base(self, pm: QPixmap) -> bool:
        """Everything but the cursor, on ``pm`` (the viewport's size): the columns, the
        offsets and dividers, line numbers, the origin and sync bars, the findings.
        False when the atlas started again during the paint (its tiles are void)."""
        sprites = self.view.sprites
        pal = style.Palette.current()
        lay = self.view.layout_
        doc = self.document
        vp = self.view.viewport().rect()
        height = vp.height()
        cw = sprites.cw
        top = self.view.top_row
        hscroll = self.view.horizontalScrollBar().value()
        start, end = lay.visible_range(top, height)
        data = doc.read(start, end - start) if end > start else b""
        end = start + len(data)
        self.last_paint_range = (start, end)
        nrows = lay.visible_rows(height)
        origin = doc.origin
        look = None
        if data:
            page = PageUnits(doc.page_cut(start, end), start, len(data), lay.bytes_per_row, origin)
            if len(page):
                if self._colors_for != (id(pal), pal.theme):
                    self._colors, self._colors_for = {}, (id(pal), pal.theme)
                look = PageLook(pal, sprites, page, origin, self._colors)
        grid = self._grid_for(nrows)
        batch = TileBatch(sprites.atlas)
        p = QPainter(pm)
        try:
            p.fillRect(vp, pal.color("background"))
            p.translate(-hscroll, 0)
            p.setFont(sprites.font)
            # The offset column, on its own shade, and the column dividers.
            off_right = lay.cells_x_chars * cw - cw
            p.fillRect(QRect(0, 0, off_right, height), pal.color("alternate_background"))
            if data:
                self.cells.paint(p, pal, look, start, data, top, grid, batch)
                self.chars.paint(p, pal, look, start, data, grid, batch)
            rows_with_data = -(-len(data) // lay.bytes_per_row) if data else (1 if doc.size == 0 else 0)
            self.offsets.paint(pal, top, min(nrows, rows_with_data), grid, batch)
            if batch.void:
                return False
            batch.draw(p)
            p.setPen(pal.color("grid"))
            p.drawLine(off_right, 0, off_right, height)
            chars_left = lay.chars_x_chars * cw - cw
            p.drawLine(chars_left, 0, chars_left, height)
            if self.view.show_line_numbers:
                paint_line_numbers(p, self.view, pal, start, end, data, top)
            # Origin and back-in-step markers: vertical bars with a flag on top.
            last_row = top + nrows - 1
            resync = doc.resync() if origin is not None else None
            if resync is not None:
                sync_at = resync.sync_offset
                self._paint_bar(p, origin, pal.color("origin"), top, last_row, "origin")
                if sync_at is not None and sync_at < doc.size:
                    self._paint_bar(p, sync_at, pal.color("sync"), top, last_row, "sync")
            self._paint_findings(p, pal, start, end, top, last_row)
        finally:
            p.end()
        return True

    def _paint_findings(self, p: QPainter, pal, start: int, end: int, top: int,
                        last_row: int) -> None:
        """The findings on screen (only those): an outline round their bytes in both
        columns and a mark in the offsets' margin of each of their rows."""
        found = self.document.findings_in(start, end)
        if not found:
            return
        lay = self.view.layout_
        cw, lh = self.view.sprites.cw, self.view.sprites.lh
        half, cell_w = cw // 2, lay.cell_w
        pen = QPen(pal.color("finding"), 2)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        mark = pal.color("finding_mark")
        p.setBrush(Qt.BrushStyle.NoBrush)
        for f in found:
            for seg in lay.segments(max(f.start, start), min(f.end, end), top, last_row):
                y = (seg.row - top) * lh
                p.fillRect(QRect(0, y + 1, 4, lh - 2), mark)
                p.setPen(pen)
                x0 = lay.cell_x(seg.first) - half + 1
                x1 = lay.cell_x(seg.last) + cell_w + half - 1
                c0, c1 = lay.char_x(seg.first), lay.char_x(seg.last + 1)
                for a, b in ((x0, x1), (c0, c1)):
                    p.drawLine(a, y + 1, b, y + 1)
                    p.drawLine(a, y + lh - 1, b, y + lh - 1)
                    if not seg.open_left:
                        p.drawLine(a, y + 1, a, y + lh - 1)
                    if not seg.open_right:
                        p.drawLine(b, y + 1, b, y + lh - 1)

    def _paint_cursor(self, p: QPainter, pal, start: int, end: int) -> None:
        """The cursor: a frame around its byte in both columns."""
        sprites = self.view.sprites
        doc = self.document
        lay = self.view.layout_
        cw, lh = sprites.cw, sprites.lh
        half = cw // 2
        cell_w = lay.cell_w
        char_w = lay.char_w
        top = self.view.top_row
        if doc.size and start <= doc.cursor < max(end, start + 1):
            cur = doc.cursor
            r = lay.row_of(cur) - top
            col = lay.col_of(cur)
            focused = self.view.hasFocus()
            pen = QPen(pal.color("cursor"), 2 if focused else 1)
            if not focused:
                pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRect(lay.cell_x(col) - half + 1, r * lh + 1, cell_w + cw - 2, lh - 2))
            p.drawRect(QRect(lay.char_x(col) + 1, r * lh + 1, char_w - 2, lh - 2))

    def _paint_bar(self, p: QPainter, offset: int, color: QColor, top: int, last_row: int,
                   label: str) -> None:
        """A vertical bar at ``offset`` in both columns, with a flag at the top (the
        origin) or the bottom (back in step)."""
        lay = self.view.layout_
        row = lay.row_of(offset)
        if not (top <= row <= last_row):
            return
        col = lay.col_of(offset)
        lh = self.view.sprites.lh
        y = (row - top) * lh
        cw = self.view.sprites.cw
        pen = QPen(color, 2)
        p.setPen(pen)
        for x in (lay.cell_x(col) - cw // 2, lay.char_x(col)):
            p.drawLine(x, y, x, y + lh - 1)
            # a small flag so the bar reads without colour too
            flag = [QPoint(x, y), QPoint(x + 5, y + 2), QPoint(x, y + 4)] if label == "origin" \
                else [QPoint(x, y + lh - 5), QPoint(x + 5, y + lh - 3), QPoint(x, y + lh - 1)]
            p.setBrush(color)
            p.drawPolygon(flag)
        p.setBrush(Qt.BrushStyle.NoBrush)


# ---------------------------------------------------------------------- line numbers
def line_starts_in(document, start: int, end: int, data: bytes | None = None) -> list[tuple[int, int]]:
    """(offset, line number) of every line start in [start, end); [] when the line of
    ``start`` is not known cheaply."""
    if end <= start:
        return []
    if data is None:
        data = document.read(start, end - start)
    prev_lf = start == 0 or document.read(start - 1, 1) == b"\n"
    first_lf = data.find(b"\n")
    if not prev_lf and (first_lf < 0 or start + first_lf + 1 >= end):
        return []
    line, _ = document.line_column(start, wait=False, reach=1)
    if line is None:
        return []
    out = []
    if prev_lf:
        out.append((start, line))
    pos = first_lf
    while pos >= 0 and start + pos + 1 < end:
        line += 1
        out.append((start + pos + 1, line))
        pos = data.find(b"\n", pos + 1)
    return out


def paint_line_numbers(p: QPainter, view, pal, start: int, end: int, data: bytes,
                       top: int) -> None:
    """The tags of the line starts in [start, end): the number in a small font on a
    pill at the left of the byte's cell, in the space between the rows (above the
    digits' tops, below the row before's baseline), so that no digit is hidden."""
    lay = view.layout_
    lh = view.sprites.lh
    main = QFontMetricsF(view.sprites.font)
    base_y = view.sprites.ascent + (lh - main.height()) / 2  # as the painter sets text
    font = QFont(view.sprites.font)
    font.setPointSizeF(max(4.0, font.pointSizeF() * 0.6))
    fm = QFontMetricsF(font)
    # The pill holds digits only: their cap height and a pixel or two of margin. Hex
    # digits have no descenders, so the space between two rows of them runs from the
    # baseline of the row before to the top of this row's digits.
    gap_top = math.ceil(base_y - lh + 1)
    gap_bottom = math.floor(base_y - main.capHeight() - 1)
    pill_h = min(math.ceil(fm.capHeight()) + 3, gap_bottom - gap_top)
    pill_top = gap_top + (gap_bottom - gap_top - pill_h) // 2
    p.save()
    p.setFont(font)
    fg = pal.color("offset_text")
    # A tinted pill without an edge: at this size an edge line would touch the digits.
    bg = QColor(fg)
    bg.setAlpha(48)
    for offset, line in line_starts_in(view.document, start, end, data):
        row = lay.row_of(offset) - top
        x = lay.cell_x(lay.col_of(offset))
        text = f"{line:,}"
        y = max(0, row * lh + pill_top)  # the top row's pill stays on the page
        rect = QRectF(x - 1, y, fm.horizontalAdvance(text) + 4, pill_h)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(bg)
        p.drawRoundedRect(rect, 2, 2)
        p.setPen(fg)
        p.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
    p.restore()
