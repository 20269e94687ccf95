"""Multi-byte legacy encodings (Shift_JIS, CP932, EUC-JP, EUC-KR, CP949, Johab, GBK,
GB18030, Big5, Big5-HKSCS, ISO-2022-*, ...): units from the codec itself.

A page is decoded by the codec in one call, with an error handler that records where
each error is (CPython's decoders report the exact bytes of every error and go on after
them): that gives the characters and the problem units in C. Each character's byte
length comes from the codec too (how many bytes it encodes the character in, asked once
per distinct character and kept), and the lengths must add up to the bytes between the
errors; where they do not (a character two byte sequences decode to, a state-carrying
codec such as ISO-2022-JP whose shift sequences make no character) that page is cut by
the codec's incremental decoder fed byte by byte, and the bytes a shift sequence takes
belong to the character after it.

Where a unit starts. These encodings do not resynchronize the way UTF-8 does: a trail
byte can be a lead byte too, so the unit that holds an offset is known only from a
byte that must start a unit. :func:`shape_of` finds, by asking the codec once, the
bytes that never follow a lead byte inside a character (in Shift_JIS 00-3F, in GBK and
Big5 00-3F too, in EUC even 00-A0: line feeds, spaces, digits) and the bytes after
which a unit always starts (a byte that is never a lead nor a middle byte). A cut
begins at the last such place at or before the range. Where none lies within
``SYNC_GRID`` bytes (a long run of double-byte text without one ASCII byte) the cut
begins at the whole-file scan's sync point (:mod:`~inspector.core.units.encodings.syncpoints`)
when there is one; else the reading begins afresh at the multiple of ``SYNC_GRID``,
so that a page of a huge file is cut from at most twice that many bytes back, the same
way whichever page asks (and may then be misaligned: :meth:`MultiByteCodec.exact_at`). For the
state-carrying ISO-2022 and HZ codecs, the places are line starts: a line is read as
if it began in the initial (ASCII) state, as well-formed ISO-2022-JP text is written.
"""

from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from inspector.core.units.encodings.codecunits import (C_UNDECODABLE, C_VALID, CodecInterpretation,
                                             make_cut)
from inspector.core.units.encodings.syncpoints import SYNC_GRID
from inspector.core.units.unitarrays import PageCut, concatenate, empty, no_more

MARK = 0xDFFF            # what the recording error handler writes: no decoder makes it
_HANDLER = "inspector-units"
_local = threading.local()


def _record(error: UnicodeDecodeError):
    _local.events.append((error.start, error.end, error.reason))
    return ("\udfff", error.end)


codecs.register_error(_HANDLER, _record)


def decode_with_events(data: bytes, codec: str) -> tuple[np.ndarray, list]:
    """``data`` decoded by ``codec`` as its decoder goes (errors='replace' would write a
    U+FFFD per error): the code points, with MARK for each error, and the errors'
    (start, end, reason)."""
    _local.events = events = []
    text = codecs.decode(data, codec, _HANDLER)
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    return cps, events


STATEFUL_PREFIXES = ("iso2022", "hz", "utf-7", "utf_7")
# ISO-2022 shift sequences: ESC, intermediate bytes, a final byte; SO and SI.
_SHIFTS = re.compile(rb"\x1b[\x20-\x2f]*[\x30-\x7e]|[\x0e\x0f]")
# A byte that may begin a shift sequence in any of them (~ also writes HZ's tilde).
_SHIFT_BYTE = re.compile(rb"[\x1b\x0e\x0f~]")
# HZ's: ~{ into GB2312, ~} back to ASCII, ~ before a line feed joins two lines.
_HZ_SHIFTS = re.compile(rb"~[{}\n]")
# ISO-2022-KR names its double-byte set once, at the start of the file (RFC 1557); a
# read that begins later is given that designation first.
KR_DESIGNATION = b"\x1b$)C"


@dataclass(frozen=True)
class Shape:
    """What the codec says about byte values: ``starts_at`` (a unit always starts at
    such a byte), ``starts_after`` (a unit always starts right after one), the longest
    unit, and whether the codec carries a state from one character to the next."""

    starts_at: np.ndarray
    starts_after: np.ndarray
    max_length: int
    stateful: bool


def _first_event(data: bytes, codec: str):
    """(consumed, incomplete) of the first unit of ``data``: the bytes of its first
    character or error, and whether that error was the data ending too soon."""
    try:
        text = data.decode(codec)
        if len(text) == 1:
            return len(data), False
    except UnicodeDecodeError:
        pass
    cps, events = decode_with_events(data, codec)
    if events and events[0][0] == 0:
        start, end, reason = events[0]
        return end, ("incomplete" in reason or "end of data" in reason or "truncated" in reason)
    if not events:
        return len(data), False
    return events[0][0], False   # characters before the first error: one is len 1+


# Probing writes each pair or character between runs of this byte (a line feed: no
# codec here takes it into a longer sequence, and the JIS X 0213 encoders drop a NUL
# after a character that could combine; checked, with a probe one call at a time if not).
_GAP = 0x0A
_PAD = 8                 # as long as the longest sequence of any codec (EUC-KR's 8)


def encoded_lengths(codec: str, cps: np.ndarray) -> tuple[np.ndarray, bytes, np.ndarray] | None:
    """How many bytes ``codec`` writes each code point of ``cps`` in (0: it cannot), in one
    call to its encoder: the characters with a line feed after each. Also the bytes
    written and where each character starts in them. None when the line feed did not
    come out as one byte after every character (then ask one at a time)."""
    cps = np.asarray(cps, dtype=np.int64)
    gapped = np.empty(2 * len(cps), dtype="<u4")
    gapped[0::2] = cps
    gapped[1::2] = _GAP
    text = gapped.tobytes().decode("utf-32-le", "surrogatepass")
    raw = text.encode(codec, "ignore")
    gaps = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == _GAP)
    if len(gaps) != len(cps):
        return None
    starts = np.empty(len(cps), dtype=np.int64)
    starts[:1] = 0
    starts[1:] = gaps[:-1] + 1
    return gaps - starts, raw, starts


def _pair_inner(codec: str, leads: list[int], trails: list[int], gap: int) -> set[int] | None:
    """The bytes that complete a character after a lead (two bytes the codec takes as
    one character, or rejects as one two-byte error; not the start of a longer form
    the data ends in) among ``trails``: every lead with each, decoded in one call (each
    pair followed by a run of ``gap`` bytes, errors written as U+FFFD by the codec's own
    C handler); the few pairs that leaves in doubt one at a time. None when the gap
    bytes did not keep the pairs apart."""
    trails = np.array(trails, dtype=np.uint8)
    count = len(leads) * len(trails)
    stride = 2 + _PAD
    buf = np.full((count, stride), gap, dtype=np.uint8)
    buf[:, 0] = np.repeat(np.array(leads, dtype=np.uint8), len(trails))
    buf[:, 1] = np.tile(trails, len(leads))
    text = buf.tobytes().decode(codec, "replace")
    out = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    is_gap = out == gap
    # Each pair gives a group of characters (its lead never vanishes), then line feeds.
    first = np.flatnonzero(~is_gap & np.concatenate([[True], is_gap[:-1]]))
    if len(first) != count:
        return None
    following = np.concatenate([first[1:], [len(out)]])     # where the next group starts
    group_end = first + _group_lengths(is_gap, first)
    gaps_after = following - group_end
    fffd = np.concatenate([[0], np.cumsum(out == 0xFFFD)])
    bad = fffd[group_end] - fffd[first]
    length = group_end - first
    clean = bad == 0
    if (clean & (gaps_after < _PAD)).any():
        return None    # a character took a line feed with it
    inner = clean.copy()
    # One U+FFFD for the two bytes: an error of both, or one reaching past them
    # (which, with the data ending after two bytes, would be a longer form cut short).
    lone = (length == 1) & (bad == 1)
    doubt = np.flatnonzero(lone & (gaps_after == _PAD) | ~clean & (out[first] != 0xFFFD))
    found = _byte_set(buf[inner, 1])
    for i in doubt.tolist():
        lead, t = int(buf[i, 0]), int(buf[i, 1])
        if t not in found:
            consumed, incomplete = _first_event(bytes([lead, t]), codec)
            if consumed >= 2 and not incomplete:
                found.add(t)
    return found


def _byte_set(values: np.ndarray) -> set[int]:
    """The distinct byte values in ``values``."""
    return set(np.flatnonzero(np.bincount(values, minlength=256)).tolist())


def _group_lengths(gap: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The length of each run of characters other than the gap byte starting at ``first``."""
    ends = np.flatnonzero(gap & np.concatenate([[False], ~gap[:-1]]))   # first gap of a run
    k = np.searchsorted(ends, first)
    ends = np.concatenate([ends, [len(gap)]])
    return ends[k] - first


def _probe_one_at_a_time(codec: str, leads: list[int]) -> tuple[set[int], set[int], int]:
    """What :func:`shape_of` asks, one pair and one character per call (slow: a
    fallback for a codec the one-call probes cannot read apart)."""
    inner: set[int] = set()
    nonfinal: set[int] = set(leads)
    longest = 2
    for lead in leads:
        for t in range(256):
            consumed, incomplete = _first_event(bytes([lead, t]), codec)
            if consumed >= 2 and not incomplete:
                inner.add(t)
    for cp in _PROBED_CHARS.tolist():
        try:
            raw = chr(cp).encode(codec)
        except UnicodeEncodeError:
            continue
        if len(raw) > 1:
            longest = max(longest, len(raw))
            inner.update(raw[1:])
            nonfinal.update(raw[:-1])
    return inner, nonfinal, longest


# Every character of the BMP past ASCII but the surrogates, and a sample of the others.
_PROBED_CHARS = np.concatenate([np.arange(0x80, 0xD800), np.arange(0xE000, 0x10000),
                                np.arange(0x10000, 0x110000, 97)]).astype(np.int64)


@lru_cache(maxsize=None)
def shape_of(codec: str) -> Shape:
    """Ask ``codec`` once which bytes lead a longer sequence, which can stand inside a
    character, how long a character gets: every lead byte with every second byte
    through its decoder (two-byte forms and errors), and every character it can write
    through its encoder (the longer forms: GB18030's four bytes, EUC-JP's three).
    Each question is one call to the codec over all the cases at once (a few ms)."""
    if codec.startswith(STATEFUL_PREFIXES):
        after = np.zeros(256, dtype=bool)
        after[0x0A] = True
        return Shape(np.zeros(256, dtype=bool), after, 8, True)
    leads = [b for b in range(256) if _first_event(bytes([b]), codec)[1]]
    inner: set[int] | None = set()
    if leads:
        inner = _pair_inner(codec, leads, [t for t in range(256) if t != _GAP], _GAP)
        last = _pair_inner(codec, leads, [_GAP], 0x20)
        inner = None if inner is None or last is None else inner | last
    written = encoded_lengths(codec, _PROBED_CHARS)
    if inner is None or written is None:
        inner, nonfinal, longest = _probe_one_at_a_time(codec, leads)
    else:
        lengths, raw, begins = written
        m = np.frombuffer(raw, dtype=np.uint8)
        longest = max(2, int(lengths.max(initial=0)))
        written_any = lengths > 0
        # A byte after a character's first is inner; one before its last is not final.
        plain = np.ones(len(m), dtype=bool)
        plain[begins + lengths] = False                  # the line feeds between
        later, earlier = plain.copy(), plain.copy()
        later[begins[written_any]] = False
        earlier[(begins + lengths - 1)[written_any]] = False
        inner |= _byte_set(m[later])
        nonfinal = set(leads) | _byte_set(m[earlier])
    starts_at = np.ones(256, dtype=bool)
    starts_at[sorted(inner)] = False
    starts_after = np.ones(256, dtype=bool)
    starts_after[sorted(nonfinal)] = False
    return Shape(starts_at, starts_after, longest, False)


_length_cache: dict[str, dict[int, int]] = {}


def char_lengths(codec: str, cps: np.ndarray) -> np.ndarray:
    """How many bytes ``codec`` writes each code point in (-1: it cannot), asked once per
    distinct code point (those not asked yet in one call to the encoder)."""
    known = _length_cache.setdefault(codec, {})
    distinct, where = np.unique(cps, return_inverse=True)
    asked = distinct.tolist()
    new = [cp for cp in asked if cp not in known]
    if new:
        written = encoded_lengths(codec, np.array(new, dtype=np.int64))
        if written is not None:
            known.update(zip(new, np.where(written[0] > 0, written[0], -1).tolist()))
        else:
            for cp in new:
                try:
                    known[cp] = len(chr(cp).encode(codec))
                except (UnicodeEncodeError, ValueError):
                    known[cp] = -1
    out = np.array([known[cp] for cp in asked], dtype=np.int64)
    return out[where.reshape(-1)]


@dataclass(frozen=True)
class MultiByteCodec(CodecInterpretation):
    """A legacy encoding with characters of several bytes (see the module)."""

    @property
    def shape(self) -> Shape:
        return shape_of(self.codec)

    @property
    def keeps_sync_points(self) -> bool:
        return not self.shape.stateful

    @property
    def note(self) -> str:
        if self.shape.stateful:
            return (f"{self.short_title} carries a shift state: each line is read as if it "
                    f"began in ASCII (the reading resynchronizes at line starts)")
        return (f"{self.short_title}: a trail byte can also lead a character, so the reading "
                f"falls back in step only at a byte that must start one (ASCII, a line feed)")

    # ------------------------------------------------------------ where units start
    def _last_mark(self, source, lo: int, hi: int) -> int:
        """The last offset in [lo, hi] where a unit must start, or -1."""
        shape = self.shape
        top = hi + 1
        reach = 256
        while top > lo:
            a = max(lo, top - reach)
            data = source.read(a, top - a)
            if not data:
                return -1
            m = np.frombuffer(data, dtype=np.uint8)
            marks = shape.starts_at[m]
            marks[1:] |= shape.starts_after[m[:-1]]
            found = np.flatnonzero(marks)
            if a == lo and len(found) and found[-1] == 0 and not shape.starts_at[m[0]]:
                found = found[:-1]   # an after-mark needs the byte before it, not read
            if len(found):
                return a + int(found[-1])
            if a == lo:
                return -1
            top = a + 1
            reach *= 8
        return -1

    def _sync(self, sync, seg_start: int):
        """The scan's sync points, when they hold in the stream that begins at
        ``seg_start`` (the reading from the file's start; not a state-carrying codec's,
        whose places are line starts)."""
        return sync if sync is not None and seg_start == 0 and not self.shape.stateful else None

    def anchor(self, source, offset, seg_start, sync=None):
        q = self._anchor(source, offset, seg_start, sync)
        if self.shape.stateful and q < offset and \
                _SHIFT_BYTE.search(source.read(q, offset - q)) is None:
            # No shift between the line start and here: still in the initial state,
            # where each byte is a unit, so the page may begin right here.
            return offset
        return q

    def _anchor(self, source, offset, seg_start, sync=None):
        grid = max(seg_start, offset // SYNC_GRID * SYNC_GRID)
        q = self._last_mark(source, grid, offset)
        if q >= 0:
            return q
        if grid == seg_start:
            return grid
        sync = self._sync(sync, seg_start)
        known = sync.start_before(offset) if sync is not None else None
        if known is not None:
            return max(known, self._last_mark(source, known, grid - 1))
        q = self._last_mark(source, max(seg_start, grid - SYNC_GRID), grid - 1)
        return q if q >= 0 else grid

    def restarts(self, source, lo, hi, seg_start, sync=None):
        sync = self._sync(sync, seg_start)
        out = []
        g = (lo // SYNC_GRID + 1) * SYNC_GRID
        while g < hi + self.read_ahead:
            if g > seg_start and (sync is None or not sync.knows(g)) and \
                    self._last_mark(source, max(seg_start, g - SYNC_GRID), g) < 0:
                out.append(g)
            g += SYNC_GRID
        return out

    def exact_at(self, source, offset, seg_start, sync=None) -> bool:
        """Whether the cut of a page at ``offset`` is the reading from the stream's
        start: False where it begins afresh at a multiple of ``SYNC_GRID`` (no byte
        that must start a unit within it, and no sync point yet)."""
        grid = max(seg_start, offset // SYNC_GRID * SYNC_GRID)
        if grid == seg_start or self._last_mark(source, grid, offset) >= 0:
            return True
        sync = self._sync(sync, seg_start)
        if sync is not None and sync.knows(offset):
            return True
        return self.anchor(source, offset, seg_start) < grid

    # ------------------------------------------------------------ the cut
    def page_cut(self, data, base=0, final=True, stop=None, head=b""):
        n = len(data)
        stop = n if stop is None else min(stop, n)
        if stop <= 0:
            return empty()
        data = bytes(data)
        return self._cut(data, base, final, stop, self.shape.stateful and b"\n" in data)

    def _cut(self, data: bytes, base: int, final: bool, stop: int, by_lines: bool):
        """The cut of ``data``; ``by_lines``: a state-carrying codec's bytes with a line
        feed, each line read from the initial state."""
        if self.codec == "iso2022_kr" and not data.startswith(KR_DESIGNATION):
            return self._designated(data, base, final, stop, by_lines)
        n = len(data)
        cps, events = decode_with_events(data, self.codec)
        if by_lines and events:
            return self._line_by_line(data, base, final, stop, events)
        fast = self._by_escapes(data, cps) if self.shape.stateful and not events else None
        if fast is not None and (fast[1] or not by_lines):
            return self._kept(fast[0], stop, base)
        if by_lines and not self._reads_line_by_line_alike(data, cps):
            return self._line_by_line(data, base, final, stop, events)
        if not self.shape.stateful:
            cut = self._by_lengths(data, cps, events, final)
        elif not events:
            cut = self._by_segments(data, cps)
        elif len(events) == 1 and not final and events[0][1] == n and events[0][0] >= stop:
            # The read ended inside a character past the page: cut what came before.
            upto = events[0][0]
            cut = self._by_segments(data[:upto], cps[:-1])
        else:
            cut = None
        if cut is None:
            cut = self.by_bytes(data, events, final)
        if by_lines and not _feeds_end_units(cut, data):
            # The decoder took a line feed into a shift sequence without an error
            # (CPython's ISO-2022 after a lone ESC "("): read line by line instead.
            return self._line_by_line(data, base, final, stop)
        return self._kept(cut, stop, base)

    def _designated(self, data: bytes, base: int, final: bool, stop: int, by_lines: bool):
        """ISO-2022-KR bytes read from past the file's designation: cut after the
        designation, which then goes with nothing (the first unit keeps its own bytes)."""
        k = len(KR_DESIGNATION)
        cut = self._cut(KR_DESIGNATION + data, base - k, final, stop + k, by_lines)
        if not len(cut):
            return cut
        offset, length = cut.offset.copy(), cut.length.copy()
        offset[0] += k
        length[0] -= k
        keep = length > 0
        cut = PageCut(offset, length, *cut.arrays()[2:], more=cut.more)
        return cut if keep.all() else cut.take(keep)

    def _reads_line_by_line_alike(self, data: bytes, cps: np.ndarray) -> bool:
        """Whether clean bytes decode to the same text read a line at a time, each line
        from the initial state, as read in one go (CPython's decoders keep a shift
        across a line feed: a line feed lost from an ISO-2022 shift-out)."""
        head = KR_DESIGNATION if self.codec == "iso2022_kr" else b""
        try:
            lines = data.split(b"\n")
            by_lines = "\n".join((head + line).decode(self.codec) for line in lines)
        except UnicodeDecodeError:
            return False
        return by_lines == "".join(map(chr, cps.tolist()))

    def _line_by_line(self, data: bytes, base: int, final: bool, stop: int, events=()):
        """A state-carrying codec's bytes with errors, cut a line at a time: each line is
        read from the initial state (the contract), so a broken shift or escape sequence
        never carries over a line feed and a line is cut the same wherever a read of
        the file begins. Lines between the ``events`` (errors of a read in one go)
        are cut together, as one read (it reads them alike, or splits them again)."""
        n = len(data)
        feeds = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 0x0A)
        ends = np.append(feeds + 1, n) if not len(feeds) or feeds[-1] != n - 1 else feeds + 1
        starts = np.concatenate(([0], ends[:-1]))
        alone = np.ones(len(ends), dtype=bool)
        if events:
            alone[:] = False
            hit = np.array([e[0] for e in events] + [max(e[1] - 1, e[0]) for e in events])
            line_of = np.searchsorted(ends, hit, side="right")
            alone[line_of[line_of < len(ends)]] = True
        cuts = []
        k = 0
        while k < len(ends) and starts[k] < stop:
            if alone[k]:
                cuts.append(self._one_line(data, int(starts[k]), int(ends[k]), base, final))
                k += 1
                continue
            first = k
            while k < len(ends) and not alone[k] and starts[k] < stop:
                k += 1
            # (an error marks at least one line alone: the rest is shorter than data)
            a, b = int(starts[first]), int(ends[k - 1])
            cuts.append(self.page_cut(data[a:b], base + a, final or b < n))
        cut = concatenate(cuts)
        if len(cut) and cut.offset[-1] >= base + stop:
            cut = cut.take(slice(0, int(np.searchsorted(cut.offset, base + stop))))
        return cut

    def _one_line(self, data: bytes, pos: int, end: int, base: int, final: bool):
        """The line data[pos:end] (its line feed last, if it has one) read on its own."""
        def alone(a: int, b: int, last: bool):
            return self._cut(data[a:b], base + a, last, b - a, False) if b > a else empty()

        if data[end - 1:end] != b"\n":
            return alone(pos, end, final)
        line = alone(pos, end, True)
        if not _feeds_end_units(line.arrays(), data[pos:end], base + pos):
            # A shift sequence took the line feed in: the line, then the feed alone.
            line = concatenate([alone(pos, end - 1, True), alone(end - 1, end, True)])
        return line

    @staticmethod
    def _kept(arrays, stop: int, base: int):
        offset, length, kind, value, replacements, at_end = arrays[:6]
        more = arrays[6] if len(arrays) > 6 else None   # by_bytes: characters of 2+ code points
        if len(offset) and offset[-1] >= stop:
            k = int(np.searchsorted(offset, stop))
            offset, length, kind, value, replacements, at_end = (
                offset[:k], length[:k], kind[:k], value[:k], replacements[:k], at_end[:k])
            more = None if more is None else more[:k]
        return make_cut(offset, length, kind, value, replacements, at_end, base, more)

    def _by_lengths(self, data, cps, events, final):
        """The cut from the decoded text and each character's length, or None when the
        lengths do not add up to the bytes between the errors."""
        n = len(data)
        marker = cps == MARK
        if int(marker.sum()) != len(events):
            return None
        length = np.empty(len(cps), dtype=np.int64)
        ev = np.array([(s, e) for s, e, _ in events], dtype=np.int64).reshape(-1, 2)
        length[marker] = ev[:, 1] - ev[:, 0]
        valid = ~marker
        if valid.any():
            length[valid] = char_lengths(self.codec, cps[valid])
            if (length[valid] <= 0).any():
                return None
        ends = np.cumsum(length)
        offset = ends - length
        if (len(ends) and ends[-1] != n) or (len(ends) == 0 and n) or \
                not np.array_equal(offset[marker], ev[:, 0]):
            return None
        kind = np.where(marker, C_UNDECODABLE, C_VALID).astype(np.uint8)
        value = np.where(marker, -1, cps)
        at_end = np.zeros(len(cps), dtype=bool)
        if final and events and events[-1][1] == n and _incomplete(events[-1][2]):
            at_end[-1] = True
        return offset, length, kind, value, marker.astype(np.int64), at_end

    def _by_segments(self, data, cps):
        """A state-carrying codec's cut without errors, one decode per stretch between
        shift sequences: a stretch whose characters all take one byte, or all two,
        has them at once (the shift sequence goes with its first character). None when
        a stretch is otherwise, or the stretches do not decode to the whole's text."""
        n = len(data)
        shifts = _HZ_SHIFTS if self.codec.startswith("hz") else _SHIFTS
        found = [(m.start(), m.end() - m.start()) for m in shifts.finditer(data)]
        escapes = dict(found)
        bounds = sorted({0, *escapes, n})
        firsts, shifts, counts, widths, texts = [], [], [], [], []
        decode = self.codec
        for a, b in zip(bounds, bounds[1:]):
            shift = escapes.get(a, 0)
            try:
                text = data[a:b].decode(decode)
            except UnicodeDecodeError:
                return None
            k, body = len(text), b - a - shift
            if k == 0:
                if not counts:
                    return None
                shifts[-1] = (shifts[-1][0], shifts[-1][1] + b - a)  # no character follows
                continue
            if k == body and shift and data[a + 1:a + 2] == b"$":
                return None   # a double-byte set: each pair two code points (JIS X 0213)
            if k == body:
                width = 1
            elif 2 * k == body:
                width = 2
            else:
                return None
            firsts.append(a)
            shifts.append((shift, 0))
            counts.append(k)
            widths.append(width)
            texts.append(text)
        if not counts:
            return None
        value = np.frombuffer("".join(texts).encode("utf-32-le"), dtype="<u4").astype(np.int64)
        if not np.array_equal(value, cps):
            return None
        return _segment_arrays(firsts, shifts, counts, widths, value)

    def _by_escapes(self, data: bytes, cps: np.ndarray):
        """:meth:`_by_segments` without a decode per stretch, for the shift sequences
        whose effect is known (ISO-2022: a set into G0, SO, SI, designations of G1-G3;
        HZ: ~{ ~} and ~ before a line feed): each stretch's characters take the width
        of the set in force, and together they must be as many as the whole's code
        points. Also whether every line feed lies in a one-byte stretch (a line then
        ends in the initial state, so the lines read alone read the same). None when a
        sequence is another, or the widths do not account for the characters."""
        hz = self.codec.startswith("hz")
        marks = []
        for m in (_HZ_SHIFTS if hz else _SHIFTS).finditer(data):
            seq = m.group()
            if hz:
                new = 2 if seq == b"~{" else 1 if seq == b"~}" else 0
                if seq == b"~\n":
                    return None     # a line feed that joins two lines: no line feed unit
            elif seq == b"\x0e":
                new = 2
            elif seq == b"\x0f":
                new = 1
            elif seq[1:2] == b"(":
                new = 1                                   # ESC ( F: one-byte set into G0
            elif seq[1:2] == b"$" and seq[2:3] in (b"@", b"A", b"B", b"("):
                new = 2                                   # ESC $ F, ESC $ ( F into G0
            elif seq[1:2] in (b")", b"-", b".") or seq[1:3] == b"$)":
                new = 0                                   # G1-G3 named: no shift
            else:
                return None
            marks.append((m.start(), m.end() - m.start(), new))
        marks.append((len(data), 0, 0))
        firsts, shifts, counts, widths = [], [], [], []
        width, at, lead = 1, 0, 0   # the set in force; where its characters start; the
        feeds_in_ascii = True       # shift bytes before them (they go with the first)
        for start, size, new in marks:
            body = start - at
            if body % width:
                return None
            k = body // width
            if k:
                firsts.append(at - lead)
                shifts.append((lead, 0))
                counts.append(k)
                widths.append(width)
                if width == 2 and data.find(b"\n", at, start) >= 0:
                    feeds_in_ascii = False
                lead = 0
            if new:
                width = new
            lead += size
            at = start + size
        if lead:                    # shift bytes at the end, no character after them
            if not counts:
                return None
            shifts[-1] = (shifts[-1][0], shifts[-1][1] + lead)
        if sum(counts) != len(cps):
            return None
        return _segment_arrays(firsts, shifts, counts, widths, cps), feeds_in_ascii

    def by_bytes(self, data, events, final):
        """The cut by the codec's incremental decoder fed byte by byte between the
        errors (which the whole decode reported): a unit ends at the byte that makes its
        character come out."""
        n = len(data)
        decoder = codecs.getincrementaldecoder(self.codec)("strict")
        rows: list[list] = []   # offset, length, kind, value, replacements, at_end
        more: dict[int, tuple] = {}   # row -> code points after its value
        pos = 0
        for s, e, reason in [*events, (n, n, "")]:
            begin = pos
            for i in range(pos, s):
                try:
                    out = decoder.decode(data[i:i + 1])
                except UnicodeDecodeError:
                    rows.append([begin, i + 1 - begin, C_UNDECODABLE, -1, 1, False])
                    decoder.reset()
                    begin = i + 1
                    continue
                if out:
                    # Several characters at once: in ISO-2022 a broken escape gives its
                    # ESC back and the bytes after it, one byte each; otherwise one
                    # character of several code points (four Big5-HKSCS pairs, JIS X
                    # 0213 kana with a combining mark): one unit, ``more`` the rest.
                    extra = len(out) - 1 if self.shape.stateful else 0
                    extra = min(extra, i - begin)
                    if extra and out[-extra:] != data[i + 1 - extra:i + 1].decode("latin-1"):
                        extra = 0
                    rows.append([begin, i + 1 - begin - extra, C_VALID, ord(out[0]), 0, False])
                    if len(out) > 1 and not extra:
                        more[len(rows) - 1] = tuple(map(ord, out[1:]))
                    for k in range(extra):
                        rows.append([i + 1 - extra + k, 1, C_VALID, ord(out[k + 1]), 0, False])
                    begin = i + 1
            leftover = s - begin   # a shift sequence with no character after it
            if leftover and rows and rows[-1][0] + rows[-1][1] == begin:
                rows[-1][1] += leftover
            elif leftover:
                s, e = begin, max(e, s)   # taken into the error after it
            if e > s:
                # A shift sequence the data ends with makes no U+FFFD either.
                rows.append([s, e - s, C_UNDECODABLE, -1, 1 if reason else 0,
                             final and e == n and _incomplete(reason)])
            if not self.shape.stateful:
                decoder.reset()
            pos = e
        if not rows:
            z = np.zeros(0, dtype=np.int64)
            return z, z, z.astype(np.uint8), z, z, z.astype(bool)
        a = np.array([r[:5] for r in rows], dtype=np.int64)
        arrays = (a[:, 0], a[:, 1], a[:, 2].astype(np.uint8), a[:, 3], a[:, 4],
                  np.array([r[5] for r in rows], dtype=bool))
        if not more:
            return arrays
        extra = no_more(len(rows))
        for k, cps in more.items():
            extra[k] = cps
        return (*arrays, extra)


def _segment_arrays(firsts, shifts, counts, widths, value):
    """Unit arrays of stretches: ``firsts`` where each starts, ``shifts`` its (lead,
    tail) shift bytes (the lead goes with its first character, the tail with its last),
    ``counts`` its characters of ``widths`` bytes each; ``value`` their code points."""
    counts_a = np.array(counts, dtype=np.int64)
    width_a = np.repeat(np.array(widths, dtype=np.int64), counts_a)
    lead = np.array([s for s, _ in shifts], dtype=np.int64)
    tail = np.array([t for _, t in shifts], dtype=np.int64)
    seg_first = np.cumsum(counts_a) - counts_a          # index of each stretch's first
    within = np.arange(len(value), dtype=np.int64) - np.repeat(seg_first, counts_a)
    offset = np.repeat(np.array(firsts, dtype=np.int64) + lead, counts_a) + within * width_a
    length = width_a.copy()
    offset[seg_first] -= lead
    length[seg_first] += lead
    last = seg_first + counts_a - 1
    length[last] += tail
    count = len(value)
    return (offset, length, np.zeros(count, np.uint8), value, np.zeros(count, np.int64),
            np.zeros(count, bool))


def _feeds_end_units(arrays, data: bytes, base: int = 0) -> bool:
    """Whether every 0A byte the cut (offsets from ``base``) covers ends a unit whose
    character is U+000A: a line feed (a shift sequence before it may go with it)."""
    offset, length, kind, value = arrays[:4]
    if not len(offset):
        return True
    covered = int(offset[-1] + length[-1] - base)
    feeds = np.flatnonzero(np.frombuffer(data, dtype=np.uint8)[:covered] == 0x0A) + base
    if not len(feeds):
        return True
    at = np.searchsorted(offset, feeds, side="right") - 1
    return bool(np.all((at >= 0) & (offset[at] + length[at] - 1 == feeds) & (kind[at] == 0)
                       & (value[at] == 0x0A)))


def _incomplete(reason: str) -> bool:
    return "incomplete" in reason or "end of data" in reason or "truncated" in reason
