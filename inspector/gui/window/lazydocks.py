"""Docks built when first shown.

The docks that are hidden or behind a tab when the window first appears (statistics,
findings, text runs, folder triage) cost the first frame their modules and widgets for
nothing. Each starts as a shell: a plain ``QDockWidget`` with the dock's object name and
title, placed where the dock goes, so that ``QMainWindow.restoreState`` places it as it
would the real one (a saved layout names docks by object name). The real dock is built,
its module imported, when the shell first becomes visible (View > Panels, its tab
raised, a saved layout that shows it) or when something asks for it
(:meth:`LazyDock.get`: the window's ``statistics_dock``... properties). It then takes
the shell's place: the window's state is saved with the shell in it and restored with
the real dock under the same name (the same tab, the same side, the same floating
geometry), and the View menu's toggle becomes the real dock's.

The tab bars of the dock rows: Qt 6.11 leaves on screen the tab bars its dock layout
no longer uses, those made while the window is built (each ``tabifyDockWidget`` lays a
row out anew) and those a ``restoreState`` on the shown window replaces. They show as a second, dead row of tabs
over the docks, whose clicks do nothing. Qt shows the bars it uses whenever it lays
the docks out, so the others can be hidden: all of them before the window is first
shown, and those on screen before a restore after it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractScrollArea, QDockWidget, QMainWindow, QTabBar

from inspector.gui.look.scrollstyle import flat_scroll_bars


class LazyDock:
    """One dock of ``window`` built by ``build()`` (which returns the QDockWidget,
    its signals connected) when first needed; until then ``shell`` stands in."""

    def __init__(self, window: QMainWindow, name: str, title: str,
                 build: Callable[[], QDockWidget]):
        self.window = window
        self.name = name
        self._build = build
        self.dock: QDockWidget | None = None   # the real dock, once built
        self.shell: QDockWidget | None = QDockWidget(title, window)
        self.shell.setObjectName(name)
        self.shell.visibilityChanged.connect(self._on_visibility)

    @property
    def current(self) -> QDockWidget:
        """What stands in the window now: the real dock, or its shell."""
        return self.dock if self.dock is not None else self.shell

    def get(self) -> QDockWidget:
        """The real dock, built now if it was not."""
        if self.dock is None:
            self._replace_shell()
        return self.dock

    def _on_visibility(self, visible: bool) -> None:
        if visible and self.dock is None:
            # Not inside the signal: the layout is still showing the shell (a tab being
            # raised). The zero-delay timer comes before the user can act on it.
            QTimer.singleShot(0, self.window, lambda: self.dock is None and self._replace_shell())

    def _replace_shell(self) -> None:
        window, shell = self.window, self.shell
        state = window.saveState()
        area = window.dockWidgetArea(shell)
        dock = self._build()
        dock.setObjectName(self.name)
        dock.setFeatures(shell.features())
        dock.setAccessibleName(shell.accessibleName())
        dock.setAccessibleDescription(shell.accessibleDescription())
        flat_scroll_bars(*dock.findChildren(QAbstractScrollArea))
        shell.visibilityChanged.disconnect(self._on_visibility)
        shell.setObjectName("")   # restoreState must find the real dock by the name
        window.removeDockWidget(shell)
        window.addDockWidget(area, dock)
        shown_bars = dock_tab_bars(window)
        window.restoreState(state)
        hide_retired_tab_bars(window, shown_bars)
        self._take_toggle(shell.toggleViewAction(), dock.toggleViewAction())
        self.dock, self.shell = dock, None
        shell.deleteLater()

    def _take_toggle(self, old, new) -> None:
        """The View menu's entry for the dock, with its shortcut and name, now the real
        dock's toggle."""
        new.setObjectName(old.objectName())
        new.setShortcuts(old.shortcuts())
        new.setShortcutContext(old.shortcutContext())
        for holder in old.associatedObjects():
            if hasattr(holder, "insertAction"):
                holder.insertAction(old, new)
                holder.removeAction(old)
        actions = getattr(self.window, "panel_actions", None)
        if actions is not None and actions.get(self.name) is old:
            actions[self.name] = new


# ---------------------------------------------------------------- dock tab bars
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
