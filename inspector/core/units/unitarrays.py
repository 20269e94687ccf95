"""Units as parallel numpy arrays: :class:`PageCut`, what every vectorised cut returns
(the views' UTF-8 page cut in :mod:`inspector.core.scan.pagecut`, the other encodings'
cuts in :mod:`inspector.core.units.encodings.codecunits`).

A kind is stored as its code in the kinds table (``kinds.ALL_KINDS``: 0 valid, then the
errors), a missing value as -1.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit

KIND_OBJECTS = np.array(K.ALL_KINDS, dtype=object)
CODE_OF = {name: K.KINDS[name].code for name in K.ALL_KINDS}
NO_WARNINGS = ()


class PageCut:
    """Units as parallel arrays, in offset order: ``offset`` (file offsets), ``length``,
    ``kind`` (codes into ``kinds.ALL_KINDS``), ``value`` (-1 where a unit has none),
    ``replacements``, ``at_end`` and ``warnings`` (an object array of the warning
    tuples); ``more``: None, or, in a cut where some unit decodes to several code points,
    an object array of the tuples of code points after ``value`` (``Unit.more``)."""

    __slots__ = ("offset", "length", "kind", "value", "replacements", "at_end", "warnings",
                 "more", "_units")

    def __init__(self, offset, length, kind, value, replacements, at_end, warnings, more=None):
        self.offset = offset
        self.length = length
        self.kind = kind
        self.value = value
        self.replacements = replacements
        self.at_end = at_end
        self.warnings = warnings
        self.more = more
        self._units = None

    def __len__(self) -> int:
        return len(self.offset)

    def arrays(self) -> tuple:
        return (self.offset, self.length, self.kind, self.value, self.replacements,
                self.at_end, self.warnings)

    def take(self, which) -> "PageCut":
        """The units at ``which`` (a slice, a mask or indices)."""
        more = None if self.more is None else self.more[which]
        return PageCut(*(a[which] for a in self.arrays()), more=more)

    def shifted(self, by: int) -> "PageCut":
        """The same units ``by`` bytes further on in the file."""
        return PageCut(self.offset + by, *self.arrays()[1:], more=self.more) if by else self

    def texts(self) -> list[str] | None:
        """Per unit, its whole text when it decodes to several code points, else "" (None:
        no unit of the cut does)."""
        if self.more is None:
            return None
        return [chr(v) + "".join(map(chr, m)) if m else ""
                for v, m in zip(self.value.tolist(), self.more.tolist())]

    def units(self) -> list[Unit]:
        """The units as the decoder's :class:`Unit` tuples (made once, in C)."""
        if self._units is None:
            value = self.value.astype(object)
            value[self.value < 0] = None
            more = repeat(()) if self.more is None else self.more.tolist()
            self._units = list(map(
                tuple.__new__, [Unit] * len(self.offset),
                zip(self.offset.tolist(), self.length.tolist(),
                    KIND_OBJECTS[self.kind].tolist(), value.tolist(),
                    self.replacements.tolist(), self.at_end.tolist(),
                    self.warnings.tolist(), more)))
        return self._units


def empty() -> PageCut:
    z = np.zeros(0, dtype=np.int64)
    return PageCut(z, z, np.zeros(0, np.uint8), z, z, np.zeros(0, bool),
                   np.empty(0, dtype=object))


def concatenate(cuts: list[PageCut]) -> PageCut:
    cuts = [c for c in cuts if len(c)]
    if not cuts:
        return empty()
    if len(cuts) == 1:
        return cuts[0]
    more = None
    if any(c.more is not None for c in cuts):
        more = np.concatenate([c.more if c.more is not None else no_more(len(c)) for c in cuts])
    return PageCut(*(np.concatenate(parts) for parts in zip(*(c.arrays() for c in cuts))),
                   more=more)


def no_more(n: int) -> np.ndarray:
    """``more`` for ``n`` units of one code point each."""
    out = np.empty(n, dtype=object)
    out.fill(())
    return out
