"""The main window: files, menus, dialects, origins, problems, settings, workers."""

from __future__ import annotations

import os
import threading

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QDragEnterEvent
from PySide6.QtWidgets import QApplication

from inspector.core.units import kinds as K


def test_builds_without_arguments_and_names(qtbot):
    from inspector.gui import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    assert w.objectName() == "mainWindow"
    assert w.findChild(type(w.hex_view), "hexView") is w.hex_view
    if w.text_view is not None:
        assert w.text_view.objectName() == "textView"
    for name in ("cursor", "set_cursor", "selection", "set_selection", "origin",
                 "set_origin", "dialect", "set_dialect"):
        assert hasattr(w.document, name)
    w.shutdown()


def test_open_shows_file_title_size_and_read_only(window, demo_path, qtbot):
    assert window.files.open_file(demo_path)
    doc = window.document
    assert doc.size == os.path.getsize(demo_path)
    assert demo_path.name in window.windowTitle() and "Read-only" in window.windowTitle()
    assert window.status_fields.read_only.text() == "Read-only" and window.status_fields.read_only.isVisible()
    assert f"{doc.size:,} bytes" == window.status_fields.size.text()
    assert window.status_fields.cursor.text() == "0x0 (0)"
    assert window.hex_view.visible_range()[0] == 0
    assert window.settings.recent_files()[0] == os.path.abspath(demo_path)


def test_title_escapes_a_name_that_is_not_utf8(window, tmp_path):
    name = os.fsencode(str(tmp_path)) + b"/caf\xe9-\xff.txt"
    with open(name, "wb") as f:
        f.write(b"abc")
    assert window.files.open_file(name)
    title = window.windowTitle()
    assert "caf\\xe9-\\xff.txt" in title


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo", "device"])
def test_bad_paths_show_a_message_and_keep_the_document(window, demo_path, tmp_path, kind):
    window.files.open_file(demo_path)
    before = window.document.source
    if kind == "missing":
        bad = tmp_path / "nope.txt"
    elif kind == "directory":
        bad = tmp_path
    elif kind == "fifo":
        bad = tmp_path / "pipe"
        os.mkfifo(bad)
    else:
        bad = "/dev/null"
    assert not window.files.open_file(bad)
    assert window.document.source is before
    assert window.error_box is not None and window.error_box.isVisible()
    words = {"missing": "no such file", "directory": "directory", "fifo": "FIFO",
             "device": "device"}[kind]
    assert words in window.error_box.text()
    window.error_box.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file(window, write_file):
    path = write_file(b"secret")
    path.chmod(0)
    assert not window.files.open_file(path)
    assert "permission" in window.last_error


def drop(window, urls):
    mime = QMimeData()
    mime.setUrls(urls)
    pos = QPointF(100, 100)
    enter = QDragEnterEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    accepted = enter.isAccepted()
    ev = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, ev)
    return accepted


def test_drag_and_drop_opens_the_file(window, write_file):
    path = write_file("dropped €".encode(), "dropped.txt")
    assert drop(window, [QUrl.fromLocalFile(str(path))])
    assert window.document.path == str(path)
    assert "dropped.txt" in window.windowTitle()
    assert not drop(window, [QUrl("https://example.com/x.txt")])
    assert window.document.path == str(path)


def test_switch_dialect_recuts_a_cesu8_pair(opened, qtbot):
    w = opened(b"A\xed\xa0\xbd\xed\xb8\x80B")   # U+1F600 as a CESU-8 pair
    doc = w.document
    assert doc.unit_at(1).kind == K.SURROGATE and doc.unit_at(4).kind == K.SURROGATE
    w.dialect_actions["cesu-8"].trigger()
    assert doc.dialect == "cesu-8"
    u = doc.unit_at(4)
    assert (u.offset, u.length, u.kind, u.value) == (1, 6, K.VALID, 0x1F600)
    assert "CESU-8" in w.status_fields.dialect.text()
    w.hex_view.repaint()
    w.dialect_actions["utf-8"].trigger()
    assert doc.unit_at(4).kind == K.SURROGATE
    assert w.dialect_actions["utf-8"].isChecked()


def test_decode_from_here_and_clear_origin_by_shortcuts(opened, qtbot):
    w = opened("ab€€€".encode())
    view, doc = w.hex_view, w.document
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)  # into the €
    assert doc.cursor == 3
    qtbot.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert doc.origin == 3
    assert w.status_fields.resync.text() == "decoding from 0x3: 2 bytes lost, in step at 0x5"
    assert doc.unit_at(3).kind == K.UNEXPECTED_CONTINUATION
    assert doc.unit_at(2).kind == K.TRUNCATED          # before the origin: its own stream
    view.repaint()
    qtbot.keyClick(view, Qt.Key.Key_R,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert doc.origin is None and w.status_fields.resync.text() == ""
    assert doc.unit_at(3).offset == 2


def test_next_and_previous_problem(opened, qtbot):
    data = b"ok " + b"\xc0\xaf" + b" fine " + "é".encode() + b" \xff end"
    w = opened(data)
    view, doc = w.hex_view, w.document
    with qtbot.waitSignal(w.searchFinished, timeout=10_000):
        qtbot.keyClick(view, Qt.Key.Key_F8)
    assert doc.cursor == 3
    with qtbot.waitSignal(w.searchFinished, timeout=10_000):
        qtbot.keyClick(view, Qt.Key.Key_F8)
    assert doc.cursor == data.index(b"\xff")
    with qtbot.waitSignal(w.searchFinished, timeout=10_000) as blocker:
        qtbot.keyClick(view, Qt.Key.Key_F8)
    assert blocker.args == [None]
    assert "no further problem" in w.status_fields.note.text()
    assert doc.cursor == data.index(b"\xff")
    with qtbot.waitSignal(w.searchFinished, timeout=10_000):
        qtbot.keyClick(view, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert doc.cursor == 3
    with qtbot.waitSignal(w.searchFinished, timeout=10_000) as blocker:
        qtbot.keyClick(view, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert blocker.args == [None]


def test_status_bar_names_the_unit_and_the_selection(opened):
    w = opened("a€".encode() + b"\xe2\x82")
    doc = w.document
    doc.set_cursor(1)
    assert w.status_fields.unit.text() == "U+20AC EURO SIGN"
    assert w.status_fields.cursor.text() == "0x1 (1)"
    doc.set_cursor(4)
    assert w.status_fields.unit.text() == "truncated sequence, 2 bytes"
    doc.set_selection(0, 4)
    assert w.status_fields.selection.text() == "selected 4 bytes"


def test_settings_persist_between_windows(window, demo_path, qtbot):
    from inspector.gui.window.mainwindow import MainWindow

    window.files.open_file(demo_path)
    window.set_byte_format("octal")
    window.set_bytes_per_row(32)
    window.set_offset_base("decimal")
    window.zoom("zoom_in")
    window.act_whitespace.trigger()
    window.resize(900, 700)
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    hv = again.hex_view
    assert (hv.byte_format, hv.bytes_per_row_choice, hv.offset_base, hv.zoom) == \
        ("octal", 32, "decimal", 1)
    assert again.act_whitespace.isChecked()
    assert again.format_actions["octal"].isChecked()
    assert again.settings.recent_files()[0] == os.path.abspath(demo_path)
    assert again.size().height() == 700 and again.size().width() < 1200  # not the default
    again.shutdown()


def test_recent_files_keep_ten_and_open_from_the_menu(window, write_file):
    paths = [write_file(b"x", f"f{i}.txt") for i in range(12)]
    for p in paths:
        window.files.open_file(p)
    recent = window.settings.recent_files()
    assert len(recent) == 10 and recent[0] == str(paths[-1])
    window.recent_menu.aboutToShow.emit()
    titles = [a.text() for a in window.recent_menu.actions()]
    assert titles[0].endswith("f11.txt")
    [target] = [a for a in window.recent_menu.actions() if a.text().endswith("f5.txt")]
    target.trigger()
    assert window.document.path == str(paths[5])


def test_close_and_reload(opened, write_file, qtbot):
    w = opened(b"first")
    path = w.document.path
    with open(path, "ab") as f:
        f.write(b" and more")
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F5)
    assert w.document.size == len(b"first and more")
    w.act_close.trigger()
    assert w.document.path is None and w.windowTitle() == "UTF-8 Inspector"
    w.hex_view.repaint()


def test_legend_lists_every_kind_and_mark(window, qtbot):
    window.act_legend.trigger()
    dlg = window.dialogs.legend_dialog
    qtbot.waitUntil(dlg.isVisible)
    from PySide6.QtWidgets import QLabel

    text = " ".join(lbl.text() for lbl in dlg.findChildren(QLabel))
    for kind in K.ERROR_KINDS:
        assert K.title(kind) in text
    assert "(mark O)" in text and "(mark C)" in text
    dlg.close()


def test_dark_theme_repaints(opened, qtbot):
    from inspector.gui.look.style import Palette

    w = opened(b"dark \xff")
    w.set_theme("dark")
    assert Palette.current().theme == "dark"
    w.hex_view.repaint()
    w.set_theme("light")
    assert Palette.current().theme == "light"


# --------------------------------------------------------------------------- workers

def test_worker_reports_results_progress_and_failures(qtbot):
    from inspector.gui.runtime.workers import GeneratorWorker, start

    def steps():
        for i in range(5):
            yield i
        return "done"

    w = GeneratorWorker(steps, interval=0)
    with qtbot.waitSignal(w.signals.finished, timeout=5000) as got:
        start(w)
    assert got.args == ["done"]

    def broken():
        yield 1
        raise RuntimeError("boom")

    w = GeneratorWorker(broken)
    with qtbot.waitSignal(w.signals.failed, timeout=5000) as got:
        start(w)
    assert isinstance(got.args[0], RuntimeError) and "boom" in w.traceback


def test_worker_cancel_stops_between_steps(qtbot):
    from inspector.gui.runtime.workers import GeneratorWorker, start

    gate = threading.Event()
    seen = []

    def endless():
        while True:
            seen.append(1)
            gate.wait(0.01)
            yield len(seen)

    w = GeneratorWorker(endless)
    with qtbot.waitSignal(w.signals.cancelled, timeout=5000):
        start(w)
        qtbot.waitUntil(lambda: len(seen) > 3)
        w.cancel()
    assert w.wait(5)
    count = len(seen)
    qtbot.wait(50)   # a negative check: a worker that went on would add steps meanwhile
    assert len(seen) == count


def test_scan_runs_in_the_background_and_is_cancelled_by_a_new_file(opened, write_file, qtbot):
    w = opened(b"abc \xff" * 1000)
    # Partial results arrive while the scan runs; wait for the complete one.
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert w.document.scan is not None and w.document.scan.complete
    assert w.status_fields.verdict.text() and "scanning" not in w.status_fields.verdict.text()
    assert not w.status_fields.progress.isVisible()
    w.dialect_actions["cesu-8"].trigger()    # restarts the scan
    other = write_file(b"plain", "other.txt")
    w.files.open_file(other)
    qtbot.waitUntil(lambda: w.document.scan is not None and w.document.scan.complete,
                    timeout=20_000)
    assert w.document.path == str(other)


def test_screenshot_of_the_demo(window, demo_path, tmp_path, qtbot):
    """The window on the demo sample, saved for a person to look at (the kept copy is
    resources/screenshots/main-window.png)."""
    window.resize(1200, 800)
    assert window.files.open_file(demo_path)
    doc = window.document
    data = doc.read(0, doc.size)
    bad = data.find(b"\xc0\xaf")
    doc.set_cursor(bad if bad >= 0 else 0)
    window.go_to(doc.cursor)
    doc.set_anchor(max(0, doc.cursor - 12 * window.hex_view.bytes_per_row))
    # The scan starts once the user has been still a moment: the picture shows its
    # verdict, the problem list and the overview filled in.
    qtbot.waitUntil(lambda: window.scan_life.complete, timeout=20_000)
    # A small file is scanned again for a finer overview: the picture shows that one.
    qtbot.waitUntil(lambda: not window.overview.fine_scan_running, timeout=20_000)
    out = tmp_path / "main-window.png"
    assert window.grab().save(str(out))
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700


def test_the_progress_bar_goes_with_the_result_not_with_the_thread(opened, qtbot, monkeypatch):
    """A worker's "done" comes after it has handed memory back in its pool thread; the
    bar must go when the scan's result arrives, whatever that tidying costs."""
    import time

    from inspector.gui.runtime import workers

    monkeypatch.setattr(workers, "release_memory", lambda: time.sleep(0.5) or True)
    w = opened(b"abc \xff" * 1000)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert not w.status_fields.progress.isVisible()
    assert not w.status_fields.cancel_button.isVisible()


def test_the_font_database_chatter_is_silenced(qapp):
    from PySide6.QtCore import QLoggingCategory

    from inspector.gui.app import application

    assert application() is qapp
    category = QLoggingCategory("qt.text.font.db")
    assert not category.isWarningEnabled() and not category.isInfoEnabled()


def test_every_scroll_bar_of_the_window_is_flat(window, qtbot):
    from PySide6.QtWidgets import QAbstractScrollArea

    from inspector.gui.look.scrollstyle import FlatScrollBarStyle

    qtbot.waitUntil(lambda: window.first_look_done, timeout=5000)   # the docks built
    areas = window.findChildren(QAbstractScrollArea)
    assert len(areas) >= 5   # the panes, the inspector, its bit layout, the problem table
    for area in areas:
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
            assert isinstance(bar.style(), FlatScrollBarStyle), area.objectName()
