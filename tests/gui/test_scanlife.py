"""The scan's one owner: it follows the document's file and dialect, hands the document
snapshots while it runs and the finished result with its verdict once."""

from __future__ import annotations

from inspector.core.source.bytesource import MemorySource
from inspector.gui.document import Document
from inspector.gui.scanlife import ScanLife


def _life(qtbot, write_file, data=b"caf\xe9 " * 2000):
    doc = Document()
    life = ScanLife(doc)
    doc.open_path(write_file(data))
    return doc, life


def test_opening_a_file_scans_it_and_hands_over_the_verdict(qtbot, write_file):
    doc, life = _life(qtbot, write_file)
    seen = []
    doc.scanChanged.connect(seen.append)
    with qtbot.waitSignal(life.finished, timeout=20_000) as done:
        pass
    result = done.args[0]
    assert result is doc.scan and result.complete and not result.is_snapshot
    assert life.complete and not life.running
    assert doc.verdict is not None and doc.verdict.code == "legacy_charset"
    # Everything before the end was a snapshot of the same scan.
    assert seen[-1] is result
    assert all(s.is_snapshot and s.scan_id == result.scan_id for s in seen[:-1])


def test_a_new_dialect_scans_again_and_forgets_the_old_scan(qtbot, write_file):
    doc, life = _life(qtbot, write_file)
    qtbot.waitUntil(lambda: life.complete, timeout=20_000)
    first = doc.scan
    with qtbot.waitSignal(life.started):
        doc.set_dialect("cesu-8")
    assert doc.scan is None and life.running
    qtbot.waitUntil(lambda: life.complete, timeout=20_000)
    assert doc.scan is not first and doc.scan.dialect == "cesu-8"


def test_closing_stops_the_scan_and_memory_is_never_scanned(qtbot, write_file, held_scan):
    doc, life = _life(qtbot, write_file)
    qtbot.waitUntil(lambda: life.running, timeout=10_000)
    doc.set_source(MemorySource(b"", name="(no file)"))
    assert not life.running and doc.scan is None
    doc.set_dialect("cesu-8")
    assert not life.running
    held_scan.set()
    life.wait(10)   # the cancelled worker's end is not the next test's (its heap trim)


def test_without_auto_start_only_start_scans(qtbot, write_file):
    doc = Document()
    life = ScanLife(doc)
    life.auto_start = False
    doc.open_path(write_file(b"abc"))
    doc.set_dialect("cesu-8")
    assert not life.running and doc.scan is None
    with qtbot.waitSignal(life.finished, timeout=20_000):
        life.start()
    assert doc.scan.complete and doc.scan.dialect == "cesu-8"


def test_a_shown_window_paints_a_new_file_before_its_scan_starts(qtbot):
    """The scan's thread would take the interpreter from the file's first look."""
    from PySide6.QtCore import QEvent, QObject

    from inspector.gui.window.mainwindow import MainWindow
    from tests.conftest import SAMPLES

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    order = []
    ports = {w.hex_view.viewport(), w.text_view.viewport()}

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and obj in ports:
                order.append(obj)
            return False

    watch = Paints()
    for port in ports:
        port.installEventFilter(watch)
    w.scan_life.started.connect(lambda: order.append("scan"))
    w.files.open_file(SAMPLES / "demo.txt")
    assert not w.scan_life.running
    qtbot.waitUntil(lambda: "scan" in order, timeout=5000)
    assert ports <= set(order[:order.index("scan")])
    w.shutdown()


def test_the_first_file_of_a_window_is_scanned_after_its_first_look(qtbot):
    """The window's first look is the panes, then the docks on screen built after their
    paint: its first file's scan waits for all of it (the scan's thread slowed the
    docks' building), a later file only for the panes."""
    from inspector.gui.window.mainwindow import MainWindow
    from tests.conftest import SAMPLES

    w = MainWindow()
    qtbot.addWidget(w)
    scans = []
    w.scan_life.started.connect(lambda: scans.append(
        (w.first_look_done, w.lazy_docks["sequenceInspector"].dock is not None)))
    w.show()
    w.files.open_file(SAMPLES / "demo.txt")   # as the command does: shown, then opened
    qtbot.waitUntil(lambda: len(scans) == 1, timeout=5000)
    assert scans == [(True, True)]
    w.files.open_file(SAMPLES / "mixed.txt")
    qtbot.waitUntil(lambda: len(scans) == 2, timeout=5000)
    w.shutdown()


def test_the_heap_is_trimmed_again_once_the_window_has_the_result(qtbot, write_file, monkeypatch):
    """The worker trims as it ends, in its thread; what the window lets go of when it
    takes the result in (the last progress copy) is handed back after that, once the
    worker's end reaches the window."""
    from inspector.gui import scanlife
    from inspector.gui.runtime import workers

    workers.pool().waitForDone(10_000)   # earlier tests' workers end (and trim) first
    trims = []
    monkeypatch.setattr(workers, "release_memory", lambda: trims.append("worker"))
    monkeypatch.setattr(scanlife, "release_memory", lambda: trims.append("window"))
    doc, life = _life(qtbot, write_file)
    with qtbot.waitSignal(life.ended, timeout=20_000):
        pass
    # (Another test's worker still ending may trim too: only the order is ours to check.)
    assert trims[-1] == "window" and trims.count("window") == 1 and "worker" in trims
    assert doc.scan.complete


def test_a_scan_waiting_to_start_is_cancelled_too(qtbot):
    """Closing (cancel_all) a window whose first file's scan waits for its first look:
    the scan never starts (a later test's heap trims counted its worker's end)."""
    from inspector.gui.window.mainwindow import MainWindow
    from tests.conftest import SAMPLES

    w = MainWindow()
    qtbot.addWidget(w)
    started = []
    w.scan_life.started.connect(lambda: started.append(1))
    w.show()
    w.files.open_file(SAMPLES / "demo.txt")
    w.background.cancel_all()
    qtbot.waitUntil(lambda: w.first_look_done, timeout=5000)
    qtbot.wait(100)   # a negative check: the scan would start right after the look
    assert started == [] and not w.scan_life.running
    w.shutdown()
