"""Run a plain, cancellable core generator off the UI thread.

The core's long jobs (the whole-file scan, searching for the next problem) are
generators that yield progress and ``return`` their result. :class:`GeneratorWorker`
runs one in ``QThreadPool``; between two steps it checks an abort flag, and it reports
through the signals of a separate ``QObject`` (queued into the UI thread), so it never
touches a widget. Progress is throttled: at most one report per ``interval`` seconds. A
generator that raises reports the exception as a failure, it never leaves the UI
waiting.

Memory. The worker is a plain Python object handed to the pool as a callable, not a
``QRunnable`` subclass: ``QThreadPool.start(runnable)`` transfers the wrapper to C++,
and with auto-delete off (needed so Qt does not delete it under Python) the wrapper was
never released, so every worker ever started stayed alive with its generator's closure
(a search's closure holds the scan's block index: 7 MiB on a 4 GiB file). The pool lets
go of a callable when it returns. When the run ends the worker also drops its factory,
which frees what the closure captured even if something still holds the worker.

A worker hands the C library's free memory back to the system when it ends (unless
made with ``release_memory=False``): the scan reads the file in buffers of 256 KiB to
1 MiB and builds numpy arrays per window in a pool thread, and glibc kept those freed
buffers in its arenas (measured: 160 MiB free inside malloc after the scans of 2,000
endurance steps on a 1 GiB file, all of it counted in the resident size). The trim runs
in the pool thread, after the last result has been handed over.
"""

from __future__ import annotations

import atexit
import ctypes
import linecache
import sys
import threading
import time
import traceback
from typing import Any, Callable, Generator

from PySide6.QtCore import QObject, QThreadPool, Signal

# The window's process policy, passed to every scan it starts: one scan runs in one pool
# thread and starts no process (forking a process with Qt's threads is unsafe, and the
# core never looks this up: the caller says). The folder triage has a pool of its own,
# started without forking (see inspector.core.analysis.triage).
SCAN_WORKERS = 1


class WorkerSignals(QObject):
    progress = Signal(object)   # the latest value the generator yielded
    finished = Signal(object)   # the generator's return value
    failed = Signal(object)     # the exception it raised
    cancelled = Signal()
    done = Signal()             # always, last, whichever way it ended


def _load_malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The symbols the process has loaded, the C library's among them: no search
        # (ctypes.util.find_library runs ldconfig in a subprocess, ~9 ms of start-up).
        trim = ctypes.CDLL(None).malloc_trim  # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


# The C library's malloc_trim, None where there is none (not glibc: another system is
# played by setting it to None).
malloc_trim = _load_malloc_trim()

M_MMAP_THRESHOLD = -3        # glibc's mallopt parameter (malloc.h)
MMAP_THRESHOLD = 128 * 1024  # glibc's own default, kept fixed


def fix_mmap_threshold() -> bool:
    """Keep glibc's mmap threshold at 128 KiB. A malloc that large gets a mapping of
    its own, handed back to the system when freed; but glibc raises the threshold to the
    size of each such block freed (up to 32 MiB), after which the scan's read buffers
    (256 KiB to 1 MiB, hundreds a second, in the pool thread) come from the thread's
    arena and stay resident there, fragmented (malloc_trim gave back only part of it).
    Setting the threshold turns the raising off. Measured after the scan of a 1 GiB
    file (bench_pages memory file, offscreen): 120 MiB resident instead of 123-130.
    Returns whether it could (glibc only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
# How many times release_memory asked the C library to give memory back (for tests).
trim_count = 0


def release_memory() -> bool:
    """Give the C library's free heap pages back to the system (glibc's
    ``malloc_trim(0)``: every arena, including the pool threads', and the free pages
    inside them, not only the top). Returns whether it could. A no-op elsewhere.

    First the source lines in ``linecache`` go: PySide6's import hook reads the source
    of every module imported after it (to look for "PySide6"), and ``inspect`` keeps
    each one there, some 2 MiB after a scan's lazy imports (a traceback reads the lines
    it needs again)."""
    global trim_count
    linecache.clearcache()
    if malloc_trim is None:
        return False
    malloc_trim(0)
    trim_count += 1
    return True


class GeneratorWorker:
    """Runs ``factory()`` (which returns a generator) in a pool thread.

    ``release_memory``: when the run ends (finished, failed or cancelled), return the
    C library's free memory to the system, from the pool thread (see the module's note;
    a trim takes well under a millisecond to a few milliseconds).

    ``publish``: turns a step into what the progress signal carries, called in the pool
    thread while the generator waits, and only for the steps that are reported. A
    generator that yields an object it goes on writing (a scan's growing result) hands
    the user interface a frozen copy this way, made where the writing happens; the
    return value is handed over as it is (the generator has ended: nobody writes it)."""

    def __init__(self, factory: Callable[[], Generator[Any, None, Any]],
                 interval: float = 0.1, release_memory: bool = True,
                 publish: Callable[[Any], Any] | None = None):
        self._factory: Callable[[], Generator[Any, None, Any]] | None = factory
        self._publish = publish or (lambda step: step)
        self._interval = interval
        self._release_memory = release_memory
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
        gen = None
        try:
            factory, self._factory = self._factory, None
            if factory is None:
                raise RuntimeError("this worker has already run")
            gen = factory()
            del factory
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
                        signals.progress.emit(self._publish(latest))
                    signals.finished.emit(stop.value)
                    return
                pending = True
                now = time.monotonic()
                if now - last >= self._interval:
                    last = now
                    pending = False
                    signals.progress.emit(self._publish(latest))
        except BaseException as e:  # report everything: a silent worker hangs the UI's note
            self.traceback = traceback.format_exc()
            if self._abort.is_set():
                signals.cancelled.emit()
            else:
                signals.failed.emit(e)
        finally:
            # What the generator built (its frame, the last progress value) goes now,
            # before the trim, so the trim sees it freed.
            gen = latest = None
            if self._release_memory:
                release_memory()
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
    # A callable, not a QRunnable: the pool drops it when it returns (see the module's
    # note on memory).
    pool().start(worker.run)
    return worker


def stop_running_workers(timeout: float = 2.0) -> None:
    """Cancel every worker that still runs and give them ``timeout`` seconds to stop.
    Called at interpreter exit, so no pool thread emits through signals that PySide is
    tearing down."""
    running = [w for w in _live if not w.is_finished]
    for w in running:
        w.cancel()
    deadline = time.monotonic() + timeout
    for w in running:
        w.wait(max(0.0, deadline - time.monotonic()))


atexit.register(stop_running_workers)


def call_in_worker(func: Callable[..., Any], *args, **kwargs) -> GeneratorWorker:
    """A one-shot function run the same way (its result comes through ``finished``)."""
    def steps():
        return func(*args, **kwargs)
        yield  # pragma: no cover - makes this a generator

    return GeneratorWorker(steps)
