"""How the hex pane draws a page: rectangles and small pictures from numpy arrays, the
tile atlas, and the glyphs of characters the main font lacks."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QColor, QGlyphRun, QImage, QPainter, QPen, QPixmap

from inspector.gui.look import paintarrays
from inspector.gui.look.tileatlas import TileAtlas, TileBatch


def _canvas(ratio: float = 1.0, w: int = 60, h: int = 40) -> QPixmap:
    pm = QPixmap(int(w * ratio), int(h * ratio))
    pm.setDevicePixelRatio(ratio)
    pm.fill(QColor("white"))
    return pm


def _pixels(pm: QPixmap) -> np.ndarray:
    img = pm.toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(img.constBits(), dtype=np.uint32).reshape(
        img.height(), img.bytesPerLine() // 4)[:, :img.width()].copy()


def test_rectangles_from_numpy_memory_are_the_rectangles_of_a_list(qapp):
    """drawRects from an array (one call, no object per rectangle) draws what the same
    QRects drawn one by one draw."""
    rects = paintarrays.rects_xywh(np.array([2, 10, 30]), np.array([3, 5, 20]),
                                   np.array([5, 1, 12]), np.array([4, 9, 2]))
    a, b = _canvas(), _canvas()
    for pm, from_array in ((a, True), (b, False)):
        p = QPainter(pm)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("red"))
        if from_array:
            paintarrays.draw_rects(p, rects)
        else:
            for x, y, w, h in ((2, 3, 5, 4), (10, 5, 1, 9), (30, 20, 12, 2)):
                p.drawRect(QRect(x, y, w, h))
        p.end()
    assert (_pixels(a) == _pixels(b)).all()
    assert (_pixels(a) != _pixels(_canvas())).any()


@pytest.mark.parametrize("ratio", [1.0, 1.5, 2.0])
def test_filled_edges_cover_what_a_one_pixel_pen_covers(qapp, ratio):
    """A box outline drawn as four filled rectangles (lines_as_rects) covers the pixels a
    one-pixel pen covers along the same rectangle, at any scale (corners aside)."""
    a, b = _canvas(ratio), _canvas(ratio)
    p = QPainter(a)
    p.setPen(QPen(QColor("red"), 1))
    p.drawRect(QRect(5, 5, 20, 15))
    p.end()
    p = QPainter(b)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("red"))
    x0, y0, x1, y1 = 5, 5, 25, 20
    paintarrays.draw_rectfs(p, paintarrays.lines_as_rects([x0, x0, x0, x1], [y0, y1, y0, y0],
                                                          [x1, x1, x0, x1], [y0, y1, y1, y1]))
    p.end()
    assert (_pixels(a) != _pixels(b)).sum() <= 8


def _glyph_tile(sprites, key, text="A", color="black"):
    glyphs = list(sprites.raw.glyphIndexesForString(text))
    return (key, [("glyphs", sprites.raw, QColor(color), glyphs,
                   [i * sprites.cw for i in range(len(glyphs))], [0] * len(glyphs))])


@pytest.mark.parametrize("ratio", [1.0, 2.0])
def test_a_tile_placed_is_the_glyphs_drawn(qapp, ratio):
    """A tile drawn into the atlas, measured or with its box, and placed at a pen puts
    the same pixels there as the glyphs drawn at that pen."""
    from inspector.gui.panes.hexsprites import HexSprites

    sprites = HexSprites(10, ratio)
    atlas = TileAtlas(ratio, sprites.cw, sprites.lh, sprites.base_y)
    measured = atlas.add([_glyph_tile(sprites, "m", "9F")])[0]
    boxed = atlas.add([_glyph_tile(sprites, "b", "9F")], (-4, -sprites.base_y, 20, 8))[0]
    direct = _canvas(ratio)
    p = QPainter(direct)
    p.setPen(QColor("black"))
    p.setFont(sprites.font)
    for x in (10, 30):
        _, parts = _glyph_tile(sprites, None, "9F")
        glyphs = parts[0][3]
        run = QGlyphRun()
        run.setRawFont(sprites.raw)
        run.setGlyphIndexes(glyphs)
        run.setPositions([QPointF(x + i * sprites.cw, 20) for i in range(len(glyphs))])
        p.drawGlyphRun(QPointF(0, 0), run)
    p.end()
    placed = _canvas(ratio)
    p = QPainter(placed)
    batch = TileBatch(atlas)
    batch.place([measured, boxed], np.array([10.0, 30.0]), np.array([20.0, 20.0]))
    batch.draw(p)
    p.end()
    assert (_pixels(direct) == _pixels(placed)).all()


def test_a_full_atlas_starts_again_and_says_so(qapp, monkeypatch):
    """Past its limit the atlas starts again empty: its generation changes, so that a
    batch begun before knows its ids are void (the painter then draws the page again)."""
    from inspector.gui.panes.hexsprites import HexSprites

    sprites = HexSprites(10, 1.0)
    atlas = TileAtlas(1.0, sprites.cw, sprites.lh, sprites.base_y)
    monkeypatch.setattr(TileAtlas, "MAX_HEIGHT", 64)
    monkeypatch.setattr(TileAtlas, "WIDTH", 64)
    batch = TileBatch(atlas)
    first = atlas.add([_glyph_tile(sprites, ("t", i)) for i in range(4)])
    assert not batch.void and atlas.get(("t", 0)) == first[0]
    atlas.add([_glyph_tile(sprites, ("u", i)) for i in range(40)])
    assert batch.void
    assert atlas.get(("t", 0)) is None      # forgotten with the rest


def test_a_page_that_fills_the_atlas_is_drawn_whole(opened, monkeypatch):
    """When a page's pictures fill the atlas midway, the page is drawn again into the
    emptied atlas: it looks as it does with room to spare."""
    data = bytes(range(256)) * 6
    w = opened(data)
    view = w.hex_view
    roomy = view.viewport().grab().toImage()
    monkeypatch.setattr(TileAtlas, "MAX_HEIGHT", 460)
    view.sprites.atlas = TileAtlas(view.sprites.ratio, view.sprites.cw, view.sprites.lh,
                                   view.sprites.base_y)
    # A little atlas, mostly full of tiles the page does not use (a page takes ~120
    # rows of it).
    view.sprites.atlas.add([_glyph_tile(view.sprites, ("filler", i)) for i in range(100)],
                           (0, -20, 200 / view.sprites.ratio, 20))
    before = view.sprites.atlas.generation
    view.painter.forget_pictures()
    tight = view.viewport().grab().toImage()
    assert view.sprites.atlas.generation > before
    assert tight == roomy


def test_a_mark_is_shaped_alike_whatever_came_before(qapp):
    """A combining mark on its dotted circle gets the same glyphs shaped alone or after
    other texts (its circle once took the script of the text shaped before it, and a
    Thaana mark alone came out as two empty boxes)."""
    from inspector.gui.panes.hexsprites import HexSprites

    marks = ["\u25cc\u07a8", "\u25cc\u0739", "\u25cc\u0301"]
    alone = HexSprites(10, 1.0)
    for text in marks:
        alone.shape([text])
    mixed = HexSprites(10, 1.0)
    mixed.shape(["\u0710", "\u0627", "\u05d0", *marks, "\u0780"])
    for text in marks:
        a, m = alone.shaped(text), mixed.shaped(text)
        assert [p[1:] for p in a] == [p[1:] for p in m], text
        assert all(alone.fonts[p[0]] == mixed.fonts[q[0]] for p, q in zip(a, m)), text
        assert len(a) == 2           # the circle and the mark


def test_a_lone_character_takes_the_font_decided_for_its_code_point(qapp, monkeypatch):
    """A character the main font lacks is not shaped by Qt when the fallback fonts'
    decision (shared with the text pane) has a glyph for it: no text layout is made,
    and its glyph's bounds place its tile."""
    from inspector.gui.panes import hexsprites

    sprites = hexsprites.HexSprites(10, 1.0)
    if sprites.fallback.decide(ord("日")) is None:
        pytest.skip("no fontconfig decision for CJK here")
    made = []
    real = hexsprites.QTextLayout
    monkeypatch.setattr(hexsprites, "QTextLayout", lambda *a: made.append(a) or real(*a))
    sprites.shape(["日"])
    assert made == []
    (slot, glyph, dx, dy), = sprites.shaped("日")
    assert glyph > 0 and (dx, dy) == (0.0, 0.0)
    box = sprites.ink_box(sprites.shaped("日"))
    assert box is not None and box[2] - box[0] >= sprites.cw
