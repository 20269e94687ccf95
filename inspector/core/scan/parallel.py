"""Parallel work as tasks on a :mod:`concurrent.futures` executor: a large utf-8 stream
is cut into slices at block edges, each slice is a task, and the results are added up in
order. The same executor runs whole files (see :mod:`inspector.core.analysis.batch`).

A task is plain data in and plain data out: :func:`slice_task` gets a dict (the path,
the offsets, the block layout, the options) and gives back a dict of counts, numpy
arrays and the first errors. Nothing is inherited, so the tasks run in a
``ProcessPoolExecutor`` of any start method (``fork``, ``forkserver``, ``spawn``) and on
a Dask cluster through ``distributed``'s ``Client.get_executor()``: a task opens the
file by its path (the workers must see the same paths).

Cutting is local, so the slices can be cut exactly: a slice begins at the first unit
boundary at or after its block edge (found from the few bytes before the edge) and ends
where the next one begins, and the sums equal a one-process scan (a test compares every
count and every array of the index). Each slice's units all start in its own blocks, so
its part of the index is simply added.

Why processes and not threads: CPython's decoder holds the GIL, and most of the counting
is many small numpy calls that hold it between them; two threads ran slower than one,
two processes 1.6-1.8 times faster (2-core machine). The local pool forks when that is
safe (one thread, Linux: it starts in 10-25 ms, the modules already imported), else it
uses ``forkserver`` or ``spawn`` (each worker then imports the scanner, ~0.3 s once).
Who may start processes is the caller's decision, never looked up here: a scan uses
slices only when its caller passes ``workers`` > 1 or an executor (the command line
passes ``--jobs``; the window passes nothing and scans in one worker thread). Its folder
triage sends whole files to an :func:`isolated_pool` (forkserver or spawn: a child never
inherits the window's threads). A pool started here forks only a process that has one
thread (see :func:`start_method`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.scan.results import ScanResult
from inspector.core.units.decoder import Unit
from inspector.core.units.interpretation import interpretation
from inspector.core.scan.utf8path import TEXT_WINDOW, fast_segment
from inspector.core.units.boundaries import boundary_at_or_after

TASK_BYTES = 16 << 20  # one task: long enough that its fixed costs vanish
MIN_PARALLEL_BYTES = 48 << 20  # below this one process is as fast (a pool costs 10-25 ms)
_HASH_STEP = 4 << 20
_LOOKBACK = 8


def usable(source, workers: int, length: int, dialect: str, executor=None) -> bool:
    """Whether a scan of ``length`` bytes of ``source`` may run as slices: on the given
    ``executor``, or on a pool of ``workers`` processes started here."""
    return ((executor is not None or workers > 1) and interpretation(dialect).scanned_by_kernels
            and length >= MIN_PARALLEL_BYTES
            and source.slice_path is not None)


def single_threaded() -> bool:
    """Whether no other thread could hold a lock at the moment of a fork (``start_method``
    forks only then): Python's threads, and on Linux the native ones too (a GUI
    toolkit's, a library's thread pool)."""
    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return True  # no /proc: Python's own threads are all that can be seen


def start_method() -> str:
    """``fork`` where it is safe and available (fast: nothing to import again), else
    ``forkserver``, else ``spawn``."""
    import multiprocessing  # here: a scan that starts no process does not import it

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux") and single_threaded():
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def process_pool(workers: int, method: str | None = None):
    """A local pool of ``workers`` processes for files and slices (a
    ``concurrent.futures.ProcessPoolExecutor``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(method or start_method())
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_child_setup)


def isolated_method() -> str:
    """A start method that never forks the calling process: ``forkserver`` (the
    children fork from a clean server started afresh) where it exists, else
    ``spawn``. Safe from a process with threads (Qt's)."""
    import multiprocessing

    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def isolated_pool(workers: int, preload: tuple[str, ...] = (), nice: int = 0):
    """A pool of ``workers`` processes started with :func:`isolated_method`, usable from
    the window. ``preload``: modules the forkserver imports once, so that each child,
    forked from it, starts with them already imported. ``nice``: added to the children's
    niceness (where there is one), so that they yield the CPU to the window.

    Each child runs the main script again first (multiprocessing's main-module fix-up:
    the parent sends the path of ``__main__``'s file and the child runs it as
    ``__mp_main__``, so that the script's functions pickled by reference can be found;
    a ``python -m`` package's ``__main__`` is not run again, and the forkserver itself
    runs nothing: ``__main__`` is not in ``preload``). A script without an
    ``if __name__ == "__main__":`` guard around its window thus opens a window in each
    child, which never becomes a worker. This is not switched off here: the standard
    library has no public way to (the preparation data are read from
    ``sys.modules["__main__"]`` by an undocumented function of
    ``multiprocessing.spawn``; loky has its own process launcher for this). Hiding
    ``__main__.__file__`` or patching that function would act on the whole process,
    other threads' pools included, whose tasks may be the script's own functions. The
    caller bounds its wait for the first answer instead
    (:class:`inspector.core.analysis.triage.TriagePool`)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(isolated_method())
    if preload and context.get_start_method() == "forkserver":
        context.set_forkserver_preload(list(preload))
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_child_setup, initargs=(nice,))


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _FileReader:
    """The task's own descriptor of the file, read with ``pread``."""

    def __init__(self, fd: int):
        self.fd = fd

    def read_uncached(self, offset: int, length: int) -> bytes:
        if length <= 0:
            return b""
        if hasattr(os, "pread"):
            return os.pread(self.fd, length, offset)
        os.lseek(self.fd, offset, os.SEEK_SET)  # Windows: the task's own descriptor
        return os.read(self.fd, length)


def _child_setup(nice: int = 0) -> None:
    # Ctrl+C reaches the whole process group: the parent alone answers it (and stops
    # the children), so the terminal gets one message, not one traceback per child.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass


def edge_boundary(read, p: int, seg_start: int, seg_end: int) -> int:
    """The first unit boundary of the stream at or after ``p``: where a slice of a
    parallel scan starts or ends."""
    lo = max(seg_start, p - _LOOKBACK)
    buf = read(lo, min(seg_end, p + 16) - lo)
    if len(buf) <= p - lo:
        return p  # the file ended before p: the task finds it short
    return lo + boundary_at_or_after(buf, p - lo, 0)


def slice_task(job: dict) -> dict:
    """Scan one slice (``job``: path, istart, bs, size, seg_start, seg_end, lo, hi,
    max_errors): its counts, its part of the index and where it stopped (short of its
    end if the file shrank); ``error`` and ``at`` if the file cannot be read."""
    lo, hi = job["lo"], job["hi"]
    seg_start, seg_end = job["seg_start"], job["seg_end"]
    istart, bs = job["istart"], job["bs"]
    try:
        fd = os.open(job["path"], os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as e:
        return {"error": e.strerror or str(e), "at": lo}
    try:
        reader = _FileReader(fd)
        a = lo if lo == seg_start else edge_boundary(reader.read_uncached, lo, seg_start, seg_end)
        b = seg_end if hi >= seg_end else edge_boundary(reader.read_uncached, hi, seg_start, seg_end)
        first_blk = (lo - istart) // bs
        # One block more than the task's: its last window may reach a few bytes past hi.
        index = BlockIndex(istart + first_blk * bs, hi + _LOOKBACK, bs, K.UTF8)
        result = ScanResult(job["size"], K.UTF8, a, b, index, job["max_errors"], None)
        reached = a
        for reached in fast_segment(result, index, reader, a, b, TEXT_WINDOW, None,
                                     stream_end=seg_end):
            pass
    except OSError as e:
        return {"error": e.strerror or str(e), "at": lo}
    finally:
        os.close(fd)
    return {
        "first_blk": first_blk, "start": a, "end": b, "reached": reached,
        "units": result.units, "errors": result.errors_by_kind,
        "warnings": result.warnings_by_kind, "replacements": result.replacements,
        "error_bytes": result.error_bytes, "binary_bytes": result.binary_bytes,
        "first_errors": [tuple(u) for u in result.first_errors],
        "arrays": {name: getattr(index, name) for name in _ARRAYS},
        "first_problem": index.first_problem,
    }


_ARRAYS = ("units", "errors", "warnings", "replacements", "error_bytes", "binary", "lf")


def _merge(result, index, part: dict) -> None:
    first = part["first_blk"]
    n = min(index.n_blocks - first, len(part["arrays"]["replacements"]))
    sl = slice(first, first + n)
    for name in _ARRAYS:
        getattr(index, name)[sl] += part["arrays"][name][:n]
    for length, c in part["units"].items():
        result.units[length] += c
    for name, c in part["errors"].items():
        result.errors_by_kind[name] += c
    for name, c in part["warnings"].items():
        result.warnings_by_kind[name] += c
    result.replacements += part["replacements"]
    result.error_bytes += part["error_bytes"]
    result.binary_bytes += part["binary_bytes"]
    room = result.max_errors - len(result.first_errors)
    if room > 0:
        result.first_errors.extend(Unit(*u) for u in part["first_errors"][:room])
    # A block cut by an origin is shared by two tasks: the earlier first problem wins.
    cur = index.first_problem[sl]
    new = part["first_problem"][:n]
    better = (new >= 0) & ((cur < 0) | (new < cur))
    cur[better] = new[better]


def tasks(index, seg_start: int, seg_end: int) -> list[tuple[int, int]]:
    """[lo, hi) pieces of the stream, cut at block edges every TASK_BYTES or so."""
    bs = index.block_size
    step = max(bs, TASK_BYTES // bs * bs)
    edges = [seg_start]
    e = index.start + ((seg_start - index.start) // step + 1) * step
    while e < seg_end:
        edges.append(e)
        e += step
    edges.append(seg_end)
    return list(zip(edges[:-1], edges[1:]))


def segment(result, index, source, seg_start: int, seg_end: int, workers: int, hasher,
            executor=None):
    """Scan the stream [seg_start, seg_end) as slices on ``executor`` (None: a pool of
    ``workers`` processes started for this scan); yields the offset reached after each
    slice is added (in order). Closing the generator cancels what has not started (and
    stops a pool of its own at once)."""
    from inspector.core.source.bytesource import ByteSourceError, display_path

    pieces = tasks(index, seg_start, seg_end)
    path = source.slice_path  # a file's own path, a spool's name
    jobs = [{"path": path, "istart": index.start, "bs": index.block_size,
             "size": result.size, "seg_start": seg_start, "seg_end": seg_end, "lo": lo,
             "hi": hi, "max_errors": result.max_errors} for lo, hi in pieces]
    own = executor is None
    if own:
        executor = process_pool(min(workers, len(pieces)))
    ahead = 2 * (workers if own else max(workers, 2))  # slices in flight: bounded memory
    futures = []
    try:
        hashed = seg_start
        read = source.read_uncached
        submitted = 0
        for k in range(len(pieces)):
            while submitted < len(jobs) and submitted < k + ahead:
                futures.append(executor.submit(slice_task, jobs[submitted]))
                submitted += 1
            future = futures[k]
            # This process hashes the bytes in order while the workers count.
            while hasher is not None and hashed < seg_end and not future.done():
                chunk = read(hashed, min(_HASH_STEP, seg_end - hashed))
                hasher.update(chunk)
                hashed = hashed + len(chunk) if chunk else seg_end
            part = future.result()
            futures[k] = None
            if "error" in part:
                raise ByteSourceError(f"{display_path(source.path)}: read failed near offset "
                                      f"{part['at']:,}: {part['error']}", source.path, "io")
            _merge(result, index, part)
            if k == len(pieces) - 1:
                while hasher is not None and hashed < seg_end:  # what the wait left
                    chunk = read(hashed, min(_HASH_STEP, seg_end - hashed))
                    hasher.update(chunk)
                    hashed = hashed + len(chunk) if chunk else seg_end
            yield part["reached"]
            if part["reached"] < part["end"]:
                return  # the file ended sooner than it said
    finally:
        for f in futures:
            if f is not None:
                f.cancel()
        if own:
            _stop(executor)


def _stop(pool) -> None:
    """Shut a pool of our own down now: its processes are ended, not waited for, and
    its threads are gone when this returns (a later fork must find one thread). The
    pool's attributes are read first: ``shutdown`` forgets them."""
    stop_pool(pool)


class PoolParts:
    """What a ``ProcessPoolExecutor`` is made of, read before ``shutdown`` forgets it:
    its processes, its manager thread and its call queue (with the feeder thread)."""

    __slots__ = ("processes", "manager", "calls")

    def __init__(self, pool):
        self.processes = list((getattr(pool, "_processes", None) or {}).values())
        self.manager = getattr(pool, "_executor_manager_thread", None)
        self.calls = getattr(pool, "_call_queue", None)


def halt_pool(pool) -> PoolParts:
    """The quick half of :func:`stop_pool`, for a thread that must not wait (the UI's):
    queued tasks cancelled, the pool shut down without waiting, its processes sent
    SIGTERM. Returns the parts for :func:`join_pool` to wait for, elsewhere."""
    parts = PoolParts(pool)
    live = getattr(pool, "_processes", None)
    pool.shutdown(wait=False, cancel_futures=True)
    # A process started by a submit between the reading and the shutdown (no submit
    # starts one after it).
    for p in list((live or {}).values()):
        if all(p is not q for q in parts.processes):
            parts.processes.append(p)
    for p in parts.processes:
        try:
            if p.is_alive():
                p.terminate()
        except (OSError, ValueError, AttributeError):
            pass  # already reaped (or closed) by the pool's manager
    return parts


def stop_pool(pool) -> None:
    """Shut a pool down now: its processes ended, not waited for, and its threads gone
    when this returns."""
    join_pool(halt_pool(pool))


# How long a halted process has to end after SIGTERM before it is killed.
JOIN_GRACE = 2.0


def join_pool(parts: PoolParts) -> None:
    """Wait until a halted pool's processes and threads are gone. A process still there
    :data:`JOIN_GRACE` seconds after the SIGTERMs is killed: one that never became a
    worker (stuck in a script's event loop, see :func:`isolated_pool`) may not answer
    SIGTERM, and the pool's manager thread waits for every process."""
    processes, manager, calls = parts.processes, parts.manager, parts.calls
    deadline = time.monotonic() + JOIN_GRACE
    for p in processes:
        try:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.exitcode is None:
                p.kill()
                p.join()
        except (ValueError, AssertionError, OSError):
            pass
    if manager is not None:
        manager.join()
    if calls is not None:  # its feeder thread
        try:
            calls.close()
            calls.join_thread()
        except (OSError, ValueError, AssertionError):
            pass
