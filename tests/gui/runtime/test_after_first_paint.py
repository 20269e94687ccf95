"""Start-up (issue 14): the work the first look does not need (the docks, then the full
collection and freezing of start-up's objects) waits until both panes have painted."""

from __future__ import annotations

import linecache

from inspector.gui import app as app_module
from inspector.gui.runtime import workers
from inspector.gui.window.mainwindow import MainWindow
from tests.conftest import SAMPLES


def test_settling_waits_for_both_panes_to_paint(qtbot, monkeypatch):
    calls = []
    monkeypatch.setattr(app_module, "settle_memory", lambda: calls.append("settled"))
    w = MainWindow()
    qtbot.addWidget(w)
    w.files.open_file(SAMPLES / "demo.txt")
    collector = app_module.interactive_runtime(w, settle_now=False)
    try:
        assert calls == []  # nothing before the window is shown and painted
        w.show()
        qtbot.waitUntil(lambda: calls == ["settled"], timeout=5000)
        assert w.first_look_done and w.lazy_docks["sequenceInspector"].dock is not None
        qtbot.wait(50)   # a negative check: a second settle would come meanwhile
        assert calls == ["settled"]  # once
    finally:
        collector.stop()
        w.shutdown()


def test_a_window_that_never_paints_settles_all_the_same(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "FIRST_LOOK_PATIENCE_MS", 50)
    w = MainWindow()
    qtbot.addWidget(w)
    calls = []
    w.after_first_look(lambda: calls.append(1))
    qtbot.waitUntil(lambda: calls == [1], timeout=2000)  # never shown: no paint
    assert all(lazy.dock is None for lazy in w.lazy_docks.values())   # none on screen
    w.after_first_look(lambda: calls.append(2))   # over: at once
    assert calls == [1, 2]
    w.shutdown()


def test_settling_empties_linecache(monkeypatch):
    # gc.freeze would hold this test process's objects: only the cache is looked at.
    monkeypatch.setattr(app_module.gc, "freeze", lambda: None)
    linecache.getlines(app_module.__file__)
    assert app_module.__file__ in linecache.cache
    app_module.settle_memory()
    assert app_module.__file__ not in linecache.cache
    linecache.getlines(app_module.__file__)
    workers.release_memory()  # what every worker does when it ends, too
    assert app_module.__file__ not in linecache.cache


def test_the_running_window_primes_its_inspector_after_the_first_paint(qtbot, monkeypatch):
    """``run`` builds the window with the sequence inspector's warm-up held back: it
    comes with the settling, once both panes and then the inspector have painted."""
    from PySide6.QtCore import QEvent, QObject
    from inspector.gui.docks.inspectordock import SequenceInspector

    painted = set()

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                painted.add(obj)
            return False

    order = []
    monkeypatch.setattr(app_module, "settle_memory", lambda: order.append("settled"))
    watch = Paints()
    real_prime, real_make = SequenceInspector.prime, MainWindow._make_inspector
    monkeypatch.setattr(SequenceInspector, "prime", lambda dock: (
        order.append(("primed", ports | {dock} <= painted)), real_prime(dock)))

    def make_inspector(window):
        dock = real_make(window)
        dock.installEventFilter(watch)   # its paints too
        return dock

    monkeypatch.setattr(MainWindow, "_make_inspector", make_inspector)
    w = app_module.build_window(SAMPLES / "demo.txt", prime_after_paint=True)
    qtbot.addWidget(w)
    ports = {w.hex_view.viewport(), w.text_view.viewport()}
    for port in ports:
        port.installEventFilter(watch)
    collector = app_module.interactive_runtime(w, settle_now=False)
    try:
        qtbot.waitUntil(lambda: order == [("primed", True), "settled"], timeout=5000)
        assert w.inspector_dock.primed
    finally:
        collector.stop()
        w.shutdown()
