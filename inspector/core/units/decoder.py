"""The unit decoder: bytes cut into units exactly as ``resources/docs/utf8-units.md`` says.

This is the reference implementation, used wherever a small region is cut (``unit_at``,
the ``units`` command); the scanner's vectorised path and the views' page cut
(``inspector.core.scan.pagecut``) are checked against it. It goes one unit at a time in Python, except that runs of ASCII and of well-formed
text are handed to C (``map`` over ``tuple.__new__``, and Python's strict UTF-8
decoder); a test compares those paths with the byte loop.

Self-synchronization makes every cut local: a non-continuation byte always starts a
unit, so the unit holding any offset is found by looking back at most 5 bytes (plus 3
for a CESU-8 surrogate pair), never by decoding from the start of the file
(:mod:`inspector.core.units.boundaries`).
"""

from __future__ import annotations

import re
from collections import namedtuple
from bisect import bisect_left
from functools import partial
from itertools import accumulate, repeat

from inspector.core.units import kinds as K
from inspector.core.units.boundaries import (STRUCT_LEN, Source, is_continuation,
                                             is_low_surrogate_at, safe_start, segment)
from inspector.core.units.spelling import MIN_VALUE
from inspector.core.units.unicode_db import is_noncharacter, is_unassigned

# Payload bits of a lead byte (the bits after its leading 1s and the 0).
_LEAD_PAYLOAD = (None, 0x7F, 0x1F, 0x0F, 0x07, 0x03, 0x01)


def _second_byte_range(lead: int) -> tuple[int, int] | None:
    """Allowed range of the byte after ``lead`` in well-formed UTF-8 (Unicode table 3-7).

    A conforming decoder's "maximal subpart" stops as soon as a byte leaves this range,
    so it decides how many U+FFFD a broken unit turns into.
    """
    if 0xC2 <= lead <= 0xDF:
        return (0x80, 0xBF)
    if lead == 0xE0:
        return (0xA0, 0xBF)
    if lead == 0xED:
        return (0x80, 0x9F)
    if 0xE1 <= lead <= 0xEF:
        return (0x80, 0xBF)
    if lead == 0xF0:
        return (0x90, 0xBF)
    if 0xF1 <= lead <= 0xF3:
        return (0x80, 0xBF)
    if lead == 0xF4:
        return (0x80, 0x8F)
    return None


SECOND_BYTE_RANGE = tuple(_second_byte_range(b) for b in range(256))


def replacements_for(data: bytes | memoryview, start: int, length: int) -> int:
    """U+FFFD count a conforming decoder emits for an *ill-formed* unit.

    If the lead can start a well-formed sequence and the next byte is in its allowed
    range, the whole unit is one maximal subpart (one U+FFFD). Otherwise the lead and each
    continuation byte after it are replaced one by one.
    """
    if length == 1:
        return 1
    allowed = SECOND_BYTE_RANGE[data[start]]
    if allowed is not None and allowed[0] <= data[start + 1] <= allowed[1]:
        return 1
    return length


# The fields, read by C descriptors (namedtuple's): as quick as a slot.
_UnitFields = namedtuple("_UnitFields",
                         ("offset", "length", "kind", "value", "replacements", "at_end", "warnings",
                          "more"))


class Unit(_UnitFields):
    """One unit: a valid character or one flagged problem.

    ``value`` is the decoded number of a complete unit (also for overlong, surrogate,
    out-of-range and complete 1993 forms) and None for truncated units, stray
    continuation bytes and FE/FF. ``at_end`` marks a truncated unit cut short by the end
    of the data; ``warnings`` names a valid unit's warnings. ``more``: the code points
    after ``value`` that a valid unit decodes to, when it decodes to several (four
    Big5-HKSCS pairs, some JIS X 0213 kana: a letter and a combining mark); () for
    every other unit. :attr:`text` is all of them.

    A unit is an immutable tuple of its eight fields: a page of a view is thousands of
    them, and a tuple is made in C (``cut`` makes a run of ASCII without one Python call
    per byte) and, holding only numbers, strings and tuples, is soon left alone by the
    garbage collector.
    """

    __slots__ = ()

    def __new__(cls, offset: int, length: int, kind: str, value: int | None,
                replacements: int = 0, at_end: bool = False, warnings: tuple = (),
                more: tuple = ()):
        return tuple.__new__(cls, (offset, length, kind, value, replacements, at_end, warnings,
                                   tuple(more)))

    @property
    def text(self) -> str:
        """What a replacing decoder makes of the unit: its character(s), or a U+FFFD per
        replacement (a valid value no string can hold, as FSS-UTF's, is one U+FFFD)."""
        if self[2] == K.VALID and self[3] is not None and self[3] <= 0x10FFFF:
            return chr(self[3]) + "".join(map(chr, self[7])) if self[7] else chr(self[3])
        return "\uFFFD" * max(self[4], 1 if self[2] == K.VALID else 0)

    @property
    def width(self) -> int:
        """Characters a replacing decoder makes of it: its code points when valid, else
        its replacements (what a column counts)."""
        return 1 + len(self[7]) if self[2] == K.VALID else self[4]

    @property
    def end(self) -> int:
        return self[0] + self[1]

    @property
    def is_error(self) -> bool:
        return self[2] != K.VALID

    @property
    def is_valid(self) -> bool:
        return self[2] == K.VALID

    @property
    def is_problem(self) -> bool:
        """An error, or a valid unit with a warning."""
        return self[2] != K.VALID or bool(self[6])

    def contains(self, offset: int) -> bool:
        return self[0] <= offset < self[0] + self[1]

    def __repr__(self):
        extra = f", warnings={self.warnings}" if self.warnings else ""
        value = "None" if self.value is None else f"0x{self.value:X}"
        end = ", at_end=True" if self.at_end else ""
        more = f", more=({', '.join(f'0x{v:X}' for v in self.more)},)" if self.more else ""
        return (f"Unit(offset={self.offset}, length={self.length}, kind={self.kind!r}, "
                f"value={value}{more}, replacements={self.replacements}{end}{extra})")

    def to_dict(self, data: bytes | None = None) -> dict:
        """The unit as the command line's JSON prints it. ``codepoint`` is the value of a
        complete unit (so an overlong "/" reads U+002F), null otherwise."""
        out = {
            "offset": self.offset,
            "length": self.length,
            "kind": self.kind,
            "codepoint": self.value,
            "replacements": self.replacements,
            "warnings": list(self.warnings),
        }
        if self.at_end:
            out["at_end"] = True
        if self.more:
            out["more"] = list(self.more)
        if data is not None:
            out["bytes"] = data.hex(" ")
        return out


# A unit from its eight fields in one tuple, made in C (for runs made by ``map``).
_new_unit = partial(tuple.__new__, Unit)


# ---------------------------------------------------------------------------- warnings

_BIDI = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_ZERO_WIDTH = frozenset([0x200B, 0x200C, 0x200D, 0x2060])


def _compute_warnings(cp: int) -> tuple[str, ...]:
    """Warnings that depend only on the code point (``bom`` vs ``zwnbsp`` and ``raw_nul``
    depend on place and dialect and are added by the cutter)."""
    out = []
    if cp == 0xFFFD:
        out.append(K.REPLACEMENT_CHAR)
    if (cp < 0x20 and cp not in (0x09, 0x0A, 0x0D)) or 0x7F <= cp <= 0x9F:
        out.append(K.CONTROL)
    if is_noncharacter(cp):
        out.append(K.NONCHARACTER)
    if 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD:
        out.append(K.PRIVATE_USE)
    if cp in _BIDI:
        out.append(K.BIDI_CONTROL)
    if cp in _ZERO_WIDTH:
        out.append(K.ZERO_WIDTH)
    if not (0xD800 <= cp <= 0xDFFF) and is_unassigned(cp):
        out.append(K.UNASSIGNED)
    return tuple(out)


_ASCII_WARNINGS = tuple(_compute_warnings(b) for b in range(128))
# Modified UTF-8 writes U+0000 as C0 80: a raw NUL byte is flagged there.
_ASCII_WARNINGS_MUTF8 = tuple(w + (K.RAW_NUL,) if b == 0 else w
                              for b, w in enumerate(_ASCII_WARNINGS))
_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")
_warning_cache: dict[int, tuple[str, ...]] = {}


def warnings_for(cp: int, offset: int, dialect: str = K.UTF8, raw_nul: bool = False) -> tuple[str, ...]:
    """All warnings of a valid unit holding ``cp`` at file ``offset``."""
    if cp == 0xFEFF:
        return (K.BOM,) if offset == 0 else (K.ZWNBSP,)
    if cp < 0x80:
        w = _ASCII_WARNINGS[cp]
        if cp == 0 and raw_nul and dialect == K.MUTF8:
            w = w + (K.RAW_NUL,)
        return w
    w = _warning_cache.get(cp)
    if w is None:
        w = _warning_cache[cp] = _compute_warnings(cp)
    return w


# ------------------------------------------------------------------------------ cutting

def _cut_well_formed(data, i: int, end: int, stop: int, base: int, ascii_warnings,
                     out: list) -> int:
    """Append the units of the well-formed UTF-8 that begins at ``data[i]`` and ends
    by ``end`` (only those starting before ``stop``); return where it ends (``i`` when
    the sequence at ``i`` itself is not well formed).

    Well-formed UTF-8 (shortest forms, no surrogates, at most U+10FFFF) is a valid unit
    per character in every dialect, so Python's strict decoder finds the run, and the
    units are made from its characters in C: lengths from the lead bytes, offsets by
    accumulation, warnings from the per-code-point cache."""
    chunk = bytes(data[i:end])
    try:
        text = str(chunk, "utf-8")
    except UnicodeDecodeError as e:
        if e.start == 0:
            return i
        chunk = chunk[:e.start]
        text = str(chunk, "utf-8")
    lengths = chunk.translate(STRUCT_LEN).replace(b"\x00", b"")  # one per character
    starts = list(accumulate(lengths, initial=base + i))
    count = len(text)
    if starts[count] > base + stop:
        count = bisect_left(starts, base + stop, 0, count)
        text = text[:count]
    cps = list(map(ord, text))
    cache = _warning_cache
    warnings = [ascii_warnings[cp] if cp < 0x80 else cache.get(cp) for cp in cps]
    if None in warnings:
        for k, w in enumerate(warnings):
            if w is None:
                warnings[k] = warnings_for(cps[k], starts[k])
    out += map(_new_unit, zip(starts, lengths[:count], repeat(K.VALID), cps, repeat(0),
                              repeat(False), warnings, repeat(())))
    return starts[count] - base


_BELOW_E0 = bytes(range(0xE0))
_BELOW_F0 = bytes(range(0xF0))


def units_by_length(data: bytes, chars: int) -> dict[int, int]:
    """The units of ``data``, well-formed UTF-8 of ``chars`` characters, by length: lead
    bytes E0..EF start 3-byte units, F0..F4 4-byte ones, and the bytes left over make the
    2-byte ones (counted with bytes.translate, at C speed)."""
    high = data.translate(None, _BELOW_E0)
    u4 = len(high.translate(None, _BELOW_F0))
    u3 = len(high) - u4
    u2 = len(data) - chars - 2 * u3 - 3 * u4
    return {1: chars - u2 - u3 - u4, 2: u2, 3: u3, 4: u4}


def cut(data: bytes | bytearray | memoryview, base: int = 0, dialect: str = K.UTF8,
        final: bool = True, stop: int | None = None, c_runs: bool = True) -> list[Unit]:
    """Cut ``data`` into units, taking ``data[0]`` as the start of a unit.

    ``base`` is the file offset of ``data[0]``. ``final`` says the data ends where the
    stream ends (a unit cut short there is ``truncated`` with ``at_end``); when it is
    False the caller must pass enough bytes past ``stop`` for every unit that starts
    before ``stop`` to be complete (6 bytes are always enough). Units starting at or
    after ``stop`` (an index into ``data``) are not produced. ``c_runs=False`` cuts
    byte by byte, without handing well-formed runs to the C decoder: the reference the
    fast path is tested against.
    """
    n = len(data)
    stop = n if stop is None else min(stop, n)
    out: list[Unit] = []
    append = out.append
    slen = STRUCT_LEN
    pairs = dialect in K.PAIR_DIALECTS
    fss = dialect == K.FSS_UTF
    ascii_warnings = _ASCII_WARNINGS_MUTF8 if dialect == K.MUTF8 else _ASCII_WARNINGS
    ascii_run = _ASCII_RUN.match
    VALID = K.VALID
    window = 64  # bytes handed to the C decoder at a time (see _cut_well_formed)
    next_try = 0
    i = 0
    while i < stop:
        b = data[i]
        if b < 0x80:
            if i + 4 < stop and data[i + 4] < 0x80 and data[i + 1] < 0x80:
                # Likely a long run of ASCII (NUL pages, prose): one list comprehension
                # instead of a trip round this loop per byte.
                j = ascii_run(data, i, stop).end()
                chunk = data[i:j]
                out += map(_new_unit, zip(range(base + i, base + j), repeat(1), repeat(VALID),
                                          chunk, repeat(0), repeat(False),
                                          map(ascii_warnings.__getitem__, chunk), repeat(())))
                i = j
            else:
                append(Unit(base + i, 1, VALID, b, 0, False, ascii_warnings[b]))
                i += 1
            continue
        if b < 0xC0:
            append(Unit(base + i, 1, K.UNEXPECTED_CONTINUATION, None, 1))
            i += 1
            continue
        if b >= 0xFE:
            append(Unit(base + i, 1, K.INVALID_BYTE, None, 1))
            i += 1
            continue
        if (c_runs and 0xC2 <= b <= 0xF4 and i >= next_try and i + 1 < n
                and 0x80 <= data[i + 1] <= 0xBF):
            # Perhaps a run of well-formed text (Cyrillic, CJK, accented prose): the C
            # decoder checks it, and its units are made without a trip round this loop
            # per unit. The window grows while the text stays well formed; where the
            # runs are short (random bytes) this loop is cheaper, so it waits a while.
            j = _cut_well_formed(data, i, min(n, i + window, stop + 3), stop, base,
                                 ascii_warnings, out)
            if j - i < 16:
                next_try = i + 64
            if j > i:
                window = min(window * 4, 1 << 16) if j - i >= window - 3 else 64
                i = j
                continue
        L = slen[b]
        j = i + 1
        limit = i + L if i + L < n else n
        while j < limit and 0x80 <= data[j] <= 0xBF:
            j += 1
        length = j - i
        if length < L:
            append(Unit(base + i, length, K.TRUNCATED, None,
                        replacements_for(data, i, length), j == n and final))
            i = j
            continue
        value = b & _LEAD_PAYLOAD[L]
        for k in range(i + 1, j):
            value = (value << 6) | (data[k] & 0x3F)
        if L >= 5 and not fss:
            kind = K.LEGACY_LONG_FORM
        elif value < MIN_VALUE[L]:
            kind = K.OVERLONG
            if dialect == K.MUTF8 and L == 2 and value == 0:
                kind = K.VALID
        elif 0xD800 <= value <= 0xDFFF:
            kind = K.SURROGATE
            if fss:
                kind = K.VALID
            elif pairs:
                if value <= 0xDBFF and is_low_surrogate_at(data, j, n):
                    # A high surrogate directly followed by a low one.
                    if dialect == K.WTF8:
                        # WTF-8 allows only lone surrogates: a pair must be written as
                        # one 4-byte sequence, so both halves stay errors.
                        append(Unit(base + i, 3, K.SURROGATE, value, 3))
                        low = 0xD000 | ((data[j + 1] & 0x3F) << 6) | (data[j + 2] & 0x3F)
                        if j < stop:
                            append(Unit(base + j, 3, K.SURROGATE, low, 3))
                        i = j + 3
                        continue
                    low = ((data[j + 1] & 0x0F) << 6) | (data[j + 2] & 0x3F)
                    cp = 0x10000 + ((value - 0xD800) << 10) + low
                    append(Unit(base + i, 6, K.VALID, cp, 0, False, warnings_for(cp, base + i)))
                    i = j + 3
                    continue
                if dialect == K.WTF8:
                    # A lone low surrogate whose high half sits right before it was
                    # consumed above, so reaching here means it is lone.
                    kind = K.VALID
        elif value > 0x10FFFF and not fss:
            kind = K.OUT_OF_RANGE
        else:
            kind = K.VALID
        if kind == K.VALID:
            append(Unit(base + i, length, K.VALID, value, 0, False,
                        warnings_for(value, base + i) if value > 0x7F or value == 0 else ()))
        else:
            append(Unit(base + i, length, kind, value, replacements_for(data, i, length)))
        i = j
    return out


# ------------------------------------------------------------------ regions of a source

def _cut_from(source: Source, start: int, stop: int, dialect: str, seg_end: int) -> list[Unit]:
    """Cut the units that start in [start, stop), ``start`` being a unit boundary."""
    end_read = min(stop + 9, seg_end)
    data = source.read(start, end_read - start)
    final = start + len(data) >= seg_end or len(data) < end_read - start
    return cut(data, start, dialect, final=final, stop=stop - start)


def units_in_range(source: Source, start: int, end: int, origin: int | None = None,
                   dialect: str = K.UTF8) -> list[Unit]:
    """Every unit that overlaps the byte range [start, end), in order.

    Only the range and a few bytes on each side are read.
    """
    size = source.size
    start = max(0, start)
    end = min(end, size)
    if start >= end:
        return []
    out: list[Unit] = []
    pos = start
    while pos < end:
        seg_start, seg_end = segment(pos, origin, size)
        stop = min(end, seg_end)
        boundary = safe_start(source, pos, origin, dialect)
        units = _cut_from(source, boundary, stop, dialect, seg_end)
        # The cut began at most a unit or two before ``start``: skip those.
        k = 0
        while k < len(units) and units[k].offset + units[k].length <= start:
            k += 1
        out += units[k:] if k else units
        pos = seg_end
    return out


def unit_at(source: Source, offset: int, origin: int | None = None,
            dialect: str = K.UTF8) -> Unit | None:
    """The unit that holds ``offset`` (None past the end of the data)."""
    if offset < 0 or offset >= source.size:
        return None
    for u in units_in_range(source, offset, offset + 1, origin, dialect):
        if u.contains(offset):
            return u
    return None  # pragma: no cover - the cut is a partition


def next_unit_start(source: Source, offset: int, origin: int | None = None,
                    dialect: str = K.UTF8) -> int:
    """Offset of the unit after the one holding ``offset`` (the size at the end)."""
    u = unit_at(source, offset, origin, dialect)
    return source.size if u is None else u.end


def previous_unit_start(source: Source, offset: int, origin: int | None = None,
                        dialect: str = K.UTF8) -> int:
    """Offset of the unit before the one holding ``offset`` (0 at the start)."""
    if offset <= 0:
        return 0
    here = unit_at(source, min(offset, source.size - 1), origin, dialect)
    start = here.offset if here is not None and offset < source.size else offset
    if start <= 0:
        return 0
    before = unit_at(source, start - 1, origin, dialect)
    return before.offset if before is not None else 0


class Resync:
    """What decoding from an origin loses: the stray units right after it, and the first
    offset from which the cut is the same as the cut from 0. ``in_step`` is False when
    the reading never falls back in step (UTF-16 from an odd offset; ``sync_offset`` is
    then the end of the data and ``lost`` lists the first misread units only)."""

    __slots__ = ("origin", "lost", "sync_offset", "in_step")

    def __init__(self, origin: int, lost: list[Unit], sync_offset: int, in_step: bool = True):
        self.origin = origin
        self.lost = lost
        self.sync_offset = sync_offset
        self.in_step = in_step

    @property
    def lost_bytes(self) -> int:
        return self.sync_offset - self.origin

    def __repr__(self):
        return f"Resync(origin={self.origin}, lost_bytes={self.lost_bytes}, sync_offset={self.sync_offset})"


def resync(source: Source, origin: int, dialect: str = K.UTF8) -> Resync:
    """Decode as if the stream began at ``origin``: the continuation bytes right after it
    are lost (each a stray ``unexpected_continuation`` unit) until the first
    non-continuation byte, where the cut is back in step with the cut from 0."""
    size = source.size
    origin = max(0, min(origin, size))
    lost: list[Unit] = []
    pos = origin
    chunk = b""
    while pos < size:
        chunk = source.read(pos, 64)
        if not chunk:
            break
        k = 0
        while k < len(chunk) and is_continuation(chunk[k]):
            lost.append(Unit(pos + k, 1, K.UNEXPECTED_CONTINUATION, None, 1))
            k += 1
        pos += k
        if k < len(chunk):
            break
    return Resync(origin, lost, pos)


def decode_units(units, data: bytes, base: int = 0) -> str:
    """The text a reader sees: each valid unit's character, each problem as many U+FFFD as
    its ``replacements``. (Surrogate values that a dialect accepts are kept as lone
    surrogates, which only a ``surrogatepass`` encoder can write out.)"""
    return "".join([u.text for u in units])
