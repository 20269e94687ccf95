"""The text painter's grid of kept QPointF objects gives the places asked
for, on the grid and off it (after right-to-left text, places are not whole columns)."""

import numpy as np

from inspector.gui.panes.textpainter import PAD_X, PAD_Y, _PointGrid


def test_points_on_and_off_the_grid(qapp):
    grid = _PointGrid(7.25, 17)
    x = np.array([PAD_X, PAD_X + 3 * 7.25, PAD_X + 10.1, PAD_X + 40 * 7.25])
    y = np.array([PAD_Y, PAD_Y + 17, PAD_Y + 2 * 17, PAD_Y + 5 * 17])
    got = grid.points(x, y, 0.5, 12.0)
    assert [(p.x(), p.y()) for p in got] == [(a + 0.5, b + 12.0) for a, b in zip(x, y)]
    again = grid.points(x, y, 0.5, 12.0)
    assert again[0] is got[0]          # kept, not made again
    assert grid.points(x[:0], y[:0], 0.0, 0.0) == []
