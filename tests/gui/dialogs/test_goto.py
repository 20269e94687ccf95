"""Go to offset: the parser, and the dialog driven with keys."""

import pytest
from PySide6.QtCore import Qt

from inspector.gui.dialogs.goto import parse_goto


@pytest.mark.parametrize("text,expected", [
    ("0", 0), ("4096", 4096), ("0x1000", 4096), ("0X1f", 31), ("1_000", 1000),
    ("+16", 116), ("-16", 84), ("+0x10", 116), ("end", 9999), ("  END ", 9999),
])
def test_parse_goto_good(text, expected):
    assert parse_goto(text, 100, 10_000) == expected


@pytest.mark.parametrize("text,words", [
    ("", "Type an offset"), ("abc", "not an offset"), ("0x", "not an offset"),
    ("12z", "not an offset"), ("10000", "past the end"), ("-101", "before the start"),
    ("+9900", "past the end"), ("0xFFFFFFFFFF", "past the end"),
])
def test_parse_goto_bad(text, words):
    with pytest.raises(ValueError, match=words):
        parse_goto(text, 100, 10_000)


def test_parse_goto_empty_file():
    assert parse_goto("0", 0, 0) == 0
    assert parse_goto("end", 0, 0) == 0
    with pytest.raises(ValueError, match="empty"):
        parse_goto("5", 0, 0)


def type_and_enter(qtbot, dialog, text):
    dialog.entry.clear()
    qtbot.keyClicks(dialog.entry, text)
    qtbot.keyClick(dialog.entry, Qt.Key.Key_Return)


def test_goto_dialog_good_entries(opened, qtbot):
    w = opened("€".encode() * 10_000)     # 30,000 bytes of 3-byte units
    view, doc = w.hex_view, w.document
    qtbot.keyClick(view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    d = w.goto_dialog
    qtbot.waitUntil(d.isVisible)
    type_and_enter(qtbot, d, "0x3000")
    assert not d.isVisible()
    assert doc.cursor == 0x3000
    start, end = view.visible_range()
    assert start <= 0x3000 < end
    # A mid-sequence offset is shown at once with correct units (looked back locally).
    qtbot.keyClick(view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    type_and_enter(qtbot, d, "+4")
    assert doc.cursor == 0x3004
    assert doc.unit_at(0x3004).offset == 0x3003 and doc.unit_at(0x3004).value == 0x20AC
    qtbot.keyClick(view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    type_and_enter(qtbot, d, "end")
    assert doc.cursor == 29_999
    assert view.visible_range()[1] == 30_000
    view.repaint()


def test_goto_dialog_bad_entry_stays_open_with_a_message(opened, qtbot):
    w = opened(b"x" * 100)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    d = w.goto_dialog
    qtbot.waitUntil(d.isVisible)
    type_and_enter(qtbot, d, "0x1000")
    assert d.isVisible()
    assert "past the end" in d.message.text() and d.message.isVisible()
    type_and_enter(qtbot, d, "banana")
    assert d.isVisible() and "not an offset" in d.message.text()
    assert w.document.cursor == 0
    qtbot.keyClicks(d.entry, "x")         # typing again clears the message
    assert not d.message.isVisible()
    type_and_enter(qtbot, d, "42")
    assert not d.isVisible() and w.document.cursor == 42


@pytest.mark.parametrize("text,expected", [
    ("L120", (120, 1)), ("l7", (7, 1)), ("L120:5", (120, 5)), ("120:5", (120, 5)),
    (" L 1_000 ", (1000, 1)), ("3 : 4", (3, 4)),
])
def test_parse_line_good(text, expected):
    from inspector.gui.dialogs.goto import LineTarget, parse_goto_target

    assert parse_goto_target(text, 100, 10_000) == LineTarget(*expected)


@pytest.mark.parametrize("text,words", [
    ("L", "not a line"), ("Lx", "not a line"), ("L0", "start at 1"), ("5:0", "start at 1"),
    ("5:", "not a line"), (":5", "not a line"), ("0x10:2", "not a line"), ("L-3", "not a line"),
])
def test_parse_line_bad(text, words):
    from inspector.gui.dialogs.goto import parse_goto_target

    with pytest.raises(ValueError, match=words):
        parse_goto_target(text, 100, 10_000)


def test_offsets_are_never_lines():
    from inspector.gui.dialogs.goto import parse_goto_target

    for text in ("120", "0x120", "+5", "-5", "end"):
        assert isinstance(parse_goto_target(text, 100, 10_000), int)
