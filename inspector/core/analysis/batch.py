"""Reports for many files: one task per file (or per slice of a large file), run here or
on an executor, the reports given back in the order of the walk.

A task is plain data in and plain data out (a path and :class:`Options`; a report dict),
so the same tasks run in this process, in a local ``ProcessPoolExecutor`` (any start
method: nothing is inherited) or on a Dask cluster through ``distributed``'s
``Client.get_executor()`` — whatever ``concurrent.futures.Executor`` is given.
"""

from __future__ import annotations

import os
import time
from collections import deque
from typing import Callable, Iterable, Iterator

from inspector.core.analysis.report import build_report, json_text
from inspector.core.scan import corpus as CO
from inspector.core.scan.cleantext import small_scan
from inspector.core.source.bytesource import ByteSourceError, FileSource, display_path
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


class Options:
    """What every file's report is made with (picklable: sent along with each task)."""

    __slots__ = ("dialect", "max_errors", "explain", "sha256", "packed")

    def __init__(self, dialect: str = K.UTF8, max_errors: int = 100, explain: bool = False,
                 sha256: bool = True, packed: bool = False):
        self.dialect = dialect
        self.max_errors = max_errors
        self.explain = explain  # add each first error's one-line explanation
        self.sha256 = sha256
        self.packed = packed  # tasks send PackedReport (the caller only writes JSON lines)

    def __getstate__(self):
        return {n: getattr(self, n) for n in self.__slots__}

    def __setstate__(self, state):
        for n, v in state.items():
            setattr(self, n, v)


def error_report(path, e: ByteSourceError) -> dict:
    return {"path": display_path(path), "error": str(e), "reason": e.reason}


def status_of(report: dict) -> int:
    if "error" in report:
        return EXIT_ERROR
    if "skipped" in report:
        return EXIT_OK
    return EXIT_OK if report["valid"] else EXIT_PROBLEMS


def report_source(source, path, options: Options, workers: int | None = 1,
                  progress: Callable[[int, int], None] | None = None, executor=None) -> dict:
    """Scan an open source and make its report (verdict included; lines and columns).
    A large file's slices run on ``executor`` when one is given."""
    from inspector.core.scan.scanner import scan_steps  # numpy: not for clean files

    steps = scan_steps(source, options.dialect, max_errors=options.max_errors,
                       workers=workers, sha256=options.sha256, lazy_index=True,
                       executor=executor)
    while True:
        try:
            step = next(steps)
        except StopIteration as stop:
            result = stop.value
            break
        if progress is not None:
            progress(step.done, step.total)
    report = finished_report(result, source, path, options)
    if path == CO.STDIN:
        report["path"] = CO.STDIN
    return report


def finished_report(result, source, path, options: Options) -> dict:
    """The report of a finished scan: its verdict judged, and with ``options.explain``
    each first error's explanation."""
    from inspector.core.analysis.verdict import verdict

    report = build_report(result, source, path, verdict(result, source))
    if options.explain and report["first_errors"]:
        from inspector.core.units.decoder import Unit
        from inspector.core.units.unitinfo import explain

        for e, u in zip(report["first_errors"], result.first_errors):
            data = source.read(u.offset, u.length + 8)
            e["explanation"] = explain(Unit(0, u.length, u.kind, u.value, u.replacements,
                                            u.at_end, u.warnings), data, options.dialect)
    return report


def report_path(path, options: Options, workers: int | None = 1,
                progress: Callable[[int, int], None] | None = None, executor=None) -> dict:
    """The report of one file by its path; an unreadable file gives ``path`` and
    ``error`` (and ``reason``), never an exception."""
    try:
        source = FileSource(path)
    except ByteSourceError as e:
        return error_report(path, e)
    try:
        if interpretation(options.dialect).scanned_by_kernels:
            quick = small_scan(source, options.max_errors, options.sha256)
            if quick is not None:  # a small file: read once, no block index
                return finished_report(quick, source, path, options)
        return report_source(source, path, options, workers, progress, executor)
    except ByteSourceError as e:
        return error_report(path, e)
    except OSError as e:
        return {"path": display_path(path), "error": f"{display_path(path)}: {e.strerror or e}",
                "reason": "io"}
    finally:
        source.close()


def report_task(path, options: Options) -> dict:
    """A task for an executor: one whole file, scanned in the worker's one process."""
    return report_path(path, options, workers=1)


def reports_task(paths: list, options: Options) -> list[dict]:
    """A task for an executor: a few whole files (one task per file would cost more in
    sending than in scanning small ones), their reports in order (packed with
    ``options.packed``)."""
    reports = [report_path(p, options, workers=1) for p in paths]
    return [PackedReport(r) for r in reports] if options.packed else reports


class PackedReport(dict):
    """A report reduced to what a run's totals and exit status read (:class:`Summary`,
    :func:`status_of`), with the whole report as its JSON line in ``line``: the worker
    encodes it, so the process that writes the lines neither unpickles nor encodes the
    whole dict (a third of its work over a folder of small files)."""

    __slots__ = ("line",)
    BRIEF = ("path", "size", "valid", "verdict_code", "error", "reason", "skipped", "message")

    def __init__(self, report: dict):
        super().__init__((k, report[k]) for k in self.BRIEF if k in report)
        self.line = json_text(report)


def entry_report(entry: CO.Entry) -> dict | None:
    """The report of an entry that needs no scan (skipped, unlistable), else None."""
    if entry.kind == "skipped":
        return {"path": display_path(entry.path), "skipped": entry.reason,
                "message": entry.message}
    if entry.kind == "error":
        return {"path": display_path(entry.path), "error":
                f"{display_path(entry.path)}: {entry.message}", "reason": entry.reason}
    return None


BATCH_FILES = 16  # files per task at most...
BATCH_BYTES = 1 << 20  # ...and about this many bytes


class _Batch:
    __slots__ = ("paths", "size", "future")

    def __init__(self):
        self.paths: list = []
        self.size = 0
        self.future = None


def reports(entries: Iterable[CO.Entry], options: Options, executor=None,
            local: Callable[[CO.Entry], bool] | None = None, window: int = 256,
            run_here: Callable[[CO.Entry], dict] | None = None) -> Iterator[tuple[CO.Entry, dict]]:
    """(entry, report) for every entry, in the entries' order, each as soon as it and
    all before it are done. With an ``executor``, files are sent ahead in tasks of a
    few files (:func:`reports_task`; at most ``window`` files in flight) and run there;
    ``local(entry)`` True keeps an entry in this process (standard input, or large
    files that this process cuts into slices for the executor itself); ``run_here``
    makes those reports."""
    run_here = run_here or (lambda e: report_path(e.path, options))
    if executor is None:
        for entry in entries:
            yield entry, entry_report(entry) or run_here(entry)
        return
    pending: deque = deque()
    it = iter(entries)
    exhausted = False
    batch = None

    def send(b: _Batch) -> None:
        b.future = executor.submit(reports_task, b.paths, options)

    while True:
        while not exhausted and len(pending) < window:
            entry = next(it, None)
            if entry is None:
                exhausted = True
                break
            done = entry_report(entry)
            if done is not None:
                pending.append((entry, done, None, 0))
            elif local is not None and local(entry):
                pending.append((entry, None, None, 0))
            else:
                if batch is None:
                    batch = _Batch()
                pending.append((entry, None, batch, len(batch.paths)))
                batch.paths.append(entry.path)
                batch.size += entry.size or 0
                if len(batch.paths) >= BATCH_FILES or batch.size >= BATCH_BYTES:
                    send(batch)
                    batch = None
        if batch is not None and exhausted:
            send(batch)
            batch = None
        # Otherwise the open batch fills as entries leave the window (or is sent when
        # its first entry's turn comes).
        if not pending:
            return
        entry, done, b, i = pending.popleft()
        if done is None:
            if b is not None:
                if b.future is None:
                    send(b)
                    batch = None
                done = b.future.result()[i]
            else:
                done = run_here(entry)
        yield entry, done


class Summary:
    """Totals over a run's reports: files, valid, with problems, errors, skipped, by
    verdict, bytes, time."""

    def __init__(self):
        self.began = time.monotonic()
        self.files = self.valid = self.problems = self.errors = self.skipped = 0
        self.bytes = 0
        self.by_verdict: dict[str, int] = {}

    def add(self, report: dict) -> None:
        if "skipped" in report:
            self.skipped += 1
            return
        self.files += 1
        if "error" in report:
            self.errors += 1
            return
        self.bytes += report["size"]
        if report["valid"]:
            self.valid += 1
        else:
            self.problems += 1
        code = report.get("verdict_code") or "none"
        self.by_verdict[code] = self.by_verdict.get(code, 0) + 1

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.began

    def text(self) -> str:
        parts = [f"{self.files:,} file{'s' if self.files != 1 else ''}",
                 f"{self.valid:,} valid", f"{self.problems:,} with problems"]
        if self.errors:
            parts.append(f"{self.errors:,} unreadable")
        if self.skipped:
            parts.append(f"{self.skipped:,} skipped")
        verdicts = ", ".join(f"{n:,} {code}" for code, n in
                             sorted(self.by_verdict.items(), key=lambda t: (-t[1], t[0])))
        return (f"summary: {', '.join(parts)}"
                + (f"; by verdict: {verdicts}" if verdicts else "")
                + f"; {self.bytes:,} bytes in {self.seconds:.2f} s")


def file_size(path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
