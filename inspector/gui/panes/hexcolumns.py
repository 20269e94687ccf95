"""The hex view's columns, each drawn by runs: offsets, byte cells, characters.

Every column paints a whole page from arrays, with a few calls per colour rather than
one per cell (the number of calls from Python decides a page's time): a colour's glyphs
are one ``QGlyphRun`` (glyph indexes and positions picked by numpy from
:class:`~inspector.gui.panes.hexsprites.HexSprites` and
:class:`~inspector.gui.panes.hexsprites.HexGrid`), fills and box outlines one
``drawRects``/``drawLines`` per colour, problem flags one path per colour. Characters
the main font lacks (CJK, emoji, most scripts, control pictures) are shaped by Qt once
each (:meth:`~inspector.gui.panes.hexsprites.HexSprites.shape`: its fallback font is
picked in C++) and then drawn like the main font's: one glyph run per font and colour.
Units come as arrays (:class:`~inspector.gui.panes.hexunits.PageUnits`, from
the page cut) and may be of any length: nothing here reads UTF-8's byte patterns.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLine, QPointF, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QGlyphRun, QPainter, QPainterPath, QPen

from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes.hexlayout import spelling_table
from inspector.gui.panes.hexunits import PageUnits

# What a character cell shows (see CharColumn.plan).
PLAIN, COMPACT, SINGLE, BLANK = range(4)


def draw_glyphs(p: QPainter, raw, color: QColor, glyphs, positions) -> None:
    """One run of glyphs of ``raw`` in ``color`` at ``positions`` (lists)."""
    if not glyphs:
        return
    run = QGlyphRun()
    run.setRawFont(raw)
    run.setGlyphIndexes(glyphs)
    run.setPositions(positions)
    p.setPen(color)
    p.drawGlyphRun(QPointF(0, 0), run)


def _rects(x0, y0, w, h) -> list:
    return [QRect(a, b, c, d) for a, b, c, d in zip(x0.tolist(), y0.tolist(), w.tolist(), h.tolist())]


def _by(keys: np.ndarray):
    """(key, indices) for each distinct key, in the order keys first appear."""
    distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(distinct) + 1))
    for k in np.argsort(first).tolist():
        yield int(distinct[k]), order[bounds[k]:bounds[k + 1]]


class PageLook:
    """How the units of a page look: per colour group its main and quiet colours, fill,
    outline pen and mark; per byte its shade (index into ``shades``)."""

    def __init__(self, pal, sprites, page: PageUnits, origin, cache: dict):
        self.page = page
        muted = pal.color("muted_text")
        count = len(page.groups)
        self.main: list[QColor] = []
        self.fills: list[QColor] = []
        self.pens: list[QPen] = []
        self.marks: list[str] = []
        boxed = np.zeros(count, dtype=bool)
        lone = np.zeros(count, dtype=bool)
        shades = []
        for k, g in enumerate(page.groups.tolist()):
            u = page.unit(g)
            role = style.role_for(u)
            warn = bool(u.warnings)
            dim = origin is not None and u.end <= origin
            key = (role, warn, dim)
            entry = cache.get(key)
            if entry is None:
                main = pal.unit_color(u)
                fill = pal.unit_fill(u)
                if dim:
                    main = QColor(muted)
                    fill = QColor(fill)
                    fill.setAlphaF(0.35)
                quiet = QColor(main)
                quiet.setAlphaF(0.55)
                entry = cache[key] = (main, quiet, fill, QPen(main, 1), style.mark_for(u),
                                      role != style.ASCII or warn)
            main, quiet, fill, pen, mark, box = entry
            self.main.append(main)
            self.fills.append(fill)
            self.pens.append(pen)
            self.marks.append(mark)
            shades += (main, quiet)
            boxed[k] = box
            lone[k] = u.length == 1 and u.kind == K.VALID
        self.shades = shades
        self.boxed = boxed
        self.lone = lone
        self.shade_of_byte = page.byte_color_index()


class CellColumn:
    """The byte cells: unit fills (also under the characters), the lost bytes, the
    selection and the matches, box outlines, the bytes' spellings and problem marks."""

    def __init__(self, view):
        self.view = view
        self._one_cell: dict = {}   # one-cell rectangles per geometry (see _cell_rects)

    # Boxes of units up to this many cells on a row are kept (UTF-8's longest is 4).
    KEPT_SPAN = 4

    def _cell_rects(self, kind: str, lay, rows: int, cw: int, lh: int) -> np.ndarray:
        """Rectangles made once per geometry, picked by fancy indexing on each paint (a
        page of random bytes fills and boxes about a thousand units): ``fill``
        [row, column] a hex cell's fill, ``gap`` [row, column] the fill between a cell
        and the next (joining two neighbours of one colour), ``left``/``right`` [row]
        the fill from the first cell's to the left margin / from the last cell's to
        the right margin (a unit that goes on in the row before / after), ``char``
        [row, column] a character cell's fill, ``box`` [row, column, cells - 1] the
        outline of a unit of up to KEPT_SPAN cells starting at the column."""
        n = lay.bytes_per_row
        key = (kind, n, lay.cell_w, lay.cells_end_chars, cw, lh, rows,
               tuple(lay.cell_x(c) for c in (0, n - 1)), lay.char_x(0), lay.char_x(n))
        got = self._one_cell.get(key)
        if got is None:
            half, cell_w = cw // 2, lay.cell_w
            xs = [lay.cell_x(c) for c in range(n)] + [0]
            cs = [lay.char_x(c) for c in range(n + 1)]
            h = lh - 2
            if kind == "fill":
                shape, make = (rows, n), lambda r, c: QRect(xs[c] - half + 1, r * lh + 1,
                                                            cell_w + 2 * half - 2, h)
            elif kind == "gap":
                shape, make = (rows, n), lambda r, c: QRect(
                    xs[c] + cell_w + half - 1, r * lh + 1, xs[c + 1] - xs[c] - cell_w - 2 * half + 2, h)
            elif kind == "left":
                shape, make = (rows,), lambda r: QRect(xs[0] - cw, r * lh + 1, cw - half + 1, h)
            elif kind == "right":
                right = xs[n - 1] + cell_w + half - 1
                shape, make = (rows,), lambda r: QRect(right, r * lh + 1,
                                                       lay.cells_end_chars * cw + cw - right, h)
            elif kind == "char":
                shape, make = (rows, n), lambda r, c: QRect(cs[c], r * lh + 1, cs[c + 1] - cs[c], h)
            else:
                def make(r, c, k):
                    last = min(c + k, n - 1)
                    return QRect(xs[c] - half + 1, r * lh + 1, xs[last] - xs[c] + cell_w + 2 * half - 3,
                                 lh - 3)
                shape = (rows, n, self.KEPT_SPAN)
            got = np.empty(shape, dtype=object)
            got.reshape(-1)[:] = [make(*i) for i in np.ndindex(*shape)]
            if len(self._one_cell) > 24:
                self._one_cell.clear()
            self._one_cell[key] = got
        return got

    def paint(self, p: QPainter, pal, look: PageLook | None, start: int, data: bytes,
              top: int, grid) -> None:
        view = self.view
        lay = view.layout_
        sprites = view.sprites
        cw, lh = sprites.cw, sprites.lh
        n = lay.bytes_per_row
        half, cell_w = cw // 2, lay.cell_w
        end = start + len(data)
        rows = -(-len(data) // n)
        last_row = top + max(1, rows) - 1
        if look is not None:
            self._fills(p, look, rows, lay, cw, lh)
        self._bands(p, pal, start, end, top, last_row, lay, half, cell_w, lh)
        if look is not None:
            self._outlines(p, look, rows, lay, cw, lh)
        # The spellings: one glyph run per shade.
        b = np.frombuffer(data, dtype=np.uint8)
        k = lay.cell_chars
        table = _spelling_glyphs(sprites, lay.byte_format)
        idx = np.arange(len(data))
        cells = grid.cells.reshape(-1, k)
        if look is None:
            groups = [(0, idx)]
            colors = [pal.color("text")]
        else:
            groups = _by(look.shade_of_byte)
            colors = look.shades
        for shade, at in groups:
            glyphs = table[b[at]]                # [cells, k]
            pts = cells[at]                      # [cells, k]
            keep = glyphs > 0                    # spaces (decimal's padding) are not drawn
            draw_glyphs(p, sprites.raw, colors[shade], glyphs[keep].tolist(), pts[keep].tolist())
        if look is not None:
            self._marks(p, look, rows, grid)

    def _fills(self, p, look: PageLook, rows: int, lay, cw: int, lh: int) -> None:
        """Unit fills: a cell's fill, with the gap to its neighbour filled too where both
        have one fill colour (a run of NULs is one fill), in both columns; one drawRects
        per colour, from kept rectangles."""
        page = look.page
        self._pieces = page.pieces(look.boxed, rows)
        size = page.size
        n = lay.bytes_per_row
        unit = page.byte_unit
        slot = page.slot[unit]
        # One number per distinct fill colour (groups may share one).
        ids = np.array([id(f) for f in look.fills], dtype=np.int64)
        _, first, fill_of_slot = np.unique(ids, return_index=True, return_inverse=True)
        fill = np.where(look.boxed[slot], fill_of_slot.reshape(-1)[slot], -1)   # per byte
        filled = np.flatnonzero(fill >= 0)
        if not len(filled):
            return
        col = np.arange(size) % n
        gaps = np.flatnonzero((fill[:-1] >= 0) & (fill[:-1] == fill[1:]) & (col[:-1] != n - 1))
        ends = page.offset[unit] + page.length[unit] - page.start   # per byte: its unit's end
        # A unit that goes on in the row before / after: its fill reaches the margin.
        left = np.flatnonzero((fill >= 0) & (col == 0) & ~page.byte_first)
        right = np.flatnonzero((fill >= 0) & (col == n - 1) & (ends > np.arange(size) + 1))
        cell_fill = self._cell_rects("fill", lay, rows, cw, lh).reshape(-1)
        cell_gap = self._cell_rects("gap", lay, rows, cw, lh).reshape(-1)
        row_left = self._cell_rects("left", lay, rows, cw, lh)
        row_right = self._cell_rects("right", lay, rows, cw, lh)
        char_fill = self._cell_rects("char", lay, rows, cw, lh).reshape(-1)
        p.setPen(Qt.PenStyle.NoPen)
        for k, at in _by(fill[filled]):
            cells = filled[at]
            p.setBrush(look.fills[int(first[k])])
            p.drawRects(np.concatenate((cell_fill[cells], char_fill[cells],
                                        cell_gap[gaps[fill[gaps] == k]],
                                        row_left[left[fill[left] == k] // n],
                                        row_right[right[fill[right] == k] // n])).tolist())
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _bands(self, p, pal, start, end, top, last_row, lay, half, cell_w, lh) -> None:
        """The bytes lost to resynchronization (hatched), the selection, the matches."""
        doc = self.view.document

        def bands(a: int, b: int, inset: int):
            for seg in lay.segments(max(a, start), min(b, end), top, last_row):
                y = (seg.row - top) * lh + inset
                x0 = lay.cell_x(seg.first) - half
                x1 = lay.cell_x(seg.last) + cell_w + half
                c0 = lay.char_x(seg.first)
                yield QRect(x0, y, x1 - x0, lh - 2 * inset)
                yield QRect(c0, y, lay.char_x(seg.last + 1) - c0, lh - 2 * inset)

        origin = doc.origin
        resync = doc.resync() if origin is not None else None
        lost_end = resync.sync_offset if resync is not None else None
        if resync is not None and lost_end > origin:
            lost_color = pal.color("lost")
            hatch = QBrush(pal.color("origin"), Qt.BrushStyle.BDiagPattern)
            for rect in bands(origin, lost_end, 1):
                p.fillRect(rect, lost_color)
                p.fillRect(rect, hatch)
        sel_start, sel_end = doc.selection
        if sel_end > sel_start:
            sel = QColor(pal.color("selection"))
            sel.setAlphaF(0.75)
            for rect in bands(sel_start, sel_end, 0):
                p.fillRect(rect, sel)
        match_color = QColor(pal.color("match"))
        match_color.setAlphaF(0.8)
        for m0, m1 in doc.matches_in(start, end):
            for rect in bands(m0, m1, 0):
                p.fillRect(rect, match_color)

    def _outlines(self, p, look: PageLook, rows: int, lay, cw: int, lh: int) -> None:
        """Box outlines, open on the side where a unit goes on in another row: closed
        boxes one drawRects per colour, open ones one drawLines per colour."""
        unit, row, c0, c1, ol, orr = self._pieces
        if not len(unit):
            return
        page = look.page
        slot = page.slot[unit]
        drawn = np.flatnonzero(~look.lone[slot])
        if not len(drawn):
            return
        half, cell_w = cw // 2, lay.cell_w
        xs_of = np.array([lay.cell_x(c) for c in range(lay.bytes_per_row)], dtype=np.int64)
        row, c0, c1, ol, orr, slot = row[drawn], c0[drawn], c1[drawn], ol[drawn], orr[drawn], slot[drawn]
        y0 = row * lh + 1
        y1 = y0 + lh - 3
        x0 = np.where(ol, xs_of[0] - cw, xs_of[c0] - half + 1)
        x1 = np.where(orr, lay.cells_end_chars * cw + cw - 1, xs_of[c1] + cell_w + half - 2)
        closed = ~ol & ~orr
        boxes = self._cell_rects("box", lay, rows, cw, lh)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for k, at in _by(slot):
            p.setPen(look.pens[k])
            shut = at[closed[at]]
            if len(shut):
                span = c1[shut] - c0[shut]
                kept = shut[span < self.KEPT_SPAN]
                more = shut[span >= self.KEPT_SPAN]
                rects = boxes[row[kept], c0[kept], span[span < self.KEPT_SPAN]].tolist()
                if len(more):
                    rects += _rects(x0[more], y0[more], x1[more] - x0[more], y1[more] - y0[more])
                p.drawRects(rects)
            open_ = at[~closed[at]]
            if len(open_):
                lines = []
                for a, b_, c, d, left, right in zip(x0[open_].tolist(), y0[open_].tolist(),
                                                    x1[open_].tolist(), y1[open_].tolist(),
                                                    ol[open_].tolist(), orr[open_].tolist()):
                    lines += (QLine(a, b_, c, b_), QLine(a, d, c, d))
                    if not left:
                        lines.append(QLine(a, b_, a, d))
                    if not right:
                        lines.append(QLine(c, b_, c, d))
                p.drawLines(lines)

    def _marks(self, p, look: PageLook, rows: int, grid) -> None:
        """A letter per problem kind, small, at the top right of the unit's first cell:
        one glyph run per colour."""
        unit, row, c0, c1, ol, orr = self._pieces
        if not len(unit):
            return
        page = look.page
        slot = page.slot[unit]
        marked = np.array([bool(m) for m in look.marks], dtype=bool)[slot] & ~ol
        at = np.flatnonzero(marked)
        if not len(at):
            return
        sprites = self.view.sprites
        places = grid.marks[row[at], c0[at]]
        for k, sel in _by(slot[at]):
            glyphs, dxs = sprites.mark_glyphs(look.marks[k])
            pts = places[sel].tolist()
            if len(glyphs) == 1 and dxs[0] == 0:
                draw_glyphs(p, sprites.mark_raw, look.main[k], glyphs * len(pts), pts)
            else:
                all_g, all_p = [], []
                for pt in pts:
                    for g, dx in zip(glyphs, dxs):
                        all_g.append(g)
                        all_p.append(QPointF(pt.x() + dx, pt.y()))
                draw_glyphs(p, sprites.mark_raw, look.main[k], all_g, all_p)


_SPELLING_GLYPHS: dict = {}


def _spelling_glyphs(sprites, fmt: str) -> np.ndarray:
    """[byte, character]: the main font's glyphs of each byte's spelling (0: a space)."""
    key = (id(sprites), fmt)
    got = _SPELLING_GLYPHS.get(key)
    if got is None or got[1] is not sprites:
        spell = spelling_table(fmt)
        codes = np.array([[ord(ch) for ch in s] for s in spell], dtype=np.int64)
        table = sprites.ascii_glyphs[codes]
        table[codes == 0x20] = 0
        if len(_SPELLING_GLYPHS) > 16:
            _SPELLING_GLYPHS.clear()
        got = _SPELLING_GLYPHS[key] = (table, sprites)   # the sprites held: their id stays theirs
    return got[0]


class CharColumn:
    """The character column: each unit's character on its first cell (a wide glyph
    spreads over the unit's later cells), problems as a flagged U+FFFD, codes no font
    draws in a thin frame, and a quiet dot on the later bytes no glyph covers."""

    def __init__(self, view):
        self.view = view
        self._plans: dict = {}
        self._plans_for = None

    def plan(self, sprites, kind: str, value) -> tuple:
        """What the character cell of a unit of ``kind`` and ``value`` shows: (PLAIN,
        code point) from the main font's run, (SINGLE, text, cells) through a text
        layout, (COMPACT, text) in a frame, or (BLANK,)."""
        if self._plans_for is not sprites or len(self._plans) > sprites.MAX_PICTURES:
            self._plans, self._plans_for = {}, sprites
        key = (kind, value)
        got = self._plans.get(key)
        if got is None:
            got = self._plans[key] = self._make_plan(sprites, kind, value)
        return got

    @staticmethod
    def _sequence_keys(page, here, problem, keys) -> list:
        """Units that decode to several code points (Big5-HKSCS, JIS X 0213: a letter and
        its mark) get keys of their own, -2 and below, in ``keys``; the texts they stand
        for, by key."""
        more = page.cut.more
        if more is None:
            return []
        texts: dict = {}
        for j, (rest, value) in enumerate(zip(more[here].tolist(), page.value[here].tolist())):
            if rest and not problem[j]:
                text = "".join(map(chr, (value, *rest)))
                keys[j] = -2 - texts.setdefault(text, len(texts))
        return list(texts)

    def sequence_plan(self, sprites, text: str) -> tuple:
        """The character cell of a unit that is several code points: the whole sequence
        through the fallback fonts (a letter with its combining mark), or the first code
        point's plan when no font draws the sequence."""
        if not sprites.coverage.can_draw(text):
            return self.plan(sprites, K.VALID, ord(text[0]))
        return (SINGLE, text, sprites.glyph_cells(text))

    @staticmethod
    def _make_plan(sprites, kind: str, value) -> tuple:
        u = _Probe(kind, value)
        text, how = style.glyph_for(u, False)
        if kind != K.VALID:
            return (PLAIN, ord(style.REPLACEMENT)) if sprites.is_cell_glyph(style.REPLACEMENT) \
                else (SINGLE, style.REPLACEMENT, sprites.glyph_cells(style.REPLACEMENT))
        if how == style.GLYPH and text != " " and not sprites.coverage.can_draw(text):
            text, how = f"{value:04X}", style.CODEPOINT
        if how in (style.INVISIBLE, style.CODEPOINT) or (
                how == style.CONTROL_PICTURE and len(text) > 1):
            return (COMPACT, text[2:] if text.startswith("U+") else text)
        if text != " " and sprites.is_cell_glyph(text):
            return (PLAIN, ord(text))
        if text != " ":
            return (SINGLE, text, sprites.glyph_cells(text))
        return (BLANK,)

    def paint(self, p: QPainter, pal, look: PageLook | None, start: int, data: bytes,
              grid) -> None:
        if look is None:
            return
        view = self.view
        sprites = view.sprites
        lay = view.layout_
        n = lay.bytes_per_row
        size = len(data)
        page = look.page
        shades = look.shades
        shade_of_byte = look.shade_of_byte
        rel = page.offset - start
        here = np.flatnonzero((rel >= 0) & (rel < size))
        at = rel[here]                        # each unit's first cell
        length = page.length[here]
        problem = page.kind[here] != 0
        # One plan per distinct code point (problems share one), turned into arrays.
        keys = np.where(problem, -1, page.value[here])
        sequences = self._sequence_keys(page, here, problem, keys)
        distinct, which = np.unique(keys, return_inverse=True)
        which = which.reshape(-1)
        plans = [self.plan(sprites, K.TRUNCATED, None) if v == -1
                 else self.sequence_plan(sprites, sequences[-2 - v]) if v < -1
                 else self.plan(sprites, K.VALID, v) for v in distinct.tolist()]
        sprites.shape([pl[1] for pl in plans if pl[0] == SINGLE])
        count = len(plans)
        font_of = np.zeros(count, dtype=np.int64)    # a glyph alone on its pen: its font,
        glyph_of = np.zeros(count, dtype=np.int64)   # and glyph (0: drawn otherwise)
        span_of = np.ones(count, dtype=np.int64)     # cells its glyph covers
        other = np.zeros(count, dtype=bool)          # several glyphs, or moved off the pen
        compact = np.zeros(count, dtype=bool)
        for d, pl in enumerate(plans):
            how = pl[0]
            if how == PLAIN:
                glyph_of[d] = sprites.glyph(pl[1])
            elif how == SINGLE:
                span_of[d] = pl[2]
                pieces = sprites.shaped(pl[1])
                if len(pieces) == 1 and pieces[0][2:] == (0.0, 0.0):
                    font_of[d], glyph_of[d] = pieces[0][0], pieces[0][1]
                else:
                    other[d] = True
            elif how == COMPACT:
                span_of[d] = 1 << 30
                compact[d] = True
        covered = page.offset + 1   # later cells up to here are under the unit's glyph
        covered[here] = page.offset[here] + np.minimum(length, span_of[which])
        dots = page.uncovered(covered)
        chars = grid.chars.reshape(-1)
        # Glyphs alone on their cell's pen: one run per font and shade; the
        # continuation dots one muted run.
        glyph = glyph_of[which]
        drawn = np.flatnonzero(glyph > 0)
        cells = at[drawn]
        shade = shade_of_byte[cells]
        fonts = sprites.fonts
        for key, sel in _by(font_of[which[drawn]] * len(shades) + shade):
            font, s = divmod(key, len(shades))
            draw_glyphs(p, fonts[font], shades[s], glyph[drawn[sel]].tolist(),
                        chars[cells[sel]].tolist())
        if len(dots):
            g = sprites.glyph(ord(style.CONTINUATION_MARK))
            draw_glyphs(p, sprites.raw, pal.color("muted_text"), [g] * len(dots), chars[dots].tolist())
        # Characters drawn as several glyphs (a mark on a dotted circle) or off the pen.
        odd = np.flatnonzero(other[which])
        if len(odd):
            runs: dict = {}
            for i, d in zip(at[odd].tolist(), which[odd].tolist()):
                pen = chars[i]
                s = int(shade_of_byte[i])
                for font, g, dx, dy in sprites.shaped(plans[d][1]):
                    got = runs.setdefault((font, s), ([], []))
                    got[0].append(g)
                    got[1].append(QPointF(pen.x() + dx, pen.y() + dy))
            for (font, s), (gs, pts) in runs.items():
                draw_glyphs(p, fonts[font], shades[s], gs, pts)
        # Flags of problems: one path per shade.
        flags = at[problem]
        if len(flags):
            polys = grid.flags.reshape(-1)
            p.setPen(Qt.PenStyle.NoPen)
            for s, sel in _by(shade_of_byte[flags]):
                path = QPainterPath()
                for poly in polys[flags[sel]].tolist():
                    path.addPolygon(poly)
                p.fillPath(path, shades[s])
        # Codes in a frame (U+XXXX, a C1 control's name): rare, a kept picture each.
        framed = np.flatnonzero(compact[which])
        for i, d, ln in zip(at[framed].tolist(), which[framed].tolist(), length[framed].tolist()):
            last = min(i % n + ln, n) - 1
            x0 = lay.char_x(i % n)
            p.drawPixmap(x0, (i // n) * sprites.lh,
                         sprites.compact(plans[d][1], shades[int(shade_of_byte[i])],
                                         lay.char_x(last + 1) - x0))


class _Probe:
    """The two fields of a unit that ``style.glyph_for`` reads."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value):
        self.kind = kind
        self.value = value


def paint_offsets(p: QPainter, view, pal, top: int, rows: int, grid) -> None:
    """The offset column's digits: one glyph run for the page."""
    if rows <= 0:
        return
    lay = view.layout_
    sprites = view.sprites
    text = "".join(lay.format_offset(lay.row_start(top + r)) for r in range(rows))
    codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int64)
    glyphs = sprites.ascii_glyphs[codes]
    pts = grid.offsets[:rows].reshape(-1)
    keep = glyphs > 0
    draw_glyphs(p, sprites.raw, pal.color("offset_text"), glyphs[keep].tolist(), pts[keep].tolist())
