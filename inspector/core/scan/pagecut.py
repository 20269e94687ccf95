"""The page cut: a few KiB cut into units in one numpy pass, for the views.

:func:`cut` gives exactly what :func:`inspector.core.units.decoder.cut` gives, and
:func:`units_in_range` exactly what the decoder's ``units_in_range`` gives (every field of
every unit, in every dialect and from any origin; a test compares them on hypothesis
data). The pure-Python decoder stays the reference; this is what a page of the views is
cut with, because it costs a few vector operations per page instead of a trip round a
Python loop per unit (random bytes are nearly all short units, where the decoder's C
fast paths do not help).

:func:`cuts_in_range` gives the arrays themselves (:class:`PageCut`), for a caller that
can work on whole rows at once. The views still receive the unit tuples (the document
caches and stitches those), which cost more to make than the cut itself (see
``tests/benchmarks/bench_pagecut.py``); the hex painter turns them back into arrays.

Warnings come from the decoder's own ``warnings_for``, asked once per code point met:
those of the Basic Multilingual Plane are kept in a table filled as they are met (a
fancy index per page), the rest asked per distinct code point of the page. The cut needs
no 1.1-million entry table and costs nothing at start-up.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import safe_start, segment
from inspector.core.units.decoder import Unit
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unitarrays import NO_WARNINGS, PageCut, concatenate
from inspector.core.units.unitarrays import empty
from inspector.core.scan.kernels.codes import (C_STRAY, C_SURROGATE, C_TRUNCATED, C_VALID,
                                               FIRST_KIND, LEAD_LENGTH, PAYLOAD,
                                               SECOND_HI, SECOND_LO, complete_unit_kinds)

PAYLOAD_MASK = PAYLOAD[LEAD_LENGTH]  # per byte: the payload bits of the unit it leads


def _ascii_warnings(dialect: str) -> np.ndarray:
    return np.fromiter((decoder.warnings_for(b, 1, dialect, raw_nul=True) for b in range(128)),
                       dtype=object, count=128)


ASCII_WARNINGS = {d: _ascii_warnings(d) for d in K.DIALECTS}


FIELDS = ("offset", "length", "kind", "value", "replacements", "at_end", "warnings")


def join(cuts: list[PageCut]) -> PageCut:
    """One cut of several consecutive ones (a range that spans the origin is two)."""
    return concatenate(cuts)


def cut(data: bytes | bytearray | memoryview, base: int = 0, dialect: str = K.UTF8,
        final: bool = True, stop: int | None = None) -> PageCut:
    """Cut ``data`` into units as :func:`decoder.cut` does (``data[0]`` starts a unit,
    ``base`` is its file offset, ``final`` says the stream ends with the data, only units
    starting before index ``stop`` are kept), as arrays."""
    n = len(data)
    stop = n if stop is None else min(stop, n)
    if stop <= 0:
        return empty()
    m = np.frombuffer(data, dtype=np.uint8, count=n)
    # Every non-continuation byte starts a unit; so does the first byte.
    starts_mask = m.view(np.int8) >= -64
    starts_mask[0] = True
    st = np.flatnonzero(starts_mask)
    gap = np.empty(len(st), dtype=np.int64)
    gap[:-1] = st[1:] - st[:-1]
    gap[-1] = n - st[-1]
    b0 = m[st]
    full = LEAD_LENGTH[b0].astype(np.int64)
    length = np.minimum(full, gap)
    strays = gap - length  # continuation bytes no lead took: 1-byte units of their own
    truncated = length < full
    kind = FIRST_KIND[b0] + truncated.view(np.uint8) * np.uint8(C_TRUNCATED)
    value = np.where(kind == C_VALID, b0.astype(np.int64), -1)

    multi = np.flatnonzero((full > 1) & ~truncated)
    if len(multi):
        pos = st[multi]
        lm = full[multi]
        v = b0[multi].astype(np.int64) & PAYLOAD_MASK[b0[multi]]
        for j in range(1, 6):
            more = np.flatnonzero(lm > j)
            if not len(more):
                break
            v[more] = (v[more] << 6) | (m[pos[more] + j] & 0x3F)
        kind[multi] = complete_unit_kinds(v, lm, dialect)
        value[multi] = v

    keep = None
    if dialect in K.PAIR_DIALECTS:
        keep = _pair_surrogates(dialect, st, kind, value, length, strays)

    replacements = (kind != C_VALID).astype(np.int64)
    broken = np.flatnonzero((kind != C_VALID) & (length >= 2))
    if len(broken):
        second = m[st[broken] + 1]
        lead = b0[broken]
        one = (second >= SECOND_LO[lead]) & (second <= SECOND_HI[lead])
        replacements[broken] = np.where(one, 1, length[broken])
    at_end = (kind == C_TRUNCATED) & (st + length == n) if final else np.zeros(len(st), bool)

    if keep is not None:
        st, b0, length, kind, value, replacements, at_end, strays = (
            st[keep], b0[keep], length[keep], kind[keep], value[keep], replacements[keep],
            at_end[keep], strays[keep])

    warnings = _warnings(b0, st, length, kind, value, base, dialect)

    if strays.any():
        st, length, kind, value, replacements, at_end, warnings = _with_strays(
            st, length, kind, value, replacements, at_end, warnings, strays)
    if st[-1] >= stop:
        k = int(np.searchsorted(st, stop))
        st, length, kind, value, replacements, at_end, warnings = (
            st[:k], length[:k], kind[:k], value[:k], replacements[:k], at_end[:k], warnings[:k])
    return PageCut(st + base, length, kind, value, replacements, at_end, warnings)


def surrogate_pairs(kind, value, length, offset):
    """(the complete surrogate units, the first halves of pairs, the second halves) as
    masks over units, or None when there is no surrogate. A pair: a complete high
    surrogate directly followed by a complete low one."""
    sur = (kind == C_SURROGATE) & (length == 3)
    if not sur.any():
        return None
    high = sur & (value <= 0xDBFF)
    low = sur & (value >= 0xDC00)
    first = np.zeros(len(kind), dtype=bool)
    first[:-1] = high[:-1] & low[1:] & (offset[1:] == offset[:-1] + 3)
    second = np.zeros(len(kind), dtype=bool)
    second[1:] = first[:-1]
    return sur, first, second


def pair_value(high, low):
    """The code point of surrogate pairs from their halves' values."""
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)


def _pair_surrogates(dialect, st, kind, value, length, strays):
    """Surrogate pairs (a complete high surrogate directly followed by a complete low
    one): under WTF-8 both halves stay errors and lone ones are valid; under CESU-8 and
    Modified UTF-8 the pair is one valid 6-byte unit. Changes the arrays in place;
    returns which units remain (None: all)."""
    pairs = surrogate_pairs(kind, value, length, st)
    if pairs is None:
        return None
    sur, first, second = pairs
    if dialect == K.WTF8:
        kind[sur & ~first & ~second] = C_VALID
        return None
    at = np.flatnonzero(first)
    if not len(at):
        return None
    value[at] = pair_value(value[at], value[at + 1])
    kind[at] = C_VALID
    length[at] = 6
    strays[at] += strays[at + 1]  # the continuation bytes after the low half follow the pair
    return ~second


# The warnings of the code points of the Basic Multilingual Plane met so far (at any
# offset but 0), looked up by fancy indexing: a page of text has a hundred distinct
# characters, and a call per character was half the cost of its cut.
_BMP_WARNINGS = np.empty(0x10000, dtype=object)
_BMP_KNOWN = np.zeros(0x10000, dtype=bool)


def _bmp_warnings(cps: np.ndarray) -> np.ndarray:
    """The warnings of each code point of ``cps`` (all below U+10000)."""
    new = cps[~_BMP_KNOWN[cps]]
    if len(new):
        for cp in set(new.tolist()):   # (np.unique alone would import numpy.ma: 40 ms)
            _BMP_WARNINGS[cp] = decoder.warnings_for(cp, 1)
        _BMP_KNOWN[new] = True
    return _BMP_WARNINGS[cps]


def _warnings(b0, st, length, kind, value, base: int, dialect: str) -> np.ndarray:
    """The warning tuple of every unit (empty for errors)."""
    out = np.empty(len(st), dtype=object)
    out.fill(NO_WARNINGS)
    valid = kind == C_VALID
    ascii_units = np.flatnonzero(valid & (length == 1))
    if len(ascii_units):
        out[ascii_units] = ASCII_WARNINGS[dialect][b0[ascii_units]]
    wide = np.flatnonzero(valid & (length > 1))
    if len(wide):
        cps = value[wide]
        bmp = cps < 0x10000
        if bmp.all():
            out[wide] = _bmp_warnings(cps)
        else:
            out[wide[bmp]] = _bmp_warnings(cps[bmp])
            distinct, where = np.unique(cps[~bmp], return_inverse=True)
            # Offset 1: any offset but 0, where U+FEFF is a BOM (set apart below).
            found = np.fromiter((decoder.warnings_for(cp, 1) for cp in distinct.tolist()),
                                dtype=object, count=len(distinct))
            out[wide[~bmp]] = found[where.reshape(-1)]
        if base == 0 and st[0] == 0 and value[0] == 0xFEFF and valid[0]:
            out[0] = decoder.warnings_for(0xFEFF, 0)
    return out


def _with_strays(st, length, kind, value, replacements, at_end, warnings, strays):
    """Insert the stray continuation bytes after the units they follow."""
    count = len(st) + int(strays.sum())
    before = np.cumsum(strays) - strays   # strays before each unit
    unit_at = np.arange(len(st)) + before
    is_stray = np.ones(count, dtype=bool)
    is_stray[unit_at] = False
    stray_at = np.flatnonzero(is_stray)
    # A stray's offset: the end of the unit it follows plus its place in the run.
    owner = np.repeat(np.arange(len(st)), strays)
    place = np.arange(len(stray_at)) - np.repeat(before, strays)

    def spread(unit_values, stray_value, dtype):
        out = np.empty(count, dtype=dtype)
        out[unit_at] = unit_values
        out[stray_at] = stray_value
        return out

    offset = spread(st, st[owner] + length[owner] + place, np.int64)
    strays_warnings = np.empty(len(stray_at), dtype=object)
    strays_warnings.fill(NO_WARNINGS)
    return (offset, spread(length, 1, np.int64), spread(kind, C_STRAY, np.uint8),
            spread(value, -1, np.int64), spread(replacements, 1, np.int64),
            spread(at_end, False, bool), spread(warnings, strays_warnings, object))


# ------------------------------------------------------------------ regions of a source

# Below this many bytes the decoder's own cut is quicker (numpy's fixed cost per call is
# about 0.07 ms; the decoder cuts 300 bytes of text in 0.05 ms).
SMALL_RANGE = 512


def units_in_range(source, start: int, end: int, origin: int | None = None,
                   dialect: str = K.UTF8, small: int = SMALL_RANGE, sync=None) -> list[Unit]:
    """Every unit that overlaps [start, end), as :func:`decoder.units_in_range` gives
    them (ranges under ``small`` bytes are cut by the decoder itself). ``dialect`` may
    name any interpretation, or be one: another encoding cuts its own units (from the
    scan's ``sync`` points, in a multi-byte one)."""
    if dialect not in K.DIALECTS:
        reading = interpretation(dialect)
        if not reading.is_utf8:
            return [u for c in reading.cuts_in_range(source, start, end, origin, sync=sync)
                    for u in c.units()]
        dialect = reading.name
    if end - start < small:
        return decoder.units_in_range(source, start, end, origin, dialect)
    cuts = cuts_in_range(source, start, end, origin, dialect)
    if len(cuts) == 1:
        return cuts[0].units()
    out: list[Unit] = []
    for c in cuts:
        out += c.units()
    return out


def cuts_in_range(source, start: int, end: int, origin: int | None = None,
                  dialect: str = K.UTF8, sync=None) -> list[PageCut]:
    """The units overlapping [start, end) as arrays: one :class:`PageCut` per stream the
    range touches (two when it spans the origin). ``dialect`` may name any
    interpretation, or be one; ``sync``: the scan's sync points (a multi-byte legacy
    encoding's cut begins at them)."""
    if dialect not in K.DIALECTS:
        reading = interpretation(dialect)
        if not reading.is_utf8:
            return reading.cuts_in_range(source, start, end, origin, sync=sync)
        dialect = reading.name
    size = source.size
    start = max(0, start)
    end = min(end, size)
    if start >= end:
        return []
    out = []
    pos = start
    while pos < end:
        seg_start, seg_end = segment(pos, origin, size)
        stop = min(end, seg_end)
        boundary = safe_start(source, pos, origin, dialect)
        read_end = min(stop + 9, seg_end)
        data = source.read(boundary, read_end - boundary)
        final = boundary + len(data) >= seg_end or len(data) < read_end - boundary
        page = cut(data, boundary, dialect, final=final, stop=stop - boundary)
        # The cut began at most a unit or two before ``start``: drop those.
        if len(page) and page.offset[0] + page.length[0] <= start:
            k = int(np.searchsorted(page.offset + page.length, start, side="right"))
            page = PageCut(*(a[k:] for a in (page.offset, page.length, page.kind, page.value,
                                             page.replacements, page.at_end, page.warnings)))
        out.append(page)
        pos = seg_end
    return out
