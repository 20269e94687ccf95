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
:func:`preview` shows what each policy makes of the problems near an offset, and
:func:`policy_counts` counts what each policy would change in the whole file.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import queue
import tempfile
import threading
from collections import Counter
from typing import Iterator, Mapping

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit, cut, units_in_range
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
    return dialect if dialect in (K.CESU8, K.MUTF8) else K.UTF8


# ------------------------------------------------------------- finding the problem runs

_recorded = threading.local()


def _record_subpart(error: UnicodeDecodeError):
    _recorded.spans.append((error.start, error.end))
    return "", error.end


_RECORD = "utf8inspector.record"
codecs.register_error(_RECORD, _record_subpart)


def problem_runs(data) -> list[tuple[int, int]]:
    """[start, end) of each run of bytes that are not valid UTF-8, in order: CPython's
    maximal subparts, adjacent ones joined. Each run is a sequence of whole units."""
    _recorded.spans = spans = []
    try:
        codecs.utf_8_decode(data, _RECORD, True)
    finally:
        _recorded.spans = None
    runs: list[tuple[int, int]] = []
    for start, end in spans:
        if runs and runs[-1][1] == start:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def _is_cont(b: int) -> bool:
    return 0x80 <= b <= 0xBF


def chunk_cut(data, pairs: bool) -> int:
    """An index near the end of ``data`` that is a unit boundary and not inside a
    surrogate pair (when ``pairs``): the units before it are complete in ``data``."""
    n = len(data)
    k = n - 1
    # A non-continuation byte always starts a unit; a unit is at most 6 bytes long, so if
    # the last 6 bytes are all continuation bytes the end itself is a boundary.
    while k >= max(0, n - 6) and _is_cont(data[k]):
        k -= 1
    if k < max(0, n - 6):
        return n
    if (pairs and k >= 3 and data[k] == 0xED and data[k - 3] == 0xED
            and 0xA0 <= data[k - 2] <= 0xAF and _is_cont(data[k - 1])):
        # A complete high surrogate before the ED at k: that ED may start its low half
        # (perhaps not all read yet), and a pair must stay in one chunk.
        k -= 3
    return k


# CPython's decoder builds a str of each piece it checks; pieces that stay in the CPU's
# cache are checked about twice as fast as multi-megabyte ones.
_DECODE_PIECE = 256 << 10


def _runs_in_chunk(view, pairs: bool) -> list[tuple[int, int]]:
    """The problem runs of a chunk that ends at a unit boundary."""
    runs = []
    start = 0
    n = len(view)
    while start < n:
        stop = n if n - start <= _DECODE_PIECE else start + chunk_cut(
            view[start:start + _DECODE_PIECE], pairs)
        for a, b in problem_runs(view[start:stop]):
            a += start
            b += start
            if runs and runs[-1][1] == a:  # a run split by the piece boundary
                a = runs.pop()[0]
            runs.append((a, b))
        start = stop
    return runs


def _chunks_with_runs(source, dialect: str, chunk_size: int, stats: Counter
                      ) -> Iterator[tuple[int, memoryview, list]]:
    """(offset, chunk, [(run start, run end)]) for the whole source, each chunk
    ending at a unit boundary. ``stats['read']`` counts the bytes handed out."""
    size = source.size
    pairs = dialect in (K.CESU8, K.MUTF8)
    pos = 0
    while pos < size:
        data = read_chunk(source, pos, min(chunk_size, size - pos))
        if not data:
            raise RepairError(f"the file ended at {pos:,} bytes, before its size of {size:,}: "
                              "it changed while it was read")
        end = len(data) if pos + len(data) >= size else chunk_cut(data, pairs)
        view = memoryview(data)[:end]
        runs = _runs_in_chunk(view, pairs)
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
        }

    def describe(self) -> str:
        """A few lines for a person."""
        lines = [f"Wrote {self.bytes_out:,} bytes (from {self.bytes_in:,}) to "
                 f"{os.fsdecode(self.target_path)}."]
        if not self.units_changed:
            lines.append("Nothing needed repair: the copy is identical to the original.")
        for kind, n in sorted(self.changed_by_kind.items()):
            lines.append(f"  {n:,} × {K.KIND_TITLES.get(kind, kind)}")
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


class _RunRewriter:
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

def _source_identity(source) -> list[tuple[int, int]]:
    ids = []
    st = getattr(source, "stat_result", None)
    if st is not None:
        ids.append((st.st_dev, st.st_ino))
    path = getattr(source, "path", None)
    if path is not None:
        try:
            now = os.stat(path)
            ids.append((now.st_dev, now.st_ino))
        except OSError:
            pass
    return ids


def check_target(source, target_path, overwrite: bool = False) -> str:
    """The absolute target path, or RepairError if writing there is refused: the target
    is the inspected file (by name, through a symbolic link or as a hard link), a
    directory, in a folder that does not exist, or an existing file while ``overwrite``
    is False."""
    if target_path is None or os.fspath(target_path) in ("", b""):
        raise RepairError("choose a file name for the repaired copy")
    target = os.path.abspath(os.fspath(target_path))
    shown = os.fsdecode(target)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise RepairError(f"{os.fsdecode(folder)}: the folder does not exist")
    if os.path.isdir(target):
        raise RepairError(f"{shown} is a folder; choose a file name")
    source_path = getattr(source, "path", None)
    if source_path is not None:
        if os.path.realpath(target) == os.path.realpath(os.fspath(source_path)):
            raise RepairError(f"{shown} is the inspected file itself; the repaired copy must "
                              "be a new file, the original is never written")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise RepairError(f"{shown}: {e.strerror or e}") from None
    if (st.st_dev, st.st_ino) in _source_identity(source):
        raise RepairError(f"{shown} is the inspected file (through a link); the repaired copy "
                          "must be a new file, the original is never written")
    if not overwrite:
        raise RepairError(f"{shown} already exists; choose another name or allow overwriting")
    return target


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


def _umask() -> int:
    """The process's umask, read without changing it (``os.umask`` can only be read by
    setting it, which would race with other threads): Linux's ``/proc``; elsewhere the
    usual 022."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


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
    summary = RepairSummary(getattr(source, "path", None), target, policy, K.check_dialect(dialect))
    return _repair_gen(source, target, policies, cut_dialect, overwrite, max(chunk_size, 64),
                       fsync, summary)


def _repair_gen(source, target: str, policies: dict[str, str], cut_dialect: str,
                overwrite: bool, chunk_size: int, fsync: bool, summary: RepairSummary):
    rewriter = _RunRewriter(cut_dialect, [policies])

    def pieces(stats):
        for pos, view, runs in _chunks_with_runs(source, cut_dialect, chunk_size, stats):
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

    return (yield from _write_copy(source, target, overwrite, fsync, summary, pieces))


def _write_copy(source, target: str, overwrite: bool, fsync: bool, summary: RepairSummary,
                pieces):
    """Write what ``pieces(stats)`` yields, ``(source piece, output piece, bytes read)``
    in order, to a temporary file beside ``target``, hashing both sides, then rename it
    into place; yields :class:`Progress` after each piece, returns ``summary``."""
    total = source.size
    folder, name = os.path.split(target)
    fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=folder)
    writer = None
    try:
        if hasattr(os, "fchmod"):  # mkstemp made it 0600; a new file's usual mode instead
            os.fchmod(fd, 0o666 & ~_umask())
        stats: Counter = Counter()
        with os.fdopen(fd, "wb", buffering=0) as out:
            fd = None  # the file object owns it now
            writer = _HashingWriter(out)
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
            if fsync:
                os.fsync(out.fileno())
        summary.bytes_in = stats["read"]
        change = source.check() if hasattr(source, "check") else None
        if change is not None:
            raise RepairError(f"the inspected file changed while it was read ({change.describe()}); "
                              "nothing was saved")
        check_target(source, target, overwrite)  # nothing took the target's name meanwhile
        os.replace(temp, target)
        temp = None
    finally:
        if fd is not None:
            os.close(fd)
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
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
    rewriter = _RunRewriter(repair_dialect(dialect), [resolve_policy(policy)])
    view = memoryview(bytes(data))
    parts = []
    prev = 0
    for a, b in problem_runs(view):
        parts.append(view[prev:a])
        parts.append(rewriter.effect(bytes(view[a:b])).outputs[0])
        prev = b
    parts.append(view[prev:])
    return b"".join(parts)


# ------------------------------------------------------------------------------ preview

class PreviewItem:
    """One problem unit near the offset: what each policy writes for it (``results``)
    and what Python's decoder gives for its bytes (``python``: errors handler -> text)."""

    __slots__ = ("unit", "raw", "results", "python")

    def __init__(self, unit: Unit, raw: bytes, results: dict[str, str], python: dict[str, str]):
        self.unit = unit
        self.raw = raw
        self.results = results
        self.python = python

    @property
    def offset(self) -> int:
        return self.unit.offset

    @property
    def kind(self) -> str:
        return self.unit.kind

    def __repr__(self):
        return f"PreviewItem({self.unit.offset}, {self.unit.kind}, {self.raw.hex(' ')})"


class Preview:
    """The problems in [start, end) and the text of that whole window under each policy
    (``text``) and under Python's error handlers (``python``)."""

    __slots__ = ("start", "end", "dialect", "items", "text", "python")

    def __init__(self, start, end, dialect, items, text, python):
        self.start = start
        self.end = end
        self.dialect = dialect
        self.items = items
        self.text = text
        self.python = python


def _python_decodings(raw: bytes) -> dict[str, str]:
    return {h: raw.decode("utf-8", h) for h in PYTHON_ERROR_HANDLERS}


def preview(source, offset: int, policies=POLICIES, dialect: str = K.UTF8,
            radius: int = 64) -> Preview:
    """What each policy makes of the problem units within ``radius`` bytes of ``offset``
    (cut from the start of the file, as the repair cuts it)."""
    cut_dialect = repair_dialect(dialect)
    for p in policies:
        resolve_policy(p)
    units = units_in_range(source, offset - radius, offset + radius, None, cut_dialect)
    if not units:
        return Preview(offset, offset, dialect, [], {p: "" for p in policies},
                       {h: "" for h in PYTHON_ERROR_HANDLERS})
    start, end = units[0].offset, units[-1].end
    window = source.read(start, end - start)
    items = []
    texts = {p: [] for p in policies}
    for u in units:
        raw = window[u.offset - start:u.end - start]
        if u.kind == K.VALID:
            # Valid units are kept; a CESU-8 pair or C0 80 becomes its character.
            for p in policies:
                texts[p].append(chr(u.value))
            continue
        results = {p: unit_text(u, raw, p) for p in policies}
        for p in policies:
            texts[p].append(results[p])
        items.append(PreviewItem(u, raw, results, _python_decodings(raw)))
    return Preview(start, end, dialect, items, {p: "".join(t) for p, t in texts.items()},
                   _python_decodings(window))


# ------------------------------------------------------------------------ policy counts

class PolicyCounts:
    """For the whole file: the problem units by kind (the same for every policy), the
    bytes they hold, and the output size each policy would give."""

    def __init__(self, dialect: str, policies):
        self.dialect = dialect
        self.units_by_kind: Counter = Counter()
        self.converted: Counter = Counter()
        self.problem_bytes = 0
        self.replacements = 0
        self.input_size = 0
        self.output_size = {p: 0 for p in policies}

    @property
    def problem_units(self) -> int:
        return sum(self.units_by_kind.values())

    def units_changed(self, policy: str) -> int:
        """Units the policy would rewrite (every problem unit, whichever the policy, plus
        the dialect's conversions)."""
        return self.problem_units + sum(self.converted.values())

    def to_dict(self) -> dict:
        return {
            "dialect": self.dialect,
            "input_size": self.input_size,
            "problem_units": self.problem_units,
            "units_by_kind": dict(self.units_by_kind),
            "converted": dict(self.converted),
            "problem_bytes": self.problem_bytes,
            "replacements": self.replacements,
            "output_size": dict(self.output_size),
        }


def policy_counts(source, dialect: str = K.UTF8, policies=POLICIES,
                  chunk_size: int = DEFAULT_CHUNK) -> Iterator[Progress]:
    """Count, for the whole file, what each policy would change; the returned generator
    yields :class:`Progress` and returns :class:`PolicyCounts`. Stop iterating to
    cancel. Unknown policies or dialects raise ValueError at once."""
    cut_dialect = repair_dialect(dialect)
    policies = tuple(policies)
    maps = [resolve_policy(p) for p in policies]
    counts = PolicyCounts(K.check_dialect(dialect), policies)
    return _counts_gen(source, cut_dialect, policies, maps, max(chunk_size, 64), counts)


def _counts_gen(source, cut_dialect, policies, maps, chunk_size, counts):
    rewriter = _RunRewriter(cut_dialect, maps)
    sizes = [0] * len(policies)
    stats: Counter = Counter()
    for pos, view, runs in _chunks_with_runs(source, cut_dialect, chunk_size, stats):
        valid_bytes = len(view)
        for a, b in runs:
            valid_bytes -= b - a
            effect = rewriter.effect(bytes(view[a:b]))
            for k, out in enumerate(effect.outputs):
                sizes[k] += len(out)
            for kind, n in effect.kinds:
                counts.units_by_kind[kind] += n
            for name, n in effect.converted:
                counts.converted[name] += n
            counts.problem_bytes += effect.problem_bytes
            counts.replacements += effect.replacements
        for k in range(len(sizes)):
            sizes[k] += valid_bytes
        yield Progress(stats["read"], source.size)
    counts.input_size = stats["read"]
    counts.output_size = dict(zip(policies, sizes))
    return counts


# ------------------------------------------------- converting each region from its encoding

REGIONS = "regions"
KEEP_BINARY = "keep"
DROP_BINARY = "drop"
BINARY_CHOICES = (KEEP_BINARY, DROP_BINARY)
REGIONS_TITLE = "convert each region from its encoding"
BINARY_TITLES = {KEEP_BINARY: "keep binary regions as they are (the copy is then not all UTF-8)",
                 DROP_BINARY: "drop binary regions"}
_WIDE = ("utf-16", "utf-32")


class Span:
    """One region handed to the region policy: [start, end) in ``encoding`` (a Python
    codec name, ``binary`` or ``mojibake`` with ``via``)."""

    __slots__ = ("start", "end", "encoding", "via")

    def __init__(self, start: int, end: int, encoding: str, via: str | None = None):
        self.start = start
        self.end = end
        self.encoding = encoding
        self.via = via

    def __repr__(self):
        return f"Span({self.start}, {self.end}, {self.encoding!r})"


def region_spans(regions, size: int) -> list[Span]:
    """The regions (an :class:`~inspector.core.analysis.regions.EncodingMap`, Region
    objects, or ``{start, end, encoding[, via]}`` dicts as ``scan --json`` writes them)
    as spans covering [0, size) in order: what no region covers is UTF-8, overlaps are
    cut off, regions past the end are clipped. Unknown encodings raise ValueError."""
    from inspector.core.analysis.charsets import codec_name

    out: list[Span] = []
    pos = 0
    items = []
    for r in regions:
        if isinstance(r, Mapping):
            items.append((int(r["start"]), int(r["end"]), str(r["encoding"]), r.get("via")))
        else:
            items.append((int(r.start), int(r.end), str(r.encoding), getattr(r, "via", None)))
    for start, end, encoding, via in sorted(items, key=lambda t: t[0]):
        if encoding not in ("binary", "mojibake"):
            try:
                codecs.lookup(encoding)
            except LookupError:
                raise ValueError(f"unknown encoding {encoding!r} for the region at {start:,}") from None
            encoding = codec_name(encoding)
        start, end = max(start, pos), min(end, size)
        if end <= start:
            continue
        if start > pos:
            out.append(Span(pos, start, "utf-8"))
        out.append(Span(start, end, encoding, via))
        pos = end
    if pos < size:
        out.append(Span(pos, size, "utf-8"))
    return out


class _SpanConverter:
    """Turns the bytes of one span into UTF-8, fed in pieces in order."""

    def __init__(self, span: Span, binary: str, rewriter: "_RunRewriter", summary):
        self.span = span
        self.binary = binary
        self.rewriter = rewriter
        self.summary = summary
        self.carry = b""  # UTF-8 bytes after the last whole unit
        self.lines = ""   # mojibake text after the last newline
        self.decoder = None
        self.first = True
        enc = span.encoding
        if enc == "mojibake":
            self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        elif enc not in ("utf-8", "binary"):
            self.decoder = codecs.getincrementaldecoder(enc)("replace")

    def feed(self, data: bytes, final: bool) -> bytes:
        enc = self.span.encoding
        if enc == "binary":
            return bytes(data) if self.binary == KEEP_BINARY else b""
        if enc == "utf-8":
            return self._utf8(data, final)
        text = self.decoder.decode(bytes(data), final)
        if enc == "mojibake":
            # ftfy works line by line: hand it whole lines.
            text = self.lines + text
            cut = len(text) if final else text.rfind("\n") + 1
            text, self.lines = text[:cut], text[cut:]
            from inspector.core.analysis.charsets import undo_mojibake

            out = undo_mojibake(text, self.span.via or "cp1252") if text else ""
        else:
            if self.first and enc.startswith(_WIDE) and text.startswith("\ufeff"):
                text = text[1:]  # the byte order mark is not text
            self.summary.replacements_written += text.count("\ufffd")
            out = text
        if text:
            self.first = False
        return out.encode("utf-8")

    def _utf8(self, data: bytes, final: bool) -> bytes:
        data = self.carry + bytes(data)
        end = len(data) if final else chunk_cut(data, False)
        view = memoryview(data)[:end]
        self.carry = data[end:]
        parts = []
        prev = 0
        for a, b in _runs_in_chunk(view, False):
            effect = self.rewriter.effect(bytes(view[a:b]))
            parts.append(view[prev:a])
            parts.append(effect.outputs[0])
            self.summary.add(effect)
            prev = b
        parts.append(view[prev:])
        return b"".join(parts)


class RegionRepairSummary(RepairSummary):
    """What the region policy did: the counts of :class:`RepairSummary` (problem units
    of UTF-8 regions rewritten by ``utf8_policy``) and, per encoding, the regions and
    their bytes in and out (``by_encoding``)."""

    def __init__(self, source_path, target_path, binary: str, utf8_policy):
        super().__init__(source_path, target_path, REGIONS, K.UTF8)
        self.binary = binary
        self.utf8_policy = utf8_policy
        self.by_encoding: dict[str, list[int]] = {}

    def count(self, span: Span, bytes_out: int) -> None:
        key = span.encoding if span.encoding != "mojibake" else f"mojibake via {span.via}"
        entry = self.by_encoding.setdefault(key, [0, 0, 0])
        entry[0] += 1
        entry[1] += span.end - span.start
        entry[2] += bytes_out

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["binary"] = self.binary
        out["utf8_policy"] = self.utf8_policy if isinstance(self.utf8_policy, str) else dict(self.utf8_policy)
        out["by_encoding"] = {k: {"regions": n, "bytes_in": i, "bytes_out": o}
                              for k, (n, i, o) in self.by_encoding.items()}
        return out

    def describe(self) -> str:
        lines = super().describe().splitlines()
        at = 1
        for key, (n, i, o) in self.by_encoding.items():
            noun = "region" if n == 1 else "regions"
            what = ("dropped" if key == "binary" and self.binary == DROP_BINARY else
                    "kept as they were" if key == "binary" else "converted")
            lines.insert(at, f"  {n:,} {key} {noun}: {i:,} bytes {what}"
                             + (f" into {o:,}" if what == "converted" else ""))
            at += 1
        return "\n".join(lines)


def _region_pieces(source, spans: list[Span], binary: str, rewriter, summary,
                   chunk_size: int):
    """(source piece, output piece, bytes read) for every span, chunk by chunk."""
    def pieces(stats):
        for span in spans:
            conv = _SpanConverter(span, binary, rewriter, summary)
            pos = span.start
            written = 0
            while pos < span.end:
                data = read_chunk(source, pos, min(chunk_size, span.end - pos))
                if not data:
                    raise RepairError(f"the file ended at {pos:,} bytes, before its size of "
                                      f"{source.size:,}: it changed while it was read")
                final = pos + len(data) >= span.end
                out = conv.feed(data, final)
                written += len(out)
                pos += len(data)
                stats["read"] = pos
                yield data, out, pos
            summary.count(span, written)
    return pieces


def region_repair_steps(source, target_path, regions, binary: str = KEEP_BINARY,
                        utf8_policy: str | Mapping[str, str] = REPLACE, overwrite: bool = False,
                        chunk_size: int = DEFAULT_CHUNK, fsync: bool = True
                        ) -> Iterator[Progress]:
    """Write a copy of ``source`` in which each region is converted from its encoding
    to UTF-8: a legacy charset (or UTF-16/32) is decoded in it (bytes it cannot decode
    become U+FFFD), mojibake is undone with ftfy, UTF-8 is copied with its problem units
    rewritten by ``utf8_policy`` (as :func:`repair_steps` does), and binary regions are
    kept as they are or dropped (``binary``). ``regions``: see :func:`region_spans`
    (the verdict's ``regions`` map, typically). Yields :class:`Progress`, returns a
    :class:`RegionRepairSummary`; the target, the regions and the choices are checked
    at once, as in :func:`repair_steps`."""
    if binary not in BINARY_CHOICES:
        raise ValueError(f"unknown choice {binary!r} for binary regions; choose one of "
                         f"{', '.join(BINARY_CHOICES)}")
    policies = resolve_policy(utf8_policy)
    spans = region_spans(regions, source.size)
    target = check_target(source, target_path, overwrite)
    summary = RegionRepairSummary(getattr(source, "path", None), target, binary, utf8_policy)
    rewriter = _RunRewriter(K.UTF8, [policies])
    pieces = _region_pieces(source, spans, binary, rewriter, summary, max(chunk_size, 64))
    return _write_copy(source, target, overwrite, fsync, summary, pieces)


def region_repair_file(source, target_path, regions, binary: str = KEEP_BINARY,
                       utf8_policy=REPLACE, overwrite: bool = False, **options) -> RegionRepairSummary:
    """:func:`region_repair_steps` run to its end."""
    return run(region_repair_steps(source, target_path, regions, binary, utf8_policy,
                                   overwrite, **options))


def convert_regions(data: bytes, regions, binary: str = KEEP_BINARY, utf8_policy=REPLACE,
                    chunk_size: int = DEFAULT_CHUNK) -> bytes:
    """The region policy applied to bytes held in memory (previews and tests)."""
    from inspector.core.source.bytesource import MemorySource

    if binary not in BINARY_CHOICES:
        raise ValueError(f"unknown choice {binary!r} for binary regions")
    source = MemorySource(data)
    summary = RegionRepairSummary(None, "", binary, utf8_policy)
    rewriter = _RunRewriter(K.UTF8, [resolve_policy(utf8_policy)])
    pieces = _region_pieces(source, region_spans(regions, len(data)), binary, rewriter,
                            summary, max(chunk_size, 64))
    return b"".join(out for _, out, _ in pieces(Counter()))


class RegionPreviewItem:
    """A region met by the preview window: the span, its bytes in the window, the text
    they show as UTF-8 now (``before``) and the text the policy makes of them
    (``after``)."""

    __slots__ = ("span", "start", "end", "raw", "before", "after")

    def __init__(self, span, start, end, raw, before, after):
        self.span = span
        self.start = start
        self.end = end
        self.raw = raw
        self.before = before
        self.after = after

    def __repr__(self):
        return f"RegionPreviewItem({self.span!r}, {self.after[:20]!r})"


def preview_regions(source, regions, offset: int, radius: int = 256,
                    binary: str = KEEP_BINARY, utf8_policy=REPLACE) -> list[RegionPreviewItem]:
    """What the region policy makes of the bytes within ``radius`` of ``offset``, one
    item per region met. The window is moved to line starts inside each region (so a
    multibyte charset is not cut in the middle of a character), except at the region's
    own edges."""
    spans = region_spans(regions, source.size)
    lo, hi = max(0, offset - radius), min(source.size, offset + radius)
    items = []
    for span in spans:
        a, b = max(lo, span.start), min(hi, span.end)
        if b <= a:
            continue
        raw = source.read(a, b - a)
        if a > span.start:
            nl = raw.find(b"\n", 0, radius)
            if nl >= 0:
                raw, a = raw[nl + 1:], a + nl + 1
        if b < span.end:
            nl = raw.rfind(b"\n")
            if nl >= 0:
                raw, b = raw[:nl + 1], a + nl + 1
        after = convert_regions(raw, [Span(0, len(raw), span.encoding, span.via)], binary,
                                utf8_policy).decode("utf-8", "replace")
        items.append(RegionPreviewItem(span, a, b, raw, raw.decode("utf-8", "replace"), after))
    return items
