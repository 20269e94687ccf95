"""Lines and columns in another reading than UTF-8, with real keys: the status bar's
"Ln L, Col C" in UTF-16 after moving the cursor, Go to a line in UTF-16; and a
character of two code points (Big5-HKSCS) whole in the text pane and the sequence
inspector."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.window.test_interpret_as import first_line_text, open_file
from tests.gui.window.test_window_lines import _goto

KEY = Qt.Key
# U+0A0D and U+0A0A hold 0A bytes in UTF-16 LE that are no line feeds.
UTF16_TEXT = "first ਍ line\nsecond ਊ\nthird line\n"
HKSCS = b"caf\x88\x62 is \x88\xa5\nnext\n"


def _utf16_window(window, qtbot, write_file, encoding="utf-16-le"):
    path = write_file(UTF16_TEXT.encode(encoding), "lines16.txt")
    open_file(window, qtbot, path)
    window.set_encoding(encoding)
    qtbot.waitUntil(lambda: window.scan_life.complete, timeout=20000)
    window.hex_view.setFocus()
    return window


def test_status_bar_counts_utf16_lines_and_columns_after_keys(window, qtbot, write_file):
    w = _utf16_window(window, qtbot, write_file)
    line = w.status_fields.line
    assert line.text() == "Ln 1, Col 1"
    qtbot.keyClick(w.hex_view, KEY.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert w.document.cursor == len(UTF16_TEXT.encode("utf-16-le")) - 2   # the last unit
    # The last unit is the final line feed: line 3, after "third line".
    qtbot.waitUntil(lambda: line.text() == "Ln 3, Col 11", timeout=5000)
    qtbot.keyClick(w.hex_view, KEY.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(14):   # "first ਍ line\n" is 13 characters, 26 bytes: 0x1C is "s"
        qtbot.keyClick(w.hex_view, KEY.Key_Right)
    qtbot.waitUntil(lambda: w.document.cursor >= 26, timeout=5000)
    offset = w.document.unit_start(w.document.cursor)
    want = UTF16_TEXT.encode("utf-16-le")[:offset].decode("utf-16-le")
    ln, col = want.count("\n") + 1, len(want) - want.rfind("\n")
    qtbot.waitUntil(lambda: line.text() == f"Ln {ln}, Col {col}", timeout=5000)
    assert ln == 2   # the 0A bytes of U+0A0D on line 1 counted no line


def test_goto_line_in_utf16(window, qtbot, write_file):
    w = _utf16_window(window, qtbot, write_file, "utf-16-be")
    data = UTF16_TEXT.encode("utf-16-be")
    _goto(w, qtbot, "L2")
    assert w.document.cursor == len("first ਍ line\n") * 2
    assert w.status_fields.line.text() == "Ln 2, Col 1"
    _goto(w, qtbot, "3:4")
    assert w.document.cursor == data.index("third".encode("utf-16-be")) + 6
    assert w.status_fields.line.text() == "Ln 3, Col 4"
    dialog = _goto(w, qtbot, "L5")
    assert dialog.isVisible() and "past the last line" in dialog.message.text()
    dialog.reject()


def test_a_two_code_point_character_shows_whole(window, qtbot, write_file):
    path = write_file(HKSCS, "hkscs.txt")
    open_file(window, qtbot, path)
    window.set_encoding("big5hkscs")
    text = first_line_text(window)
    assert "caf\u00ca\u0304 is \u00ea\u030c" in text
    window.document.set_cursor(3)
    dock = window.inspector_dock
    qtbot.waitUntil(lambda: dock.unit is not None and dock.unit.offset == 3, timeout=5000)
    facts = dict(dock.facts)
    assert facts["Name"] == "LATIN CAPITAL LETTER E WITH CIRCUMFLEX"
    assert facts["Code point 2"].endswith("COMBINING MACRON")
    assert facts["Text"] == "\u00ca\u0304"
    assert facts["UTF-8"] == "C3 8A CC 84"
    unit = window.status_fields.unit
    qtbot.waitUntil(lambda: "U+0304 COMBINING MACRON" in unit.text(), timeout=5000)
    assert unit.text().startswith("U+00CA LATIN CAPITAL LETTER E WITH CIRCUMFLEX + U+0304")
    window.hex_view.setFocus()
    qtbot.keyClick(window.hex_view, KEY.Key_Right)   # past the pair: " "
    qtbot.waitUntil(lambda: window.status_fields.line.text() == "Ln 1, Col 6", timeout=5000)


def test_the_hex_character_column_draws_both_code_points(window, qtbot, write_file):
    """The character cell of 88 62 in Big5-HKSCS draws Ê with its macron, not Ê alone:
    the cell differs from that of 88 66 (Ê alone), and the sequence was shaped whole."""

    def char_cell(data: bytes, name: str):
        open_file(window, qtbot, write_file(data, name))
        window.set_encoding("big5hkscs")
        view = window.hex_view
        view.viewport().repaint()
        lay = view.layout_
        x0, x1 = lay.char_x(3), lay.char_x(5)
        image = view.viewport().grab().toImage()
        return image.copy(x0, 0, x1 - x0, view.sprites.lh)

    alone = char_cell(b"caf\x88\x66 x\n", "alone.txt")
    with_mark = char_cell(b"caf\x88\x62 x\n", "marked.txt")
    assert window.hex_view.sprites.shaped("\u00ca\u0304") is not None
    assert alone != with_mark
