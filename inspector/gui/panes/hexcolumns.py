"""The hex view's columns, each drawn by runs: offsets, byte cells, characters.

Every column paints a whole page from arrays, with a few calls per colour rather than
one per cell (the number of calls from Python decides a page's time): a colour's glyphs
are one ``QGlyphRun`` (glyph indexes and positions picked by numpy from
:class:`~inspector.gui.panes.hexsprites.HexSprites` and
:class:`~inspector.gui.panes.hexsprites.HexGrid`), fills and box outlines one
``drawRects``/``drawLines`` per colour, problem flags one path per colour. Characters
the main font lacks (CJK, emoji, most scripts) are one ``QTextLayout`` per colour, a
line per character placed on its cell, so Qt shapes them and picks their fallback font
in C++. Units come as arrays (:class:`~inspector.gui.panes.hexunits.PageUnits`, from
the page cut) and may be of any length: nothing here reads UTF-8's byte patterns.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLine, QPointF, QRect, Qt
from PySide6.QtGui import (QBrush, QColor, QGlyphRun, QPainter, QPainterPath, QPen, QTextLayout,
                           QTextOption)

from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes.hexlayout import spelling_table
from inspector.gui.panes.hexunits import PageUnits

# What a character cell shows (see CharColumn.plan).
PLAIN, COMPACT, SINGLE, BLANK = range(4)
_BIG = 1e6   # a text line's width: never wrapped


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


def draw_texts(p: QPainter, font, color: QColor, texts: list[str], xs: list, baselines: list,
               widths: dict | None = None) -> None:
    """Short texts (a character each) in ``font`` and ``color``, each starting at its x on
    its baseline: one ``QTextLayout`` with a line per text, so shaping and the choice of
    fallback font happen in C++. Texts are separated by line separators (a text never
    joins the next into one cluster). ``widths``, when given, gets each text's drawn
    width."""
    if not texts:
        return
    layout = QTextLayout("\u2028".join(texts), font)
    option = QTextOption()
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    for text, x, base in zip(texts, xs, baselines):
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(_BIG)
        line.setPosition(QPointF(x, base - line.ascent()))
        if widths is not None:
            widths[text] = line.naturalTextWidth()
    layout.endLayout()
    p.setPen(color)
    layout.draw(p, QPointF(0, 0))


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

    def _cell_rects(self, kind: str, lay, rows: int, cw: int, lh: int) -> np.ndarray:
        """[row, column]: the rectangle of one unit alone in its cell (``fill`` in the
        hex cells, ``char`` in the characters, ``box`` its outline), made once per
        geometry: on a page of random bytes most pieces are one cell."""
        n = lay.bytes_per_row
        key = (kind, n, lay.cell_w, lay.cells_end_chars, cw, lh, rows,
               tuple(lay.cell_x(c) for c in (0, n - 1)), lay.char_x(0), lay.char_x(n))
        got = self._one_cell.get(key)
        if got is None:
            half, cell_w = cw // 2, lay.cell_w
            xs = [lay.cell_x(c) for c in range(n)]
            cs = [lay.char_x(c) for c in range(n + 1)]
            if kind == "fill":
                def make(r, c):
                    return QRect(xs[c] - half + 1, r * lh + 1, cell_w + 2 * half - 2, lh - 2)
            elif kind == "char":
                def make(r, c):
                    return QRect(cs[c], r * lh + 1, cs[c + 1] - cs[c], lh - 2)
            else:
                def make(r, c):
                    return QRect(xs[c] - half + 1, r * lh + 1, cell_w + 2 * half - 3, lh - 3)
            got = np.empty((rows, n), dtype=object)
            got.reshape(-1)[:] = [make(r, c) for r in range(rows) for c in range(n)]
            if len(self._one_cell) > 12:
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
        """Unit fills: neighbours on a row in one fill colour are one rectangle (a run of
        NULs is one fill), in both columns; one drawRects per colour."""
        page = look.page
        unit, row, c0, c1, ol, orr = page.pieces(look.boxed, rows)
        self._pieces = (unit, row, c0, c1, ol, orr)
        if not len(unit):
            return
        slot = page.slot[unit]
        fill_id = np.array([id(f) for f in look.fills], dtype=np.int64)[slot]
        joins = np.zeros(len(unit), dtype=bool)
        joins[1:] = ((row[1:] == row[:-1]) & (c0[1:] == c1[:-1] + 1)
                     & (fill_id[1:] == fill_id[:-1]) & ~orr[:-1] & ~ol[1:])
        heads = np.flatnonzero(~joins)
        tails = np.append(heads[1:], len(unit)) - 1
        half, cell_w = cw // 2, lay.cell_w
        cell_xs = np.array([lay.cell_x(c) for c in range(lay.bytes_per_row)], dtype=np.int64)
        char_xs = np.array([lay.char_x(c) for c in range(lay.bytes_per_row + 1)], dtype=np.int64)
        r, a, z = row[heads], c0[heads], c1[tails]
        x0 = np.where(ol[heads], cell_xs[0] - cw, cell_xs[a] - half + 1)
        x1 = np.where(orr[tails], lay.cells_end_chars * cw + cw, cell_xs[z] + cell_w + half - 1)
        y = r * lh + 1
        h = np.full(len(r), lh - 2)
        # One-cell pieces from the kept rectangles, the others made here.
        alone = (a == z) & ~ol[heads] & ~orr[tails]
        other = np.flatnonzero(~alone)
        hex_rects = self._cell_rects("fill", lay, rows, cw, lh)[r, a]
        char_rects = self._cell_rects("char", lay, rows, cw, lh)[r, a]
        if len(other):
            hex_rects[other] = _rects(x0[other], y[other], (x1 - x0)[other], h[other])
            char_rects[other] = _rects(char_xs[a[other]], y[other],
                                       (char_xs[z + 1] - char_xs[a])[other], h[other])
        hex_rects = hex_rects.tolist()
        char_rects = char_rects.tolist()
        p.setPen(Qt.PenStyle.NoPen)
        for k, at in _by(slot[heads]):
            items = at.tolist()
            p.setBrush(look.fills[k])
            p.drawRects([hex_rects[i] for i in items] + [char_rects[i] for i in items])
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
                one = shut[c0[shut] == c1[shut]]
                more = shut[c0[shut] != c1[shut]]
                rects = boxes[row[one], c0[one]].tolist() if len(one) else []
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
        lh = sprites.lh
        n = lay.bytes_per_row
        size = len(data)
        page = look.page
        shades = look.shades
        shade_of_byte = look.shade_of_byte
        rel = page.offset - start
        here = np.flatnonzero((rel >= 0) & (rel < size))
        covered = page.offset + 1   # later cells up to here are under the unit's glyph
        cell_cp = np.full(size, -1, dtype=np.int64)   # per cell: a main-font code point
        flagged = np.zeros(size, dtype=bool)
        singles: list = []     # (cell, text, shade)
        compacts: list = []    # (cell, last column, text, shade)
        kind, value = page.kind[here], page.value[here]
        # Printable ASCII and problems on arrays; the other units one plan per distinct
        # (kind, value).
        ascii_ = (kind == 0) & ~page.warned[here] & (value >= 0x21) & (value < 0x7F)
        at = rel[here[ascii_]]
        cell_cp[at] = value[ascii_]
        problems = here[kind != 0]
        if len(problems):
            plan = self.plan(sprites, K.TRUNCATED, None)
            at = rel[problems]
            flagged[at] = True
            if plan[0] == PLAIN:
                cell_cp[at] = plan[1]
            else:
                singles += [(i, plan[1], s) for i, s in zip(at.tolist(), shade_of_byte[at].tolist())]
                covered[problems] = page.offset[problems] + np.minimum(page.length[problems], plan[2])
        rest = here[(kind == 0) & ~ascii_]
        if len(rest):
            for j, i, v in zip(rest.tolist(), rel[rest].tolist(), page.value[rest].tolist()):
                plan = self.plan(sprites, K.VALID, v)
                how = plan[0]
                if how == PLAIN:
                    cell_cp[i] = plan[1]
                elif how == SINGLE:
                    singles.append((i, plan[1], int(shade_of_byte[i])))
                    covered[j] = page.offset[j] + min(int(page.length[j]), plan[2])
                elif how == COMPACT:
                    length = int(page.length[j])
                    last = min(i % n + length, n) - 1
                    compacts.append((i, last, plan[1], int(shade_of_byte[i])))
                    covered[j] = page.offset[j] + length
        dots = page.uncovered(covered)
        chars = grid.chars.reshape(-1)
        # Main-font glyphs: one run per shade; the continuation dots one muted run.
        cells = np.flatnonzero(cell_cp >= 0)
        glyphs = sprites.glyphs_of(cell_cp[cells])
        for shade, sel in _by(shade_of_byte[cells]):
            draw_glyphs(p, sprites.raw, shades[shade], glyphs[sel].tolist(), chars[cells[sel]].tolist())
        if len(dots):
            g = sprites.glyph(ord(style.CONTINUATION_MARK))
            draw_glyphs(p, sprites.raw, pal.color("muted_text"), [g] * len(dots), chars[dots].tolist())
        # Flags of problems: one path per shade.
        flags = np.flatnonzero(flagged)
        if len(flags):
            polys = grid.flags.reshape(-1)
            p.setPen(Qt.PenStyle.NoPen)
            for shade, sel in _by(shade_of_byte[flags]):
                path = QPainterPath()
                for poly in polys[flags[sel]].tolist():
                    path.addPolygon(poly)
                p.fillPath(path, shades[shade])
        # Glyphs from other fonts: a kept picture for those met before (a page of
        # binary data shows the same control pictures hundreds of times), the others
        # one text layout per shade.
        if singles:
            x0 = lay.char_x(0)
            by_shade: dict = {}
            draw = p.drawPixmap
            picture = sprites.glyph_picture
            for i, text, s in singles:
                pm = picture(text, shades[s])
                if pm is not None:
                    draw(x0 + (i % n) * lay.char_w - 1, (i // n) * lh, pm)
                else:
                    by_shade.setdefault(s, []).append((i, text))
            for s, items in by_shade.items():
                draw_texts(p, sprites.font, shades[s], [t for _, t in items],
                           [x0 + (i % n) * lay.char_w for i, _ in items],
                           [(i // n) * lh + sprites.base_y for i, _ in items])
        for i, last, text, s in compacts:
            x0 = lay.char_x(i % n)
            p.drawPixmap(x0, (i // n) * lh, sprites.compact(text, shades[s], lay.char_x(last + 1) - x0))


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
