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

import re

from inspector.core.analysis.encodings.regions import UTF8, EncodingMap, Region

CLEAN_LIMIT = 2 << 20  # ranges up to this are read whole (the map builder's FULL_LIMIT)

# The pairs (stretches.Window: C3 82..B4 or D0 A0/A1, then a lead that the double
# encodings of Latin and Cyrillic text put next). Two patterns, not one alternation: each
# starts with a literal byte, which the regular expression engine finds at memchr speed
# (an alternation is tried at every byte, 6x slower).
_DOUBLE_ENCODED_PAIRS = (re.compile(rb"\xc3[\x82-\xb4][\xc2\xc3\xc5\xc6\xcb\xe2]"),
                         re.compile(rb"\xd0[\xa0\xa1][\xc2\xd0-\xd2\xe2]"))
_LATIN_NEXT = (0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2)
_CYRILLIC_NEXT = (0xC2, 0xD0, 0xD1, 0xD2, 0xE2)


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
    region = Region(start, end, UTF8, ascii=plain, by="ascii" if plain else "",
                    bom=data.startswith(b"\xef\xbb\xbf"))
    return EncodingMap(start, end, [region], len(data), 0, 0)


def _may_hold_double_encoding(data: bytes) -> bool:
    """False when no cell of ``data`` has double-encoding pairs for MOJI_SHARE of its
    multibyte characters. ``data`` is clean UTF-8 (no errors, no controls), so its cells
    are its lines, longer lines cut every CELL_MAX bytes as stretches.Window cuts them.
    Cyrillic text has such pairs (С or Р before a small letter), but few per line."""
    n = len(data)
    if n <= 3 or not any(p.search(data) for p in _DOUBLE_ENCODED_PAIRS):
        return False
    import numpy as np

    from inspector.core.analysis.encodings.stretches import CELL_MAX, MOJI_SHARE

    latin_next = np.zeros(256, dtype=bool)  # (a few µs: not worth keeping)
    latin_next[list(_LATIN_NEXT)] = True
    cyrillic_next = np.zeros(256, dtype=bool)
    cyrillic_next[list(_CYRILLIC_NEXT)] = True
    a = np.frombuffer(data, dtype=np.uint8)
    first, second, third = a[:-2], a[1:-1], a[2:]
    pairs = np.zeros(n, dtype=np.int32)
    pairs[:-2] = (((first == 0xC3) & (second >= 0x82) & (second <= 0xB4) & latin_next[third])
                  | ((first == 0xD0) & ((second == 0xA0) | (second == 0xA1))
                     & cyrillic_next[third]))
    cells = np.concatenate(([0], np.flatnonzero(a[:-1] == 0x0A) + 1))
    lengths = np.diff(np.append(cells, n))
    long_lines = np.flatnonzero(lengths > CELL_MAX)
    if len(long_lines):
        cuts = []
        for lo, hi in zip(cells[long_lines].tolist(), (cells + lengths)[long_lines].tolist()):
            for cut in range(lo + CELL_MAX, hi, CELL_MAX):
                for _ in range(3):  # not inside a character
                    if cut < n - 1 and data[cut] & 0xC0 == 0x80:
                        cut += 1
                cuts.append(cut)
        cells = np.unique(np.concatenate((cells, cuts)).astype(np.int64))
    n_pairs = np.add.reduceat(pairs, cells)
    n_multibyte = np.add.reduceat((a >= 0xC0).astype(np.int32), cells)
    return bool(np.any((n_pairs > 0) & (n_pairs >= MOJI_SHARE * n_multibyte)))
