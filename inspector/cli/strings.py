"""``utf8-inspector strings PATH... [-n MIN] [-t d|o|x] [-f] [--encoding NAME] [--dialect
NAME] [--jsonl] [--jobs N]``

Prints the text runs of files (the unit contract's "Text runs"): the stretches of
printable characters of at least MIN characters, in UTF-8 (by default) or UTF-16, like
GNU ``strings`` but reading characters, not bytes. Plain output is one run per line, as
GNU ``strings`` prints it (``-t`` puts the offset of the run's first byte before it,
``-f`` the file's name); ``--jsonl`` prints one JSON object per run with ``offset``,
``length`` (bytes), ``chars``, ``text``, ``encoding``, ``scripts``, ``damaged_before`` and
``damaged_after`` (and ``path`` when several files are read).

Plain UTF-8 output in the standard dialect (the default) takes a fast path
(:mod:`inspector.core.analysis.textruns.plain`), on ``--jobs`` processes for a file of
48 MiB or more (default: one per core); the other options go through the finder.

A PATH may be a file, a directory (walked recursively in sorted order, as ``scan`` does)
or ``-`` for standard input. Exit status: 0, or 2 when a file could not be read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from inspector.cli.common import EXIT_ERROR, EXIT_OK
from inspector.core.units import kinds as K
from inspector.core.source.bytesource import ByteSourceError, FileSource, display_path
from inspector.core.scan import corpus as CO
from inspector.core.analysis import textruns as TR

RADIX = {"d": "{:7d} ", "o": "{:7o} ", "x": "{:7x} "}  # GNU strings' widths

DESCRIPTION = """\
Print the text runs of files: stretches of at least MIN printable characters (letters,
marks, digits, punctuation, symbols, SPACE and TAB: no controls, format characters,
private use, unassigned code points or other separators) in UTF-8 and/or UTF-16, each
on a line, as GNU strings does. Unlike GNU strings, a UTF-8 character is one character
whatever its bytes, and a run never holds a damaged unit: with --jsonl each run says
whether one sits right before or after it, and which scripts it is written in.
UTF-16 is read in code units at even offsets; random bytes read as UTF-16 are mostly
printable (85 % of the BMP is), so expect noise there."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="utf8-inspector strings", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0, or 2 when a file could not be read.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or directories ('-': standard input)")
    p.add_argument("-n", "--bytes", dest="min_chars", type=int, default=TR.DEFAULT_MIN_CHARS,
                   metavar="MIN", help="print runs of at least MIN characters (default 4)")
    p.add_argument("-t", "--radix", choices=sorted(RADIX),
                   help="print each run's offset (its first byte) first, in decimal (d), "
                        "octal (o) or hex (x)")
    p.add_argument("-f", "--print-file-name", action="store_true",
                   help="print the file's name before each run")
    p.add_argument("--encoding", default=TR.UTF8, metavar="NAME",
                   help="utf-8 (default), utf-16-le, utf-16-be, or all (runs of every "
                        "encoding, in offset order)")
    p.add_argument("--dialect", default=K.UTF8,
                   help=f"UTF-8 dialect: {', '.join(K.DIALECTS)} (default utf-8)")
    p.add_argument("--jsonl", action="store_true",
                   help="print one JSON object per run (offset, length, chars, text, "
                        "encoding, scripts, damaged_before, damaged_after)")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="in directories, read only files matching GLOB (repeatable)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="in directories, leave out files and folders matching GLOB (repeatable)")
    p.add_argument("--follow-links", action="store_true",
                   help="follow symbolic links met in directories (default: skip them)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes for a large file (default: one per core; 1: no extra "
                        "process); used for plain utf-8 output")
    return p


def _check(args) -> str | None:
    try:
        args.dialect = K.check_dialect(args.dialect)
        args.encodings = TR.encodings_of(args.encoding)
    except ValueError as e:
        return str(e)
    if args.min_chars < 1:
        return "-n must be 1 or more"
    if args.jobs is not None and args.jobs < 1:
        return "--jobs must be 1 or more"
    if args.paths.count(CO.STDIN) > 1:
        return "standard input ('-') can be read once"
    return None


def _write_runs(out, source, name: str, args, several: bool) -> None:
    """Every run of ``source``, written to ``out`` (bytes) as it is found."""
    sets = TR.ScriptSets()
    prefix = (display_path(name) + ": ").encode("utf-8", "surrogateescape") \
        if args.print_file_name else b""
    radix = RADIX.get(args.radix or "")
    if not args.jsonl and args.encodings == (TR.UTF8,) and args.dialect == K.UTF8:
        _write_plain(out, source, args.min_chars, radix, prefix, args.jobs)
        return
    for batch in TR.find_runs(source, args.encodings, args.min_chars, args.dialect,
                              scripts=args.jsonl, script_sets=sets):
        if not len(batch):
            continue
        texts = TR.texts_utf8(batch, source, args.dialect)
        if args.jsonl:
            out.write(_json_lines(batch, texts, sets, name if several or args.print_file_name
                                  else None))
            continue
        if radix is not None:
            texts = [radix.format(o).encode() + t for o, t in zip(batch.offset.tolist(), texts)]
        if prefix:
            texts = [prefix + t for t in texts]
        texts.append(b"")
        out.write(b"\n".join(texts))


def _write_plain(out, source, min_chars: int, radix, prefix: bytes, jobs) -> None:
    """Plain lines of the standard dialect's UTF-8 runs: the fast path
    (:mod:`inspector.core.analysis.textruns.plain`), in worker processes for a large file.

    Why several processes by default here, when the window scans in one: a command line
    run has the machine to itself as far as it knows, as ``scan`` (whose ``--jobs``
    defaults to one per core too), and the slices' output keeps the file's order."""
    from inspector.core.analysis.textruns import plain as PL

    path = getattr(source, "slice_path", None)
    if jobs is None:
        jobs = _default_jobs(source.size)
    if jobs > 1 and path is not None and source.size >= PARALLEL_MIN_BYTES:
        _write_plain_parallel(out, PL, path, source.size, min_chars, radix, prefix, jobs)
        return
    for chunk in PL.lines(source, min_chars, radix, prefix):
        out.write(chunk)


PARALLEL_MIN_BYTES = 48 << 20  # below this one process is as quick (a pool costs 10-25 ms)


def _default_jobs(size: int) -> int:
    if size < PARALLEL_MIN_BYTES:
        return 1
    from inspector.core.scan import parallel as PS
    return PS.default_workers()


def _write_plain_parallel(out, PL, path, size: int, min_chars: int, radix, prefix: bytes,
                          jobs: int) -> None:
    """The file's slices on ``jobs`` processes, at most two slices a process ahead of
    the output (memory stays flat whatever the reader's pace), joined in order."""
    from inspector.core.scan import parallel as PS

    tasks = PL.slice_jobs(path, size, min_chars, radix, prefix)
    joiner = PL.Lines(min_chars, radix, prefix)
    PL.patterns(min_chars)  # built once here: forked workers start with them
    pool = PS.process_pool(jobs)
    try:
        pending = []
        nxt = 0
        while nxt < len(tasks) or pending:
            while nxt < len(tasks) and len(pending) < 2 * jobs:
                pending.append(pool.submit(PL.slice_pieces, tasks[nxt]))
                nxt += 1
            try:
                done = pending.pop(0).result()
            except OSError as e:
                raise ByteSourceError(f"{display_path(path)}: read failed: {e.strerror or e}",
                                      path, "io") from None
            for piece in done:
                chunk = joiner.feed(piece)
                if chunk:
                    out.write(chunk)
        out.write(joiner.finish())
    finally:
        PS.stop_pool(pool)


def _json_lines(batch, texts, sets, path) -> bytes:
    lines = []
    names = {}
    for off, length, chars, enc, before, after, sset, text in zip(
            batch.offset.tolist(), batch.length.tolist(), batch.chars.tolist(),
            batch.encoding.tolist(), batch.damaged_before.tolist(),
            batch.damaged_after.tolist(), batch.script_set.tolist(), texts):
        scripts = names.get(sset)
        if scripts is None:
            scripts = names[sset] = sets.names(sset)
        record = {"offset": off, "length": length, "chars": chars,
                  "text": text.decode("utf-8"), "encoding": TR.ENCODINGS[enc],
                  "scripts": scripts, "damaged_before": before, "damaged_after": after}
        if path is not None:
            record = {"path": display_path(path), **record}
        lines.append(json.dumps(record, ensure_ascii=False))
    lines.append("")
    return "\n".join(lines).encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    problem = _check(args)
    if problem:
        print(f"utf8-inspector strings: {problem}", file=sys.stderr)
        return EXIT_ERROR
    entries = list(CO.walk(args.paths, args.include, args.exclude, args.follow_links))
    several = len(args.paths) > 1 or len(entries) != 1 or entries[0].path != args.paths[0]
    status = EXIT_OK
    out = sys.stdout.buffer
    try:
        for entry in entries:
            if entry.kind in ("skipped", "error"):
                print(f"utf8-inspector strings: {display_path(entry.path)}: {entry.message}",
                      file=sys.stderr)
                if entry.kind == "error":
                    status = EXIT_ERROR
                continue
            try:
                source = CO.SpooledInput() if entry.kind == "stdin" else FileSource(entry.path)
            except (ByteSourceError, OSError) as e:
                out.flush()
                print(f"utf8-inspector strings: {e}", file=sys.stderr)
                status = EXIT_ERROR
                continue
            try:
                _write_runs(out, source, entry.path, args, several)
            except ByteSourceError as e:
                out.flush()
                print(f"utf8-inspector strings: {e}", file=sys.stderr)
                status = EXIT_ERROR
            finally:
                source.close()
        out.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return status
    except KeyboardInterrupt:
        print("utf8-inspector strings: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
