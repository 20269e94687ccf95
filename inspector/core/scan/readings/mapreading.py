"""Reading a file by its encoding map: each region in its own encoding.

:class:`MapReading` is an interpretation made from the regions of an encoding map
(``(start, end, encoding)``; the map itself is the analysis layer's, see
``inspector.core.analysis.encodings.regions``). Each region is read as a stream of its
own in its own encoding, the way an origin starts a stream: a character never runs
over a region's edge. A region labelled ``binary`` or ``mojibake`` (UTF-8 encoded
twice, so valid UTF-8) and any byte outside the map are read as UTF-8.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from inspector.core.scan import pagecut
from inspector.core.units import kinds as K
from inspector.core.units.encodings.codecnames import MAP, title
from inspector.core.units.decoder import Resync, Unit
from inspector.core.units.dialects import Interpretation
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unitarrays import PageCut


class RegionSource:
    """Bytes [start, end) of a source, read as a source of their own (offset 0 is
    ``start``)."""

    def __init__(self, source, start: int, end: int):
        self.source, self.start, self.size = source, start, max(0, end - start)

    def read(self, offset: int, length: int) -> bytes:
        length = max(0, min(length, self.size - offset))
        return self.source.read(self.start + offset, length) if length else b""

    def read_uncached(self, offset: int, length: int) -> bytes:
        length = max(0, min(length, self.size - offset))
        return self.source.read_uncached(self.start + offset, length) if length else b""


def reading_of(encoding: str) -> Interpretation:
    """The interpretation a region labelled ``encoding`` is read in."""
    try:
        return interpretation(encoding)
    except ValueError:
        return interpretation(K.UTF8)   # binary, mojibake, a label no codec has


def _shift(unit: Unit, by: int) -> Unit:
    return unit._replace(offset=unit.offset + by)


@dataclass(frozen=True)
class MapReading(Interpretation):
    """The encoding map's reading; ``regions``: ((start, end, interpretation), ...) in
    order, without overlaps."""

    regions: tuple = ()

    @classmethod
    def of(cls, regions, size: int) -> "MapReading":
        """From the map's regions (objects with start, end, encoding, or tuples), filled
        out with UTF-8 to cover [0, size)."""
        parts = []
        pos = 0
        for r in regions:
            start, end, enc = (r if isinstance(r, tuple) else (r.start, r.end, r.encoding))
            if start > pos:
                parts.append((pos, start, reading_of(K.UTF8)))
            if end > start:
                parts.append((start, end, reading_of(enc)))
                pos = end
        if pos < size:
            parts.append((pos, size, reading_of(K.UTF8)))
        readings = {p[2] for p in parts}
        kinds = tuple(dict.fromkeys(k for r in readings for k in r.problem_kinds))
        lengths = tuple(sorted({n for r in readings for n in r.unit_lengths})) or (1,)
        return cls(MAP, title(MAP), "encoding map", kinds, lengths,
                   max((r.lookback for r in readings), default=0), regions=tuple(parts))

    @property
    def note(self) -> str:
        names = ", ".join(r.short_title for r in self.encodings)
        return f"each region of the encoding map in its own encoding: {names}"

    @property
    def encodings(self) -> list[Interpretation]:
        return list(dict.fromkeys(r for _, _, r in self.regions))

    def region_at(self, offset: int):
        """(start, end, interpretation) of the region holding ``offset``."""
        if not self.regions:
            return (0, max(offset + 1, 0), reading_of(K.UTF8))
        i = bisect.bisect_right([r[0] for r in self.regions], offset) - 1
        return self.regions[max(i, 0)]

    def reading_at(self, offset: int) -> Interpretation:
        return self.region_at(offset)[2]

    # ------------------------------------------------------------ cutting
    def cuts_in_range(self, source, start: int, end: int, origin: int | None = None,
                      sync=None) -> list[PageCut]:
        # ``sync``: the scan's sync points hold for one encoding read from the file's
        # start, not for a region read as a stream of its own (its cut begins afresh).
        out: list[PageCut] = []
        start, end = max(0, start), min(end, source.size)
        for rs, re, reading in self.regions:
            if re <= start or rs >= end:
                continue
            sub = RegionSource(source, rs, min(re, source.size))
            o = origin - rs if origin is not None and rs < origin < re else None
            a, b = max(start, rs) - rs, min(end, re) - rs
            if reading.is_utf8:
                cuts = pagecut.cuts_in_range(sub, a, b, o, reading.name)
            else:
                cuts = reading.cuts_in_range(sub, a, b, o)
            out += [c.shifted(rs) for c in cuts]
        return out

    def units_in_range(self, source, start, end, origin=None):
        out: list[Unit] = []
        for c in self.cuts_in_range(source, start, end, origin):
            out += c.units()
        return out

    def cut(self, data, base: int = 0, final: bool = True, stop: int | None = None) -> list[Unit]:
        from inspector.core.source.bytesource import MemorySource

        units = []
        for u in self.units_in_range(_Offset(MemorySource(bytes(data)), base), base,
                                     base + len(data)):
            if stop is None or u.offset < base + stop:
                units.append(u)
        return units

    def resync(self, source, origin):
        rs, re, reading = self.region_at(origin)
        sub = RegionSource(source, rs, min(re, source.size))
        inner = reading.resync(sub, origin - rs)
        lost = [_shift(u, rs) for u in inner.lost]
        if not inner.in_step:
            # The next region is read afresh: in step again at its start.
            return Resync(origin, lost, rs + sub.size, in_step=rs + sub.size < source.size)
        return Resync(origin, lost, inner.sync_offset + rs)

    # ------------------------------------------------------------ words and bytes
    def explain(self, unit, data, origin=None):
        reading = self.reading_at(unit.offset)
        words = reading.explain(unit, data, origin=origin)
        return f"{words} (region read as {reading.short_title})"

    def encode(self, value: int) -> bytes:
        raise ValueError("the encoding map reads each region in its own encoding: "
                         "encode in one of them")


class _Offset:
    """A source whose bytes begin at file offset ``base`` (for :meth:`MapReading.cut`)."""

    def __init__(self, source, base: int):
        self.source, self.base = source, base
        self.size = base + source.size

    def read(self, offset: int, length: int) -> bytes:
        return self.source.read(offset - self.base, length) if offset >= self.base else b""

    read_uncached = read
