"""Hostile inputs and crash safety in the window (issue 6, items 1 and 4).

Every bad path gives a clear, specific message and leaves the window up with the
previous document intact; an exception in a slot, a paint or a worker is caught,
logged, reported, and the window keeps working."""

from __future__ import annotations

import os
import select
import signal
import sys
import time

import pytest
from PySide6.QtCore import Qt

from inspector.gui.runtime import crashguard


# --------------------------------------------------------------------------- bad paths

def _assert_refused(window, path, words: str) -> None:
    before = window.document.source
    assert not window.files.open_file(path)
    assert window.document.source is before, "the previous document must stay"
    assert words.lower() in window.last_error.lower(), window.last_error
    assert window.error_box.isVisible()
    window.error_box.close()
    window.hex_view.viewport().repaint()  # still painting the previous file


@pytest.fixture
def with_previous(opened):
    return opened("previous €".encode(), "previous.txt")


def test_missing_path(with_previous, tmp_path):
    _assert_refused(with_previous, tmp_path / "not-there.bin", "no such file")


def test_directory(with_previous, tmp_path):
    _assert_refused(with_previous, tmp_path, "is a directory")


def test_fifo_does_not_hang(with_previous, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    began = time.monotonic()
    _assert_refused(with_previous, fifo, "FIFO (named pipe)")
    assert time.monotonic() - began < 5  # a blocking open would never return


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero", "/dev/urandom"])
def test_character_device(with_previous, device):
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    _assert_refused(with_previous, device, "character device")


def test_symlink_loop(with_previous, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    os.symlink(b, a)
    os.symlink(a, b)
    _assert_refused(with_previous, a, "symbolic link loop")


def test_dangling_symlink(with_previous, tmp_path):
    link = tmp_path / "dangling"
    os.symlink(tmp_path / "gone", link)
    _assert_refused(with_previous, link, "no such file")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to 'nobody'; "
                    "test_mainwindow.test_unreadable_file covers ordinary users")
def test_unreadable_file_in_a_child_that_drops_root(tmp_path, qapp):
    """Root reads any file, so a forked child gives up root (becomes 'nobody'), builds a
    window, tries to open a mode-0 file and reports the window's message through a pipe.
    The child never returns into pytest."""
    os.chmod(tmp_path, 0o755)
    for parent in tmp_path.parents:  # pytest's base folder is private to root
        if str(parent) in ("/", "/tmp"):
            break
        os.chmod(parent, os.stat(parent).st_mode | 0o011)
    path = tmp_path / "secret.bin"
    path.write_bytes(b"x")
    path.chmod(0)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        answer = "child failed"
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            from inspector.gui.window.mainwindow import MainWindow
            from inspector.gui.window.settings import Settings
            from PySide6.QtCore import QSettings

            w = MainWindow(settings=Settings(QSettings(str(tmp_path / "child.ini"),
                                                       QSettings.Format.IniFormat)))
            opened = w.files.open_file(path)
            answer = "opened" if opened else (w.last_error or "no message")
        except BaseException as e:  # report, never raise into pytest's copy
            answer = f"error {type(e).__name__}: {e}"
        finally:
            os.write(write_end, answer.encode("utf-8", "replace"))
            os._exit(0)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 30)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            pytest.fail("the child hung")
        answer = b""
        while True:
            piece = os.read(read_end, 4096)
            if not piece:
                break
            answer += piece
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    text = answer.decode()
    assert "permission denied" in text, text
    assert "secret.bin" in text


def test_empty_file(window, write_file):
    assert window.files.open_file(write_file(b"", "empty.bin"))
    assert window.document.size == 0
    assert window.status_fields.cursor.text() == "empty file"
    window.hex_view.viewport().repaint()
    window.go_to(0)


def test_one_byte_file(window, write_file, qtbot):
    assert window.files.open_file(write_file(b"\xc3", "one.bin"))
    assert window.document.unit_at(0).kind == "truncated"
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_End, Qt.Key.Key_PageDown):
        qtbot.keyClick(window.hex_view, key)
    assert window.document.cursor == 0


def test_sixteen_gib_sparse_file(window, tmp_path, qtbot):
    path = tmp_path / "sparse.bin"
    with open(path, "wb") as f:
        f.truncate(16 << 30)
        f.seek((16 << 30) - 4)
        f.write(b"\xf0\x9f\x98\x80")
    began = time.monotonic()
    assert window.files.open_file(path)
    window.hex_view.viewport().repaint()
    assert time.monotonic() - began < 5
    window.background.cancel_all()  # the scan of 16 GiB of zeros is not this test's business
    window.go_to((16 << 30) - 4)
    assert window.document.unit_at((16 << 30) - 1).value == 0x1F600
    assert window.status_fields.size.text() == f"{16 << 30:,} bytes"


def test_name_that_is_not_utf8(with_previous, tmp_path):
    name = os.fsencode(str(tmp_path)) + b"/bad-\xff\xfe.txt"
    with open(name, "wb") as f:
        f.write(b"abc")
    assert with_previous.files.open_file(name)
    assert "bad-\\xff\\xfe.txt" in with_previous.windowTitle()
    # And as a missing path the message escapes it too.
    _assert_refused(with_previous, os.fsencode(str(tmp_path)) + b"/gone-\xff", "gone-\\xff")


def test_name_with_a_newline(with_previous, tmp_path):
    path = tmp_path / "two\nlines.txt"
    path.write_bytes(b"x")
    assert with_previous.files.open_file(path)
    title = with_previous.windowTitle()
    assert "\n" not in title and "two\\nlines.txt" in title
    _assert_refused(with_previous, tmp_path / "no\nsuch", "no\\nsuch")


@pytest.mark.parametrize("entry", ["zzz", "0x", "--5", "0x-5", "1e9", "12 34", "9" * 5000,
                                   "+", "end!", "\u00b2", "0xG", "-1", "10000000000000"])
def test_garbage_in_go_to(opened, qtbot, entry):
    w = opened(b"x" * 100)
    w.show_goto()
    dlg = w.goto_dialog
    dlg.entry.setText(entry)
    qtbot.keyClick(dlg.entry, Qt.Key.Key_Return)
    assert dlg.isVisible(), "a bad entry keeps the dialog open"
    assert dlg.message.isVisible() and dlg.message.text()
    assert w.document.cursor == 0
    dlg.reject()


# --------------------------------------------------------------------------- the command line

def test_command_line_bad_path_opens_an_empty_window_with_the_message(qtbot, tmp_path):
    from inspector.gui import app

    w = app.build_window(str(tmp_path / "missing.txt"), offset=5)
    qtbot.addWidget(w)
    try:
        assert w.isVisible()
        assert w.document.path is None and w.document.size == 0
        assert "no such file" in w.last_error and w.error_box.isVisible()
    finally:
        w.shutdown()


def test_command_line_offset_past_the_end(qtbot, write_file):
    from inspector.gui import app

    w = app.build_window(str(write_file(b"abc")), offset=99, dialect="cesu-8")
    qtbot.addWidget(w)
    try:
        assert w.document.size == 3 and w.document.cursor == 0
        assert "past the end" in w.last_error
        assert w.document.dialect == "cesu-8"
    finally:
        w.shutdown()


def test_run_installs_the_crash_guard_and_opens_the_path(monkeypatch, write_file, qtbot):
    from inspector.gui import app

    calls = []
    built = []

    class FakeApp:
        def exec(self):
            calls.append("exec")
            return 0

    monkeypatch.setattr(app, "application", lambda: FakeApp())
    monkeypatch.setattr(crashguard, "install", lambda: calls.append("install"))
    real_build = app.build_window

    def build(*args, **kwargs):
        w = real_build(*args, **kwargs)
        qtbot.addWidget(w)
        built.append(w)
        return w

    monkeypatch.setattr(app, "build_window", build)
    assert app.run(str(write_file(b"hello")), offset=2) == 0
    assert calls == ["install", "exec"]
    assert built[0].document.cursor == 2


# --------------------------------------------------------------------------- crash safety

@pytest.fixture
def guarded(monkeypatch):
    """crashguard's hook installed for one test, reports collected, no modal dialog."""
    monkeypatch.setenv("UTF8_INSPECTOR_NO_CRASH_DIALOG", "1")
    monkeypatch.setattr(sys, "excepthook", crashguard.excepthook)
    monkeypatch.setattr(sys, "stderr", open(os.devnull, "w"))
    crashguard.reports.clear()
    yield crashguard.reports
    crashguard.reports.clear()


@pytest.mark.qt_no_exception_capture
def test_exception_in_a_slot_is_reported_and_the_window_keeps_working(opened, guarded):
    w = opened("a€b".encode())

    def broken_slot(offset):
        raise RuntimeError(f"slot failed at {offset}")

    w.document.cursorChanged.connect(broken_slot)
    w.document.set_cursor(1)
    assert any("slot failed at 1" in r for r in guarded)
    w.document.cursorChanged.disconnect(broken_slot)
    w.document.set_cursor(4)
    assert w.status_fields.cursor.text() == "0x4 (4)"


@pytest.mark.qt_no_exception_capture
def test_exception_in_a_paint_is_reported_and_the_view_recovers(opened, guarded, monkeypatch,
                                                                 qtbot):
    w = opened(b"paint me")
    view = w.hex_view

    def broken_paint(painter):
        raise ValueError("paint failed")

    with monkeypatch.context() as broken:
        broken.setattr(view.painter, "paint", broken_paint)
        # From the event loop, as a real paint comes (a repaint() called from Python
        # would hand the exception back to the caller instead).
        view.viewport().update()
        qtbot.waitUntil(lambda: any("paint failed" in r for r in guarded), timeout=5000)
    before = len(guarded)
    view.viewport().update()
    qtbot.wait(50)   # a negative check: the queued paint must not fail again
    view.viewport().repaint()
    assert len(guarded) == before
    w.document.set_cursor(3)
    assert w.status_fields.cursor.text() == "0x3 (3)"


def test_crash_dialog_is_shown_with_details(monkeypatch, qtbot):
    monkeypatch.delenv("UTF8_INSPECTOR_NO_CRASH_DIALOG", raising=False)
    shown = []
    monkeypatch.setattr(crashguard, "show_dialog", lambda exc, details: shown.append(details))
    crashguard.forget_burst()  # earlier tests' reports
    try:
        raise KeyError("details please")
    except KeyError:
        crashguard.report_exception(*sys.exc_info())
    qtbot.waitUntil(lambda: bool(shown), timeout=2000)
    assert "KeyError" in shown[0] and "details please" in shown[0]
    crashguard.reports.clear()


def test_failing_scan_reports_and_hides_the_progress_bar(opened, guarded, monkeypatch, qtbot):
    from inspector.core.scan import scanner

    real = scanner.scan_steps

    def failing_scan(source, dialect="utf-8", **kwargs):
        yield next(real(source, dialect, **kwargs))   # a first step, then it breaks
        raise RuntimeError("the scanner broke")

    monkeypatch.setattr(scanner, "scan_steps", failing_scan)
    w = opened(b"abc" * 100)
    with qtbot.waitSignal(w.scanFinished, timeout=10_000) as got:
        w.scan_life.start()
    assert got.args == [None]
    assert not w.status_fields.progress.isVisible() and not w.status_fields.cancel_button.isVisible()
    assert "scan failed: the scanner broke" in w.status_fields.verdict.text()
    assert any("the scanner broke" in r for r in guarded)
    # The window still works.
    w.document.set_cursor(5)
    assert w.status_fields.cursor.text() == "0x5 (5)"


def test_scan_that_cannot_read_says_so(opened, monkeypatch, qtbot):
    from inspector.core.scan import scanner
    from inspector.core.source.bytesource import ByteSourceError

    def unreadable(source, dialect="utf-8", **kwargs):
        raise ByteSourceError("x.bin: read failed at offset 0: Input/output error")
        yield  # pragma: no cover

    monkeypatch.setattr(scanner, "scan_steps", unreadable)
    w = opened(b"abc")
    with qtbot.waitSignal(w.scanFinished, timeout=10_000):
        w.scan_life.start()
    assert "Input/output error" in w.last_error and w.error_box.isVisible()
    assert not w.status_fields.progress.isVisible()
    w.error_box.close()


# --------------------------------------------------------------------------- forensic integrity

def test_a_whole_session_leaves_the_inspected_file_untouched(window, tmp_path, qtbot):
    """Open, scan, navigate, set an origin, switch dialects, find, copy, export every
    format and save a repaired copy: the file's bytes, size and modification time stay
    the same, its access time too (O_NOATIME), and nothing is written beside it."""
    from inspector.gui.dialogs import export as exportdialogs
    from PySide6.QtCore import QStandardPaths

    evidence = tmp_path / "evidence"
    evidence.mkdir()
    path = evidence / "exhibit.txt"
    data = (b"caf\xe9 \xc0\xaf ok \xed\xa0\x80 " + "日本語 €\n".encode()) * 300
    path.write_bytes(data)
    day = 86400
    now = time.time()
    # atime older than mtime and than a day: even a relatime mount updates it on a read.
    os.utime(path, (now - 3 * day, now - 2 * day))
    before = os.stat(path)
    listing = sorted(os.listdir(evidence))

    w = window
    assert w.files.open_file(path)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=30_000)
    view, doc = w.hex_view, w.document
    view.setFocus()
    for _ in range(3):
        with qtbot.waitSignal(w.searchFinished, timeout=10_000):
            qtbot.keyClick(view, Qt.Key.Key_F8)
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    qtbot.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # origin
    assert doc.origin is not None
    for dialect in ("cesu-8", "wtf-8", "utf-8"):
        w.dialect_actions[dialect].trigger()
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=30_000)
    if w.find_bar is not None:
        w.find_bar.set_query("€", "text", True)
        w.find_bar.find_all()
        qtbot.waitUntil(lambda: not w.find_bar.busy, timeout=10_000)
        assert doc.matches
    doc.set_selection(0, 64)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    for action in w.copy_menu.actions():
        action.trigger()

    out = tmp_path / "out"
    out.mkdir()
    exporter = w.dialogs.exporter
    exporter.show_messages = False
    for kind in ("json", "csv", "html"):
        with qtbot.waitSignal(exporter.done, timeout=30_000) as got:
            w.dialogs.export(kind, str(out / f"report.{kind}"))
        assert got.args[0] == "finished", got.args
    assert "sha256" in (out / "report.json").read_text()
    dlg = w.dialogs.show_repair(str(out / "repaired.txt"))
    # Where things go by default: never beside the evidence.
    assert os.path.dirname(dlg.default_target()) != str(evidence)
    assert exportdialogs.default_directory() != str(evidence)
    for policy in ("replace", "drop", "cp1252", "latin1"):
        dlg.set_policy(policy)
        target = out / f"repaired-{policy}.txt"
        dlg.save(str(target))
        qtbot.waitUntil(lambda: not dlg.busy, timeout=30_000)
        target.read_bytes().decode("utf-8")
    # Saving over the inspected file is refused, also through a link.
    link = out / "link-to-exhibit"
    os.symlink(path, link)
    dlg.save(str(link))
    assert "Not saved" in dlg.message.text()
    dlg.close()
    w.files.reload()
    w.files.close_file()

    after = os.stat(path)
    assert path.read_bytes() == data
    assert after.st_size == before.st_size
    assert after.st_mtime_ns == before.st_mtime_ns
    assert after.st_atime_ns == before.st_atime_ns, "read without O_NOATIME"
    assert sorted(os.listdir(evidence)) == listing, "something was written beside the file"
    # Settings and logs live in the standard places, not beside the evidence.
    assert not w.settings.q.fileName().startswith(str(evidence))
    assert not str(crashguard.log_path()).startswith(str(evidence))
    assert QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppLocalDataLocation) in str(crashguard.log_path()) \
        or "utf8-inspector" in str(crashguard.log_path())


def test_a_verdict_that_cannot_be_read_leaves_the_counts(opened, monkeypatch, qtbot):
    """The scan's worker could not judge the file and neither can the window (the file
    went away): the status bar says so, and the scan's counts stand."""
    from inspector.core.analysis import verdict

    def unreadable(result, source):
        raise OSError("the disk went away")

    monkeypatch.setattr(verdict, "verdict", unreadable)
    w = opened(b"caf\xe9 \xc0\xaf" * 100)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert w.document.verdict is None and w.document.scan.error_units == 200
    assert w.status_fields.verdict.text() == "no verdict: the file cannot be read"
    assert "the disk went away" in w.status_fields.verdict.toolTip()


def test_the_verdict_tooltip_lists_its_details(opened, qtbot):
    w = opened(b"caf\xe9 \xc0\xaf" * 100)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    tip = w.status_fields.verdict.toolTip()
    assert tip.startswith(w.status_fields.verdict.text() + "\n")   # all of it, even when cut
    assert "errors: 200" in tip and "{" not in tip


def test_a_long_verdict_is_cut_with_an_ellipsis_in_a_narrow_window(opened, qtbot):
    w = opened(b"caf\xe9 \xc0\xaf \xed\xa0\x80 \xff \x80" * 100)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    label = w.status_fields.verdict
    w.resize(700, 500)
    qtbot.waitUntil(lambda: label.shown_text().endswith("…"))
    assert label.text().startswith("UTF-8 with") and len(label.text()) > 40
    assert label.shown_text().endswith("…") and len(label.shown_text()) < len(label.text())
    assert label.toolTip().startswith(label.text())
    w.resize(2400, 900)
    qtbot.waitUntil(lambda: label.shown_text() == label.text(), timeout=2000)


def test_the_verdict_tooltip_goes_with_its_file(opened, write_file, qtbot):
    w = opened(b"plain text\n" * 10)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert w.status_fields.verdict.toolTip().startswith(w.status_fields.verdict.text())
    w.files.open_file(write_file(b"\xff" * 100, "other.bin"))
    assert w.status_fields.verdict.toolTip() == "the whole-file verdict"
    w.background.cancel_all()
    assert w.status_fields.verdict.text() in ("scan cancelled", "")
    assert w.status_fields.verdict.toolTip() == "the whole-file verdict"
