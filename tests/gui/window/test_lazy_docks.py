"""The docks hidden or behind a tab at start (statistics, findings, text runs, folder
triage) are built when first shown, in the place a saved layout gives them."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QMenu

from inspector.gui.window.mainwindow import MainWindow
from tests.conftest import SAMPLES
from tests.gui.window.test_lazy_imports import first_window_prints

LAZY = ("statistics", "findings", "folderTriage", "textRunsDock")
MODULES = ("inspector.gui.docks.statistics", "inspector.gui.docks.findings",
           "inspector.gui.docks.foldertriage", "inspector.gui.docks.textruns")


def _window(qtbot) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_the_first_window_builds_none_of_them():
    printed = first_window_prints(
        "", f"[m for m in {MODULES!r} if m in sys.modules], "
            "[n for n, lazy in w.lazy_docks.items() if lazy.dock is not None]")
    assert printed == "[] []"


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
    (tmp_path / "a.txt").write_bytes(b"caf\xe9\n")
    w = _window(qtbot)
    assert w.lazy_docks["folderTriage"].dock is None and w.lazy_docks["folderTriage"].shell.isHidden()
    with qtbot.waitSignal(w.lazy_docks["folderTriage"].get().filled, timeout=20000):
        assert w.files.open_folder(tmp_path)
    assert w.triage_dock.isVisible() and len(w.triage_dock.model.rows) == 1
    w.shutdown()


def test_a_saved_layout_restores_a_dock_shown_before(qtbot):
    """A restart with the statistics raised and the text runs floating: both built and
    where they were."""
    first = _window(qtbot)
    first.statistics_dock.raise_()
    runs = first.text_runs_dock
    runs.setFloating(True)
    runs.move(40, 50)
    qtbot.waitUntil(lambda: runs.isVisible(), timeout=3000)
    first.files.open_file(SAMPLES / "demo.txt")
    first.close()
    first.shutdown()

    w = _window(qtbot)
    stats, floating = w.lazy_docks["statistics"], w.lazy_docks["textRunsDock"]
    qtbot.waitUntil(lambda: stats.dock is not None and floating.dock is not None, timeout=3000)
    assert not stats.dock.visibleRegion().isEmpty()   # the raised tab
    assert w.inspector_dock.visibleRegion().isEmpty()
    assert floating.dock.isFloating() and floating.dock.isVisible()
    assert w.lazy_docks["findings"].dock is None   # still behind the problem list
    w.shutdown()


def test_closing_a_window_builds_nothing(qtbot):
    w = _window(qtbot)
    w.close()
    w.shutdown()
    assert all(w.lazy_docks[name].dock is None for name in LAZY)


def _rows_on_screen(w) -> list[list[str]]:
    from inspector.gui.window.lazydocks import dock_tab_bars

    return sorted([bar.tabText(i) for i in range(bar.count())] for bar in dock_tab_bars(w))


def test_one_tab_bar_per_row_on_screen_before_and_after_a_dock_is_built(qtbot):
    """Qt 6.11 leaves the tab bars it stops using on screen (a dead second row of
    tabs): those of the window being built, and those a restore of its state retires."""
    w = _window(qtbot)
    rows = [["Problems", "Findings", "Text runs"], ["Sequence inspector", "Statistics"]]
    qtbot.waitUntil(lambda: _rows_on_screen(w) == rows, timeout=3000)
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
