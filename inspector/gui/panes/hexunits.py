"""The hex painter's per-unit work on a page, as arrays (no Qt here).

A page of random bytes is about a thousand units; working out each one's colour group,
each byte's colour and each box's piece on each row one unit at a time in Python was a
large part of a new page's cost. :class:`PageUnits` does it in a few numpy operations
from the unit tuples; the painter turns the group numbers into its colours, pens and
marks once per group.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K

# Kind codes from the kinds table: 0 valid, then the error kinds.
KIND_CODE = {name: K.KINDS[name].code for name in K.ALL_KINDS}
_LAST_KIND_CODE = max(KIND_CODE.values())


class PageUnits:
    """The units overlapping a page that begins at ``start`` (a row start) and holds
    ``size`` bytes in rows of ``n``.

    ``offset``, ``length``, ``kind`` (0 valid, then the error kinds in the spec's order),
    ``value`` (-1 for none) and ``warned`` are the units' fields as arrays. ``slot``
    numbers each unit's colour group (equal groups, equal look), ``groups``
    holds one unit index per group (a representative to ask the palette about),
    ``byte_unit`` / ``byte_first`` say which unit each byte of the page belongs to and
    whether it is that unit's first byte.
    """

    __slots__ = ("units", "offset", "length", "kind", "value", "warned", "valid", "slot", "groups",
                 "byte_unit", "byte_first", "start", "size", "n")

    def __init__(self, units, start: int, size: int, n: int, origin: int | None):
        self.units = units
        self.start, self.size, self.n = start, size, n
        count = len(units)
        offsets, lengths, kinds, values, _, _, warnings = zip(*units)
        offset = self.offset = np.array(offsets, dtype=np.int64)
        length = self.length = np.array(lengths, dtype=np.int64)
        kind = self.kind = np.fromiter(map(KIND_CODE.__getitem__, kinds), dtype=np.int64,
                                       count=count)
        self.value = np.array([-1 if v is None else v for v in values], dtype=np.int64)
        warned = self.warned = np.fromiter(map(bool, warnings), dtype=bool, count=count)
        self.valid = kind == 0
        # The painter's colour key is (role, warned, dimmed): the role is the error
        # kind, or for a valid unit its length (1, 2, 3, 4, longer).
        role = np.where(kind > 0, kind, _LAST_KIND_CODE + np.minimum(length, 5))
        group = role * 4 + warned * 2
        if origin is not None:
            group += offset + length <= origin
        _, first, slot = np.unique(group, return_index=True, return_inverse=True)
        self.slot = slot.reshape(-1)
        self.groups = first
        # Units partition their range, so a byte belongs to the last unit starting at
        # or before it.
        pos = np.arange(start, start + size, dtype=np.int64)
        self.byte_unit = np.searchsorted(offset, pos, side="right") - 1
        self.byte_first = offset[self.byte_unit] == pos

    def byte_color_index(self) -> np.ndarray:
        """Per byte: 2 * its unit's slot, plus 1 for a later byte of a valid unit (drawn
        in the quieter shade)."""
        j = self.byte_unit
        return self.slot[j] * 2 + (~self.byte_first & self.valid[j])

    def pieces(self, boxed_slots: np.ndarray, rows: int):
        """The boxes of the units whose slot is boxed, cut into one piece per row among
        rows [0, rows): arrays (unit index, row, first column, last column, open on the
        left, open on the right), in unit order then row order (the order the painter
        draws them in)."""
        n = self.n
        idx = np.flatnonzero(boxed_slots[self.slot])
        rel = self.offset[idx] - self.start
        r0 = rel // n
        r1 = (rel + self.length[idx] - 1) // n
        lo = np.maximum(r0, 0)
        hi = np.minimum(r1, rows - 1)
        count = np.maximum(hi - lo + 1, 0)
        unit = np.repeat(idx, count)
        first_piece = np.cumsum(count) - count
        row = np.repeat(lo, count) + (np.arange(int(count.sum())) - np.repeat(first_piece, count))
        r0p, r1p, relp = np.repeat(r0, count), np.repeat(r1, count), np.repeat(rel, count)
        row_start = row * n
        c0 = np.where(row == r0p, relp - row_start, 0)
        c1 = np.where(row == r1p, relp + self.length[unit] - 1 - row_start, n - 1)
        return unit, row, c0, c1, row > r0p, row < r1p

    def uncovered(self, covered: np.ndarray) -> np.ndarray:
        """The bytes of the page (indices) that are later bytes of their unit at or past
        ``covered[unit]``: the continuation cells no glyph covers."""
        j = self.byte_unit
        pos = np.arange(self.start, self.start + self.size, dtype=np.int64)
        return np.flatnonzero(~self.byte_first & (pos >= covered[j]))
