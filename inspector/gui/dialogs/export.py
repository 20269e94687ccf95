"""File > Export (JSON report, CSV of every error unit, self-contained HTML report) and
File > Save repaired copy.

Everything that reads the whole file runs in a background worker
(``inspector.gui.runtime.workers``) behind a progress dialog with Cancel. Nothing is ever written
onto the inspected file: a target that is the inspected file, also through a symbolic or
hard link, is refused before any work starts, and every output is written to a
temporary file beside the target and renamed into place only when complete, so a
cancelled or failed export leaves nothing half-written.

For tests (and scripts) each action takes the target path directly; the real menus ask
with ``QFileDialog``, starting in the user's Documents folder (or home), never next to
the inspected file.
"""

from __future__ import annotations

import csv
import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDialog, QDialogButtonBox, QFileDialog,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QMessageBox, QPlainTextEdit, QProgressBar,
                               QProgressDialog, QPushButton, QRadioButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from inspector.core.analysis import htmlreport
from inspector.core.analysis import repair as repair_mod
from inspector.core.analysis import report as report_mod
from inspector.core.scan import results, scanner
from inspector.core.analysis import verdict as verdict_mod
from inspector.core.scan.lines import LineCounter
from inspector.core.source.bytesource import display_path
from inspector.gui.look import regionlook
from inspector.gui.runtime import workers

JSON, CSV, HTML = "json", "csv", "html"
FORMATS = {
    JSON: ("JSON report", "JSON files (*.json)", ".json"),
    CSV: ("CSV of every error unit", "CSV files (*.csv)", ".csv"),
    HTML: ("HTML report", "HTML files (*.html *.htm)", ".html"),
}
OVERVIEW_BINS = 400  # bins of the HTML report's overview picture


# ------------------------------------------------------------------ paths

def default_directory() -> str:
    """The user's Documents folder, else home: exports never land next to the evidence
    by default."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if docs and os.path.isdir(docs):
        return docs
    return str(Path.home())


def same_file(a, b) -> bool:
    """True when paths ``a`` and ``b`` name the same file (through links too)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_target(target, inspected) -> str:
    """Refuse a target that is the inspected file (or a link to it), a directory, or in
    a folder that does not exist. Returns the target as a string; raises ValueError
    with a message a person can act on."""
    if not target:
        raise ValueError("no file name was given")
    target = os.fspath(target)
    if inspected is not None:
        if os.path.realpath(target) == os.path.realpath(inspected) or (
                os.path.exists(target) and same_file(target, inspected)):
            raise ValueError(f"{display_path(target)} is the inspected file (or a link to "
                             "it); the inspector never writes over the file it inspects. "
                             "Choose another name.")
    if os.path.isdir(target):
        raise ValueError(f"{display_path(target)} is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise ValueError(f"the folder {display_path(folder)} does not exist")
    return target


class _AtomicWriter:
    """Writes to a temporary file in the target's folder; ``commit`` renames it into
    place, anything else (an exception, a cancel) removes it."""

    def __init__(self, target: str, binary: bool = False):
        self.target = target
        folder = os.path.dirname(os.path.abspath(target))
        fd, self.temp = tempfile.mkstemp(prefix=".export-", suffix=".part", dir=folder)
        if binary:
            self.file = os.fdopen(fd, "wb")
        else:
            self.file = os.fdopen(fd, "w", encoding="utf-8", newline="")

    def commit(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.temp, self.target)

    def discard(self) -> None:
        try:
            self.file.close()
        finally:
            try:
                os.unlink(self.temp)
            except FileNotFoundError:
                pass


# ------------------------------------------------------------------ the jobs (plain generators)
# Each yields (done, total, what) and returns a one-line summary; stopping it cancels.

def _complete_scan(source, dialect: str, scan: results.ScanResult | None):
    """The finished scan of the whole file: the document's, or a new one."""
    if scan is not None and scan.complete and scan.dialect == dialect:
        return scan
    steps = scanner.scan_steps(source, dialect=dialect)
    try:
        while True:
            step = next(steps)
            yield step.done, step.total, "scanning"
    except StopIteration as stop:
        return stop.value


def _fine_for_picture(source, result: results.ScanResult):
    """A scan whose blocks are no larger than one bin of the overview picture: the
    result itself for a big file, a quick second scan with small blocks for a small one
    (whose few big blocks would paint flat bands)."""
    size = source.size
    if not size or size > (64 << 20):
        return result
    block = 64
    while block * OVERVIEW_BINS < size:
        block *= 2
    if result.index.block_size <= block:
        return result
    steps = scanner.scan_steps(source, dialect=result.dialect, block_size=block,
                               origin=result.index.origin, sha256=False)
    try:
        while True:
            step = next(steps)
            yield step.done, step.total, "drawing the overview"
    except StopIteration as stop:
        return stop.value


def _report_dict(source, result, path, findings=None):
    v = verdict_mod.verdict(result, source)
    return report_mod.build_report(result, source, path, v, findings=findings)


def overview_bins(result: results.ScanResult, size: int, n: int = OVERVIEW_BINS) -> list[dict]:
    """The overview picture's bins as plain dicts for the HTML report."""
    from inspector.gui.panes.overview import ERROR_KINDS, bins_from_index

    if not size:
        return []
    n = max(1, min(n, size))
    bins = bins_from_index(result.index, size, n)
    out = []
    for i in range(len(bins)):
        out.append({
            "start": int(bins.starts[i]),
            "end": int(bins.ends[i]),
            "errors_by_kind": {k: int(bins.errors[i, j]) for j, k in enumerate(ERROR_KINDS)},
            "warnings": int(bins.warnings[i]),
            "multibyte": int(bins.multibyte[i]),
            "binary": int(bins.binary[i]),
        })
    return out


def export_steps(kind: str, source, dialect: str, scan, target: str, findings=None):
    """Write one export to ``target`` (already checked); yields progress. ``findings``:
    the report's findings entries (None: the report has no findings field)."""
    inspected = getattr(source, "path", None)
    if kind == CSV:
        return (yield from _csv_steps(source, dialect, target))
    result = yield from _complete_scan(source, dialect, scan)
    yield 0, 1, "writing"
    report = _report_dict(source, result, inspected, findings)
    if kind == JSON:
        writer = _AtomicWriter(target)
        try:
            report_mod.write_json(report, writer.file)
            writer.commit()
        except BaseException:
            writer.discard()
            raise
        return f"JSON report written to {display_path(target)}"
    if kind == HTML:
        pictured = yield from _fine_for_picture(source, result)
        page = htmlreport.render_html(report, overview=overview_bins(pictured, source.size))
        writer = _AtomicWriter(target)
        try:
            writer.file.write(page)
            writer.commit()
        except BaseException:
            writer.discard()
            raise
        return f"HTML report written to {display_path(target)}"
    raise ValueError(f"unknown export {kind!r}")


CSV_REGION = 8 << 20  # bytes handed to the report's CSV writer between two progress steps


def safe_boundary(source, offset: int) -> int:
    """The first offset at or after ``offset`` where every dialect's cut of the whole
    file starts a unit that no pair or sequence crosses, so regions cut on their own
    give the same units as the whole file: an ASCII byte; a lead byte other than ED
    (ED may be the second half of a CESU-8 / WTF-8 surrogate pair); or a continuation
    byte with six continuation bytes before it (a stray: no lead is within reach)."""
    size = source.size
    pos = offset
    while pos < size:
        lo = max(pos - 6, 0)
        window = source.read(lo, 4096 + (pos - lo))
        if not window:
            return size
        run = 0  # continuation bytes seen in a row before the current one
        for i, byte in enumerate(window):
            at = lo + i
            if at >= pos:
                if byte < 0x80 or (byte >= 0xC0 and byte != 0xED) or (byte < 0xC0 and run >= 6):
                    return at
            run = run + 1 if 0x80 <= byte < 0xC0 else 0
        pos = lo + len(window)
    return size


def _csv_steps(source, dialect: str, target: str, region: int | None = None):
    """Every error unit, streamed with the report's CSV writer region by region (cut
    at safe boundaries, so the rows are those of the whole file): memory stays flat
    whatever their number, and progress comes between regions."""
    region = region or CSV_REGION
    size = source.size
    writer = _AtomicWriter(target)
    rows = 0
    try:
        csv.writer(writer.file, lineterminator="\n").writerow(report_mod.CSV_COLUMNS)
        start = 0
        counter = LineCounter(dialect)  # lines and columns run on across the regions
        while start < size:
            end = safe_boundary(source, min(start + region, size))
            rows += report_mod.write_csv(writer.file, source, dialect, start, end, header=False,
                                         counter=counter)
            start = end
            yield start, size, "writing"
        writer.commit()
    except BaseException:
        writer.discard()
        raise
    return f"{rows:,} error units written to {display_path(target)}"


# ------------------------------------------------------------------ running with a progress dialog

class BackgroundTask(QObject):
    """Runs one job generator in a worker behind a QProgressDialog with Cancel.

    ``finished(summary)``, ``failed(message)`` or ``cancelled()`` is emitted once, in
    the UI thread.
    """

    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, title: str, factory, parent: QWidget | None = None,
                 show_dialog: bool = True):
        super().__init__(parent)
        self.dialog = QProgressDialog(title, "Cancel", 0, 1000, parent)
        self.dialog.setObjectName("exportProgress")
        self.dialog.setWindowTitle(title)
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300 if show_dialog else 10**9)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.canceled.connect(self.cancel)
        self.worker = workers.GeneratorWorker(factory, interval=0.05)
        s = self.worker.signals
        s.progress.connect(self._progress)
        s.finished.connect(self._finished)
        s.failed.connect(self._failed)
        s.cancelled.connect(self._cancelled)
        self.running = False
        self.outcome = None  # "finished" | "failed" | "cancelled"

    def start(self) -> None:
        self.running = True
        self.dialog.setValue(0)
        workers.start(self.worker)

    def cancel(self) -> None:
        if self.running:
            self.worker.cancel()

    def _progress(self, value) -> None:
        done, total, what = value
        self.dialog.setLabelText(f"{what.capitalize()}… {done:,} of {total:,} bytes")
        self.dialog.setValue(int(1000 * done / total) if total else 0)

    def _end(self, outcome: str) -> None:
        self.running = False
        self.outcome = outcome
        self.dialog.reset()
        self.dialog.hide()

    def _finished(self, summary) -> None:
        self._end("finished")
        self.finished.emit(summary)

    def _failed(self, error) -> None:
        self._end("failed")
        self.failed.emit(str(error) or type(error).__name__)

    def _cancelled(self) -> None:
        self._end("cancelled")
        self.cancelled.emit()


class Exporter(QObject):
    """The File > Export actions for one window. ``export(kind, path=None)`` asks for a
    path when none is given, then writes in the background."""

    done = Signal(str, str)  # outcome ("finished"/"failed"/"cancelled"/"refused"), message

    def __init__(self, document, parent_widget: QWidget | None = None):
        super().__init__(parent_widget)
        self.document = document
        self.parent_widget = parent_widget
        self.task: BackgroundTask | None = None
        self.last_message = ""
        self.show_messages = True  # tests turn the message boxes off
        # The findings the reports list: a callable giving their entries (or None).
        self.findings = None

    def ask_path(self, kind: str) -> str | None:
        title, filters, suffix = FORMATS[kind]
        name = Path(self.document.source.name or "report").stem + "-report" + suffix
        if kind == CSV:
            name = Path(self.document.source.name or "errors").stem + "-errors.csv"
        path, _ = QFileDialog.getSaveFileName(self.parent_widget, f"Export {title}",
                                              os.path.join(default_directory(), name), filters)
        return path or None

    def export(self, kind: str, path: str | None = None) -> BackgroundTask | None:
        doc = self.document
        if not doc.size and doc.path is None:
            self._tell("refused", "Open a file first.")
            return None
        if self.task is not None and self.task.running:
            self._tell("refused", "An export is already running.")
            return None
        if path is None:
            path = self.ask_path(kind)
            if path is None:
                return None
        try:
            target = check_target(path, doc.path)
        except ValueError as e:
            self._tell("refused", str(e))
            return None
        source, dialect, scan = doc.source, doc.dialect, doc.scan
        findings = self.findings() if self.findings is not None and kind != CSV else None
        title = f"Exporting the {FORMATS[kind][0]}"
        task = BackgroundTask(title, lambda: export_steps(kind, source, dialect, scan, target,
                                                          findings),
                              self.parent_widget, show_dialog=self.show_messages)
        task.finished.connect(lambda summary: self._tell("finished", summary))
        task.failed.connect(lambda message: self._tell("failed", f"The export failed: {message}"))
        task.cancelled.connect(lambda: self._tell("cancelled", "The export was cancelled; "
                                                  "nothing was written."))
        self.task = task
        task.start()
        return task

    def _tell(self, outcome: str, message: str) -> None:
        self.last_message = message
        if self.show_messages and outcome != "cancelled":
            icon = (QMessageBox.Icon.Information if outcome == "finished"
                    else QMessageBox.Icon.Warning)
            box = QMessageBox(icon, "Export", message, QMessageBox.StandardButton.Ok,
                              self.parent_widget)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()
        self.done.emit(outcome, message)


# ------------------------------------------------------------------ the repair dialog

def visible_text(text: str, limit: int = 40) -> str:
    """Text as a person can read it in a cell: controls and the lone surrogates of
    ``surrogateescape`` as escapes, nothing as a dash."""
    if text == "":
        return "—"
    out = []
    for ch in text:
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            out.append(f"\\x{cp - 0xDC00:02x}")  # surrogateescape keeps the raw byte here
        elif 0xD800 <= cp <= 0xDFFF:
            out.append(f"\\u{cp:04x}")
        elif cp < 0x20 or 0x7F <= cp <= 0x9F:
            out.append(f"\\x{cp:02x}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


POLICY_SHORT = {"replace": "U+FFFD", "drop": "drop", "cp1252": "Windows-1252",
                "latin1": "Latin-1", repair_mod.REGIONS: "each region from its encoding"}


class RepairDialog(QDialog):
    """File > Save repaired copy: choose a policy, see what it does near the cursor and
    over the whole file, choose a new file, save in the background, read the summary."""

    PREVIEW_RADIUS = 48

    saved = Signal(object)  # the RepairSummary

    def __init__(self, document, parent: QWidget | None = None, target: str | None = None):
        super().__init__(parent)
        self.setObjectName("repairDialog")
        self.setWindowTitle("Save a repaired copy")
        self.document = document
        self.summary = None
        self.check = ""
        self.counts = None
        self._worker: workers.GeneratorWorker | None = None
        self._worker_kind = ""
        self._browsed_overwrite = False
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

        layout = QVBoxLayout(self)
        name = display_path(document.path) if document.path else document.source.name
        head = QLabel(f"A new, valid UTF-8 copy of <b>{_html(name)}</b> in which every problem "
                      f"unit (read as {_html(document.dialect)}) is rewritten by the policy "
                      "below. The inspected file is never changed.", self)
        head.setWordWrap(True)
        head.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(head)

        policy_box = QGroupBox("Policy for each problem unit", self)
        policy_layout = QVBoxLayout(policy_box)
        self.policy_group = QButtonGroup(self)
        self.policy_buttons: dict[str, QRadioButton] = {}
        policies = repair_mod.POLICIES
        for i, p in enumerate(policies):
            b = QRadioButton(repair_mod.POLICY_TITLES[p], policy_box)
            b.setObjectName(f"policy_{p}")
            self.policy_group.addButton(b, i)
            self.policy_buttons[p] = b
            policy_layout.addWidget(b)
        self.policy_buttons[policies[0]].setChecked(True)
        # The region policy: each region of the encoding map (the finished scan's, see
        # regionlook.map_of) from its encoding; binary regions kept or dropped.
        self.regions_button = QRadioButton(repair_mod.REGIONS_TITLE.capitalize(), policy_box)
        self.regions_button.setObjectName(f"policy_{repair_mod.REGIONS}")
        self.policy_group.addButton(self.regions_button, len(policies))
        policy_layout.addWidget(self.regions_button)
        binary_row = QVBoxLayout()
        binary_row.setContentsMargins(24, 0, 0, 0)
        self.binary_group = QButtonGroup(self)
        self.binary_buttons: dict[str, QRadioButton] = {}
        for i, choice in enumerate(repair_mod.BINARY_CHOICES):
            b = QRadioButton(repair_mod.BINARY_TITLES[choice].capitalize(), policy_box)
            b.setObjectName(f"binary_{choice}")
            self.binary_group.addButton(b, i)
            self.binary_buttons[choice] = b
            binary_row.addWidget(b)
        self.binary_buttons[repair_mod.BINARY_CHOICES[0]].setChecked(True)
        policy_layout.addLayout(binary_row)
        emap = self.encoding_map
        if emap is None:
            self.regions_button.setEnabled(False)
            self.regions_button.setToolTip("Once the scan is complete: it works out the "
                                           "encoding map.")
        else:
            self.regions_button.setToolTip(
                f"{len(emap):,} regions: " + ", ".join(
                    f"{regionlook.short_name(r)}" for r in emap.regions[:6])
                + (" …" if len(emap) > 6 else ""))
        self._binary_enabled()
        layout.addWidget(policy_box)

        preview_box = QGroupBox(self)
        self.preview_box = preview_box
        pv = QVBoxLayout(preview_box)
        self.preview_table = QTableWidget(0, 0, preview_box)
        self.preview_table.setObjectName("repairPreview")
        self.preview_table.setFont(mono)
        self.preview_table.verticalHeader().hide()
        self.preview_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.preview_table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.preview_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.preview_table.setMinimumHeight(150)
        pv.addWidget(self.preview_table)
        self.preview_text = QLabel(preview_box)
        self.preview_text.setObjectName("repairPreviewText")
        self.preview_text.setFont(mono)
        self.preview_text.setWordWrap(True)
        self.preview_text.setTextFormat(Qt.TextFormat.RichText)
        self.preview_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pv.addWidget(self.preview_text)
        layout.addWidget(preview_box, 1)

        counts_box = QGroupBox("The whole file", self)
        cl = QVBoxLayout(counts_box)
        self.counts_label = QLabel("Counting…", counts_box)
        self.counts_label.setObjectName("repairCounts")
        self.counts_label.setWordWrap(True)
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        # Word-wrapped labels get one line from the layout unless told otherwise.
        self.counts_label.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        cl.addWidget(self.counts_label)
        layout.addWidget(counts_box)

        target_row = QHBoxLayout()
        target_row.addWidget(QLabel("Save as:", self))
        self.target_edit = QLineEdit(self)
        self.target_edit.setObjectName("repairTarget")
        self.target_edit.setText(target or self.default_target())
        target_row.addWidget(self.target_edit, 1)
        self.browse_button = QPushButton("Browse…", self)
        self.browse_button.setAutoDefault(False)
        target_row.addWidget(self.browse_button)
        layout.addLayout(target_row)
        self.overwrite = QCheckBox("Replace the target file if it exists (never the inspected "
                                   "file)", self)
        self.overwrite.setObjectName("repairOverwrite")
        layout.addWidget(self.overwrite)

        progress_row = QHBoxLayout()
        self.progress = QProgressBar(self)
        self.progress.setObjectName("repairProgress")
        self.progress.setRange(0, 1000)
        self.progress.hide()
        progress_row.addWidget(self.progress, 1)
        self.message = QLabel(self)
        self.message.setObjectName("repairMessage")
        self.message.setWordWrap(True)
        layout.addLayout(progress_row)
        layout.addWidget(self.message)
        self.summary_view = QPlainTextEdit(self)
        self.summary_view.setObjectName("repairSummary")
        self.summary_view.setReadOnly(True)
        self.summary_view.setFont(mono)
        self.summary_view.setMaximumHeight(130)
        self.summary_view.hide()
        layout.addWidget(self.summary_view)

        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton("Save copy", QDialogButtonBox.ButtonRole.AcceptRole)
        self.save_button.setObjectName("repairSave")
        self.cancel_button = buttons.addButton("Cancel", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button.setObjectName("repairCancel")
        self.cancel_button.setEnabled(False)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)
        self.resize(880, 760)

        self.policy_group.idToggled.connect(lambda _id, on: on and self._policy_changed())
        self.binary_group.idToggled.connect(lambda _id, on: on and self._policy_changed())
        self.save_button.clicked.connect(self.save)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)
        self.browse_button.clicked.connect(self.browse)
        self.target_edit.textEdited.connect(lambda _t: setattr(self, "_browsed_overwrite", False))

        self.refresh_preview()
        self.count_whole_file()
        document.cursorChanged.connect(lambda _offset: self.refresh_preview())

    # ------------------------------------------------------------------ choices
    @property
    def encoding_map(self):
        """The finished scan's encoding map (never worked out here), or None."""
        return regionlook.map_of(self.document.scan)

    @property
    def binary(self) -> str:
        for choice, b in self.binary_buttons.items():
            if b.isChecked():
                return choice
        return repair_mod.KEEP_BINARY

    def set_binary(self, choice: str) -> None:
        self.binary_buttons[choice].setChecked(True)

    def _binary_enabled(self) -> None:
        on = self.regions_button.isChecked()
        for b in self.binary_buttons.values():
            b.setEnabled(on)

    @property
    def policy(self) -> str:
        if self.regions_button.isChecked():
            return repair_mod.REGIONS
        for p, b in self.policy_buttons.items():
            if b.isChecked():
                return p
        return "replace"

    def set_policy(self, policy: str) -> None:
        if policy == repair_mod.REGIONS:
            self.regions_button.setChecked(True)
        else:
            self.policy_buttons[policy].setChecked(True)

    def default_target(self) -> str:
        name = self.document.source.name or "repaired"
        p = Path(name)
        return os.path.join(default_directory(), f"{p.stem}.repaired{p.suffix or '.txt'}")

    def browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save the repaired copy as",
                                              self.target_edit.text() or self.default_target())
        if path:
            self.target_edit.setText(path)
            # The file dialog has already asked whether to replace an existing file.
            self._browsed_overwrite = os.path.exists(path)

    def _policy_changed(self) -> None:
        self._binary_enabled()
        self.refresh_preview()
        self._show_counts()

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #b91c1c;" if error else "")

    # ------------------------------------------------------------------ preview
    def refresh_preview(self) -> None:
        if self.policy == repair_mod.REGIONS and self.encoding_map is not None:
            self._refresh_region_preview()
            return
        doc = self.document
        policies = list(self.policy_buttons)
        pv = repair_mod.preview(doc.source, doc.cursor, policies, doc.dialect, self.PREVIEW_RADIUS)
        self.last_preview = pv
        self.preview_box.setTitle(f"Problems near the cursor (0x{pv.start:X} – 0x{pv.end:X})")
        handlers = list(repair_mod.PYTHON_ERROR_HANDLERS)
        headers = (["Offset", "Bytes", "Kind"] + [POLICY_SHORT.get(p, p) for p in policies]
                   + [f"Python {h}" for h in handlers])
        table = self.preview_table
        table.clear()
        table.clearSpans()   # the last preview's "no problems" row spans the table
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setRowCount(max(len(pv.items), 1))
        chosen = 3 + policies.index(self.policy)
        if not pv.items:
            table.setItem(0, 0, QTableWidgetItem("no problems within "
                                                 f"{self.PREVIEW_RADIUS} bytes of the cursor"))
            table.setSpan(0, 0, 1, len(headers))
        for row, item in enumerate(pv.items):
            cells = ([f"0x{item.offset:X}", item.raw.hex(" ").upper(), item.kind]
                     + [visible_text(item.results[p]) for p in policies]
                     + [visible_text(item.python[h]) for h in handlers])
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if col == chosen:
                    f = cell.font()
                    f.setBold(True)
                    cell.setFont(f)
                table.setItem(row, col, cell)
        header_item = table.horizontalHeaderItem(chosen)
        if header_item is not None:
            header_item.setText("▶ " + header_item.text())
        text = pv.text.get(self.policy, "")
        self.preview_text.setText(
            f"The window with “{POLICY_SHORT.get(self.policy, self.policy)}”: "
            f"{_html(visible_text(text, 160))}<br>"
            f"Python errors='replace': {_html(visible_text(pv.python.get('replace', ''), 160))}")

    def _refresh_region_preview(self) -> None:
        """The region policy near the cursor: one row per region met, its bytes, the
        text they show as UTF-8 now and what the policy makes of them."""
        doc = self.document
        items = repair_mod.preview_regions(doc.source, self.encoding_map, doc.cursor,
                                           self.REGION_RADIUS, self.binary)
        self.last_region_preview = items
        lo = min((i.start for i in items), default=doc.cursor)
        hi = max((i.end for i in items), default=doc.cursor)
        self.preview_box.setTitle(f"Regions near the cursor (0x{lo:X} – 0x{hi:X})")
        headers = ["Offsets", "Encoding", "Bytes", "As UTF-8 now", "▶ Converted"]
        table = self.preview_table
        table.clear()
        table.clearSpans()   # the last preview's "no problems" row spans the table
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setRowCount(max(len(items), 1))
        if not items:
            table.setItem(0, 0, QTableWidgetItem("no region at the cursor"))
            table.setSpan(0, 0, 1, len(headers))
        for row, item in enumerate(items):
            span = item.span
            encoding = span.encoding + (f" via {span.via}" if span.via else "")
            raw = item.raw[:8].hex(" ").upper() + (" …" if len(item.raw) > 8 else "")
            cells = [f"0x{item.start:X} – 0x{max(item.end - 1, item.start):X}", encoding, raw,
                     visible_text(item.before, 64), visible_text(item.after, 64)]
            tips = ["", "", item.raw.hex(" ").upper(), visible_text(item.before, 2000),
                    visible_text(item.after, 2000)]
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(tips[col])
                if col == len(cells) - 1:
                    f = cell.font()
                    f.setBold(True)
                    cell.setFont(f)
                table.setItem(row, col, cell)
        after = "".join(i.after for i in items)
        self.preview_text.setText(
            f"The window converted: {_html(visible_text(after, 240))}")

    REGION_RADIUS = 160

    # ------------------------------------------------------------------ background work
    def _run(self, kind: str, factory) -> None:
        self.cancel()
        worker = workers.GeneratorWorker(factory, interval=0.05)
        s = worker.signals
        s.progress.connect(self._on_progress)
        s.finished.connect(self._on_finished)
        s.failed.connect(self._on_failed)
        s.cancelled.connect(self._on_cancelled)
        self._worker = worker
        self._worker_kind = kind
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.save_button.setEnabled(kind != "save")
        workers.start(worker)

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def _current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def _end(self) -> str:
        kind = self._worker_kind
        self._worker = None
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.save_button.setEnabled(True)
        return kind

    def _on_progress(self, step) -> None:
        if self._current():
            self.progress.setValue(int(1000 * step.done / step.total) if step.total else 1000)

    def _on_finished(self, value) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts = value
            self._show_counts()
        else:
            value, check = value
            self.summary = value
            self.check = check
            self.summary_view.setPlainText(value.describe() + "\n" + check)
            self.summary_view.show()
            if isinstance(value, repair_mod.RegionRepairSummary):
                regions = sum(n for n, _i, _o in value.by_encoding.values())
                self._say(f"Saved. {regions:,} regions converted from their encodings, "
                          f"{value.problems_fixed:,} problem units in UTF-8 regions repaired.")
            else:
                self._say(f"Saved. {value.problems_fixed:,} problem units repaired with "
                          f"“{POLICY_SHORT.get(self.policy, self.policy)}”.")
            self.saved.emit(value)

    def _on_failed(self, error) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts_label.setText(f"Could not count: {error}")
        else:
            self._say(f"Not saved: {error}", error=True)

    def _on_cancelled(self) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts_label.setText("Counting was cancelled.")
        else:
            self._say("Cancelled: nothing was written.")

    def cancel(self) -> None:
        worker = self._worker
        if worker is not None:
            kind = self._end()
            worker.cancel()
            if kind == "save":
                self._say("Cancelled: nothing was written.")
            else:
                self.counts_label.setText("Counting was cancelled.")

    def count_whole_file(self) -> None:
        doc = self.document
        source, dialect = doc.source, doc.dialect
        policies = list(self.policy_buttons)
        self.counts_label.setText("Counting what each policy changes in the whole file…")
        self._run("count", lambda: repair_mod.policy_counts(source, dialect, policies))

    def _show_counts(self) -> None:
        emap = self.encoding_map
        if self.policy == repair_mod.REGIONS and emap is not None:
            parts = ", ".join(f"{regionlook.short_name_of(enc)} {n:,} bytes"
                              for enc, n in emap.bytes_by_encoding().items())
            self.counts_label.setText(
                f"{len(emap):,} regions ({parts}). Binary regions: "
                f"{_html(repair_mod.BINARY_TITLES[self.binary])}.")
            return
        c = self.counts
        if c is None:
            return
        if not c.problem_units and not sum(c.converted.values()):
            self.counts_label.setText(f"No problem units in the file ({c.input_size:,} bytes): "
                                      "the copy would be identical.")
            return
        kinds = ", ".join(f"{n:,} {k}" for k, n in sorted(c.units_by_kind.items()))
        sizes = "; ".join(
            f"{'▶ ' if p == self.policy else ''}{POLICY_SHORT.get(p, p)}: {size:,} bytes"
            for p, size in c.output_size.items())
        extra = ""
        if c.converted:
            extra = " Also converted: " + ", ".join(f"{n:,} {k.replace('_', ' ')}"
                                                   for k, n in c.converted.items()) + "."
        self.counts_label.setText(
            f"{c.problem_units:,} problem units ({kinds}), {c.problem_bytes:,} bytes, "
            f"{c.replacements:,} U+FFFD with the Unicode practice.{extra}<br>"
            f"Size of the copy ({c.input_size:,} bytes now): {sizes}.")

    def save(self, target: str | None = None) -> None:
        """Save with the chosen policy to ``target`` (default: the path in the box)."""
        doc = self.document
        path = target if isinstance(target, str) else self.target_edit.text().strip()
        overwrite = self.overwrite.isChecked() or self._browsed_overwrite
        try:
            check_target(path, doc.path)
            path = repair_mod.check_target(doc.source, path, overwrite)
        except (ValueError, repair_mod.RepairError) as e:
            self._say(f"Not saved: {e}", error=True)
            return
        source, dialect, policy = doc.source, doc.dialect, self.policy
        self.summary_view.hide()
        if policy == repair_mod.REGIONS and self.encoding_map is not None:
            emap, binary = self.encoding_map, self.binary
            self._say(f"Saving with “{POLICY_SHORT[policy]}”…")
            self._run("save", lambda: region_repair_and_check_steps(source, path, emap, binary,
                                                                    overwrite))
            return
        self._say(f"Saving with “{POLICY_SHORT.get(policy, policy)}”…")
        self._run("save", lambda: repair_and_check_steps(source, path, policy, dialect,
                                                         overwrite))

    def reject(self) -> None:
        self.cancel()
        super().reject()


def repair_and_check_steps(source, target: str, policy: str, dialect: str, overwrite: bool):
    """Write the repaired copy, then read it back with the scanner to confirm it is
    valid UTF-8. Yields progress (of both passes); returns (summary, check sentence)."""
    from inspector.core.source.bytesource import FileSource

    summary = yield from repair_mod.repair_steps(source, target, policy, dialect,
                                                 overwrite=overwrite)
    copy = FileSource(target)
    try:
        steps = scanner.scan_steps(copy, dialect="utf-8", sha256=False)
        try:
            while True:
                step = next(steps)
                yield step
        except StopIteration as stop:
            result = stop.value
    finally:
        copy.close()
    if result.error_units == 0:
        return summary, "Checked: the copy reads back as valid UTF-8 (0 errors)."
    return summary, (f"WARNING: the copy reads back with {result.error_units:,} UTF-8 "
                     "errors; please report this.")


def region_repair_and_check_steps(source, target: str, regions, binary: str, overwrite: bool):
    """Write the copy with each region converted from its encoding
    (:func:`inspector.core.analysis.repair.region_repair_steps`), then read it back with
    the scanner. Yields progress; returns (summary, check sentence)."""
    from inspector.core.source.bytesource import FileSource

    summary = yield from repair_mod.region_repair_steps(source, target, regions, binary,
                                                        overwrite=overwrite)
    copy = FileSource(target)
    try:
        result = yield from scanner.scan_steps(copy, dialect="utf-8", sha256=False)
    finally:
        copy.close()
    if result.error_units == 0:
        return summary, "Checked: the copy reads back as valid UTF-8 (0 errors)."
    if binary == repair_mod.KEEP_BINARY and summary.by_encoding.get("binary"):
        return summary, (f"The copy reads back with {result.error_units:,} UTF-8 errors: "
                         "the binary regions kept as they were.")
    return summary, (f"WARNING: the copy reads back with {result.error_units:,} UTF-8 "
                     "errors; please report this.")


def _html(text: str) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
