"""Docks built after the first look, or when first shown.

Every dock of the window costs the first frame its module and its widgets: those on
screen at start (the sequence inspector, the problem list: ~30 ms of the first look's
CPU, imports and widgets) and those hidden or behind a tab (statistics, findings, text
runs, folder triage), which may never be shown. Each starts as a shell: a plain
``QDockWidget`` with the dock's object name and title, placed where the dock goes, so
that ``QMainWindow.restoreState`` places it as it would the real one (a saved layout
names docks by object name). While the window has not painted its panes the shells are
*held*: on screen they are an empty dock with its title for a frame. Once both panes
have painted, :func:`build_shown` builds the docks whose shells are on screen, all in
one swap; the others are built when their shell first becomes visible (View > Panels,
its tab raised) or when something asks for one (:meth:`LazyDock.get`: the window's
``inspector_dock``, ``statistics_dock``... properties). A dock built takes its shell's
place: the window's state is saved with the shells in it and restored with the real
docks under the same names (the same tab, the same side, the same size, the same
floating geometry), and the View menu's toggle becomes the real dock's.

The tab bars of the dock rows: Qt 6.11 leaves on screen the tab bars its dock layout
no longer uses, those made while the window is built (each ``tabifyDockWidget`` lays a
row out anew) and those a ``restoreState`` on the shown window replaces. They show as a
second, dead row of tabs over the docks, whose clicks do nothing. Qt shows the bars it
uses whenever it lays the docks out, so the others can be hidden: all of them before the
window is first shown, and those on screen before a restore after it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractScrollArea, QDockWidget, QMainWindow, QTabBar

from inspector.gui.look.scrollstyle import flat_scroll_bars


class LazyDock:
    """One dock of ``window`` built by ``build()`` (which returns the QDockWidget,
    its signals connected) when first needed; until then ``shell`` stands in. While
    ``held`` (from the start until the window's first look, see :func:`build_shown`),
    the shell shown does not build the dock."""

    def __init__(self, window: QMainWindow, name: str, title: str,
                 build: Callable[[], QDockWidget]):
        self.window = window
        self.name = name
        self._build = build
        self.held = True
        # Whether the shell is on screen: its visibilityChanged (a dock behind another's
        # tab is "visible" to Qt, placed out of sight; its visibility says it is not).
        self.on_screen = False
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
            replace_shells(self.window, [self])
        return self.dock

    def _on_visibility(self, visible: bool) -> None:
        self.on_screen = visible
        if visible and self.dock is None and not self.held:
            # Not inside the signal: the layout is still showing the shell (a tab being
            # raised). The zero-delay timer comes before the user can act on it.
            QTimer.singleShot(0, self.window, lambda: self.dock is None and self.get())

    def _swap_in(self) -> None:
        """Build the dock and put it where the shell is (the restore that follows
        places it exactly)."""
        window, shell = self.window, self.shell
        area = window.dockWidgetArea(shell)
        dock = self.dock = self._build()
        dock.setObjectName(self.name)
        dock.setFeatures(shell.features())
        dock.setAccessibleName(shell.accessibleName())
        dock.setAccessibleDescription(shell.accessibleDescription())
        flat_scroll_bars(*dock.findChildren(QAbstractScrollArea))
        shell.visibilityChanged.disconnect(self._on_visibility)
        shell.setObjectName("")   # restoreState must find the real dock by the name
        window.removeDockWidget(shell)
        window.addDockWidget(area, dock)

    def _retire_shell(self) -> None:
        shell, self.shell = self.shell, None
        self._take_toggle(shell.toggleViewAction(), self.dock.toggleViewAction())
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


def replace_shells(window: QMainWindow, lazies: list[LazyDock]) -> None:
    """Build the docks of ``lazies`` (none built yet) in their shells' places, with one
    save and restore of the window's state for all of them."""
    state = window.saveState()
    for lazy in lazies:
        lazy._swap_in()
    shown_bars = dock_tab_bars(window)
    window.restoreState(state)
    hide_retired_tab_bars(window, shown_bars)
    for lazy in lazies:
        lazy._retire_shell()


def build_shown(lazies) -> list[QDockWidget]:
    """The window's first look is on screen: the docks whose shells are visible now are
    built (one swap), and no shell is held any longer (the others build when shown).
    Returns the docks built."""
    lazies = list(lazies)
    for lazy in lazies:
        lazy.held = False
    shown = [lazy for lazy in lazies if lazy.dock is None and lazy.on_screen]
    if shown:
        replace_shells(shown[0].window, shown)
    return [lazy.dock for lazy in shown]


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
