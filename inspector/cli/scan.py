"""``utf8-inspector scan PATH... [--json] [--dialect NAME] [--max-errors N] [--csv FILE] [--jobs N]``

Scans whole files and prints, per file, a readable summary or (``--json``) one JSON
object: a single PATH prints one object, several PATHs print a JSON list of objects in
the order given. A file that cannot be read gets a one-line message on stderr and, in
JSON, an object with ``path`` and ``error``; the other files are still scanned.

``--csv FILE`` streams every error unit of every file to FILE (``-`` for stdout) with the
columns offset, length, kind, bytes, replacements, and a first ``path`` column when
several files are scanned.

Exit status: 0 every file is valid, 1 problems were found, 2 a file could not be read.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from inspector.cli import EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS
from inspector.core.units import kinds as K
from inspector.core.source.bytesource import ByteSourceError, FileSource, display_path
from inspector.core.analysis.report import build_report, write_csv, write_json
from inspector.core.scan.scanner import scan_steps
from inspector.core.analysis.verdict import verdict

PROGRESS_AFTER = 0.5  # seconds: quick files never show a bar
REGIONS_SHOWN = 10  # regions the readable summary lists (JSON has them all)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="utf8-inspector scan",
        description="Scan files and report how a UTF-8 decoder sees them.",
        epilog="Exit status: 0 all valid, 1 problems found, 2 a file could not be read.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files to scan")
    p.add_argument("--json", action="store_true",
                   help="print JSON: one object for one PATH, a list for several")
    p.add_argument("--dialect", default=K.UTF8,
                   help=f"UTF-8 dialect: {', '.join(K.DIALECTS)} (default utf-8)")
    p.add_argument("--max-errors", type=int, default=100, metavar="N",
                   help="errors listed per file (default 100)")
    p.add_argument("--csv", metavar="FILE",
                   help="write every error unit to FILE as CSV ('-' for stdout)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes for large utf-8 files (default: one per core; 1: no "
                        "extra process)")
    return p


class _ProgressBar:
    """A one-line bar on stderr, shown only on a terminal and only once a file has
    taken longer than a moment."""

    def __init__(self, label: str, stream):
        self.label = label
        self.stream = stream
        self.enabled = stream.isatty()
        self.began = time.monotonic()
        self.shown = False
        self.last = 0.0

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.began < PROGRESS_AFTER or now - self.last < 0.1:
            return
        self.last = now
        self.shown = True
        frac = done / total if total else 1.0
        width = 30
        filled = int(frac * width)
        mib = done / (1 << 20)
        speed = mib / max(now - self.began, 1e-6)
        self.stream.write(f"\r{self.label[:40]} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{frac * 100:5.1f}% {mib:,.0f} MiB {speed:,.0f} MiB/s")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _region_line(r: dict) -> str:
    """One region as the summary shows it: its byte range, length and encoding."""
    name = r["encoding"]
    if name == "mojibake" and r.get("via"):
        name = f"mojibake (UTF-8 read as {r['via']})"
    elif r.get("ascii"):
        name += " (ASCII)"
    elif r.get("language"):
        name += f" ({r['language']})"
    if not r.get("exact", True):
        name += ", boundary estimated"
    return f"{r['start']:,}-{r['end']:,} ({r['end'] - r['start']:,} bytes): {name}"


def _summary(report: dict) -> str:
    lines = [f"{report['path']}: {report['verdict']}"]
    units = report["units"]
    lines.append(f"  {report['size']:,} bytes, {report['code_points']:,} code points "
                 f"(" + ", ".join(f"{n:,} of {k} byte{'s' if k != '1' else ''}" for k, n in units.items() if n)
                 + f"), dialect {report['dialect']}")
    errors = report["errors"]
    if errors["total"]:
        kinds = ", ".join(f"{n:,} {k}" for k, n in errors["by_kind"].items() if n)
        lines.append(f"  errors: {errors['total']:,} ({kinds}); {errors['replacements']:,} U+FFFD on decoding")
        for e in report["first_errors"][:10]:
            lines.append(f"    at {e['offset']:,} (0x{e['offset']:X}): {e['kind']}  {e['bytes']}")
        more = errors["total"] - min(10, len(report["first_errors"]))
        if more > 0:
            lines.append(f"    ... and {more:,} more (--json or --csv list them)")
    regions = report.get("regions") or []
    if len(regions) > 1:
        lines.append(f"  regions: {len(regions):,}")
        for r in regions[:REGIONS_SHOWN]:
            lines.append("    " + _region_line(r))
        if len(regions) > REGIONS_SHOWN:
            lines.append(f"    ... and {len(regions) - REGIONS_SHOWN:,} more (--json lists them)")
    warnings = {k: n for k, n in report["warnings"]["by_kind"].items() if n}
    if warnings:
        lines.append("  warnings: " + ", ".join(f"{n:,} {k}" for k, n in warnings.items()))
    if report["sha256"]:
        lines.append(f"  sha256 {report['sha256']}")
    return "\n".join(lines)


def _scan_one(path: str, args, csv_out, several: bool):
    """(report, status) for one path; report has an ``error`` field when unreadable."""
    shown = display_path(path)
    try:
        source = FileSource(path)
    except ByteSourceError as e:
        return {"path": shown, "error": str(e), "reason": e.reason}, EXIT_ERROR
    try:
        bar = _ProgressBar(shown, sys.stderr)
        steps = scan_steps(source, args.dialect, max_errors=args.max_errors, workers=args.jobs)
        try:
            while True:
                step = next(steps)
                bar.update(step.done, step.total)
        except StopIteration as stop:
            result = stop.value
        finally:
            bar.close()
        v = verdict(result, source)
        report = build_report(result, source, path, v)
        if csv_out is not None:
            write_csv(csv_out, source, args.dialect, path=shown if several else None,
                      header=False)
        return report, (EXIT_OK if result.valid else EXIT_PROBLEMS)
    except ByteSourceError as e:
        return {"path": shown, "error": str(e), "reason": e.reason}, EXIT_ERROR
    finally:
        source.close()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        args.dialect = K.check_dialect(args.dialect)
    except ValueError as e:
        print(f"utf8-inspector scan: {e}", file=sys.stderr)
        return EXIT_ERROR
    if args.max_errors < 0:
        print("utf8-inspector scan: --max-errors must be 0 or more", file=sys.stderr)
        return EXIT_ERROR
    if args.jobs is not None and args.jobs < 1:
        print("utf8-inspector scan: --jobs must be 1 or more", file=sys.stderr)
        return EXIT_ERROR
    several = len(args.paths) > 1
    csv_out = None
    status = EXIT_OK
    try:
        if args.csv:
            if args.csv == "-":
                csv_out = sys.stdout
            else:
                try:
                    csv_out = open(args.csv, "w", newline="", encoding="utf-8")
                except OSError as e:
                    print(f"utf8-inspector scan: cannot write {display_path(args.csv)}: "
                          f"{e.strerror or e}", file=sys.stderr)
                    return EXIT_ERROR
            from inspector.core.analysis.report import CSV_COLUMNS

            csv_out.write(",".join((("path",) if several else ()) + CSV_COLUMNS) + "\n")
        reports = []
        for path in args.paths:
            report, file_status = _scan_one(path, args, csv_out, several)
            status = max(status, file_status)
            if "error" in report:
                print(f"utf8-inspector scan: {report['error']}", file=sys.stderr)
            elif not args.json:
                print(_summary(report), flush=True)
            reports.append(report)
        if args.json:
            write_json(reports if several else reports[0], sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from
        # complaining while it flushes stdout on the way out.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return status
    except KeyboardInterrupt:
        print("utf8-inspector scan: interrupted", file=sys.stderr)
        return 130
    finally:
        if csv_out is not None and csv_out is not sys.stdout:
            csv_out.close()
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
