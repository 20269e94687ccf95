"""The utf-8 scan on several cores: the region is cut into tasks at block edges, each
task is scanned in a forked process, and the parent adds up the results in order.

Cutting is local, so the tasks can be cut exactly: a task begins at the first unit
boundary at or after its block edge (found from the few bytes before the edge) and ends
where the next one begins, and the parent's sums equal a one-process scan (a test
compares every count and every array of the index). Each task's units all start in its
own blocks, so its slice of the index is simply added.

Why processes and not threads: CPython's decoder holds the GIL, and most of the counting
is many small numpy calls that hold it between them; two threads ran slower than one,
two processes 1.6-1.8 times faster (2-core machine). Why ``fork``: the children inherit
the open descriptor (they read the very file the parent opened, even if its path now
names another one) and the imported modules, so a pool of two starts in 10-25 ms, not
the ~330 ms of starting interpreters that import the scanner (measured here). Forking is only safe from a process with one thread, so this is
for the command line and library callers; the GUI scans in one worker thread (and
steps aside while the user navigates).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.scan.results import ScanResult
from inspector.core.scan.utf8path import TEXT_WINDOW, boundary_at_or_after, fast_segment

TASK_BYTES = 16 << 20  # one task: long enough that its fixed costs vanish
MIN_PARALLEL_BYTES = 48 << 20  # below this one process is as fast (a pool costs 10-25 ms)
_HASH_STEP = 4 << 20
_LOOKBACK = 8

_FD: int | None = None  # the parent's descriptor, inherited by the forked children


def usable(source, workers: int, length: int, dialect: str) -> bool:
    """Whether a scan of ``length`` bytes of ``source`` may run on ``workers`` processes."""
    return (workers > 1 and dialect == K.UTF8 and length >= MIN_PARALLEL_BYTES
            and getattr(source, "_fd", None) is not None
            and sys.platform.startswith("linux")
            and "fork" in multiprocessing.get_all_start_methods()
            and _single_threaded())


def _single_threaded() -> bool:
    """No other thread could hold a lock at the moment of a fork: Python knows of no
    other thread, and no Qt application runs (Qt's threads are invisible to Python;
    Qt is looked up, never imported, here)."""
    return threading.active_count() == 1 and not _qt_application_running()


def _qt_application_running() -> bool:
    qtcore = sys.modules.get("PySide6.QtCore")
    app = getattr(qtcore, "QCoreApplication", None)
    return app is not None and app.instance() is not None


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _ForkedReader:
    """The inherited descriptor, read without the parent's lock (which another thread of
    the parent may have held at the moment of the fork)."""

    def __init__(self, fd: int):
        self.fd = fd

    def read_uncached(self, offset: int, length: int) -> bytes:
        return os.pread(self.fd, length, offset) if length > 0 else b""


def _child_setup() -> None:
    # Ctrl+C reaches the whole process group: the parent alone answers it (and stops
    # the children), so the terminal gets one message, not one traceback per child.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _edge_boundary(read, p: int, seg_start: int, seg_end: int) -> int:
    """The first unit boundary of the stream at or after ``p``."""
    lo = max(seg_start, p - _LOOKBACK)
    buf = read(lo, min(seg_end, p + 16) - lo)
    if len(buf) <= p - lo:
        return p  # the file ended before p: the task finds it short
    return lo + boundary_at_or_after(buf, p - lo, 0)


def _task(args):
    """Scan one task in a child: returns its counts, its slice of the index and where it
    stopped (short of its end if the file shrank)."""
    istart, bs, size, seg_start, seg_end, lo, hi, max_errors = args
    reader = _ForkedReader(_FD)
    try:
        a = lo if lo == seg_start else _edge_boundary(reader.read_uncached, lo, seg_start, seg_end)
        b = seg_end if hi >= seg_end else _edge_boundary(reader.read_uncached, hi, seg_start, seg_end)
        first_blk = (lo - istart) // bs
        # One block more than the task's: its last window may reach a few bytes past hi.
        index = BlockIndex(istart + first_blk * bs, hi + _LOOKBACK, bs, K.UTF8)
        result = ScanResult(size, K.UTF8, a, b, index, max_errors, None)
        reached = a
        for reached in fast_segment(result, index, reader, a, b, TEXT_WINDOW, None,
                                     stream_end=seg_end):
            pass
    except OSError as e:
        return {"error": e.strerror or str(e), "at": lo}
    return {
        "first_blk": first_blk, "start": a, "end": b, "reached": reached,
        "units": result.units, "errors": result.errors_by_kind,
        "warnings": result.warnings_by_kind, "replacements": result.replacements,
        "error_bytes": result.error_bytes, "binary_bytes": result.binary_bytes,
        "first_errors": result.first_errors,
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
        result.first_errors.extend(part["first_errors"][:room])
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


def segment(result, index, source, seg_start: int, seg_end: int, workers: int, hasher):
    """Scan the stream [seg_start, seg_end) on ``workers`` processes; yields the offset
    reached after each task is added (in order). Closing the generator stops the
    children at once."""
    global _FD
    from inspector.core.source.bytesource import ByteSourceError, display_path

    pieces = tasks(index, seg_start, seg_end)
    args = [(index.start, index.block_size, result.size, seg_start, seg_end, lo, hi,
             result.max_errors) for lo, hi in pieces]
    _FD = source._fd
    pool = multiprocessing.get_context("fork").Pool(min(workers, len(pieces)), _child_setup)
    try:
        answers = pool.imap(_task, args)
        hashed = seg_start
        read = getattr(source, "read_uncached", None) or source.read
        for _ in pieces:
            part = None
            # The parent hashes the bytes in order while the children count.
            while part is None and hasher is not None and hashed < seg_end:
                try:
                    part = answers.next(timeout=0)
                except multiprocessing.TimeoutError:
                    chunk = read(hashed, min(_HASH_STEP, seg_end - hashed))
                    hasher.update(chunk)
                    hashed = hashed + len(chunk) if chunk else seg_end
            if part is None:
                part = answers.next()
            if "error" in part:
                raise ByteSourceError(f"{display_path(source.path)}: read failed near offset "
                                      f"{part['at']:,}: {part['error']}", source.path, "io")
            _merge(result, index, part)
            yield part["reached"]
            if part["reached"] < part["end"]:
                return  # the file ended sooner than it said
    finally:
        pool.terminate()
        pool.join()
        _FD = None
