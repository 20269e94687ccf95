"""Multi-byte legacy encodings (Shift_JIS, CP932, EUC-JP, EUC-KR, CP949, Johab, GBK,
GB18030, Big5, Big5-HKSCS, ISO-2022-*, ...): units from the codec itself.

A page is decoded by the codec in one call, with an error handler that records where
each error is (CPython's decoders report the exact bytes of every error and go on after
them): that gives the characters and the problem units in C. Each character's byte
length comes from the codec too (how many bytes it encodes the character in, asked once
per distinct character and kept), and the lengths must add up to the bytes between the
errors; where they do not (a character two byte sequences decode to) that page is cut
by the codec's incremental decoder fed byte by byte. The state-carrying codecs
(ISO-2022-*, HZ), whose shift sequences make no character (their bytes belong to the
character after them), are cut a line at a time from the initial state, in numpy, by
:mod:`~inspector.core.units.encodings.statefulcut`.

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
from inspector.core.units.encodings.statefulcut import KR_DESIGNATION, StatefulCut
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
    try:
        text = codecs.decode(data, codec, _HANDLER)
    except RuntimeError:
        text = _around_internal_errors(data, codec, events)
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    return cps, events


INTERNAL_ERROR = "internal codec error"


def _around_internal_errors(data: bytes, codec: str, events: list) -> str:
    """``data`` decoded where CPython's decoder fails outright instead of reporting an
    error (ISO-2022-JP-2 on ESC N after ESC . J raises RuntimeError): the bytes it had
    taken in since its last character are one error, and decoding goes on after them
    from the initial state."""
    texts = []
    base = 0
    while base < len(data):
        decoder = codecs.getincrementaldecoder(codec)(_HANDLER)
        _local.events = []   # where the failure is; the pieces' errors come below
        fail = None
        for i in range(base, len(data)):
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(data[i:i + 1])
            except RuntimeError:
                fail = (i - pending, i + 1)
                break
        if fail is None:
            _local.events = events
            piece = data[base:]
            mark = len(events)
            texts.append(codecs.decode(piece, codec, _HANDLER))
            events[mark:] = [(s + base, e + base, r) for s, e, r in events[mark:]]
            break
        start, end = max(base, fail[0]), fail[1]
        _local.events = events
        mark = len(events)
        texts.append(codecs.decode(data[base:start], codec, _HANDLER))
        events[mark:] = [(s + base, e + base, r) for s, e, r in events[mark:]]
        events.append((start, end, INTERNAL_ERROR))
        texts.append("\udfff")
        base = end
    _local.events = events
    return "".join(texts)


STATEFUL_PREFIXES = ("iso2022", "hz", "utf-7", "utf_7")
# A byte that may begin a shift sequence in any of them (~ also writes HZ's tilde).
_SHIFT_BYTE = re.compile(rb"[\x1b\x0e\x0f~]")


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
        if shape.stateful:
            # Right after a line feed, and only there: the last one, found in C.
            top, reach = hi, 512
            while top > lo:
                a = max(lo, top - reach)
                k = source.read(a, top - a).rfind(b"\n")
                if k >= 0:
                    return a + k + 1
                top, reach = a, reach * 8
            return -1
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
        begin = lo
        while g < hi + self.read_ahead:
            if g > seg_start and (sync is None or not sync.knows(g)) and \
                    self._last_mark(source, max(seg_start, g - SYNC_GRID), g) < 0 and \
                    not (self.shape.stateful and
                         _SHIFT_BYTE.search(source.read(begin, g - begin)) is None):
                # (A state-carrying codec with no shift since the cut began is in the
                # initial state there anyway: beginning afresh changes nothing.)
                out.append(g)
                begin = g
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
        if self.shape.stateful:
            return StatefulCut(self.codec, self.line_by_bytes).page_cut(data, base, final, stop)
        return self._cut(data, base, final, stop)

    def _cut(self, data: bytes, base: int, final: bool, stop: int):
        cps, events = decode_with_events(data, self.codec)
        cut = self._by_lengths(data, cps, events, final)
        if cut is None:
            cut = self.by_bytes(data, events, final)
        return self._kept(cut, stop, base)

    def line_by_bytes(self, line: bytes, base: int, final: bool) -> PageCut:
        """A state-carrying codec's line (its line feed last, if it has one) cut by the
        codec's incremental decoder fed byte by byte, read from the initial state
        (ISO-2022-KR's with the file's designation before it): the reference the fast
        cut (:mod:`~inspector.core.units.encodings.statefulcut`) is held to, and the cut
        of a line that holds what the fast one does not model. A shift sequence that
        takes the line feed in (or an error) makes the line cut without it and the line
        feed a unit of its own."""
        def alone(piece: bytes, at: int, last: bool) -> PageCut:
            head = KR_DESIGNATION if self.codec == "iso2022_kr" and \
                not piece.startswith(KR_DESIGNATION) else b""
            raw = head + piece
            cps, events = decode_with_events(raw, self.codec)
            cut = self._kept(self.by_bytes(raw, events, last), len(raw), at - len(head))
            if head and len(cut):
                # The designation goes with nothing: the first unit keeps its own bytes.
                offset, length = cut.offset.copy(), cut.length.copy()
                offset[0] += len(head)
                length[0] -= len(head)
                cut = PageCut(offset, length, *cut.arrays()[2:], more=cut.more)
                if length[0] <= 0:
                    cut = cut.take(slice(1, None))
            return cut

        if not line.endswith(b"\n"):
            return alone(line, base, final)
        cut = alone(line, base, True)
        if not _feeds_end_units(cut.arrays(), line, base):
            cut = concatenate([alone(line[:-1], base, True),
                               alone(b"\n", base + len(line) - 1, True)])
        return cut

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
                except (UnicodeDecodeError, RuntimeError):   # RuntimeError: see above
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
