"""Small pictures in one pixmap: each drawn once, placed by the thousand.

A page of the hex view is mostly small pictures that repeat: a byte's spelling in a
colour, a character in a colour, a problem's mark or flag, the quiet dot on a later byte.
Each is drawn once into a :class:`TileAtlas` as a *tile*: its pixels, and where they sit
from a pen point (a cell's pen on the baseline). A page then places all of its tiles with
one ``drawPixmapFragments`` call from a numpy array (:class:`TileBatch`): no Python call
per glyph or cell, and Qt copies pixels instead of drawing glyphs.

A tile is drawn from *parts*, in logical pixels from its pen:

- ``("glyphs", raw_font, color, glyphs, xs, ys)``: glyphs of one raw font;
- ``("polygon", color, points)``: a filled polygon, points as (x, y) pairs.

A tile whose bounds are known (a byte's spelling in the main font, a glyph of a font that
may be asked its glyphs' bounds) is drawn straight into its place; any other (glyphs of a
font only Qt's shaping knows) is drawn on a scratch image first and its inked pixels
measured, so that a tile is only as big as its ink. Tiles are packed on shelves of equal height; the pixmap grows as needed
up to a limit, and then starts again empty (``generation`` counts the starts: an id from
an older generation means nothing).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QGlyphRun, QImage, QPainter, QPixmap, QPolygonF

from inspector.gui.look.paintarrays import FRAGMENT_FIELDS, draw_fragments

# Tile ids that are no picture: nothing to draw.
NONE = -1


class TileAtlas:
    """Tiles drawn at device pixel ratio ``ratio``."""

    WIDTH = 2048          # device pixels
    GROW = 256            # the pixmap grows by this many rows of device pixels
    MAX_HEIGHT = 4096     # and starts again empty beyond this (32 MiB at most)
    SHELF_STEP = 4        # tile heights are rounded up to this for their shelf

    def __init__(self, ratio: float, cell_w: float, line_h: float, base_y: float):
        self.ratio = ratio
        # A character cell's measures: the scratch cells of measured tiles are made
        # from them (see _add_measured).
        self._cell = (cell_w, line_h, base_y)
        self.generation = 0
        self.pixmap: QPixmap | None = None
        self._painter: QPainter | None = None
        self._start()

    def _start(self) -> None:
        self._end_canvas()
        self.generation += 1
        self._ids: dict = {}
        self._count = 0
        # Per tile: centre from the pen (logical x, y), source rectangle (device x, y, w, h).
        self._geom = np.zeros((256, 6), dtype=np.float64)
        self._shelves: dict[int, list[int]] = {}   # height -> [y, next x] of its open shelf
        self._bottom = 0
        self._height = 0
        self.pixmap = None

    def __len__(self) -> int:
        return self._count

    def get(self, key) -> int | None:
        return self._ids.get(key)

    # ------------------------------------------------------------------ adding
    def add(self, tiles, box=None) -> list[int]:
        """Draw ``tiles`` ((key, parts) pairs, keys not in the atlas) and return their
        ids. ``box`` (left, top, right, bottom from the pen, logical pixels): where every
        part's ink lies, for all the tiles or a list of one per tile; a tile without one
        is measured. When the atlas is full it starts again empty first (``generation``
        changes: ids taken before are void)."""
        if not tiles:
            return []
        boxes = box if isinstance(box, list) else [box] * len(tiles)
        ids: list = [None] * len(tiles)
        try:
            known = [i for i, b in enumerate(boxes) if b is not None]
            if known:
                for i, tile in zip(known, self._add_boxed([tiles[i] for i in known],
                                                          [boxes[i] for i in known])):
                    ids[i] = tile
            measured = [i for i, b in enumerate(boxes) if b is None]
            if measured:
                for i, tile in zip(measured, self._add_measured([tiles[i] for i in measured])):
                    ids[i] = tile
        finally:
            self._end_canvas()
        return ids

    def _add_boxed(self, tiles, boxes) -> list[int]:
        """Tiles whose ink lies in their boxes, drawn straight into their places."""
        r = self.ratio
        geom = []
        for b in boxes:
            left, top = math.floor(b[0] * r), math.floor(b[1] * r)
            geom.append((left, top, max(1, math.ceil(b[2] * r) - left),
                         max(1, math.ceil(b[3] * r) - top)))
        if not self._room_for([(w, h) for _, _, w, h in geom]):
            self._start()
        places = [self._place(w, h) for _, _, w, h in geom]
        self._draw_parts(self._canvas(), tiles,
                         [(sx - g[0], sy - g[1]) for (sx, sy), g in zip(places, geom)])
        return [self._record(key, sx, sy, *g) for (key, _), (sx, sy), g in zip(tiles, places, geom)]

    def _add_measured(self, tiles) -> list[int]:
        """Tiles drawn on a scratch image, one above the other in cells generous enough
        for any character (two cells before it, six after, a row above and below: what
        goes further is cut), then cut to their ink."""
        r = self.ratio
        cell_w, line_h, base_y = self._cell
        cell = max(4, round(cell_w * r))
        row = max(4, round(line_h * r))
        cw, ch = 8 * cell, 3 * row
        pen_x, pen_y = 2 * cell, row + round(base_y * r)
        cols = 1     # (side by side, a wide glyph ran into its neighbour's cell)
        rows = -(-len(tiles) // cols)
        img = QImage(cols * cw, rows * ch, QImage.Format.Format_ARGB32_Premultiplied)
        img.setDevicePixelRatio(r)
        img.fill(0)
        pens = [((i % cols) * cw + pen_x, (i // cols) * ch + pen_y) for i in range(len(tiles))]
        q = QPainter(img)
        try:
            self._draw_parts(q, tiles, pens)
        finally:
            q.end()
        alpha = np.frombuffer(img.constBits(), dtype=np.uint32).reshape(
            img.height(), img.bytesPerLine() // 4)[:, :cols * cw] >> 24
        ink = (alpha != 0).reshape(rows, ch, cols, cw)
        ys = ink.any(axis=3)              # [row, y, col]
        xs = ink.any(axis=1)              # [row, col, x]
        y0 = ys.argmax(axis=1)            # [row, col]
        y1 = ch - ys[:, ::-1, :].argmax(axis=1)
        x0 = xs.argmax(axis=2)
        x1 = cw - xs[:, :, ::-1].argmax(axis=2)
        inked = xs.any(axis=2)
        boxes = []
        for i in range(len(tiles)):
            a, b = divmod(i, cols)
            if inked[a, b]:
                boxes.append((int(x0[a, b]), int(y0[a, b]), int(x1[a, b]), int(y1[a, b])))
            else:
                boxes.append(None)
        size = [(bx[2] - bx[0], bx[3] - bx[1]) for bx in boxes if bx is not None]
        if not self._room_for(size):
            self._start()
        places = [None if bx is None else self._place(bx[2] - bx[0], bx[3] - bx[1])
                  for bx in boxes]
        target = self._canvas()
        target.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        ids = []
        for i, ((key, _), bx, place) in enumerate(zip(tiles, boxes, places)):
            if bx is None:
                ids.append(self._record(key, 0, 0, 0, 0, 0, 0))
                continue
            w, h = bx[2] - bx[0], bx[3] - bx[1]
            sx, sy = place
            cx, cy = (i % cols) * cw, (i // cols) * ch
            target.drawImage(QPointF(sx / r, sy / r), img, QRectF(cx + bx[0], cy + bx[1], w, h))
            ids.append(self._record(key, sx, sy, bx[0] - pen_x, bx[1] - pen_y, w, h))
        target.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        return ids

    def _record(self, key, sx, sy, left, top, w, h) -> int:
        """Keep a tile: its source rectangle and the offset of its top left from the pen
        (device pixels)."""
        i = self._count
        if i == len(self._geom):
            self._geom = np.concatenate((self._geom, np.zeros_like(self._geom)))
        r = self.ratio
        self._geom[i] = ((left + w / 2) / r, (top + h / 2) / r, sx, sy, w, h)
        self._ids[key] = i
        self._count += 1
        return i

    # ------------------------------------------------------------------ packing
    def _shelf_height(self, h: int) -> int:
        return -(-max(1, h) // self.SHELF_STEP) * self.SHELF_STEP

    def _room_for(self, sizes) -> bool:
        """Whether tiles of these sizes fit without starting again (a quick bound: as
        if each opened a shelf of its own height once its shelf is full)."""
        need = 0
        for w, h in sizes:
            need += self._shelf_height(h) * (w + 1) / self.WIDTH
        heights = {self._shelf_height(h) for _, h in sizes}
        return self._bottom + math.ceil(need) + sum(heights) <= self.MAX_HEIGHT

    def _place(self, w: int, h: int) -> tuple[int, int]:
        """A free w x h place (device pixels): on the open shelf of its height, or a new
        shelf at the bottom; the pixmap grows when that is past its end."""
        sh = self._shelf_height(h)
        shelf = self._shelves.get(sh)
        if shelf is None or shelf[1] + w > self.WIDTH:
            shelf = self._shelves[sh] = [self._bottom, 0]
            self._bottom += sh
            if self._bottom > self._height:
                self._grow(self._bottom)
        x = shelf[1]
        shelf[1] += w + 1       # a pixel apart: no tile's edge samples its neighbour
        return x, shelf[0]

    def _grow(self, need: int) -> None:
        height = -(-need // self.GROW) * self.GROW
        pm = QPixmap(self.WIDTH, height)
        pm.fill(Qt.GlobalColor.transparent)
        pm.setDevicePixelRatio(self.ratio)
        if self.pixmap is not None:
            self._end_canvas()
            q = QPainter(pm)
            q.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            q.drawPixmap(0, 0, self.pixmap)
            q.end()
        self.pixmap = pm
        self._height = height

    # ------------------------------------------------------------------ drawing tiles
    def _canvas(self) -> QPainter:
        """A painter on the atlas (open while tiles are added: ended before the atlas
        is grown, and at the end of each add)."""
        if self._painter is None:
            if self.pixmap is None:
                self._grow(self.GROW)
            self._painter = QPainter(self.pixmap)
        return self._painter

    def _end_canvas(self) -> None:
        if self._painter is not None:
            self._painter.end()
            self._painter = None

    def _draw_parts(self, q: QPainter, tiles, pens) -> None:
        """Every tile's parts at its pen (device pixels): glyphs as one run per font and
        colour for the lot."""
        r = self.ratio
        runs: dict = {}
        for (_, parts), (px, py) in zip(tiles, pens):
            x0, y0 = px / r, py / r
            for part in parts:
                if part[0] == "glyphs":
                    _, raw, color, glyphs, xs, ys = part
                    got = runs.get((id(raw), color.rgba()))
                    if got is None:
                        got = runs[(id(raw), color.rgba())] = (raw, color, [], [])
                    got[2].extend(glyphs)
                    got[3].extend(QPointF(x0 + x, y0 + y) for x, y in zip(xs, ys))
                else:
                    _, color, points = part
                    q.setPen(Qt.PenStyle.NoPen)
                    q.setBrush(QBrush(color))
                    q.drawPolygon(QPolygonF([QPointF(x0 + x, y0 + y) for x, y in points]))
                    q.setBrush(Qt.BrushStyle.NoBrush)
        for raw, color, glyphs, points in runs.values():
            run = QGlyphRun()
            run.setRawFont(raw)
            run.setGlyphIndexes(glyphs)
            run.setPositions(points)
            q.setPen(color)
            q.drawGlyphRun(QPointF(0, 0), run)

    # ------------------------------------------------------------------ placing
    def fragments(self, ids: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The fragments (``drawPixmapFragments``) of tiles ``ids`` at pens (x, y),
        without the tiles that have no pixels."""
        g = self._geom[ids]
        keep = g[:, 4] > 0
        if not keep.all():
            g, x, y = g[keep], x[keep], y[keep]
        out = np.empty((len(g), FRAGMENT_FIELDS), dtype=np.float64)
        out[:, 0] = x + g[:, 0]
        out[:, 1] = y + g[:, 1]
        out[:, 2:6] = g[:, 2:6]
        out[:, 6:8] = 1.0 / self.ratio
        out[:, 8] = 0.0
        out[:, 9] = 1.0
        return out

    def draw(self, p: QPainter, fragments: np.ndarray) -> None:
        self._end_canvas()
        if self.pixmap is not None and len(fragments):
            draw_fragments(p, fragments, self.pixmap)


class TileBatch:
    """The tiles of one page, gathered from its columns and drawn in one call."""

    def __init__(self, atlas: TileAtlas):
        self.atlas = atlas
        self.generation = atlas.generation
        self._ids: list[np.ndarray] = []
        self._xs: list[np.ndarray] = []
        self._ys: list[np.ndarray] = []

    def place(self, ids, x, y) -> None:
        """Tiles ``ids`` at pens ``x``, ``y`` (arrays of one length, or scalars)."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        x, y = np.broadcast_to(x, ids.shape), np.broadcast_to(y, ids.shape)
        keep = ids >= 0
        if not keep.all():
            ids, x, y = ids[keep], x[keep], y[keep]
        if len(ids):
            self._ids.append(ids)
            self._xs.append(np.asarray(x, dtype=np.float64))
            self._ys.append(np.asarray(y, dtype=np.float64))

    @property
    def void(self) -> bool:
        """The atlas started again since this batch began: its ids mean nothing."""
        return self.atlas.generation != self.generation

    def draw(self, p: QPainter) -> None:
        if not self._ids:
            self.atlas.draw(p, np.zeros((0, FRAGMENT_FIELDS)))
            return
        self.atlas.draw(p, self.atlas.fragments(np.concatenate(self._ids), np.concatenate(self._xs),
                                                np.concatenate(self._ys)))
