"""The find bar, driven with real key and mouse events on a real Document."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.core.source.bytesource import FileSource
from inspector.gui.window.findbar import MODE_CODEPOINT, MODE_HEX, MODE_TEXT, FindBar

# "../" three ways: plain, 2-byte overlong, 3-byte overlong; a euro sign; a CESU-8 emoji.
DATA = (b"start ../etc "
        b"x \xc0\xae\xc0\xae\xc0\xaf y "
        b"\xe0\x80\xae\xe0\x80\xae\xe0\x80\xaf "
        b"price \xe2\x82\xac 5 "
        b"\xed\xa0\xbd\xed\xb8\x80 "
        b"\xf0\x9f\x98\x80 end ../")
OVERLONG2 = DATA.index(b"\xc0\xae")
OVERLONG3 = DATA.index(b"\xe0\x80\xae")


@pytest.fixture
def bar(widget_on):
    return widget_on(FindBar, DATA, name="find-sample")[1]


def _type(qtbot, bar, text, mode=MODE_TEXT, spellings=False):
    bar.mode.setCurrentIndex(bar.mode.findData(mode))
    if bar.spellings.isEnabled():
        bar.spellings.setChecked(spellings)
    bar.edit.clear()
    qtbot.keyClicks(bar.edit, text)


def _wait(qtbot, bar):
    qtbot.waitUntil(lambda: not bar.busy, timeout=10000)


def _next(qtbot, bar, shift=False):
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier)
    _wait(qtbot, bar)


def test_text_next_previous_and_wrap(qtbot, bar):
    doc = bar.document
    _type(qtbot, bar, "../")
    _next(qtbot, bar)
    assert doc.selection == (6, 9)
    assert doc.matches == [(6, 9)]
    _next(qtbot, bar)
    assert doc.selection == (DATA.rindex(b"../"), DATA.rindex(b"../") + 3)
    _next(qtbot, bar)  # past the last one: wraps to the first, and says so
    assert doc.selection == (6, 9)
    assert "wrapped" in bar.message.text()
    _next(qtbot, bar, shift=True)  # previous from the first wraps to the last
    assert doc.selection[0] == DATA.rindex(b"../")
    assert "wrapped" in bar.message.text()
    qtbot.mouseClick(bar.prev_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    assert doc.selection == (6, 9)


def test_overlong_spellings_of_dot_dot_slash(qtbot, bar):
    doc = bar.document
    _type(qtbot, bar, "../", spellings=True)
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    found = [(m.offset, m.length, m.spelling) for m in bar.all_matches]
    assert (6, 3, "utf-8") in found
    assert (OVERLONG2, 6, "overlong") in found
    assert (OVERLONG3, 9, "overlong") in found
    assert bar.results.count() == len(found)
    assert doc.matches == [(o, o + n) for o, n, _s in found]
    # Without the option only the plain spelling is found.
    _type(qtbot, bar, "../", spellings=False)
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    assert [m.offset for m in bar.all_matches] == [6, DATA.rindex(b"../")]


def test_hex_with_wildcards(qtbot, bar):
    doc = bar.document
    _type(qtbot, bar, "C0 ?? C0 AF", MODE_HEX)
    assert not bar.spellings.isEnabled()
    _next(qtbot, bar)
    assert doc.selection == (OVERLONG2 + 2, OVERLONG2 + 6)
    _type(qtbot, bar, "e282ac", MODE_HEX)
    _next(qtbot, bar)
    assert doc.selection == (DATA.index(b"\xe2\x82\xac"), DATA.index(b"\xe2\x82\xac") + 3)


def test_codepoint_with_cesu_spelling(qtbot, bar):
    doc = bar.document
    _type(qtbot, bar, "U+1F600", MODE_CODEPOINT, spellings=True)
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    spell = {m.offset: m.spelling for m in bar.all_matches}
    cesu = DATA.index(b"\xed\xa0\xbd")
    utf8 = DATA.index(b"\xf0\x9f\x98\x80")
    assert spell[utf8] == "utf-8"
    assert spell[cesu] in ("cesu-8", "mutf-8")
    # A click in the list goes to that match.
    item = bar.results.item(list(spell).index(cesu))
    rect = bar.results.visualItemRect(item)
    qtbot.mouseClick(bar.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.selection == (cesu, cesu + 6)


def test_bad_query_says_why(qtbot, bar):
    doc = bar.document
    before = doc.selection
    _type(qtbot, bar, "E2 8", MODE_HEX)
    _next(qtbot, bar)
    assert bar.message.isVisible()
    assert bar.message.text().startswith("Cannot search:")
    assert doc.selection == before
    _type(qtbot, bar, "U+ZZZZ", MODE_CODEPOINT)
    _next(qtbot, bar)
    assert "Cannot search" in bar.message.text()
    bar.edit.clear()
    _next(qtbot, bar)
    assert "Cannot search" in bar.message.text()


def test_not_found(qtbot, bar):
    _type(qtbot, bar, "absent")
    _next(qtbot, bar)
    assert "Not found" in bar.message.text()
    assert bar.document.matches == []


def test_find_all_limit_note(qtbot, document_on_file, shown):
    bar = shown(FindBar(document_on_file(b"ab" * 5000, "many.bin")))
    bar.FIND_ALL_LIMIT = 100
    _type(qtbot, bar, "ab")
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    assert len(bar.all_matches) == 100
    assert "limit" in bar.message.text()


def test_escape_hides_and_show_bar_focuses(qtbot, bar):
    bar.hide()
    bar.show_bar()
    assert bar.isVisible()
    qtbot.keyClick(bar.edit, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert bar.document.matches == []


def test_cancel_a_whole_file_search(qtbot, document_on_file, shown):
    doc = document_on_file(b"\0" * (48 << 20), "big.bin")
    bar = shown(FindBar(doc))
    _type(qtbot, bar, "C0 ?? AF", MODE_HEX)
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    assert bar.busy and bar.cancel_button.isVisible()
    qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    assert not bar.busy
    assert "cancelled" in bar.message.text()
    assert isinstance(doc.source, FileSource)


def test_a_new_query_clears_the_old_matches(qtbot, bar):
    doc = bar.document
    seen = []
    bar.document.matchesChanged.connect(lambda: seen.append(list(doc.matches)))
    _type(qtbot, bar, "../")
    qtbot.mouseClick(bar.all_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, bar)
    assert len(doc.matches) == 2 and bar.results.isVisible()
    qtbot.keyClicks(bar.edit, "e")
    assert doc.matches == [] and bar.results.count() == 0
    assert seen[-1] == []


def test_a_match_at_the_cursor_is_brought_back_on_screen(document_of):
    """Scrolled away from the cursor, a find whose match starts at the cursor still
    shows it (the cursor did not move, so it must be announced anyway)."""
    doc = document_of(b"needle " + b"x" * 100_000)
    seen = []
    doc.cursorChanged.connect(seen.append)
    doc.set_anchor(50_000, scrolled=True)
    doc.set_selection(0, 6, reveal=True)
    assert seen == [0] and doc.selection == (0, 6)
