"""View > Interpret as another encoding, with real keys and clicks: the panes, the
sequence inspector, the status bar, the offer, find and copy follow the choice."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QApplication

from inspector.gui.window import findbar

KEY = Qt.Key
MOD = Qt.KeyboardModifier
CAFE = "Le café est prêt"


def first_line_text(window) -> str:
    view = window.text_view
    view.repaint()
    line = view.text_layout.line_at(0)
    return "".join(c.text for c in line.cells)


def open_file(window, qtbot, path):
    window.document.open_path(str(path))
    qtbot.waitUntil(lambda: window.scan_life.complete, timeout=20000)


def popup(qtbot):
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=5000)
    return QApplication.activePopupWidget()


def choose_by_keyboard(window, qtbot, *letters):
    """Alt+V, then each mnemonic letter in the menu that opens: a letter two items share
    ("Zoom &in", "&Interpret as") moves between them, so it is pressed until the item
    wanted is the active one, and Return opens it (a submenu opens as its own popup)."""
    qtbot.keyClick(window.menuBar(), KEY.Key_V, MOD.AltModifier)
    menu = popup(qtbot)
    for i, (letter, wanted) in enumerate(letters):
        for _ in range(len(menu.actions())):
            qtbot.keyClick(menu, getattr(KEY, f"Key_{letter}"))
            if menu.activeAction() is wanted or QApplication.activePopupWidget() is not menu:
                break
        if menu.activeAction() is wanted and QApplication.activePopupWidget() is menu:
            qtbot.keyClick(menu, KEY.Key_Return)
        if i + 1 < len(letters):
            qtbot.waitUntil(lambda m=menu: QApplication.activePopupWidget() not in (None, m),
                            timeout=5000)
            menu = QApplication.activePopupWidget()


def click_action(qtbot, menu, action):
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())


@pytest.fixture
def cafe(write_file):
    return write_file(f"{CAFE}\nÀ bientôt, façade, “naïve” œuvre – 5 €\n".encode("cp1252") * 30,
                      "cafe.txt")


def test_choosing_windows_1252_by_keyboard_shows_the_text(window, qtbot, cafe):
    open_file(window, qtbot, cafe)
    assert first_line_text(window).startswith("Le caf\ufffd")   # read as UTF-8 first
    # View > Interpret as > Western > Windows-1252, by mnemonics.
    with qtbot.waitSignal(window.document.dialectChanged, timeout=5000):
        choose_by_keyboard(window, qtbot, ("I", window.dialect_menu.menuAction()),
                           ("W", window.encoding_menus["Western"].menuAction()),
                           ("W", window.dialect_actions["cp1252"]))
    assert window.document.dialect == "cp1252"
    assert first_line_text(window).startswith(CAFE)
    assert window.dialect_actions["cp1252"].isChecked()
    assert window.status_fields.dialect.text() == "Windows-1252 (Western)"
    qtbot.waitUntil(lambda: window.scan_life.complete, timeout=20000)
    assert window.document.scan.dialect == "cp1252"
    assert window.document.scan.error_units == 0


def test_choosing_koi8_r_with_the_mouse(window, qtbot, write_file):
    path = write_file("Привет, мир!\n".encode("koi8-r") * 20, "koi8.txt")
    open_file(window, qtbot, path)
    group = window.encoding_menus["Cyrillic"]
    action = window.dialect_actions["koi8-r"]
    window.dialect_menu.popup(window.mapToGlobal(window.rect().center()))
    click_action(qtbot, window.dialect_menu, group.menuAction())
    with qtbot.waitSignal(window.document.dialectChanged, timeout=5000):
        click_action(qtbot, group, action)
    assert first_line_text(window).startswith("Привет, мир!")


def test_the_offer_reads_the_file_as_the_verdict_says_in_one_click(window, qtbot, cafe):
    open_file(window, qtbot, cafe)
    offer = window.encoding_offer
    qtbot.waitUntil(offer.isVisible, timeout=5000)
    assert "Windows-1252" in offer.text()
    qtbot.mouseClick(offer, Qt.MouseButton.LeftButton)
    assert window.document.dialect == "cp1252"
    assert first_line_text(window).startswith(CAFE)
    assert not offer.isVisible()
    # Nothing about the file is remembered: opened again, it reads as the reading in
    # use, and a map's reading goes with its file.
    window.set_encoding("utf-8")
    open_file(window, qtbot, cafe)
    assert window.document.dialect == "utf-8"


def test_the_offer_stands_whole_beside_the_verdict_in_a_narrow_window(window, qtbot, cafe):
    window.resize(1000, 600)
    open_file(window, qtbot, cafe)
    offer = window.encoding_offer
    qtbot.waitUntil(offer.isVisible, timeout=5000)
    assert offer.text() == "Read as Windows-1252"
    fields = window.status_fields
    qtbot.waitUntil(lambda: offer.width() >= offer.sizeHint().width(), timeout=2000)
    assert offer.geometry().left() >= fields.verdict.geometry().right()
    read_only = fields.read_only
    assert offer.geometry().right() < read_only.geometry().left()


def test_the_inspector_shows_the_bytes_in_the_encoding_and_in_utf8(window, qtbot, cafe):
    open_file(window, qtbot, cafe)
    window.set_encoding("cp1252")
    window.document.set_cursor(6)   # the é
    dock = window.inspector_dock
    qtbot.waitUntil(lambda: dock.unit is not None and dock.unit.offset == 6, timeout=5000)
    facts = dict(dock.facts)
    assert facts["In Windows-1252"] == "1 byte: E9"
    assert facts["UTF-8"] == "C3 A9"
    assert facts["Name"] == "LATIN SMALL LETTER E WITH ACUTE"
    assert "U+00E9" in window.status_fields.unit.text()


def test_find_searches_text_as_the_encoding_writes_it(window, qtbot, cafe):
    open_file(window, qtbot, cafe)
    window.set_encoding("cp1252")
    window.show_find()
    bar = window.find_bar
    bar.mode.setCurrentIndex(bar.mode.findData(findbar.MODE_TEXT))
    qtbot.keyClicks(bar.edit, "pr")
    # QTest types ASCII only: the ê comes as a keyboard layout sends it, as text.
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        QApplication.sendEvent(bar.edit, QKeyEvent(kind, KEY.Key_Ecircumflex, MOD.NoModifier, "ê"))
    qtbot.keyClicks(bar.edit, "t")
    assert bar.edit.text() == "prêt"
    qtbot.keyClick(bar.edit, KEY.Key_Return)
    qtbot.waitUntil(lambda: window.document.has_selection, timeout=10000)
    assert window.document.selection == (12, 16)   # p r ê t, one byte each


def test_copy_as_text_follows_the_encoding(window, qtbot, cafe):
    open_file(window, qtbot, cafe)
    window.set_encoding("cp1252")
    window.document.set_selection(0, len(CAFE))
    window.hex_view.setFocus()
    qtbot.keyClick(window.hex_view, KEY.Key_C, MOD.ControlModifier | MOD.ShiftModifier)
    text = window.copy_actions and QGuiApplication.clipboard().text()
    if text != CAFE:   # Ctrl+Shift+C may be bound to another format: ask for text itself
        from inspector.gui.window import copyactions

        text = copyactions.copy_now(window.document, "text")
    assert text == CAFE


def test_utf16_shows_a_surrogate_pair_as_one_character(window, qtbot, write_file):
    path = write_file(("Hi 😀 there\n" * 10).encode("utf-16"), "u16.txt")
    open_file(window, qtbot, path)
    window.set_encoding("utf-16")
    assert window.document.unit_at(8).length == 4   # the 😀: bytes 8..11
    assert window.document.unit_start(10) == 8
    text = first_line_text(window)
    assert "😀" in text and "there" in text


def test_decode_from_here_says_how_far_the_misreading_runs(window, qtbot, write_file):
    path = write_file(("中文文本" * 16 + "\n").encode("big5") * 4, "big5.txt")
    open_file(window, qtbot, path)
    window.set_encoding("big5")
    window.document.set_cursor(1)
    window.hex_view.setFocus()
    qtbot.keyClick(window.hex_view, KEY.Key_R, MOD.ControlModifier)
    assert window.document.origin == 1
    text = window.status_fields.resync.text()
    assert "Big5 from 0x1" in text and "in step at 0x80" in text and "UTF-8 there" in text
    window.set_encoding("utf-16-le")
    assert "never back in step" in window.status_fields.resync.text()


def test_by_the_encoding_map_needs_the_map_and_reads_each_region(window, qtbot, write_file):
    utf8 = ("A line of UTF-8: héllo wörld ✓\n" * 40).encode()
    legacy = ("Une ligne en Windows-1252 : café, crème brûlée\n" * 40).encode("cp1252")
    path = write_file(utf8 + legacy + utf8, "mixed.txt")
    open_file(window, qtbot, path)
    offer = window.encoding_offer
    qtbot.waitUntil(offer.isVisible, timeout=5000)
    assert offer.text() == "Read by the encoding map"
    qtbot.mouseClick(offer, Qt.MouseButton.LeftButton)
    assert window.document.dialect == "map"
    at = len(utf8) + legacy.index("café".encode("cp1252"))
    assert window.document.unit_at(at + 3).value == 0xE9
    assert window.document.unit_at(1).value == ord(" ")
    assert window.status_fields.dialect.text() == "By the encoding map"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-16", "utf-32", "cp037"])
def test_the_text_pane_breaks_lines_at_the_encodings_own_line_feed(encoding):
    """A 0A byte inside a UTF-16 character (Ċ is 0A 01) is no line break; the line feed
    is 0A 00 there, 25 in EBCDIC."""
    from inspector.core.source.bytesource import MemorySource
    from inspector.core.units.interpretation import interpretation
    from inspector.gui.panes import textlayout as TL

    text = "aĊ上b\nxy\n"
    data = text.encode(encoding, "replace")
    model = TL.SourceModel(MemorySource(data), None, interpretation(encoding))
    layout = TL.TextLayout(model, wrap_width=80)
    pos, lines = 0, []
    while pos < len(data):
        par = layout.paragraph(pos)
        lines.append("".join(chr(u.value) for u in par.units if u.value != 0xFEFF))
        pos = par.end
    assert lines == text.encode(encoding, "replace").decode(encoding).splitlines(True)
