"""The Text runs dock: the printable runs of the open file (what ``utf8-inspector
strings`` prints), found in the background, listed, filtered, exported, marked.

The search runs :func:`inspector.core.analysis.textruns.find_runs` in a
:class:`~inspector.gui.runtime.workers.GeneratorWorker`; its generator appends each
batch to a list it shares with the dock and yields progress only, and the dock moves the
batches into the model as they come. The model holds runs as numpy arrays (about 30
bytes a run, no Python object per run) and the rows shown as an index array; a row's
text is read from the file when it is painted (a small cache keeps a screenful), so
millions of runs stay responsive. Filters on length, encoding and script are vector
operations; the text filter reads the runs' texts, in the background.

Enter or a double-click selects the run's bytes in both panes (through the document);
"Mark" makes the chosen run a finding; "Export…" writes the rows shown as CSV or JSON.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QComboBox, QDockWidget, QFileDialog, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QProgressBar, QPushButton, QSpinBox,
                               QTableView, QVBoxLayout, QWidget)

from inspector.core.analysis import textruns as TR
from inspector.core.analysis.textruns.export import export_steps
from inspector.core.units.chartables import SCRIPT_NAMES
from inspector.gui.look.tables import NamedColumnsModel, read_only_rows
from inspector.gui.runtime.workers import GeneratorWorker, start as start_worker

TEXT_CACHE = 2048  # rows whose text is kept (a few screenfuls)
SEARCH_ENCODINGS = (("UTF-8", TR.UTF8), ("UTF-16 LE", TR.UTF16LE), ("UTF-16 BE", TR.UTF16BE),
                    ("All", TR.ALL))
ENCODING_TITLES = {TR.UTF8: "UTF-8", TR.UTF16LE: "UTF-16 LE", TR.UTF16BE: "UTF-16 BE"}
TEXT_FILTER_STEP = 20_000


class TextRunModel(NamedColumnsModel):
    """Runs as arrays (a :class:`RunBatch`), the rows shown as indices into them."""

    COLUMNS = ("Offset", "Length", "Encoding", "Script", "Text")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.runs = TR.RunBatch.empty()
        self.sets = TR.ScriptSets()
        self.rows = np.zeros(0, np.int64)
        self.source = None
        self.dialect = "utf-8"
        self._texts: OrderedDict[int, str] = OrderedDict()
        self._mask = None  # the numeric filters' mask over runs, or None for all
        self._text_mask = None  # the text filter's answer over runs, or None
        self.filters = (1, None, None)  # minimum chars, encoding index, script index

    def reset(self, source, dialect: str, sets: TR.ScriptSets) -> None:
        self.beginResetModel()
        self.runs = TR.RunBatch.empty()
        self.sets = sets
        self.rows = np.zeros(0, np.int64)
        self.source = source
        self.dialect = dialect
        self._texts.clear()
        self._text_mask = None
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def append(self, batches: list) -> None:
        """Runs found since the last call (in offset order, after those held)."""
        batches = [b for b in batches if len(b)]
        if not batches:
            return
        first = len(self.runs)
        self.runs = TR.RunBatch.concat([self.runs, *batches])
        if self._text_mask is not None:
            self._text_mask = np.concatenate((self._text_mask,
                                              np.ones(len(self.runs) - first, bool)))
        new = np.arange(first, len(self.runs))
        new = new[self._passes(new)]
        if len(new):
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(new) - 1)
            self.rows = np.concatenate((self.rows, new))
            self.endInsertRows()

    def _passes(self, idx: np.ndarray) -> np.ndarray:
        min_chars, encoding, script = self.filters
        r = self.runs
        ok = r.chars[idx] >= min_chars
        if encoding is not None:
            ok &= r.encoding[idx] == encoding
        if script is not None:
            ok &= np.isin(r.script_set[idx], self.sets.containing(script))
        if self._text_mask is not None:
            ok &= self._text_mask[idx]
        return ok

    def set_filters(self, min_chars: int, encoding: int | None, script: int | None,
                    text_mask: np.ndarray | None) -> None:
        self.filters = (min_chars, encoding, script)
        self._text_mask = text_mask
        self.beginResetModel()
        idx = np.arange(len(self.runs))
        self.rows = idx[self._passes(idx)]
        self.endResetModel()

    def run(self, row: int) -> int:
        return int(self.rows[row])

    def text(self, i: int) -> str:
        t = self._texts.get(i)
        if t is None:
            r = self.runs
            t = TR.run_text(self.source, int(r.offset[i]), int(r.length[i]),
                            TR.ENCODINGS[int(r.encoding[i])], self.dialect)
            self._texts[i] = t
            if len(self._texts) > TEXT_CACHE:
                self._texts.popitem(last=False)
        return t

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        i = int(self.rows[index.row()])
        r = self.runs
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return f"0x{int(r.offset[i]):X}"
            if col == 1:
                return f"{int(r.length[i]):,} B, {int(r.chars[i]):,} ch"
            if col == 2:
                return ENCODING_TITLES[TR.ENCODINGS[int(r.encoding[i])]]
            if col == 3:
                return ", ".join(self.sets.names(int(r.script_set[i])))
            return self.text(i)
        if role == Qt.ItemDataRole.ToolTipRole and col in (0, 4):
            notes = []
            if r.damaged_before[i]:
                notes.append("a damaged unit right before it")
            if r.damaged_after[i]:
                notes.append("a damaged unit right after it")
            end = int(r.offset[i]) + int(r.length[i])
            return f"bytes 0x{int(r.offset[i]):X}–0x{end:X}" + (
                "; " + ", ".join(notes) if notes else "")
        return None


class RunTable(QTableView):
    """The list: Enter, like a double-click, activates the current row."""

    chosen = Signal(int)  # the run (index into the model's runs)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.chosen.emit(self.model().run(self.currentIndex().row()))
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        index = self.indexAt(event.position().toPoint())
        if index.isValid():
            self.chosen.emit(self.model().run(index.row()))
            event.accept()
            return
        super().mouseDoubleClickEvent(event)


class TextRunsDock(QDockWidget):
    """Find, list, filter, export and mark the text runs of the document's file."""

    filled = Signal()  # a search ended (finished, cancelled or failed)
    exported = Signal(object)  # the number of runs written, or an exception

    def __init__(self, document, findings=None, parent=None):
        super().__init__("Text runs", parent)
        self.setObjectName("textRunsDock")
        self.document = document
        self.findings = findings
        self.worker: GeneratorWorker | None = None
        self.text_worker: GeneratorWorker | None = None
        self.export_worker: GeneratorWorker | None = None
        self._incoming: list = []
        self._taken = 0
        self.status_text = ""
        self._build()
        document.sourceChanged.connect(self._on_source)
        self._feed = QTimer(self)
        self._feed.setInterval(100)
        self._feed.timeout.connect(self._take_batches)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        body = QWidget(self)
        box = QVBoxLayout(body)
        box.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.search_encoding = QComboBox(body)
        self.search_encoding.setObjectName("textRunsSearchEncoding")
        for title, key in SEARCH_ENCODINGS:
            self.search_encoding.addItem(title, key)
        self.search_min = QSpinBox(body)
        self.search_min.setObjectName("textRunsSearchMin")
        self.search_min.setRange(1, 1000)
        self.search_min.setValue(TR.DEFAULT_MIN_CHARS)
        self.search_min.setToolTip("The shortest run looked for, in characters")
        self.find_button = QPushButton("Find text runs", body)
        self.find_button.setObjectName("textRunsFind")
        self.find_button.clicked.connect(self.start)
        self.progress = QProgressBar(body)
        self.progress.setObjectName("textRunsProgress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel", body)
        self.cancel_button.setObjectName("textRunsCancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.progress.hide()
        self.cancel_button.hide()
        for w in (QLabel("In", body), self.search_encoding, QLabel("at least", body),
                  self.search_min, QLabel("chars", body), self.find_button, self.progress,
                  self.cancel_button):
            top.addWidget(w)
        top.addStretch(1)
        self.mark_button = QPushButton("Mark", body)
        self.mark_button.setObjectName("textRunsMark")
        self.mark_button.setToolTip("Make the chosen run a finding")
        self.mark_button.clicked.connect(self.mark_current)
        self.export_button = QPushButton("Export…", body)
        self.export_button.setObjectName("textRunsExport")
        self.export_button.clicked.connect(self.ask_export)
        top.addWidget(self.mark_button)
        top.addWidget(self.export_button)
        box.addLayout(top)

        filters = QHBoxLayout()
        self.text_filter = QLineEdit(body)
        self.text_filter.setObjectName("textRunsTextFilter")
        self.text_filter.setPlaceholderText("Filter by text")
        self.text_filter.setClearButtonEnabled(True)
        self.min_filter = QSpinBox(body)
        self.min_filter.setObjectName("textRunsMinFilter")
        self.min_filter.setRange(1, 1_000_000)
        self.min_filter.setPrefix("≥ ")
        self.min_filter.setSuffix(" chars")
        self.script_filter = QComboBox(body)
        self.script_filter.setObjectName("textRunsScriptFilter")
        self.script_filter.addItem("All scripts", None)
        for i, name in sorted(enumerate(SCRIPT_NAMES), key=lambda p: p[1]):
            if i > 2:
                self.script_filter.addItem(name.replace("_", " "), i)
        self.script_filter.insertItem(1, "Common", 1)
        self.encoding_filter = QComboBox(body)
        self.encoding_filter.setObjectName("textRunsEncodingFilter")
        self.encoding_filter.addItem("All encodings", None)
        for i, key in enumerate(TR.ENCODINGS):
            self.encoding_filter.addItem(ENCODING_TITLES[key], i)
        for w in (self.text_filter, self.min_filter, self.script_filter, self.encoding_filter):
            filters.addWidget(w)
        filters.setStretch(0, 1)
        box.addLayout(filters)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(250)
        self._text_timer.timeout.connect(self.apply_filters)
        self.text_filter.textChanged.connect(lambda _t: self._text_timer.start())
        self.min_filter.valueChanged.connect(lambda _v: self.apply_filters())
        self.script_filter.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.encoding_filter.currentIndexChanged.connect(lambda _i: self.apply_filters())

        self.model = TextRunModel(self)
        self.table = RunTable(body)
        self.table.setObjectName("textRunsTable")
        self.table.setModel(self.model)
        read_only_rows(self.table, alternating=True)
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.table.setFont(fixed)
        header = self.table.horizontalHeader()
        for col in range(3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(3, 150)  # a few script names; the tooltip-free rest is cut
        header.setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().height() + 4)
        self.table.chosen.connect(self.select_run)
        box.addWidget(self.table, 1)
        self.status = QLabel("Find text runs: the printable stretches of UTF-8 or UTF-16 "
                             "text in the file", body)
        self.status.setObjectName("textRunsStatus")
        box.addWidget(self.status)
        self.setWidget(body)

    # ------------------------------------------------------------------ the search
    def start(self) -> None:
        """Find the runs of the document's file in the background."""
        self.cancel()
        d = self.document
        source, dialect = d.source, d.dialect
        encodings = TR.encodings_of(self.search_encoding.currentData())
        min_chars = self.search_min.value()
        sets = TR.ScriptSets()
        self.model.reset(source, dialect, sets)
        self.min_filter.blockSignals(True)
        self.min_filter.setValue(max(self.min_filter.value(), min_chars))
        self.min_filter.blockSignals(False)
        self.model.filters = (self.min_filter.value(), self.encoding_filter.currentData(),
                              self.script_filter.currentData())
        incoming: list = []
        self._incoming, self._taken = incoming, 0
        size = max(source.size, 1)

        def steps():
            for batch in TR.find_runs(source, encodings, min_chars, dialect,
                                      script_sets=sets):
                batch.data = b""  # the block's bytes are not kept
                incoming.append(batch)
                yield batch.done / size
            return len(incoming)

        worker = GeneratorWorker(steps, interval=0.1)
        self.worker = worker
        worker.signals.progress.connect(self._on_progress)
        worker.signals.finished.connect(self._on_finished)
        worker.signals.failed.connect(self._on_failed)
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.find_button.setEnabled(False)
        self._set_status("Finding text runs…")
        self._feed.start()
        start_worker(worker)

    @property
    def running(self) -> bool:
        return self.worker is not None

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None
            self._take_batches()
            self._end(f"{len(self.model.runs):,} runs before the search was cancelled")
        if self.text_worker is not None:
            self.text_worker.cancel()
            self.text_worker = None

    def wait(self, timeout: float = 5.0) -> None:
        for w in (self.worker, self.text_worker, self.export_worker):
            if w is not None:
                w.wait(timeout)

    def _mine(self) -> bool:
        return self.worker is not None and self.sender() is self.worker.signals

    def _on_progress(self, fraction) -> None:
        if self._mine() and fraction is not None:
            self.progress.setValue(int(1000 * min(1.0, fraction)))

    def _on_finished(self, _count) -> None:
        if not self._mine():
            return
        self.worker = None
        self._take_batches()
        self._end(None)

    def _on_failed(self, error) -> None:
        if not self._mine():
            return
        self.worker = None
        self._take_batches()
        self._end(f"the search failed: {error}")

    def _end(self, how: str | None) -> None:
        self._feed.stop()
        self.progress.hide()
        self.cancel_button.hide()
        self.find_button.setEnabled(True)
        self._set_status(how or self._summary())
        self.filled.emit()

    def _take_batches(self) -> None:
        new = self._incoming[self._taken:]
        self._taken += len(new)
        self.model.append(new)
        if self.worker is not None:
            self._set_status(f"Finding text runs… {len(self.model.runs):,} so far")

    def _summary(self) -> str:
        total = len(self.model.runs)
        shown = len(self.model.rows)
        text = f"{total:,} text runs"
        if shown != total:
            text += f", {shown:,} shown"
        return text

    def _set_status(self, text: str) -> None:
        self.status_text = text
        self.status.setText(text)

    def _on_source(self) -> None:
        self.cancel()
        self.model.reset(self.document.source, self.document.dialect, TR.ScriptSets())
        self._set_status("Find text runs: the printable stretches of UTF-8 or UTF-16 text "
                         "in the file")

    # ------------------------------------------------------------------ filters
    def apply_filters(self) -> None:
        """Length, encoding and script at once; the text filter, which reads every run's
        text, in the background (the numeric filters show meanwhile)."""
        if self.text_worker is not None:
            self.text_worker.cancel()
            self.text_worker = None
        needle = self.text_filter.text().casefold()
        numeric = (self.min_filter.value(), self.encoding_filter.currentData(),
                   self.script_filter.currentData())
        self.model.set_filters(*numeric, None)
        if not needle or self.running:
            self._set_status(self._summary())
            return
        model = self.model
        runs, candidates = model.runs, model.rows.copy()
        source, dialect = model.source, model.dialect

        def steps():  # in a pool thread: reads the file itself, not the model's cache
            mask = np.zeros(len(runs), bool)
            for k, i in enumerate(candidates.tolist()):
                text = TR.run_text(source, int(runs.offset[i]), int(runs.length[i]),
                                   TR.ENCODINGS[int(runs.encoding[i])], dialect)
                if needle in text.casefold():
                    mask[i] = True
                if k % TEXT_FILTER_STEP == TEXT_FILTER_STEP - 1:
                    yield k / max(len(candidates), 1)
            return mask

        worker = GeneratorWorker(steps, interval=0.1)
        self.text_worker = worker

        def finished(mask):
            if self.text_worker is worker:
                self.text_worker = None
                self.model.set_filters(*numeric, mask)
                self._set_status(self._summary())
                self.filled.emit()

        worker.signals.finished.connect(finished)
        self._set_status(f"Filtering {len(candidates):,} runs by text…")
        start_worker(worker)

    # ------------------------------------------------------------------ acting on runs
    def select_run(self, i: int) -> None:
        """Select run ``i``'s bytes in both panes."""
        r = self.model.runs
        start = int(r.offset[i])
        self.document.set_selection(start, start + int(r.length[i]), reveal=True)

    def current_run(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.run(index.row()) if index.isValid() else None

    def mark_current(self) -> None:
        """Make the chosen run a finding (its note says what it is)."""
        i = self.current_run()
        if i is None or self.findings is None:
            return
        r = self.model.runs
        start = int(r.offset[i])
        text = self.model.text(i)
        if len(text) > 80:
            text = text[:79] + "…"
        scripts = ", ".join(self.model.sets.names(int(r.script_set[i])))
        enc = ENCODING_TITLES[TR.ENCODINGS[int(r.encoding[i])]]
        self.findings.add(start, start + int(r.length[i]),
                          note=f"text run ({enc}, {scripts}): {text}")

    def ask_export(self) -> None:
        dialog = QFileDialog(self, "Export text runs")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(["CSV (*.csv)", "JSON (*.json)"])
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.fileSelected.connect(lambda path: self.export_to(
            path, "json" if path.lower().endswith(".json") or
            dialog.selectedNameFilter().startswith("JSON") else "csv"))
        dialog.open()

    def export_to(self, path: str, fmt: str) -> None:
        """Write the rows shown to ``path`` (CSV or JSON) in the background."""
        m = self.model
        rows = m.rows.copy()
        worker = GeneratorWorker(lambda: export_steps(path, fmt, m.runs, rows, m.source,
                                                      m.sets, m.dialect), interval=0.2)
        self.export_worker = worker

        def finished(count):
            self._set_status(f"{count:,} text runs written to {path}")
            self.exported.emit(count)

        def failed(error):
            self._set_status(f"cannot export the text runs: {error}")
            self.exported.emit(error)

        worker.signals.finished.connect(finished)
        worker.signals.failed.connect(failed)
        self._set_status(f"Writing {len(rows):,} text runs to {path}…")
        start_worker(worker)
