"""A folder triaged: one report per regular file of a tree, as rows for a table.

:func:`triage_steps` is a plain generator for a background worker: it walks the folder
with :func:`inspector.core.scan.corpus.walk` (sorted, regular files only, links not
followed, special files skipped with their reason), makes each file's report the way
``scan DIR`` does (:func:`inspector.core.analysis.batch.report_path`) and appends a
:class:`TriageRow` to an append-only list it shares with the caller. What it yields is
progress only (files done, files in all, the list): a window reads the new rows of the
list at its own pace, so no row is lost however the progress reports are thinned out.

The exports (:func:`write_csv`, :func:`write_json`, and
:func:`inspector.core.analysis.htmlreport.render_triage_html`) carry the fields of
``scan``: JSON is the same list of report objects ``scan DIR --json`` prints (each with
``relative``, its path below the folder), CSV one line per file with the summary fields.
"""

from __future__ import annotations

import csv
import json
import os
from typing import Callable, Iterable, Iterator

from inspector.core.analysis.batch import Options, entry_report, report_path
from inspector.core.scan import corpus as CO
from inspector.core.source.bytesource import display_path

# The CSV's columns: the summary fields of a ``scan`` report, then its first error.
CSV_COLUMNS = ("path", "size", "valid", "verdict_code", "verdict", "errors", "replacements",
               "warnings", "first_offset", "first_line", "first_column", "first_kind",
               "sha256", "dialect", "error")

# What a row is, for the filter: a verdict code stands for itself; these are the others.
UNREADABLE, SKIPPED = "unreadable", "skipped"


class TriageRow:
    """One file of the folder: ``relative`` (its path below the folder, as text),
    ``path`` (the real path, to open it), and what its report says."""

    __slots__ = ("relative", "path", "report", "size", "verdict", "verdict_code", "errors",
                 "warnings", "first_offset", "first_line", "first_column", "first_kind",
                 "problem")

    def __init__(self, relative: str, path, report: dict):
        self.relative = relative
        self.path = path
        self.report = report
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


def triage_steps(folder, options: Options | None = None, rows: list | None = None,
                 cancel: Callable[[], bool] | None = None) -> Iterator[TriageProgress]:
    """Report every regular file below ``folder`` (in the walk's order), appending a
    :class:`TriageRow` to ``rows`` for each; yields progress after each file and returns
    the list. ``cancel()`` True stops between two files."""
    options = options or Options()
    rows = [] if rows is None else rows
    entries = list(CO.walk([folder]))
    total = len(entries)
    n_bytes = 0
    yield TriageProgress(0, total, rows, 0)
    for i, entry in enumerate(entries, 1):
        if cancel is not None and cancel():
            return rows
        report = entry_report(entry) or report_path(entry.path, options)
        rows.append(TriageRow(relative_path(entry.path, folder), entry.path, report))
        n_bytes += entry.size
        yield TriageProgress(i, total, rows, n_bytes)
    return rows


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

