"""Line numbers in the hex view: a small tag on each byte that starts a line.

Only the visible rows are looked at: the LF bytes of the bytes on screen give the line
starts, and the first one's number comes from the document (the scan's block index, or a
small file counted directly: :meth:`~inspector.gui.document.Document.line_column`), so a
page costs one block read however deep into a big file it is. Before the scan has
reached the page in a big file no number is painted (the status bar says "Ln ?").
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter


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
