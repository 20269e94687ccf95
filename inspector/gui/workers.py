"""Run a plain, cancellable core generator off the UI thread.

The core's long jobs (the whole-file scan, searching for the next problem) are
generators that yield progress and ``return`` their result. :class:`GeneratorWorker`
runs one in ``QThreadPool``; between two steps it checks an abort flag, and it reports
through the signals of a separate ``QObject`` (queued into the UI thread), so it never
touches a widget. Progress is throttled: at most one report per ``interval`` seconds. A
generator that raises reports the exception as a failure, it never leaves the UI
waiting.
"""

from __future__ import annotations

import threading
import time
import traceback
from typing import Any, Callable, Generator

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class WorkerSignals(QObject):
    progress = Signal(object)   # the latest value the generator yielded
    finished = Signal(object)   # the generator's return value
    failed = Signal(object)     # the exception it raised
    cancelled = Signal()
    done = Signal()             # always, last, whichever way it ended


class GeneratorWorker(QRunnable):
    """Runs ``factory()`` (which returns a generator) in a pool thread."""

    def __init__(self, factory: Callable[[], Generator[Any, None, Any]],
                 interval: float = 0.1):
        super().__init__()
        self.setAutoDelete(False)  # Python keeps it alive; Qt must not delete it under us
        self._factory = factory
        self._interval = interval
        self._abort = threading.Event()
        self._finished = threading.Event()
        self.signals = WorkerSignals()
        self.traceback = ""

    # The generator may poll this too (it is passed as the ``cancel`` callable).
    def is_cancelled(self) -> bool:
        return self._abort.is_set()

    def cancel(self) -> None:
        self._abort.set()

    @property
    def is_finished(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the run ended (for shutdown and tests)."""
        return self._finished.wait(timeout)

    def run(self) -> None:  # in a pool thread
        signals = self.signals
        try:
            gen = self._factory()
            last = 0.0
            latest = None
            pending = False
            while True:
                if self._abort.is_set():
                    gen.close()
                    signals.cancelled.emit()
                    return
                try:
                    latest = next(gen)
                except StopIteration as stop:
                    if self._abort.is_set():
                        signals.cancelled.emit()
                        return
                    if pending:
                        signals.progress.emit(latest)
                    signals.finished.emit(stop.value)
                    return
                pending = True
                now = time.monotonic()
                if now - last >= self._interval:
                    last = now
                    pending = False
                    signals.progress.emit(latest)
        except BaseException as e:  # report everything: a silent worker hangs the UI's note
            self.traceback = traceback.format_exc()
            if self._abort.is_set():
                signals.cancelled.emit()
            else:
                signals.failed.emit(e)
        finally:
            self._finished.set()
            signals.done.emit()


def pool() -> QThreadPool:
    return QThreadPool.globalInstance()


# Workers that are still running. Whoever started one may drop it (a dialog closed
# mid-job); the pool thread would then emit through a deleted QObject.
_live: list[GeneratorWorker] = []


def start(worker: GeneratorWorker) -> GeneratorWorker:
    """Run a worker in the pool, keeping it alive until it has ended."""
    _live[:] = [w for w in _live if not w.is_finished]
    _live.append(worker)
    pool().start(worker)
    return worker


def call_in_worker(func: Callable[..., Any], *args, **kwargs) -> GeneratorWorker:
    """A one-shot function run the same way (its result comes through ``finished``)."""
    def steps():
        return func(*args, **kwargs)
        yield  # pragma: no cover - makes this a generator

    return GeneratorWorker(steps)
