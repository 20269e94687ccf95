"""File > Export (JSON report, CSV of every error unit, self-contained HTML report); the
repair dialog (File > Save repaired copy) is in :mod:`inspector.gui.dialogs.repair` and
shares the background work of this module.

The jobs themselves are :mod:`inspector.core.analysis.exportjobs`'; this module asks
for the target and runs a job in a background worker (``inspector.gui.runtime.workers``)
behind a progress dialog with Cancel. Nothing is ever written
onto the inspected file: a target that is the inspected file, also through a symbolic or
hard link, is refused before any work starts, and every output is written to a
temporary file beside the target and renamed into place only when complete, so a
cancelled or failed export leaves nothing half-written (both:
:mod:`inspector.core.source.safewrite`).

For tests (and scripts) each action takes the target path directly; the real menus ask
with ``QFileDialog``, starting in the user's Documents folder (or home), never next to
the inspected file.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QProgressDialog, QWidget

from inspector.core.analysis.exportjobs import CSV, HTML, JSON, export_steps
from inspector.core.source.safewrite import WriteRefused, check_target
from inspector.gui.runtime import workers

FORMATS = {
    JSON: ("JSON report", "JSON files (*.json)", ".json"),
    CSV: ("CSV of every error unit", "CSV files (*.csv)", ".csv"),
    HTML: ("HTML report", "HTML files (*.html *.htm)", ".html"),
}


# ------------------------------------------------------------------ paths

def default_directory() -> str:
    """The user's Documents folder, else home: exports never land next to the evidence
    by default."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if docs and os.path.isdir(docs):
        return docs
    return str(Path.home())


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
            target = check_target(path, doc.source)
        except WriteRefused as e:
            self._tell("refused", str(e))
            return None
        reading = doc.interpretation
        # A UTF-8 dialect by name, another encoding as its interpretation (its own cut).
        dialect = reading.name if reading.is_utf8 else reading
        source, scan = doc.source, doc.scan
        findings = self.findings() if self.findings is not None and kind != CSV else None
        title = f"Exporting the {FORMATS[kind][0]}"
        task = BackgroundTask(title, lambda: export_steps(kind, source, dialect, scan, target,
                                                          findings, workers=workers.SCAN_WORKERS),
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
