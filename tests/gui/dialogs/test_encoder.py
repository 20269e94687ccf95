"""The encoder dialog: typed input (characters, code points) good and bad, the worked
example layout, the other spellings, and "Find in file"."""

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from inspector.core.units import kinds as K
from inspector.core.analysis import search
from inspector.gui.dialogs.encoder import EncoderDialog, parse_input


@pytest.fixture
def dialog(qtbot):
    d = EncoderDialog()
    qtbot.addWidget(d)
    d.show()
    return d


def type_text(qtbot, dialog, text):
    """Type into the input with real key events. QTest's keyClicks aborts on characters
    beyond Latin-1, so those are sent as key events that carry their text."""
    dialog.input.clear()
    dialog.input.setFocus()
    for ch in text:
        if ord(ch) < 0x80:
            qtbot.keyClicks(dialog.input, ch)
        else:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(dialog.input, QKeyEvent(kind, Qt.Key.Key_unknown,
                                                               Qt.KeyboardModifier.NoModifier, ch))
    assert dialog.input.text() == text


def test_typed_euro_shows_the_worked_example(qtbot, dialog):
    type_text(qtbot, dialog, "€")
    assert dialog.error == ""
    assert dialog.codepoints == [0x20AC]
    e = dialog.encodings[0]
    assert e.utf8 == b"\xe2\x82\xac"
    assert e.bit_groups == ("0010", "000010", "101100")
    assert dialog.spellings[0].name == "UTF-8"
    assert dialog.spellings[0].data == b"\xe2\x82\xac"
    assert dialog.table.item(0, 1).text() == "E2 82 AC"
    assert dialog.table.item(0, 2).text() == "valid"
    # the overlong 4-byte spelling is listed and is what a decoder flags
    names = {s.name: s for s in dialog.spellings}
    assert names["overlong, 4 bytes"].data == b"\xf0\x82\x82\xac"
    assert names["overlong, 4 bytes"].verdict() == K.OVERLONG
    assert "1 code point, 3 UTF-8 bytes" in dialog.message.text()


def test_written_code_point_and_cesu(qtbot, dialog):
    type_text(qtbot, dialog, "U+1F600")
    assert dialog.codepoints == [0x1F600]
    rows = {s.name: s for s in dialog.spellings}
    assert rows["UTF-8"].data == bytes.fromhex("f09f9880")
    assert rows["CESU-8"].data == bytes.fromhex("eda0bdedb880")
    assert rows["Modified UTF-8"].data == bytes.fromhex("eda0bdedb880")
    assert rows["CESU-8"].verdict() == K.SURROGATE
    assert rows["CESU-8"].verdict(K.CESU8) == "valid"


def test_several_code_points_and_characters(qtbot, dialog):
    type_text(qtbot, dialog, "u+41, 0x20AC")
    assert dialog.codepoints == [0x41, 0x20AC]
    type_text(qtbot, dialog, "é€")
    assert dialog.codepoints == [0xE9, 0x20AC]
    assert dialog.spellings[0].data == "é€".encode()
    # several characters have no single overlong row
    assert [s.name for s in dialog.spellings] == ["UTF-8", "CESU-8", "Modified UTF-8"]


def test_nul_in_modified_utf8(qtbot, dialog):
    type_text(qtbot, dialog, "U+0000")
    rows = {s.name: s for s in dialog.spellings}
    assert rows["Modified UTF-8"].data == b"\xc0\x80"
    assert rows["UTF-8"].data == b"\x00"


@pytest.mark.parametrize("text,words", [
    ("U+12G4", "not a code point"),
    ("U+110000", "above U+10FFFF"),
    ("0x", "not a code point"),
])
def test_bad_input_says_why(qtbot, dialog, text, words):
    type_text(qtbot, dialog, text)
    assert dialog.encodings == []
    assert words in dialog.error
    assert words in dialog.message.text()
    assert not dialog.find_button.isEnabled()


def test_empty_input_prompts(dialog):
    assert dialog.error.startswith("Type a character")
    assert not dialog.find_button.isEnabled()


def test_surrogate_is_shown_with_a_warning(qtbot, dialog):
    type_text(qtbot, dialog, "U+D800")
    assert dialog.spellings[0].data == b"\xed\xa0\x80"
    assert "surrogate" in dialog.message.text()
    assert dialog.table.item(0, 2).text() == K.SURROGATE


def test_above_unicode_with_the_1993_form(qtbot, dialog):
    type_text(qtbot, dialog, "U+7FFFFFFF")
    assert dialog.error
    qtbot.mouseClick(dialog.legacy, Qt.MouseButton.LeftButton)
    assert dialog.legacy.isChecked()
    assert dialog.spellings[0].data == b"\xfd\xbf\xbf\xbf\xbf\xbf"
    assert "beyond Unicode" in dialog.message.text()


def test_find_in_file_emits_the_selected_spelling(qtbot, dialog):
    type_text(qtbot, dialog, "/")
    names = [s.name for s in dialog.spellings]
    dialog.table.selectRow(names.index("overlong, 2 bytes"))
    with qtbot.waitSignal(dialog.findRequested, timeout=2000) as blocker:
        qtbot.mouseClick(dialog.find_button, Qt.MouseButton.LeftButton)
    found = blocker.args[0]
    assert found.literal == b"\xc0\xaf"
    assert found.kind == search.HEX


def test_find_every_spelling_pattern_matches_overlong(qtbot, dialog):
    type_text(qtbot, dialog, "../")
    qtbot.mouseClick(dialog.all_spellings, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(dialog.findRequested, timeout=2000) as blocker:
        qtbot.mouseClick(dialog.find_button, Qt.MouseButton.LeftButton)
    pattern = blocker.args[0]
    assert pattern.spellings and pattern.kind == search.CODEPOINT
    assert pattern.regex.fullmatch(b"\xc0\xae\xc0\xae\xc0\xaf")
    assert pattern.regex.fullmatch(b"../")


def test_parse_input_rules():
    assert parse_input("cafe") == [ord(c) for c in "cafe"]  # bare hex is text
    assert parse_input("U+00E9 U+20AC") == [0xE9, 0x20AC]
    assert parse_input("\\u20AC") == [0x20AC]
    assert parse_input(" ") == [0x20]
    with pytest.raises(ValueError):
        parse_input("")


def test_layout_rows_are_painted(qtbot, dialog, tmp_path):
    type_text(qtbot, dialog, "é€😀")
    from inspector.gui.look.bitlayout import BitLayoutView

    def shown():
        return [v for v in dialog.layouts_widget.findChildren(BitLayoutView)
                if v.isVisibleTo(dialog)]

    # A layout shows a widget added to a visible parent at the next event loop pass.
    qtbot.waitUntil(lambda: len(shown()) == 3, timeout=2000)
    assert shown()[2].layout_data.joined_bits == "000011111011000000000"
    assert dialog.grab().save(str(tmp_path / "encoder.png"))
