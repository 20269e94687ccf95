"""Unit boundaries found from a few bytes, without cutting: every rule that puts a cursor,
a window edge or the end of a chunk on a unit boundary lives here.

Self-synchronization makes them local. A byte that is not a continuation byte (80..BF)
always starts a unit; a lead takes at most 5 continuation bytes, so a continuation byte
with 5 or more continuation bytes right before it is a stray, which starts a unit too.
Only surrogate pairs reach further (``kinds.PAIR_DIALECTS``): CESU-8 and Modified UTF-8
make a pair one unit, and WTF-8 calls a half valid only when it is lone, so there a cut
between the halves of a pair changes the units.

The questions asked, each answered once:

* at or before an offset: :func:`unit_start`, the start of the unit that holds it (the
  cursor's question), and :func:`safe_start`, a boundary from which cutting gives the
  whole stream's units (where the cut of a range begins);
* at or after an offset: :func:`boundary_at_or_after`, the first boundary when a unit
  start before it is known (the scanner's block edges), and :func:`safe_end`, a
  boundary found from the bytes at and after it (where a window or an exported region
  ends);
* a safe cut for a chunk: :func:`chunk_end`, the last boundary at or before the end of
  the bytes at hand that no unit or pair crosses (where a chunk of a longer stream ends).

They rest on two primitives, :func:`char_start_at_or_after` and
:func:`char_start_at_or_before`: the nearest byte that is not a continuation byte within
a reach. The encoding map's heuristics call those directly: they trim windows of bytes
that may not be UTF-8 at all and look only as far as a modern character reaches.
"""

from __future__ import annotations

from typing import Protocol

from inspector.core.units import kinds as K

# Structural length by byte value: 1 for ASCII and FE/FF, 0 for continuation bytes.
STRUCT_LEN = bytes(
    1 if b < 0x80 else 0 if b < 0xC0 else 2 if b < 0xE0 else 3 if b < 0xF0
    else 4 if b < 0xF8 else 5 if b < 0xFC else 6 if b < 0xFE else 1
    for b in range(256)
)
MAX_LOOKBACK = 5  # continuation bytes a lead takes at most (a 6-byte 1993 form)
# How far :func:`unit_start` may go back: a 6-byte form's lead, or the high half of a
# CESU-8 pair before it.
UNIT_START_REACH = MAX_LOOKBACK + 3
# Continuation bytes in a row after which the next byte is a stray whatever came before.
STRAY_RUN = MAX_LOOKBACK + 1


class Source(Protocol):
    """What the source-level questions need of a byte source."""

    size: int

    def read(self, offset: int, length: int) -> bytes: ...


def is_continuation(b: int) -> bool:
    return 0x80 <= b <= 0xBF


def is_high_surrogate_at(data, i: int, n: int) -> bool:
    """``data[i:i+3]`` (of the first ``n`` bytes) is a high surrogate's three bytes."""
    return (0 <= i and i + 2 < n and data[i] == 0xED and 0xA0 <= data[i + 1] <= 0xAF
            and 0x80 <= data[i + 2] <= 0xBF)


def is_low_surrogate_at(data, i: int, n: int) -> bool:
    """``data[i:i+3]`` (of the first ``n`` bytes) is a low surrogate's three bytes."""
    return (0 <= i and i + 2 < n and data[i] == 0xED and 0xB0 <= data[i + 1] <= 0xBF
            and 0x80 <= data[i + 2] <= 0xBF)


def _may_be_low_surrogate_at(data, i: int, n: int) -> bool:
    """The bytes from ``i`` on, as far as the first ``n`` show them, may be a low
    surrogate's: a chunk's last bytes may hold only its first one or two."""
    return (data[i] == 0xED and (i + 1 >= n or 0xB0 <= data[i + 1] <= 0xBF)
            and (i + 2 >= n or 0x80 <= data[i + 2] <= 0xBF))


def splits_pair(data, p: int) -> bool:
    """A cut at ``p`` would separate a high surrogate from the low one after it (which
    matters in ``kinds.PAIR_DIALECTS``)."""
    n = len(data)
    return is_high_surrogate_at(data, p - 3, n) and is_low_surrogate_at(data, p, n)


def segment(offset: int, origin: int | None, size: int) -> tuple[int, int]:
    """The stretch of the file that is decoded as one stream around ``offset``.

    With an origin X the stream begins at X; the bytes before X are cut as their own
    stream that ends at X, so every byte still belongs to exactly one unit.
    """
    if origin is None or origin <= 0 or origin >= size:
        return 0, size
    return (origin, size) if offset >= origin else (0, origin)


# -------------------------------------------------------------------------- primitives

def char_start_at_or_after(buf, p: int, end: int, reach: int) -> int:
    """The first byte of ``buf[p:end]`` that is not a continuation byte, looking at most
    ``reach`` bytes on; where the look stopped when there is none."""
    q = p
    limit = min(end, p + reach)
    while q < limit and 0x80 <= buf[q] <= 0xBF:
        q += 1
    return q


def char_start_at_or_before(buf, p: int, floor: int) -> int:
    """The last byte of ``buf[floor:p + 1]`` that is not a continuation byte, or -1."""
    k = p
    while k >= floor and 0x80 <= buf[k] <= 0xBF:
        k -= 1
    return k if k >= floor else -1


def _unit_end(buf, q: int) -> int:
    """Where the unit that the non-continuation byte ``buf[q]`` starts ends, as far as
    ``buf`` holds it (a surrogate pair counts as its two halves)."""
    limit = min(len(buf), q + STRUCT_LEN[buf[q]])
    e = q + 1
    while e < limit and 0x80 <= buf[e] <= 0xBF:
        e += 1
    return e


# ----------------------------------------------------------------------- at or before

def unit_start(source: Source, offset: int, origin: int | None = None,
               dialect: str = K.UTF8) -> int:
    """The offset of the first byte of the unit that holds ``offset``.

    Looks back at most 5 bytes for the nearest non-continuation byte, and 3 more for a
    CESU-8 / Modified UTF-8 surrogate pair: never further.
    """
    seg_start, seg_end = segment(offset, origin, source.size)
    lo = max(seg_start, offset - UNIT_START_REACH)
    window = source.read(lo, max(0, min(seg_end, offset + 7) - lo))
    p = offset - lo
    if p >= len(window):
        return offset
    q = char_start_at_or_before(window, p, max(0, p - MAX_LOOKBACK))
    if q < 0 or _unit_end(window, q) <= p:
        return offset  # no lead within reach, or its unit ends before: a stray
    start = lo + q
    # A low surrogate right after a complete high one is the second half of a pair.
    n = len(window)
    if (dialect in K.PAIR_UNIT_DIALECTS and start - 3 >= seg_start
            and is_low_surrogate_at(window, q, n) and is_high_surrogate_at(window, q - 3, n)):
        return start - 3
    return start


def safe_start(source: Source, offset: int, origin: int | None, dialect: str) -> int:
    """A unit boundary at or before ``offset`` from which cutting gives the same units as
    cutting the whole stream: the start of the unit holding ``offset``, moved back over a
    high surrogate that may pair with it (so WTF-8 knows whether it is lone)."""
    start = unit_start(source, offset, origin, dialect)
    if dialect in K.PAIR_DIALECTS:
        seg_start, _ = segment(offset, origin, source.size)
        if start - 3 >= seg_start:
            w = source.read(start - 3, 6)
            if is_high_surrogate_at(w, 0, len(w)) and is_low_surrogate_at(w, 3, len(w)):
                return start - 3
    return start


# ------------------------------------------------------------------------ at or after

def boundary_at_or_after(buf, p: int, lo: int = 0) -> int:
    """The first unit boundary at or after ``p`` in ``buf`` (where ``buf[lo]`` starts a
    unit; ``buf`` holds the bytes up to the stream's end or 8+ past ``p``), in a dialect
    that keeps surrogate pairs apart (the scanner's utf-8 path)."""
    q = p
    while q > lo and q > p - 6 and 0x80 <= buf[q] <= 0xBF:
        q -= 1
    lead = buf[q]
    if q == p or 0x80 <= lead <= 0xBF:
        return p  # p starts a unit itself (a stray if it is a continuation byte)
    end = q + 1
    limit = min(len(buf), q + STRUCT_LEN[lead])
    while end < limit and 0x80 <= buf[end] <= 0xBF:
        end += 1
    return end if end > p else p


def safe_end(buf, p: int, pairs: bool) -> int:
    """A unit boundary at or after ``p`` that no unit (nor, with ``pairs``, surrogate
    pair) crosses, found from the bytes of ``buf`` after it (``buf`` reaches 8+ bytes
    past ``p``, or the stream's end): the first non-continuation byte, or the byte after
    six continuation bytes in a row (a stray)."""
    n = len(buf)
    q = min(char_start_at_or_after(buf, p, n, STRAY_RUN), n)
    if pairs and q < n and splits_pair(buf, q):
        q += 3
    return min(q, n)


def safe_end_in(source: Source, offset: int, dialect: str) -> int:
    """:func:`safe_end` of the whole ``source`` (no origin): where a region of it can end
    so that cutting each region on its own gives the units of the whole (the size at
    the end)."""
    size = source.size
    if offset >= size:
        return size
    lo = max(0, offset - 3)
    buf = source.read(lo, offset - lo + STRAY_RUN + 6)
    if len(buf) <= offset - lo:
        return size  # the file ended sooner than it said
    return lo + safe_end(buf, offset - lo, dialect in K.PAIR_DIALECTS)


# ------------------------------------------------------------------------ for a chunk

def chunk_end(buf, end: int, pairs: bool) -> int:
    """The last unit boundary at or before ``end`` such that every unit that starts
    before it ends by it (nor, with ``pairs``, does a surrogate pair cross it): where a
    chunk of a longer stream can end, its units complete. ``buf[0]`` starts a unit;
    bytes of ``buf`` past ``end`` are looked at when it has them.

    A non-continuation byte starts a unit, so the nearest one does; after six
    continuation bytes in a row ``end`` itself does. A low surrogate's ED that may pair
    with a high one before it moves the cut before the high one, also when the chunk
    ends inside the low one.
    """
    n = len(buf)
    k = char_start_at_or_before(buf, min(end, n - 1), max(0, end - STRAY_RUN))
    if k < 0:
        return end
    if pairs and is_high_surrogate_at(buf, k - 3, n) and _may_be_low_surrogate_at(buf, k, n):
        k -= 3
    return k
