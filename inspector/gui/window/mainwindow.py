"""The inspector window: the hex view and the text pane side by side, in step.

Both panes paint from one :class:`~inspector.gui.document.Document`. The window owns
the menus, the status bar, the settings and the background work: the whole-file scan
(restarted when the dialect changes, cancelled when another file is opened) and the
search for the next or previous problem. The window works before a scan has finished and
without one.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QEvent, QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import (QAbstractScrollArea, QApplication, QDockWidget, QFileDialog,
                               QFrame, QHBoxLayout, QLabel, QMainWindow, QMessageBox,
                               QProgressBar, QPushButton, QSplitter, QVBoxLayout, QWidget)

from inspector.core.analysis import copyformats
from inspector.core.units import decoder
from inspector.core.scan import navigation
from inspector.core.analysis import verdict
from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.units import kinds as K
from inspector.core.source.bytesource import ByteSourceError, MemorySource, display_path
from inspector.core.units.unicode_db import name as cp_name
from inspector.gui.runtime import crashguard
from inspector.gui.dialogs import export as exportdialogs
from inspector.gui.window import findbar
from inspector.gui.panes import overview
from inspector.gui.docks import problemlist
from inspector.gui.look import style
from inspector.gui.window.copyactions import build_copy_menu
from inspector.gui.runtime.courtesy import PaintsAsActivity, UserActivity, courteous
from inspector.gui.dialogs.goto import GotoDialog
from inspector.gui.dialogs.legend import LegendDialog
from inspector.gui.document import Document
from inspector.gui.dialogs.encoder import EncoderDialog
from inspector.gui.panes.hexlayout import BYTE_FORMATS, FIT, FORMAT_TITLES, ROW_WIDTHS
from inspector.gui.panes.hexview import HexView
from inspector.gui.docks.inspectordock import SequenceInspector
from inspector.gui.look.labels import ElidedLabel
from inspector.gui.dialogs.reference import ReferenceDialog
from inspector.gui.look.scrollstyle import flat_scroll_bars
from inspector.gui.window.settings import THEMES, Settings
from inspector.gui.docks.statistics import UNREADABLE_VERDICT, StatisticsDock
from inspector.gui.panes.textview import TextView
from inspector.gui.runtime.workers import GeneratorWorker, start as start_worker


APP_TITLE = "UTF-8 Inspector"


def _dark_qpalette() -> QPalette:
    colors = style.load_palette("dark")
    pal = QPalette()
    bg, text = QColor(colors["background"]), QColor(colors["text"])
    alt = QColor(colors.get("alternate_background", colors["background"]))
    for role, color in (
            (QPalette.ColorRole.Window, alt), (QPalette.ColorRole.WindowText, text),
            (QPalette.ColorRole.Base, bg), (QPalette.ColorRole.AlternateBase, alt),
            (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, alt),
            (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, alt),
            (QPalette.ColorRole.ToolTipText, text),
            (QPalette.ColorRole.Highlight, QColor(colors.get("cursor", "#2f81f7"))),
            (QPalette.ColorRole.HighlightedText, QColor("#ffffff"))):
        pal.setColor(role, color)
    return pal


def _disk_stamp(path):
    """What the path names now (identity, size, time), to tell one change from the next."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class MainWindow(QMainWindow):
    scanFinished = Signal(object)      # for tests and automation: the result set
    searchFinished = Signal(object)    # the unit found (or None)

    def __init__(self, parent: QWidget | None = None, settings: Settings | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowNestedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)
        self.setAcceptDrops(True)
        self.settings = settings or Settings()
        self.document = Document(self)
        self._scan_worker: GeneratorWorker | None = None
        self._search_worker: GeneratorWorker | None = None
        self._workers: set[GeneratorWorker] = set()  # kept alive until they end
        self.last_error: str | None = None
        self.error_box: QMessageBox | None = None
        self.goto_dialog = GotoDialog(self)
        self.goto_dialog.offsetChosen.connect(self.go_to)
        self.legend_dialog: LegendDialog | None = None

        self.encoder_dialog: EncoderDialog | None = None
        self.reference_dialog: ReferenceDialog | None = None
        self.repair_dialog = None
        self._file_change_key = None      # the change the banner shows (or None)
        self._dismissed_change_key = None  # a change the user has dismissed

        self.hex_view = HexView(self.document)
        self.text_view = TextView(self.document)
        self.overview = overview.OverviewStrip(self.document)
        self.find_bar = findbar.FindBar(self.document)
        self._build_central()
        self._build_docks()

        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self.hex_view.context_actions = [self.copy_menu.menuAction(), self.act_goto,
                                         self.act_next, self.act_previous]
        self._describe_for_accessibility()
        # Every scroll bar of the window flat, the docks' too: one look, and a whole
        # repaint spent ~5 ms of its ~10 on Fusion's bars (the inspector's, the problem
        # table's, the bit layout's).
        flat_scroll_bars(*self.findChildren(QAbstractScrollArea))

        d = self.document
        # The background scan steps aside while the user navigates (see courtesy).
        self.user_activity = UserActivity()
        # Opening a file counts too: its first look (and the first jumps) come next.
        for signal in (d.sourceChanged, d.cursorChanged, d.anchorChanged, d.selectionChanged):
            signal.connect(self.user_activity.touch)
        self._paint_activity = PaintsAsActivity(
            self.user_activity, (self.hex_view.viewport(), self.text_view.viewport()), self)
        d.sourceChanged.connect(self._on_source)
        d.cursorChanged.connect(self._update_cursor_status)
        d.selectionChanged.connect(self._update_selection_status)
        d.originChanged.connect(self._on_origin)
        d.dialectChanged.connect(self._on_dialect)
        d.scanChanged.connect(self._on_scan)
        d.fileChanged.connect(self._on_file_changed)
        self.hex_view.zoomChanged.connect(self._on_zoom)
        self.hex_view.visibleRangeChanged.connect(self._on_visible_range)
        self.find_bar.matchesChanged.connect(self._on_matches)
        self.overview.jumped.connect(lambda _offset: self.hex_view.setFocus())

        # Changes on disk: a watcher for the quick notice, a cheap periodic stat for what
        # watchers miss (network file systems, a file replaced by rename), and a check
        # whenever the window is activated.
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_watched_file)
        self._file_timer = QTimer(self)
        self._file_timer.setInterval(1500)
        self._file_timer.timeout.connect(self._check_file)
        self._file_timer.start()

        self._apply_settings()
        self._update_title()
        self._update_all_status()

    # ------------------------------------------------------------------ building
    def _build_central(self) -> None:
        """[file-change banner] / [hex view | overview strip | text pane] / [find bar]."""
        self.banner = QFrame()
        self.banner.setObjectName("fileBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setAutoFillBackground(True)
        row = QHBoxLayout(self.banner)
        row.setContentsMargins(8, 4, 8, 4)
        self.banner_icon = QLabel("\u26a0")
        self.banner_icon.setObjectName("fileBannerIcon")
        row.addWidget(self.banner_icon)
        self.banner_text = QLabel()
        self.banner_text.setObjectName("fileBannerText")
        self.banner_text.setWordWrap(True)
        self.banner_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.banner_text, 1)
        self.banner_reload = QPushButton("&Reload")
        self.banner_reload.setObjectName("fileBannerReload")
        self.banner_reload.setToolTip("Open the file again as it is now on disk (F5)")
        self.banner_reload.clicked.connect(self.reload)
        row.addWidget(self.banner_reload)
        self.banner_dismiss = QPushButton("Dismiss")
        self.banner_dismiss.setObjectName("fileBannerDismiss")
        self.banner_dismiss.setToolTip("Hide this notice; it comes back if the file changes again")
        self.banner_dismiss.clicked.connect(self.dismiss_file_change)
        row.addWidget(self.banner_dismiss)
        self.banner.hide()

        self.hex_pane = QWidget()
        self.hex_pane.setObjectName("hexPane")
        pane = QHBoxLayout(self.hex_pane)
        pane.setContentsMargins(0, 0, 0, 0)
        pane.setSpacing(2)
        pane.addWidget(self.hex_view, 1)
        pane.addWidget(self.overview)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("paneSplitter")
        self.splitter.addWidget(self.hex_pane)
        self.splitter.addWidget(self.text_view)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        QWidget.setTabOrder(self.hex_view, self.text_view)
        self.splitter.setChildrenCollapsible(False)

        central = QWidget()
        central.setObjectName("centralPane")
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.banner)
        box.addWidget(self.splitter, 1)
        box.addWidget(self.find_bar)
        self.find_bar.hide()
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        """The sequence inspector and the statistics share the right side as tabs; the
        problem list, a wide table, goes below the views."""
        d = self.document
        self.inspector_dock = SequenceInspector(d, self)
        self.statistics_dock = StatisticsDock(d, self)
        self.problem_dock = problemlist.ProblemListDock(d, self)
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.addDockWidget(right, self.inspector_dock)
        self.addDockWidget(right, self.statistics_dock)
        self.tabifyDockWidget(self.inspector_dock, self.statistics_dock)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problem_dock)
        self.inspector_dock.raise_()
        self.docks = [self.inspector_dock, self.statistics_dock, self.problem_dock]
        for dock in self.docks:
            dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                             | QDockWidget.DockWidgetFeature.DockWidgetMovable
                             | QDockWidget.DockWidgetFeature.DockWidgetFloatable)

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        sb.setObjectName("statusBar")

        def label(name: str, tip: str) -> QLabel:
            w = QLabel()
            w.setObjectName(name)
            w.setToolTip(tip)
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            return w

        self.status_cursor = label("statusCursor", "cursor offset (hex and decimal)")
        self.status_selection = label("statusSelection", "selection length")
        self.status_unit = label("statusUnit", "the unit at the cursor")
        self.status_note = label("statusNote", "the last search, the file's state")
        self.status_resync = label("statusResync", "what decoding from the origin loses")
        self.status_dialect = label("statusDialect", "Interpret as (View menu)")
        self.status_size = label("statusSize", "file size")
        # The verdict can be a long sentence: shown as far as it fits, whole in its
        # tooltip and in the statistics dock.
        self.status_verdict = ElidedLabel()
        self.status_verdict.setObjectName("statusVerdict")
        self.status_verdict.setToolTip("the whole-file verdict")
        self.status_readonly = label("statusReadOnly", "the file is opened read-only: "
                                                       "nothing is ever written to it")
        self.status_readonly.setText("Read-only")
        self.progress = QProgressBar()
        self.progress.setObjectName("scanProgress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(140)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("scanCancel")
        self.cancel_button.clicked.connect(self.cancel_background)
        for w in (self.status_cursor, self.status_selection, self.status_unit,
                  self.status_resync, self.status_note):
            sb.addWidget(w)
        for w in (self.status_dialect, self.status_size, self.status_verdict, self.progress,
                  self.cancel_button, self.status_readonly):
            sb.addPermanentWidget(w)
        self.progress.hide()
        self.cancel_button.hide()

    def _action(self, text: str, name: str, slot=None, shortcut=None, checkable=False) -> QAction:
        a = QAction(text, self)
        a.setObjectName(name)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if checkable:
            a.setCheckable(True)
        if slot is not None:
            a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        SK = QKeySequence.StandardKey
        self.act_open = self._action("&Open…", "actionOpen", self.open_dialog, SK.Open)
        self.act_reload = self._action("&Reload", "actionReload", self.reload, "F5")
        self.act_close = self._action("&Close", "actionClose", self.close_file, SK.Close)
        self.act_quit = self._action("&Quit", "actionQuit", self.close, "Ctrl+Q")
        self.act_export_json = self._action("Export &JSON report…", "actionExportJson",
                                            lambda: self.export("json"))
        self.act_export_csv = self._action("Export &CSV of error units…", "actionExportCsv",
                                           lambda: self.export("csv"))
        self.act_export_html = self._action("Export &HTML report…", "actionExportHtml",
                                            lambda: self.export("html"))
        self.act_repair = self._action("Save &repaired copy…", "actionSaveRepaired",
                                       self.show_repair, "Ctrl+Shift+S")
        # Copy: the focused pane decides (hex in the hex view, text in the text pane).
        self.act_copy = self._action("&Copy", "actionCopy", self.copy_focused, SK.Copy)
        self.act_copy.setStatusTip("Copy the selection: as hex in the hex view, as text in "
                                   "the text pane")
        self.act_copy_text = self._action("Copy as decoded &text", "actionCopyText",
                                          lambda: self.copy_as(copyformats.TEXT), "Ctrl+Shift+C")
        self.act_select_all = self._action("Select &all", "actionSelectAll", self.select_all,
                                           SK.SelectAll)
        self.act_find = self._action("&Find…", "actionFind", self.show_find, SK.Find)
        self.act_find_next = self._action("Find &next", "actionFindNext", self.find_next, "F3")
        self.act_find_previous = self._action("Find pre&vious", "actionFindPrevious",
                                              self.find_previous, "Shift+F3")
        self.act_find_close = self._action("Close the find bar", "actionFindClose",
                                           self.hide_find, "Escape")
        self.act_find_close.setEnabled(False)  # only while the bar shows: Escape stays free
        self.act_goto = self._action("&Go to offset…", "actionGoto", self.show_goto, "Ctrl+G")
        self.act_decode_here = self._action("&Decode from here", "actionDecodeFromHere",
                                            self.decode_from_cursor, "Ctrl+D")
        self.act_clear_origin = self._action("C&lear origin", "actionClearOrigin",
                                             self.clear_origin, "Ctrl+Shift+D")
        self.act_next = self._action("&Next problem", "actionNextProblem",
                                     lambda: self.find_problem(True), "F8")
        self.act_previous = self._action("&Previous problem", "actionPreviousProblem",
                                         lambda: self.find_problem(False), "Shift+F8")
        self.act_zoom_in = self._action("Zoom &in", "actionZoomIn", lambda: self.zoom("zoom_in"), SK.ZoomIn)
        self.act_zoom_in.setShortcuts([QKeySequence(SK.ZoomIn), QKeySequence("Ctrl+=")])
        self.act_zoom_out = self._action("Zoom &out", "actionZoomOut", lambda: self.zoom("zoom_out"), SK.ZoomOut)
        self.act_zoom_reset = self._action("&Reset zoom", "actionZoomReset", lambda: self.zoom("zoom_reset"), "Ctrl+0")
        self.act_whitespace = self._action("Show &whitespace and control pictures",
                                           "actionShowWhitespace", self._on_whitespace,
                                           "Ctrl+Shift+W", checkable=True)
        self.act_legend = self._action("&Legend…", "actionLegend", self.show_legend, "Ctrl+L")
        self.act_encoder = self._action("&Encoder…", "actionEncoder", self.show_encoder, "Ctrl+E")
        self.act_reference = self._action("UTF-8 &reference", "actionReference",
                                          self.show_reference, SK.HelpContents)
        self.act_reference.setShortcuts([QKeySequence("F1"), QKeySequence("Ctrl+F1")])
        self.act_about = self._action("&About UTF-8 Inspector", "actionAbout", self.show_about)

        # View > Panels: each dock's own toggle action, with a shortcut (Alt+digit, as in
        # the IDEs), plus the overview strip.
        self.panel_actions: dict[str, QAction] = {}
        for i, dock in enumerate(self.docks, start=1):
            a = dock.toggleViewAction()
            a.setObjectName(f"actionPanel_{dock.objectName()}")
            a.setShortcut(QKeySequence(f"Alt+{i}"))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(a)
            self.panel_actions[dock.objectName()] = a
        a = self._action("&Overview strip", "actionPanel_overview", None,
                         f"Alt+{len(self.docks) + 1}", checkable=True)
        a.setChecked(True)
        a.toggled.connect(self.overview.setVisible)
        self.panel_actions["overview"] = a

        def group(names_titles, prefix, slot):
            g = QActionGroup(self)
            g.setExclusive(True)
            acts = {}
            for value, title in names_titles:
                a = self._action(title, f"{prefix}_{value}", checkable=True)
                a.setData(value)
                g.addAction(a)
                acts[value] = a
            g.triggered.connect(lambda a: slot(a.data()))
            return g, acts

        self.format_group, self.format_actions = group(
            [(f, FORMAT_TITLES[f]) for f in BYTE_FORMATS], "format", self.set_byte_format)
        self.width_group, self.width_actions = group(
            [(n, f"{n} bytes") for n in ROW_WIDTHS] + [(FIT, "Fit to width")], "width",
            self.set_bytes_per_row)
        self.base_group, self.base_actions = group(
            [("hex", "Hexadecimal"), ("decimal", "Decimal")], "offsetBase", self.set_offset_base)
        self.dialect_group, self.dialect_actions = group(
            [(d, K.DIALECT_TITLES[d]) for d in K.DIALECTS], "dialect", self.document.set_dialect)
        self.theme_group, self.theme_actions = group(
            [(t, t.capitalize()) for t in THEMES], "theme", self.set_theme)
        self.dialect_actions[self.document.dialect].setChecked(True)
        # Interpret as: Ctrl+1..5 in the order of the menu.
        for i, d in enumerate(K.DIALECTS, start=1):
            self.dialect_actions[d].setShortcut(QKeySequence(f"Ctrl+{i}"))
            self.dialect_actions[d].setShortcutContext(Qt.ShortcutContext.WindowShortcut)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.setObjectName("fileMenu")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        m.addAction(self.act_reload)
        m.addAction(self.act_close)
        m.addSeparator()
        sub = m.addMenu("&Export")
        sub.setObjectName("exportMenu")
        sub.addAction(self.act_export_json)
        sub.addAction(self.act_export_csv)
        sub.addAction(self.act_export_html)
        m.addAction(self.act_repair)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Edit")
        m.setObjectName("editMenu")
        m.addAction(self.act_copy)
        m.addAction(self.act_copy_text)
        self.copy_menu = build_copy_menu(self.document, self)
        self.copy_actions = self.copy_menu.copy_actions
        self.copy_actions.message.connect(self._show_message)
        m.addMenu(self.copy_menu)
        m.addAction(self.act_select_all)
        m.addSeparator()
        m.addAction(self.act_find)
        m.addAction(self.act_find_next)
        m.addAction(self.act_find_previous)
        m = mb.addMenu("&View")
        m.setObjectName("viewMenu")
        sub = m.addMenu("&Panels")
        sub.setObjectName("panelsMenu")
        sub.addActions(list(self.panel_actions.values()))
        m.addSeparator()
        sub = m.addMenu("&Byte format")
        sub.addActions(list(self.format_actions.values()))
        sub = m.addMenu("Bytes per &row")
        sub.addActions(list(self.width_actions.values()))
        sub = m.addMenu("&Offsets")
        sub.addActions(list(self.base_actions.values()))
        m.addSeparator()
        m.addAction(self.act_zoom_in)
        m.addAction(self.act_zoom_out)
        m.addAction(self.act_zoom_reset)
        m.addSeparator()
        sub = m.addMenu("&Interpret as")
        sub.setObjectName("dialectMenu")
        sub.addActions(list(self.dialect_actions.values()))
        m.addAction(self.act_whitespace)
        sub = m.addMenu("&Theme")
        sub.addActions(list(self.theme_actions.values()))
        m.addSeparator()
        m.addAction(self.act_legend)
        self.view_menu = m
        m = mb.addMenu("&Go")
        m.setObjectName("goMenu")
        m.addAction(self.act_goto)
        m.addSeparator()
        m.addAction(self.act_decode_here)
        m.addAction(self.act_clear_origin)
        m.addSeparator()
        m.addAction(self.act_next)
        m.addAction(self.act_previous)
        m = mb.addMenu("&Tools")
        m.setObjectName("toolsMenu")
        m.addAction(self.act_encoder)
        m = mb.addMenu("&Help")
        m.setObjectName("helpMenu")
        m.addAction(self.act_reference)
        m.addAction(self.act_legend)
        m.addSeparator()
        m.addAction(self.act_about)

    def _describe_for_accessibility(self) -> None:
        """Names and descriptions a screen reader announces (the panes paint themselves,
        so without these they are anonymous rectangles)."""
        def describe(widget, name: str, description: str) -> None:
            if widget is not None:
                widget.setAccessibleName(name)
                widget.setAccessibleDescription(description)

        describe(self.hex_view, "Hex view",
                 "The bytes of the file in rows, each unit boxed; problems carry a mark "
                 "letter. Arrows move by unit, Alt+arrows by byte, Shift selects, Tab goes "
                 "to the text pane.")
        describe(self.text_view, "Decoded text",
                 "The file as a UTF-8 decoder reads it; each problem is shown as flagged "
                 "replacement characters. In step with the hex view.")
        describe(self.overview, "Overview of the whole file",
                 "Where the problems, the multibyte text and the binary-looking data are; "
                 "click to go there.")
        describe(self.find_bar, "Find bar",
                 "Find hex bytes, text or code points; F3 next, Shift+F3 previous, Escape closes.")
        describe(self.inspector_dock, "Sequence inspector",
                 "Everything the decoder knows about the unit at the cursor.")
        describe(self.statistics_dock, "Statistics",
                 "The verdict and the counts of units, errors and warnings of the whole file.")
        describe(self.problem_dock, "Problem list",
                 "Every problem unit of the file; Enter goes to the selected one.")
        describe(self.banner, "File changed on disk",
                 "The inspected file changed since it was opened; Reload or Dismiss.")
        describe(self.status_cursor, "Cursor offset", "The cursor's offset in hex and decimal.")
        describe(self.status_selection, "Selection length", "How many bytes are selected.")
        describe(self.status_unit, "Unit at the cursor",
                 "The code point and name, or the problem, at the cursor.")
        describe(self.status_note, "Message", "The last message: searches, copies, the file's state.")
        describe(self.status_resync, "Resynchronization",
                 "How many bytes decoding from the origin loses.")
        describe(self.status_dialect, "Dialect", "How the bytes are interpreted.")
        describe(self.status_size, "File size", "The size of the file in bytes.")
        describe(self.status_verdict, "Verdict", "The whole-file verdict of the scan.")
        describe(self.status_readonly, "Read-only", "The file is never written to.")
        describe(self.progress, "Scan progress", "How much of the file has been scanned.")
        describe(self.cancel_button, "Cancel the scan", "Stop the background scan.")

    def _apply_settings(self) -> None:
        s = self.settings
        hv = self.hex_view
        hv.set_byte_format(s.byte_format)
        hv.set_bytes_per_row(s.bytes_per_row)
        hv.set_offset_base(s.offset_base)
        hv.set_zoom(s.zoom)
        self.format_actions[hv.byte_format].setChecked(True)
        self.width_actions[hv.bytes_per_row_choice].setChecked(True)
        self.base_actions[hv.offset_base].setChecked(True)
        self.act_whitespace.setChecked(s.show_whitespace)
        self._on_whitespace(s.show_whitespace)
        theme = s.theme
        self.theme_actions[theme].setChecked(True)
        self._apply_theme(theme)
        geometry = s.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1200, 800)
        state = s.state()
        if state is None or not self.restoreState(state):
            # First run: the right-hand docks narrow, the problem list a few rows high.
            width = max(280, min(410, int(self.width() * 0.28)))
            self.resizeDocks([self.inspector_dock], [width], Qt.Orientation.Horizontal)
            self.resizeDocks([self.problem_dock], [190], Qt.Orientation.Vertical)
        split = s.splitter()
        self._split_pending = split is None or not self.splitter.restoreState(split)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_split_pending", False):
            # Only once the docks have their room is the width for the panes known: the
            # hex view gets a whole row (no horizontal scrolling), the text pane the rest.
            self._split_pending = False
            QTimer.singleShot(0, self._fit_hex_pane)

    TEXT_PANE_MIN = 240

    def _fit_hex_pane(self, may_narrow_docks: bool = True) -> None:
        total = sum(self.splitter.sizes())
        if total <= 0:
            return
        hexw = self.hex_pane.sizeHint().width()
        short = hexw + self.TEXT_PANE_MIN - total
        dock = self.inspector_dock
        if may_narrow_docks and short > 0 and dock.isVisible() and not dock.isFloating():
            # A narrow window: the right-hand docks give up some width first.
            width = max(260, dock.width() - short)
            if width < dock.width():
                self.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
                QTimer.singleShot(0, lambda: self._fit_hex_pane(False))
                return
        textw = max(160, total - hexw)
        self.splitter.setSizes([max(total - textw, 200), textw])

    # ------------------------------------------------------------------ view settings
    def set_byte_format(self, fmt: str) -> None:
        self.hex_view.set_byte_format(fmt)
        self.format_actions[fmt].setChecked(True)
        self.settings.byte_format = fmt

    def set_bytes_per_row(self, n: int) -> None:
        self.hex_view.set_bytes_per_row(n)
        self.width_actions[n].setChecked(True)
        self.settings.bytes_per_row = n

    def set_offset_base(self, base: str) -> None:
        self.hex_view.set_offset_base(base)
        self.base_actions[base].setChecked(True)
        self.settings.offset_base = base

    def set_dialect(self, name: str) -> None:
        self.document.set_dialect(name)

    def zoom(self, how: str) -> None:
        """Zoom both panes ("zoom_in", "zoom_out", "zoom_reset")."""
        getattr(self.hex_view, how)()
        getattr(self.text_view, how)()

    def _on_zoom(self, steps: int) -> None:
        self.settings.zoom = steps

    def _on_whitespace(self, on: bool) -> None:
        on = bool(on)
        self.settings.show_whitespace = on
        self.text_view.set_show_whitespace(on)

    def set_theme(self, theme: str) -> None:
        self.theme_actions[theme].setChecked(True)
        self.settings.theme = theme
        self._apply_theme(theme)

    def _apply_theme(self, theme: str) -> None:
        # The views' palette follows the application's (style.Palette.current), so a
        # theme is applied by giving the application a light or dark QPalette.
        app = QApplication.instance()
        if app is None:
            return
        if theme == "dark":
            app.setPalette(_dark_qpalette())
        elif theme == "light" or getattr(self, "_theme_applied", None) == "dark":
            app.setPalette(app.style().standardPalette())
        self._theme_applied = theme
        if hasattr(self, "banner"):
            self._style_banner()
        for w in (self.hex_view, self.text_view):
            if w is not None:
                w.viewport().update() if hasattr(w, "viewport") else w.update()

    # ------------------------------------------------------------------ files
    def open_file(self, path) -> bool:
        """Open ``path`` read-only. On failure a message says why and the current
        document stays as it was."""
        try:
            self.document.open_path(path)
        except ByteSourceError as e:
            self.show_error("Cannot open the file", str(e))
            return False
        except OSError as e:  # anything the source did not anticipate
            self.show_error("Cannot open the file", f"{display_path(path)}: {e.strerror or e}")
            return False
        self.last_error = None
        try:
            self.settings.add_recent(path)
        except (OSError, ValueError):
            pass
        return True

    def show_error(self, title: str, message: str) -> None:
        self.last_error = message
        if self.error_box is None:
            self.error_box = QMessageBox(self)
            self.error_box.setObjectName("errorBox")
            self.error_box.setIcon(QMessageBox.Icon.Warning)
        self.error_box.setWindowTitle(title)
        self.error_box.setText(message)
        self.error_box.open()  # not exec(): the window (and tests) keep running

    def open_dialog(self) -> None:
        start = os.path.dirname(self.document.path) if self.document.path else os.getcwd()
        path, _ = QFileDialog.getOpenFileName(self, "Open a file to inspect", start)
        if path:
            self.open_file(path)

    def reload(self) -> None:
        if self.document.path is None:
            return
        try:
            self.document.reload()
        except ByteSourceError as e:
            self.show_error("Cannot reload the file", str(e))
            return
        self.status_note.setText("reloaded")

    def close_file(self) -> None:
        self.cancel_background()
        self.document.set_source(MemorySource(b"", name="(no file)"))

    def _fill_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        files = self.settings.recent_files()
        for path in files:
            a = menu.addAction(display_path(path))
            a.triggered.connect(lambda checked=False, p=path: self.open_file(p))
        if not files:
            a = menu.addAction("(none)")
            a.setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction("Clear list").triggered.connect(
                lambda checked=False: self.settings.clear_recent())

    def dragEnterEvent(self, event) -> None:
        if self._dropped_path(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        path = self._dropped_path(event.mimeData())
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.open_file(path)

    @staticmethod
    def _dropped_path(mime):
        if mime is None or not mime.hasUrls():
            return None
        for url in mime.urls():
            if url.isLocalFile():
                return url.toLocalFile()
        return None

    # ------------------------------------------------------------------ changes on disk
    def _check_file(self) -> None:
        self.check_file()

    def check_file(self):
        """Look for a change of the open file on disk (the timer, the watcher and window
        activation call this). A change not seen before is announced once through
        ``document.fileChanged``; returns the change, or None."""
        d = self.document
        path = d.path
        if path is None:
            return None
        change = d.source.check()
        if change is None:
            return None
        key = (change.old_size, change.new_size, change.replaced, change.modified,
               _disk_stamp(path))
        if key != self._file_change_key:
            self._file_change_key = key
            # From now on a read shows what is on disk (short past a new end), never a
            # cached copy of bytes the file no longer holds.
            d.invalidate()
            d.fileChanged.emit(change)
        return change

    def _on_file_changed(self, change) -> None:
        self.hex_view.viewport().update()
        if self._file_change_key is not None and self._file_change_key == self._dismissed_change_key:
            return
        self.banner_text.setText(self.describe_change(change))
        self._style_banner()
        self.banner.show()
        self.status_note.setText("the file changed on disk: Reload (F5) to see it")

    @staticmethod
    def describe_change(change) -> str:
        """The banner's words for a change on disk."""
        text = change.describe()
        text = text[0].upper() + text[1:]
        if change.replaced:
            text += (" (or deleted). The views still show the file that was opened, which "
                     "stays readable while it is open.")
        elif change.new_size == 0 and change.old_size:
            text += ". The bytes shown are no longer in the file."
        elif change.shrunk:
            text += (f". Bytes from offset {change.new_size:,} (0x{change.new_size:X}) on are "
                     "no longer in the file; the views show only what is still there.")
        elif change.grew:
            text += (f". The {change.new_size - change.old_size:,} new bytes are not shown "
                     "until you reload.")
        else:
            text += ". The bytes shown are read again from the file as it is now."
        return text + " Reload to inspect the file as it is now."

    def dismiss_file_change(self) -> None:
        self._dismissed_change_key = self._file_change_key
        self.banner.hide()

    def _style_banner(self) -> None:
        pal = style.Palette.current()
        self.banner.setStyleSheet(
            f"QFrame#fileBanner {{ background: {pal.color('warning_fill').name()}; "
            f"border: 1px solid {pal.color('warning').name()}; }} "
            f"QFrame#fileBanner QLabel {{ color: {pal.color('text').name()}; }}")

    def _watch_path(self) -> None:
        files = self._watcher.files()
        if files:
            self._watcher.removePaths(files)
        path = self.document.path
        if path is None:
            return
        try:
            name = os.fsdecode(path)
            name.encode("utf-8")  # Qt cannot watch a name that is not valid UTF-8
        except UnicodeError:
            return  # the periodic check still covers it
        self._watcher.addPath(name)

    def _on_watched_file(self, name: str) -> None:
        # A file replaced by a rename drops out of the watch list: watch the new one.
        if name not in self._watcher.files() and os.path.exists(name):
            self._watcher.addPath(name)
        QTimer.singleShot(50, self._check_file)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.check_file()

    # ------------------------------------------------------------------ copy, find, tools
    def _show_message(self, text: str) -> None:
        self.status_note.setText(text)

    def copy_as(self, fmt: str) -> None:
        self.copy_actions.copy(fmt)

    def copy_focused(self) -> None:
        """Ctrl+C: the text pane copies what a reader sees, everything else the bytes."""
        focus = QApplication.focusWidget()
        in_text = focus is not None and (
            focus is self.text_view or self.text_view.isAncestorOf(focus))
        self.copy_as(copyformats.TEXT if in_text else copyformats.HEX)

    def select_all(self) -> None:
        self.document.set_selection(0, self.document.size)

    def show_find(self) -> None:
        self.find_bar.show_bar()
        self.act_find_close.setEnabled(True)

    def hide_find(self) -> None:
        self.find_bar.hide_bar()
        self.act_find_close.setEnabled(False)
        self.hex_view.setFocus()

    def find_next(self) -> None:
        self._find(backwards=False)

    def find_previous(self) -> None:
        self._find(backwards=True)

    def _find(self, backwards: bool) -> None:
        bar = self.find_bar
        if not bar.edit.text().strip():
            self.show_find()  # nothing to find yet: ask for it
            return
        self.act_find_close.setEnabled(True)
        bar.find_previous() if backwards else bar.find_next()

    def find_pattern(self, pattern) -> None:
        """The encoder's "find in file": hand the pattern to the find bar and search."""
        bar = self.find_bar
        bar.set_query(pattern.query, pattern.kind, bool(pattern.spellings))
        bar.show()
        self.act_find_close.setEnabled(True)
        bar.find_next()

    def _on_matches(self) -> None:
        self.hex_view.viewport().update()
        self.text_view.viewport().update()
        self.act_find_close.setEnabled(self.find_bar.isVisible())

    def _on_visible_range(self, start, end) -> None:
        self.overview.set_visible_range(start, end)

    def show_encoder(self) -> None:
        if self.encoder_dialog is None:
            self.encoder_dialog = EncoderDialog(self.document, self)
            self.encoder_dialog.findRequested.connect(self.find_pattern)
        self.encoder_dialog.show()
        self.encoder_dialog.raise_()
        self.encoder_dialog.activateWindow()

    def show_reference(self) -> None:
        if self.reference_dialog is None:
            self.reference_dialog = ReferenceDialog(self.document, self)
        self.reference_dialog.show()
        self.reference_dialog.raise_()
        self.reference_dialog.activateWindow()

    def show_about(self) -> None:
        from inspector.core.units.unicode_db import UNICODE_VERSION

        box = QMessageBox(QMessageBox.Icon.Information, "About UTF-8 Inspector",
                          "UTF-8 Inspector shows bytes the way a UTF-8 decoder sees them.\n\n"
                          f"Unicode database: {UNICODE_VERSION}. The inspected file is "
                          "opened read-only and never written to.",
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("aboutBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _exporter(self):
        exporter = getattr(self, "exporter", None)
        if exporter is None:
            exporter = self.exporter = exportdialogs.Exporter(self.document, self)
            exporter.done.connect(lambda outcome, message: self.status_note.setText(
                message.splitlines()[0] if message else outcome))
        return exporter

    def export(self, kind: str, path=None):
        """File > Export (``kind`` "json", "csv" or "html"); asks for a path unless given."""
        return self._exporter().export(kind, path)

    def show_repair(self, target: str | None = None):
        if self.document.path is None and not self.document.size:
            self.show_error("Save a repaired copy", "Open a file first.")
            return None
        if self.repair_dialog is not None:
            self.repair_dialog.close()
        self.repair_dialog = exportdialogs.RepairDialog(self.document, self, target)
        self.repair_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.repair_dialog.open()
        return self.repair_dialog

    # ------------------------------------------------------------------ navigation
    def show_goto(self) -> None:
        d = self.document
        self.goto_dialog.prepare(d.cursor, d.size)
        self.goto_dialog.open()

    def go_to(self, offset: int) -> None:
        # A jump: off screen, the target lands a few rows below the top of each pane
        # (what leads up to a byte is often the point).
        self.document.set_cursor(offset, reveal=True)
        self.hex_view.setFocus()

    def decode_from_cursor(self) -> None:
        self.document.set_origin(self.document.cursor)

    def clear_origin(self) -> None:
        self.document.set_origin(None)

    def find_problem(self, forward: bool = True) -> None:
        """Move to the next (previous) problem unit, searching off the UI thread."""
        self._cancel_search()
        d = self.document
        if d.size == 0:
            self.status_note.setText("no further problem (the file is empty)")
            return
        source, origin, dialect, cursor = d.source, d.origin, d.dialect, d.cursor
        scan = d.scan
        index = scan.index if scan is not None else None
        holder: list[GeneratorWorker] = []

        def cancelled() -> bool:
            return bool(holder) and holder[0].is_cancelled()

        def steps():
            func = navigation.next_problem if forward else navigation.previous_problem
            here = decoder.unit_at(source, cursor, origin, dialect)
            found = func(source, cursor, dialect, origin, kinds=None, index=index, cancel=cancelled)
            # Whatever the search counts from, the unit under the cursor is not "next".
            if found is not None and here is not None and found.offset == here.offset:
                again = here.end if forward else here.offset - 1
                found = None if again < 0 or again >= source.size else func(
                    source, again, dialect, origin, kinds=None, index=index, cancel=cancelled)
            return found
            yield  # pragma: no cover - a generator

        worker = GeneratorWorker(steps, interval=0.2)
        holder.append(worker)
        worker.forward = forward
        worker.source = source
        self._search_worker = worker
        self._watch(worker, self._on_search_done, self._on_search_failed, None)
        self.status_note.setText("searching for the " + ("next" if forward else "previous") + " problem…")
        start_worker(worker)

    def _cancel_search(self) -> None:
        if self._search_worker is not None:
            self._search_worker.cancel()
            self._search_worker = None

    def _on_search_done(self, unit) -> None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._search_worker:
            return  # an old search, or one for another file
        self._search_worker = None
        self._hide_progress_if_idle()   # with the answer, as for the scan
        if worker.source is not self.document.source:
            return
        if unit is None:
            self.status_note.setText("no further problem" if worker.forward
                                     else "no earlier problem")
        else:
            self.status_note.setText(f"problem at 0x{unit.offset:X}: "
                                     f"{K.KIND_TITLES.get(unit.kind, unit.kind) if unit.is_error else ', '.join(K.KIND_TITLES.get(w, w) for w in unit.warnings)}")
            self.document.set_cursor(unit.offset, reveal=True)
        self.searchFinished.emit(unit)

    def _on_search_failed(self, error) -> None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._search_worker:
            return
        self._search_worker = None
        self.status_note.setText(f"the search failed: {error}")
        self._report_worker_failure("The search for a problem failed", worker, error)
        self.searchFinished.emit(None)

    # ------------------------------------------------------------------ background work
    def _watch(self, worker: GeneratorWorker, on_finished, on_failed, on_progress) -> None:
        self._workers.add(worker)
        sig = worker.signals
        # Bound methods of this QObject: Qt queues the calls into the UI thread.
        sig.finished.connect(on_finished)
        sig.failed.connect(on_failed)
        if on_progress is not None:
            sig.progress.connect(on_progress)
        sig.done.connect(self._on_worker_done)

    def _worker_of(self, signals) -> GeneratorWorker | None:
        for w in self._workers:
            if w.signals is signals:
                return w
        return None

    def _on_worker_done(self) -> None:
        worker = self._worker_of(self.sender())
        if worker is not None:
            self._workers.discard(worker)
        self._hide_progress_if_idle()

    def _hide_progress_if_idle(self) -> None:
        if self._scan_worker is None and self._search_worker is None:
            self.progress.hide()
            self.cancel_button.hide()

    def start_scan(self) -> None:
        """Scan the whole file in the background (restarted for a new dialect)."""
        self._cancel_scan()
        d = self.document
        source, dialect = d.source, d.dialect
        activity = self.user_activity
        worker = GeneratorWorker(
            lambda: courteous(judged_scan_steps(source, dialect), activity,
                              worker.is_cancelled),
            interval=0.1)
        worker.source = source
        worker.dialect = dialect
        self._scan_worker = worker
        self._watch(worker, self._on_scan_done, self._on_scan_failed, self._on_scan_progress)
        self._set_verdict("scanning…")
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        start_worker(worker)

    @property
    def scan_complete(self) -> bool:
        """The whole-file scan has finished and its result is the document's."""
        scan = self.document.scan
        return self._scan_worker is None and scan is not None and scan.complete

    def _cancel_scan(self) -> None:
        if self._scan_worker is not None:
            self._scan_worker.cancel()
            self._scan_worker = None

    def cancel_background(self) -> None:
        was_scanning = self._scan_worker is not None
        self._cancel_scan()
        self._cancel_search()
        self.progress.hide()
        self.cancel_button.hide()
        if was_scanning:
            self._set_verdict("scan cancelled")

    def _current_scan_worker(self) -> GeneratorWorker | None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._scan_worker:
            return None
        if worker.source is not self.document.source or worker.dialect != self.document.dialect:
            return None
        return worker

    def _on_scan_progress(self, progress) -> None:
        if self._current_scan_worker() is None or progress is None:
            return  # None: a step with nothing to show (the tables, the verdict)
        self.progress.setValue(int(progress.done * 1000 // max(progress.total, 1)))
        # The docks fill in while the scan runs (the result grows in the worker; they
        # read its finished blocks only).
        self.document.set_scan(progress.result)

    def _on_scan_done(self, result) -> None:
        if self._current_scan_worker() is None:
            return
        self._scan_worker = None
        # The result is in: the bar goes now, not when the pool thread has finished
        # tidying up (its "done" comes after it has handed memory back).
        self._hide_progress_if_idle()
        self.document.set_scan(result)
        self.scanFinished.emit(result)

    def _on_scan_failed(self, error) -> None:
        worker = self._current_scan_worker()
        if worker is None:
            return
        self._scan_worker = None
        self.progress.hide()
        self.cancel_button.hide()
        self._set_verdict(f"scan failed: {error}", f"The whole-file scan stopped: {error}")
        self._report_worker_failure("The whole-file scan failed", worker, error)
        self.scanFinished.emit(None)

    def _report_worker_failure(self, what: str, worker: GeneratorWorker, error) -> None:
        """A file that cannot be read is a message; anything else is a bug: logged and
        shown with its details (crashguard)."""
        if isinstance(error, (ByteSourceError, OSError)):
            self.show_error(what, f"{what}: {error}")
            return
        crashguard.report_exception(type(error), error, error.__traceback__,
                                    context=f"{what}.\n{worker.traceback}")

    def _set_verdict(self, text: str, tip: str = "the whole-file verdict") -> None:
        """The status bar's verdict and its tooltip, always together (a tooltip left
        from the last file told that file's verdict)."""
        self.status_verdict.setText(text)
        self.status_verdict.setToolTip(tip)

    def _on_scan(self, result) -> None:
        if result is None:
            return
        if not result.complete or result.verdict_pending:
            total = max(result.end - result.start, 1)
            self._set_verdict(f"scanning… {100 * result.scanned // total}%")
            return
        try:
            v = verdict.verdict_of(result, self.document.source)
        except (OSError, ByteSourceError) as e:
            # The file went away under the scan: its counts stand, the verdict cannot.
            self._set_verdict(UNREADABLE_VERDICT, str(e))
            return
        self._set_verdict(v.text, f"{v.text}\n{v.details_text()}")

    # ------------------------------------------------------------------ status bar
    def _on_source(self) -> None:
        self._cancel_search()
        self._cancel_scan()
        self.status_note.setText("")
        self._file_change_key = self._dismissed_change_key = None
        self.banner.hide()
        self._watch_path()
        self._update_title()
        self._update_all_status()
        self._set_verdict("")   # not the last file's
        if self.document.path is not None:
            # After the first paint: the scan must not delay showing the file.
            QTimer.singleShot(0, self._start_scan_if_current)
        else:
            self.progress.hide()
            self.cancel_button.hide()

    def _start_scan_if_current(self) -> None:
        if self.document.path is not None and self._scan_worker is None and self.document.scan is None:
            self.start_scan()

    def _on_origin(self, origin) -> None:
        self._update_resync_status()
        self._update_cursor_status()

    def _on_dialect(self, name: str) -> None:
        self.dialect_actions[name].setChecked(True)
        self.status_dialect.setText(K.DIALECT_TITLES[name])
        self._update_resync_status()
        self._update_cursor_status()
        if self.document.path is not None:
            self.document.set_scan(None)
            self.start_scan()

    def _update_title(self) -> None:
        path = self.document.path
        if path is None:
            self.setWindowTitle(APP_TITLE)
            return
        name = display_path(os.path.basename(os.fsdecode(path)) or path)
        self.setWindowTitle(f"{name} [Read-only] — {APP_TITLE}")
        self.setWindowFilePath(os.fsdecode(path))

    def _update_all_status(self) -> None:
        d = self.document
        self.status_dialect.setText(K.DIALECT_TITLES[d.dialect])
        self.status_size.setText(f"{d.size:,} bytes")
        self._update_cursor_status()
        self._update_selection_status()
        self._update_resync_status()

    def _update_cursor_status(self, *_) -> None:
        d = self.document
        if d.size == 0:
            self.status_cursor.setText("empty file" if d.path is not None else "no file")
            self.status_unit.setText("")
            return
        c = d.cursor
        self.status_cursor.setText(f"0x{c:X} ({c:,})")
        u = d.unit_at(c)
        self.status_unit.setText(self.unit_summary(u) if u is not None else "")

    @staticmethod
    def unit_summary(u) -> str:
        if u.kind == K.VALID:
            text = f"U+{u.value:04X} {cp_name(u.value)}"
            if u.warnings:
                text += " (" + ", ".join(K.KIND_TITLES.get(w, w) for w in u.warnings) + ")"
            return text
        return f"{K.KIND_TITLES[u.kind]}, {u.length} byte{'s' if u.length != 1 else ''}"

    def _update_selection_status(self, *_) -> None:
        start, end = self.document.selection
        n = end - start
        self.status_selection.setText(f"selected {n:,} byte{'s' if n != 1 else ''}" if n else "")

    def _update_resync_status(self) -> None:
        r = self.document.resync()
        if r is None:
            self.status_resync.setText("")
            return
        lost = r.lost_bytes
        self.status_resync.setText(
            f"decoding from 0x{r.origin:X}: {lost} byte{'s' if lost != 1 else ''} lost, "
            f"in step at 0x{r.sync_offset:X}")

    # ------------------------------------------------------------------ legend, closing
    def show_legend(self) -> None:
        self.legend_dialog = LegendDialog(self)
        self.legend_dialog.open()

    def closeEvent(self, event) -> None:
        self.cancel_background()
        self._file_timer.stop()
        self.settings.save_window(self.saveGeometry(), self.saveState(), self.splitter.saveState())
        self.settings.sync()
        super().closeEvent(event)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Cancel background work and wait for it (tests, and before exiting)."""
        self.cancel_background()
        self._file_timer.stop()
        self.find_bar.cancel()
        self.find_bar.wait(timeout)
        exporter = getattr(self, "exporter", None)
        if exporter is not None and exporter.task is not None and exporter.task.running:
            exporter.task.cancel()
            exporter.task.worker.wait(timeout)
        if self.repair_dialog is not None and self.repair_dialog.busy:
            self.repair_dialog.cancel()
        for w in list(self._workers):
            w.wait(timeout)
