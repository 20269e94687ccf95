"""Windows of a stream read in another encoding than UTF-8 (a code page, UTF-16/32, a
multi-byte legacy encoding, the encoding map's reading), for the scanner and the
problem search: the interpretation's own page cut, turned into the rows the UTF-8
kernels produce (every unit a row, as in a dense window), so that counting, the block
index and the search are the same code for every encoding.
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from inspector.core.scan import tables as TB
from inspector.core.scan.kernels import rows as RK
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import segment
from inspector.core.units.unitarrays import concatenate

_bits_cache: dict[tuple, int] = {}


def warning_bits(warnings: np.ndarray) -> np.ndarray:
    """The warning tuples of units as the kernels' bit masks."""
    out = np.zeros(len(warnings), dtype=np.uint16)
    at = np.flatnonzero(np.fromiter(map(bool, warnings), dtype=bool, count=len(warnings)))
    for i in at.tolist():
        names = warnings[i]
        bits = _bits_cache.get(names)
        if bits is None:
            bits = _bits_cache[names] = sum(TB.WARNING_BIT[w] for w in names)
        out[i] = bits
    return out


def rows_of(page) -> RK.Rows:
    """A PageCut's units as kernel rows (a valid unit longer than 6 bytes, an ISO-2022
    character with its shift sequence, is counted with the 6-byte ones)."""
    length = page.length.copy()
    valid = page.kind == 0
    length[valid] = np.minimum(length[valid], 6)
    return RK.Rows(page.offset, length, page.kind.astype(np.uint8), page.replacements,
                   warning_bits(page.warnings), page.value, page.at_end,
                   np.zeros(len(page), dtype=np.uint8))


def codec_windows(source, lo: int, hi: int, reading, *, origin: int | None = None,
                  chunk_size: int = 1 << 20, hasher=None,
                  on_read: Callable[[int], None] | None = None,
                  sync=None) -> Iterator[RK.Window]:
    """Windows holding every unit that starts in [lo, hi) (``lo`` a unit start, as a
    stream start or the end of a window is), each window's rows every unit in it.

    A codec's reading is cut on from each window's end, as one stream, never begun
    afresh: a multi-byte codec's cut is the reading from the stream's start however
    far the last byte that must start a unit is. ``sync``
    (:class:`~inspector.core.units.encodings.syncpoints.SyncPoints`): noted there, in
    the stream that begins at offset 0, where units start every ``sync.grid`` bytes."""
    size = source.size
    hi = min(hi, size)
    pos = lo
    chunk_size = max(64, chunk_size)
    # Imported here: a scan in UTF-8 never needs the codecs' readings.
    from inspector.core.units.encodings.codecunits import CodecInterpretation

    by_codec = isinstance(reading, CodecInterpretation)
    head = reading.head(source) if by_codec else b""
    while pos < hi:
        stop_at = min(hi, pos + chunk_size)
        if by_codec:
            page = reading.cut_from(source, pos, stop_at, segment(pos, origin, size)[1],
                                    head=head)
        else:
            page = concatenate(reading.cuts_in_range(source, pos, stop_at, origin))
        if len(page):
            page = page.take((page.offset >= pos) & (page.offset < stop_at))
        end = int(page.offset[-1] + page.length[-1]) if len(page) else stop_at
        end = max(end, stop_at)
        if sync is not None and segment(pos, origin, size)[0] == 0:
            sync.record(page.offset, end)
        window = RK.Window(pos, end - pos, rows_of(page), "dense")
        if page.more is not None:
            from inspector.core.scan.lines import cut_widths

            window.widths = cut_widths(page)
        window.data = source.read_uncached(pos, end - pos)
        if hasher is not None:
            hasher.update(window.data)
        if on_read is not None:
            on_read(end - pos)
        yield window
        pos = end


def is_other_reading(dialect) -> bool:
    """Whether ``dialect`` (a name or an interpretation) is read by its own cut, not by
    the UTF-8 kernels."""
    return not (isinstance(dialect, str) and dialect in K.DIALECTS)
