"""The hex painter's per-unit work on a page, as arrays (no Qt here).

A page of random bytes is about a thousand units; working out each one's colour group,
each byte's colour and each box's piece on each row one unit at a time in Python was a
large part of a new page's cost. :class:`PageUnits` does it in a few numpy operations
from the page cut's arrays (:class:`~inspector.core.scan.pagecut.PageCut`: any reader of
bytes gives its units in that form, of any length); the painter turns the group numbers
into its colours, pens and marks once per group.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit

# Kind codes from the kinds table: 0 valid, then the error kinds.
KIND_CODE = {name: K.KINDS[name].code for name in K.ALL_KINDS}
_LAST_KIND_CODE = max(KIND_CODE.values())
KIND_OF_CODE = {code: name for name, code in KIND_CODE.items()}


class PageUnits:
    """The units of ``cut`` (a :class:`~inspector.core.scan.pagecut.PageCut`: the units
    overlapping a page that begins at ``start``, a row start, and holds ``size`` bytes
    in rows of ``n``).

    ``offset``, ``length``, ``kind`` (0 valid, then the error kinds in the spec's order),
    ``value`` (-1 for none) and ``warned`` are the units' fields as arrays. ``slot``
    numbers each unit's colour group (equal groups, equal look), ``groups``
    holds one unit index per group (a representative to ask the palette about),
    ``byte_unit`` / ``byte_first`` say which unit each byte of the page belongs to and
    whether it is that unit's first byte.
    """

    __slots__ = ("cut", "offset", "length", "kind", "value", "warned", "valid", "slot", "groups",
                 "byte_unit", "byte_first", "start", "size", "n")

    def __init__(self, cut, start: int, size: int, n: int, origin: int | None):
        self.cut = cut
        self.start, self.size, self.n = start, size, n
        offset = self.offset = cut.offset
        length = self.length = cut.length
        kind = self.kind = cut.kind.astype(np.int64)
        self.value = cut.value
        warned = self.warned = cut.warnings.astype(bool)
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

    def __len__(self) -> int:
        return len(self.offset)

    def unit(self, i: int) -> Unit:
        """Unit ``i`` as the decoder's tuple (for the few that stand for their group)."""
        c = self.cut
        value = int(c.value[i])
        return Unit(int(c.offset[i]), int(c.length[i]), KIND_OF_CODE[int(c.kind[i])],
                    None if value < 0 else value, int(c.replacements[i]), bool(c.at_end[i]),
                    c.warnings[i])

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
