"""Copy as: each format read back from the clipboard, the unit at the cursor when nothing
is selected, the menu driven by keys, a large copy on a worker, and the refusal."""

import ast

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from inspector.core.analysis import copyformats
from inspector.core.source.bytesource import MemorySource
from inspector.gui.window.copyactions import WORKER_THRESHOLD, build_copy_menu

DATA = b"A\t" + "é€".encode() + b"\xc0\xaf" + "😀".encode() + b"\xff"


@pytest.fixture
def setup(widget_on):
    doc, menu = widget_on(build_copy_menu, DATA, show=False)
    QGuiApplication.clipboard().clear()
    return doc, menu


def clip() -> str:
    return QGuiApplication.clipboard().text()


def trigger(menu, fmt):
    menu.copy_actions.actions[fmt].trigger()


def test_menu_has_every_format(setup):
    doc, menu = setup
    assert menu.title().replace("&", "") == "Copy as"
    assert [a.objectName() for a in menu.actions()] == [f"copyAs_{f}" for f in copyformats.FORMATS]


def test_hex(setup):
    doc, menu = setup
    doc.set_selection(0, len(DATA))
    trigger(menu, copyformats.HEX)
    assert bytes.fromhex(clip()) == DATA


def test_python_literal(setup):
    doc, menu = setup
    doc.set_selection(0, len(DATA))
    trigger(menu, copyformats.PYTHON)
    assert ast.literal_eval(clip()) == DATA


def test_c_array(setup):
    doc, menu = setup
    doc.set_selection(2, 5)
    trigger(menu, copyformats.C_ARRAY)
    text = clip()
    assert text.startswith("const unsigned char data[3]")
    body = text[text.index("{") + 1:text.rindex("}")]
    assert bytes(int(v, 16) for v in body.replace("\n", "").split(",")) == DATA[2:5]


def test_decoded_text(setup):
    doc, menu = setup
    doc.set_selection(0, len(DATA))
    trigger(menu, copyformats.TEXT)
    assert clip() == DATA.decode("utf-8", "replace")
    assert "Copied 14 bytes" in menu.copy_actions.last_message


def test_table_of_units(setup):
    doc, menu = setup
    doc.set_selection(0, len(DATA))
    trigger(menu, copyformats.TABLE)
    rows = [r.split("\t") for r in clip().splitlines()]
    assert rows[0][:4] == ["offset", "length", "bytes", "kind"]
    kinds = [r[3] for r in rows[1:]]
    assert kinds == ["valid", "valid", "valid", "valid", "overlong", "valid", "invalid_byte"]
    assert rows[4][2] == "e2 82 ac" and rows[4][4] == "U+20AC"


def test_unit_at_cursor_without_selection(setup):
    doc, menu = setup
    doc.set_cursor(5)  # inside the euro sign (bytes 4..6)
    trigger(menu, copyformats.HEX)
    assert bytes.fromhex(clip()) == "€".encode()
    trigger(menu, copyformats.TEXT)
    assert clip() == "€"


def test_dialect_is_followed(setup):
    doc, menu = setup
    doc.set_source(MemorySource(b"\xed\xa0\xbd\xed\xb8\x80"))
    doc.set_dialect("cesu-8")
    doc.set_cursor(0)
    trigger(menu, copyformats.TEXT)
    assert clip() == "😀"


def test_menu_driven_by_keys(qtbot, setup):
    doc, menu = setup
    doc.set_selection(0, 1)
    menu.popup(QPoint(10, 10))
    qtbot.waitExposed(menu)
    qtbot.keyClick(menu, Qt.Key.Key_Down)
    if menu.activeAction() is not menu.actions()[0]:  # some styles pre-select the first
        menu.setActiveAction(menu.actions()[0])
    with qtbot.waitSignal(menu.copy_actions.copied, timeout=2000):
        qtbot.keyClick(menu, Qt.Key.Key_Return)
    assert clip().strip().lower() == "41"


@pytest.mark.parametrize("fmt", [copyformats.HEX, copyformats.TEXT])
def test_large_copy_runs_on_a_worker(qtbot, setup, fmt):
    doc, menu = setup
    limit = WORKER_THRESHOLD[fmt]
    data = ("ab€" * (limit // 4)).encode()
    doc.set_source(MemorySource(data))
    doc.set_selection(0, len(data))
    assert len(data) > limit
    actions = menu.copy_actions
    with qtbot.waitSignal(actions.copied, timeout=60000):
        trigger(menu, fmt)
        assert actions.busy
        assert actions.last_message.startswith("Copying")
    if fmt == copyformats.HEX:
        assert bytes.fromhex(clip()) == data
    else:
        assert clip() == data.decode()
    qtbot.waitUntil(lambda: not actions.busy, timeout=5000)


def test_too_large_is_refused(qtbot, setup, monkeypatch):
    doc, menu = setup
    monkeypatch.setattr(copyformats, "COPY_LIMIT", 1000)
    doc.set_source(MemorySource(b"x" * 2000))
    doc.set_selection(0, 2000)
    QGuiApplication.clipboard().setText("before")
    trigger(menu, copyformats.HEX)
    assert clip() == "before"
    assert "at most" in menu.copy_actions.last_message
    box = menu.copy_actions.refusal_box
    assert box.isVisible() and "2,000 bytes" in box.text()
    box.close()
    monkeypatch.undo()
    assert copyformats.COPY_LIMIT == 16 << 20


def test_empty_file_is_refused(setup):
    doc, menu = setup
    doc.set_source(MemorySource(b""))
    trigger(menu, copyformats.HEX)
    assert "Nothing to copy" in menu.copy_actions.last_message
    menu.copy_actions.refusal_box.close()
