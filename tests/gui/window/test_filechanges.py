"""Files that change while they are open: the window notices, says so in a banner (not a
modal box), keeps painting without crashing on short reads, and Reload keeps the cursor
where it still makes sense."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

DATA = ("é" * 2000).encode()  # 4000 bytes of two-byte units


@pytest.fixture
def changing(opened, qtbot):
    """A window on DATA with the cursor near the end, both panes painted."""
    w = opened(DATA, "changing.txt")
    w.go_to(3500)
    exercise(w, qtbot)
    return w


def exercise(w, qtbot) -> None:
    """Paint both panes and move around: nothing may raise (pytest-qt fails the test on
    an exception inside a paint or a key handler)."""
    for view in (w.hex_view, w.text_view):
        if view is not None:
            view.viewport().repaint()
    for key in (Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_End, Qt.Key.Key_Up,
                Qt.Key.Key_Right, Qt.Key.Key_PageUp):
        qtbot.keyClick(w.hex_view, key)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    w.hex_view.viewport().repaint()
    if w.text_view is not None:
        w.text_view.viewport().repaint()
    w.inspector_dock.refresh()


def test_truncated_to_half(changing, qtbot):
    w, doc = changing, changing.document
    doc.set_cursor(3500)
    os.truncate(doc.path, 2000)
    change = w.file_watch.check()
    assert change is not None and change.shrunk
    assert w.file_watch.banner.isVisibleTo(w)
    text = w.file_watch.text.text()
    assert "shrank from 4,000 to 2,000 bytes" in text
    assert "2,000 (0x7D0)" in text and "Reload" in text
    # Reading past the new end is short, and the views cope with it.
    assert doc.read(1990, 100) == DATA[1990:2000]
    exercise(w, qtbot)
    # The same change is announced once, not every tick of the timer.
    seen = []
    doc.fileChanged.connect(seen.append)
    w.file_watch.check()
    assert seen == []
    qtbot.mouseClick(w.file_watch.reload_button, Qt.MouseButton.LeftButton)
    assert not w.file_watch.banner.isVisibleTo(w)
    assert doc.size == 2000
    assert doc.cursor == 1999          # clamped to the new last byte
    assert w.status_fields.size.text() == "2,000 bytes"
    exercise(w, qtbot)


def test_truncated_to_zero(changing, qtbot):
    w, doc = changing, changing.document
    os.truncate(doc.path, 0)
    w.file_watch.check()
    assert "truncated to 0 bytes (it had 4,000)" in w.file_watch.text.text()
    assert doc.read(0, 10) == b""
    exercise(w, qtbot)
    w.files.reload()
    assert doc.size == 0 and doc.cursor == 0
    assert w.status_fields.cursor.text() == "empty file"
    exercise(w, qtbot)


def test_grown(changing, qtbot):
    w, doc = changing, changing.document
    doc.set_cursor(1000)
    with open(doc.path, "ab") as f:
        f.write(b"\xff" * 96)
    w.file_watch.check()
    assert "grew from 4,000 to 4,096 bytes" in w.file_watch.text.text()
    assert "96 new bytes are not shown" in w.file_watch.text.text()
    exercise(w, qtbot)
    doc.set_cursor(1000)
    w.files.reload()
    assert doc.size == 4096 and doc.cursor == 1000
    assert doc.unit_at(4095).kind == "invalid_byte"


def test_replaced_by_another_file(changing, tmp_path, qtbot):
    w, doc = changing, changing.document
    other = tmp_path / "other.txt"
    other.write_bytes(b"new contents \xc0\xaf")
    os.replace(other, doc.path)
    w.file_watch.check()
    assert "replaced by another file" in w.file_watch.text.text()
    # Until a reload the views show the file that was opened (still readable).
    assert doc.read(0, 2) == DATA[:2]
    exercise(w, qtbot)
    w.files.reload()
    assert doc.read(0, 3) == b"new" and doc.size == 15
    assert doc.cursor == 14
    assert not w.file_watch.banner.isVisibleTo(w)


def test_deleted_file_reload_says_why_and_keeps_the_document(changing, qtbot):
    w, doc = changing, changing.document
    path = doc.path
    source = doc.source
    os.remove(path)
    w.file_watch.check()
    assert w.file_watch.banner.isVisibleTo(w)
    w.files.reload()
    assert doc.source is source
    assert "no such file" in w.last_error
    w.error_box.close()
    exercise(w, qtbot)


def test_dismiss_hides_until_the_file_changes_again(changing, qtbot):
    w, doc = changing, changing.document
    os.truncate(doc.path, 3000)
    w.file_watch.check()
    qtbot.mouseClick(w.file_watch.dismiss_button, Qt.MouseButton.LeftButton)
    assert not w.file_watch.banner.isVisibleTo(w)
    w.file_watch.check()
    assert not w.file_watch.banner.isVisibleTo(w)
    os.truncate(doc.path, 1000)
    w.file_watch.check()
    assert w.file_watch.banner.isVisibleTo(w)
    assert "to 1,000 bytes" in w.file_watch.text.text()


def test_the_window_notices_by_itself(changing, qtbot):
    """No explicit check: the watcher, the periodic stat or activation finds it."""
    w, doc = changing, changing.document
    os.truncate(doc.path, 100)
    qtbot.waitUntil(lambda: w.file_watch.banner.isVisibleTo(w), timeout=6000)
    assert "shrank" in w.file_watch.text.text()


def test_banner_is_not_a_modal_box(changing):
    w, doc = changing, changing.document
    os.truncate(doc.path, 10)
    w.file_watch.check()
    assert w.file_watch.banner.objectName() == "fileBanner"
    assert w.file_watch.banner.parent() is w.centralWidget()
    assert w.error_box is None or not w.error_box.isVisible()
