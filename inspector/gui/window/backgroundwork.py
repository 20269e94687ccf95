"""The window's work off the UI thread: the whole-file scan (restarted when the dialect
changes, cancelled when another file is opened) and the search for the next or previous
problem.

Both run as :class:`~inspector.gui.runtime.workers.GeneratorWorker` jobs and share the
status bar's progress bar and Cancel button: the bar goes once neither runs.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.scan import navigation
from inspector.core.source.bytesource import ByteSourceError
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.gui.document import Document
from inspector.gui.runtime import crashguard
from inspector.gui.runtime.courtesy import UserActivity, courteous
from inspector.gui.runtime.workers import SCAN_WORKERS, GeneratorWorker, start as start_worker
from inspector.gui.window.statusbar import StatusFields


def problem_search_steps(source, cursor: int, origin, dialect: str, index, forward: bool,
                         cancelled: Callable[[], bool]):
    """A generator (for a worker) that returns the next (previous) problem unit after
    (before) the unit under ``cursor``, or None."""
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


def _snapshot_of(step):
    """What the scan's progress hands the window: a frozen copy of the counts so far,
    made in the scan's thread (None: a step with nothing to show)."""
    return None if step is None else step.snapshot()


def describe_problem(unit) -> str:
    """The status bar's note for a problem found."""
    if unit.is_error:
        what = K.title(unit.kind)
    else:
        what = ", ".join(K.title(w) for w in unit.warnings)
    return f"problem at 0x{unit.offset:X}: {what}"


class BackgroundWork(QObject):
    """Starts, watches and cancels the scan and the problem search of one document.

    A QObject living in the UI thread: the workers' signals come from pool threads, and
    Qt queues calls to this object's slots into the UI thread (where ``sender()`` tells
    which worker reported)."""

    scanFinished = Signal(object)      # the result set (None when the scan failed)
    searchFinished = Signal(object)    # the unit found (or None)
    scanCancelled = Signal()           # the user stopped the scan (Cancel)

    def __init__(self, document: Document, status: StatusFields, activity: UserActivity,
                 show_error: Callable[[str, str], None], parent: QObject):
        super().__init__(parent)
        self.document = document
        self.status = status
        self.activity = activity
        self.show_error = show_error
        self._scan_worker: GeneratorWorker | None = None
        self._search_worker: GeneratorWorker | None = None
        self._workers: set[GeneratorWorker] = set()  # kept alive until they end

    # ------------------------------------------------------------------ every worker
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
            self.status.hide_progress()

    def _report_failure(self, what: str, worker: GeneratorWorker, error) -> None:
        """A file that cannot be read is a message; anything else is a bug: logged and
        shown with its details (crashguard)."""
        if isinstance(error, (ByteSourceError, OSError)):
            self.show_error(what, f"{what}: {error}")
            return
        crashguard.report_exception(type(error), error, error.__traceback__,
                                    context=f"{what}.\n{worker.traceback}")

    def cancel_all(self) -> None:
        """The Cancel button: stop the scan and the search."""
        was_scanning = self._scan_worker is not None
        self.cancel_scan()
        self.cancel_search()
        self.status.hide_progress()
        if was_scanning:
            self.status.set_verdict("scan cancelled")
            self.status.scan_cancelled()
            self.scanCancelled.emit()

    def wait(self, timeout: float) -> None:
        """Block until every worker started has ended (each given ``timeout``)."""
        for w in list(self._workers):
            w.wait(timeout)

    # ------------------------------------------------------------------ the scan
    def start_scan(self) -> None:
        """Scan the whole file in the background (restarted for a new dialect)."""
        self.cancel_scan()
        d = self.document
        source, dialect = d.source, d.dialect
        activity = self.activity
        worker = GeneratorWorker(
            lambda: courteous(judged_scan_steps(source, dialect, workers=SCAN_WORKERS), activity,
                              worker.is_cancelled),
            interval=0.1, publish=_snapshot_of)
        worker.source = source
        worker.dialect = dialect
        self._scan_worker = worker
        self._watch(worker, self._on_scan_done, self._on_scan_failed, self._on_scan_progress)
        self.status.set_verdict("scanning…")
        self.status.show_progress(0)
        start_worker(worker)

    def start_scan_if_needed(self) -> None:
        """Scan the open file unless a scan runs or its result is in."""
        if self.document.path is not None and self._scan_worker is None and self.document.scan is None:
            self.start_scan()

    @property
    def scan_complete(self) -> bool:
        """The whole-file scan has finished and its result is the document's."""
        scan = self.document.scan
        return self._scan_worker is None and scan is not None and scan.complete

    def cancel_scan(self) -> None:
        if self._scan_worker is not None:
            self._scan_worker.cancel()
            self._scan_worker = None

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
        self.status.progress.setValue(int(progress.done * 1000 // max(progress.total, 1)))
        # The docks fill in while the scan runs, from a snapshot of its counts (the
        # worker goes on writing its own).
        self.document.set_scan(progress.result)

    def _on_scan_done(self, judged) -> None:
        if self._current_scan_worker() is None:
            return
        self._scan_worker = None
        # The result is in: the bar goes now, not when the pool thread has finished
        # tidying up (its "done" comes after it has handed memory back).
        self._hide_progress_if_idle()
        self.document.set_scan(judged.result, judged.verdict)
        self.scanFinished.emit(judged.result)

    def _on_scan_failed(self, error) -> None:
        worker = self._current_scan_worker()
        if worker is None:
            return
        self._scan_worker = None
        self.status.hide_progress()
        self.status.set_verdict(f"scan failed: {error}", f"The whole-file scan stopped: {error}")
        self._report_failure("The whole-file scan failed", worker, error)
        self.scanFinished.emit(None)

    # ------------------------------------------------------------------ the problem search
    def find_problem(self, forward: bool = True) -> None:
        """Move to the next (previous) problem unit, searching off the UI thread."""
        self.cancel_search()
        d = self.document
        if d.size == 0:
            self.status.note.setText("no further problem (the file is empty)")
            return
        source, origin, dialect, cursor = d.source, d.origin, d.dialect, d.cursor
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
        self._watch(worker, self._on_search_done, self._on_search_failed, None)
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
        self._report_failure("The search for a problem failed", worker, error)
        self.searchFinished.emit(None)
