"""Start-up (issue 14): the work the first look does not need (the full collection and
freezing of start-up's objects) waits until both panes have painted."""

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
        waiter = w.settle_memory_pending
        assert waiter.ports == set() and waiter.then is None
        qtbot.wait(50)   # a negative check: a second settle would come meanwhile
        assert calls == ["settled"]  # once
    finally:
        collector.stop()
        w.shutdown()


def test_a_window_that_never_paints_settles_all_the_same(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    calls = []
    app_module.AfterFirstPaint(w, lambda: calls.append(1), patience_ms=50)
    qtbot.waitUntil(lambda: calls == [1], timeout=2000)  # never shown: no paint
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
    comes with the settling, once both panes have painted, not before that paint."""
    from PySide6.QtCore import QEvent, QObject

    painted = set()

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                painted.add(obj)
            return False

    order = []
    monkeypatch.setattr(app_module, "settle_memory", lambda: order.append("settled"))
    w = app_module.build_window(SAMPLES / "demo.txt", prime_after_paint=True)
    qtbot.addWidget(w)
    ports = {w.hex_view.viewport(), w.text_view.viewport()}
    watch = Paints()
    for port in ports:
        port.installEventFilter(watch)
    dock = w.inspector_dock
    real_prime = dock.prime
    monkeypatch.setattr(dock, "prime",
                        lambda: (order.append(("primed", ports <= painted)), real_prime()))
    collector = app_module.interactive_runtime(w, settle_now=False)
    try:
        qtbot.waitUntil(lambda: order == [("primed", True), "settled"], timeout=5000)
        assert dock.primed
    finally:
        collector.stop()
        w.shutdown()
