"""Findings are never lost: made while the scan still runs, they are saved at once
under the file's quick identity and survive Ctrl+Q, Ctrl+W, cancelling the scan and F5;
the whole hash confirms them (no duplicates) or, when the bytes changed, sets them apart;
a store that cannot be written makes the window ask, and the default answer keeps them.

The scan is the window's real one, held at a held_scan after its first steps so that it is
certainly still running when the test acts (a machine's speed decides nothing).
"""

from __future__ import annotations

import hashlib
import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from inspector.core.analysis import findings as F

KEY, MOD = Qt.Key, Qt.KeyboardModifier
DATA = (b"caf\xc3\xa9 \xc0\xaf text \xe2\x82\xac\n" * 40_000) + b"\xff end\n"   # ~0.8 MiB


def new_window(qtbot):
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1100, 700)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()   # the window's shortcuts (Ctrl+D, Ctrl+W, F5) need it active
    qtbot.waitUntil(w.isActiveWindow)
    return w


def scanning(w, qtbot):
    """The window's scan has started and is not finished."""
    qtbot.waitUntil(lambda: w.scan_life.running, timeout=10_000)
    assert not w.scan_life.complete
    return w


def add_by_keys(w, qtbot, note: str):
    """Select three units (c, a, f, é: bytes 0-5) with Shift+Right, Ctrl+D, type the note, Enter."""
    hv = w.hex_view
    hv.setFocus()
    for _ in range(3):
        qtbot.keyClick(hv, KEY.Key_Right, MOD.ShiftModifier)
    qtbot.keyClick(hv, KEY.Key_D, MOD.ControlModifier)
    dialog = w.finding_actions.note_dialog
    qtbot.waitUntil(dialog.isVisible)
    qtbot.keyClicks(dialog.edit, note)
    qtbot.keyClick(dialog.edit, KEY.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def notes(w):
    return [(f.start, f.end, f.note) for f in w.findings.items()]


def identity() -> F.Identity:
    return F.Identity(hashlib.sha256(DATA).hexdigest(), len(DATA))


def pending_files(folder):
    folder = os.path.join(folder, "findings")
    return sorted(n for n in os.listdir(folder) if n.startswith(F.PENDING_PREFIX)) \
        if os.path.isdir(folder) else []


def test_ctrl_q_while_the_scan_runs_keeps_the_finding(held_scan, qtbot, tmp_path, isolated_findings):
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    before = os.stat(path).st_mtime_ns
    w = new_window(qtbot)
    assert w.files.open_file(path)
    scanning(w, qtbot)
    add_by_keys(w, qtbot, "seen at 20 %")
    assert notes(w) == [(0, 5, "seen at 20 %")]
    assert w.findings.saved and w.findings.unsaved == 0
    assert "provisional" in w.findings_dock.status.text()
    assert not w.scan_life.complete
    qtbot.keyClick(w.hex_view, KEY.Key_Q, MOD.ControlModifier)   # quits at once: nothing to ask
    qtbot.waitUntil(lambda: not w.isVisible())
    w.shutdown()
    assert pending_files(isolated_findings)            # saved under the quick identity
    held_scan.set()

    again = new_window(qtbot)
    try:
        assert again.files.open_file(path)
        assert notes(again) == [(0, 5, "seen at 20 %")]   # before any hash: shown at once
        qtbot.waitUntil(lambda: again.findings.identity is not None, timeout=30_000)
        assert notes(again) == [(0, 5, "seen at 20 %")]   # confirmed, once
        assert again.findings_dock.table.rowCount() == 1
        store = F.FindingStore(again.findings.folder)
        assert [f.note for f in store.load(identity()).findings] == ["seen at 20 %"]
        assert pending_files(isolated_findings) == []      # moved under the whole hash
        assert not again.findings.earlier
    finally:
        again.shutdown()
    # Reopened once more: still one finding, no duplicate.
    third = new_window(qtbot)
    try:
        assert third.files.open_file(path)
        qtbot.waitUntil(lambda: third.findings.identity is not None, timeout=30_000)
        assert notes(third) == [(0, 5, "seen at 20 %")]
    finally:
        third.shutdown()
    assert path.read_bytes() == DATA and os.stat(path).st_mtime_ns == before


def test_cancel_then_f5_keeps_the_finding(held_scan, qtbot, tmp_path):
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    w = new_window(qtbot)
    try:
        assert w.files.open_file(path)
        scanning(w, qtbot)
        add_by_keys(w, qtbot, "before cancel")
        qtbot.mouseClick(w.status_fields.cancel_button, Qt.MouseButton.LeftButton)
        assert w.findings.identity is None
        held_scan.set()
        w.hex_view.setFocus()
        qtbot.keyClick(w.hex_view, KEY.Key_F5)
        assert notes(w) == [(0, 5, "before cancel")]
        qtbot.waitUntil(lambda: w.findings.identity is not None, timeout=30_000)
        assert notes(w) == [(0, 5, "before cancel")]
    finally:
        w.shutdown()


def test_ctrl_w_and_another_file_keep_the_finding(held_scan, qtbot, tmp_path):
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    other = tmp_path / "other.txt"
    other.write_bytes(b"another file\n")
    w = new_window(qtbot)
    try:
        assert w.files.open_file(path)
        scanning(w, qtbot)
        add_by_keys(w, qtbot, "kept")
        qtbot.keyClick(w.hex_view, KEY.Key_W, MOD.ControlModifier)
        assert w.document.size == 0
        assert w.files.open_file(path)
        assert notes(w) == [(0, 5, "kept")]
        assert w.files.open_file(other)
        assert notes(w) == []
        held_scan.set()
        assert w.files.open_file(path)
        assert notes(w) == [(0, 5, "kept")]
    finally:
        w.shutdown()


def test_a_file_changed_before_the_hash_sets_them_apart(held_scan, qtbot, tmp_path):
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    w = new_window(qtbot)
    assert w.files.open_file(path)
    scanning(w, qtbot)
    add_by_keys(w, qtbot, "on the old bytes")
    w.shutdown()
    w.close()
    held_scan.set()
    changed = bytearray(DATA)
    changed[0:3] = b"CAF"
    path.write_bytes(bytes(changed))   # the same size, other bytes, a new time
    os.utime(path, ns=(1, 1))

    again = new_window(qtbot)
    try:
        assert again.files.open_file(path)
        assert notes(again) == []                                   # never on other bytes
        assert [f.note for _, fs in again.findings.earlier for f in fs] == ["on the old bytes"]
        qtbot.waitUntil(lambda: again.findings.identity is not None, timeout=30_000)
        assert notes(again) == []
        assert [f.note for _, fs in again.findings.earlier for f in fs] == ["on the old bytes"]
        assert again.findings_dock.earlier_table.isVisibleTo(again.findings_dock)
    finally:
        again.shutdown()


def window_without_storage(qtbot, tmp_path, monkeypatch):
    """A window whose findings cannot be saved (a file where the data folder should be)
    on the evidence file, its error boxes silenced."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("UTF8_INSPECTOR_DATA", str(blocker))
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    w = new_window(qtbot)
    w.show_error = lambda title, text: None
    w.findings.show_error = lambda title, text: None
    assert w.files.open_file(path)
    return w


def answer_when_asked(qtbot, button_name: str | None, asked: list):
    """Answer the next unsaved-findings question with the button of that name (None:
    press Enter, the default answer)."""
    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "unsavedFindingsBox":
            QTimer.singleShot(20, answer)
            return
        asked.append(box.text())
        if button_name is None:
            qtbot.keyClick(box, KEY.Key_Return)
        else:
            box.findChild(type(box.buttons()[0]), button_name).click()
    QTimer.singleShot(0, answer)


def test_the_question_does_not_block(qtbot, tmp_path, monkeypatch):
    """Closing with unsaved findings opens a window-modal box and returns: nothing
    (a test's teardown, a script) waits on a nested event loop."""
    monkeypatch.setenv("UTF8_INSPECTOR_DATA", str(tmp_path / "blocker"))
    (tmp_path / "blocker").write_text("x")
    path = tmp_path / "evidence.txt"
    path.write_bytes(DATA)
    w = new_window(qtbot)
    w.findings.show_error = lambda title, text: None
    assert w.files.open_file(path)
    w.findings.add(0, 2, "in memory")
    assert not w.close()             # returns at once: the box asks
    box = w.findChild(QMessageBox, "unsavedFindingsBox")
    assert box is not None and box.isVisible() and w.isVisible()
    box.findChild(type(box.buttons()[0]), "discardFindings").click()
    qtbot.waitUntil(lambda: not w.isVisible())


def test_unsaved_findings_are_asked_for_and_kept_by_default(qtbot, tmp_path, monkeypatch):
    w = window_without_storage(qtbot, tmp_path, monkeypatch)
    try:
        add_by_keys(w, qtbot, "only in memory")
        assert w.findings.unsaved == 1
        asked = []
        answer_when_asked(qtbot, None, asked)          # Enter: the default keeps them
        qtbot.keyClick(w.hex_view, KEY.Key_W, MOD.ControlModifier)
        qtbot.waitUntil(lambda: bool(asked))
        assert "1 finding(s)" in asked[0]
        assert w.document.size == len(DATA) and notes(w) == [(0, 5, "only in memory")]
        asked.clear()
        answer_when_asked(qtbot, "keepFindings", asked)
        w.close()
        qtbot.waitUntil(lambda: bool(asked))
        assert w.isVisible() and notes(w) == [(0, 5, "only in memory")]
        asked.clear()
        answer_when_asked(qtbot, "keepFindings", asked)
        w.activateWindow()   # back from the question box
        qtbot.waitUntil(w.isActiveWindow)
        w.hex_view.setFocus()
        qtbot.keyClick(w.hex_view, KEY.Key_F5)
        qtbot.waitUntil(lambda: bool(asked))
        assert notes(w) == [(0, 5, "only in memory")]
        asked.clear()
        target = tmp_path / "exported.json"
        monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getSaveFileName",
                            lambda *a, **k: (str(target), ""))
        answer_when_asked(qtbot, "exportFindings", asked)
        w.close()
        qtbot.waitUntil(lambda: bool(asked))
        qtbot.waitUntil(lambda: not w.isVisible())
        assert target.is_file() and "only in memory" in target.read_text(encoding="utf-8")
    finally:
        w.shutdown()


def test_discard_is_the_one_answer_that_drops_them(qtbot, tmp_path, monkeypatch):
    w = window_without_storage(qtbot, tmp_path, monkeypatch)
    try:
        add_by_keys(w, qtbot, "let go")
        asked = []
        answer_when_asked(qtbot, "discardFindings", asked)
        qtbot.keyClick(w.hex_view, KEY.Key_W, MOD.ControlModifier)
        qtbot.waitUntil(lambda: bool(asked))
        assert w.document.size == 0 and notes(w) == []
    finally:
        w.shutdown()
