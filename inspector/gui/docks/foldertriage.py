"""Folder triage: every regular file of a tree in a table, then inspect one.

The reports come from :func:`inspector.core.analysis.triage.triage_steps`, run by a
:class:`~inspector.gui.runtime.workers.GeneratorWorker` in a pool thread; the generator
appends rows to a list it shares with this dock and yields progress only. The files
themselves are read and judged in a :class:`~inspector.core.analysis.triage.TriagePool`
of processes (forkserver or spawn, never a fork of this process), so this process only
receives finished reports: a worker thread decoding whole files held the GIL long
enough to stall the UI (gaps of 50-180 ms). Small folders, or a pool that cannot start
or does not answer in time (its children re-running a script without a main guard), are
triaged in the thread; the status line says why (more in its tooltip). Cancel halts the
pool at once (queued batches cancelled, the processes ended); the worker thread then
waits for them, so none is left behind. The dock moves the new rows into its model in
batches, a few hundred per timer tick (``beginInsertRows`` once per batch), so the UI
thread stays free while ten thousand files come in; a :class:`QSortFilterProxyModel`
sorts (by raw numbers, not texts) and filters (only files with problems, one verdict, a
part of the name).

Activating a row (double-click, Enter) asks the window to open that file with the cursor
on its first problem; the row stays selected. :meth:`FolderTriageDock.step` moves to the
next or previous file with problems in the table's current order (F7 / Shift+F7).
"""

from __future__ import annotations

import os
import time
from typing import Callable

from PySide6.QtCore import (QItemSelectionModel, QModelIndex,
                            QSortFilterProxyModel, Qt, QTimer, Signal)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDockWidget,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMenu,
                               QProgressBar, QPushButton, QTableView, QToolButton,
                               QVBoxLayout, QWidget)

from inspector.core.analysis import triage as TR
from inspector.core.analysis.batch import Options
from inspector.core.source.bytesource import display_path
from inspector.core.source.safewrite import AtomicWriter, check_target
from inspector.gui.runtime.workers import GeneratorWorker, start as start_worker
from inspector.gui.look.tables import NamedColumnsModel, read_only_rows


class TriageModel(NamedColumnsModel):
    """The rows received so far (a list of :class:`~inspector.core.analysis.triage.TriageRow`)."""

    COLUMNS = ("Path", "Size", "Verdict", "Problems", "First problem", "Line:Col")
    PATH, SIZE, VERDICT, PROBLEMS, FIRST, WHERE = range(6)
    SORT_ROLE = Qt.ItemDataRole.UserRole
    _RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[TR.TriageRow] = []

    def clear(self) -> None:
        self.beginResetModel()
        self.rows = []
        self.endResetModel()

    def append(self, rows: list) -> None:
        """One batch of rows: one ``beginInsertRows``."""
        if not rows:
            return
        n = len(self.rows)
        self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
        self.rows.extend(rows)
        self.endInsertRows()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if c == self.PATH:
                return r.relative
            if c == self.SIZE:
                return f"{r.size:,}"
            if c == self.VERDICT:
                return r.verdict
            if c == self.PROBLEMS:
                return f"{r.errors:,}" if r.verdict_code not in (TR.UNREADABLE, TR.SKIPPED) else "—"
            if c == self.FIRST:
                return "" if r.first_offset is None else f"0x{r.first_offset:X}"
            if c == self.WHERE:
                return r.where
            return None
        if role == self.SORT_ROLE:
            if c == self.PATH:
                return r.relative
            if c == self.SIZE:
                return r.size
            if c == self.VERDICT:
                return r.verdict_code
            if c == self.PROBLEMS:
                return r.errors if r.verdict_code != TR.UNREADABLE else 1 << 62
            if c == self.FIRST:
                return -1 if r.first_offset is None else r.first_offset
            if c == self.WHERE:
                return -1 if r.first_line is None else r.first_line * (1 << 32) + r.first_column
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._RIGHT if c in (self.SIZE, self.PROBLEMS, self.FIRST, self.WHERE) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{r.relative}\n{r.verdict}"
            if r.first_offset is not None:
                tip += (f"\nfirst problem: {r.first_kind} at offset {r.first_offset:,} "
                        f"(0x{r.first_offset:X}), line {r.first_line}, column {r.first_column}")
            if r.warnings:
                tip += f"\n{r.warnings:,} warnings"
            return tip
        return None


class TriageFilter(QSortFilterProxyModel):
    """Only files with problems, one verdict code, a part of the name (any case)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.problems_only = False
        self.verdict: str | None = None
        self.name = ""
        self.setSortRole(TriageModel.SORT_ROLE)

    def set_rules(self, problems_only: bool, verdict: str | None, name: str) -> None:
        begin = getattr(self, "beginFilterChange", None)  # Qt 6.9+
        if begin is not None:
            begin()
        self.problems_only = problems_only
        self.verdict = verdict or None
        self.name = name.strip().casefold()
        if begin is not None:
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:
        if not (self.problems_only or self.verdict or self.name):
            return True
        r = self.sourceModel().rows[source_row]
        if self.problems_only and not r.problem:
            return False
        if self.verdict and r.verdict_code != self.verdict:
            return False
        if self.name and self.name not in r.relative.casefold():
            return False
        return True


class TriageTable(QTableView):
    """Enter (like a double-click) activates the current row."""

    rowActivated = Signal(object)  # the proxy index

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.rowActivated.emit(self.currentIndex())
            event.accept()
            return
        super().keyPressEvent(event)


class FolderTriageDock(QDockWidget):
    """The triage table of one folder, its filters, its progress and its exports.

    ``opener(path, offset)``: the window's way to open a file (offset None: no problem
    to go to); ``exporter(kind)``: asks where to write and calls :meth:`export`."""

    BATCH = 400          # rows moved into the model per tick
    TICK_MS = 15         # between two batches while rows wait
    filled = Signal()    # the walk is over and every row is in the table

    def __init__(self, parent=None, opener: Callable | None = None):
        super().__init__("Folder triage", parent)
        self.setObjectName("folderTriage")
        self.opener = opener
        self.export_requested: Callable[[str], None] | None = None
        self.folder = None
        self.worker: GeneratorWorker | None = None
        self.pool: TR.TriagePool | None = None
        self.use_processes = True  # False: every file in the worker thread
        self.pool_min_files = TR.POOL_MIN_FILES  # fewer files: in the worker thread
        self.shared: list = []   # the list the worker appends to
        self.done = self.total = 0
        self.complete = False
        self.began = 0.0
        self.seconds = 0.0

        self.model = TriageModel(self)
        self.proxy = TriageFilter(self)
        self.proxy.setSourceModel(self.model)

        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        bar = QHBoxLayout()
        self.name_filter = QLineEdit(body)
        self.name_filter.setObjectName("triageName")
        self.name_filter.setPlaceholderText("Filter by name")
        self.name_filter.setClearButtonEnabled(True)
        self.problems_only = QCheckBox("Only files with problems", body)
        self.problems_only.setObjectName("triageProblemsOnly")
        self.verdict_combo = QComboBox(body)
        self.verdict_combo.setObjectName("triageVerdict")
        self.verdict_combo.setToolTip("Show only the files of one verdict")
        self.verdict_combo.addItem("All verdicts", None)
        self.export_button = QToolButton(body)
        self.export_button.setObjectName("triageExport")
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for kind, title in (("csv", "CSV…"), ("json", "JSON…"), ("html", "HTML…")):
            a = menu.addAction(title)
            a.setObjectName(f"triageExport_{kind}")
            a.triggered.connect(lambda _c=False, k=kind: self._ask_export(k))
        self.export_button.setMenu(menu)
        bar.addWidget(self.name_filter, 2)
        bar.addWidget(self.verdict_combo, 1)
        bar.addWidget(self.problems_only)
        bar.addWidget(self.export_button)
        layout.addLayout(bar)

        self.table = TriageTable(body)
        self.table.setObjectName("triageTable")
        self.table.setModel(self.proxy)
        read_only_rows(self.table, alternating=True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 4)
        header = self.table.horizontalHeader()
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the walk's order first
        self.table.setSortingEnabled(True)
        width = self.table.fontMetrics().horizontalAdvance("0")
        for column, chars in ((0, 36), (1, 10), (2, 30), (3, 9), (4, 12), (5, 10)):
            self.table.setColumnWidth(column, width * chars)
        # The verdict (a sentence) takes the room left; the numbers keep theirs.
        header.setSectionResizeMode(TriageModel.VERDICT, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)

        foot = QHBoxLayout()
        self.status = QLabel("Open a folder (File > Open Folder…) to triage its files.", body)
        self.status.setObjectName("triageStatus")
        self.progress = QProgressBar(body)
        self.progress.setObjectName("triageProgress")
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel", body)
        self.cancel_button.setObjectName("triageCancel")
        self.cancel_button.clicked.connect(self.cancel)
        foot.addWidget(self.status, 1)
        foot.addWidget(self.progress)
        foot.addWidget(self.cancel_button)
        layout.addLayout(foot)
        self.progress.hide()
        self.cancel_button.hide()
        self.setWidget(body)

        self._feed = QTimer(self)
        self._feed.setInterval(self.TICK_MS)
        self._feed.timeout.connect(self._feed_batch)
        self.name_filter.textChanged.connect(self._filters_changed)
        self.problems_only.toggled.connect(self._filters_changed)
        self.verdict_combo.currentIndexChanged.connect(self._filters_changed)
        self.table.doubleClicked.connect(self.activate)
        self.table.rowActivated.connect(self.activate)

    # ------------------------------------------------------------------ the walk
    def open_folder(self, folder, options: Options | None = None) -> None:
        """Triage ``folder`` in the background (a running triage is cancelled)."""
        self.cancel()
        self.folder = folder
        self.model.clear()
        self.shared = []
        self.done = self.total = 0
        self.complete = False
        self.verdict_combo.blockSignals(True)
        self.verdict_combo.clear()
        self.verdict_combo.addItem("All verdicts", None)
        self.verdict_combo.blockSignals(False)
        self.setWindowTitle(f"Folder triage — {display_path(os.path.basename(os.path.normpath(os.fsdecode(folder))) or folder)}")
        rows, options = self.shared, options or Options()
        holder: list[GeneratorWorker] = []
        pool = self.pool = (TR.TriagePool(min_files=self.pool_min_files)
                            if self.use_processes else None)
        worker = GeneratorWorker(
            lambda: TR.triage_steps(folder, options, rows,
                                    lambda: bool(holder) and holder[0].is_cancelled(),
                                    pool=pool),
            interval=0.05)
        holder.append(worker)
        self.worker = worker
        worker.signals.progress.connect(self._on_progress)
        worker.signals.finished.connect(self._on_finished)
        worker.signals.failed.connect(self._on_failed)
        worker.signals.cancelled.connect(self._on_cancelled)
        self.began = time.monotonic()
        self.status.setText(f"Listing {display_path(folder)}…")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        start_worker(worker)

    @property
    def running(self) -> bool:
        return self.worker is not None

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            if self.pool is not None:
                self.pool.halt(by_caller=True)  # quick: the worker thread joins it
            self.worker = None
            self._finish("cancelled")

    def wait(self, timeout: float = 5.0) -> None:
        if self.worker is not None:
            self.worker.wait(timeout)

    def _mine(self) -> bool:
        return self.worker is not None and self.sender() is self.worker.signals

    def _on_progress(self, p) -> None:
        if not self._mine() or p is None:
            return
        self.done, self.total = p.done, p.total
        self.progress.setRange(0, max(p.total, 1))
        self.progress.setValue(p.done)
        if not self._feed.isActive():
            self._feed.start()

    def _on_finished(self, _rows) -> None:
        if not self._mine():
            return
        self.worker = None
        self.done = self.total = len(self.shared)
        self._finish(None)

    def _on_failed(self, error) -> None:
        if not self._mine():
            return
        self.worker = None
        self._finish(f"failed: {error}")

    def _on_cancelled(self) -> None:
        pass  # cancel() has said so already

    def _finish(self, how: str | None) -> None:
        self.complete = how is None
        self.seconds = time.monotonic() - self.began
        self.progress.hide()
        self.cancel_button.hide()
        self._stopped = how
        if not self._feed.isActive():
            self._feed.start()

    def _feed_batch(self) -> None:
        """Move the next rows of the shared list into the model (one batch)."""
        have = len(self.model.rows)
        avail = len(self.shared)
        if avail > have:
            batch = self.shared[have:have + self.BATCH]
            self._note_verdicts(batch)
            self.model.append(batch)
        if len(self.model.rows) >= len(self.shared) and self.worker is None:
            self._feed.stop()
            self.filled.emit()
        self._update_status()

    def _note_verdicts(self, rows) -> None:
        combo = self.verdict_combo
        for r in rows:
            if combo.findData(r.verdict_code) < 0:
                combo.addItem(r.verdict_code, r.verdict_code)

    def _update_status(self) -> None:
        rows = self.model.rows
        shown = self.proxy.rowCount()
        text = TR.summary_text(rows, None)
        if shown != len(rows):
            text += f"; {shown:,} shown"
        pool = self.pool
        if self.worker is not None and pool is not None and pool.waiting:
            text = f"Starting worker processes for {self.total:,} files…"
        elif self.worker is not None:
            text = f"Scanning {self.done:,} of {self.total:,} files… " + text
        elif getattr(self, "_stopped", None):
            text += f" — {self._stopped}"
        elif self.complete:
            text += f" in {self.seconds:.1f} s"
        tip = ""
        if pool is not None and pool.reason and not pool.halted_by_caller:
            text += self._fallback_note(pool)
            tip = self._fallback_tip(pool)
        self.status.setText(text)
        self.status.setToolTip(tip)

    def _fallback_note(self, pool) -> str:
        """One line's end: the triage went on without its worker processes, and why."""
        done = self.worker is None
        rest = "the rest " if pool.used else ""  # the pool broke on the way
        return f" — {pool.reason}; {rest}{'scanned' if done else 'scanning'} without them"

    @staticmethod
    def _fallback_tip(pool) -> str:
        tip = (f"{pool.error}\nThe files were read in this window's own process instead "
               "(the window may respond more slowly while a large folder is read).")
        if pool.unanswered:
            # The likely cause: the children run the main script again first.
            tip += ("\nA script that opens this window should do so under\n"
                    "    if __name__ == \"__main__\":\n"
                    "each worker process runs the main script again before it starts.")
        return tip

    # ------------------------------------------------------------------ filters
    def _filters_changed(self, *_) -> None:
        self.proxy.set_rules(self.problems_only.isChecked(), self.verdict_combo.currentData(),
                             self.name_filter.text())
        self._update_status()

    def set_filter(self, problems_only: bool = False, verdict: str | None = None,
                   name: str = "") -> None:
        self.problems_only.setChecked(problems_only)
        self.verdict_combo.setCurrentIndex(max(self.verdict_combo.findData(verdict), 0))
        self.name_filter.setText(name)

    # ------------------------------------------------------------------ rows
    def row_at(self, proxy_row: int) -> TR.TriageRow | None:
        if not 0 <= proxy_row < self.proxy.rowCount():
            return None
        src = self.proxy.mapToSource(self.proxy.index(proxy_row, 0))
        return self.model.rows[src.row()]

    def current_row(self) -> TR.TriageRow | None:
        index = self.table.currentIndex()
        return self.row_at(index.row()) if index.isValid() else None

    def select(self, proxy_row: int) -> None:
        index = self.proxy.index(proxy_row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)

    def activate(self, index) -> None:
        """Open the file of a row (a proxy index), the cursor on its first problem."""
        row = self.row_at(index.row())
        if row is None or self.opener is None:
            return
        self.select(index.row())
        self.opener(row.path, row.first_offset)

    def step(self, forward: bool = True) -> bool:
        """Select and open the next (previous) file with problems in the table's order;
        False when there is none."""
        n = self.proxy.rowCount()
        current = self.table.currentIndex()
        here = current.row() if current.isValid() else (-1 if forward else n)
        rng = range(here + 1, n) if forward else range(here - 1, -1, -1)
        for i in rng:
            row = self.row_at(i)
            if row is not None and row.problem:
                self.activate(self.proxy.index(i, 0))
                return True
        return False

    # ------------------------------------------------------------------ exports
    def visible_rows(self) -> list:
        """The rows in the table's order, as filtered."""
        return [self.row_at(i) for i in range(self.proxy.rowCount())]

    def _ask_export(self, kind: str) -> None:
        if self.export_requested is not None:
            self.export_requested(kind)

    def export(self, kind: str, path) -> int:
        """Write the table (its order, its filter) as ``csv``, ``json`` or ``html`` to
        ``path`` (checked and written by ``safewrite``: WriteRefused, a ValueError, for a
        folder or a place that cannot be written in); returns the number of files
        written."""
        from inspector.core.analysis.htmlreport import render_triage_html

        if kind not in ("csv", "json", "html"):
            raise ValueError(f"unknown export kind: {kind}")
        path = check_target(path)
        rows = self.visible_rows()
        with AtomicWriter(path) as out:
            if kind == "csv":
                return TR.write_csv(rows, out.file)
            if kind == "json":
                return TR.write_json(rows, out.file)
            out.file.write(render_triage_html(rows, display_path(self.folder) if self.folder
                                              else None))
            return len(rows)
