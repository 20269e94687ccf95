"""The inspector window: the hex view and the text pane side by side, in step.

Both panes paint from one :class:`~inspector.gui.document.Document`. The window owns
the menus, the status bar, the settings and the background work: the whole-file scan
(restarted when the dialect changes, cancelled when another file is opened) and the
search for the next or previous problem. The window works before a scan has finished and
without one.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import (QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QProgressBar, QPushButton, QSplitter, QWidget)

from inspector.core import decoder
from inspector.core import kinds as K
from inspector.core.bytesource import ByteSourceError, MemorySource, display_path
from inspector.core.unicode_db import name as cp_name
from inspector.gui import style
from inspector.gui.dialogs import GotoDialog, LegendDialog
from inspector.gui.document import Document
from inspector.gui.hexlayout import BYTE_FORMATS, FIT, FORMAT_TITLES, ROW_WIDTHS
from inspector.gui.hexview import HexView
from inspector.gui.settings import THEMES, Settings
from inspector.gui.workers import GeneratorWorker, start as start_worker

try:  # the text pane is another engineer's module; the window works without it
    from inspector.gui.textview import TextView
except ImportError:  # pragma: no cover - until it lands
    TextView = None

APP_TITLE = "UTF-8 Inspector"
SEARCH_CHUNK = 1 << 16


def _search_problem(source, offset, origin, dialect, forward, cancel):
    """A plain-decoder search for the next/previous problem unit, used when the
    scanner's navigation module is not available. Yields between chunks."""
    size = source.size
    if forward:
        here = decoder.unit_at(source, offset, origin, dialect)
        pos = here.end if here is not None else size
        while pos < size:
            if cancel():
                return None
            stop = min(pos + SEARCH_CHUNK, size)
            for u in decoder.units_in_range(source, pos, stop, origin, dialect):
                if u.offset >= pos and u.is_problem:
                    return u
            pos = stop
            yield pos
        return None
    here = decoder.unit_at(source, min(offset, size - 1), origin, dialect) if size else None
    pos = here.offset if here is not None else 0
    while pos > 0:
        if cancel():
            return None
        lo = max(0, pos - SEARCH_CHUNK)
        found = [u for u in decoder.units_in_range(source, lo, pos, origin, dialect)
                 if u.offset < pos and u.offset >= lo and u.is_problem]
        if found:
            return found[-1]
        pos = lo
        yield pos
    return None


def _dark_qpalette() -> QPalette:
    colors = style._load("dark")
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

        self.hex_view = HexView(self.document)
        self.text_view = TextView(self.document) if TextView is not None else None
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("paneSplitter")
        self.splitter.addWidget(self.hex_view)
        if self.text_view is not None:
            self.splitter.addWidget(self.text_view)
            self.splitter.setStretchFactor(0, 3)
            self.splitter.setStretchFactor(1, 2)
            QWidget.setTabOrder(self.hex_view, self.text_view)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)

        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self.hex_view.context_actions = [self.act_goto, self.act_next, self.act_previous]

        d = self.document
        d.sourceChanged.connect(self._on_source)
        d.cursorChanged.connect(self._update_cursor_status)
        d.selectionChanged.connect(self._update_selection_status)
        d.originChanged.connect(self._on_origin)
        d.dialectChanged.connect(self._on_dialect)
        d.scanChanged.connect(self._on_scan)
        d.fileChanged.connect(self._on_file_changed)
        self.hex_view.zoomChanged.connect(self._on_zoom)

        self._file_timer = QTimer(self)
        self._file_timer.setInterval(2000)
        self._file_timer.timeout.connect(self._check_file)
        self._file_timer.start()

        self._apply_settings()
        self._update_title()
        self._update_all_status()

    # ------------------------------------------------------------------ building
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
        self.status_verdict = label("statusVerdict", "the whole-file verdict")
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
        self.act_quit = self._action("&Quit", "actionQuit", self.close, SK.Quit)
        self.act_copy_hex = self._action("Copy as &hex", "actionCopyHex", self.hex_view.copy_hex, SK.Copy)
        self.act_copy_text = self._action("Copy as &text", "actionCopyText", self.hex_view.copy_text,
                                          "Ctrl+Shift+C")
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
                                           checkable=True)
        self.act_legend = self._action("&Legend…", "actionLegend", self.show_legend)

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

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        m.addAction(self.act_reload)
        m.addAction(self.act_close)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Edit")
        m.addAction(self.act_copy_hex)
        m.addAction(self.act_copy_text)
        m = mb.addMenu("&View")
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
        m.addAction(self.act_goto)
        m.addSeparator()
        m.addAction(self.act_decode_here)
        m.addAction(self.act_clear_origin)
        m.addSeparator()
        m.addAction(self.act_next)
        m.addAction(self.act_previous)

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
        if state is not None:
            self.restoreState(state)
        split = s.splitter()
        if split is not None:
            self.splitter.restoreState(split)
        else:
            hexw = self.hex_view.sizeHint().width()
            self.splitter.setSizes([hexw, max(300, self.width() - hexw)])

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
        if self.text_view is not None and hasattr(self.text_view, how):
            getattr(self.text_view, how)()

    def _on_zoom(self, steps: int) -> None:
        self.settings.zoom = steps

    def _on_whitespace(self, on: bool) -> None:
        on = bool(on)
        self.settings.show_whitespace = on
        if self.text_view is not None and hasattr(self.text_view, "set_show_whitespace"):
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

    def _check_file(self) -> None:
        if self.document.path is not None:
            self.document.check_file()

    def _on_file_changed(self, change) -> None:
        self.status_note.setText(f"on disk, {change.describe()}: Reload (F5) to see it")

    # ------------------------------------------------------------------ navigation
    def show_goto(self) -> None:
        d = self.document
        self.goto_dialog.prepare(d.cursor, d.size)
        self.goto_dialog.open()

    def go_to(self, offset: int) -> None:
        d = self.document
        d.set_cursor(offset)
        # The target goes to the top of both panes, a row of context above it.
        d.set_anchor(offset)
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
        index = getattr(scan, "index", None) if scan is not None else None
        try:
            from inspector.core import navigation
        except ImportError:
            navigation = None
        holder: list[GeneratorWorker] = []

        def cancelled() -> bool:
            return bool(holder) and holder[0].is_cancelled()

        def steps():
            if navigation is None:
                return (yield from _search_problem(source, cursor, origin, dialect, forward, cancelled))
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
        if worker.source is not self.document.source:
            return
        if unit is None:
            self.status_note.setText("no further problem" if worker.forward
                                     else "no earlier problem")
        else:
            self.status_note.setText(f"problem at 0x{unit.offset:X}: "
                                     f"{K.KIND_TITLES.get(unit.kind, unit.kind) if unit.is_error else ', '.join(K.KIND_TITLES.get(w, w) for w in unit.warnings)}")
            self.document.set_cursor(unit.offset)
        self.searchFinished.emit(unit)

    def _on_search_failed(self, error) -> None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._search_worker:
            return
        self._search_worker = None
        self.status_note.setText(f"the search failed: {error}")
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
        if self._scan_worker is None and self._search_worker is None:
            self.progress.hide()
            self.cancel_button.hide()

    def start_scan(self) -> None:
        """Scan the whole file in the background (restarted for a new dialect)."""
        self._cancel_scan()
        d = self.document
        try:
            from inspector.core import scanner
        except ImportError:
            self.status_verdict.setText("")
            return
        source, dialect = d.source, d.dialect
        worker = GeneratorWorker(lambda: scanner.scan_steps(source, dialect), interval=0.1)
        worker.source = source
        worker.dialect = dialect
        self._scan_worker = worker
        self._watch(worker, self._on_scan_done, self._on_scan_failed, self._on_scan_progress)
        self.status_verdict.setText("scanning…")
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        start_worker(worker)

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
            self.status_verdict.setText("scan cancelled")

    def _current_scan_worker(self) -> GeneratorWorker | None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._scan_worker:
            return None
        if worker.source is not self.document.source or worker.dialect != self.document.dialect:
            return None
        return worker

    def _on_scan_progress(self, progress) -> None:
        if self._current_scan_worker() is None:
            return
        done = getattr(progress, "done", 0)
        total = getattr(progress, "total", 0) or 1
        self.progress.setValue(int(done * 1000 // total))

    def _on_scan_done(self, result) -> None:
        if self._current_scan_worker() is None:
            return
        self._scan_worker = None
        self.document.set_scan(result)
        self.scanFinished.emit(result)

    def _on_scan_failed(self, error) -> None:
        if self._current_scan_worker() is None:
            return
        self._scan_worker = None
        self.status_verdict.setText(f"scan failed: {error}")
        self.scanFinished.emit(None)

    def _on_scan(self, result) -> None:
        if result is None:
            return
        try:
            from inspector.core.verdict import verdict
            v = verdict(result, self.document.source)
            text = v.text
            tip = getattr(v, "details", "")
            tip = "\n".join(tip) if isinstance(tip, (list, tuple)) else str(tip or "")
        except ImportError:
            text = getattr(result, "summary", None) or "scanned"
            tip = ""
        self.status_verdict.setText(text)
        self.status_verdict.setToolTip(tip or "the whole-file verdict")

    # ------------------------------------------------------------------ status bar
    def _on_source(self) -> None:
        self._cancel_search()
        self._cancel_scan()
        self.status_note.setText("")
        self._update_title()
        self._update_all_status()
        if self.document.path is not None:
            # After the first paint: the scan must not delay showing the file.
            QTimer.singleShot(0, self._start_scan_if_current)
        else:
            self.status_verdict.setText("")
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
        for w in list(self._workers):
            w.wait(timeout)
