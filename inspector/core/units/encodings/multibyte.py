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
``SYNC_GRID`` bytes (a long run of double-byte text without one ASCII byte) the
reading begins afresh at the multiple of ``SYNC_GRID``, so that a page of a huge file is
cut from at most twice that many bytes back, the same way whichever page asks. For the
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
from inspector.core.units.unitarrays import empty, no_more

SYNC_GRID = 16 << 10
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


@lru_cache(maxsize=None)
def shape_of(codec: str) -> Shape:
    """Ask ``codec`` once which bytes lead a longer sequence, which can stand inside a
    character, how long a character gets: every lead byte with every second byte
    through its decoder (two-byte forms and errors), and every character it can write
    through its encoder (the longer forms: GB18030's four bytes, EUC-JP's three)."""
    if codec.startswith(STATEFUL_PREFIXES):
        after = np.zeros(256, dtype=bool)
        after[0x0A] = True
        return Shape(np.zeros(256, dtype=bool), after, 8, True)
    leads = [b for b in range(256) if _first_event(bytes([b]), codec)[1]]
    inner: set[int] = set()       # bytes at a later place than the first of a unit
    nonfinal: set[int] = set(leads)
    longest = 2
    for lead in leads:
        for t in range(256):
            consumed, incomplete = _first_event(bytes([lead, t]), codec)
            # Incomplete: a longer form's prefix, or the data ended inside anything at
            # all; the encoder says below which bytes longer forms really hold.
            if consumed >= 2 and not incomplete:
                inner.add(t)
    for cp in [*range(0x80, 0xD800), *range(0xE000, 0x10000), *range(0x10000, 0x110000, 97)]:
        try:
            raw = chr(cp).encode(codec)
        except UnicodeEncodeError:
            continue
        if len(raw) > 1:
            longest = max(longest, len(raw))
            inner.update(raw[1:])
            nonfinal.update(raw[:-1])
    starts_at = np.ones(256, dtype=bool)
    starts_at[sorted(inner)] = False
    starts_after = np.ones(256, dtype=bool)
    starts_after[sorted(nonfinal)] = False
    return Shape(starts_at, starts_after, longest, False)


_length_cache: dict[str, dict[int, int]] = {}


def char_lengths(codec: str, cps: np.ndarray) -> np.ndarray:
    """How many bytes ``codec`` writes each code point in (-1: it cannot), asked once per
    distinct code point."""
    known = _length_cache.setdefault(codec, {})
    distinct, where = np.unique(cps, return_inverse=True)
    out = np.empty(len(distinct), dtype=np.int64)
    for i, cp in enumerate(distinct.tolist()):
        n = known.get(cp)
        if n is None:
            try:
                n = len(chr(cp).encode(codec))
            except (UnicodeEncodeError, ValueError):
                n = -1
            known[cp] = n
        out[i] = n
    return out[where.reshape(-1)]


@dataclass(frozen=True)
class MultiByteCodec(CodecInterpretation):
    """A legacy encoding with characters of several bytes (see the module)."""

    @property
    def shape(self) -> Shape:
        return shape_of(self.codec)

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

    def anchor(self, source, offset, seg_start):
        grid = max(seg_start, offset // SYNC_GRID * SYNC_GRID)
        q = self._last_mark(source, grid, offset)
        if q >= 0:
            return q
        if grid == seg_start:
            return grid
        q = self._last_mark(source, max(seg_start, grid - SYNC_GRID), grid - 1)
        return q if q >= 0 else grid

    def restarts(self, source, lo, hi, seg_start):
        out = []
        g = (lo // SYNC_GRID + 1) * SYNC_GRID
        while g < hi + self.read_ahead:
            if g > seg_start and self._last_mark(source, max(seg_start, g - SYNC_GRID), g) < 0:
                out.append(g)
            g += SYNC_GRID
        return out

    # ------------------------------------------------------------ the cut
    def page_cut(self, data, base=0, final=True, stop=None, head=b""):
        n = len(data)
        stop = n if stop is None else min(stop, n)
        if stop <= 0:
            return empty()
        data = bytes(data)
        cps, events = decode_with_events(data, self.codec)
        if not self.shape.stateful:
            cut = self._by_lengths(data, cps, events, final)
        elif not events:
            cut = self._by_segments(data, cps)
        elif len(events) == 1 and not final and events[0][1] == n and events[0][0] >= stop:
            # The read ended inside a character past the page: cut what came before.
            head = events[0][0]
            cut = self._by_segments(data[:head], cps[:-1])
        else:
            cut = None
        if cut is None:
            cut = self.by_bytes(data, events, final)
        return self._kept(cut, stop, base)

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
        found = [(m.start(), m.end() - m.start()) for m in _SHIFTS.finditer(data)]
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


def _incomplete(reason: str) -> bool:
    return "incomplete" in reason or "end of data" in reason or "truncated" in reason
