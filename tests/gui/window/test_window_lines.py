"""Lines and columns in the window: the status bar's "Ln L, Col C", Go to a line, the
problem list's line column, the hex view's line numbers; big files through the scan's
block index, and "not yet" before the scan gets there."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from inspector.core.scan.lines import line_column as core_line_column
from inspector.core.source.bytesource import FileSource

TEXT = "première ligne\nsecond \xe9\nthird\n".encode("utf-8")[:-1] + b" \xc0\xaf tail\n" + b"last"


def _goto(window, qtbot, text):
    window.activateWindow()   # a dialog closed just before may still hold activation
    qtbot.waitUntil(window.isActiveWindow)
    window.hex_view.setFocus()
    qtbot.keyClick(window.hex_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    dialog = window.goto_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.entry.clear()
    qtbot.keyClicks(dialog.entry, text)
    qtbot.keyClick(dialog.entry, Qt.Key.Key_Return)
    return dialog


def test_document_line_column_is_scans(opened, qtbot):
    w = opened(TEXT)
    d = w.document
    src = FileSource(d.path)
    try:
        for off in range(len(TEXT)):
            if (TEXT[off] & 0xC0) == 0x80:
                continue
            want = core_line_column(src, off)
            assert d.line_column(off) == want
            assert d.line_column(off, wait=False) == want
    finally:
        src.close()


def test_status_bar_follows_the_cursor(opened, qtbot):
    w = opened(TEXT)
    assert w.status_fields.line.text() == "Ln 1, Col 1"
    qtbot.keyClick(w.hex_view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    last = TEXT.rindex(b"\n") + 1
    assert w.document.cursor == len(TEXT) - 1
    assert w.status_fields.line.text() == f"Ln 4, Col {len(TEXT) - last}"
    qtbot.keyClick(w.hex_view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_Right)  # "p" -> "r"
    assert w.status_fields.line.text() == "Ln 1, Col 2"


def test_goto_line_and_column(opened, qtbot):
    w = opened(TEXT)
    _goto(w, qtbot, "L2")
    assert w.document.cursor == TEXT.index(b"second")
    assert w.status_fields.line.text() == "Ln 2, Col 1"
    _goto(w, qtbot, "3:7")   # "third C0 AF": the overlong makes columns 7 and 8
    assert w.document.cursor == TEXT.index(b"\xc0\xaf")
    _goto(w, qtbot, "3:9")
    assert w.document.cursor == TEXT.index(b"\xc0\xaf") + 2
    assert w.status_fields.line.text() == "Ln 3, Col 9"
    dialog = _goto(w, qtbot, "L99")
    assert dialog.isVisible() and "past the last line" in dialog.message.text()
    dialog.reject()
    _goto(w, qtbot, "L2:100")   # past the end of the line: its LF
    assert w.document.cursor == TEXT.index(b"\n", TEXT.index(b"second"))
    assert "ends at column" in w.status_fields.note.text()
    _goto(w, qtbot, "0x3")       # offsets as before
    assert w.document.cursor == 3


@pytest.fixture
def big(tmp_path):
    """A sparse 64 MiB file (more than the window counts directly) with LF bytes at
    known places."""
    path = tmp_path / "big.log"
    size = 64 << 20
    with open(path, "wb") as f:
        f.truncate(size)
        for k in range(1, 65):
            f.seek(k * (1 << 20) - 1)
            f.write(b"\n")
    return path


def test_big_file_before_and_after_the_scan(window, qtbot, big):
    # Open without a scan: the line is not known past the direct limit.
    window.scan_life.auto_start = False
    assert window.files.open_file(big)
    d = window.document
    assert d.scan is None
    d.set_cursor(40 << 20)
    assert window.status_fields.line.text() == "Ln ?"
    assert "not reached" in window.status_fields.line.toolTip()
    dialog = _goto(window, qtbot, "L50")
    assert dialog.isVisible() and "has not reached line 50" in dialog.message.text()
    dialog.reject()
    # Near the start it is counted directly.
    d.set_cursor(5)
    assert window.status_fields.line.text() == "Ln 1, Col 6"
    with qtbot.waitSignal(window.scanFinished, timeout=60000):
        window.scan_life.start()
    d.set_cursor(40 << 20)
    assert window.status_fields.line.text() == "Ln 41, Col 1"
    d.set_cursor((40 << 20) + 10)   # NUL bytes: each a character
    assert window.status_fields.line.text() == "Ln 41, Col 11"
    _goto(window, qtbot, "L50:3")
    assert d.cursor == 49 * (1 << 20) + 2
    dialog = _goto(window, qtbot, "L66")
    assert "past the last line" in dialog.message.text()
    dialog.reject()


def test_problem_list_has_lines(opened, qtbot):
    w = opened(TEXT)
    if not w.scan_life.complete:
        with qtbot.waitSignal(w.scanFinished, timeout=10000):
            pass
    dock = w.problem_dock
    m = dock.model
    assert m.headerData(m.LINE, Qt.Orientation.Horizontal) == "Line:Col"
    rows = [m.data(m.index(r, m.LINE)) for r in range(m.rowCount())]
    assert "3:7" in rows
    header = dock.table.horizontalHeader()
    assert header.visualIndex(m.LINE) == 1  # shown next to the offset


def test_hex_view_line_numbers(opened, qtbot, tmp_path):
    w = opened(TEXT * 3)
    if not w.scan_life.complete:
        with qtbot.waitSignal(w.scanFinished, timeout=10000):
            pass
    assert not w.act_line_numbers.isChecked()
    w.act_line_numbers.trigger()
    assert w.hex_view.show_line_numbers
    starts = w.hex_view.line_starts_in(0, 64)
    assert starts[0] == (0, 1)
    assert (TEXT.index(b"second"), 2) in starts
    w.hex_view.viewport().repaint()
    path = tmp_path / "lines.png"
    w.grab().save(str(path))
    assert os.path.getsize(path) > 0
    w.act_line_numbers.trigger()
    assert not w.hex_view.show_line_numbers


def test_line_number_tags_leave_the_digits_visible(opened, qtbot):
    """A tag sits between two rows: the digits of the byte it marks are painted as they
    are without tags (the first row's tag aside, which has no row above it)."""
    from PySide6.QtGui import QFontMetricsF

    w = opened(TEXT * 3)
    if not w.scan_life.complete:
        with qtbot.waitSignal(w.scanFinished, timeout=10000):
            pass
    view = w.hex_view
    lay, sprites = view.layout_, view.sprites
    offset = TEXT.index(b"second")
    assert lay.row_of(offset) > 0

    def digits_of_the_marked_byte():
        view.viewport().repaint()
        image = view.viewport().grab().toImage()
        main = QFontMetricsF(sprites.font)
        base_y = sprites.ascent + (sprites.lh - main.height()) / 2
        row = lay.row_of(offset) - view.top_row
        x = int(lay.cell_x(lay.col_of(offset)))
        y = int(row * sprites.lh + base_y - main.capHeight())
        return [image.pixel(i, j) for i in range(x, x + 2 * sprites.cw)
                for j in range(y, int(row * sprites.lh + base_y))]

    without = digits_of_the_marked_byte()
    w.act_line_numbers.trigger()
    assert (offset, 2) in view.line_starts_in(0, 64)
    assert digits_of_the_marked_byte() == without
    w.act_line_numbers.trigger()
