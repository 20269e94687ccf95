"""Drawing many rectangles or small pictures from numpy arrays, in one call each.

``QPainter`` has C++ overloads that take a pointer to an array of primitives and a
count (``drawRects(const QRect *, int)``, ``drawPixmapFragments(const PixmapFragment *,
int, const QPixmap &)``). PySide binds them as (first element, count): handed a wrapper
of the first element of a numpy array laid out like the C++ struct, Qt reads the whole
array in place. A list of ``QRect`` objects instead costs the binding a conversion per
element (a page's thousand fill rectangles took 4 ms that way, 0.1 ms this way).

The arrays must be C-contiguous, of the dtype and column count below, and alive during
the call (the wrapper does not own or copy them).
"""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QPainter, QPixmap

# QRect is four ints: left, top, right, bottom (right = left + width - 1).
RECT_DTYPE = np.int32
# QRectF is four qreals: x, y, width, height.
# QPainter::PixmapFragment is ten qreals: x, y (the centre of the target), sourceLeft,
# sourceTop, width, height (the source rectangle, in the pixmap's device pixels),
# scaleX, scaleY, rotation, opacity.
FRAGMENT_FIELDS = 10


def rects_xywh(x, y, w, h) -> np.ndarray:
    """An array of QRects (left, top, right, bottom) from x, y, width, height arrays."""
    x, y, w, h = np.broadcast_arrays(x, y, w, h)
    out = np.empty((x.size, 4), dtype=RECT_DTYPE)
    out[:, 0] = x.reshape(-1)
    out[:, 1] = y.reshape(-1)
    out[:, 2] = (x + w - 1).reshape(-1)
    out[:, 3] = (y + h - 1).reshape(-1)
    return out


def draw_rects(p: QPainter, rects: np.ndarray) -> None:
    """Every rectangle of ``rects`` (an [n, 4] QRect array) with the painter's pen and
    brush, in one call."""
    rects = np.ascontiguousarray(rects, dtype=RECT_DTYPE)
    n = len(rects)
    if n:
        p.drawRects(shiboken6.wrapInstance(rects.ctypes.data, QRect), n)


def draw_rectfs(p: QPainter, rects: np.ndarray) -> None:
    """Every rectangle of ``rects`` (an [n, 4] QRectF array: x, y, width, height) with
    the painter's pen and brush, in one call."""
    rects = np.ascontiguousarray(rects, dtype=np.float64)
    n = len(rects)
    if n:
        p.drawRects(shiboken6.wrapInstance(rects.ctypes.data, QRectF), n)


def lines_as_rects(x0, y0, x1, y1) -> np.ndarray:
    """The QRectF array (see :func:`draw_rectfs`) that fills the pixels a one-pixel pen
    covers along the horizontal or vertical lines (x0, y0)-(x1, y1), at any device
    pixel ratio: filled rectangles cost a fraction of stroked lines."""
    x0, y0, x1, y1 = (np.asarray(a, dtype=np.float64) for a in np.broadcast_arrays(x0, y0, x1, y1))
    return np.stack((x0 - 0.5, y0 - 0.5, x1 - x0 + 1, y1 - y0 + 1), axis=1)


def draw_fragments(p: QPainter, fragments: np.ndarray, pixmap: QPixmap) -> None:
    """Every fragment of ``fragments`` (an [n, 10] float64 array) from ``pixmap``, in
    one call."""
    fragments = np.ascontiguousarray(fragments, dtype=np.float64)
    n = len(fragments)
    if n:
        assert fragments.shape[1] == FRAGMENT_FIELDS
        p.drawPixmapFragments(shiboken6.wrapInstance(fragments.ctypes.data, QPainter.PixmapFragment),
                              n, pixmap)
