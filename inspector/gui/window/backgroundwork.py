"""The window's work off the UI thread, as the status bar shows it: the whole-file scan
(whose life :class:`~inspector.gui.scanlife.ScanLife` owns) and the search for the next
or previous problem.

Both share the status bar's progress bar and Cancel button: the bar goes once neither
runs.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from inspector.core.analysis.scanviews.problemsearch import describe_problem, problem_search_steps
from inspector.core.source.bytesource import ByteSourceError
from inspector.gui.document import Document
from inspector.gui.runtime import crashguard
from inspector.gui.runtime.workers import GeneratorWorker, start as start_worker
from inspector.gui.scanlife import ScanLife
from inspector.gui.window.statusbar import StatusFields


class BackgroundWork(QObject):
    """Shows the scan's progress (``scan``'s signals), runs the problem search of one
    document, and cancels both (the Cancel button).

    A QObject living in the UI thread: the workers' signals come from pool threads, and
    Qt queues calls to this object's slots into the UI thread (where ``sender()`` tells
    which worker reported)."""

    searchFinished = Signal(object)    # the unit found (or None)
    scanCancelled = Signal()           # the user stopped the scan (Cancel)

    def __init__(self, document: Document, scan: ScanLife, status: StatusFields,
                 show_error: Callable[[str, str], None], parent: QObject):
        super().__init__(parent)
        self.document = document
        self.scan = scan
        self.status = status
        self.show_error = show_error
        self._search_worker: GeneratorWorker | None = None
        self._workers: set[GeneratorWorker] = set()  # kept alive until they end
        scan.started.connect(self._scan_started)
        scan.progressed.connect(status.progress.setValue)
        # The result is in: the bar goes now, not when the pool thread has finished
        # tidying up (its "done" comes after it has handed memory back).
        scan.finished.connect(self._hide_progress_if_idle)
        scan.failed.connect(self._scan_failed)
        scan.ended.connect(self._hide_progress_if_idle)
        document.sourceChanged.connect(self._source_changed)

    # ------------------------------------------------------------------ every worker
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

    def _hide_progress_if_idle(self, *_args) -> None:
        if not self.scan.running and self._search_worker is None:
            self.status.hide_progress()

    def _report_failure(self, what: str, error, traceback: str) -> None:
        """A file that cannot be read is a message; anything else is a bug: logged and
        shown with its details (crashguard)."""
        if isinstance(error, (ByteSourceError, OSError)):
            self.show_error(what, f"{what}: {error}")
            return
        crashguard.report_exception(type(error), error, error.__traceback__,
                                    context=f"{what}.\n{traceback}")

    def cancel_all(self) -> None:
        """The Cancel button: stop the scan and the search."""
        was_scanning = self.scan.cancel()
        self.cancel_search()
        self.status.hide_progress()
        if was_scanning:
            self.status.set_verdict("scan cancelled")
            self.status.scan_cancelled()
            self.scanCancelled.emit()

    def wait(self, timeout: float) -> None:
        """Block until every worker started has ended (each given ``timeout``)."""
        self.scan.wait(timeout)
        for w in list(self._workers):
            w.wait(timeout)

    # ------------------------------------------------------------------ the scan
    def _source_changed(self) -> None:
        self.cancel_search()
        self.status.set_verdict("")   # not the last file's
        if self.document.path is None:
            self.status.hide_progress()

    def _scan_started(self) -> None:
        self.status.set_verdict("scanning…")
        self.status.show_progress(0)

    def _scan_failed(self, error, traceback: str) -> None:
        self.status.hide_progress()
        self.status.set_verdict(f"scan failed: {error}", f"The whole-file scan stopped: {error}")
        self._report_failure("The whole-file scan failed", error, traceback)

    # ------------------------------------------------------------------ the problem search
    def find_problem(self, forward: bool = True) -> None:
        """Move to the next (previous) problem unit, searching off the UI thread."""
        self.cancel_search()
        d = self.document
        if d.size == 0:
            self.status.note.setText("no further problem (the file is empty)")
            return
        source, origin, dialect, cursor = d.source, d.origin, d.interpretation, d.cursor
        scan = d.scan
        index = scan.index if scan is not None else None
        holder: list[GeneratorWorker] = []

        def cancelled() -> bool:
            return bool(holder) and holder[0].is_cancelled()

        worker = GeneratorWorker(
            lambda: problem_search_steps(source, cursor, origin, dialect, index, forward,
                                         cancelled),
            interval=0.2)
        holder.append(worker)
        worker.forward = forward
        worker.source = source
        self._search_worker = worker
        self._workers.add(worker)
        sig = worker.signals
        sig.finished.connect(self._on_search_done)
        sig.failed.connect(self._on_search_failed)
        sig.done.connect(self._on_worker_done)
        self.status.note.setText("searching for the " + ("next" if forward else "previous") + " problem…")
        start_worker(worker)

    def cancel_search(self) -> None:
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
            self.status.note.setText("no further problem" if worker.forward
                                     else "no earlier problem")
        else:
            self.status.note.setText(describe_problem(unit))
            self.document.set_cursor(unit.offset, reveal=True)
        self.searchFinished.emit(unit)

    def _on_search_failed(self, error) -> None:
        worker = self._worker_of(self.sender())
        if worker is None or worker is not self._search_worker:
            return
        self._search_worker = None
        self.status.note.setText(f"the search failed: {error}")
        self._report_failure("The search for a problem failed", error, worker.traceback)
        self.searchFinished.emit(None)
