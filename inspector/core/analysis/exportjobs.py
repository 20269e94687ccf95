"""The exports' work, as plain generators a worker runs (File > Export in the window,
:mod:`inspector.gui.dialogs.export`): the JSON report, the CSV of every error unit and
the self-contained HTML report of one byte source.

Each job yields (done, total, what) and returns a one-line summary; closing it cancels.
Every output is written to a temporary file beside the target and renamed into place
only when complete (:mod:`inspector.core.source.safewrite`), so a cancelled or failed
export leaves nothing half-written; the target is checked by the caller
(``safewrite.check_target``) before a job starts.

``workers``: the scans a job starts use this process policy (the caller's, which the
core never looks up).
"""

from __future__ import annotations

import csv

from inspector.core.analysis import htmlreport
from inspector.core.analysis import report as report_mod
from inspector.core.analysis import verdict as verdict_mod
from inspector.core.analysis.scanviews.overviewbins import bins_as_dicts, fine_block_size
from inspector.core.scan import results, scanner
from inspector.core.scan.lines import LineCounter
from inspector.core.source.bytesource import display_path
from inspector.core.source.safewrite import AtomicWriter, write_atomic
from inspector.core.units.boundaries import safe_end_in

JSON, CSV, HTML = "json", "csv", "html"
OVERVIEW_BINS = 400  # bins of the HTML report's overview picture
CSV_REGION = 8 << 20  # bytes handed to the report's CSV writer between two progress steps


def complete_scan(source, dialect: str, scan: results.ScanResult | None, workers: int):
    """The finished scan of the whole file: ``scan`` when it is one in ``dialect``, or a
    new one."""
    if scan is not None and scan.complete and scan.reading == dialect:
        return scan
    return (yield from _told(scanner.scan_steps(source, dialect=dialect, workers=workers),
                             "scanning"))


def fine_for_picture(source, result: results.ScanResult, workers: int):
    """A scan whose blocks are no larger than one bin of the overview picture: the
    result itself for a big file, a quick second scan with small blocks for a small one
    (whose few big blocks would paint flat bands)."""
    block = fine_block_size(source.size, OVERVIEW_BINS)
    if block is None or result.index.block_size <= block:
        return result
    steps = scanner.scan_steps(source, dialect=result.reading, block_size=block,
                               origin=result.index.origin, sha256=False, workers=workers)
    return (yield from _told(steps, "drawing the overview"))


def _told(steps, doing: str):
    """A scan's steps as the export's progress (done, total, ``doing``); returns the
    scan's result."""
    try:
        while True:
            step = next(steps)
            yield step.done, step.total, doing
    except StopIteration as stop:
        return stop.value


def report_dict(source, result, path, findings=None) -> dict:
    """The report of a finished scan, with its verdict: the one the window already
    judged when there is one (not judged twice), else judged here. Nothing is written
    back: this runs on the export's worker thread."""
    v = verdict_mod.known_verdict(result) or verdict_mod.verdict(result, source)
    return report_mod.build_report(result, source, path, v, findings=findings)


def export_steps(kind: str, source, dialect: str, scan, target: str, findings=None, *,
                 workers: int = 1):
    """Write one export to ``target`` (already checked); yields progress. ``findings``:
    the report's findings entries (None: the report has no findings field); ``scan``:
    a scan of the source to reuse when it is complete and in ``dialect``."""
    inspected = source.path
    if kind == CSV:
        return (yield from csv_steps(source, dialect, target))
    result = yield from complete_scan(source, dialect, scan, workers)
    yield 0, 1, "writing"
    report = report_dict(source, result, inspected, findings)
    if kind == JSON:
        with AtomicWriter(target) as writer:
            report_mod.write_json(report, writer.file)
        return f"JSON report written to {display_path(target)}"
    if kind == HTML:
        pictured = yield from fine_for_picture(source, result, workers)
        overview = bins_as_dicts(pictured.index, source.size, OVERVIEW_BINS)
        page = htmlreport.render_html(report, overview=overview)
        write_atomic(target, page)
        return f"HTML report written to {display_path(target)}"
    raise ValueError(f"unknown export {kind!r}")


def csv_steps(source, dialect: str, target: str, region: int | None = None):
    """Every error unit, streamed with the report's CSV writer region by region (cut
    at safe boundaries, ``boundaries.safe_end_in``, so the rows are those of the whole
    file): memory stays flat whatever their number, and progress comes between
    regions."""
    region = region or CSV_REGION
    size = source.size
    rows = 0
    with AtomicWriter(target) as writer:  # a cancel (the generator closed) discards it
        csv.writer(writer.file, lineterminator="\n").writerow(report_mod.CSV_COLUMNS)
        start = 0
        counter = LineCounter(dialect)  # lines and columns run on across the regions
        while start < size:
            # Another encoding than UTF-8 is written in one region (its boundaries are
            # its own).
            end = (safe_end_in(source, min(start + region, size), dialect)
                   if isinstance(dialect, str) else size)
            rows += report_mod.write_csv(writer.file, source, dialect, start, end, header=False,
                                         counter=counter)
            start = end
            yield start, size, "writing"
    return f"{rows:,} error units written to {display_path(target)}"
