"""The docks are built after the panes' first paint (those on screen then: the sequence
inspector, the problem list) or when first shown (statistics, findings, text runs, folder
triage), in the place a saved layout gives them."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QDockWidget, QMenu

from inspector.gui.window.mainwindow import MainWindow
from tests.conftest import SAMPLES
from tests.gui.window.test_lazy_imports import ROOT

LAZY = ("sequenceInspector", "statistics", "errorList", "findings", "folderTriage",
        "textRunsDock")
MODULES = {"sequenceInspector": "inspector.gui.docks.inspectordock",
           "errorList": "inspector.gui.docks.problemlist",
           "statistics": "inspector.gui.docks.statistics",
           "findings": "inspector.gui.docks.findings",
           "folderTriage": "inspector.gui.docks.foldertriage",
           "textRunsDock": "inspector.gui.docks.textruns"}


def _window(qtbot, first_look: bool = True) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    if first_look:
        qtbot.waitUntil(lambda: w.first_look_done, timeout=5000)
    return w


def test_the_first_look_is_the_panes_the_docks_come_after():
    """A child process: the window built and shown imports no dock's module; once both
    panes have painted, the docks on screen are built (the inspector, the problem list),
    the others are not."""
    code = (f"import sys\n"
            "from PySide6.QtCore import QEvent, QObject\n"
            "from inspector.gui.app import application, build_window\n"
            "app = application()\n"
            "w = build_window()\n"
            f"modules = {MODULES!r}\n"
            "print(sorted(m for m in modules.values() if m in sys.modules),\n"
            "      sorted(n for n, lazy in w.lazy_docks.items() if lazy.dock is not None))\n"
            "painted = set()\n"
            "ports = {w.hex_view.viewport(), w.text_view.viewport()}\n"
            "class Paints(QObject):\n"
            "    def eventFilter(self, obj, event):\n"
            "        if event.type() == QEvent.Type.Paint and obj in ports:\n"
            "            painted.add(obj)\n"
            "        return False\n"
            "watch = Paints()\n"
            "for port in ports: port.installEventFilter(watch)\n"
            "seen = []\n"
            "make = w.lazy_docks['sequenceInspector']._build\n"
            "w.lazy_docks['sequenceInspector']._build = lambda: (seen.append(len(painted)), make())[1]\n"
            "while not w.first_look_done: app.processEvents()\n"
            "print(seen, sorted(m for m in modules.values() if m in sys.modules),\n"
            "      sorted(n for n, lazy in w.lazy_docks.items() if lazy.dock is not None))\n"
            "w.shutdown()\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    before, after = out.stdout.strip().splitlines()[-2:]
    assert before == "[] []"
    assert after == ("[2] ['inspector.gui.docks.inspectordock', 'inspector.gui.docks.problemlist'] "
                     "['errorList', 'sequenceInspector']")


def _geometries(w, names):
    return {name: w.lazy_docks[name].current.geometry() for name in names}


def test_the_docks_built_after_the_first_look_take_their_shells_places(qtbot, monkeypatch):
    """The same sizes (the panes keep theirs: no second layout of the window), the same
    tabs; the View menu's toggles are the real docks'."""
    from inspector.gui.window import lazydocks

    real_build_shown, seen = lazydocks.build_shown, []

    def build_shown(lazies):
        lazies = list(lazies)
        w = lazies[0].window
        names = ("sequenceInspector", "errorList")
        before = (_geometries(w, names), w.centralWidget().geometry())
        built = real_build_shown(lazies)
        w.layout().activate()
        seen.append((before, (_geometries(w, names), w.centralWidget().geometry())))
        return built

    monkeypatch.setattr(lazydocks, "build_shown", build_shown)
    w = _window(qtbot)
    [(before, after)] = seen
    assert after == before
    assert type(w.lazy_docks["sequenceInspector"].current).__name__ == "SequenceInspector"
    assert type(w.lazy_docks["errorList"].current).__name__ == "ProblemListDock"
    assert w.tabifiedDockWidgets(w.inspector_dock) == [w.lazy_docks["statistics"].shell]
    assert set(w.tabifiedDockWidgets(w.problem_dock)) == {
        w.lazy_docks[n].shell for n in ("findings", "textRunsDock")}   # the triage: hidden
    assert not w.inspector_dock.visibleRegion().isEmpty()
    assert not w.problem_dock.visibleRegion().isEmpty()
    assert w.panel_actions["sequenceInspector"] is w.inspector_dock.toggleViewAction()
    assert w.panel_actions["errorList"].shortcut().toString() == "Alt+3"
    assert all(w.lazy_docks[n].dock is None
               for n in ("statistics", "findings", "folderTriage", "textRunsDock"))
    w.shutdown()


def test_raising_a_tab_builds_the_dock_in_the_shells_place(qtbot):
    w = _window(qtbot)
    lazy = w.lazy_docks["statistics"]
    shell = lazy.shell
    assert lazy.dock is None and w.tabifiedDockWidgets(shell) == [w.inspector_dock]
    shell.raise_()   # its tab clicked
    qtbot.waitUntil(lambda: lazy.dock is not None and lazy.dock.isVisible(), timeout=3000)
    dock = lazy.dock
    assert dock.objectName() == "statistics" and w.findChild(QDockWidget, "statistics") is dock
    assert w.tabifiedDockWidgets(dock) == [w.inspector_dock]
    assert w.statistics_dock is dock and dock.verdict_label.text()
    # View > Panels toggles the real dock now, with the same shortcut.
    toggle = w.panel_actions["statistics"]
    assert toggle is dock.toggleViewAction() and toggle.shortcut().toString() == "Alt+2"
    menus = [m for m in toggle.associatedObjects() if isinstance(m, QMenu)]
    assert len(menus) == 1 and menus[0].actions().index(toggle) == 1
    toggle.trigger()
    assert dock.isHidden()
    w.shutdown()


def test_the_window_builds_a_dock_when_asked_for_it(qtbot):
    w = _window(qtbot)
    assert w.lazy_docks["findings"].dock is None
    dock = w.findings_dock  # behind the problem list's tab: built there, not raised
    assert w.lazy_docks["findings"].dock is dock
    assert w.problem_dock in w.tabifiedDockWidgets(dock)
    assert dock.visibleRegion().isEmpty() and not w.problem_dock.visibleRegion().isEmpty()
    w.shutdown()


def test_open_folder_builds_and_shows_the_triage(qtbot, tmp_path):
    folder = tmp_path / "folder"   # not tmp_path: the test's settings are written there
    folder.mkdir()
    (folder / "a.txt").write_bytes(b"caf\xe9\n")
    w = _window(qtbot)
    assert w.lazy_docks["folderTriage"].dock is None and w.lazy_docks["folderTriage"].shell.isHidden()
    with qtbot.waitSignal(w.lazy_docks["folderTriage"].get().filled, timeout=20000):
        assert w.files.open_folder(folder)
    assert w.triage_dock.isVisible() and len(w.triage_dock.model.rows) == 1
    w.shutdown()


def test_a_saved_layout_restores_a_dock_shown_before(qtbot):
    """A restart with the statistics raised, the text runs and the sequence inspector
    floating, the findings raised over the problem list: those on screen built after
    the first look and where they were, the others still shells."""
    first = _window(qtbot)
    first.statistics_dock.raise_()
    runs = first.text_runs_dock
    runs.setFloating(True)
    runs.move(40, 50)
    inspector = first.inspector_dock
    inspector.setFloating(True)
    inspector.setGeometry(300, 200, 380, 420)
    first.findings_dock.raise_()
    qtbot.waitUntil(lambda: runs.isVisible() and inspector.isVisible(), timeout=3000)
    first.files.open_file(SAMPLES / "demo.txt")
    first.close()
    first.shutdown()

    w = _window(qtbot, first_look=False)
    lazy = w.lazy_docks
    assert all(lazy[name].dock is None for name in LAZY)
    qtbot.waitUntil(lambda: w.first_look_done, timeout=5000)
    built = sorted(name for name in LAZY if lazy[name].dock is not None)
    assert built == ["findings", "sequenceInspector", "statistics", "textRunsDock"]
    assert not lazy["statistics"].dock.visibleRegion().isEmpty()   # the raised tabs
    assert not lazy["findings"].dock.visibleRegion().isEmpty()
    assert lazy["textRunsDock"].dock.isFloating() and lazy["textRunsDock"].dock.isVisible()
    floating = lazy["sequenceInspector"].dock
    assert floating.isFloating() and floating.isVisible()
    assert floating.geometry().size() == inspector.geometry().size()
    assert w.tabifiedDockWidgets(lazy["statistics"].dock) == []
    assert _rows_on_screen(w) == [["Problems", "Findings"]]   # the text runs float
    assert w.problem_dock.visibleRegion().isEmpty()   # built when asked for, behind a tab
    w.shutdown()


def test_closing_a_window_builds_no_dock(qtbot):
    w = _window(qtbot)
    w.close()
    w.shutdown()
    assert [name for name in LAZY if w.lazy_docks[name].dock is not None] == [
        "sequenceInspector", "errorList"]   # those the first look built


def _rows_on_screen(w) -> list[list[str]]:
    """The tabs of each dock tab bar on screen (Qt keeps a dock's lone tab bar "visible"
    far outside the window)."""
    from inspector.gui.window.lazydocks import dock_tab_bars

    return sorted([bar.tabText(i) for i in range(bar.count())] for bar in dock_tab_bars(w)
                  if w.rect().intersects(bar.geometry()))


def test_one_tab_bar_per_row_on_screen_before_and_after_a_dock_is_built(qtbot):
    """Qt 6.11 leaves the tab bars it stops using on screen (a dead second row of
    tabs): those of the window being built, and those a restore of its state retires."""
    w = _window(qtbot, first_look=False)
    rows = [["Problems", "Findings", "Text runs"], ["Sequence inspector", "Statistics"]]
    qtbot.waitUntil(lambda: _rows_on_screen(w) == rows, timeout=3000)   # the shells'
    qtbot.waitUntil(lambda: w.first_look_done, timeout=5000)
    assert _rows_on_screen(w) == rows   # the inspector and the problem list built
    w.statistics_dock.raise_()
    w.findings_dock
    qtbot.waitUntil(lambda: not w.statistics_dock.visibleRegion().isEmpty(), timeout=3000)
    assert _rows_on_screen(w) == rows
    w.close()
    w.shutdown()

    again = _window(qtbot)   # the layout saved above: the statistics built at start
    qtbot.waitUntil(lambda: again.lazy_docks["statistics"].dock is not None, timeout=3000)
    assert _rows_on_screen(again) == rows
    again.shutdown()
