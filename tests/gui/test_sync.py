"""Both panes in step: one document, cursor/selection/scrolling seen by both."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QWheelEvent

MOD = Qt.KeyboardModifier
LEFT = Qt.MouseButton.LeftButton

TEXT = "".join(f"line {i:04d}: héllo wörld € 日本 𝄞\n" for i in range(800)).encode()


@pytest.fixture
def both(opened):
    w = opened(TEXT, "lines.txt")
    w.hex_view.repaint()
    w.text_view.repaint()
    return w


def contains(view, offset) -> bool:
    start, end = view.visible_range()
    return start <= offset < end


def screen_lines(tv):
    """The text pane's lines on screen, the top one first."""
    return tv.text_layout.lines_from(tv.top, tv.visible_line_count())


def hex_point(view, offset, area="hex") -> QPoint:
    x, y = view.layout_.cell_center(offset, view.top_row, area)
    return QPoint(x - view.horizontalScrollBar().value(), y)


def test_keys_in_the_hex_view_move_the_text_pane(both, qtbot):
    w = both
    hv, tv, doc = w.hex_view, w.text_view, w.document
    for _ in range(60):
        qtbot.keyClick(hv, Qt.Key.Key_Down)
    assert contains(hv, doc.cursor) and contains(tv, doc.cursor)
    qtbot.keyClick(hv, Qt.Key.Key_End, MOD.ControlModifier)
    assert doc.cursor == len(TEXT) - 1
    assert contains(hv, doc.cursor) and contains(tv, doc.cursor)


def test_click_in_the_text_pane_moves_the_hex_cursor(both, qtbot):
    w = both
    hv, tv, doc = w.hex_view, w.text_view, w.document
    target = TEXT.index("€".encode(), 200)
    tv.ensure_visible(target)
    tv.repaint()
    pos = tv.point_for_offset(target)
    assert pos is not None
    qtbot.mouseClick(tv.viewport(), LEFT, MOD.NoModifier, pos.toPoint())
    assert doc.cursor == target
    assert contains(hv, target)


def test_selection_in_each_pane_shows_in_the_other(both, qtbot):
    w = both
    hv, tv, doc = w.hex_view, w.text_view, w.document
    # Drag in the hex view, from a continuation byte of é to the middle of €.
    e_acute = TEXT.index("é".encode())
    euro = TEXT.index("€".encode())
    qtbot.mousePress(hv.viewport(), LEFT, MOD.NoModifier, hex_point(hv, e_acute + 1))
    qtbot.mouseMove(hv.viewport(), hex_point(hv, euro + 2))
    qtbot.mouseRelease(hv.viewport(), LEFT, MOD.NoModifier, hex_point(hv, euro + 2))
    assert doc.selection == (e_acute, euro + 3)
    assert contains(tv, e_acute) and contains(tv, euro)
    # Shift-click in the text pane extends the same selection.
    far = TEXT.index(b"\n", euro)
    pos = tv.point_for_offset(far - 1)
    qtbot.mouseClick(tv.viewport(), LEFT, MOD.ShiftModifier, pos.toPoint())
    start, end = doc.selection
    assert start == e_acute and end >= far
    assert contains(hv, far - 1)


def test_scrolling_either_pane_keeps_the_other_on_the_same_bytes(both, qtbot):
    w = both
    hv, tv, doc = w.hex_view, w.text_view, w.document
    pos = QPointF(40, 40)
    ev = QWheelEvent(pos, hv.viewport().mapToGlobal(pos), QPoint(0, 0), QPoint(0, -120 * 20),
                     Qt.MouseButton.NoButton, MOD.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QGuiApplication.sendEvent(hv.viewport(), ev)
    anchor = doc.anchor
    assert anchor > 0 and hv.visible_range()[0] == anchor
    assert contains(tv, anchor)
    tv.scroll_lines(25)
    anchor2 = doc.anchor
    assert anchor2 > anchor and contains(hv, anchor2)
    assert hv.visible_range()[0] <= anchor2 < hv.visible_range()[0] + hv.bytes_per_row


def test_goto_and_origin_reach_both_panes(both, qtbot):
    w = both
    hv, tv, doc = w.hex_view, w.text_view, w.document
    target = len(TEXT) // 2
    w.go_to(target)
    assert contains(hv, target) and contains(tv, target)
    doc.set_origin(target + 1)
    hv.repaint()
    tv.repaint()
    assert contains(hv, doc.cursor) and contains(tv, doc.cursor)


def test_dialect_switch_recuts_both(both, qtbot):
    w = both
    w.dialect_actions["fss-utf"].trigger()
    w.hex_view.repaint()
    w.text_view.repaint()
    assert w.document.dialect == "fss-utf"


def test_a_jump_keeps_what_leads_up_to_its_target_in_both_panes(opened, qtbot):
    """F8, Go to and the like land a few rows (lines) below the top of each pane, so the
    bytes before a problem show too; a step off the bottom still scrolls by one row."""
    from inspector.gui.panes.hexview import HexView
    from inspector.gui.panes.textview import TextView

    data = b"".join(f"line {i:05d} plain text here\n".encode() for i in range(4000))
    bad = len(data) // 2
    data = data[:bad] + b"\xc0\xaf" + data[bad + 2:]
    w = opened(data)
    hv, tv, doc = w.hex_view, w.text_view, w.document
    hv.setFocus()
    with qtbot.waitSignal(w.searchFinished, timeout=10_000):
        qtbot.keyClick(hv, Qt.Key.Key_F8)
    assert doc.cursor == bad
    n = hv.bytes_per_row
    assert hv.visible_range()[0] == (bad // n - HexView.JUMP_CONTEXT_ROWS) * n
    tv.viewport().repaint()
    lines = screen_lines(tv)
    at = next(i for i, line in enumerate(lines) if line.start <= bad < line.end)
    assert at == TextView.JUMP_CONTEXT_LINES

    w.go_to(100_000)
    assert hv.visible_range()[0] == (100_000 // n - HexView.JUMP_CONTEXT_ROWS) * n
    assert contains(tv, 100_000 - 3 * n)

    # Stepping down off the bottom row scrolls by one row, as before.
    start, end = hv.visible_range()
    last_row_start = end - n
    doc.set_cursor(last_row_start)
    top = hv.visible_range()[0]
    qtbot.keyClick(hv, Qt.Key.Key_Down)
    assert hv.visible_range()[0] == top + n


def test_only_jumps_bring_context_not_drags_steps_or_resizes(opened, qtbot):
    """What the review of the jump context found: a drag past the bottom edge scrolls by
    rows, a pane made smaller keeps the least scrolling, a jump near the end keeps the
    text pane full, and Ctrl+End fills it too."""
    data = b"".join(f"line {i:05d}\n".encode() for i in range(3000))
    w = opened(data)
    hv, tv, doc = w.hex_view, w.text_view, w.document
    vp = hv.viewport()
    lh = hv.layout_.lh

    # A drag two rows past the bottom edge, four times: a few rows each time.
    start = hv.layout_.cell_center(0, hv.top_row, "hex")
    qtbot.mousePress(vp, LEFT, MOD.NoModifier, QPoint(*start))
    tops = []
    for _ in range(4):
        qtbot.mouseMove(vp, QPoint(start[0], vp.height() + 2 * lh))
        tops.append(hv.top_row)
    qtbot.mouseRelease(vp, LEFT, MOD.NoModifier, QPoint(start[0], vp.height() + 2 * lh))
    steps = [b - a for a, b in zip([0] + tops, tops)]
    assert all(0 < s <= 4 for s in steps), tops

    # A jump near the end of the file: the text pane still shows a full screen.
    w.go_to(len(data) - 5)
    tv.viewport().repaint()
    full = tv.visible_line_count(partial=False)
    assert len(screen_lines(tv)) >= full
    assert contains(tv, len(data) - 5)

    # The cursor on the text pane's bottom line, then the pane made shorter: the least
    # scrolling keeps it at the new bottom, not near the top.
    w.go_to(30_000)
    tv.viewport().repaint()
    lines = screen_lines(tv)
    bottom = lines[tv.visible_line_count(partial=False) - 1]
    doc.set_cursor(bottom.start)
    tv.viewport().repaint()
    taller = tv.viewport().height()
    tv.resize(tv.width(), tv.height() // 2)
    qtbot.waitUntil(lambda: tv.viewport().height() < taller)
    tv.viewport().repaint()
    lines = screen_lines(tv)
    full = tv.visible_line_count(partial=False)
    row = next(i for i, line in enumerate(lines) if line.start <= doc.cursor < line.end)
    assert row == full - 1
