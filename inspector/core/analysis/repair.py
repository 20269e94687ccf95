"""Save a repaired copy: a NEW file in which every problem unit is rewritten by a policy,
so the copy is valid UTF-8. The inspected file is never written.

Policies, for each problem unit:

* ``replace``: one U+FFFD per replacement (the Unicode "maximal subpart" practice, the
  same text as ``bytes.decode('utf-8', 'replace')``);
* ``drop``: nothing (the same as ``errors='ignore'``);
* ``cp1252``: the unit's bytes read as Windows-1252, the fallback that rescues files in
  which UTF-8 and a legacy encoding were mixed (the five bytes cp1252 leaves undefined,
  81 8D 8F 90 9D, are read as Latin-1, that is as the C1 controls of the same number);
* ``latin1``: the unit's bytes read as ISO-8859-1.

A policy can also be given per kind, as a mapping ``{kind: policy}`` (kinds left out
get ``replace``).

Valid units are copied byte for byte, warnings included (a BOM, a U+FFFD already in the
data, a control character stay as they were: they are valid UTF-8).

Dialects. The repair is made relative to a dialect:

* ``utf-8``: every unit that is not valid UTF-8 is a problem;
* ``cesu-8``: a valid surrogate pair (6 bytes) is written as the proper 4-byte UTF-8
  sequence of its code point; everything else as in ``utf-8``;
* ``mutf-8``: as ``cesu-8``, and ``C0 80`` is written as the byte 00 (a raw 00 in the
  data, valid but a warning there, stays as it is);
* ``wtf-8`` and ``fss-utf``: the units these dialects accept beyond UTF-8 (a lone
  surrogate; values above U+10FFFF and 5/6-byte forms) have no valid UTF-8 spelling, so
  they are treated as problems and get the policy like any other error, under their
  UTF-8 kind (``surrogate``, ``out_of_range``, ``legacy_long_form``). The result is the
  same as under ``utf-8``.

How it is fast: each chunk is cut at a unit boundary and run through CPython's UTF-8
decoder with a registered error handler that only records where the maximal subparts
are. A chunk without errors is written as it is. Adjacent error subparts form runs that
are whole units (a run starts and ends where valid characters do), so only those runs
are cut with the reference decoder (:func:`inspector.core.units.decoder.cut`) to learn their
kinds and rewritten; the bytes between runs are copied as they are.

:func:`repair_steps` is a generator: it yields :class:`Progress` and returns a
:class:`RepairSummary`; stopping it removes the temporary file and leaves nothing.
:mod:`inspector.core.analysis.repairpreview` shows what each policy makes of the problems
near an offset and counts what each policy would change in the whole file;
:mod:`inspector.core.analysis.encodings.regionrepair` converts each region of the
encoding map from its encoding.
"""

from __future__ import annotations

import hashlib
import os
import queue
import threading
from collections import Counter
from typing import Iterator, Mapping

from inspector.core.source import safewrite
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import chunk_end
from inspector.core.units.decoder import Unit, cut
from inspector.core.units.errorruns import error_runs
from inspector.core.analysis.search import Progress, read_chunk

REPLACE = "replace"
DROP = "drop"
CP1252 = "cp1252"
LATIN1 = "latin1"
POLICIES = (REPLACE, DROP, CP1252, LATIN1)
POLICY_TITLES = {
    REPLACE: "U+FFFD for each replacement (Unicode practice)",
    DROP: "drop the bytes",
    CP1252: "decode the bytes as Windows-1252",
    LATIN1: "decode the bytes as Latin-1 (ISO-8859-1)",
}
# What Python's own decoder gives, shown beside the policies for reproducibility.
PYTHON_ERROR_HANDLERS = ("replace", "surrogateescape", "ignore")

# Conversions a dialect makes of units that are valid in it (not errors).
SURROGATE_PAIR = "surrogate_pair"
MODIFIED_NUL = "modified_nul"

DEFAULT_CHUNK = 8 << 20


class RepairError(Exception):
    """A repair that cannot or must not be done, with a message a person can act on."""


# ---------------------------------------------------------------------------- policies

# cp1252 differs from Latin-1 only in 80..9F; a translation table from the Latin-1 reading
# gives the cp1252 reading in one C call (undefined bytes keep their Latin-1 meaning).
_CP1252_FROM_LATIN1 = {}
for _b in range(0x80, 0xA0):
    try:
        _CP1252_FROM_LATIN1[_b] = bytes([_b]).decode("cp1252")
    except UnicodeDecodeError:
        pass
del _b


def legacy_text(raw: bytes, policy: str) -> str:
    """The bytes read as Windows-1252 (``cp1252``) or ISO-8859-1 (``latin1``)."""
    text = bytes(raw).decode("latin-1")
    return text.translate(_CP1252_FROM_LATIN1) if policy == CP1252 else text


def resolve_policy(policy: str | Mapping[str, str]) -> dict[str, str]:
    """A policy for every error kind, from one policy name or a ``{kind: policy}`` map."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        return {kind: policy for kind in K.ERROR_KINDS}
    out = {kind: REPLACE for kind in K.ERROR_KINDS}
    for kind, chosen in policy.items():
        if kind not in K.ERROR_KINDS:
            raise ValueError(f"{kind!r} is not an error kind; choose among {', '.join(K.ERROR_KINDS)}")
        if chosen not in POLICIES:
            raise ValueError(f"unknown policy {chosen!r} for {kind}; choose one of {', '.join(POLICIES)}")
        out[kind] = chosen
    return out


def unit_text(unit: Unit, raw: bytes, policy: str) -> str:
    """What ``policy`` writes for one problem unit whose bytes are ``raw``."""
    if policy == REPLACE:
        return "\ufffd" * unit.replacements
    if policy == DROP:
        return ""
    return legacy_text(raw, policy)


def repair_dialect(dialect: str) -> str:
    """The dialect the file is cut under for a repair (see the module text): WTF-8 and
    FSS-UTF accept units that UTF-8 cannot spell, so those are cut as UTF-8."""
    dialect = K.check_dialect(dialect)
    return dialect if dialect in K.PAIR_UNIT_DIALECTS else K.UTF8


# ------------------------------------------------------------- finding the problem runs

def problem_runs(data) -> list[tuple[int, int]]:
    """[start, end) of each run of bytes that are not valid UTF-8, in order: CPython's
    maximal subparts, adjacent ones joined. Each run is a sequence of whole units."""
    runs = error_runs(data)[0]
    return list(zip(runs[0::2], runs[1::2]))


# CPython's decoder builds a str of each piece it checks; pieces that stay in the CPU's
# cache are checked about twice as fast as multi-megabyte ones.
DECODE_PIECE = 256 << 10


def runs_in_chunk(view, pairs: bool) -> list[tuple[int, int]]:
    """The problem runs of a chunk that ends at a unit boundary."""
    runs = []
    start = 0
    n = len(view)
    while start < n:
        stop = n if n - start <= DECODE_PIECE else start + chunk_end(
            view[start:start + DECODE_PIECE], DECODE_PIECE, pairs)
        for a, b in problem_runs(view[start:stop]):
            a += start
            b += start
            if runs and runs[-1][1] == a:  # a run split by the piece boundary
                a = runs.pop()[0]
            runs.append((a, b))
        start = stop
    return runs


def chunks_with_runs(source, dialect: str, chunk_size: int, stats: Counter
                      ) -> Iterator[tuple[int, memoryview, list]]:
    """(offset, chunk, [(run start, run end)]) for the whole source, each chunk
    ending at a unit boundary. ``stats['read']`` counts the bytes handed out."""
    size = source.size
    pairs = dialect in K.PAIR_UNIT_DIALECTS
    pos = 0
    while pos < size:
        data = read_chunk(source, pos, min(chunk_size, size - pos))
        if not data:
            raise RepairError(f"the file ended at {pos:,} bytes, before its size of {size:,}: "
                              "it changed while it was read")
        end = len(data) if pos + len(data) >= size else chunk_end(data, len(data), pairs)
        view = memoryview(data)[:end]
        runs = runs_in_chunk(view, pairs)
        stats["read"] = pos + end
        yield pos, view, runs
        pos += end


# ------------------------------------------------------------------------------ summary

class RepairSummary:
    """What a repair did. ``changed_by_kind``: problem units rewritten, by kind;
    ``converted``: valid dialect units rewritten as UTF-8 (``surrogate_pair``,
    ``modified_nul``); ``replacements_written``: U+FFFD written by the policy."""

    def __init__(self, source_path, target_path, policy, dialect: str):
        self.source_path = source_path
        self.target_path = target_path
        self.policy = policy
        self.dialect = dialect
        self.bytes_in = 0
        self.bytes_out = 0
        self.changed_by_kind: Counter = Counter()
        self.converted: Counter = Counter()
        self.replacements_written = 0
        self.bytes_changed = 0  # source bytes inside rewritten units
        self.source_sha256 = ""
        self.output_sha256 = ""

    def add(self, effect: "_RunEffect") -> None:
        for kind, n in effect.kinds:
            self.changed_by_kind[kind] += n
        for name, n in effect.converted:
            self.converted[name] += n
        self.replacements_written += effect.written[0]
        self.bytes_changed += effect.problem_bytes

    @property
    def identical(self) -> bool | None:
        """Whether the copy is the original byte for byte, from what was written: the
        sizes and the SHA-256 of both sides compared (None before both hashes exist)."""
        if not self.source_sha256 or not self.output_sha256:
            return None
        return self.bytes_in == self.bytes_out and self.source_sha256 == self.output_sha256

    @property
    def units_changed(self) -> int:
        return sum(self.changed_by_kind.values()) + sum(self.converted.values())

    @property
    def problems_fixed(self) -> int:
        return sum(self.changed_by_kind.values())

    def to_dict(self) -> dict:
        return {
            "source": None if self.source_path is None else os.fsdecode(self.source_path),
            "target": os.fsdecode(self.target_path),
            "policy": self.policy if isinstance(self.policy, str) else dict(self.policy),
            "dialect": self.dialect,
            "bytes_in": self.bytes_in,
            "bytes_out": self.bytes_out,
            "units_changed": self.units_changed,
            "changed_by_kind": dict(self.changed_by_kind),
            "converted": dict(self.converted),
            "replacements_written": self.replacements_written,
            "bytes_changed": self.bytes_changed,
            "source_sha256": self.source_sha256,
            "output_sha256": self.output_sha256,
            "identical": self.identical,
        }

    def describe(self) -> str:
        """A few lines for a person."""
        lines = [f"Wrote {self.bytes_out:,} bytes (from {self.bytes_in:,}) to "
                 f"{os.fsdecode(self.target_path)}."]
        if self.identical:
            lines.append("The copy is identical to the original (same size and SHA-256): "
                         "nothing needed repair.")
        elif self.identical is False:
            lines.append("The copy differs from the original ("
                         + ("its SHA-256 differs" if self.bytes_in == self.bytes_out else
                            f"{self.bytes_out - self.bytes_in:+,} bytes") + "):")
        for kind, n in sorted(self.changed_by_kind.items()):
            lines.append(f"  {n:,} × {K.title(kind)}")
        if self.converted.get(SURROGATE_PAIR):
            lines.append(f"  {self.converted[SURROGATE_PAIR]:,} surrogate pairs written as 4-byte UTF-8")
        if self.converted.get(MODIFIED_NUL):
            lines.append(f"  {self.converted[MODIFIED_NUL]:,} C0 80 written as 00")
        if self.replacements_written:
            lines.append(f"{self.replacements_written:,} U+FFFD written.")
        lines.append(f"SHA-256 of the original: {self.source_sha256}")
        lines.append(f"SHA-256 of the copy:     {self.output_sha256}")
        return "\n".join(lines)

    def __repr__(self):
        return (f"RepairSummary({self.bytes_in}->{self.bytes_out} bytes, "
                f"{self.units_changed} units changed)")


class _RunEffect:
    """What one run of problem bytes turns into: the output under each policy map, the
    problem units by kind, the dialect conversions, the U+FFFD written under each map,
    the bytes in problem units and their replacement count."""

    __slots__ = ("outputs", "kinds", "converted", "written", "problem_bytes", "replacements")

    def __init__(self, outputs, kinds, converted, written, problem_bytes, replacements):
        self.outputs = outputs
        self.kinds = kinds
        self.converted = converted
        self.written = written
        self.problem_bytes = problem_bytes
        self.replacements = replacements


class RunRewriter:
    """Rewrites runs of problem bytes under one or more policy maps. The same few runs
    (say ``C0 AF`` or a lone ``93``) come back again and again in a damaged file, so
    short runs are remembered by their bytes and cut only once."""

    MAX_CACHED_RUN = 64
    MAX_ENTRIES = 1 << 16

    def __init__(self, dialect: str, policy_maps: list[dict[str, str]]):
        self.dialect = dialect
        self.maps = policy_maps
        self._cache: dict[bytes, _RunEffect] = {}

    def effect(self, raw: bytes) -> _RunEffect:
        found = self._cache.get(raw)
        if found is not None:
            return found
        units = cut(raw, 0, self.dialect, final=True)
        texts = [[] for _ in self.maps]
        written = [0] * len(self.maps)
        kinds: Counter = Counter()
        converted: Counter = Counter()
        problem_bytes = replacements = 0
        for u in units:
            if u.kind == K.VALID:
                # A dialect unit with a proper UTF-8 spelling: a CESU-8 pair or C0 80.
                ch = chr(u.value)
                for t in texts:
                    t.append(ch)
                converted[SURROGATE_PAIR if u.length == 6 else MODIFIED_NUL] += 1
                continue
            kinds[u.kind] += 1
            problem_bytes += u.length
            replacements += u.replacements
            piece = raw[u.offset:u.end]
            for k, policies in enumerate(self.maps):
                policy = policies[u.kind]
                texts[k].append(unit_text(u, piece, policy))
                if policy == REPLACE:
                    written[k] += u.replacements
        found = _RunEffect(tuple("".join(t).encode("utf-8") for t in texts),
                           tuple(kinds.items()), tuple(converted.items()), tuple(written),
                           problem_bytes, replacements)
        if len(raw) <= self.MAX_CACHED_RUN and len(self._cache) < self.MAX_ENTRIES:
            self._cache[raw] = found
        return found


# ------------------------------------------------------------------------------ targets

def check_target(source, target_path, overwrite: bool = False) -> str:
    """The absolute target path, or RepairError if writing there is refused (see
    :func:`inspector.core.source.safewrite.check_target`: the inspected file, by name,
    through a symbolic link or as a hard link; a folder; a folder that does not exist or
    cannot be written in; an existing file while ``overwrite`` is False)."""
    try:
        return os.path.abspath(safewrite.check_target(target_path, source, overwrite))
    except safewrite.WriteRefused as e:
        raise RepairError(str(e)) from None


class _HashingWriter:
    """Hashes the source and the output and writes the output on a thread of its own:
    hashlib and file writes release the GIL, so they run beside the decoding."""

    def __init__(self, out):
        self._out = out
        self.source_hash = hashlib.sha256()
        self.output_hash = hashlib.sha256()
        self._queue: queue.Queue = queue.Queue(maxsize=4)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="repair-writer", daemon=True)
        self._thread.start()

    def _work(self):
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self._error is not None:
                continue  # drain after a failure; the main thread raises it
            source_piece, output_piece = item
            try:
                self.source_hash.update(source_piece)
                self.output_hash.update(output_piece)
                self._out.write(output_piece)
            except BaseException as e:  # noqa: BLE001 - handed to the main thread
                self._error = e

    def put(self, source_piece, output_piece):
        if self._error is not None:
            raise self._error
        self._queue.put((source_piece, output_piece))

    def finish(self, raise_error: bool = True):
        """Wait for everything queued; raise what the thread ran into."""
        self._queue.put(None)
        self._thread.join()
        if raise_error and self._error is not None:
            raise self._error


# ------------------------------------------------------------------------------- repair

def repair_steps(source, target_path, policy: str | Mapping[str, str] = REPLACE,
                 dialect: str = K.UTF8, overwrite: bool = False,
                 chunk_size: int = DEFAULT_CHUNK, fsync: bool = True
                 ) -> Iterator[Progress]:
    """Write a repaired copy of ``source`` to ``target_path``; yields :class:`Progress`
    after each chunk and returns a :class:`RepairSummary` (``StopIteration.value``; or
    use :func:`run`). The copy is written to a temporary file in the target's folder and
    renamed into place at the end, so a failure or a cancel (closing the generator)
    leaves nothing behind. The policy, dialect and target are checked at once, when
    this is called (RepairError for a refused target, see :func:`check_target`;
    ValueError for an unknown policy), so a dialog can refuse before any work starts;
    RepairError is also raised while running if the source changed while it was read."""
    policies = resolve_policy(policy)
    cut_dialect = repair_dialect(dialect)
    target = check_target(source, target_path, overwrite)
    summary = RepairSummary(source.path, target, policy, K.check_dialect(dialect))
    return _repair_gen(source, target, policies, cut_dialect, overwrite, max(chunk_size, 64),
                       fsync, summary)


def _repair_gen(source, target: str, policies: dict[str, str], cut_dialect: str,
                overwrite: bool, chunk_size: int, fsync: bool, summary: RepairSummary):
    rewriter = RunRewriter(cut_dialect, [policies])

    def pieces(stats):
        for pos, view, runs in chunks_with_runs(source, cut_dialect, chunk_size, stats):
            if runs:
                parts = []
                prev = 0
                for a, b in runs:
                    effect = rewriter.effect(bytes(view[a:b]))
                    parts.append(view[prev:a])
                    parts.append(effect.outputs[0])
                    summary.add(effect)
                    prev = b
                parts.append(view[prev:])
                data = b"".join(parts)
            else:
                data = view
            yield view, data, stats["read"]

    return (yield from write_copy(source, target, overwrite, fsync, summary, pieces))


def write_copy(source, target: str, overwrite: bool, fsync: bool, summary: RepairSummary,
                pieces):
    """Write what ``pieces(stats)`` yields, ``(source piece, output piece, bytes read)``
    in order, through an :class:`~inspector.core.source.safewrite.AtomicWriter` on
    ``target``, hashing both sides; yields :class:`Progress` after each piece, returns
    ``summary``."""
    total = source.size
    with safewrite.AtomicWriter(target, binary=True, buffering=0, fsync=fsync) as out:
        writer = _HashingWriter(out.file)
        stats: Counter = Counter()
        completed = False
        try:
            for view, data, done in pieces(stats):
                writer.put(view, data)
                summary.bytes_out += len(data)
                yield Progress(done, total)
            completed = True
        finally:
            # Also on a cancel or an error: the thread must let go of the file first.
            writer.finish(raise_error=completed)
        out.close()
        summary.bytes_in = stats["read"]
        change = source.check()
        if change is not None:
            raise RepairError(f"the inspected file changed while it was read ({change.describe()}); "
                              "nothing was saved")
        check_target(source, target, overwrite)  # nothing took the target's name meanwhile
    summary.source_sha256 = writer.source_hash.hexdigest()
    summary.output_sha256 = writer.output_hash.hexdigest()
    return summary


def run(steps, on_progress=None):
    """Drive a steps generator to its end and return its value (``on_progress`` gets
    each :class:`Progress`; a Qt worker does the same with an abort check)."""
    while True:
        try:
            item = next(steps)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(item)


def repair_file(source, target_path, policy=REPLACE, dialect: str = K.UTF8,
                overwrite: bool = False, **options) -> RepairSummary:
    """:func:`repair_steps` run to its end."""
    return run(repair_steps(source, target_path, policy, dialect, overwrite, **options))


def repair_bytes(data: bytes, policy=REPLACE, dialect: str = K.UTF8) -> bytes:
    """The repaired form of bytes held in memory (for previews and tests)."""
    rewriter = RunRewriter(repair_dialect(dialect), [resolve_policy(policy)])
    view = memoryview(bytes(data))
    parts = []
    prev = 0
    for a, b in problem_runs(view):
        parts.append(view[prev:a])
        parts.append(rewriter.effect(bytes(view[a:b])).outputs[0])
        prev = b
    parts.append(view[prev:])
    return b"".join(parts)
