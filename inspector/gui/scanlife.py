"""The whole-file scan's life, from one owner: which scan runs, for which bytes and which
dialect, when it starts again, and what the document is handed.

:class:`ScanLife` sits beside a :class:`~inspector.gui.document.Document` and is the only
writer of its scan. It follows the document: a new file starts a scan (after the first
paint: the scan must not delay showing the file), a new dialect starts it again, closing
the file stops it. While the scan runs the document gets frozen snapshots of its counts;
at the end the finished result and its verdict, once (see
:func:`~inspector.core.analysis.judgedscan.judged_scan_steps`). A document without a
ScanLife (a test's, a dialog's) is scanned only by whoever calls ``set_scan``.

The signals tell the window's status bar how it goes; they never carry anything the
document does not hold already.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.gui.runtime.courtesy import UserActivity, courteous
from inspector.gui.runtime.firstpaint import AfterPaint
from inspector.gui.runtime.workers import (SCAN_WORKERS, GeneratorWorker, release_memory,
                                           start as start_worker)


def snapshot_of(step):
    """What the scan's progress hands the window: a frozen copy of the counts so far,
    made in the scan's thread (None: a step with nothing to show)."""
    return None if step is None else step.snapshot()


class ScanLife(QObject):
    """Starts, restarts and stops the whole-file scan of ``document``.

    A QObject living in the UI thread: the worker's signals come from a pool thread and
    Qt queues them here (``sender()`` tells which worker reported; a worker that is no
    longer the current one is not listened to)."""

    started = Signal()                 # a scan began
    progressed = Signal(int)           # how far, in thousandths
    finished = Signal(object)          # the finished result (None when the scan failed)
    failed = Signal(object, str)       # the error and the worker's traceback
    ended = Signal()                   # the worker is done, whichever way

    def __init__(self, document, activity: UserActivity | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.activity = activity or UserActivity()
        # Scan each file opened, again for each dialect (off: only start() scans; a
        # benchmark or a test that wants a big file without its scan).
        self.auto_start = True
        self._worker: GeneratorWorker | None = None
        self._workers: set[GeneratorWorker] = set()   # kept alive until they end
        # The verdict judges the file as UTF-8: a scan in another encoding carries the
        # last UTF-8 scan's verdict on the same bytes (and the source it was of).
        self._verdict = None
        self._verdict_source = None
        # The views whose paint of a new file comes before its scan (see look_first).
        self._ports: tuple = ()
        self._after_look: AfterPaint | None = None
        self._held = False              # see hold()
        self._start_when_released = False
        document.sourceChanged.connect(self._source_changed)
        document.dialectChanged.connect(self._dialect_changed)

    # ------------------------------------------------------------------ following
    def look_first(self, ports) -> None:
        """A new file's scan starts once ``ports`` (the panes' viewports) have painted
        it, when they are on screen: the scan's thread would take the interpreter from
        the file's first look (a window not shown scans at once)."""
        self._ports = tuple(ports)

    # A window on screen that does not paint (minimized, covered) scans after this.
    LOOK_PATIENCE_MS = 1000

    def _source_changed(self) -> None:
        self.cancel()
        if self.auto_start and self.document.path is not None:
            if self._ports and all(port.isVisible() for port in self._ports):
                self._after_look = AfterPaint(self._ports, self._looked, self,
                                              self.LOOK_PATIENCE_MS)
            else:
                QTimer.singleShot(0, self.start_if_needed)

    def hold(self) -> None:
        """A scan that has waited for the panes' paint waits also for :meth:`release`:
        the window's first file waits for the rest of the window's first look (its
        docks, built after the panes' paint: the scan's thread stretched their ~17 ms
        of CPU to 40-80 ms)."""
        self._held = True

    def release(self) -> None:
        self._held = False
        if self._start_when_released:
            self._start_when_released = False
            self.start_if_needed()

    def _looked(self) -> None:
        self._forget_look()
        if self._held:
            self._start_when_released = True
        else:
            self.start_if_needed()

    def _forget_look(self) -> None:
        waiter, self._after_look = self._after_look, None
        if waiter is not None:
            waiter.cancel()
            waiter.deleteLater()

    def _dialect_changed(self, _name: str) -> None:
        if self.auto_start and self.document.path is not None:
            self.restart()

    # ------------------------------------------------------------------ state
    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def complete(self) -> bool:
        """The scan has finished and its result is the document's."""
        scan = self.document.scan
        return self._worker is None and scan is not None and scan.complete

    # ------------------------------------------------------------------ control
    def start(self) -> None:
        """Scan the document's bytes in the current dialect (a running scan stops)."""
        self.cancel()
        # Imported with the first scan, which comes after the first look: the scanner's
        # modules are not needed to show a file.
        from inspector.core.analysis.judgedscan import judged_scan_steps

        d = self.document
        source, dialect, activity = d.source, d.interpretation, self.activity
        carried = self._verdict if self._verdict_source is source else None
        worker = GeneratorWorker(
            lambda: courteous(judged_scan_steps(source, dialect, known_verdict=carried,
                                                workers=SCAN_WORKERS),
                              activity, worker.is_cancelled),
            interval=0.1, publish=snapshot_of)
        worker.source, worker.dialect = source, dialect
        self._worker = worker
        self._workers.add(worker)
        sig = worker.signals
        sig.progress.connect(self._on_progress)
        sig.finished.connect(self._on_finished)
        sig.failed.connect(self._on_failed)
        sig.done.connect(self._on_done)
        self.started.emit()
        start_worker(worker)

    def restart(self) -> None:
        """Forget the scan the document has (another dialect's) and scan again."""
        self.cancel()
        self.document.set_scan(None)
        self.start()

    def start_if_needed(self) -> None:
        """Scan the open file unless a scan runs or its result is in."""
        d = self.document
        if d.path is not None and self._worker is None and d.scan is None:
            self.start()

    def cancel(self) -> bool:
        """Stop the running scan, and forget one waiting to start (for the panes' paint,
        see look_first; for release, see hold); says whether one ran."""
        self._forget_look()
        self._start_when_released = False
        worker, self._worker = self._worker, None
        if worker is None:
            return False
        worker.cancel()
        return True

    def wait(self, timeout: float) -> None:
        """Block until every worker started has ended (each given ``timeout``)."""
        for w in list(self._workers):
            w.wait(timeout)

    # ------------------------------------------------------------------ the worker
    def _current(self) -> GeneratorWorker | None:
        worker = self._worker
        if worker is None or self.sender() is not worker.signals:
            return None
        d = self.document
        if worker.source is not d.source or worker.dialect != d.interpretation:
            return None
        return worker

    def _on_progress(self, progress) -> None:
        if progress is None or self._current() is None:
            return  # None: a step with nothing to show (the tables, the verdict)
        self.progressed.emit(int(progress.done * 1000 // max(progress.total, 1)))
        self.document.set_scan(progress.result)

    def _on_finished(self, judged) -> None:
        if self._current() is None:
            return
        self._worker = None
        if judged.verdict is not None:
            self._verdict, self._verdict_source = judged.verdict, self.document.source
        self.document.set_scan(judged.result, judged.verdict)
        self.finished.emit(judged.result)

    def _on_failed(self, error) -> None:
        worker = self._current()
        if worker is None:
            return
        self._worker = None
        self.failed.emit(error, worker.traceback)
        self.finished.emit(None)

    def _on_done(self) -> None:
        for w in list(self._workers):
            if w.signals is self.sender():
                self._workers.discard(w)
        # The worker trimmed the C library's heap as it ended, but what its thread
        # allocated and the window let go of only since (the last progress copy of the
        # counts, replaced by the result) stayed in that thread's arena: measured after
        # the scan of a 1 GiB file, ~1 MiB resident in free pages, handed back here.
        release_memory()
        # And the warning tables' pages the scan looked at (all of them on random
        # bytes: 3.3 MiB), which the window's pages need only a few of.
        from inspector.core.scan import tables

        tables.release_pages()
        self.ended.emit()
