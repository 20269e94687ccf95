"""Folder triage: the dock fills from a background walk, sorts, filters, opens a file on
its first problem, steps between files with problems and exports; real events."""

from __future__ import annotations

import csv
import json
import os

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from inspector.gui.docks.foldertriage import TriageModel


@pytest.fixture
def tree(tmp_path):
    top = tmp_path / "case"
    (top / "logs").mkdir(parents=True)
    (top / "a_clean.txt").write_bytes(b"all fine\n")
    (top / "logs" / "b_bad.log").write_bytes(b"line one\nline two \xc0\xaf here\n")
    (top / "logs" / "c_latin1.txt").write_bytes("caf\xe9\n".encode("latin-1") * 3)
    (top / "d_clean.txt").write_bytes("日本語\n".encode())
    (top / "e_<script>.txt").write_bytes(b"x\xff\n")
    os.symlink(top / "a_clean.txt", top / "f_link")
    return top


def _fill(window, qtbot, folder):
    dock = window.triage_dock
    with qtbot.waitSignal(dock.filled, timeout=20000):
        assert window.files.open_folder(folder)
    return dock


def _paths(dock):
    return [r.relative for r in dock.visible_rows()]


def test_open_folder_lists_every_file(window, qtbot, tree):
    dock = _fill(window, qtbot, tree)
    assert dock.objectName() == "folderTriage"
    assert dock.isVisible()
    assert _paths(dock) == ["a_clean.txt", "d_clean.txt", "e_<script>.txt", "f_link",
                            "logs/b_bad.log", "logs/c_latin1.txt"]
    m = dock.model
    bad = next(i for i, r in enumerate(m.rows) if r.relative == "logs/b_bad.log")
    assert m.data(m.index(bad, TriageModel.PROBLEMS)) == "1"
    assert m.data(m.index(bad, TriageModel.FIRST)) == "0x12"
    assert m.data(m.index(bad, TriageModel.WHERE)) == "2:10"
    link = next(r for r in m.rows if r.relative == "f_link")
    assert link.verdict_code == "skipped" and not link.problem
    assert "4 with problems" not in dock.status.text()
    assert "6 files, 3 with problems" in dock.status.text()


def test_filters_and_sort(window, qtbot, tree):
    dock = _fill(window, qtbot, tree)
    qtbot.mouseClick(dock.problems_only, Qt.MouseButton.LeftButton)
    assert _paths(dock) == ["e_<script>.txt", "logs/b_bad.log", "logs/c_latin1.txt"]
    dock.name_filter.setFocus()
    qtbot.keyClicks(dock.name_filter, "LOGS/")
    assert _paths(dock) == ["logs/b_bad.log", "logs/c_latin1.txt"]
    dock.name_filter.clear()
    qtbot.mouseClick(dock.problems_only, Qt.MouseButton.LeftButton)
    code = dock.model.rows[0].verdict_code
    dock.set_filter(verdict=code)
    assert all(r.verdict_code == code for r in dock.visible_rows())
    dock.set_filter()
    # Sort by size, descending, with a click on the header (twice).
    header = dock.table.horizontalHeader()
    x = header.sectionViewportPosition(TriageModel.SIZE) + 5
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    sizes = [r.size for r in dock.visible_rows()]
    assert sizes == sorted(sizes) or sizes == sorted(sizes, reverse=True)


def test_activate_opens_on_first_problem_and_steps(window, qtbot, tree):
    dock = _fill(window, qtbot, tree)
    table = dock.table
    row = _paths(dock).index("logs/b_bad.log")
    table.scrollTo(dock.proxy.index(row, 0))
    rect = table.visualRect(dock.proxy.index(row, 0))
    # A double-click is a press, a release, then the double-click (Qt checks the press).
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.document.path is None  # a single click only selects
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.document.path.endswith("b_bad.log")
    assert window.document.cursor == 0x12
    assert table.currentIndex().row() == row
    assert table.selectionModel().isRowSelected(row)
    # F7: the next file with problems; Shift+F7 back.
    qtbot.keyClick(window.hex_view, Qt.Key.Key_F7)
    assert window.document.path.endswith("c_latin1.txt")
    assert window.document.cursor == 3
    assert table.currentIndex().row() == row + 1
    qtbot.keyClick(window.hex_view, Qt.Key.Key_F7)
    assert "no further file" in window.status_fields.note.text()
    qtbot.keyClick(window.hex_view, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert window.document.path.endswith("b_bad.log")
    qtbot.keyClick(window.hex_view, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert window.document.path.endswith("e_<script>.txt")
    assert window.document.cursor == 1
    # Enter on a clean row opens it at the start.
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert window.document.path.endswith("a_clean.txt")
    assert window.document.cursor == 0


def test_files_are_not_written(window, qtbot, tree):
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in tree.rglob("*") if p.is_file()}
    _fill(window, qtbot, tree)
    for p, (mtime, data) in before.items():
        assert p.stat().st_mtime_ns == mtime and p.read_bytes() == data


def test_exports(window, qtbot, tree, tmp_path):
    dock = _fill(window, qtbot, tree)
    assert window.files.export_triage("csv", tmp_path / "t.csv") == 6
    rows = list(csv.DictReader(open(tmp_path / "t.csv", encoding="utf-8")))
    bad = next(r for r in rows if r["path"] == "logs/b_bad.log")
    assert (bad["errors"], bad["first_offset"], bad["first_line"], bad["first_column"]) == \
        ("1", "18", "2", "10")
    assert bad["verdict_code"] and bad["sha256"]
    window.files.export_triage("json", tmp_path / "t.json")
    data = json.load(open(tmp_path / "t.json", encoding="utf-8"))
    assert [d["relative"] for d in data] == _paths(dock)
    one = next(d for d in data if d["relative"] == "logs/b_bad.log")
    for field in ("path", "size", "sha256", "valid", "errors", "first_errors", "verdict",
                  "verdict_code", "dialect", "units"):
        assert field in one
    assert one["first_errors"][0]["line"] == 2
    window.files.export_triage("html", tmp_path / "t.html")
    text = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert "e_&lt;script&gt;.txt" in text and "<script>" not in text
    assert "logs/b_bad.log" in text and "2:10" in text
    # Filtered: only what the table shows.
    dock.set_filter(problems_only=True)
    assert window.files.export_triage("csv", tmp_path / "f.csv") == 3


def test_cancel(window, qtbot, tmp_path):
    top = tmp_path / "many"
    top.mkdir()
    for i in range(400):
        (top / f"{i:04}.txt").write_bytes(b"x" * 100)
    window.files.open_folder(top)
    dock = window.triage_dock
    assert dock.cancel_button.isVisible()
    with qtbot.waitSignal(dock.filled, timeout=5000):   # the rows found so far are in
        qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert not dock.running
    assert "cancelled" in dock.status.text()
    assert len(dock.model.rows) < 400 or "cancelled" in dock.status.text()


def test_drop_folder_and_command_line(window, qtbot, tree):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tree))])
    event = QDropEvent(window.rect().center(), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.triage_dock.filled, timeout=20000):
        window.dropEvent(event)
    assert len(window.triage_dock.model.rows) == 6
    from inspector.gui.app import open_initial

    with qtbot.waitSignal(window.triage_dock.filled, timeout=20000):
        assert open_initial(window, str(tree / "logs"))
    assert _paths(window.triage_dock) == ["b_bad.log", "c_latin1.txt"]


def test_open_folder_menu_and_panel_toggle(window):
    assert window.act_open_folder.shortcut().toString() == "Ctrl+Shift+O"
    assert "folderTriage" in window.panel_actions
    assert window.act_next_file.shortcut().toString() == "F7"


# ---------------------------------------------------------------- the process pool
def _many(tmp_path, name="many", n=600):
    top = tmp_path / name
    top.mkdir()
    for i in range(n):
        (top / f"{i:04}.txt").write_bytes("café\n".encode() * (50 + i) + (b"\xff" if i % 9 == 0 else b""))
    return top


def _extra(baseline):
    from tests.core.analysis.test_triage_pool import settled

    return settled(baseline)


def _baseline(window, qtbot, tmp_path):
    """The forkserver up (it stays for the session), then the processes below us."""
    from tests.core.analysis.test_triage_pool import descendants

    dock = window.triage_dock
    dock.pool_min_files = 0
    _fill(window, qtbot, _many(tmp_path, "warm", 20))
    return descendants()


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc")


def test_pool_rows_are_the_thread_rows(window, qtbot, tree):
    from tests.core.analysis.test_triage_pool import comparable

    dock = window.triage_dock
    dock.pool_min_files = 0
    _fill(window, qtbot, tree)
    assert dock.pool.used
    there = [comparable(r) for r in dock.model.rows]
    dock.use_processes = False
    _fill(window, qtbot, tree)
    assert dock.pool is None
    assert [comparable(r) for r in dock.model.rows] == there


@needs_proc
def test_cancel_stops_the_pool_promptly(window, qtbot, tmp_path):
    baseline = _baseline(window, qtbot, tmp_path)
    dock = window.triage_dock
    window.files.open_folder(_many(tmp_path))
    qtbot.waitUntil(lambda: dock.pool.used and len(dock.shared) > 0, timeout=20000)
    worker = dock.worker
    with qtbot.waitSignal(dock.filled, timeout=5000):   # the rows found so far are in
        t = __import__("time").perf_counter()
        qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
        assert __import__("time").perf_counter() - t < 0.1  # the UI does not wait
        assert worker.wait(5)
    assert "cancelled" in dock.status.text() and len(dock.model.rows) < 600
    assert _extra(baseline) == set()


@needs_proc
def test_another_folder_or_closing_leaves_no_process(window, qtbot, tmp_path):
    baseline = _baseline(window, qtbot, tmp_path)
    dock = window.triage_dock
    window.files.open_folder(_many(tmp_path, "one"))
    qtbot.waitUntil(lambda: dock.pool.used, timeout=20000)
    first = dock.worker
    _fill(window, qtbot, _many(tmp_path, "two", 30))  # replaces the running triage
    assert first.wait(5)
    assert len(dock.model.rows) == 30
    assert _extra(baseline) == set()
    window.files.open_folder(_many(tmp_path, "three"))
    qtbot.waitUntil(lambda: dock.pool.used, timeout=20000)
    worker = dock.worker
    window.close()
    assert worker.wait(5)
    assert _extra(baseline) == set()


@needs_proc
def test_a_pool_that_does_not_answer_is_said_in_the_status(window, qtbot, tmp_path, monkeypatch,
                                                          request):
    from concurrent.futures import ProcessPoolExecutor
    import multiprocessing

    from inspector.core.analysis import triage as TR
    from inspector.core.scan import parallel as PS
    from tests.core.analysis.test_triage_pool import hang_ignoring_sigterm

    baseline = _baseline(window, qtbot, tmp_path)
    monkeypatch.setattr(PS, "isolated_pool", lambda workers, preload=(), nice=0: ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context(PS.isolated_method()),
        initializer=hang_ignoring_sigterm, initargs=(60,)))
    monkeypatch.setattr(PS, "JOIN_GRACE", 0.5)
    TR.forget_unanswered_pools()
    request.addfinalizer(TR.forget_unanswered_pools)  # forgotten after the test
    monkeypatch.setattr(TR, "POOL_ANSWER_SECONDS", 1.0)
    dock = window.triage_dock
    with qtbot.waitSignal(dock.filled, timeout=20000):
        window.files.open_folder(_many(tmp_path, "slow", 40))
        qtbot.waitUntil(lambda: dock.status.text().startswith(
            "Starting worker processes for 40 files"), timeout=5000)
    assert not dock.running
    text = dock.status.text()
    assert len(dock.model.rows) == 40 and dock.complete
    assert text.startswith("40 files, 5 with problems in ")
    assert text.endswith(" — worker processes did not answer within 1 s; scanned without them")
    assert 'if __name__ == "__main__":' in dock.status.toolTip()
    assert _extra(baseline) == set()
    # The next folder does not wait again; a thread-only triage says nothing of processes.
    _fill(window, qtbot, _many(tmp_path, "next", 10))
    assert dock.status.text().endswith("did not answer earlier; scanned without them")
    dock.use_processes = False
    _fill(window, qtbot, _many(tmp_path, "plain", 10))
    assert "worker" not in dock.status.text() and dock.status.toolTip() == ""
