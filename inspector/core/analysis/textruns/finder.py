"""Text runs of a whole byte source, block by block (:func:`find_runs`): memory stays
flat however large the source, a run that crosses a block edge is joined, and the runs
come out in offset order, a batch of parallel arrays at a time (:class:`RunBatch`).

A plain, cancellable generator: the command line iterates it, the window's worker runs
it in the background and stops it by closing it.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from inspector.core.source.bytesource import ByteSource
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import chunk_end
from inspector.core.units.chartables import COMMON, SCRIPT_NAMES, printable_table, script_table
from inspector.core.analysis.textruns.masks import PAD, BlockRuns, utf8_block, utf16_block
from inspector.core.analysis.textruns.text import ENCODINGS, UTF8, UTF16BE, UTF16LE

ALL = "all"
DEFAULT_MIN_CHARS = 4  # as GNU strings
BLOCK_SIZE = 1 << 20  # bytes per block: big enough for numpy, small enough for the caches
# (measured on a 512 MiB disk image: 1 MiB blocks 15-20 % quicker than 4 MiB)


def encodings_of(option: str) -> tuple[str, ...]:
    """The encodings an ``--encoding`` option names (``all``: every one)."""
    key = option.strip().lower().replace("_", "-")
    if key == ALL:
        return ENCODINGS
    if key in ("utf-16le", "utf16-le", "utf16le"):
        key = UTF16LE
    if key in ("utf-16be", "utf16-be", "utf16be"):
        key = UTF16BE
    if key in ("utf8",):
        key = UTF8
    if key not in ENCODINGS:
        raise ValueError(f"unknown encoding {option!r}; choose one of {', '.join(ENCODINGS)} or all")
    return (key,)


class ScriptSets:
    """The distinct lists of scripts runs are written in, each stored once: a run holds
    the index of its list (uint16). Index 0 is ["Common"]: no character of a script of
    its own (digits, punctuation, symbols)."""

    def __init__(self):
        self._lists: list[tuple[int, ...]] = [(COMMON,)]
        self._index: dict[tuple[int, ...], int] = {(COMMON,): 0}

    def index(self, counts: dict[int, int]) -> int:
        """The index of the scripts of a run with these characters per script: most
        characters first (ties: by script name)."""
        if not counts:
            return 0
        key = tuple(sorted(counts, key=lambda s: (-counts[s], SCRIPT_NAMES[s])))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self._lists)
            self._lists.append(key)
        return found

    def names(self, index: int) -> list[str]:
        return [SCRIPT_NAMES[s] for s in self._lists[index]]

    def __len__(self):
        return len(self._lists)

    def containing(self, script: int) -> np.ndarray:
        """Indices of the lists that hold ``script``."""
        return np.array([i for i, lst in enumerate(self._lists) if script in lst], np.int64)


class RunBatch:
    """Runs as parallel arrays, in offset order: ``offset``, ``length`` (bytes),
    ``chars``, ``encoding`` (index in ENCODINGS), ``damaged_before``, ``damaged_after``,
    ``script_set`` (index in the finder's :class:`ScriptSets`). ``done``: bytes of the
    source looked at so far (progress). ``data`` / ``data_offset``: the bytes the finder
    read last and where they start (a run inside them needs no read for its text)."""

    FIELDS = ("offset", "length", "chars", "encoding", "damaged_before", "damaged_after",
              "script_set")
    DTYPES = (np.int64, np.int64, np.int64, np.uint8, bool, bool, np.uint16)

    def __init__(self, arrays: dict, done: int = 0):
        for name in self.FIELDS:
            setattr(self, name, arrays[name])
        self.done = done
        self.data = b""
        self.data_offset = 0

    def raw(self, i: int, source) -> bytes:
        """The bytes of run ``i``."""
        off, length = int(self.offset[i]), int(self.length[i])
        k = off - self.data_offset
        if 0 <= k and k + length <= len(self.data):
            return self.data[k:k + length]
        return source.read(off, length)

    def __len__(self):
        return len(self.offset)

    @classmethod
    def empty(cls, done: int = 0) -> RunBatch:
        return cls({n: np.zeros(0, d) for n, d in zip(cls.FIELDS, cls.DTYPES)}, done)

    @classmethod
    def concat(cls, batches: list[RunBatch], done: int = 0) -> RunBatch:
        if not batches:
            return cls.empty(done)
        return cls({n: np.concatenate([getattr(b, n) for b in batches]) for n in cls.FIELDS},
                   done)

    def select(self, which) -> RunBatch:
        return RunBatch({n: getattr(self, n)[which] for n in self.FIELDS}, self.done)


class _Open:
    """A run that reached the end of a block and may go on in the next one."""

    __slots__ = ("offset", "length", "chars", "damaged_before", "counts")

    def __init__(self, offset, length, chars, damaged_before, counts):
        self.offset = offset
        self.length = length
        self.chars = chars
        self.damaged_before = damaged_before
        self.counts = counts


class _Stream:
    """One encoding's walk through the source: where its next block starts, the run left
    open at the end of the last block, and whether that block's last unit was valid."""

    def __init__(self, encoding: str, start: int, min_chars: int):
        self.encoding = encoding
        self.min_chars = min_chars
        self.code = ENCODINGS.index(encoding)
        self.pos = start
        self.open: _Open | None = None
        self.last_valid = True  # nothing before the start: no damage


def find_runs(source: ByteSource, encodings=(UTF8,), min_chars: int = DEFAULT_MIN_CHARS,
              dialect: str = K.UTF8, scripts: bool = True, start: int = 0,
              end: int | None = None, block_size: int = BLOCK_SIZE,
              script_sets: ScriptSets | None = None) -> Iterator[RunBatch]:
    """Yield the text runs of ``source[start:end]`` as batches in offset order (runs at
    the same offset in the order of ``ENCODINGS``; a batch
    per block, perhaps empty, with ``done`` for progress). ``scripts``: work out the
    scripts of each run (``script_set`` stays 0 without). ``script_sets`` collects the
    script lists the batches point into (give one to read names back)."""
    if min_chars < 1:
        raise ValueError("the minimum length of a run is 1 character or more")
    end = source.size if end is None else min(end, source.size)
    sets = script_sets if script_sets is not None else ScriptSets()
    printable = printable_table()
    table = script_table() if scripts else None
    streams = [_Stream(e, start, min_chars) for e in encodings]
    pending: list[RunBatch] = []
    block_size = max(block_size, 64)
    while True:
        live = [s for s in streams if s.pos < end]
        if not live:
            break
        lo = min(s.pos for s in live)
        data = source.read_uncached(lo, min(block_size + PAD + 8, end - lo))
        if not data:
            break
        final = lo + len(data) >= end
        if final:
            data = data[:end - lo]
        produced = []
        for s in live:
            piece = data[s.pos - lo:]
            produced.append(_advance(s, piece, final, min_chars, dialect, printable, table,
                                     sets, block_size))
        done = min(s.pos for s in streams)
        if final:
            for s in streams:
                if s.open is not None:
                    produced.append(_close(s, damaged_after=False, sets=sets))
        pending = [b for b in pending + produced if len(b)]
        # Hold back runs that start after a run still open in another encoding.
        limit = min((s.open.offset for s in streams if s.open is not None), default=None)
        out, pending = _release(pending, limit)
        out.done = done if not final else end
        out.data, out.data_offset = data, lo
        yield out
        if final:
            break
    if pending:
        yield RunBatch.concat(pending, end)


def _release(pending: list[RunBatch], limit: int | None) -> tuple[RunBatch, list[RunBatch]]:
    if not pending:
        return RunBatch.empty(), []
    allb = RunBatch.concat(pending)
    if len(pending) > 1:  # by offset, then encoding
        allb = allb.select(np.lexsort((allb.encoding, allb.offset)))
    if limit is None:
        return allb, []
    k = int(np.searchsorted(allb.offset, limit, side="left"))
    return allb.select(slice(0, k)), [allb.select(slice(k, None))]


def _advance(s: _Stream, data: bytes, final: bool, min_chars: int, dialect: str,
             printable, table, sets: ScriptSets, block_size: int) -> RunBatch:
    """Cut the next block of ``data`` (at ``s.pos``) for one encoding and return the runs
    it closes."""
    base = s.pos
    if s.encoding == UTF8:
        if final:
            n = len(data)
            data = data + bytes(PAD)
        else:
            n = chunk_end(data, min(block_size, len(data) - PAD), dialect in K.PAIR_DIALECTS)
            if n <= 0:
                n = min(block_size, len(data) - PAD)
        block = utf8_block(data, n, dialect, min_chars, printable, table)
        scale = 1
        s.pos = base + n
    else:
        big = s.encoding == UTF16BE
        units = min(block_size, len(data)) // 2 if not final else len(data) // 2
        if not final and units:
            last = data[2 * units - 2:2 * units]
            v = int.from_bytes(last, "big" if big else "little")
            if 0xD800 <= v <= 0xDBFF:
                units -= 1  # never cut between the halves of a pair
        block = utf16_block(data, units, big, min_chars, printable, table)
        scale = 2
        n = units
        s.pos = base + 2 * units if not final else base + len(data)
    return _runs_of_block(s, block, base, scale, n, final, min_chars, sets)


def _runs_of_block(s: _Stream, b: BlockRuns, base: int, scale: int, n: int, final: bool,
                   min_chars: int, sets: ScriptSets) -> RunBatch:
    starts, ends, chars = b.starts, b.ends, b.chars
    before = b.damaged_before.copy()
    after = b.damaged_after.copy()
    counts = b.script_counts
    k = len(starts)
    first = 0
    closed = []
    if s.open is not None:
        if k and starts[0] == 0:
            # The open run goes on into this block.
            o = s.open
            o.length += scale * int(ends[0])
            o.chars += int(chars[0])
            if counts is not None:
                for sid, c in counts[0].items():
                    o.counts[sid] = o.counts.get(sid, 0) + c
            first = 1
            if ends[0] == n and not final:
                s.last_valid = b.last_valid
                return RunBatch.concat(closed)  # still open
            closed.append(_close(s, damaged_after=bool(after[0]) if ends[0] < n else False,
                                 sets=sets))
        else:
            closed.append(_close(s, damaged_after=not b.first_valid, sets=sets))
    if k and first == 0 and starts[0] == 0:
        before[0] = not s.last_valid
    idx = np.arange(first, k)
    tail_open = False
    if len(idx) and ends[-1] == n and not final:
        last = k - 1
        idx = idx[:-1]
        tail_open = True
    if len(idx) and ends[idx[-1]] == n:
        after[idx[-1]] = False  # the end of the data, not a damaged unit
    keep = idx[chars[idx] >= min_chars]
    arrays = {
        "offset": base + scale * starts[keep],
        "length": scale * (ends[keep] - starts[keep]),
        "chars": chars[keep],
        "encoding": np.full(len(keep), s.code, np.uint8),
        "damaged_before": before[keep],
        "damaged_after": after[keep],
        "script_set": (np.array([sets.index(counts[i]) for i in keep.tolist()], np.uint16)
                       if counts is not None else np.zeros(len(keep), np.uint16)),
    }
    closed.append(RunBatch(arrays))
    if tail_open:
        s.open = _Open(base + scale * int(starts[last]), scale * int(ends[last] - starts[last]),
                       int(chars[last]), bool(before[last]),
                       dict(counts[last]) if counts is not None else {})
    s.last_valid = b.last_valid
    return RunBatch.concat(closed)


def _close(s: _Stream, damaged_after: bool, sets: ScriptSets) -> RunBatch:
    o = s.open
    s.open = None
    return _one_run(s, o, damaged_after, sets)


def _one_run(s: _Stream, o: _Open, damaged_after: bool, sets: ScriptSets) -> RunBatch:
    return RunBatch({
        "offset": np.array([o.offset], np.int64),
        "length": np.array([o.length], np.int64),
        "chars": np.array([o.chars], np.int64),
        "encoding": np.array([s.code], np.uint8),
        "damaged_before": np.array([o.damaged_before]),
        "damaged_after": np.array([damaged_after]),
        "script_set": np.array([sets.index(o.counts)], np.uint16),
    }) if o.chars >= s.min_chars else RunBatch.empty()
