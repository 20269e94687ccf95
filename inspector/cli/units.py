"""``utf8-inspector units PATH [--from OFFSET] [--count N|all] [--origin OFFSET]
[--dialect NAME | --encoding NAME] [--json]``: list the units of a region in order.

``--encoding`` reads the bytes in another encoding (any codec Python knows, as
``codecs.lookup`` spells it: ``cp1252``, ``koi8-r``, ``shift_jis``, ``utf-16-le``...;
a UTF-8 dialect's name; or ``map``, each region of the file's encoding map in its own
encoding, which scans the file first). Units are then that encoding's characters
(the unit contract's "Other interpretations"); ``bytes`` are their bytes in it.

The listing starts at the unit that holds ``--from`` (found by looking back a few bytes,
never by decoding from the start of the file) and lists ``--count`` units (64 unless
told; ``all`` runs to the end of the file).

``--json`` prints one JSON list, one unit object per line, written as it goes so a large
listing streams. Each object has ``offset``, ``length``, ``kind`` (the spec's strings),
``codepoint`` (the value of a complete unit, also for overlong, surrogate and
out-of-range units; null for truncated units, stray continuation bytes and FE/FF),
``replacements``, ``warnings`` (a list), ``bytes`` (spaced lowercase hex), ``name`` (the
character's name, null without a code point) and ``explanation`` (one line for errors
and warnings, null for plain valid units); ``at_end`` is added for a truncated unit cut
short by the end of the file. With ``--origin``, units lost to resynchronization right
after the origin carry ``"lost": true``, and one note on stderr gives the offset where
the cut is back in step. The top level stays a plain list. Every unit also has ``line``
and ``column`` (1-based, from the start of the file, also with ``--from``: see
:mod:`inspector.core.scan.lines`); the table shows them as ``line:column``.

Exit status: 0 when every listed unit is valid (warnings allowed), 1 when any is an
error, 2 on a usage or I/O error (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from inspector.cli.common import EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, parse_offset
from inspector.core.units import kinds as K
from inspector.core.source.bytesource import ByteSourceError, FileSource, display_path
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unicode_db import MAX_CODE_POINT, category, name
from inspector.core.units.unitinfo import explain
from inspector.core.scan.lines import line_column

PROG = "utf8-inspector units"
DEFAULT_COUNT = 64
# Bytes cut per step: big enough that the per-step look-back costs nothing, small
# enough that a short listing does not cut a megabyte it will not print.
CHUNK = 1 << 20
MAX_UNIT_BYTES = 6


class UsageError(Exception):
    """A bad command line: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line (its default prints the whole
    usage first) and raises instead of exiting, so main() owns the exit status."""

    def error(self, message):
        raise UsageError(f"{message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="List the UTF-8 units of a region of a file, in order: one valid "
                    "character or one flagged problem per line, like uniname for broken "
                    "data. Exit status 0 when all listed units are valid, 1 when any is "
                    "an error, 2 on a usage or I/O error.")
    p.add_argument("path", help="the file to read (never written)")
    p.add_argument("--from", dest="start", default="0", metavar="OFFSET",
                   help="start at the unit holding this byte offset (decimal or 0x hex; default 0)")
    p.add_argument("--count", default=str(DEFAULT_COUNT), metavar="N",
                   help=f"how many units to list (default {DEFAULT_COUNT}); 'all' lists to the end")
    p.add_argument("--origin", default=None, metavar="OFFSET",
                   help="decode as if the stream began at this offset; the units lost to "
                        "resynchronization after it are marked")
    p.add_argument("--dialect", default=K.UTF8, metavar="NAME",
                   help=f"one of {', '.join(K.DIALECTS)} (default {K.UTF8})")
    p.add_argument("--encoding", default=None, metavar="NAME",
                   help="read the bytes in this encoding instead: a codec name Python knows "
                        "(cp1252, koi8-r, shift_jis, gb18030, utf-16-le, utf-32...), a UTF-8 "
                        "dialect, or 'map' (each region of the encoding map in its own)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of unit objects (one per line) instead of a table")
    return p


def _parse_count(text: str) -> int | None:
    t = text.strip().lower().replace("_", "")
    if t == "all":
        return None
    try:
        n = int(t, 10)
    except ValueError:
        raise UsageError(f"--count {text!r} is not a number (give a count like 100, or 'all')") from None
    if n < 1:
        raise UsageError(f"--count {text!r}: the count must be at least 1")
    return n


def _offset_arg(option: str, text: str) -> int:
    try:
        return parse_offset(text)
    except ValueError as e:
        raise UsageError(f"{option}: {e}") from None


def _check_inside(option: str, offset: int, size: int, path: str) -> None:
    if offset >= size and not (offset == 0 and size == 0):
        shown = display_path(path)
        if size == 0:
            raise UsageError(f"{option} {offset:#x} is past the end of {shown}: the file is empty")
        raise UsageError(f"{option} {offset} (0x{offset:X}) is past the end of {shown}: its "
                         f"size is {size:,} bytes, so the last offset is {size - 1:,} (0x{size - 1:X})")


def iter_chunks(source, start: int, count: int | None, origin: int | None, dialect: str):
    """Yield ``(units, data, base)`` until ``count`` units (None: to the end) from the
    unit that holds ``start`` have been given; ``data`` is the bytes from file offset
    ``base`` (the first unit's offset) to a few bytes past the last unit.

    Big regions are cut with one decoder call per chunk (``units_in_range`` does the
    look-back and the origin's segments), never unit by unit.
    """
    size = source.size
    reading = interpretation(dialect)
    units_in_range = reading.units_in_range
    reach = max(MAX_UNIT_BYTES, reading.max_unit_length)
    first = units_in_range(source, start, start + 1, origin)
    if not first:
        return
    pos = first[0].offset
    left = count
    while pos < size and (left is None or left > 0):
        span = CHUNK if left is None else min(CHUNK, max(256, left * reach))
        units = units_in_range(source, pos, min(size, pos + span), origin)
        if units and units[0].offset < pos:
            units = [u for u in units if u.offset >= pos]
        if not units:
            return  # the file shrank under us: stop quietly at its new end
        if left is not None and len(units) > left:
            del units[left:]
        last_end = units[-1].end
        data = source.read(pos, last_end - pos + reach)
        yield units, data, pos
        if left is not None:
            left -= len(units)
        pos = last_end


# ------------------------------------------------------------------------------ output

_ASCII_NAMES = [name(b) for b in range(128)]


def _unit_name(value: int | None) -> str | None:
    if value is None:
        return None
    if value < 128:
        return _ASCII_NAMES[value]
    return name(value) if value <= MAX_CODE_POINT else "<beyond Unicode>"


def _shown_char(value: int | None) -> str:
    """The character itself when printing it is harmless: never a control, a bidi or
    format character, a line separator or a lone surrogate; a combining mark is shown on
    a dotted circle."""
    if value is None or value > MAX_CODE_POINT or value < 0x20:
        return ""
    if value < 0x7F:
        return chr(value)
    cat = category(value)
    if cat[0] == "C" or cat in ("Zl", "Zp") or (cat == "Zs" and value != 0x20):
        return ""
    if cat[0] == "M":
        return "\u25cc" + chr(value)
    return chr(value)


TABLE_HEADER = (f"{'offset':>10}  {'decimal':>12}  {'line:col':>11}  {'bytes':<17}  "
                f"{'code point':<11}  char  name or problem")


class _Lines:
    """Renders units as JSON objects or table rows.

    Everything after a unit's offset depends only on its bytes and a little context, so
    it is rendered once per distinct unit and cached: most files repeat a few hundred
    distinct characters, which is what makes a million units take seconds. The caches
    are bounded so a file of many distinct units cannot grow them without end.
    """

    CACHE_LIMIT = 200_000

    def __init__(self, as_json: bool, dialect: str, origin: int | None = None):
        self.as_json = as_json
        self.dialect = dialect
        self.origin = origin
        # Plain valid units (no warnings) are keyed by (value, length): a valid unit is
        # never overlong, so its bytes follow from those two.
        self.plain: dict[tuple[int, int], str] = {}
        self.problems: dict[tuple, str] = {}

    def plain_tail(self, u, data: bytes, rel: int) -> str:
        key = (u.value, u.length, u.more)
        tail = self.plain.get(key)
        if tail is None:
            tail = self._tail(u, data, rel, False)
            if len(self.plain) < self.CACHE_LIMIT:
                self.plain[key] = tail
        return tail

    def problem_tail(self, u, data: bytes, rel: int, lost: bool) -> str:
        raw = data[rel:rel + u.length]
        # A truncated unit's explanation names the byte that cut it short.
        after = data[rel + u.length:rel + u.length + 1] if u.kind == K.TRUNCATED else b""
        key = (u.kind, raw, after, u.at_end, lost, u.warnings, u.value)
        tail = self.problems.get(key)
        if tail is None:
            tail = self._tail(u, data, rel, lost)
            if len(self.problems) < self.CACHE_LIMIT:
                self.problems[key] = tail
        return tail

    def _explanation(self, u, data: bytes, rel: int, lost: bool) -> str | None:
        if u.kind == K.VALID and not u.warnings:
            return None
        raw = data[rel:rel + u.length + MAX_UNIT_BYTES]
        reading = interpretation(self.dialect)
        if not reading.is_utf8:
            return reading.explain(u, raw, origin=self.origin)
        return explain(u, raw, reading.name, lost=lost, origin=self.origin)

    def _tail(self, u, data: bytes, rel: int, lost: bool) -> str:
        """What follows the offset: the rest of a JSON object, or of a table row."""
        raw = data[rel:rel + u.length]
        if self.as_json:
            obj = {
                "length": u.length,
                "kind": u.kind,
                "codepoint": u.value,
                "replacements": u.replacements,
                "warnings": list(u.warnings),
                "bytes": raw.hex(" "),
                "name": _unit_name(u.value),
                "explanation": self._explanation(u, data, rel, lost),
            }
            if u.more:   # a character of several code points (Big5-HKSCS, JIS X 0213)
                obj["more"] = list(u.more)
            if u.at_end:
                obj["at_end"] = True
            if lost:
                obj["lost"] = True
            return ", " + json.dumps(obj, ensure_ascii=False)[1:]
        cp = "" if u.value is None else f"U+{u.value:04X}"
        if u.more:
            cp += "".join(f" U+{v:04X}" for v in u.more)
        if u.kind == K.VALID and u.more:
            what = " + ".join(_unit_name(v) or f"U+{v:04X}" for v in (u.value, *u.more))
        elif u.kind == K.VALID and not u.warnings:
            what = _unit_name(u.value)
        elif u.kind == K.VALID:
            what = f"{_unit_name(u.value)}  [{', '.join(u.warnings)}]"
        else:
            what = f"{u.kind.upper()}: {self._explanation(u, data, rel, lost)}"
        char = _shown_char(u.value) if u.kind == K.VALID else ""
        if u.kind == K.VALID and u.more:
            char = (char or "\u25cc") + "".join(map(chr, u.more))   # the marks on their letter
        return f"{raw.hex(' '):<17}  {cp:<11}  {char:<4}  {what}"


def _write_lines(as_json: bool, source, start, count, origin, dialect, out) -> bool:
    """Print the listing; returns True when any listed unit is an error."""
    lost_from = lost_until = -1
    if origin is not None:
        reading = interpretation(dialect)
        sync = reading.resync(source, origin)
        lost_from, lost_until = origin, sync.sync_offset
        if not sync.in_step:
            note = (f"{PROG}: origin 0x{origin:X}: read in {reading.short_title} from there, "
                    f"the units are never back in step with the reading from the start")
        elif sync.lost_bytes and not reading.is_utf8:
            note = (f"{PROG}: origin 0x{origin:X}: {sync.lost_bytes} byte"
                    f"{'s' if sync.lost_bytes != 1 else ''} misread in {reading.short_title}; "
                    f"back in step at offset {sync.sync_offset} (0x{sync.sync_offset:X})")
        elif sync.lost_bytes:
            note = (f"{PROG}: origin 0x{origin:X}: {sync.lost_bytes} continuation "
                    f"byte{'s' if sync.lost_bytes != 1 else ''} lost to resynchronization; "
                    f"back in step at offset {sync.sync_offset} (0x{sync.sync_offset:X})")
        else:
            note = f"{PROG}: origin 0x{origin:X} is a unit boundary: nothing is lost"
        print(note, file=sys.stderr)
    lines = _Lines(as_json, dialect, origin)
    plain_tail, problem_tail = lines.plain_tail, lines.problem_tail
    valid = K.VALID
    any_error = False
    wrote_any = False
    write = out.write
    write("[" if as_json else TABLE_HEADER + "\n")
    line = column = None
    for units, data, base in iter_chunks(source, start, count, origin, dialect):
        parts = []
        append = parts.append
        if line is None:
            line, column = line_column(source, units[0].offset, dialect=dialect)
        for u in units:
            rel = u.offset - base
            if u.kind == valid and not u.warnings:
                tail = plain_tail(u, data, rel)
            else:
                if u.kind != valid:
                    any_error = True
                tail = problem_tail(u, data, rel, lost_from <= u.offset < lost_until)
            if as_json:
                append(f'\n{{"offset": {u.offset}, "line": {line}, "column": {column}{tail},')
            else:
                append(f"{u.offset:#10x}  {u.offset:>12}  {f'{line}:{column}':>11}  {tail}\n")
            if u.kind == valid:
                if u.value == 10:
                    line, column = line + 1, 1
                else:
                    column += u.width
            else:
                column += u.replacements
        text = "".join(parts)
        if as_json:
            # the separator goes before each object, so the last one has no comma
            text = ("," if wrote_any else "") + text[:-1]
        wrote_any = True
        write(text)
    if as_json:
        write("\n]\n" if wrote_any else "]\n")
    out.flush()
    return any_error


def map_reading(source):
    """The encoding map's reading of a file: its scan and verdict worked out first."""
    from inspector.core.analysis.verdict import verdict_of
    from inspector.core.scan.readings.mapreading import MapReading
    from inspector.core.scan.scanner import scan

    emap = verdict_of(scan(source, K.UTF8, max_errors=0), source).regions
    return MapReading.of(emap.regions if emap is not None else [], source.size)


def main(argv: list[str]) -> int:
    source = None
    try:
        args = build_parser().parse_args(argv)
        try:
            dialect = K.check_dialect(args.dialect)
        except ValueError as e:
            raise UsageError(f"--dialect: {e}") from None
        encoding = args.encoding
        if encoding is not None and encoding.strip().lower() != "map":
            try:
                dialect = interpretation(encoding)
            except ValueError as e:
                raise UsageError(f"--encoding: {e}") from None
        start = _offset_arg("--from", args.start)
        origin = _offset_arg("--origin", args.origin) if args.origin is not None else None
        count = _parse_count(args.count)
        source = FileSource(args.path)
        _check_inside("--from", start, source.size, args.path)
        if origin is not None:
            _check_inside("--origin", origin, source.size, args.path)
        if encoding is not None and encoding.strip().lower() == "map":
            dialect = map_reading(source)
        out = sys.stdout
        # A name or a character the terminal cannot show must not end the listing.
        if hasattr(out, "reconfigure"):
            out.reconfigure(errors="backslashreplace")
        any_error = _write_lines(args.json, source, start, count, origin, dialect, out)
        return EXIT_PROBLEMS if any_error else EXIT_OK
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_ERROR
    except ByteSourceError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader (head, less) went away: stop quietly. Point stdout at /dev/null so
        # the interpreter's final flush does not complain about the closed pipe.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    finally:
        if source is not None:
            source.close()
