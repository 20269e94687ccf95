"""The hex view's columns, each drawn a page at a time: offsets, byte cells, characters.

The number of calls from Python decides a page's time, so nothing here makes a call per
cell or glyph. Fills and box edges are rectangles from numpy arrays, one ``drawRects``
per colour (:mod:`~inspector.gui.look.paintarrays`). Everything else on the page (a
byte's spelling in its colour, a character, a problem's mark and flag, the dot on a
later byte, the offsets' digits) is a tile of the view's
:class:`~inspector.gui.look.tileatlas.TileAtlas`, looked up per page in numpy tables and
gathered in a :class:`~inspector.gui.look.tileatlas.TileBatch` that the painter draws in
one call. A tile is drawn the first time it is met: characters the main font lacks (CJK,
emoji, most scripts, control pictures) from the glyphs Qt shaped once
(:meth:`~inspector.gui.panes.hexsprites.HexSprites.shape`, fallback font picked in C++).
Units come as arrays (:class:`~inspector.gui.panes.hexunits.PageUnits`, from the page
cut) and may be of any length: nothing here reads UTF-8's byte patterns.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QBrush, QColor, QPainter

from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.look.paintarrays import draw_rectfs, draw_rects, lines_as_rects
from inspector.gui.look.tileatlas import NONE
from inspector.gui.panes.hexlayout import spelling_table
from inspector.gui.panes.hexunits import PageUnits

# What a character cell shows (see CharColumn.plan).
PLAIN, COMPACT, SINGLE, BLANK = range(4)
# A character cell's tile that is no tile of the atlas: a framed code, drawn apart.
FRAMED = -3
UNKNOWN = -2   # in the lookup tables: not drawn yet


def _distinct(a: np.ndarray) -> np.ndarray:
    """The distinct values of ``a``, sorted. (``np.unique`` without its optional outputs
    imports numpy.ma, 40 ms, on first use.)"""
    a = np.sort(a, axis=None)
    return a[np.r_[True, a[1:] != a[:-1]]] if len(a) else a


def _groups(keys: np.ndarray):
    """(key, indices) for each distinct key, in key order."""
    if not len(keys):
        return
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    for a, b in zip(np.concatenate(([0], cuts)).tolist(), np.concatenate((cuts, [len(keys)])).tolist()):
        yield int(ordered[a]), order[a:b]


def _over(color: QColor, background: QColor) -> QColor:
    """``color`` laid on ``background``, as one opaque colour (an opaque fill is
    drawn several times faster than a translucent one)."""
    a = color.alphaF()
    if a >= 1.0:
        return color
    mix = QColor()
    mix.setRgbF(*(x * a + y * (1 - a) for x, y in zip(color.getRgbF()[:3], background.getRgbF()[:3])))
    return mix


class PageLook:
    """How the units of a page look: per colour group its main and quiet colours, fill,
    outline colour and mark; per byte its shade (index into ``shades``)."""

    def __init__(self, pal, sprites, page: PageUnits, origin, cache: dict):
        self.page = page
        muted = pal.color("muted_text")
        background = pal.color("background")
        count = len(page.groups)
        self.main: list[QColor] = []
        self.fills: list[QColor] = []
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
                entry = cache[key] = (main, quiet, _over(fill, background), style.mark_for(u),
                                      role != style.ASCII or warn)
            main, quiet, fill, mark, box = entry
            self.main.append(main)
            self.fills.append(fill)
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
        self._spell: dict = {}       # colour -> [byte] spelling tile
        self._spell_for = None

    def paint(self, p: QPainter, pal, look: PageLook | None, start: int, data: bytes,
              top: int, grid, batch) -> None:
        """Fills, bands and outlines now; the spellings and marks into ``batch``."""
        view = self.view
        lay = view.layout_
        sprites = view.sprites
        n = lay.bytes_per_row
        rows = -(-len(data) // n)
        last_row = top + max(1, rows) - 1
        pieces = None
        if look is not None:
            pieces = look.page.pieces(look.boxed, rows)
            self._fills(p, look, grid)
        self._bands(p, pal, start, start + len(data), top, last_row, lay, sprites.cw // 2,
                    lay.cell_w, sprites.lh)
        if look is not None:
            self._outlines(p, look, pieces, lay, sprites.cw, sprites.lh)
        b = np.frombuffer(data, dtype=np.uint8)
        if look is None:
            colors, shade = [pal.color("text")], np.zeros(len(b), dtype=np.int64)
        else:
            colors, shade = look.shades, look.shade_of_byte
        tiles = self._spelling_tiles(sprites, lay, colors, shade, b)
        batch.place(tiles, grid.cell_x[:len(b)], grid.pen_y[:len(b)])
        if look is not None:
            self._marks(look, pieces, grid, batch)

    def _spelling_tiles(self, sprites, lay, colors, shade, b) -> np.ndarray:
        """Per byte: the tile of its spelling in its shade (drawn when first met)."""
        atlas = sprites.atlas
        key = (id(atlas), atlas.generation, lay.byte_format)
        if self._spell_for != key:
            self._spell, self._spell_for = {}, key
        tables = [self._spell.setdefault(c.rgba(), np.full(256, UNKNOWN, dtype=np.int64))
                  for c in colors]
        tiles = np.stack(tables)[shade, b]
        missing = np.flatnonzero(tiles == UNKNOWN)
        if len(missing):
            pairs = _distinct(shade[missing] * 256 + b[missing]).tolist()
            spell = spelling_table(lay.byte_format)
            cw, half = sprites.cw, sprites.cw // 2
            new = []
            for pair in pairs:
                s, byte = divmod(pair, 256)
                text = spell[byte]
                at = [i for i, ch in enumerate(text) if ch != " "]
                glyphs = [int(sprites.ascii_glyphs[ord(text[i])]) for i in at]
                new.append((("spell", text, colors[s].rgba()),
                            [("glyphs", sprites.raw, colors[s], glyphs, [i * cw for i in at],
                              [0] * len(at))]))
            box = (-half, -sprites.base_y, lay.cell_w + half, sprites.lh - sprites.base_y)
            for pair, tile in zip(pairs, atlas.add(new, box)):
                s, byte = divmod(pair, 256)
                tables[s][byte] = tile
            tiles = np.stack(tables)[shade, b]
        return tiles

    def _fills(self, p, look: PageLook, grid) -> None:
        """Unit fills: a cell's fill, with the gap to its neighbour filled too where both
        have one fill colour (a run of NULs is one fill), in both columns; one drawRects
        per colour."""
        page = look.page
        size = page.size
        n = page.n
        unit = page.byte_unit
        slot = page.slot[unit]
        # One number per distinct fill colour (groups may share one).
        rgba = np.array([f.rgba() for f in look.fills], dtype=np.int64)
        _, first, fill_of_slot = np.unique(rgba, return_index=True, return_inverse=True)
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
        rects = np.concatenate((grid.fill[filled], grid.char[filled], grid.gap[gaps],
                                grid.left[left // n], grid.right[right // n]))
        colour = np.concatenate((fill[filled], fill[filled], fill[gaps], fill[left], fill[right]))
        p.setPen(Qt.PenStyle.NoPen)
        for k, at in _groups(colour):
            p.setBrush(look.fills[int(first[k])])
            draw_rects(p, rects[at])
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

    def _outlines(self, p, look: PageLook, pieces, lay, cw: int, lh: int) -> None:
        """Box outlines, open on the side where a unit goes on in another row: each edge a
        one-pixel rectangle, one drawRects per colour."""
        unit, row, c0, c1, ol, orr = pieces
        if not len(unit):
            return
        slot = look.page.slot[unit]
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
        # Both horizontal edges, and the vertical ones of the closed sides: the pixels a
        # one-pixel pen covers, as filled rectangles (whole pixels at scale 1, where
        # integer rectangles draw three times as fast).
        ends = [np.concatenate(e) for e in ((x0, x0, x0[~ol], x1[~orr]), (y0, y1, y0[~ol], y0[~orr]),
                                            (x1, x1, x0[~ol], x1[~orr]), (y0, y1, y1[~ol], y1[~orr]))]
        whole = self.view.devicePixelRatioF() == 1
        edges = np.stack(ends, axis=1) if whole else lines_as_rects(*ends)
        draw = draw_rects if whole else draw_rectfs
        colour = np.concatenate((slot, slot, slot[~ol], slot[~orr]))
        p.setPen(Qt.PenStyle.NoPen)
        for k, at in _groups(colour):
            p.setBrush(look.main[k])
            draw(p, edges[at])
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _marks(self, look: PageLook, pieces, grid, batch) -> None:
        """A letter per problem kind, small, at the top right of the unit's first cell."""
        unit, row, c0, c1, ol, orr = pieces
        if not len(unit):
            return
        slot = look.page.slot[unit]
        tile_of_slot = np.full(len(look.marks), NONE, dtype=np.int64)
        sprites = self.view.sprites
        atlas = sprites.atlas
        new = []
        for k, mark in enumerate(look.marks):
            if mark:
                key = ("mark", mark, look.main[k].rgba())
                tile = atlas.get(key)
                if tile is None:
                    new.append((k, key, mark))
                else:
                    tile_of_slot[k] = tile
        if new:
            dx = self.view.layout_.cell_w - 2
            dy = sprites.mark_ascent - sprites.base_y
            made = []
            for k, key, mark in new:
                glyphs, xs = sprites.mark_glyphs(mark)
                made.append((key, [("glyphs", sprites.mark_raw, look.main[k], glyphs,
                                    [dx + x for x in xs], [dy] * len(glyphs))]))
            for (k, _, _), tile in zip(new, atlas.add(made)):
                tile_of_slot[k] = tile
        at = np.flatnonzero(~ol & (tile_of_slot[slot] >= 0))
        if len(at):
            i = row[at] * look.page.n + c0[at]
            batch.place(tile_of_slot[slot[at]], grid.cell_x[i], grid.pen_y[i])


class CharColumn:
    """The character column: each unit's character on its first cell (a wide glyph
    spreads over the unit's later cells), problems as a flagged U+FFFD, codes no font
    draws in a thin frame, and a quiet dot on the later bytes no glyph covers."""

    # Colours per atlas generation are numbered below this (part of a lookup key).
    COLOURS = 1024

    def __init__(self, view):
        self.view = view
        self._plans: dict = {}
        self._plans_for = None
        self._table_for = None
        self._reset_table()

    def _reset_table(self) -> None:
        # Sorted keys ((code point + 1) * COLOURS + colour number; 0 for a problem) and
        # their tiles and spans (the cells a character's glyph covers).
        self._keys = np.zeros(0, dtype=np.int64)
        self._tiles = np.zeros(0, dtype=np.int64)
        self._spans = np.zeros(0, dtype=np.int64)
        self._colour_ids: dict[int, int] = {}
        self._colours: list[QColor] = []

    def plan(self, sprites, kind: str, value) -> tuple:
        """What the character cell of a unit of ``kind`` and ``value`` shows: (PLAIN,
        code point) from the main font, (SINGLE, text, cells) from the glyphs Qt shaped,
        (COMPACT, text) in a frame, or (BLANK,)."""
        if self._plans_for is not sprites or len(self._plans) > sprites.MAX_PICTURES:
            self._plans, self._plans_for = {}, sprites
        key = (kind, value)
        got = self._plans.get(key)
        if got is None:
            got = self._plans[key] = self._make_plan(sprites, kind, value)
        return got

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

    @staticmethod
    def _tile(sprites, plan: tuple, color: QColor) -> tuple[list, tuple | None]:
        """A plan's drawing as tile parts from its pen, and where its ink lies (None:
        to be measured)."""
        pieces = ((0, sprites.glyph(plan[1]), 0.0, 0.0),) if plan[0] == PLAIN \
            else sprites.shaped(plan[1])
        return ([("glyphs", sprites.fonts[font], color, [g], [dx], [dy])
                 for font, g, dx, dy in pieces], sprites.ink_box(pieces))

    def _tiles_for(self, sprites, plans: list, colors: list[QColor]) -> list[tuple[int, int]]:
        """(tile, span) of each plan in its colour: framed codes and blanks are no tile;
        characters through other fonts are shaped first, all in one layout."""
        sprites.shape([pl[1] for pl in plans if pl[0] == SINGLE])
        out: list = [None] * len(plans)
        new, boxes, where = [], [], []
        atlas = sprites.atlas
        for i, (pl, color) in enumerate(zip(plans, colors)):
            if pl[0] == COMPACT:
                out[i] = (FRAMED, 1 << 30)
            elif pl[0] == BLANK:
                out[i] = (NONE, 1)
            else:
                span = pl[2] if pl[0] == SINGLE else 1
                key = ("char", pl[1], color.rgba())
                tile = atlas.get(key)
                if tile is None:
                    parts, box = self._tile(sprites, pl, color)
                    new.append((key, parts))
                    boxes.append(box)
                    where.append((i, span))
                else:
                    out[i] = (tile, span)
        for (i, span), tile in zip(where, atlas.add(new, boxes)):
            out[i] = (tile, span)
        return out

    def _colour_id(self, color: QColor) -> int:
        rgba = color.rgba()
        got = self._colour_ids.get(rgba)
        if got is None:
            if len(self._colours) >= self.COLOURS:
                self._reset_table()
            got = self._colour_ids[rgba] = len(self._colours)
            self._colours.append(color)
        return got

    def _sync(self, atlas) -> None:
        """Forget the tiles of another atlas, or of an atlas that started again."""
        if self._table_for != (id(atlas), atlas.generation):
            self._reset_table()
            self._table_for = (id(atlas), atlas.generation)

    def _lookup(self, sprites, cps: np.ndarray, cids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The tile and span of each (code point, colour number); -1 a problem's U+FFFD.
        Looked up in sorted arrays; the pairs not met before are planned and drawn."""
        atlas = sprites.atlas
        keys = (cps + 1) * self.COLOURS + cids
        pos = np.minimum(np.searchsorted(self._keys, keys), max(0, len(self._keys) - 1))
        hit = self._keys[pos] == keys if len(self._keys) else np.zeros(len(keys), dtype=bool)
        if not hit.all():
            new = _distinct(keys[~hit])
            plans, colors = [], []
            for k in new.tolist():
                cp, cid = divmod(k, self.COLOURS)
                plans.append(self.plan(sprites, K.TRUNCATED, None) if cp == 0
                             else self.plan(sprites, K.VALID, cp - 1))
                colors.append(self._colours[cid])
            made = self._tiles_for(sprites, plans, colors)
            if self._table_for != (id(atlas), atlas.generation):
                # The atlas started again: this page is drawn again (TileBatch.void).
                return np.full(len(keys), NONE), np.ones(len(keys), dtype=np.int64)
            keys_all = np.concatenate((self._keys, new))
            order = np.argsort(keys_all, kind="stable")
            self._keys = keys_all[order]
            self._tiles = np.concatenate((self._tiles, [t for t, _ in made]))[order]
            self._spans = np.concatenate((self._spans, [s for _, s in made]))[order]
            pos = np.searchsorted(self._keys, keys)
        return self._tiles[pos], self._spans[pos]

    def paint(self, p: QPainter, pal, look: PageLook | None, start: int, data: bytes,
              grid, batch) -> None:
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
        shade = shade_of_byte[at]
        cps = np.where(problem, -1, page.value[here])
        sequences = self._sequences(page, here, problem)
        self._sync(sprites.atlas)
        cid_of_shade = np.array([self._colour_id(c) for c in shades], dtype=np.int64)
        tiles, spans = self._lookup(sprites, cps, cid_of_shade[shade])
        if sequences:
            tiles, spans = tiles.copy(), spans.copy()
            plans = [self.sequence_plan(sprites, text) for _, text in sequences]
            made = self._tiles_for(sprites, plans, [shades[int(shade[j])] for j, _ in sequences])
            for (j, _), (tile, span) in zip(sequences, made):
                tiles[j], spans[j] = tile, span
        covered = page.offset + 1   # later cells up to here are under the unit's glyph
        covered[here] = page.offset[here] + np.minimum(length, spans)
        dots = page.uncovered(covered)
        shown = tiles >= 0
        cells = at[shown]
        batch.place(tiles[shown], grid.char_x[cells], grid.pen_y[cells])
        atlas = sprites.atlas
        if len(dots):
            muted = pal.color("muted_text")
            key = ("char", style.CONTINUATION_MARK, muted.rgba())
            dot = atlas.get(key)
            if dot is None:
                parts, box = self._tile(sprites, (PLAIN, ord(style.CONTINUATION_MARK)), muted)
                dot = atlas.add([(key, parts)], box)[0]
            batch.place(np.full(len(dots), dot), grid.char_x[dots], grid.pen_y[dots])
        # Flags of problems: a small triangle in the top right corner of the character
        # cell (it reads without colour).
        flags = at[problem]
        if len(flags):
            flag_shades = shade_of_byte[flags]
            tile_of_shade = np.full(len(shades), NONE, dtype=np.int64)
            cw, top = sprites.cw, -sprites.base_y
            triangle = [(cw - 4, top + 1), (cw + 1, top + 1), (cw + 1, top + 6)]
            for s in _distinct(flag_shades).tolist():
                key = ("flag", shades[s].rgba())
                tile = atlas.get(key)
                if tile is None:
                    tile = atlas.add([(key, [("polygon", shades[s], triangle)])],
                                     (cw - 5, top, cw + 2, top + 7))[0]
                tile_of_shade[s] = tile
            batch.place(tile_of_shade[flag_shades], grid.char_x[flags], grid.pen_y[flags])
        # Codes in a frame (U+XXXX, a C1 control's name): rare, a kept picture each.
        framed = np.flatnonzero(tiles == FRAMED)
        for j in framed.tolist():
            i, ln = int(at[j]), int(length[j])
            text = self._framed_text(sprites, int(cps[j]), sequences, j)
            last = min(i % n + ln, n) - 1
            x0 = lay.char_x(i % n)
            p.drawPixmap(x0, (i // n) * sprites.lh,
                         sprites.compact(text, shades[int(shade[j])], lay.char_x(last + 1) - x0))

    def _framed_text(self, sprites, cp: int, sequences, j: int) -> str:
        """The code in the frame of unit ``j`` (a sequence's first code point's)."""
        for k, text in sequences:
            if k == j:
                return self.sequence_plan(sprites, text)[1]
        return self.plan(sprites, K.VALID, cp)[1]

    @staticmethod
    def _sequences(page, here, problem) -> list[tuple[int, str]]:
        """Units that decode to several code points (Big5-HKSCS, JIS X 0213: a letter
        and its mark): (index among ``here``, the text they stand for)."""
        more = page.cut.more
        if more is None:
            return []
        out = []
        for j, (rest, value) in enumerate(zip(more[here].tolist(), page.value[here].tolist())):
            if rest and not problem[j]:
                out.append((j, "".join(map(chr, (value, *rest)))))
        return out


class _Probe:
    """The two fields of a unit that ``style.glyph_for`` reads."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value):
        self.kind = kind
        self.value = value


class OffsetColumn:
    """The offset column's digits: a tile per character, placed for the whole page."""

    def __init__(self, view):
        self.view = view
        self._table = None
        self._table_for = None

    def paint(self, pal, top: int, rows: int, grid, batch) -> None:
        if rows <= 0:
            return
        view = self.view
        lay = view.layout_
        sprites = view.sprites
        color = pal.color("offset_text")
        atlas = sprites.atlas
        key = (id(atlas), atlas.generation, color.rgba())
        if self._table_for != key:
            self._table, self._table_for = np.full(128, UNKNOWN, dtype=np.int64), key
            self._table[0x20] = NONE     # decimal offsets are padded with spaces
        text = "".join(lay.format_offset(lay.row_start(top + r)) for r in range(rows))
        codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        table = self._table
        missing = _distinct(codes[table[codes] == UNKNOWN]).tolist()
        if missing:
            cw, half = sprites.cw, sprites.cw // 2
            new = [(("spell", chr(c), color.rgba()),
                    [("glyphs", sprites.raw, color, [int(sprites.ascii_glyphs[c])], [0], [0])])
                   for c in missing]
            box = (-half, -sprites.base_y, cw + half, sprites.lh - sprites.base_y)
            table[missing] = atlas.add(new, box)
        chars = lay.offset_chars
        batch.place(table[codes], np.tile(grid.offset_x, rows),
                    np.repeat(grid.row_y[:rows], chars))
