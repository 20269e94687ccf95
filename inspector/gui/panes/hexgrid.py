"""Where the hex view's glyphs, boxes and flags go on a page, kept as Qt objects.

A glyph run takes a list of ``QPointF`` and a flag path a list of ``QPolygonF``; making
those objects one by one on every paint would be a Python call per cell. A
:class:`HexGrid` makes them once per geometry (layout, font, page height) as numpy
object arrays, so a paint picks a colour's positions by fancy indexing: one numpy call
per colour, whatever the number of cells.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF


class HexGrid:
    """Positions of ``rows`` rows of ``layout`` with the font measures of ``sprites``
    (baselines at ``sprites.base_y`` in each row of ``sprites.lh`` pixels)."""

    def __init__(self, layout, sprites, rows: int):
        self.layout = layout
        self.rows = rows
        self.key = (id(layout), sprites.cw, sprites.lh, sprites.base_y, rows)
        self._sprites = sprites
        self._cells = None
        self._chars = None
        self._offsets = None
        self._flags = None
        self._marks = None

    @staticmethod
    def _points(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """An object array of QPointF(x, y) over the broadcast of ``xs`` and ``ys``."""
        xs, ys = np.broadcast_arrays(xs, ys)
        out = np.empty(xs.shape, dtype=object)
        flat = out.reshape(-1)
        flat[:] = [QPointF(x, y) for x, y in zip(xs.reshape(-1).tolist(), ys.reshape(-1).tolist())]
        return out

    def _row_ys(self) -> np.ndarray:
        s = self._sprites
        return np.arange(self.rows, dtype=np.float64) * s.lh + s.base_y

    @property
    def cells(self) -> np.ndarray:
        """[row, column, character]: the pen position of each character of a byte's
        spelling in the hex cells."""
        if self._cells is None:
            lay = self.layout
            n, k = lay.bytes_per_row, lay.cell_chars
            xs = (np.array([lay.cell_x(c) for c in range(n)], dtype=np.float64)[:, None]
                  + np.arange(k) * lay.cw)
            self._cells = self._points(xs[None, :, :], self._row_ys()[:, None, None])
        return self._cells

    @property
    def chars(self) -> np.ndarray:
        """[row, column]: the pen position of each byte's cell in the character column."""
        if self._chars is None:
            lay = self.layout
            xs = np.array([lay.char_x(c) for c in range(lay.bytes_per_row)], dtype=np.float64)
            self._chars = self._points(xs[None, :], self._row_ys()[:, None])
        return self._chars

    @property
    def offsets(self) -> np.ndarray:
        """[row, character]: the pen position of each character of a row's offset."""
        if self._offsets is None:
            lay = self.layout
            xs = lay.offset_x + np.arange(lay.offset_chars, dtype=np.float64) * lay.cw
            self._offsets = self._points(xs[None, :], self._row_ys()[:, None])
        return self._offsets

    @property
    def marks(self) -> np.ndarray:
        """[row, column]: where a problem's mark starts (the box's top right, on the
        small font's baseline from the row's top)."""
        if self._marks is None:
            lay, s = self.layout, self._sprites
            xs = np.array([lay.cell_x(c) + lay.cell_w - 2 for c in range(lay.bytes_per_row)],
                          dtype=np.float64)
            ys = np.arange(self.rows, dtype=np.float64) * s.lh + s.mark_ascent
            self._marks = self._points(xs[None, :], ys[:, None])
        return self._marks

    @property
    def flags(self) -> np.ndarray:
        """[row, column]: a problem's flag, a small triangle in the top right corner of
        its character cell (it reads without colour)."""
        if self._flags is None:
            lay, s = self.layout, self._sprites
            n, cw, lh = lay.bytes_per_row, s.cw, s.lh
            out = np.empty((self.rows, n), dtype=object)
            for r in range(self.rows):
                y = r * lh
                for c in range(n):
                    x = lay.char_x(c)
                    out[r, c] = QPolygonF([QPointF(x + cw - 4, y + 1), QPointF(x + cw + 1, y + 1),
                                           QPointF(x + cw + 1, y + 6)])
            self._flags = out
        return self._flags
