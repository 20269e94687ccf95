"""Every way the window copies, on the same bytes, gives the same text: the hex view
(Ctrl+C, its context menu), the text pane (Ctrl+C, its own key handling, its context
menu), Edit > Copy as decoded text, and the Copy as menu, in every dialect; and the
one limit refuses them all alike. The text is the core's (``copyformats``)."""

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent

from inspector.core.analysis import copyformats
from inspector.core.units import kinds as K

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
BEFORE = "(the clipboard before)"

# Text, U+FEFF, a lone surrogate, a CESU-8 pair, Modified UTF-8's NUL and a raw NUL,
# controls (C0, DEL, C1), a bidi control, and every kind of error. (Not U+FEFF first:
# Qt's clipboard drops a leading one, whichever path put it there.)
DATA = (b"A\xef\xbb\xbf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
        b" \xed\xa0\x80 \xed\xa0\xbd\xed\xb8\x80 \xc0\x80 \x00"
        b" \x01\x07\t\x1b\x7f\xc2\x85\r\n\xe2\x80\xae"
        b" \xc0\xaf \xe2\x82Z \x80\xbf \xf4\x90\x80\x80 \xf8\x88\x80\x80\x80 \xfe\xff end")


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


def copied(do) -> str:
    QGuiApplication.clipboard().setText(BEFORE)
    do()
    return clipboard()


def context_action(menu, name: str) -> QAction:
    action = menu.findChild(QAction, name)
    assert action is not None, name
    return action


def press(qtbot, widget, mods):
    """Ctrl(+Shift)+C on ``widget``, focused, as a person types it."""
    def do():
        widget.setFocus()
        qtbot.keyClick(widget, Qt.Key.Key_C, mods)
    return do


def text_paths(w, qtbot):
    """Every way to copy the selection as decoded text, by name."""
    hex_view, text_view = w.hex_view, w.text_view

    def pane_key_handler():
        # The pane's own Ctrl+C (in the window, the Edit menu's shortcut takes it first).
        text_view.keyPressEvent(QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_C, CTRL))

    return {
        "hex view: context menu Copy as text": lambda: context_action(
            hex_view.build_context_menu(0), "contextCopyAs_text").trigger(),
        "text pane: Ctrl+C": press(qtbot, text_view, CTRL),
        "text pane: its own key handling": pane_key_handler,
        "text pane: context menu Copy text": lambda: context_action(
            text_view.context_menu(0), "copyText").trigger(),
        "Edit > Copy as decoded text (Ctrl+Shift+C)": press(qtbot, hex_view, CTRL | SHIFT),
        "Edit > Copy as decoded text": w.act_copy_text.trigger,
        "Copy as > Decoded text": w.copy_actions.actions[copyformats.TEXT].trigger,
    }


def hex_paths(w, qtbot):
    """Every way to copy the selection as hex, by name."""
    return {
        "hex view: Ctrl+C": press(qtbot, w.hex_view, CTRL),
        "hex view: context menu Copy as hex": lambda: context_action(
            w.hex_view.build_context_menu(0), "contextCopyAs_hex").trigger(),
        "Copy as > Hex": w.copy_actions.actions[copyformats.HEX].trigger,
    }


@pytest.mark.parametrize("dialect", K.DIALECTS)
def test_every_path_copies_the_same_text(opened, qtbot, dialect):
    w = opened(DATA)
    w.document.set_dialect(dialect)
    w.document.set_selection(0, len(DATA))
    expected = copyformats.copy_bytes(DATA, copyformats.TEXT, dialect=dialect)
    # The rule itself: the decoder's text, with no lone surrogate (no clipboard holds
    # one), a U+FFFD for every replacement.
    assert not any("\ud800" <= c <= "\udfff" for c in expected)
    expected.encode("utf-8")
    if dialect == K.UTF8:
        assert expected == DATA.decode("utf-8", "replace")
    got = {name: copied(path) for name, path in text_paths(w, qtbot).items()}
    assert got == {name: expected for name in got}
    hex_expected = copyformats.copy_bytes(DATA, copyformats.HEX)
    got = {name: copied(path) for name, path in hex_paths(w, qtbot).items()}
    assert got == {name: hex_expected for name in got}


def test_a_lone_surrogate_is_copied_as_u_fffd_by_every_path(opened, qtbot):
    w = opened(b"a\xed\xa0\x80b")
    w.document.set_dialect(K.WTF8)   # where the lone surrogate is a valid unit
    w.document.set_selection(0, 5)
    got = {name: copied(path) for name, path in text_paths(w, qtbot).items()}
    assert set(got.values()) == {"a\ufffdb"}


def test_the_one_limit_refuses_every_path(opened, qtbot, monkeypatch):
    w = opened(DATA)
    monkeypatch.setattr(copyformats, "COPY_LIMIT", 10)
    w.document.set_selection(0, 11)
    for name, path in {**text_paths(w, qtbot), **hex_paths(w, qtbot)}.items():
        assert copied(path) == BEFORE, name
        assert "11 bytes; a copy takes at most" in w.copy_actions.last_message, name
        w.copy_actions.refusal_box.close()
    w.document.set_selection(0, 10)
    assert copied(w.copy_actions.actions[copyformats.HEX].trigger) != BEFORE
