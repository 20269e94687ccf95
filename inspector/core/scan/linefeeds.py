"""Where a reading's line feeds are (the unit contract's "Lines and columns"): a line
feed is a valid unit whose character is U+000A.

:func:`feeds_of` gives, for an interpretation, the cheapest exact way to find them:

- :class:`ByteFeeds`: the line feed is one byte value and that byte is always a unit of
  its own (every UTF-8 dialect, the ASCII-based and EBCDIC code pages):
  ``bytes.count`` / ``find`` / ``rfind``, C speed, as the UTF-8 count always was;
- :class:`EdgeFeeds`: the same in the multi-byte encodings whose characters never hold
  the byte 0A, but for the last few bytes of the data, where the cut decides;
- :class:`WideFeeds` (UTF-16, UTF-32): the code unit 000A at a multiple of the width
  from the start of the file, one numpy comparison per chunk (000A is never half of a
  surrogate pair);
- :class:`CutFeeds`: the units of the reading's own page cut with value 10 (the
  state-carrying ISO-2022 and HZ codecs, where a 0A can be swallowed by a double-byte
  error);
- :class:`MapFeeds`: the encoding map's reading, each region by its own reading's
  feeds.

Every method takes file offsets and counts the line feeds that *start* in [lo, hi); a
unit start ``hi`` has all of them end at or before it.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units.interpretation import interpretation

CHUNK = 4 << 20     # bytes read at once when counting bytes or code units
CUT_CHUNK = 256 << 10   # bytes cut at once where the page cut decides
_NONE = np.zeros(0, dtype=np.int64)


class ByteFeeds:
    """A line feed is the byte ``byte`` wherever it is (None: the reading has none)."""

    def __init__(self, byte: int | None):
        self.byte = None if byte is None else bytes([byte])

    def count(self, source, lo: int, hi: int) -> int:
        if self.byte is None:
            return 0
        read, n, pos = source.read_uncached, 0, lo
        while pos < hi:
            data = read(pos, min(CHUNK, hi - pos))
            if not data:
                break
            n += data.count(self.byte)
            pos += len(data)
        return n

    def ends(self, source, lo: int, hi: int) -> np.ndarray:
        if self.byte is None or hi <= lo:
            return _NONE
        out, pos, read = [], lo, source.read_uncached
        while pos < hi:
            data = read(pos, min(CHUNK, hi - pos))
            if not data:
                break
            at = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == self.byte[0])
            out.append(at + (pos + 1))
            pos += len(data)
        return np.concatenate(out) if out else _NONE

    def last_end(self, source, lo: int, hi: int) -> int:
        if self.byte is None:
            return -1
        read, top = source.read_uncached, hi
        while top > lo:
            a = max(lo, top - CHUNK)
            k = read(a, top - a).rfind(self.byte)
            if k >= 0:
                return a + k + 1
            top = a
        return -1


class WideFeeds:
    """UTF-16 / UTF-32: the code unit 10 at a multiple of ``width`` (``dtype`` the code
    unit with its byte order)."""

    def __init__(self, width: int, dtype):
        self.width, self.dtype = width, np.dtype(dtype)

    def _aligned(self, lo: int) -> int:
        return -(-lo // self.width) * self.width

    def ends(self, source, lo: int, hi: int) -> np.ndarray:
        w = self.width
        pos = self._aligned(lo)
        out, read = [], source.read_uncached
        while pos < hi:
            data = read(pos, min(CHUNK, self._aligned(hi) - pos))
            count = len(data) // w
            if not count:
                break
            at = np.flatnonzero(np.frombuffer(data, dtype=self.dtype, count=count) == 10)
            out.append(at * w + (pos + w))
            pos += count * w
        # Read up to the first multiple of the width at or after hi: every unit kept
        # starts before hi.
        return np.concatenate(out) if out else _NONE

    def count(self, source, lo: int, hi: int) -> int:
        return len(self.ends(source, lo, hi))

    def last_end(self, source, lo: int, hi: int) -> int:
        top = hi
        while top > lo:
            a = max(lo, top - CHUNK)
            ends = self.ends(source, a, top)
            if len(ends):
                return int(ends[-1])
            top = a
        return -1


class CutFeeds:
    """The reading's own cut decides (from the start of the file: no origin)."""

    def __init__(self, reading):
        self.reading = reading

    def ends(self, source, lo: int, hi: int) -> np.ndarray:
        from inspector.core.scan import pagecut

        out, pos = [], max(0, lo)
        hi = min(hi, source.size)
        while pos < hi:
            stop = min(hi, pos + CUT_CHUNK)
            for c in pagecut.cuts_in_range(source, pos, stop, None, self.reading):
                at = np.flatnonzero((c.kind == 0) & (c.value == 10)
                                    & (c.offset >= pos) & (c.offset < stop))
                out.append(c.offset[at] + c.length[at])
            pos = stop
        return np.concatenate(out) if out else _NONE

    def count(self, source, lo: int, hi: int) -> int:
        return len(self.ends(source, lo, hi))

    def last_end(self, source, lo: int, hi: int) -> int:
        top, step = hi, 4096
        while top > lo:
            a = max(lo, top - step)
            ends = self.ends(source, a, top)
            if len(ends):
                return int(ends[-1])
            top, step = a, min(step * 4, CHUNK)
        return -1


class EdgeFeeds:
    """A multi-byte encoding's line feed byte: never inside a character, but within the
    last few bytes of the data a decoder may take it into a sequence cut short (GB18030
    reads ``BE 37 0A`` at the end as one incomplete four-byte form): the bytes count,
    but the cut decides over the last ``tail`` bytes."""

    def __init__(self, byte: int, reading, tail: int):
        self.bytes, self.cut, self.tail = ByteFeeds(byte), CutFeeds(reading), tail

    def _split(self, source, lo: int, hi: int):
        edge = max(0, source.size - self.tail)
        return (lo, min(hi, edge)), (max(lo, edge), hi)

    def ends(self, source, lo: int, hi: int) -> np.ndarray:
        (a, b), (c, d) = self._split(source, lo, hi)
        return np.concatenate((self.bytes.ends(source, a, b) if b > a else _NONE,
                               self.cut.ends(source, c, d) if d > c else _NONE))

    def count(self, source, lo: int, hi: int) -> int:
        (a, b), (c, d) = self._split(source, lo, hi)
        return ((self.bytes.count(source, a, b) if b > a else 0)
                + (self.cut.count(source, c, d) if d > c else 0))

    def last_end(self, source, lo: int, hi: int) -> int:
        (a, b), (c, d) = self._split(source, lo, hi)
        k = self.cut.last_end(source, c, d) if d > c else -1
        return k if k >= 0 or b <= a else self.bytes.last_end(source, a, b)


class MapFeeds:
    """The encoding map's reading: each region (a stream of its own) by its reading."""

    def __init__(self, regions):
        self.regions = regions

    def _parts(self, source, lo: int, hi: int):
        from inspector.core.scan.readings.mapreading import RegionSource

        for rs, re, reading in self.regions:
            if re > lo and rs < hi:
                sub = RegionSource(source, rs, min(re, source.size))
                yield rs, sub, feeds_of(reading, sub), max(lo, rs) - rs, min(hi, re) - rs

    def ends(self, source, lo: int, hi: int) -> np.ndarray:
        out = [f.ends(sub, a, b) + rs for rs, sub, f, a, b in self._parts(source, lo, hi)]
        return np.concatenate(out) if out else _NONE

    def count(self, source, lo: int, hi: int) -> int:
        return sum(f.count(sub, a, b) for _, sub, f, a, b in self._parts(source, lo, hi))

    def last_end(self, source, lo: int, hi: int) -> int:
        for rs, sub, f, a, b in reversed(list(self._parts(source, lo, hi))):
            k = f.last_end(sub, a, b)
            if k >= 0:
                return rs + k
        return -1


def _single_byte_feed(codec: str):
    from inspector.core.units.encodings.codecunits import byte_table

    at = np.flatnonzero(byte_table(codec) == 10)
    if len(at) > 1:
        return None   # no code page has two, but the cut would count them all
    return ByteFeeds(int(at[0]) if len(at) else None)


def _multibyte_feed(reading):
    shape = reading.shape
    try:
        lf = "\n".encode(reading.codec)
    except UnicodeEncodeError:
        return ByteFeeds(None)
    if (not shape.stateful and len(lf) == 1 and shape.starts_at[lf[0]]
            and shape.starts_after[lf[0]]):
        # Never inside a character: a unit of its own, but near the end of the data.
        return EdgeFeeds(lf[0], reading, shape.max_length - 1)
    return None


def feeds_of(reading, source):
    """How the line feeds of ``reading`` (a name or an interpretation) are found in
    ``source`` (whose first bytes decide UTF-16/32 without a byte order in the name)."""
    reading = interpretation(reading)
    if reading.is_utf8:
        return ByteFeeds(0x0A)   # in every dialect an LF is always a unit of its own
    from inspector.core.scan.readings.mapreading import MapReading
    from inspector.core.units.encodings.codecunits import SingleByteCodec, UtfWide
    from inspector.core.units.encodings.multibyte import MultiByteCodec

    if isinstance(reading, MapReading):
        return MapFeeds(reading.regions)
    if isinstance(reading, UtfWide):
        end = "<" if reading.byte_order(reading.head(source)) == "little" else ">"
        return WideFeeds(reading.width, f"{end}u{reading.width}")
    found = None
    if isinstance(reading, SingleByteCodec):
        found = _single_byte_feed(reading.codec)
    elif isinstance(reading, MultiByteCodec):
        found = _multibyte_feed(reading)
    return found if found is not None else CutFeeds(reading)

