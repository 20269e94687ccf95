"""A folder triaged: one report per regular file of a tree, as rows for a table.

:func:`triage_steps` is a plain generator for a background worker: it walks the folder
with :func:`inspector.core.scan.corpus.walk` (sorted, regular files only, links not
followed, special files skipped with their reason), makes each file's report the way
``scan DIR`` does (:func:`inspector.core.analysis.batch.report_path`) and appends a
:class:`TriageRow` to an append-only list it shares with the caller. What it yields is
progress only (files done, files in all, the list): a window reads the new rows of the
list at its own pace, so no row is lost however the progress reports are thinned out.

The per-file work may run in other processes: ``triage_steps(..., pool=TriagePool())``
sends the files in small batches to a process pool (:func:`inspector.core.analysis.batch.reports`)
started with forkserver or spawn (never fork: the caller may be the window, whose Qt
threads make a fork unsafe), so the calling process only walks the folder and receives
finished report dicts; its thread no longer holds the GIL for whole decodes, numpy and
charset detection. The reports are the same as in this process. A folder of fewer than
:data:`POOL_MIN_FILES` files, or a pool that cannot start or does not answer within
:data:`POOL_ANSWER_SECONDS` (its children re-running a script that opens the window
without a main guard, see :func:`inspector.core.scan.parallel.isolated_pool`), is
triaged here; the pool's ``reason`` says why, for the window.

The exports (:func:`write_csv`, :func:`write_json`, and
:func:`inspector.core.analysis.htmlreport.render_triage_html`) carry the fields of
``scan``: JSON is the same list of report objects ``scan DIR --json`` prints (each with
``relative``, its path below the folder), CSV one line per file with the summary fields.
"""

from __future__ import annotations

import csv
import json
import os
import threading
import time
from concurrent import futures
from typing import Callable, Iterable, Iterator

from inspector.core.analysis.batch import Options, reports
from inspector.core.scan import corpus as CO
from inspector.core.scan import parallel as PS
from inspector.core.source.bytesource import display_path

# The CSV's columns: the summary fields of a ``scan`` report, then its first error.
CSV_COLUMNS = ("path", "size", "valid", "verdict_code", "verdict", "errors", "replacements",
               "warnings", "first_offset", "first_line", "first_column", "first_kind",
               "sha256", "dialect", "error")

# What a row is, for the filter: a verdict code stands for itself; these are the others.
UNREADABLE, SKIPPED = "unreadable", "skipped"


class TriageRow:
    """One file of the folder: ``relative`` (its path below the folder, as text),
    ``path`` (the real path, to open it), and what its report says.

    The report itself is kept as its JSON text, read back only for an export: ten
    thousand reports as dicts are half a million objects for the garbage collector, and
    one pass over them stopped the window for ~65 ms while a folder's table filled."""

    __slots__ = ("relative", "path", "report_json", "size", "verdict", "verdict_code", "errors",
                 "warnings", "first_offset", "first_line", "first_column", "first_kind",
                 "problem")

    def __init__(self, relative: str, path, report: dict):
        self.relative = relative
        self.path = path
        self.report_json = json.dumps(report, ensure_ascii=False, separators=(",", ":"))
        self.size = report.get("size") or 0
        errors = report.get("errors") or {}
        warnings = report.get("warnings") or {}
        self.errors = int(errors.get("total") or 0)
        self.warnings = int(warnings.get("total") or 0)
        if "skipped" in report:
            self.verdict_code = SKIPPED
            self.verdict = report.get("message") or "skipped"
        elif "error" in report:
            self.verdict_code = UNREADABLE
            self.verdict = report["error"]
        else:
            self.verdict_code = report.get("verdict_code") or "none"
            self.verdict = report.get("verdict") or ""
        first = (report.get("first_errors") or [None])[0]
        self.first_offset = first["offset"] if first else None
        self.first_line = first.get("line") if first else None
        self.first_column = first.get("column") if first else None
        self.first_kind = first["kind"] if first else ""
        # A problem: an error unit, or a file that could not be read.
        self.problem = self.errors > 0 or self.verdict_code == UNREADABLE

    @property
    def report(self) -> dict:
        """The file's report (as ``scan --json`` writes it), read back from its text."""
        return json.loads(self.report_json)

    @property
    def where(self) -> str:
        """The first problem as ``line:column`` (empty without one)."""
        if self.first_line is None:
            return ""
        return f"{self.first_line}:{self.first_column}"

    def csv_values(self) -> tuple:
        r = self.report
        return (self.relative, self.size if "size" in r else "",
                "" if "valid" not in r else ("true" if r["valid"] else "false"),
                self.verdict_code, self.verdict, self.errors,
                (r.get("errors") or {}).get("replacements", ""), self.warnings,
                "" if self.first_offset is None else self.first_offset,
                "" if self.first_line is None else self.first_line,
                "" if self.first_column is None else self.first_column,
                self.first_kind, r.get("sha256") or "", r.get("dialect") or "",
                r.get("error") or "")


class TriageProgress:
    """What the generator yields: ``done`` of ``total`` files, and ``rows`` (the shared
    list, longer by the files done since)."""

    __slots__ = ("done", "total", "rows", "bytes")

    def __init__(self, done: int, total: int, rows: list, n_bytes: int):
        self.done = done
        self.total = total
        self.rows = rows
        self.bytes = n_bytes


def relative_path(path, folder) -> str:
    try:
        rel = os.path.relpath(os.fsdecode(path), os.fsdecode(folder))
    except ValueError:  # another drive (Windows)
        rel = os.fsdecode(path)
    return display_path(rel)


# Below this many files the pool's start-up (a forkserver and its children: ~0.25-0.4 s
# the first time on a 2-core machine) costs about what it saves: measured, 100 files
# 0.14 s in the thread / 0.38 s in a new pool, 300 files 0.26 / 0.33 s, 1,000 files
# 0.66 / 0.54 s (a small folder's triage is short anyway: its gaps are bounded).
POOL_MIN_FILES = 500

# How long the pool's first answer may take before the triage runs here. Measured: 0.15 s
# (forkserver or spawn, 2 cores idle), 0.5 s with both cores busy; a child that imports
# numpy from a cold disk, or under a virus scanner (spawn, Windows), takes seconds. A
# child that runs a script's window (see :func:`inspector.core.scan.parallel.isolated_pool`)
# never answers: this is how long its triage waits once.
POOL_ANSWER_SECONDS = 10.0

# An earlier pool of this process did not answer: a later triage does not wait again (a
# script's children would open their windows again, for nothing).
_unanswered = False


def an_earlier_pool_did_not_answer() -> bool:
    """Whether a triage pool of this process did not answer (later ones then start none)."""
    return _unanswered


def forget_unanswered_pools() -> None:
    """Let the next triage start a pool again, as a process where none failed to answer
    (each test begins from that)."""
    global _unanswered
    _unanswered = False


class TriagePool:
    """The process pool of one triage: started by :func:`triage_steps` (in its thread)
    once the walk has counted the files, stopped when the triage ends. :meth:`halt` may
    be called from any thread (the window's Cancel): queued batches are cancelled and
    the processes ended at once, without waiting; the triage's own thread then waits for
    them (:meth:`close`), so none is left behind.

    ``error``: why the pool could not start, did not answer or broke (the triage then
    ran here, the rest of it if it broke); ``reason``: the same as a few words for the
    window. ``answer_seconds``: the wait for the first answer (None:
    :data:`POOL_ANSWER_SECONDS`)."""

    def __init__(self, workers: int | None = None, min_files: int = POOL_MIN_FILES,
                 nice: int = 10, answer_seconds: float | None = None):
        self.workers = workers or PS.default_workers()
        # The children yield the CPU to the caller (the window's UI thread): on two
        # cores, two busy children at the same priority left the UI unscheduled for
        # 50-140 ms at times.
        self.nice = nice
        self.min_files = min_files
        self.answer_seconds = answer_seconds
        self.executor = None
        self.error: BaseException | None = None
        self.reason = ""
        self.unanswered = False  # this pool, or an earlier one, did not answer in time
        self.waiting = False  # for the first answer
        self.halted = False
        self.halted_by_caller = False
        self.used = False
        self._parts = None
        self._lock = threading.Lock()

    def start(self, entries: list):
        """The executor for these entries, or None to triage them here (too few files,
        already halted, or the pool failed to start or to answer: its processes are
        then gone when this returns)."""
        global _unanswered
        if len([e for e in entries if e.kind == "file"]) < self.min_files:
            return None
        if _unanswered:
            self.unanswered = True
            self.fall_back(RuntimeError("the worker processes of an earlier triage did not "
                                        "answer"), "worker processes did not answer earlier")
            return None
        try:
            executor = PS.isolated_pool(self.workers, preload=(__name__,), nice=self.nice)
        except (OSError, RuntimeError, ValueError, ImportError) as e:
            self.fall_back(e, "worker processes could not start")
            return None
        with self._lock:
            if self.halted:
                PS.stop_pool(executor)
                return None
            self.executor = executor
        wait = POOL_ANSWER_SECONDS if self.answer_seconds is None else self.answer_seconds
        self.waiting = True
        try:
            self._first_answer(executor, wait)
        except Exception as e:  # noqa: BLE001 - timeout, BrokenProcessPool, OSError, cancelled
            self.close()  # the processes ended before the thread begins
            if isinstance(e, futures.TimeoutError) and not self.halted_by_caller:
                _unanswered = self.unanswered = True
                why = f"worker processes did not answer within {wait:g} s"
                self.fall_back(TimeoutError(why), why)
            elif not self.halted_by_caller:
                self.fall_back(e, "worker processes could not start")
            return None
        finally:
            self.waiting = False
        self.used = True
        return executor

    def _first_answer(self, executor, wait: float) -> None:
        """One round trip: the pool answers (its processes could start) or the triage
        runs here. Bounded: a child that never becomes a worker (a script's window) left
        the triage waiting for ever. A halt ends the wait too: a child that ignores
        SIGTERM would keep the round trip's future pending until the bound."""
        future = executor.submit(os.getpid)
        deadline = time.monotonic() + wait
        while True:
            try:
                future.result(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
                return
            except futures.TimeoutError:
                if self.halted:
                    raise futures.CancelledError() from None
                if time.monotonic() >= deadline:
                    raise

    def fall_back(self, error: BaseException, reason: str) -> None:
        """Note why the files are triaged here (``reason``: a few words)."""
        self.error = error
        self.reason = reason

    def halt(self, by_caller: bool = False) -> None:
        """Stop now, from any thread: pending batches cancelled, processes ended, nothing
        waited for."""
        with self._lock:
            if by_caller:
                self.halted_by_caller = True
            self.halted = True
            executor, self.executor = self.executor, None
            if executor is not None:
                self._parts = PS.halt_pool(executor)

    def close(self) -> None:
        """Stop and wait until the processes and the pool's threads are gone."""
        self.halt()
        with self._lock:
            parts, self._parts = self._parts, None
        if parts is not None:
            PS.join_pool(parts)


def triage_steps(folder, options: Options | None = None, rows: list | None = None,
                 cancel: Callable[[], bool] | None = None,
                 pool: TriagePool | None = None) -> Iterator[TriageProgress]:
    """Report every regular file below ``folder`` (in the walk's order), appending a
    :class:`TriageRow` to ``rows`` for each; yields progress after each file and returns
    the list. ``cancel()`` True stops between two files. With a ``pool``, the files'
    reports are made in its processes (if it starts: see :class:`TriagePool`); the pool
    is closed when this ends, however it ends."""
    options = options or Options()
    rows = [] if rows is None else rows
    entries = list(CO.walk([folder]))
    total = len(entries)
    n_bytes = 0
    yield TriageProgress(0, total, rows, 0)
    try:
        executor = None
        if pool is not None and not (cancel is not None and cancel()):
            executor = pool.start(entries)
        stream = reports(entries, options, executor)
        i = 0
        while True:
            if cancel is not None and cancel():
                return rows
            try:
                entry, report = next(stream)
            except StopIteration:
                break
            except Exception as e:  # noqa: BLE001 - the pool broke (a child killed?)
                if executor is None or pool.halted_by_caller:
                    raise
                pool.fall_back(e, "worker processes stopped")  # the rest is triaged here
                pool.close()
                executor = None
                stream = reports(entries[i:], options, None)
                continue
            i += 1
            rows.append(TriageRow(relative_path(entry.path, folder), entry.path, report))
            n_bytes += entry.size
            yield TriageProgress(i, total, rows, n_bytes)
        return rows
    finally:
        if pool is not None:
            pool.close()


def triage(folder, options: Options | None = None) -> list[TriageRow]:
    """Every row at once (tests, scripts)."""
    steps = triage_steps(folder, options)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def write_csv(rows: Iterable[TriageRow], fileobj) -> int:
    """One line per file (see :data:`CSV_COLUMNS`); returns the number of rows."""
    w = csv.writer(fileobj, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    n = 0
    for row in rows:
        w.writerow(row.csv_values())
        n += 1
    return n


def write_json(rows: Iterable[TriageRow], fileobj, folder=None) -> int:
    """The reports as ``scan DIR --json`` prints them (a list), each with ``relative``."""
    out = []
    for row in rows:
        report = dict(row.report)
        report["relative"] = row.relative
        out.append(report)
    fileobj.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    return len(out)


def summary_text(rows: list[TriageRow], seconds: float | None = None) -> str:
    files = len(rows)
    bad = sum(1 for r in rows if r.problem)
    skipped = sum(1 for r in rows if r.verdict_code == SKIPPED)
    text = f"{files:,} file{'s' if files != 1 else ''}, {bad:,} with problems"
    if skipped:
        text += f", {skipped:,} skipped"
    if seconds is not None:
        text += f" ({seconds:.1f} s)"
    return text

