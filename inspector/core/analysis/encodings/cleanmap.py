"""The encoding map of clean UTF-8 text, made without cutting it into cells.

Most files of a folder are clean UTF-8: no errors, none of the ASCII controls that make a
cell binary. Such text has no binary or damaged cell, and a cell is double-encoded only
when the byte pairs of double encoding start a quarter of its multibyte characters
(:mod:`inspector.core.analysis.encodings.stretches`). Two literal-prefixed patterns tell
whether there are any such pairs; only then are they counted cell by cell, with numpy
(imported then: a clean file's report needs no numpy). The map is then one UTF-8
region, what the cells would give (``tests/.../test_clean_shortcut.py`` compares them).
"""

from __future__ import annotations

import functools
import re

from inspector.core.analysis.encodings.regions import UTF8, EncodingMap, Region
from inspector.core.units.boundaries import char_start_at_or_after

CLEAN_LIMIT = 2 << 20  # ranges up to this are read whole (the map builder's FULL_LIMIT)

# The pairs (stretches.Window: C3 82..B4 or D0 A0/A1, then a lead that the double
# encodings of Latin and Cyrillic text put next). Two patterns, not one alternation: each
# starts with a literal byte, which the regular expression engine finds at memchr speed
# (an alternation is tried at every byte, 6x slower).
_DOUBLE_ENCODED_PAIRS = (re.compile(rb"\xc3[\x82-\xb4][\xc2\xc3\xc5\xc6\xcb\xe2]"),
                         re.compile(rb"\xd0[\xa0\xa1][\xc2\xd0-\xd2\xe2]"))
_LATIN_NEXT_BYTES = (0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2)
_CYRILLIC_NEXT_BYTES = (0xC2, 0xD0, 0xD1, 0xD2, 0xE2)


@functools.cache
def _next_lead_tables():
    """(Latin, Cyrillic): 256 booleans each, True at the leads ``_*_NEXT_BYTES``."""
    import numpy as np

    tables = []
    for leads in (_LATIN_NEXT_BYTES, _CYRILLIC_NEXT_BYTES):
        table = np.zeros(256, dtype=bool)
        table[list(leads)] = True
        tables.append(table)
    return tuple(tables)


def clean_utf8_map(source, result) -> EncodingMap | None:
    """The map of a finished scan's range when it is clean UTF-8 of at most CLEAN_LIMIT
    bytes and no cell of it is double-encoded: one UTF-8 region. None otherwise (the map
    builder then cuts it into cells)."""
    start, end = result.start, result.end
    if not (result.complete and result.error_units == 0 and result.binary_bytes == 0
            and 0 < end - start <= CLEAN_LIMIT):
        return None  # binary_bytes counts the error bytes and the binary controls
    data = source.read(start, end - start)
    if len(data) != end - start or _may_hold_double_encoding(data):
        return None
    plain = data.isascii()
    if plain and (b"\x1b" in data or b"~{" in data):
        from inspector.core.analysis.encodings.legacyguess import escape_encoding

        if escape_encoding(data[:1 << 16]) is not None:
            return None  # ISO-2022-JP/KR or HZ: the map names it
    region = Region(start, end, UTF8, ascii=plain, by="ascii" if plain else "",
                    bom=data.startswith(b"\xef\xbb\xbf"))
    return EncodingMap(start, end, [region], len(data), 0, 0)


def _may_hold_double_encoding(data: bytes) -> bool:
    """False when no cell of ``data`` has double-encoding pairs for MOJI_SHARE of its
    multibyte characters. ``data`` is clean UTF-8 (no errors, no controls), so its cells
    are its lines, longer lines cut every CELL_MAX bytes as stretches.Window cuts them.
    Cyrillic text has such pairs (С or Р before a small letter), but few per line, so
    only the lead bytes C3 and D0 and the cells holding a pair are looked at."""
    n = len(data)
    if n <= 3 or not any(p.search(data) for p in _DOUBLE_ENCODED_PAIRS):
        return False
    import numpy as np

    from inspector.core.analysis.encodings.stretches import CELL_MAX, MOJI_SHARE

    latin_next, cyrillic_next = _next_lead_tables()
    a = np.frombuffer(data, dtype=np.uint8)
    body = a[:-2]  # a pair needs the lead of the character after it
    leads = np.flatnonzero((body == 0xC3) | (body == 0xD0))
    first, second, third = a[leads], a[leads + 1], a[leads + 2]
    is_pair = (((first == 0xC3) & (second >= 0x82) & (second <= 0xB4) & latin_next[third])
               | ((first == 0xD0) & ((second == 0xA0) | (second == 0xA1))
                  & cyrillic_next[third]))
    pairs = leads[is_pair]
    if not len(pairs):
        return False
    # Few numpy calls from here on: on a few KiB each costs more in calling than in work.
    cells = np.flatnonzero(a[:-1] == 0x0A)
    cells += 1
    cells = np.concatenate(([0], cells))
    ends = np.concatenate((cells[1:], [n]))
    long_lines = np.flatnonzero(ends - cells > CELL_MAX)
    if len(long_lines):
        cuts = []
        for lo, hi in zip(cells[long_lines].tolist(), ends[long_lines].tolist()):
            for cut in range(lo + CELL_MAX, hi, CELL_MAX):
                cuts.append(char_start_at_or_after(data, cut, n - 1, 3))  # not inside a character
        cells = np.concatenate((cells, cuts)).astype(np.int64)
        cells.sort()
        ends = np.concatenate((cells[1:], [n]))
    # The cells holding pairs (pairs are in order, so are their cells), how many pairs
    # each holds, and how many multibyte characters (lead bytes).
    cell_of_pair = np.searchsorted(cells, pairs, side="right") - 1
    first_pair = np.flatnonzero(cell_of_pair[1:] != cell_of_pair[:-1])
    first_pair += 1
    first_pair = np.concatenate(([0], first_pair))
    held = cell_of_pair[first_pair]
    n_pairs = np.concatenate((first_pair[1:], [len(pairs)])) - first_pair
    bounds = np.empty(2 * len(held), dtype=np.int64)
    bounds[0::2] = cells[held]
    bounds[1::2] = ends[held]
    if bounds[-1] == n:
        bounds = bounds[:-1]  # the last cell's sum runs to the end
    n_multibyte = np.add.reduceat((a >= 0xC0).view(np.uint8), bounds, dtype=np.int64)[::2]
    return bool((n_pairs >= MOJI_SHARE * n_multibyte).any())
