"""Painting the hex view, and the pictures that make a repaint cheap.

A :class:`HexPainter` belongs to one :class:`~inspector.gui.panes.hexview.HexView` and
paints its viewport from the view's layout, top row and fonts and the document's bytes,
units, selection, matches and origin. It keeps the last paint without the cursor (a
repaint that changes none of it is one copy) and a picture per row by what the row
shows (a page of NULs is one picture drawn forty times, a scroll by a row draws one new
row). The small pictures of spellings, glyphs and marks are the view's
:class:`~inspector.gui.panes.hexsprites.HexSprites`.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QPixmap

from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes.hexlayout import spelling_table
from inspector.gui.panes.hexlines import paint_line_numbers
from inspector.gui.panes.hexunits import KIND_CODE, PageUnits


# What a character cell shows (HexPainter._char_plan).
_PLAIN, _COMPACT, _SINGLE, _BLANK = range(4)


class _Probe:
    """The two fields of a unit that ``style.glyph_for`` reads."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value):
        self.kind = kind
        self.value = value


class HexPainter:
    """Paints ``view``'s viewport; ``last_paint_range`` is the bytes it last showed."""

    # Row pictures kept: about three pages of a maximised view (a few MiB).
    ROW_PICTURES = 160

    def __init__(self, view):
        self.view = view
        self.document = view.document
        self.last_paint_range = (0, 0)
        # The last paint without its cursor, and what it showed: a repaint that changes
        # none of it (a window repaint, a cursor move on screen) is one pixmap copy.
        self._base: QPixmap | None = None
        self._base_key = None
        self.row_pictures: OrderedDict = OrderedDict()
        # Kept across paints while the sprites, their pixel ratio and the baseline stay:
        # the cell pictures by colour (rgba) and byte or character, and what a
        # character cell shows by unit kind and value (a dict look-up a cell, where
        # working it out is several calls).
        self._cells_for = None
        self._cell_pictures: dict = {}
        self._char_pictures: dict = {}
        self._char_plans: dict = {}
        self._char_count = 0
        self._cells_held = None
        self._warning_codes: dict = {}

    def forget_pictures(self, *_) -> None:
        """Drop the last paint and the row pictures (a new layout, file or font)."""
        self._base = None
        self._base_key = None
        self.row_pictures.clear()
        self._cells_for = None

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
        key = (id(pal), pal.theme, id(lay), self.view.top_row, vp.width(), vp.height(), hscroll,
               ratio, id(doc.source), doc.size, doc.origin, doc.dialect, selected,
               tuple(doc.matches_in(start, end)),
               tuple((f.start, f.end) for f in doc.findings_in(start, end)),
               self.view.line_numbers_key())
        if self._base is None or key != self._base_key:
            pm = QPixmap(max(1, math.ceil(vp.width() * ratio)), max(1, math.ceil(vp.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            self._paint_base(pm)
            self._base, self._base_key = pm, key
        p.drawPixmap(0, 0, self._base)
        p.translate(-hscroll, 0)
        self._paint_cursor(p, pal, *self.last_paint_range)

    def _paint_base(self, pm: QPixmap) -> None:
        """Everything but the cursor, on ``pm`` (the viewport's size).

        The cells of each row are pictures kept by what the row shows (its bytes, its
        units, what is selected, matched or lost on it): a page of NULs is one picture
        drawn forty times, and a scroll by a row draws one new row. When most rows are
        new (a jump), they are drawn in one pass and cut into row pictures afterwards;
        the offsets and the origin and sync bars are drawn over them."""
        sprites = self.view.sprites
        pal = style.Palette.current()
        lay = self.view.layout_
        doc = self.document
        vp = self.view.viewport().rect()
        height = vp.height()
        bg = pal.color("background")
        cw, lh = sprites.cw, sprites.lh
        top = self.view.top_row
        hscroll = self.view.horizontalScrollBar().value()
        ratio = pm.devicePixelRatio()
        start, end = lay.visible_range(top, height)
        data = doc.read(start, end - start) if end > start else b""
        end = start + len(data)
        self.last_paint_range = (start, end)
        units = doc.units(start, end) if end > start else []
        nrows = lay.visible_rows(height)
        base_y = sprites.ascent + (lh - QFontMetricsF(sprites.font).height()) / 2
        origin = doc.origin
        resync = doc.resync() if origin is not None else None
        sync_at = resync.sync_offset if resync is not None else None

        keys = self._row_keys(pal, start, data, units, origin, sync_at, vp.width(), hscroll, ratio)
        cache = self.row_pictures
        missing: dict = {}
        for r, k in enumerate(keys):
            if k not in cache and k not in missing:
                missing[k] = r
        p = QPainter(pm)
        try:
            p.fillRect(vp, bg)
            if len(missing) > max(2, len(keys) // 3):
                # Mostly new rows: one pass over the page, then cut into row pictures.
                p.save()
                p.translate(-hscroll, 0)
                self._paint_cells(p, pal, start, data, units, top, base_y)
                p.restore()
                p.end()
                px_w, px_h = pm.width(), math.ceil(lh * ratio)
                for k, r in missing.items():
                    y = math.floor(r * lh * ratio)
                    if y + px_h > pm.height():
                        continue  # the last row, cut by the viewport's bottom edge
                    row_pm = pm.copy(0, y, px_w, px_h)
                    row_pm.setDevicePixelRatio(ratio)
                    self._keep_row(k, row_pm)
                p.begin(pm)
            else:
                # The page's pictures, held here: keeping the new ones may push old ones
                # of this very page out of the cache.
                pictures = {}
                for k in keys:
                    if k not in missing and k not in pictures:
                        pictures[k] = cache[k]
                        cache.move_to_end(k)
                made = self._row_pictures(pal, start, data, units, top, sorted(missing.values()),
                                          base_y, vp.width(), hscroll, ratio, bg)
                for k, r in missing.items():
                    pictures[k] = made[r]
                    self._keep_row(k, pictures[k])
                for r, k in enumerate(keys):
                    p.drawPixmap(0, r * lh, pictures[k])
            p.translate(-hscroll, 0)
            p.setFont(sprites.font)
            # Offset column, on its own shade, and the column dividers.
            off_right = lay.cells_x_chars * cw - cw
            p.fillRect(QRect(0, 0, off_right, height), pal.color("alternate_background"))
            p.setPen(pal.color("offset_text"))
            rows_with_data = len(keys) if data else (1 if doc.size == 0 else 0)
            for r in range(min(nrows, rows_with_data)):
                p.drawText(int(lay.offset_x), int(r * lh + base_y), lay.format_offset(lay.row_start(top + r)))
            p.setPen(pal.color("grid"))
            p.drawLine(off_right, 0, off_right, height)
            chars_left = lay.chars_x_chars * cw - cw
            p.drawLine(chars_left, 0, chars_left, height)
            if self.view.show_line_numbers:
                paint_line_numbers(p, self.view, pal, start, end, data, top)
            # Origin and back-in-step markers: vertical bars with a flag on top.
            last_row = top + nrows - 1
            if resync is not None:
                self._paint_bar(p, origin, pal.color("origin"), top, last_row, "origin")
                if sync_at is not None and sync_at < doc.size:
                    self._paint_bar(p, sync_at, pal.color("sync"), top, last_row, "sync")
            self._paint_findings(p, pal, start, end, top, last_row)
        finally:
            if p.isActive():
                p.end()

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

    def _keep_row(self, key, picture: QPixmap) -> None:
        cache = self.row_pictures
        cache[key] = picture
        cache.move_to_end(key)
        while len(cache) > self.ROW_PICTURES:
            cache.popitem(last=False)

    def _row_keys(self, pal, start: int, data: bytes, units, origin, sync_at, width: int,
                  hscroll: int, ratio: float) -> list:
        """What each row with data shows, as a hashable key: two rows with equal keys
        paint the same pixels (offsets and bars aside)."""
        doc = self.document
        n = self.view.layout_.bytes_per_row
        sel_start, sel_end = doc.selection
        lost = (origin, sync_at) if origin is not None and sync_at is not None and sync_at > origin else None
        view = (id(pal), pal.theme, width, hscroll, ratio)
        dialect = doc.dialect

        def spans_of(rs: int, re: int) -> tuple:
            """The lost bytes, the selection and the matches, as parts of the row."""
            return tuple((max(a, rs) - rs, min(b, re) - rs) if a < re and b > rs else None
                         for a, b in ((lost if lost else (0, 0)), (sel_start, sel_end),
                                      *doc.matches_in(rs, re)))

        keys = []
        count = len(units)
        ui = 0
        size = len(data)
        table = None   # the units as numbers, made when a row is not plain ASCII
        for i in range(0, size, n):
            rs = start + i
            re = start + min(i + n, size)
            while ui < count and units[ui].offset + units[ui].length <= rs:
                ui += 1
            row = data[i:i + n]
            last = ui + (re - rs) - 1
            if (row.isascii() and last < count and units[ui].offset == rs
                    and units[last].offset == re - 1
                    and (origin is None or origin <= rs or origin >= re)):
                # Every byte its own valid unit, its warnings the dialect's for that byte
                # (the bytes are in the key): no need to look at each unit.
                keys.append((view, row, ("ascii", dialect, origin is not None and re <= origin),
                             spans_of(rs, re)))
                ui = last + 1
                continue
            if table is None:
                offsets, table = self._unit_table(units, origin)
            # The units touching the row: where the first begins, then every unit's
            # fields but its offset (the lengths give the others) as bytes.
            j = int(np.searchsorted(offsets, re))
            first = units[ui].offset - rs if ui < count else 0
            keys.append((view, row, (first, table[ui:j].tobytes()), spans_of(rs, re)))
        return keys

    def _unit_table(self, units, origin):
        """The units' offsets, and per unit (length, kind, value, replacements, warnings,
        before the origin) as numbers: a row's key is a slice of it. Warnings are
        numbered in the order first seen, for as long as the painter lives (row keys
        outlive a paint)."""
        offsets, lengths, kinds, values, replacements, _, warnings = zip(*units)
        codes = self._warning_codes
        for w in set(warnings):
            if w not in codes:
                codes[w] = len(codes)
        offsets = np.array(offsets, dtype=np.int64)
        table = np.empty((len(units), 6), dtype=np.int64)
        table[:, 0] = lengths
        table[:, 1] = [KIND_CODE[k] for k in kinds]
        table[:, 2] = [-1 if v is None else v for v in values]
        table[:, 3] = replacements
        table[:, 4] = [codes[w] for w in warnings]
        table[:, 5] = (offsets + table[:, 0] <= origin) if origin is not None else 0
        return offsets, table

    def _row_pictures(self, pal, start: int, data: bytes, units, top: int, rows: list,
                      base_y: float, width: int, hscroll: int, ratio: float,
                      bg: QColor) -> dict:
        """Rows ``rows`` of the page (counted from ``top``, ascending), each on a picture
        of its own. Neighbouring rows (a scroll's new rows) are drawn in one pass and cut
        apart, as a jump's page is: a pass has a fixed cost (the page's arrays)."""
        out = {}
        lh = self.view.sprites.lh
        whole = float(ratio).is_integer()
        i = 0
        while i < len(rows):
            j = i + 1
            while whole and j < len(rows) and rows[j] == rows[j - 1] + 1:
                j += 1
            r0, count = rows[i], j - i
            block = self._rows_picture(pal, start, data, units, top, r0, count, base_y, width,
                                       hscroll, ratio, bg)
            if count == 1:
                out[r0] = block
            else:
                px_w, px_h = block.width(), math.ceil(lh * ratio)
                for k in range(count):
                    row_pm = block.copy(0, math.floor(k * lh * ratio), px_w, px_h)
                    row_pm.setDevicePixelRatio(ratio)
                    out[r0 + k] = row_pm
            i = j
        return out

    def _rows_picture(self, pal, start: int, data: bytes, units, top: int, r: int, count: int,
                      base_y: float, width: int, hscroll: int, ratio: float,
                      bg: QColor) -> QPixmap:
        """Rows ``r`` .. ``r + count - 1`` of the page (counted from ``top``) drawn on a
        picture of their own."""
        sprites = self.view.sprites
        n = self.view.layout_.bytes_per_row
        lh = sprites.lh
        rs = start + r * n
        rows_data = data[r * n:(r + count) * n]
        re = rs + len(rows_data)
        rows_units = [u for u in units if u.offset < re and u.offset + u.length > rs]
        pm = QPixmap(max(1, math.ceil(width * ratio)), max(1, math.ceil(count * lh * ratio)))
        pm.setDevicePixelRatio(ratio)
        pm.fill(bg)
        q = QPainter(pm)
        try:
            q.translate(-hscroll, 0)
            self._paint_cells(q, pal, rs, rows_data, rows_units, top + r, base_y)
        finally:
            q.end()
        return pm

    def _paint_cells(self, p: QPainter, pal, start: int, data: bytes, units, top: int,
                     base_y: float) -> None:
        """The hex and character cells of the rows from ``top`` holding ``data`` (which
        begins at ``start``, a row start), with their boxes, fills, selection, matches,
        lost bytes and marks; row ``top`` is drawn at y = 0."""
        sprites = self.view.sprites
        lay = self.view.layout_
        doc = self.document
        p.setFont(sprites.font)
        cw, lh = sprites.cw, sprites.lh
        n = lay.bytes_per_row
        end = start + len(data)
        last_row = top + max(1, -(-len(data) // n)) - 1
        origin = doc.origin
        resync = doc.resync() if origin is not None else None
        lost_end = resync.sync_offset if resync is not None else None

        half = cw // 2
        cell_w = lay.cell_w
        color_cache: dict = {}
        cell_xs = [lay.cell_x(c) for c in range(n)]
        char_xs = [lay.char_x(c) for c in range(n + 1)]
        open_left_x = cell_xs[0] - cw
        open_right_x = lay.cells_end_chars * cw + cw
        # Per byte its text colour; the unit fills, box outlines and marks.
        looks = self._unit_looks(pal, units, start, data, top, last_row, cell_xs, color_cache)
        if looks is not None:
            page, colors, shades, shade_of_byte, runs, outlines, marks = looks
        else:
            colors = [pal.color("text")] * len(data)
            shades = shade_of_byte = None
            runs = outlines = marks = ()
        for r, c0, c1, ol, orr, fill in runs:
            y = r * lh
            x0 = open_left_x if ol else cell_xs[c0] - half + 1
            x1 = open_right_x if orr else cell_xs[c1] + cell_w + half - 1
            p.fillRect(QRect(x0, y + 1, x1 - x0, lh - 2), fill)
            p.fillRect(QRect(char_xs[c0], y + 1, char_xs[c1 + 1] - char_xs[c0], lh - 2), fill)

        def bands(a: int, b: int, inset: int):
            """The rectangles (hex cells, then characters) covering bytes [a, b) of
            these rows, ``inset`` pixels in from the row's top and bottom."""
            for seg in lay.segments(max(a, start), min(b, end), top, last_row):
                y = (seg.row - top) * lh + inset
                x0 = lay.cell_x(seg.first) - half
                x1 = lay.cell_x(seg.last) + cell_w + half
                c0 = lay.char_x(seg.first)
                yield QRect(x0, y, x1 - x0, lh - 2 * inset)
                yield QRect(c0, y, lay.char_x(seg.last + 1) - c0, lh - 2 * inset)

        # Bytes lost to resynchronization: hatched.
        if resync is not None and lost_end > origin:
            lost_color = pal.color("lost")
            hatch = QBrush(pal.color("origin"), Qt.BrushStyle.BDiagPattern)
            for rect in bands(origin, lost_end, 1):
                p.fillRect(rect, lost_color)
                p.fillRect(rect, hatch)

        # Selection.
        sel_start, sel_end = doc.selection
        if sel_end > sel_start:
            sel = QColor(pal.color("selection"))
            sel.setAlphaF(0.75)
            for rect in bands(sel_start, sel_end, 0):
                p.fillRect(rect, sel)

        # Find matches (the find bar keeps them sorted in document.matches).
        match_color = QColor(pal.color("match"))
        match_color.setAlphaF(0.8)
        for m0, m1 in doc.matches_in(start, end):
            for rect in bands(m0, m1, 0):
                p.fillRect(rect, match_color)

        # Box outlines: open on the side where a unit goes on in another row.
        last_pen = None
        for pen, x0, y0, x1, y1, ol, orr in outlines:
            if pen is not last_pen:  # neighbours mostly share a colour
                p.setPen(pen)
                last_pen = pen
            if not ol and not orr:
                p.drawRect(x0, y0, x1 - x0, y1 - y0)
                continue
            p.drawLine(x0, y0, x1, y0)
            p.drawLine(x0, y1, x1, y1)
            if not ol:
                p.drawLine(x0, y0, x0, y1)
            if not orr:
                p.drawLine(x1, y0, x1, y1)

        # Byte cells: a cached picture per spelling and colour. Qt shapes every string
        # it draws (about 8 us a call and 0.6 us a character), a picture is a copy: a
        # page of mixed bytes was hundreds of drawText calls, and per-colour strings
        # shape their padding too.
        # The pictures are looked up per colour object and byte value here (a page has
        # a handful of colours): one list index a cell instead of a key and a call.
        table = spelling_table(lay.byte_format)
        sprite = sprites.text
        draw = p.drawPixmap
        self._cell_tables(sprites, base_y, table)
        kept = self._cell_pictures
        xs = [x - 1 for x in cell_xs]
        if shade_of_byte is not None:
            # Each cell's picture by (shade, byte) in one array look-up (the pictures of
            # a colour are kept as an array of 256); the few missing are drawn first.
            arrays = []
            for color in shades.tolist():
                pics = kept.get(color.rgba())
                if pics is None:
                    pics = kept[color.rgba()] = np.full(256, None, dtype=object)
                arrays.append(pics)
            known = np.concatenate(arrays)
            keys = shade_of_byte * 256 + np.frombuffer(data, dtype=np.uint8)
            cell_pictures = known[keys]
            absent = np.flatnonzero(np.equal(cell_pictures, None))
            if len(absent):
                for key in np.unique(keys[absent]).tolist():
                    k, b = divmod(key, 256)
                    known[key] = arrays[k][b] = sprite(table[b], shades[k].rgba(), base_y)
                cell_pictures = known[keys]
            cell_pictures = cell_pictures.tolist()
            for r in range((len(data) + n - 1) // n):
                i0 = r * n
                y = r * lh
                for x, pm in zip(xs, cell_pictures[i0:i0 + n]):
                    draw(x, y, pm)
        else:
            by_color: dict = {}
            for r in range((len(data) + n - 1) // n):
                i0 = r * n
                y = r * lh
                for x, b, color in zip(xs, data[i0:i0 + n], colors[i0:i0 + n]):
                    pics = by_color.get(id(color))
                    if pics is None:
                        pics = kept.get(color.rgba())
                        if pics is None:
                            pics = kept[color.rgba()] = np.full(256, None, dtype=object)
                        by_color[id(color)] = pics
                    pm = pics[b]
                    if pm is None:
                        pm = pics[b] = sprite(table[b], color.rgba(), base_y)
                    draw(x, y, pm)

        # Marks: a letter per problem kind, small, at the box's top right (cached
        # pixmaps: hundreds of them on a page of NULs).
        for x, y, pm in marks:
            draw(x, y, pm)

        # The character column.
        if looks is not None:
            self._paint_chars(p, pal, page, start, colors, shades, shade_of_byte, data, base_y)

    def _unit_looks(self, pal, units, start: int, data: bytes, top: int, last_row: int,
                    cell_xs: list, color_cache: dict):
        """How the units of these rows look, worked out on arrays (see hexunits): a
        colour entry per group of units that look alike, made from one of them; then
        per byte its colour (``colors``, and its index into ``shades``), the unit
        fills as runs, the box outlines with their pens and the problem marks with
        their pictures, each a list in drawing order. None without units."""
        if not units or not data:
            return None
        sprites = self.view.sprites
        lay = self.view.layout_
        cw, lh = sprites.cw, sprites.lh
        half, cell_w, n = cw // 2, lay.cell_w, lay.bytes_per_row
        origin = self.document.origin
        muted = pal.color("muted_text")
        page = PageUnits(units, start, len(data), n, origin)
        groups = page.groups.tolist()
        entries = []
        for g in groups:
            u = units[g]
            role = style.role_for(u)
            warn = bool(u.warnings)
            dim = origin is not None and u.end <= origin
            key = (role, warn, dim)
            entry = color_cache.get(key)
            if entry is None:
                main = pal.unit_color(u)
                fill = pal.unit_fill(u)
                if dim:
                    main = QColor(muted)
                    fill = QColor(fill)
                    fill.setAlphaF(0.35)
                quiet = QColor(main)
                quiet.setAlphaF(0.55)
                entry = (main, quiet, fill, role != style.ASCII or warn)
                color_cache[key] = entry
            entries.append(entry)
        count = len(entries)
        shades = np.empty(2 * count, dtype=object)
        shades[0::2] = [e[0] for e in entries]
        shades[1::2] = [e[1] for e in entries]
        shade_of_byte = page.byte_color_index()
        colors = shades[shade_of_byte].tolist()
        boxed = np.array([e[3] for e in entries], dtype=bool)
        unit, row, c0, c1, ol, orr = page.pieces(boxed, last_row - top + 1)
        if not len(unit):
            return page, colors, shades, shade_of_byte, (), (), ()
        slot = page.slot[unit]
        # Per group: its fill, its outline's pen (one per colour), its mark's picture,
        # and whether it is a lone character (its fill and mark say it all).
        fills = np.empty(count, dtype=object)
        pens = np.empty(count, dtype=object)
        mark_pictures = np.empty(count, dtype=object)
        lone = np.zeros(count, dtype=bool)
        pen_cache: dict = {}
        for k, (entry, g) in enumerate(zip(entries, groups)):
            u, border = units[g], entry[0]
            fills[k] = entry[2]
            pen = pen_cache.get(border.rgba())
            if pen is None:
                pen = pen_cache[border.rgba()] = QPen(border, 1)
            pens[k] = pen
            mark = style.mark_for(u)
            mark_pictures[k] = sprites.mark(mark, border) if mark else None
            lone[k] = u.length == 1 and u.kind == K.VALID
        # Unit fills: neighbours on a row with the same colour object are filled as one
        # rectangle (a run of NULs is one fill, not hundreds).
        fill_id = np.array([id(f) for f in fills.tolist()], dtype=np.int64)[slot]
        joins = np.zeros(len(unit), dtype=bool)
        joins[1:] = ((row[1:] == row[:-1]) & (c0[1:] == c1[:-1] + 1)
                     & (fill_id[1:] == fill_id[:-1]) & ~orr[:-1] & ~ol[1:])
        heads = np.flatnonzero(~joins)
        tails = np.append(heads[1:], len(unit)) - 1
        runs = zip(row[heads].tolist(), c0[heads].tolist(), c1[tails].tolist(),
                   ol[heads].tolist(), orr[tails].tolist(), fills[slot[heads]].tolist())
        # Box outlines, open on the side where a unit goes on in another row.
        xs_of = np.array(cell_xs, dtype=np.int64)
        y0 = row * lh + 1
        x0 = np.where(ol, xs_of[0] - cw, xs_of[c0] - half + 1)
        x1 = np.where(orr, lay.cells_end_chars * cw + cw - 1, xs_of[c1] + cell_w + half - 2)
        drawn = np.flatnonzero(~lone[slot])
        outlines = zip(pens[slot[drawn]].tolist(), x0[drawn].tolist(), y0[drawn].tolist(),
                       x1[drawn].tolist(), (y0[drawn] + lh - 3).tolist(),
                       ol[drawn].tolist(), orr[drawn].tolist())
        # Marks on the unit's first row.
        piece_marks = mark_pictures[slot]
        marked = np.flatnonzero(~ol & np.not_equal(piece_marks, None))
        marks = zip((xs_of[c0[marked]] + cell_w - 2).tolist(), (row[marked] * lh).tolist(),
                    piece_marks[marked].tolist())
        return page, colors, shades, shade_of_byte, runs, outlines, marks

    def _cell_tables(self, sprites, base_y: float, table) -> None:
        """Empty the kept cell pictures and character plans unless they were made
        for these sprites, at their pixel ratio, on this baseline, with these
        spellings."""
        key = (id(sprites), sprites.ratio, base_y, id(table))
        if (self._cells_for != key or self._char_count > sprites.MAX_PICTURES
                or len(self._char_plans) > sprites.MAX_PICTURES):
            self._cells_for = key
            self._cells_held = (sprites, table)  # their ids stay theirs while kept
            self._cell_pictures = {}
            self._char_pictures = {}
            self._char_count = 0
            self._char_plans = {}

    def _char_plan(self, sprites, kind: str, value) -> tuple:
        """What the character cell of a unit of ``kind`` and ``value`` (not a plain
        ASCII character) shows: (PLAIN, text), (COMPACT, text), (SINGLE, text, cells)
        or (BLANK,)."""
        u = _Probe(kind, value)
        text, how = style.glyph_for(u, False)
        if how == style.GLYPH and text != " " and not sprites.coverage.can_draw(text):
            text, how = f"{value:04X}", style.CODEPOINT
        if how in (style.INVISIBLE, style.CODEPOINT) or (
                how == style.CONTROL_PICTURE and len(text) > 1):
            return (_COMPACT, text[2:] if text.startswith("U+") else text)
        if text != " " and kind == K.VALID and sprites.is_cell_glyph(text):
            return (_PLAIN, text)
        if text != " ":
            return (_SINGLE, text, sprites.glyph_cells(text))
        return (_BLANK,)

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

    def _paint_chars(self, p: QPainter, pal, page, start: int, colors, shades,
                     shade_of_byte, data: bytes, base_y: float) -> None:
        """The character column of these rows: plain cells (printable ASCII, plain
        glyphs and the continuation dot), then glyphs with their flags, then framed
        codes, each a small picture. The pictures overlap by their margins, so each
        kind is drawn in byte order, as ever.

        Printable ASCII, problems (all one flagged U+FFFD) and continuation dots are
        placed on the page's arrays; only the other units (valid characters that are
        not printable ASCII) are looked at one by one."""
        sprites = self.view.sprites
        lay = self.view.layout_
        lh = sprites.lh
        n = lay.bytes_per_row
        size = len(data)
        muted = pal.color("muted_text")
        p.setFont(sprites.font)
        self._cell_tables(sprites, base_y, spelling_table(lay.byte_format))
        plans = self._char_plans
        kept = self._char_pictures

        def picture(color, ch):
            pics = kept.get(color.rgba())
            if pics is None:
                pics = kept[color.rgba()] = {}
            pm = pics.get(ch)
            if pm is None:
                pm = pics[ch] = sprites.text(ch, color.rgba(), base_y)
                self._char_count += 1
            return pm

        plain = np.empty(size, dtype=object)    # per byte: its plain cell's picture
        single = np.empty(size, dtype=object)   # per byte: the glyph drawn from it
        compacts = []
        units = page.units
        covered = page.offset + 1   # continuation cells up to here are under the glyph
        rel = page.offset - start
        here = np.flatnonzero((rel >= 0) & (rel < size))
        kind, value, warned = page.kind[here], page.value[here], page.warned[here]
        # Printable ASCII: a picture per shade and character.
        ascii_cells = here[(kind == 0) & ~warned & (value >= 0x21) & (value < 0x7F)]
        if len(ascii_cells):
            at = rel[ascii_cells]
            keys = shade_of_byte[at] * 128 + page.value[ascii_cells]
            distinct, which = np.unique(keys, return_inverse=True)
            pictures = np.empty(len(distinct), dtype=object)
            for k, key in enumerate(distinct.tolist()):
                pictures[k] = picture(shades[key >> 7], chr(key & 0x7F))
            plain[at] = pictures[which.reshape(-1)]
        # Problems: one flagged replacement glyph each, whatever their kind and value.
        problems = here[kind != 0]
        if len(problems):
            plan = plans.get((K.TRUNCATED, None))
            if plan is None:
                plan = plans[(K.TRUNCATED, None)] = self._char_plan(sprites, K.TRUNCATED, None)
            at = rel[problems]
            covered[problems] = page.offset[problems] + np.minimum(page.length[problems], plan[2])
            distinct, which = np.unique(shade_of_byte[at], return_inverse=True)
            pictures = np.empty(len(distinct), dtype=object)
            for k, shade in enumerate(distinct.tolist()):
                pictures[k] = sprites.glyph(plan[1], shades[shade], True, base_y)
            single[at] = pictures[which.reshape(-1)]
        # The rest, one by one.
        for j in here[(kind == 0) & ~((~warned) & (value >= 0x21) & (value < 0x7F))].tolist():
            off, length, kind_, value_ = units[j][:4]
            i = off - start
            color = colors[i]
            plan = plans.get((kind_, value_))
            if plan is None:
                plan = plans[(kind_, value_)] = self._char_plan(sprites, kind_, value_)
            how = plan[0]
            if how == _COMPACT:
                # Compact text across the unit's cells on this row (the box itself says
                # "code point": no U+).
                row_first = off - off % n
                compacts.append((i // n, i % n, min(off + length, row_first + n) - 1 - row_first,
                                 plan[1], color))
                covered[j] = off + length
            elif how == _PLAIN:
                plain[i] = picture(color, plan[1])
            elif how == _SINGLE:
                single[i] = sprites.glyph(plan[1], color, False, base_y)
                if length > 1:
                    covered[j] = off + min(length, plan[2])
        plain[page.uncovered(covered)] = picture(muted, style.CONTINUATION_MARK)
        xs = [lay.char_x(col) - 1 for col in range(n)]
        draw = p.drawPixmap
        for cells in (plain, single):
            at = np.flatnonzero(np.not_equal(cells, None))
            for i, pm in zip(at.tolist(), cells[at].tolist()):
                draw(xs[i % n], (i // n) * lh, pm)
        for r, c0, c1, text, color in compacts:
            x0 = lay.char_x(c0)
            draw(x0, r * lh, sprites.compact(text, color, lay.char_x(c1 + 1) - x0))
