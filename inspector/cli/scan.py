"""``utf8-inspector scan PATH... [--json | --jsonl | --format gnu] [--dialect NAME]
[--max-errors N] [--csv FILE] [--jobs N] [--dask ADDRESS] [--include GLOB] [--exclude GLOB]
[--follow-links]``

Scans whole files and prints, per file, a readable summary (and a final summary line),
or (``--json``) one JSON object: a single file prints one object, several files (or a
directory) a JSON list of objects in walk order; ``--jsonl`` prints one object per line
as files finish, in walk order; ``--format gnu`` prints ``path:line:column: kind:
explanation`` for each listed error. A PATH may be a file, a directory (walked
recursively in sorted order; see :mod:`inspector.core.scan.corpus`) or ``-`` for
standard input. A file that cannot be read gets a one-line message on stderr and, in
JSON, an object with ``path`` and ``error``; the other files are still scanned. A
special file met in a directory is reported as skipped (``skipped``: the reason).

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

from inspector.cli.common import EXIT_ERROR, EXIT_OK
from inspector.core.units import kinds as K
from inspector.core.units.ranges import byte_range
from inspector.core.source.bytesource import ByteSourceError, FileSource, display_path
from inspector.core.source.safewrite import AtomicWriter, WriteRefused, check_target
from inspector.core.analysis import batch as BA
from inspector.core.analysis.report import json_text, write_csv, write_json
from inspector.core.scan import corpus as CO

PROGRESS_AFTER = 0.5  # seconds: quick files never show a bar
REGIONS_SHOWN = 10  # regions the readable summary lists (JSON has them all)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="utf8-inspector scan",
        description="Scan files and report how a UTF-8 decoder sees them.",
        epilog="Exit status: 0 all valid, 1 problems found, 2 a file could not be read.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or directories to scan ('-': standard input)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="print JSON: one object for one file, a list for several")
    out.add_argument("--jsonl", action="store_true",
                     help="print one JSON object per line, as files finish (walk order)")
    out.add_argument("--format", choices=("text", "gnu"), default="text",
                     help="gnu: one 'path:line:column: kind: explanation' line per error")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="in directories, scan only files whose name or path below the "
                        "directory matches GLOB (repeatable)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="in directories, leave out files and folders matching GLOB (repeatable)")
    p.add_argument("--follow-links", action="store_true",
                   help="follow symbolic links met in directories (default: skip them)")
    p.add_argument("--dialect", default=K.UTF8,
                   help=f"UTF-8 dialect: {', '.join(K.DIALECTS)} (default utf-8)")
    p.add_argument("--max-errors", type=int, default=100, metavar="N",
                   help="errors listed per file (default 100)")
    p.add_argument("--csv", metavar="FILE",
                   help="write every error unit to FILE as CSV ('-' for stdout)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes for many files and large utf-8 files (default: one per "
                        "core; 1: no extra process)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run the tasks on a Dask cluster (scheduler address, e.g. "
                        "tcp://host:8786); needs the 'cluster' extra")
    return p


class _TerminalBar:
    """A one-line bar on stderr, shown only on a terminal, only once the work has taken
    longer than a moment, and redrawn at most ten times a second."""

    def __init__(self, stream, enabled: bool = True):
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.began = time.monotonic()
        self.shown = False
        self.last = 0.0

    def due(self) -> float | None:
        """The time now when the bar should be redrawn, else None."""
        if not self.enabled:
            return None
        now = time.monotonic()
        if now - self.began < PROGRESS_AFTER or now - self.last < 0.1:
            return None
        self.last = now
        self.shown = True
        return now

    def draw(self, text: str) -> None:
        self.stream.write(f"\r{text}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _bar(frac: float, width: int = 30) -> str:
    filled = int(min(1.0, frac) * width)
    return f"[{'#' * filled}{'.' * (width - filled)}]"


class FileProgressBar(_TerminalBar):
    """Progress through one file on ``stream`` (the command uses stderr): drawn only on a
    terminal, and only once the file has taken a moment."""

    def __init__(self, label: str, stream):
        super().__init__(stream)
        self.label = label

    def update(self, done: int, total: int) -> None:
        now = self.due()
        if now is None:
            return
        frac = done / total if total else 1.0
        mib = done / (1 << 20)
        speed = mib / max(now - self.began, 1e-6)
        self.draw(f"{self.label[:40]} {_bar(frac)} {frac * 100:5.1f}% {mib:,.0f} MiB "
                  f"{speed:,.0f} MiB/s")


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
    return f"{byte_range(r['start'], r['end'], decimal=True)}: {name}"


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


class _FilesBar(_TerminalBar):
    """Progress across files: files and bytes done, ETA from the bytes."""

    def __init__(self, stream, total_files: int, total_bytes: int):
        super().__init__(stream, total_files > 1)
        self.total_files = total_files
        self.total_bytes = total_bytes
        self.files = self.bytes = 0

    def add(self, n_bytes: int) -> None:
        self.files += 1
        self.bytes += n_bytes
        now = self.due()
        if now is None:
            return
        frac = self.bytes / self.total_bytes if self.total_bytes else self.files / self.total_files
        elapsed = now - self.began
        eta = elapsed * (1 - frac) / frac if frac > 0 else 0.0
        self.draw(f"{_bar(frac)} {self.files:,}/{self.total_files:,} files, "
                  f"{self.bytes / (1 << 20):,.1f}/{self.total_bytes / (1 << 20):,.1f} MiB, "
                  f"ETA {eta:,.0f} s")


def _gnu_lines(report: dict) -> list[str]:
    """``path:line:column: kind: explanation`` per listed error."""
    path = report["path"]
    if "error" in report:
        return [f"{path}: error: {report['error']}"]
    if "skipped" in report:
        return []
    return [f"{path}:{e['line']}:{e['column']}: {e['kind']}: {e.get('explanation') or e['kind']}"
            for e in report["first_errors"]]


def _one_file_report(entry, args, options, executor=None):
    """The report of one entry scanned in this process (a file, or standard input),
    with a progress bar for a long one."""
    if entry.kind == "stdin":
        try:
            source = CO.SpooledInput()
        except OSError as e:
            return {"path": CO.STDIN, "error": f"-: cannot read standard input: {e.strerror or e}",
                    "reason": "io"}
        try:
            return BA.report_source(source, CO.STDIN, options, args.jobs, executor=executor)
        except ByteSourceError as e:
            return BA.error_report(CO.STDIN, e)
        finally:
            source.close()
    bar = FileProgressBar(display_path(entry.path), sys.stderr)
    try:
        return BA.report_path(entry.path, options, args.jobs, bar.update, executor)
    finally:
        bar.close()


def _open_csv(args, several: bool, files) -> tuple[AtomicWriter | None, object]:
    """The CSV's writer (None for standard output) and the file its rows go to: never
    one of the scanned ``files``, written beside its target and renamed onto it at the
    end (``safewrite``)."""
    writer = None
    if args.csv == "-":
        csv_out = sys.stdout
    else:
        try:
            check_target(args.csv, [e.path for e in files if e.kind == "file"])
            writer = AtomicWriter(args.csv)
        except WriteRefused as e:
            raise ByteSourceError(f"cannot write the CSV: {e}", args.csv) from None
        except OSError as e:
            raise ByteSourceError(f"cannot write {display_path(args.csv)}: {e.strerror or e}",
                                  args.csv) from None
        csv_out = writer.file
    from inspector.core.analysis.report import CSV_COLUMNS

    csv_out.write(",".join((("path",) if several else ()) + CSV_COLUMNS) + "\n")
    return writer, csv_out


def _write_csv_rows(csv_out, entry, report, args, several: bool) -> None:
    if "error" in report or "skipped" in report or entry.kind == "stdin":
        return  # standard input's rows are written while its spool is open (see below)
    try:
        with FileSource(entry.path) as source:
            write_csv(csv_out, source, args.dialect, path=report["path"] if several else None,
                      header=False)
    except ByteSourceError as e:
        print(f"utf8-inspector scan: {e}", file=sys.stderr)


def _check_args(args) -> str | None:
    try:
        args.dialect = K.check_dialect(args.dialect)
    except ValueError as e:
        return str(e)
    if args.max_errors < 0:
        return "--max-errors must be 0 or more"
    if args.jobs is not None and args.jobs < 1:
        return "--jobs must be 1 or more"
    if args.paths.count(CO.STDIN) > 1:
        return "standard input ('-') can be scanned once"
    return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    problem = _check_args(args)
    if problem:
        print(f"utf8-inspector scan: {problem}", file=sys.stderr)
        return EXIT_ERROR
    entries = list(CO.walk(args.paths, args.include, args.exclude, args.follow_links))
    files = [e for e in entries if e.kind in ("file", "stdin")]
    several = len(args.paths) > 1 or len(entries) != 1 or entries[0].path != args.paths[0]
    gnu = args.format == "gnu"
    options = BA.Options(args.dialect, args.max_errors, explain=gnu,
                         packed=args.jsonl and not args.csv)
    csv_out = csv_writer = None
    status = EXIT_OK
    summary = BA.Summary()
    bar = _FilesBar(sys.stderr, len(files), sum(e.size for e in files))
    executor = None
    finished = False
    try:
        if args.csv:
            try:
                csv_writer, csv_out = _open_csv(args, several, files)
            except ByteSourceError as e:
                print(f"utf8-inspector scan: {e}", file=sys.stderr)
                return EXIT_ERROR
        try:
            executor, local = _executor(args, files)
        except RuntimeError as e:
            print(f"utf8-inspector scan: {e}", file=sys.stderr)
            return EXIT_ERROR
        collected = []
        stdin_rows = csv_out is not None and any(e.kind == "stdin" for e in files)
        run_here = ((lambda e: _stdin_with_csv(e, args, options, csv_out, several, executor))
                    if stdin_rows else (lambda e: _one_file_report(e, args, options, executor)))
        for entry, report in BA.reports(entries, options, executor, local, run_here=run_here):
            status = max(status, BA.status_of(report))
            summary.add(report)
            if "skipped" not in report:
                bar.add(report.get("size") or 0)
            if "error" in report:
                bar.close()
                print(f"utf8-inspector scan: {report['error']}", file=sys.stderr)
            if csv_out is not None:
                _write_csv_rows(csv_out, entry, report, args, several)
            if args.jsonl:
                bar.close()
                sys.stdout.write(report.line if isinstance(report, BA.PackedReport)
                                 else json_text(report))
                sys.stdout.flush()
            elif args.json:
                collected.append(report)
            elif gnu:
                lines = _gnu_lines(report)
                if lines:
                    bar.close()
                    print("\n".join(lines), flush=True)
            elif "skipped" in report:
                bar.close()
                print(f"{report['path']}: skipped: {report['message']}", flush=True)
            elif "error" not in report:
                bar.close()
                print(_summary(report), flush=True)
        bar.close()
        if args.json:
            write_json(collected if several else collected[0], sys.stdout)
            sys.stdout.flush()
        elif not args.jsonl and not gnu and (several or summary.files > 1):
            print(summary.text(), flush=True)
        finished = True
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
        bar.close()
        if executor is not None:
            # After a whole run the workers are idle: wait for them, or the interpreter's
            # exit hook may wake the pool's manager through a pipe already closed
            # ("OSError: Bad file descriptor" on stderr, now and then).
            executor.shutdown(wait=finished, cancel_futures=not finished)
        if csv_writer is not None:
            if finished:  # the rows of a run cut short are not kept: nothing half-written
                try:
                    csv_writer.commit()
                except OSError as e:
                    print(f"utf8-inspector scan: cannot write {display_path(args.csv)}: "
                          f"{e.strerror or e}", file=sys.stderr)
                    status = EXIT_ERROR
            else:
                csv_writer.discard()
    return status


def _stdin_with_csv(entry, args, options, csv_out, several, executor=None):
    """Standard input read once: its report and its CSV rows from the same spool."""
    if entry.kind != "stdin":
        return _one_file_report(entry, args, options, executor)
    with CO.SpooledInput() as source:
        try:
            report = BA.report_source(source, CO.STDIN, options, args.jobs, executor=executor)
        except ByteSourceError as e:
            return BA.error_report(CO.STDIN, e)
        write_csv(csv_out, source, args.dialect, path=CO.STDIN if several else None,
                  header=False)
    return report


# By default a folder is scanned in this process unless it holds this many bytes or
# files. Every worker of a pool imports numpy, chardet and the scan afresh (~0.3 s of
# CPU each) and a file's report is sent back pickled: on 425 web pages and texts
# (7 MB, chardet's test files) one process took less CPU and no more time than a pool
# of two. One process reads ~8 MB or ~500 files of such text a second.
POOL_MIN_BYTES = 32 << 20
POOL_MIN_FILES = 2000
CLUSTER_HINT = "pip install 'utf8-inspector[cluster]'"


class _ClusterExecutor:
    """A Dask cluster's ``concurrent.futures`` executor (``Client.get_executor()``),
    closed with its client."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError(f"--dask needs the 'distributed' package: {CLUSTER_HINT}") from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as e:
            raise RuntimeError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        # pure=False: a task is run again every time (a file may have changed since).
        self.executor = self.client.get_executor(pure=False)

    def submit(self, fn, *args, **kwargs):
        return self.executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        try:
            self.executor.shutdown(wait=wait and not cancel_futures)
        finally:
            self.client.close()


def _executor(args, files):
    """(executor or None, which entries stay in this process): a Dask cluster's with
    ``--dask``, else a local process pool when there is work for more than one process
    (``--jobs``, by default one per core; 1: none). Standard input is read here; a large
    file is cut here into slices that run on the same executor."""
    several = [e for e in files if e.kind == "file"]
    if not args.dask and (args.jobs == 1 or len(several) < 2):
        return None, None  # one file: report_path cuts a large one into slices itself
    if (not args.dask and args.jobs is None and sum(e.size for e in several) < POOL_MIN_BYTES
            and len(several) < POOL_MIN_FILES):
        return None, None  # small files: a pool costs more than it saves
    from inspector.core.scan import parallel as PS  # numpy: not for small files

    def local(entry) -> bool:
        return entry.kind == "stdin" or entry.size >= PS.MIN_PARALLEL_BYTES

    if args.dask:
        return _ClusterExecutor(args.dask), local
    jobs = args.jobs or PS.default_workers()
    if jobs <= 1:
        return None, None
    return PS.process_pool(jobs), local


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
