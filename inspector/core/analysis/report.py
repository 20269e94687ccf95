"""Reports for a case file: everything needed to reproduce a scan.

:func:`build_report` makes one plain dict (the ``scan`` command's JSON object, and the
base of the HTML report): the tool's version, the time, the file's path, size,
modification time and SHA-256, the dialect, the full counts, the first errors, the
verdict and the encoding map (``regions``). :func:`write_csv` streams every error unit of a file, however many, without
holding them in memory.
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import os
from typing import Callable, Iterator

from typing import TYPE_CHECKING

import inspector
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation
from inspector.core.source.bytesource import display_path
from inspector.core.units.decoder import Unit
from inspector.core.scan.results import ScanCancelled, segments
from inspector.core.units.unicode_db import UNICODE_VERSION

if TYPE_CHECKING:
    from inspector.core.scan.lines import LineCounter

# numpy and the scan's kernels are imported where errors are listed: the report of a
# clean file (most files of a folder, or `scan` of one line) is made without them.

CSV_COLUMNS = ("offset", "length", "kind", "bytes", "replacements", "line", "column")


def _iso(ts: float) -> str:
    return _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def first_error_entries(result, source) -> list[dict]:
    """The report's ``first_errors``, each with its ``line`` and ``column`` (see
    :mod:`inspector.core.scan.lines`)."""
    units = result.first_errors
    if not units:
        return []
    from inspector.core.scan import lines as LN

    origin = result.origin
    # A unit before an origin belongs to another stream: count it from the file's start
    # all the same (lines and columns are the file's). A deferred index is not made
    # for this: counting the newlines of a small file is quicker.
    spots = LN.line_columns(source, [u.offset for u in units], result.dialect,
                            index=result.index_if_made if origin is None else None)
    lo = units[0].offset
    hi = units[-1].offset + units[-1].length
    if hi - lo <= (1 << 20):
        # One read for all of them (a binary file lists a hundred within a few KiB).
        data = source.read(lo, hi - lo)
    else:
        data, lo = None, 0
    entries = []
    for u, (line, column) in zip(units, spots):
        offset, length = u.offset, u.length
        if data is None:
            shown = source.read(offset, length).hex(" ")
        else:
            shown = data[offset - lo:offset - lo + length].hex(" ")
        entry = {"offset": offset, "length": length, "kind": u.kind, "bytes": shown,
                 "replacements": u.replacements, "codepoint": u.value}
        if u.at_end:
            entry["at_end"] = True
        entry["line"], entry["column"] = line, column
        entries.append(entry)
    return entries


def build_report(result, source, path, verdict, findings=None) -> dict:
    """The report of one finished scan as a JSON-ready dict. ``findings``: the
    findings' entries (``analysis.findings.report_entries``), listed as ``findings``."""
    now = _dt.datetime.now(_dt.timezone.utc)
    mtime = None
    mtime_ns = None
    st = source.stat_result
    if st is None and path is not None:
        try:
            st = os.stat(path)
        except OSError:
            st = None
    if st is not None:
        mtime_ns = st.st_mtime_ns
        mtime = _iso(st.st_mtime)
    shown = display_path(path) if path is not None else source.name
    report = {
        "path": shown,
        "size": result.size,
        "mtime": mtime,
        "mtime_ns": mtime_ns,
        "sha256": result.sha256,
        "dialect": result.dialect,
        "valid": result.valid,
        "units": result.units_dict(),
        "code_points": result.code_points,
        "errors": {"total": result.error_units, "replacements": result.replacements,
                   "by_kind": result.errors_listed()},
        "warnings": {"total": result.warning_units, "by_kind": dict(result.warnings_by_kind)},
        "first_errors": first_error_entries(result, source),
        "first_errors_limit": result.max_errors,
        "verdict": verdict.text if verdict is not None else None,
        "verdict_code": verdict.code if verdict is not None else None,
        "verdict_details": verdict.details if verdict is not None else None,
        "regions": _regions(verdict),
        "scan": {
            "start": result.start,
            "end": result.end,
            "origin": result.origin,
            "complete": result.complete,
            "short_read": result.short_read,
            "seconds": round(result.seconds, 3),
            "error_bytes": result.error_bytes,
            "binary_bytes": result.binary_bytes,
            "block_size": result.block_size,
        },
        "tool": {"name": "utf8-inspector", "version": inspector.__version__,
                 "unicode_version": UNICODE_VERSION},
        "generated": now.isoformat(timespec="seconds").replace("+00:00", "Z"),
    }
    if findings is not None:
        report["findings"] = list(findings)
    return report


def _regions(verdict) -> list[dict] | None:
    """The encoding map the verdict was judged on, as ``{start, end, encoding, ...}``
    dicts in file order (see :mod:`inspector.core.analysis.encodings.regions`)."""
    emap = getattr(verdict, "regions", None)
    return None if emap is None else emap.to_list()


def write_json(report, fileobj, indent: int | None = 2) -> None:
    """Write a report (or a list of them) as JSON, with a final newline."""
    fileobj.write(json_text(report, indent))


def json_text(report, indent: int | None = None) -> str:
    """A report (or a list of them) as JSON with a final newline; one line without
    ``indent`` (``scan --jsonl``)."""
    if indent is None and type(report) is not list and report.get("first_errors"):
        errors = _entries_json(report["first_errors"])
        if errors is not None:
            # The first errors are most of a report's values: written here as json
            # would write them, in half its time, and put in the object's own key's
            # place (met before any nested key of that name: the keys before it are the
            # report's counts).
            rest = dict(report)
            rest["first_errors"] = []
            return json.dumps(rest, ensure_ascii=False).replace(
                '"first_errors": []', '"first_errors": ' + errors, 1) + "\n"
    # dumps, not dump: dump streams through the pure-Python encoder (~0.7 ms a report).
    return json.dumps(report, indent=indent, ensure_ascii=False) + "\n"


_ENTRY_KEYS = ("offset", "length", "kind", "bytes", "replacements", "codepoint", "line", "column")
_ENTRY_KEYS_AT_END = _ENTRY_KEYS[:6] + ("at_end",) + _ENTRY_KEYS[6:]
_ENTRY = ('{"offset": %d, "length": %d, "kind": "%s", "bytes": "%s", "replacements": %d, '
          '"codepoint": %s, "line": %d, "column": %d}')
_ENTRY_AT_END = _ENTRY.replace(', "line"', ', "at_end": true, "line"')
_KIND_NAMES = {name: name for name in K.KINDS}  # plain words: JSON writes them as they are
_HEX_TEXT = frozenset("0123456789abcdef ")


def _entries_json(entries) -> str | None:
    """``first_errors`` entries (:func:`first_error_entries`) as ``json.dumps`` writes
    them (a test compares), or None when one is not of their shape (an explanation
    added, a value of another type): json writes those. Numbers are formatted with
    ``%d`` (a value that is not a number falls back to json)."""
    out = []
    try:
        for e in entries:
            keys = tuple(e)
            if keys == _ENTRY_KEYS:
                form = _ENTRY
            elif keys == _ENTRY_KEYS_AT_END and e["at_end"] is True:
                form = _ENTRY_AT_END
            else:
                return None
            cp = e["codepoint"]
            out.append(form % (e["offset"], e["length"], _KIND_NAMES[e["kind"]], e["bytes"],
                               e["replacements"], "null" if cp is None else "%d" % cp,
                               e["line"], e["column"]))
        if not _HEX_TEXT.issuperset("".join([e["bytes"] for e in entries])):
            return None
    except (TypeError, KeyError):
        return None
    return "[" + ", ".join(out) + "]"


def _error_windows(source, dialect, start, end, origin, cancel):
    import numpy as np

    from inspector.core.scan.kernels import codes as KC
    from inspector.core.scan.windows import iter_windows

    size = source.size
    end = size if end is None else min(end, size)
    for seg_start, seg_end in segments(start, end, origin):
        for window in iter_windows(source, seg_start, seg_end, seg_start, seg_end, dialect,
                                   origin=origin, want_warnings=False):
            if cancel is not None and cancel():

                raise ScanCancelled("cancelled")
            rows = window.rows
            err = np.flatnonzero(rows.kind != KC.C_VALID)
            if len(err):
                err = err[np.argsort(rows.offset[err], kind="stable")]
            yield window, rows, err


def iter_error_units(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
                     cancel: Callable[[], bool] | None = None,
                     origin: int | None = None) -> Iterator[Unit]:
    """Every error unit of [start, end) in order, streamed (the region is cut as its own
    stream, as the scanner does)."""
    from inspector.core.scan.tally import row_units

    dialect = K.check_dialect(dialect)
    for _, rows, err in _error_windows(source, dialect, start, end, origin, cancel):
        for k in range(0, len(err), 4096):  # a window of random bytes has ~100,000
            yield from row_units(rows, err[k:k + 4096])


def write_csv(fileobj, source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
              cancel: Callable[[], bool] | None = None, origin: int | None = None,
              path: str | None = None, header: bool = True,
              counter: LineCounter | None = None) -> int:
    """Stream every error unit as CSV rows (offset, length, kind, bytes, replacements,
    line, column; with ``path``, a first column naming the file). Returns the number of
    rows. Lines and columns are the file's, in the reading (a region that starts past 0
    counts the line feeds before it first, unless ``counter`` carries them on from the
    region before)."""
    from inspector.core.scan.kernels import codes as KC
    from inspector.core.scan.lines import LineCounter, line_column

    # A UTF-8 dialect by name; another encoding as its interpretation (its own windows).
    reading = interpretation(dialect)
    dialect = reading.name if reading.is_utf8 else reading
    prefix = ""
    if path is not None:
        # Quote the path once, as csv would: rows are then joined without the csv
        # module, whose per-row cost dominates on files with millions of errors.
        import csv  # only for a CSV: not imported by every scan

        quoted = io.StringIO()
        csv.writer(quoted, lineterminator="").writerow((path,))
        prefix = quoted.getvalue() + ","
    if header:
        fileobj.write(("path," if path is not None else "") + ",".join(CSV_COLUMNS) + "\n")
    count = 0
    names = KC.KIND_CODES
    if counter is None:
        counter = LineCounter(dialect)
        if start > 0:  # a region of a file: lines and columns stay the file's
            counter.line, counter.column = line_column(source, start, dialect=dialect)
    for window, rows, err in _error_windows(source, dialect, start, end, origin, cancel):
        data = window.data
        base = window.base
        lines, cols = counter.feed_window(window, err)
        if not len(err):
            continue
        offs = rows.offset[err].tolist()
        lens = rows.length[err].tolist()
        kinds = rows.kind[err].tolist()
        repls = rows.repl[err].tolist()
        fileobj.write("".join([
            f"{prefix}{o},{n},{names[k]},{data[o - base:o - base + n].hex(' ')},{r},{ln},{c}\n"
            for o, n, k, r, ln, c in zip(offs, lens, kinds, repls, lines.tolist(),
                                         cols.tolist())]))
        count += len(offs)
    return count
