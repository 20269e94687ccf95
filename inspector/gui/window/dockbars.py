"""The tab bars of the window's dock rows, kept in step with the layout.

Qt 6.11 leaves on screen the tab bars its dock layout no longer uses: those made while
the window is built (each ``tabifyDockWidget`` lays a row out anew) and those a
``restoreState`` on the shown window replaces. They show as a second, dead row of tabs
over the docks, whose clicks do nothing. Qt shows the bars it uses whenever it lays
the docks out, so the others can be hidden: all of them before the window is first
shown, and those on screen before a restore after it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar


def _window_tab_bars(window: QMainWindow) -> list[QTabBar]:
    return [bar for bar in window.findChildren(QTabBar) if bar.parent() is window]


def dock_tab_bars(window: QMainWindow) -> list[QTabBar]:
    """The tab bars of the window's dock rows now on screen."""
    return [bar for bar in _window_tab_bars(window) if bar.isVisible()]


def hide_before_first_show(window: QMainWindow) -> None:
    """Before the window is first shown: every dock tab bar hidden; the first layout
    shows those in use."""
    for bar in _window_tab_bars(window):
        bar.hide()


def hide_retired_tab_bars(window: QMainWindow, retired: list[QTabBar]) -> None:
    """After a ``restoreState`` on the shown window: hide ``retired``, the bars that were
    on screen before it (a restore lays the rows out with other bars). Should a row end
    up with no bar on screen (a Qt that reuses one), its bar is shown again."""
    for bar in retired:
        bar.hide()
    window.layout().activate()
    shown = {tuple(bar.tabText(i) for i in range(bar.count())) for bar in dock_tab_bars(window)}
    for dock in window.findChildren(QDockWidget):
        row = window.tabifiedDockWidgets(dock)
        if not row or dock.isHidden() or dock.isFloating():
            continue
        titles = {dock.windowTitle()} | {d.windowTitle() for d in row}
        if any(titles == set(tabs) for tabs in shown):
            continue
        for bar in retired:
            tabs = tuple(bar.tabText(i) for i in range(bar.count()))
            if set(tabs) == titles:
                bar.show()
                shown.add(tabs)
                break
