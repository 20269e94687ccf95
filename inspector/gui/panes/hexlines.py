"""Line numbers in the hex view: a small tag on each byte that starts a line.

Only the visible rows are looked at: the LF bytes of the bytes on screen give the line
starts, and the first one's number comes from the document (the scan's block index, or a
small file counted directly: :meth:`~inspector.gui.document.Document.line_column`), so a
page costs one block read however deep into a big file it is. Before the scan has
reached the page in a big file no number is painted (the status bar says "Ln ?").
"""

from __future__ import annotations

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
    pill at the top left of the byte's cell."""
    lay = view.layout_
    lh = view.sprites.lh
    font = QFont(view.sprites.font)
    font.setPointSizeF(max(4.0, font.pointSizeF() * 0.6))
    fm = QFontMetricsF(font)
    p.save()
    p.setFont(font)
    fg = pal.color("offset_text")
    bg = QColor(pal.color("alternate_background"))
    bg.setAlpha(255)
    edge = QColor(fg)
    edge.setAlpha(200)
    for offset, line in line_starts_in(view.document, start, end, data):
        row = lay.row_of(offset) - top
        x = lay.cell_x(lay.col_of(offset))
        text = f"{line:,}"
        rect = QRectF(x - 1, row * lh, fm.horizontalAdvance(text) + 4, fm.height())
        p.setPen(edge)
        p.setBrush(bg)
        p.drawRoundedRect(rect, 2, 2)
        p.setPen(fg)
        p.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
    p.restore()
