"""Every action of the window, its menus and its shortcuts, from one table.

:data:`MENU_BAR` lists the menus top to bottom as the user sees them; an action is one
:class:`Action` entry in it, which makes the QAction, keeps it as ``window.<attr>``, gives
it its shortcuts and connects it to the method it names: a controller's
(``"files.reload"``: the window's ``files``, its ``reload``; ``"document.set_dialect"``)
or, for what only the window does, the window's own (``"show_find"``). Adding a menu item
is adding that entry (and the method it calls). :data:`WINDOW_ONLY` holds the
actions that are keys without a menu item; :data:`HEX_VIEW_CONTEXT` what the hex view's
context menu adds.

Every action is added to the window too, so its shortcut works wherever the focus is in
the window (``WindowShortcut``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from inspector.core.analysis import copyformats
from inspector.gui.panes.hexlayout import BYTE_FORMATS, FIT, FORMAT_TITLES, ROW_WIDTHS
from inspector.gui.window.encodingmenu import EncodingMenu, show_choice
from inspector.gui.window.settings import THEMES

SK = QKeySequence.StandardKey
Key = Any  # a QKeySequence.StandardKey or a string such as "Ctrl+G"


def _set_keys(action: QAction, keys: tuple[Key, ...]) -> None:
    """The shortcuts (the first one is shown in the menu), for the whole window. A
    standard key brings every binding the platform has for it: QKeySequence(SK.Close)
    alone is only the first (Ctrl+F4 off a desktop theme), and Ctrl+W did nothing."""
    sequences = []
    for k in keys:
        found = (QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey)
                 else [QKeySequence(k)])
        sequences += [s for s in found if s not in sequences]
    action.setShortcuts(sequences)
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)


def _new_action(window, text: str, name: str, keys: tuple[Key, ...] = (),
                checkable: bool = False) -> QAction:
    a = QAction(text, window)
    a.setObjectName(name)
    if keys:
        _set_keys(a, keys)
    if checkable:
        a.setCheckable(True)
    window.addAction(a)
    return a


def slot_of(window, path: str):
    """The method ``path`` names: ``"name"`` the window's, ``"controller.name"`` that of
    the window's controller (``window.files``, ``window.document``...)."""
    target = window
    for part in path.split("."):
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class Action:
    """A QAction kept as ``window.<attr>``; triggering it calls the method ``slot`` names
    (see :func:`slot_of`) with ``args`` (a checkable action's slot without ``args`` gets
    the new state)."""
    attr: str
    text: str
    name: str                       # the object name (tests and tools find it by this)
    slot: str | None = None
    args: tuple = ()
    keys: tuple[Key, ...] = ()
    checkable: bool = False
    status_tip: str = ""
    enabled: bool = True

    def make(self, window) -> QAction:
        a = _new_action(window, self.text, self.name, self.keys, self.checkable)
        if self.slot is not None:
            method = slot_of(window, self.slot)
            if self.args:
                a.triggered.connect(lambda _checked=False, m=method, args=self.args: m(*args))
            else:
                a.triggered.connect(method)
        if self.status_tip:
            a.setStatusTip(self.status_tip)
        if not self.enabled:
            a.setEnabled(False)
        setattr(window, self.attr, a)
        return a

    def add_to(self, menu, window) -> None:
        menu.addAction(self.make(window))


@dataclass(frozen=True)
class Again:
    """An action made by an earlier entry, in a second menu too."""
    attr: str

    def add_to(self, menu, window) -> None:
        menu.addAction(getattr(window, self.attr))


class Separator:
    def add_to(self, menu, window) -> None:
        menu.addSeparator()


SEPARATOR = Separator()


@dataclass(frozen=True)
class Choices:
    """A submenu of exclusive choices, kept as ``window.<attr>_group`` and
    ``window.<attr>_actions`` (value -> action); choosing calls ``slot`` (see
    :func:`slot_of`) with the value.
    ``keys``: a shortcut for each option, in order."""
    attr: str
    title: str
    prefix: str                     # object names: "<prefix>_<value>"
    options: tuple[tuple[Any, str], ...]   # (value, title)
    slot: str
    menu_name: str = ""
    keys: tuple[Key, ...] = ()

    def add_to(self, menu, window) -> None:
        group = QActionGroup(window)
        group.setExclusive(True)
        actions = {}
        for value, title in self.options:
            a = _new_action(window, title, f"{self.prefix}_{value}", checkable=True)
            a.setData(value)
            group.addAction(a)
            actions[value] = a
        slot = slot_of(window, self.slot)
        group.triggered.connect(lambda a: slot(a.data()))
        for a, key in zip(actions.values(), self.keys):
            _set_keys(a, (key,))
        setattr(window, f"{self.attr}_group", group)
        setattr(window, f"{self.attr}_actions", actions)
        sub = menu.addMenu(self.title)
        if self.menu_name:
            sub.setObjectName(self.menu_name)
        sub.addActions(list(actions.values()))


@dataclass(frozen=True)
class Menu:
    """A menu of entries (a submenu when inside another). ``attr``: kept as
    ``window.<attr>``; ``fill``: a method (see :func:`slot_of`) that fills it, given the
    menu, each time it opens."""
    title: str
    items: tuple = ()
    name: str = ""
    attr: str = ""
    fill: str = ""

    def add_to(self, menu, window) -> QMenu:
        sub = menu.addMenu(self.title)
        if self.name:
            sub.setObjectName(self.name)
        if self.attr:
            setattr(window, self.attr, sub)
        if self.fill:
            fill = slot_of(window, self.fill)
            sub.aboutToShow.connect(lambda: fill(sub))
        for item in self.items:
            item.add_to(sub, window)
        return sub


class CopyAsMenu:
    """Edit > Copy as: one action per copy format (the window's ``copy_menu``, see
    copyactions)."""

    def add_to(self, menu, window) -> None:
        menu.addMenu(window.copy_menu)


class PanelToggles:
    """View > Panels: each dock's own toggle action with a shortcut (Alt+digit, as in the
    IDEs), then the overview strip; kept as ``window.panel_actions`` (by object name)."""

    def add_to(self, menu, window) -> None:
        window.panel_actions = {}
        for i, dock in enumerate(window.docks, start=1):
            a = dock.toggleViewAction()
            a.setObjectName(f"actionPanel_{dock.objectName()}")
            _set_keys(a, (f"Alt+{i}",))
            window.addAction(a)
            window.panel_actions[dock.objectName()] = a
        a = _new_action(window, "&Overview strip", "actionPanel_overview",
                        (f"Alt+{len(window.docks) + 1}",), checkable=True)
        a.setChecked(True)
        a.toggled.connect(window.overview.setVisible)
        window.panel_actions["overview"] = a
        menu.addActions(list(window.panel_actions.values()))


MENU_BAR = (
    Menu("&File", name="fileMenu", items=(
        Action("act_open", "&Open…", "actionOpen", "files.open_dialog", keys=(SK.Open,)),
        Action("act_open_folder", "Open &Folder…", "actionOpenFolder", "files.open_folder_dialog",
               keys=("Ctrl+Shift+O",)),
        Menu("Open &Recent", name="recentMenu", attr="recent_menu", fill="files.fill_recent_menu"),
        Action("act_reload", "&Reload", "actionReload", "files.reload", keys=("F5",)),
        Action("act_close", "&Close", "actionClose", "files.close_file", keys=(SK.Close,)),
        SEPARATOR,
        Menu("&Export", name="exportMenu", items=(
            Action("act_export_json", "Export &JSON report…", "actionExportJson",
                   "dialogs.export", args=("json",)),
            Action("act_export_csv", "Export &CSV of error units…", "actionExportCsv",
                   "dialogs.export", args=("csv",)),
            Action("act_export_html", "Export &HTML report…", "actionExportHtml",
                   "dialogs.export", args=("html",)),
        )),
        Action("act_export_findings", "Export &findings…", "actionExportFindings",
               "finding_actions.export"),
        Action("act_import_findings", "&Import findings…", "actionImportFindings",
               "finding_actions.import_file"),
        Action("act_repair", "Save &repaired copy…", "actionSaveRepaired", "dialogs.show_repair",
               keys=("Ctrl+Shift+S",)),
        SEPARATOR,
        Action("act_quit", "&Quit", "actionQuit", "close", keys=("Ctrl+Q",)),
    )),
    Menu("&Edit", name="editMenu", items=(
        # Copy: the focused pane decides (hex in the hex view, text in the text pane).
        Action("act_copy", "&Copy", "actionCopy", "copy_focused", keys=(SK.Copy,),
               status_tip="Copy the selection: as hex in the hex view, as text in the "
                          "text pane"),
        Action("act_copy_text", "Copy as decoded &text", "actionCopyText", "copy_actions.copy",
               args=(copyformats.TEXT,), keys=("Ctrl+Shift+C",)),
        CopyAsMenu(),
        Action("act_copy_sha256", "Copy file's S&HA-256", "actionCopySha256", "status_fields.copy_sha256",
               status_tip="Copy the SHA-256 of the whole file (known once the scan has "
                          "read it)"),
        Action("act_select_all", "Select &all", "actionSelectAll", "document.select_all",
               keys=(SK.SelectAll,)),
        SEPARATOR,
        Action("act_add_finding", "Add fin&ding…", "actionAddFinding", "finding_actions.add",
               keys=("Ctrl+D",), status_tip="Mark the selection, or the unit at the cursor, "
                                            "as a finding with a note"),
        SEPARATOR,
        Action("act_find", "&Find…", "actionFind", "show_find", keys=(SK.Find,)),
        Action("act_find_next", "Find &next", "actionFindNext", "find_next", keys=("F3",)),
        Action("act_find_previous", "Find pre&vious", "actionFindPrevious", "find_previous",
               keys=("Shift+F3",)),
    )),
    Menu("&View", name="viewMenu", attr="view_menu", items=(
        Menu("&Panels", name="panelsMenu", items=(PanelToggles(),)),
        SEPARATOR,
        Choices("format", "&Byte format", "format",
                tuple((f, FORMAT_TITLES[f]) for f in BYTE_FORMATS), "set_byte_format"),
        Choices("width", "Bytes per &row", "width",
                tuple((n, f"{n} bytes") for n in ROW_WIDTHS) + ((FIT, "Fit to width"),),
                "set_bytes_per_row"),
        Choices("base", "&Offsets", "offsetBase",
                (("hex", "Hexadecimal"), ("decimal", "Decimal")), "set_offset_base"),
        SEPARATOR,
        Action("act_zoom_in", "Zoom &in", "actionZoomIn", "zoom", args=("zoom_in",),
               keys=(SK.ZoomIn, "Ctrl+=")),
        Action("act_zoom_out", "Zoom &out", "actionZoomOut", "zoom", args=("zoom_out",),
               keys=(SK.ZoomOut,)),
        Action("act_zoom_reset", "&Reset zoom", "actionZoomReset", "zoom",
               args=("zoom_reset",), keys=("Ctrl+0",)),
        SEPARATOR,
        # Interpret as: the UTF-8 dialects (Ctrl+1..5), the encoding map, every codec.
        EncodingMenu(),
        Action("act_whitespace", "Show &whitespace and control pictures",
               "actionShowWhitespace", "set_show_whitespace", keys=("Ctrl+Shift+W",),
               checkable=True),
        Action("act_line_numbers", "Show &line numbers in the hex view", "actionLineNumbers",
               "hex_view.set_show_line_numbers", keys=("Ctrl+Shift+N",), checkable=True),
        Choices("theme", "&Theme", "theme", tuple((t, t.capitalize()) for t in THEMES),
                "set_theme"),
        SEPARATOR,
        Action("act_legend", "&Legend…", "actionLegend", "dialogs.show_legend", keys=("Ctrl+L",)),
    )),
    Menu("&Go", name="goMenu", items=(
        Action("act_goto", "&Go to offset…", "actionGoto", "show_goto", keys=("Ctrl+G",)),
        SEPARATOR,
        Action("act_decode_here", "&Decode from here", "actionDecodeFromHere",
               "document.decode_from_cursor", keys=("Ctrl+R",)),
        Action("act_clear_origin", "C&lear origin", "actionClearOrigin", "document.set_origin", args=(None,),
               keys=("Ctrl+Shift+R",)),
        SEPARATOR,
        Action("act_next", "&Next problem", "actionNextProblem", "background.find_problem",
               args=(True,), keys=("F8",)),
        Action("act_previous", "&Previous problem", "actionPreviousProblem", "background.find_problem",
               args=(False,), keys=("Shift+F8",)),
        Action("act_next_finding", "Next &finding", "actionNextFinding", "finding_actions.go_to_next",
               args=(True,), keys=("F2",)),
        Action("act_previous_finding", "Previous f&inding", "actionPreviousFinding",
               "finding_actions.go_to_next", args=(False,), keys=("Shift+F2",)),
        Action("act_next_file", "Next &file with problems", "actionNextProblemFile",
               "files.next_problem_file", args=(True,), keys=("F7",)),
        Action("act_previous_file", "Previous file &with problems",
               "actionPreviousProblemFile", "files.next_problem_file", args=(False,),
               keys=("Shift+F7",)),
    )),
    Menu("&Tools", name="toolsMenu", items=(
        Action("act_encoder", "&Encoder…", "actionEncoder", "dialogs.show_encoder", keys=("Ctrl+E",)),
    )),
    Menu("&Help", name="helpMenu", items=(
        Action("act_reference", "UTF-8 &reference", "actionReference", "dialogs.show_reference",
               keys=("F1", "Ctrl+F1")),
        Again("act_legend"),
        SEPARATOR,
        Action("act_user_guide", "User &guide", "actionUserGuide", "dialogs.show_user_guide"),
        Action("act_unit_contract", "&Unit contract", "actionUnitContract",
               "dialogs.show_unit_contract"),
        SEPARATOR,
        Action("act_about", "&About UTF-8 Inspector", "actionAbout", "dialogs.show_about"),
    )),
)

WINDOW_ONLY = (
    # Enabled only while the find bar shows, so that Escape stays free otherwise.
    Action("act_find_close", "Close the find bar", "actionFindClose", "hide_find",
           keys=("Escape",), enabled=False),
)

# The window attributes (actions or menus) the hex view's context menu offers.
HEX_VIEW_CONTEXT = ("copy_menu", "act_goto", "act_next", "act_previous")


def build(window) -> None:
    """Make every action, menu and shortcut of the tables above on ``window``."""
    bar = window.menuBar()
    for menu in MENU_BAR:
        menu.add_to(bar, window)
    for action in WINDOW_ONLY:
        action.make(window)
    show_choice(window, window.document.dialect)
    context = (getattr(window, attr) for attr in HEX_VIEW_CONTEXT)
    window.hex_view.context_actions = [x.menuAction() if isinstance(x, QMenu) else x
                                       for x in context]
