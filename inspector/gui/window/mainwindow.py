"""The inspector window: the hex view and the text pane side by side, in step.

Both panes paint from one :class:`~inspector.gui.document.Document`. The window composes
the panes, the docks and the status bar and wires them to the document; the rest lives
beside it in this package:

- :mod:`.actions`: every action, menu and shortcut, from one table;
- :mod:`.statusbar`: the status bar's widgets and their updates;
- :mod:`.backgroundwork`: the whole-file scan (restarted when the dialect changes,
  cancelled when another file is opened) and the search for the next or previous
  problem, off the UI thread;
- :mod:`.fileopening`: open, reload, close, recent files, drag and drop;
- :mod:`.filechanges`: changes of the file on disk and the banner telling of them;
- :mod:`.windowdialogs`: the dialogs of the menus (encoder, reference, legend, About,
  repaired copy) and the exporter;
- :mod:`.theme`: View > Theme, the application's palette;
- :mod:`.lazydocks`: the docks, built after the panes' first paint or when first shown;
- :mod:`.accessibility`: what a screen reader announces.

The window works before a scan has finished and without one. It keeps its controllers
as attributes, and tests, tools and the action table use them directly: ``document``,
``scan_life`` (the scan), ``background`` (progress, the problem search), ``files``
(:mod:`.fileopening`), ``dialogs`` (:mod:`.windowdialogs`), ``findings`` and
``finding_actions``, ``status_fields``, ``file_watch``, ``copy_actions``, ``find_bar``.

The first look is the panes: the docks are built once both have painted (an empty dock
with its title stands in for a frame), and ``firstLookDone`` says when those on screen
have painted too (:meth:`MainWindow.after_first_look`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (QAbstractScrollArea, QApplication, QDockWidget, QHBoxLayout,
                               QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget)

from inspector.core.analysis import copyformats
from inspector.core.scan.lines import NotReached
from inspector.core.source.bytesource import display_path
from inspector.gui import findings as findingsmod
from inspector.gui.document import Document
from inspector.gui.look.scrollstyle import flat_scroll_bars
from inspector.gui.panes import overview
from inspector.gui.panes.hexview import HexView
from inspector.gui.panes.textview import TextView
from inspector.gui.runtime.courtesy import PaintsAsActivity, UserActivity
from inspector.gui.runtime.firstpaint import AfterPaint
from inspector.gui.scanlife import ScanLife
from inspector.gui.window import actions, encodingmenu, lazydocks
from inspector.gui.window.copyactions import build_copy_menu
from inspector.gui.window.fileopening import FileOpening, dropped_path
from inspector.gui.window.windowdialogs import WindowDialogs
from inspector.gui.window.accessibility import describe_for_accessibility, describe_part
from inspector.gui.window.backgroundwork import BackgroundWork
from inspector.gui.window.filechanges import FileChangeWatch
from inspector.gui.window.lazydocks import LazyDock
from inspector.gui.window.settings import Settings
from inspector.gui.window.statusbar import StatusFields
from inspector.gui.window.theme import apply_to_application

if TYPE_CHECKING:  # the dialogs load when first opened (windowdialogs, goto_dialog)
    from inspector.gui.dialogs.goto import GotoDialog
    from inspector.gui.docks.findings import FindingsDock
    from inspector.gui.docks.foldertriage import FolderTriageDock
    from inspector.gui.docks.inspectordock import SequenceInspector
    from inspector.gui.docks.problemlist import ProblemListDock
    from inspector.gui.docks.statistics import StatisticsDock
    from inspector.gui.docks.textruns import TextRunsDock
    from inspector.gui.window.findbar import FindBar


APP_TITLE = "UTF-8 Inspector"


class MainWindow(QMainWindow):
    scanFinished = Signal(object)      # for tests and automation: the result set
    searchFinished = Signal(object)    # the unit found (or None)
    firstLookDone = Signal()           # the panes painted, then the docks on screen

    # A window that does not paint (never shown, minimized) builds its docks after this.
    FIRST_LOOK_PATIENCE_MS = 1000

    def __init__(self, parent: QWidget | None = None, settings: Settings | None = None,
                 findings_folder: str | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowNestedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)
        self.setAcceptDrops(True)
        self.settings = settings or Settings()
        self.document = Document(self)
        # The findings, kept by the bytes' content in the user's data folder.
        self.findings = findingsmod.WindowFindings(self.document, findings_folder,
                                                   self.show_error, self)
        self.finding_actions = findingsmod.FindingActions(self.findings, self)
        self.last_error: str | None = None   # the last message box's text (tools, tests)
        self.error_box: QMessageBox | None = None
        self._goto_dialog: GotoDialog | None = None  # made when first asked for
        self.dialogs = WindowDialogs(self.document, self.find_pattern,
                                     self.findings.report_entries, self.show_error,
                                     self.show_message, self)

        self.hex_view = HexView(self.document)
        self.text_view = TextView(self.document)
        self.overview = overview.OverviewStrip(self.document)
        self._find_bar: FindBar | None = None   # built when first asked for (find_bar)
        self._build_central()
        self._build_docks()
        # The docks wait for both panes' first paint (_after_first_look). The sequence
        # inspector built by then primes when told (app.run tells it after the look).
        self.first_look_done = False
        self.prime_inspector_when_told = False
        self._first_look = AfterPaint((self.hex_view.viewport(), self.text_view.viewport()),
                                      self._after_first_look, self, self.FIRST_LOOK_PATIENCE_MS)

        self.status_fields = StatusFields(self.statusBar(), self.document, self)
        fields = self.status_fields

        d = self.document
        # The background scan steps aside while the user navigates (see courtesy).
        self.user_activity = UserActivity()
        # The scan's one owner: it follows the document's file and dialect.
        self.scan_life = ScanLife(d, self.user_activity, self)
        self.scan_life.look_first((self.hex_view.viewport(), self.text_view.viewport()))
        self.scan_life.hold()   # until the first look is over (_first_look_over)
        self.background = BackgroundWork(d, self.scan_life, fields, self.show_error, self)
        fields.cancel_button.clicked.connect(self.background.cancel_all)
        self.files = FileOpening(d, self.settings, self.finding_actions, self.background,
                                 self.lazy_docks["folderTriage"], self.show_error,
                                 self.show_message, self)
        self.copy_menu = build_copy_menu(d, self)
        self.copy_actions = self.copy_menu.copy_actions
        # The status bar's one-click offer to read the file as its verdict says.
        self.encoding_offer = encodingmenu.OfferButton(self)
        fields.add_beside_verdict(self.encoding_offer)

        actions.build(self)
        self.copy_actions.message.connect(self.show_message)
        describe_for_accessibility(self)
        # Every scroll bar of the window flat, the docks' too: one look, and a whole
        # repaint spent ~5 ms of its ~10 on Fusion's bars (the inspector's, the problem
        # table's, the bit layout's).
        flat_scroll_bars(*self.findChildren(QAbstractScrollArea))

        # Opening a file counts too: its first look (and the first jumps) come next.
        for signal in (d.sourceChanged, d.cursorChanged, d.anchorChanged, d.selectionChanged):
            signal.connect(self.user_activity.touch)
        self._paint_activity = PaintsAsActivity(
            self.user_activity, (self.hex_view.viewport(), self.text_view.viewport()), self)
        self.scan_life.finished.connect(self.scanFinished)
        self.background.searchFinished.connect(self.searchFinished)
        self.scan_life.finished.connect(self.findings.on_scan)
        fields.message.connect(self.show_message)
        self.findings.message.connect(self.show_message)
        marking = self.finding_actions
        self.hex_view.findingRequested.connect(marking.add_at)
        self.text_view.findingRequested.connect(marking.add_at)
        self.hex_view.copyRequested.connect(self.copy_actions.copy)
        self.text_view.copyRequested.connect(self.copy_actions.copy)
        d.sourceChanged.connect(self._on_source)
        d.cursorChanged.connect(fields.show_cursor)
        d.selectionChanged.connect(fields.show_selection)
        d.originChanged.connect(fields.show_origin)
        d.dialectChanged.connect(self._on_dialect)
        d.scanChanged.connect(fields.show_scan)
        d.scanChanged.connect(self.encoding_offer.refresh)
        for signal in (d.cutChanged, d.dialectChanged, d.originChanged, d.sourceChanged,
                       d.scanChanged):
            signal.connect(fields.refresh_alignment)
        d.cutChanged.connect(fields.show_cursor)
        d.fileChanged.connect(self.file_watch.on_file_changed)
        self.hex_view.zoomChanged.connect(self._on_zoom)
        self.hex_view.visibleRangeChanged.connect(self._on_visible_range)
        d.matchesChanged.connect(self._on_matches)
        self.overview.jumped.connect(lambda _offset: self.hex_view.setFocus())
        self.file_watch.start()

        self._apply_settings()
        lazydocks.hide_before_first_show(self)
        self._update_title()
        fields.show_all()

    @property
    def goto_dialog(self) -> GotoDialog:
        """Go to offset (Ctrl+G): built when first opened (~5 ms less to start)."""
        if self._goto_dialog is None:
            from inspector.gui.dialogs import goto

            self._goto_dialog = goto.GotoDialog(self)
            self._goto_dialog.offsetChosen.connect(self.go_to)
            self._goto_dialog.line_resolver = self.offset_of_line
        return self._goto_dialog

    # ------------------------------------------------------------------ building
    def _build_central(self) -> None:
        """[file-change banner] / [hex view | overview strip | text pane] / [find bar]."""
        self.file_watch = FileChangeWatch(self.document, self.hex_view, self.show_message,
                                          lambda: self.files.reload(), self)

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
        box.addWidget(self.file_watch.banner)
        box.addWidget(self.splitter, 1)
        self._central_box = box   # the find bar goes last when it is built (find_bar)
        self.setCentralWidget(central)

    @property
    def find_bar(self) -> FindBar:
        """The find bar under the views, hidden until Ctrl+F: built when first asked for
        (its dozen widgets and the search module cost the first look ~7 ms)."""
        if self._find_bar is None:
            from inspector.gui.window.findbar import FindBar

            bar = self._find_bar = FindBar(self.document)
            bar.hide()
            self._central_box.addWidget(bar)
            describe_part(self, "find_bar")
            flat_scroll_bars(*bar.findChildren(QAbstractScrollArea))
        return self._find_bar

    def _build_docks(self) -> None:
        """The sequence inspector and the statistics share the right side as tabs; the
        problem list, a wide table, goes below the views, with the findings, the text
        runs and the folder triage (shown by Open Folder) as tabs. Each is a shell until
        the panes' first paint (then those on screen are built) or its first showing
        (:mod:`.lazydocks`)."""
        self.lazy_docks = {lazy.name: lazy for lazy in (
            LazyDock(self, "sequenceInspector", "Sequence inspector", self._make_inspector),
            LazyDock(self, "statistics", "Statistics", self._make_statistics),
            LazyDock(self, "errorList", "Problems", self._make_problem_list),
            LazyDock(self, "findings", "Findings", self._make_findings),
            LazyDock(self, "folderTriage", "Folder triage", self._make_triage),
            LazyDock(self, "textRunsDock", "Text runs", self._make_text_runs))}
        shell = {name: lazy.shell for name, lazy in self.lazy_docks.items()}
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        inspector, problems = shell["sequenceInspector"], shell["errorList"]
        self.addDockWidget(right, inspector)
        self.addDockWidget(right, shell["statistics"])
        self.tabifyDockWidget(inspector, shell["statistics"])
        self.addDockWidget(bottom, problems)
        self.addDockWidget(bottom, shell["findings"])
        self.tabifyDockWidget(problems, shell["findings"])
        problems.raise_()
        inspector.raise_()
        self.addDockWidget(bottom, shell["folderTriage"])
        self.tabifyDockWidget(problems, shell["folderTriage"])
        shell["folderTriage"].hide()
        self.addDockWidget(bottom, shell["textRunsDock"])
        self.tabifyDockWidget(problems, shell["textRunsDock"])
        problems.raise_()
        for dock in self.docks:
            dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                             | QDockWidget.DockWidgetFeature.DockWidgetMovable
                             | QDockWidget.DockWidgetFeature.DockWidgetFloatable)

    def _after_first_look(self) -> None:
        """Both panes have painted: the docks on screen are built (in one swap), and
        once they have painted too, the first look is over: the first file's scan
        starts (it waits, see ScanLife.hold) and firstLookDone."""
        built = lazydocks.build_shown(self.lazy_docks.values())
        self._first_look = AfterPaint([dock for dock in built if dock.isVisible()],
                                      self._first_look_over, self, patience_ms=1000)

    def _first_look_over(self) -> None:
        self._first_look = None
        self.first_look_done = True
        self.scan_life.release()
        self.firstLookDone.emit()

    def after_first_look(self, then) -> None:
        """Call ``then()`` once the first look is over (the panes, then the docks on
        screen, painted): at once if it is."""
        if self.first_look_done:
            then()
        else:
            self.firstLookDone.connect(then, Qt.ConnectionType.SingleShotConnection)

    @property
    def docks(self) -> list[QDockWidget]:
        """The docks in the View menu's order (a dock not built yet: its shell)."""
        lazy = self.lazy_docks
        return [lazy[name].current for name in ("sequenceInspector", "statistics", "errorList",
                                                "findings", "folderTriage", "textRunsDock")]

    # The docks, built when first shown: asking for one builds it.
    @property
    def inspector_dock(self) -> SequenceInspector:
        return self.lazy_docks["sequenceInspector"].get()

    @property
    def problem_dock(self) -> ProblemListDock:
        return self.lazy_docks["errorList"].get()

    @property
    def statistics_dock(self) -> StatisticsDock:
        return self.lazy_docks["statistics"].get()

    @property
    def findings_dock(self) -> FindingsDock:
        return self.lazy_docks["findings"].get()

    @property
    def triage_dock(self) -> FolderTriageDock:
        return self.lazy_docks["folderTriage"].get()

    @property
    def text_runs_dock(self) -> TextRunsDock:
        return self.lazy_docks["textRunsDock"].get()

    def _built(self, name: str):
        """The dock ``name`` if it has been built (None: nothing of it runs)."""
        return self.lazy_docks[name].dock

    def _make_inspector(self) -> SequenceInspector:
        from inspector.gui.docks.inspectordock import SequenceInspector

        dock = SequenceInspector(self.document, self)
        if self.prime_inspector_when_told and not self.first_look_done:
            dock.prime_when_told()
        return dock

    def _make_problem_list(self) -> ProblemListDock:
        from inspector.gui.docks.problemlist import ProblemListDock

        return ProblemListDock(self.document, self)

    def _make_statistics(self) -> StatisticsDock:
        from inspector.core.analysis.scanviews.scanfigures import SHA_CANCELLED
        from inspector.gui.docks.statistics import StatisticsDock

        dock = StatisticsDock(self.document, self)
        self.background.scanCancelled.connect(dock.scan_cancelled)
        if self.status_fields.sha256 == SHA_CANCELLED:
            dock.scan_cancelled()   # cancelled before the dock was first shown
        return dock

    def _make_findings(self) -> FindingsDock:
        from inspector.gui.docks.findings import FindingsDock

        dock = FindingsDock(self.findings, self)
        marking = self.finding_actions
        dock.editRequested.connect(marking.edit)
        dock.exportRequested.connect(marking.export)
        dock.importRequested.connect(marking.import_file)
        return dock

    def _make_triage(self) -> FolderTriageDock:
        from inspector.gui.docks.foldertriage import FolderTriageDock

        dock = FolderTriageDock(
            self, opener=lambda path, offset=None: self.files.open_triaged(path, offset))
        dock.export_requested = lambda kind, path=None: self.files.export_triage(kind, path)
        return dock

    def _make_text_runs(self) -> TextRunsDock:
        from inspector.gui.docks.textruns import TextRunsDock

        return TextRunsDock(self.document, self.findings, self)

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
        self.set_show_whitespace(s.show_whitespace)
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
            docks = self.lazy_docks
            self.resizeDocks([docks["sequenceInspector"].current], [width],
                             Qt.Orientation.Horizontal)
            self.resizeDocks([docks["errorList"].current], [190], Qt.Orientation.Vertical)
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
        dock = self.lazy_docks["sequenceInspector"].current
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

    def set_encoding(self, name) -> None:
        """View > Interpret as: read the bytes in ``name`` (a UTF-8 dialect, a codec
        name, "map"); a name that cannot be read in is said in the status bar."""
        try:
            self.document.set_encoding(name)
        except ValueError as e:
            self.show_message(str(e))
        # Choosing the reading in use again must leave it ticked.
        encodingmenu.show_choice(self, self.document.dialect)

    def choose_other_encoding(self) -> None:
        encodingmenu.ask_other_encoding(self)

    def zoom(self, how: str) -> None:
        """Zoom both panes ("zoom_in", "zoom_out", "zoom_reset")."""
        getattr(self.hex_view, how)()
        getattr(self.text_view, how)()

    def _on_zoom(self, steps: int) -> None:
        self.settings.zoom = steps

    def set_show_whitespace(self, on: bool) -> None:
        on = bool(on)
        self.settings.show_whitespace = on
        self.text_view.set_show_whitespace(on)

    def set_theme(self, theme: str) -> None:
        self.theme_actions[theme].setChecked(True)
        self.settings.theme = theme
        self._apply_theme(theme)

    def _apply_theme(self, theme: str) -> None:
        if not apply_to_application(theme, getattr(self, "_theme_applied", None)):
            return
        self._theme_applied = theme
        if hasattr(self, "file_watch"):
            self.file_watch.style_banner()
        for w in (self.hex_view, self.text_view):
            if w is not None:
                w.viewport().update() if hasattr(w, "viewport") else w.update()

    # ------------------------------------------------------------------ files
    def show_error(self, title: str, message: str) -> None:
        self.last_error = message
        if self.error_box is None:
            self.error_box = QMessageBox(self)
            self.error_box.setObjectName("errorBox")
            self.error_box.setIcon(QMessageBox.Icon.Warning)
        self.error_box.setWindowTitle(title)
        self.error_box.setText(message)
        self.error_box.open()  # not exec(): the window (and tests) keep running

    def dragEnterEvent(self, event) -> None:
        if dropped_path(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        path = dropped_path(event.mimeData())
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        if os.path.isdir(path):
            self.files.open_folder(path)
        else:
            self.files.open_file(path)

    # ------------------------------------------------------------------ changes on disk
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.file_watch.check()

    # ------------------------------------------------------------------ copy, find
    def show_message(self, text: str) -> None:
        """The status bar's note: the last search, copy, export, the file's state."""
        self.status_fields.note.setText(text)

    def copy_focused(self) -> None:
        """Ctrl+C: the text pane copies what a reader sees, everything else the bytes."""
        focus = QApplication.focusWidget()
        in_text = focus is not None and (
            focus is self.text_view or self.text_view.isAncestorOf(focus))
        self.copy_actions.copy(copyformats.TEXT if in_text else copyformats.HEX)

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
        bar = self._find_bar
        self.act_find_close.setEnabled(bar is not None and bar.isVisible())

    def _on_visible_range(self, start, end) -> None:
        self.overview.set_visible_range(start, end)
        self.status_fields.show_alignment(start, end)

    # ------------------------------------------------------------------ navigation
    def show_goto(self) -> None:
        d = self.document
        self.goto_dialog.prepare(d.cursor, d.size)
        self.goto_dialog.open()

    def offset_of_line(self, line: int, column: int = 1) -> int:
        """Go to's ``L120`` / ``120:5``: the offset, or ValueError saying why not (past the
        last line; the scan has not counted that far yet: no waiting on the UI thread)."""
        try:
            offset, reached = self.document.offset_of_line(line, column)
        except NotReached as e:
            raise ValueError(f"The scan has not reached line {line:,} yet: it has counted "
                             f"{e.lines:,} lines so far. Try again once it has.") from None
        if reached < column:
            self.show_message(f"line {line:,} ends at column {reached:,}")
        return offset

    def go_to(self, offset: int) -> None:
        # A jump: off screen, the target lands a few rows below the top of each pane
        # (what leads up to a byte is often the point).
        self.document.set_cursor(offset, reveal=True)
        self.hex_view.setFocus()

    # ------------------------------------------------------------------ the document
    def _on_source(self) -> None:
        # A file opened (or closed): the last failure to open one is over.
        self.last_error = None
        self.status_fields.note.setText("")
        self.file_watch.follow_new_file()
        self._update_title()
        self.status_fields.show_all()

    def _on_dialect(self, name: str) -> None:
        encodingmenu.show_choice(self, name)
        self.status_fields.show_dialect(name)
        self.encoding_offer.refresh()

    def _update_title(self) -> None:
        path = self.document.path
        if path is None:
            self.setWindowTitle(APP_TITLE)
            return
        name = display_path(os.path.basename(os.fsdecode(path)) or path)
        self.setWindowTitle(f"{name} [Read-only] — {APP_TITLE}")
        self.setWindowFilePath(os.fsdecode(path))

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event) -> None:
        if not self.finding_actions.may_drop("Closing the window", self.close):
            event.ignore()  # the user kept the findings: the window stays
            return
        self.background.cancel_all()
        for name in ("folderTriage", "textRunsDock"):
            dock = self._built(name)
            if dock is not None:
                dock.cancel()
        self.file_watch.stop()
        self.settings.save_window(self.saveGeometry(), self.saveState(), self.splitter.saveState())
        self.settings.sync()
        super().closeEvent(event)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Cancel background work and wait for it (tests, and before exiting)."""
        self.background.cancel_all()
        triage = self._built("folderTriage")
        if triage is not None:
            worker = triage.worker
            triage.cancel()
            if worker is not None:
                worker.wait(timeout)
        runs = self._built("textRunsDock")
        if runs is not None:
            runs.cancel()
            runs.wait(timeout)
        self.file_watch.stop()
        if self._find_bar is not None:
            self._find_bar.cancel()
            self._find_bar.wait(timeout)
        exporter = self.dialogs.exporter_if_made
        if exporter is not None and exporter.task is not None and exporter.task.running:
            exporter.task.cancel()
            exporter.task.worker.wait(timeout)
        repair = self.dialogs.repair_dialog
        if repair is not None and repair.busy:
            repair.cancel()
        self.background.wait(timeout)
