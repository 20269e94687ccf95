"""The hex painter's per-unit arrays say, for every unit and byte of a page, what the
unit-by-unit reading says: each byte's unit and shade, and each box's pieces per row
(as the layout's segments cut them)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import numpy as np

from inspector.core.scan import pagecut
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes.hexlayout import HexLayout
from inspector.gui.panes.hexunits import PageUnits

PIECES = [b"a", b"\x00", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\x80", b"\xff",
          b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xc0\xaf", b"\xe2\x82", b"\n", b"\xc0\x80",
          b"\xef\xbb\xbf", b"\xf8\x88\x80\x80\x80"]


def look_key(u, origin):
    return (style.role_for(u), bool(u.warnings), origin is not None and u.end <= origin)


@settings(max_examples=150, deadline=None)
@given(data=st.lists(st.sampled_from(PIECES), min_size=1, max_size=80).map(b"".join),
       row=st.integers(0, 6), n=st.sampled_from([4, 8, 16]),
       dialect=st.sampled_from(K.DIALECTS), origin=st.none() | st.integers(1, 200),
       boxed_roles=st.sets(st.sampled_from([style.ASCII, style.MULTI2, style.MULTI3,
                                            *K.ERROR_KINDS])))
def test_arrays_match_the_units(data, row, n, dialect, origin, boxed_roles):
    source = MemorySource(data)
    start = min(row * n, (len(data) - 1) // n * n)
    size = min(len(data) - start, 3 * n)
    units = decoder.units_in_range(source, start, start + size, origin, dialect)
    cut = pagecut.join(pagecut.cuts_in_range(source, start, start + size, origin, dialect))
    page = PageUnits(cut, start, size, n, origin)
    assert [page.unit(i) for i in range(len(page))] == units
    # Units in one group look alike; units in different groups do not.
    keys = [look_key(u, origin) for u in units]
    for i, u in enumerate(units):
        assert keys[page.groups[page.slot[i]]] == keys[i]
    assert len(set(keys)) == len(page.groups)
    # Each byte: its unit, and whether it is that unit's first byte.
    for b in range(size):
        u = units[page.byte_unit[b]]
        assert u.offset <= start + b < u.end
        assert page.byte_first[b] == (u.offset == start + b)
        shade = page.byte_color_index()[b]
        assert shade == 2 * page.slot[page.byte_unit[b]] + (
            u.offset != start + b and u.kind == K.VALID)
    # Continuation cells no glyph covers: with glyphs one cell wide, every later byte.
    later = [b for b in range(size) if units[page.byte_unit[b]].offset != start + b]
    assert page.uncovered(page.offset + 1).tolist() == later
    assert page.uncovered(page.offset + page.length).tolist() == []
    # The fields as arrays.
    for i, u in enumerate(units):
        assert (page.offset[i], page.length[i], page.value[i], page.warned[i]) == (
            u.offset, u.length, -1 if u.value is None else u.value, bool(u.warnings))
    # Box pieces: the layout's segments of every boxed unit, in order.
    boxed = np.array([keys[g][0] in boxed_roles for g in page.groups], dtype=bool)
    rows = -(-size // n)
    got = list(zip(*(a.tolist() for a in page.pieces(boxed, rows))))
    lay = HexLayout(len(data), bytes_per_row=n)
    top = start // n
    want = []
    for i, u in enumerate(units):
        if keys[i][0] in boxed_roles:
            for seg in lay.segments(u.offset, u.end, top, top + rows - 1):
                want.append((i, seg.row - top, seg.first, seg.last, seg.open_left,
                             seg.open_right))
    assert got == want
