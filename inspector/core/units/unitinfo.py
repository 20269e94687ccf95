"""Everything a person inspecting one unit wants to know, and the reverse (a code point to
its UTF-8 bytes). Qt-free: the command line prints it, the window shows and copies it.

- :func:`describe` gathers the facts of one unit: its bytes in hex, octal and binary with
  the marker bits told apart from the payload bits, the code point those payload bits
  spell, the character's name, category and UTF-16 form, its warnings in words, for a
  problem unit a plain explanation, and what each dialect makes of the same bytes.
- :func:`explain` is the one-line version, for lists, tooltips and the ``units`` table;
  :func:`short_explanation` a shorter line still, for the problem list.
- :func:`byte_roles` and :func:`value_groups` say which bits of each byte are marker and
  which payload, and which bytes' payloads join into a value: what the window's bit
  layout paints.
- :func:`encode` lays a code point's UTF-8 out the way the worked examples of the UTF-8
  standard show it (``xxxx yyyyyy zzzzzz`` -> ``1110xxxx 10yyyyyy 10zzzzzz``), with the
  overlong, CESU-8 and Modified UTF-8 spellings of the same character (the bytes
  themselves are :mod:`inspector.core.units.spelling`'s).
- :func:`parse_codepoint` reads a code point typed by a person.
- :func:`format_text` renders a description as readable text.

The words here are those that depend on a unit's bytes or value; everything else said
about a kind (its title, summary, explanation) is the kinds table's
(:data:`inspector.core.units.kinds.TABLE`), and a kind with no words of its own here is
explained with the table's.

The ``data`` argument of :func:`describe` and :func:`explain` is either the bytes that
start at ``unit.offset`` (at least ``unit.length`` of them; a few more let the
explanation name the byte that cut a truncated unit short and let CESU-8 see a pair), or
a byte source (:class:`~inspector.core.source.bytesource.ByteSource`), from which those
bytes are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from inspector.core.source.bytesource import ByteSource
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import STRUCT_LEN, is_continuation, is_low_surrogate_at
from inspector.core.units.decoder import Unit, cut, resync
from inspector.core.units import spelling
from inspector.core.units.spelling import MAX_LEGACY_VALUE, MIN_VALUE
from inspector.core.units.unicode_db import (MAX_CODE_POINT, category, format_cp, name,
                                             utf16_units)

# Bytes read past a unit for context: the byte that stopped a truncated unit, and a low
# surrogate that CESU-8 would pair with a high one.
_CONTEXT = 6


# ------------------------------------------------------------------------ data classes

@dataclass(frozen=True)
class ByteInfo:
    """One byte of a unit and the part it plays in it."""

    offset: int
    value: int
    hex: str          # "E2"
    octal: str        # "342"
    binary: str       # "11100010"
    role: str         # ascii, lead, continuation, stray_continuation, invalid
    marker: str       # the fixed bits that say what the byte is ("1110"); "" when none
    payload: str      # the bits that carry the value ("0010"); "" when it has no payload role
    note: str         # the role in words

    @property
    def split(self) -> str:
        """``1110|0010``; the plain binary string when the byte has no payload role."""
        return f"{self.marker}|{self.payload}" if self.payload or self.marker else self.binary


@dataclass(frozen=True)
class DialectReading:
    """What one dialect makes of the unit's bytes: the units it cuts them into."""

    dialect: str
    title: str
    units: tuple[Unit, ...]

    @property
    def summary(self) -> str:
        parts = []
        for u in self.units:
            value = "" if u.value is None else " " + _cp_text(u.value)
            parts.append(f"{u.kind}{value}" + (f" ({u.length} bytes)" if len(self.units) > 1
                                                 or u.length != self.units[0].length else ""))
        return ", ".join(parts)


@dataclass(frozen=True)
class UnitInfo:
    """Everything about one unit (see :func:`describe`)."""

    offset: int
    length: int
    kind: str
    kind_title: str
    dialect: str
    is_error: bool
    bytes: bytes
    byte_info: tuple[ByteInfo, ...]
    payload_bits: str            # the payload bits joined, groups separated by spaces
    value: int | None            # the unit's value (also for overlong/surrogate/out of range)
    codepoint: str | None        # "U+002F"
    name: str | None
    category: str | None
    utf16: tuple[int, ...]
    decimal: int | None
    replacements: int
    at_end: bool
    warnings: tuple[tuple[str, str], ...]     # (warning name, words)
    explanation: str                          # one line
    details: tuple[str, ...]                  # longer sentences for a problem unit
    lost: bool = False                        # lost to resynchronization after an origin
    surrogate_pair: tuple[int, int] | None = None   # a CESU-8 pair's two halves
    shortest: bytes | None = None             # an overlong unit's proper spelling
    missing: int = 0                          # bytes a truncated unit lacks
    dialects: tuple[DialectReading, ...] = field(default_factory=tuple)

    @property
    def hex(self) -> str:
        return self.bytes.hex(" ").upper()

    @property
    def joined_bits(self) -> str:
        """The payload bits as one binary string (``0010000010101100`` for E2 82 AC)."""
        return self.payload_bits.replace(" ", "")

    def to_dict(self) -> dict:
        return {
            "offset": self.offset,
            "length": self.length,
            "kind": self.kind,
            "dialect": self.dialect,
            "bytes": self.bytes.hex(" "),
            "byte_info": [
                {"offset": b.offset, "hex": b.hex, "octal": b.octal, "binary": b.binary,
                 "role": b.role, "marker": b.marker, "payload": b.payload, "note": b.note}
                for b in self.byte_info],
            "payload_bits": self.payload_bits,
            "codepoint": self.value,
            "codepoint_text": self.codepoint,
            "name": self.name,
            "category": self.category,
            "utf16": list(self.utf16),
            "replacements": self.replacements,
            "at_end": self.at_end,
            "warnings": [w for w, _ in self.warnings],
            "explanation": self.explanation,
            "details": list(self.details),
            "lost": self.lost,
            "dialects": {d.dialect: [u.to_dict() for u in d.units] for d in self.dialects},
        }


@dataclass(frozen=True)
class Encoding:
    """A code point's UTF-8 bytes, laid out as the UTF-8 standard's worked examples show."""

    codepoint: int
    name: str
    utf8: bytes                  # the shortest form (the 1993 form above U+10FFFF)
    bit_groups: tuple[str, ...]  # the code point's bits as they are distributed ("0010", "000010", "101100")
    template: str                # "1110xxxx 10yyyyyy 10zzzzzz"
    byte_bits: tuple[str, ...]   # ("11100010", "10000010", "10101100")
    kind: str                    # what the decoder makes of ``utf8`` in the utf-8 dialect
    overlongs: tuple[bytes, ...] # every longer spelling, 2 to 6 bytes (5 and 6 are also 1993 forms)
    cesu8: bytes                 # a supplementary character as two 3-byte surrogates
    mutf8: bytes                 # as CESU-8, and NUL as C0 80
    utf16: tuple[int, ...]

    @property
    def hex(self) -> str:
        return self.utf8.hex(" ").upper()

    @property
    def layout(self) -> str:
        """``U+20AC = 0010 000010 101100 -> 11100010 10000010 10101100 = E2 82 AC``."""
        return (f"{_cp_text(self.codepoint)} = {' '.join(self.bit_groups)} -> "
                f"{' '.join(self.byte_bits)} = {self.hex}")


# ---------------------------------------------------------------------------- helpers

def _cp_text(value: int) -> str:
    return format_cp(value) if value <= 0xFFFFFF else f"U+{value:X}"


def _char_label(value: int) -> str:
    """``"/" U+002F`` for a printable character, ``U+0000 NULL`` otherwise."""
    if 0 <= value <= MAX_CODE_POINT and not (0xD800 <= value <= 0xDFFF):
        # Not C, Z or M: printable (as str.isprintable says, but in the current database)
        # and not a mark that would sit on the quote.
        if category(value)[0] not in "CZM":
            return f"\"{chr(value)}\" {_cp_text(value)}"
    return f"{_cp_text(value)} {name(value)}" if value <= MAX_CODE_POINT else _cp_text(value)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _byte_text(b: int) -> str:
    return f"{b:02X}"


def _unit_bytes(unit: Unit, data) -> tuple[bytes, bool]:
    """The unit's bytes plus up to :data:`_CONTEXT` following ones, and whether the data
    is known to end right after what was returned."""
    if isinstance(data, ByteSource):
        window = bytes(data.read(unit.offset, unit.length + _CONTEXT))
        known_end = unit.offset + len(window) >= data.size
    else:
        window = bytes(data[:unit.length + _CONTEXT])
        known_end = False
    if len(window) < unit.length:
        # e.g. a file that shrank since the unit was cut
        raise ValueError(f"the unit at offset {unit.offset} has {unit.length} bytes, but only "
                         f"{len(window)} could be read")
    return window, known_end


def _is_lost(unit: Unit, data, origin: int | None) -> bool:
    """A stray continuation byte in the run right after a chosen origin."""
    if origin is None or unit.kind != K.UNEXPECTED_CONTINUATION or unit.offset < origin:
        return False
    if isinstance(data, ByteSource):
        return unit.offset < resync(data, origin).sync_offset
    return False


def byte_roles(unit: Unit, raw: bytes) -> tuple[ByteInfo, ...]:
    """Each byte's role in ``unit`` and its marker and payload bits (``raw`` starts at the
    unit's first byte). This decides which bits are payload; the window's bit layout only
    paints the answer, so it and :func:`describe` cannot tell two stories."""
    out = []
    i = 0
    n = min(unit.length, len(raw))  # a file that shrank since the cut: the bytes still there
    while i < n:
        b = raw[i]
        if b < 0x80:
            out.append(_byte(unit.offset + i, b, "ascii", 1, "a 1-byte character (ASCII)"))
            i += 1
            continue
        if b >= 0xFE:
            out.append(_byte(unit.offset + i, b, "invalid", 0,
                             "never used by any UTF-8: no payload role"))
            i += 1
            continue
        if b < 0xC0:
            out.append(_byte(unit.offset + i, b, "stray_continuation", 0,
                             "a continuation byte (10xxxxxx) outside any sequence: no payload role"))
            i += 1
            continue
        length = STRUCT_LEN[b]
        out.append(_byte(unit.offset + i, b, "lead", length, f"lead of a {length}-byte sequence"))
        j = i + 1
        k = 2
        while j < n and is_continuation(raw[j]) and j < i + length:
            out.append(_byte(unit.offset + j, raw[j], "continuation", 0,
                             f"continuation byte {k} of {length}"))
            j += 1
            k += 1
        i = j
    return tuple(out)


def _is_surrogate_pair(unit: Unit, raw: bytes) -> bool:
    """A surrogate pair in two 3-byte sequences (CESU-8, Modified UTF-8); a 1993 6-byte
    form is valid in FSS-UTF too, and is not one (it starts with FC or FD)."""
    v = unit.value
    return (unit.kind == K.VALID and unit.length == 6 and len(raw) >= 6 and raw[0] == 0xED
            and v is not None and 0x10000 <= v <= MAX_CODE_POINT)


def value_groups(unit: Unit, raw: bytes) -> tuple[tuple[int, int], ...]:
    """The byte ranges of ``unit`` (from its first byte) whose payload bits, joined, spell
    one value: the whole unit, or each 3-byte half of a surrogate pair; none for a unit
    without a value (cut short, a stray or never-used byte)."""
    if unit.value is None:
        return ()
    if _is_surrogate_pair(unit, raw):
        return ((0, 3), (3, 6))
    return ((0, unit.length),)


def _byte(offset: int, b: int, role: str, length: int, note: str) -> ByteInfo:
    binary = f"{b:08b}"
    if role == "ascii":
        marker, payload = "0", binary[1:]
    elif role == "lead":
        marker, payload = binary[:length + 1], binary[length + 1:]
    elif role == "continuation":
        marker, payload = "10", binary[2:]
    else:
        marker, payload = "", ""
    return ByteInfo(offset, b, f"{b:02X}", f"{b:03o}", binary, role, marker, payload, note)


def _truncation_cause(unit: Unit, raw: bytes, known_end: bool, origin: int | None) -> str:
    if unit.at_end and origin is not None and unit.end == origin:
        return "the chosen origin cuts it off (the bytes before it are decoded on their own)"
    if unit.at_end or (known_end and len(raw) <= unit.length):
        return "the data ends there"
    if len(raw) > unit.length:
        nxt = raw[unit.length]
        if nxt < 0x80:
            what = f"the ASCII byte {_byte_text(nxt)}"
        elif nxt >= 0xFE:
            what = f"the invalid byte {_byte_text(nxt)}"
        else:
            what = f"the lead byte {_byte_text(nxt)}"
        return f"cut short by {what}, which is not a continuation byte"
    return "cut short by a byte that is not a continuation byte"


# ------------------------------------------------------------------------- explanations
# The words about a unit that depend on its bytes or value: one function per kind, for
# the inspector's explanation and for the problem list's line. A kind without one is
# explained by the kinds table's words (``kinds.TABLE``), which say everything else.

def _legacy_guess(b: int) -> str:
    """What a lone byte 80-BF usually is: a character of a legacy 8-bit encoding."""
    if b >= 0xA0:
        return (f"A lone {_byte_text(b)} often is a Latin-1 or Windows-1252 character "
                f"(\"{bytes([b]).decode('latin-1')}\") in a file that is not UTF-8.")
    as_1252 = bytes([b]).decode("cp1252", "replace")
    if as_1252 != "\ufffd":
        return (f"A lone {_byte_text(b)} often is a Windows-1252 character (\"{as_1252}\") "
                "in a file that is not UTF-8.")
    return f"A lone {_byte_text(b)} is a C1 control in Latin-1, or a byte of binary data."


def warning_words(name: str) -> str:
    """What a warning means, in the words the inspector shows beside it."""
    info = K.KINDS.get(name)
    return info.summary if info is not None else name


@dataclass
class _Explaining:
    """What the explanation of one unit is made from, and what it gathers: the longer
    sentences (``details``) and the facts other fields are filled from (``extra``)."""

    unit: Unit
    raw: bytes            # the unit's bytes and up to _CONTEXT bytes after them
    known_end: bool       # the data is known to end after ``raw``
    lost: bool            # lost to resynchronization after a chosen origin
    dialect: str
    origin: int | None
    details: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def hexes(self) -> str:
        return self.raw[:self.unit.length].hex(" ").upper()


def _explain_valid(e: _Explaining) -> str:
    unit, raw, v = e.unit, e.raw, e.unit.value
    if _is_surrogate_pair(unit, raw):
        hi = 0xD000 | ((raw[1] & 0x3F) << 6) | (raw[2] & 0x3F)
        lo = 0xD000 | ((raw[4] & 0x3F) << 6) | (raw[5] & 0x3F)
        e.extra["surrogate_pair"] = (hi, lo)
        e.details.append(f"A surrogate pair {_cp_text(hi)} {_cp_text(lo)} written as two "
                         f"3-byte sequences, as {K.DIALECT_TITLES[e.dialect]} does; UTF-8 "
                         f"writes {_cp_text(v)} as {encode(v).hex}.")
    line = f"{_cp_text(v)} {name(v)}" if v is not None else "valid"
    if unit.warnings:
        line += " - " + "; ".join(K.title(w) for w in unit.warnings)
    for w in unit.warnings:
        words = warning_words(w)
        e.details.append(words[:1].upper() + words[1:] + ".")
    return line


def _explain_overlong(e: _Explaining) -> str:
    unit, v = e.unit, e.unit.value
    shortest = spelling.encode(v)
    e.extra["shortest"] = shortest
    need = len(shortest)
    line = (f"overlong {_char_label(v)}: {unit.length} bytes where "
            f"{_plural(need, 'byte')} suffice{'s' if need == 1 else ''} ({shortest.hex(' ').upper()})")
    e.details.append(f"{e.hexes} spells {_char_label(v)} with {unit.length} bytes; the "
                     f"shortest form is {shortest.hex(' ').upper()}. UTF-8 allows only the "
                     "shortest form, because longer ones let one character have many "
                     "spellings.")
    if v in (0x2F, 0x2E, 0x5C):
        e.details.append("Overlong forms are how validation filters were bypassed: a "
                         "filter looking for the bytes of \"/\" or \".\" missed C0 AF or "
                         "C0 AE, and a lenient decoder behind it turned them into "
                         "\"../\" (directory traversal, as in the IIS and Tomcat attacks).")
    else:
        e.details.append("Overlong forms are how validation filters were bypassed: a "
                         "check on the bytes misses the disguised character, and a "
                         "lenient decoder behind it lets it through (directory traversal "
                         "with overlong \"/\" and \".\").")
    if v == 0 and unit.length == 2:
        e.details.append("C0 80 is how Java's Modified UTF-8 writes NUL (valid in the "
                         "mutf-8 dialect), so that strings hold no 00 byte.")
    return line


def _explain_surrogate(e: _Explaining) -> str:
    unit, raw, v = e.unit, e.raw, e.unit.value
    half = "high" if v <= 0xDBFF else "low"
    line = f"encoded surrogate {_cp_text(v)} ({half} half): UTF-8 forbids surrogates; from CESU-8/WTF-8"
    e.details.append(f"{e.hexes} encodes {_cp_text(v)}, the {half} half of a UTF-16 "
                     "surrogate pair. Surrogates are not characters and UTF-8 must not "
                     "encode them.")
    e.details.append("Encoded surrogates come from CESU-8 and Java's Modified UTF-8, which "
                     "write each UTF-16 code unit of a supplementary character separately, "
                     "and from WTF-8, which keeps the lone surrogates of ill-formed UTF-16 "
                     "(Windows file names, JavaScript strings).")
    if half == "high" and is_low_surrogate_at(raw, unit.length, len(raw)):
        nxt = raw[unit.length:unit.length + 3]
        lo = 0xD000 | ((nxt[1] & 0x3F) << 6) | (nxt[2] & 0x3F)
        cp = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
        e.details.append(f"With the low surrogate {_cp_text(lo)} after it, this is "
                         f"CESU-8 for {_cp_text(cp)} {name(cp)}; UTF-8 writes it as "
                         f"{encode(cp).hex}.")
    return line


def _explain_out_of_range(e: _Explaining) -> str:
    v = e.unit.value
    line = f"value {_cp_text(v)} is above U+10FFFF, the last code point (RFC 3629 limit)"
    e.details.append(f"{e.hexes} decodes to {_cp_text(v)}, beyond U+10FFFF, where Unicode "
                     "ends; RFC 3629 (2003) limits UTF-8 to that range, the reach of "
                     "UTF-16.")
    if e.raw[0] >= 0xF5:
        e.details.append(f"A lead byte {_byte_text(e.raw[0])} (F5 to F7) can only start such "
                         "a value, so it never appears in valid UTF-8.")
    return line


def _explain_legacy_long_form(e: _Explaining) -> str:
    unit, v = e.unit, e.unit.value
    line = (f"{unit.length}-byte 1993 form (value {_cp_text(v)}), withdrawn by RFC 3629")
    e.details.append(f"{e.hexes} is a {unit.length}-byte sequence of the original 1993 UTF-8 "
                     "(FSS-UTF, RFC 2279), which reached 31 bits (up to U+7FFFFFFF). "
                     "RFC 3629 (2003) withdrew the 5- and 6-byte forms; only the "
                     "fss-utf dialect accepts them.")
    if v < MIN_VALUE[unit.length]:
        e.details.append(f"Its value {_cp_text(v)} would fit in fewer bytes, so it is "
                         "overlong even by 1993 rules.")
    elif v <= MAX_CODE_POINT:
        e.details.append(f"Its value is a Unicode code point ({_char_label(v)}), but it "
                         "would fit in 4 bytes or fewer.")
    return line


def _explain_truncated(e: _Explaining) -> str:
    unit, raw, origin = e.unit, e.raw, e.origin
    expected = STRUCT_LEN[raw[0]]
    missing = expected - unit.length
    e.extra["missing"] = missing
    cause = _truncation_cause(unit, raw, e.known_end, origin)
    line = (f"truncated: {_plural(unit.length, 'byte')} of a {expected}-byte sequence, "
            f"{missing} missing; {cause}")
    e.details.append(f"The lead byte {_byte_text(raw[0])} announces a {expected}-byte "
                     f"sequence, but only {_plural(unit.length, 'byte')} arrived "
                     f"({_plural(missing, 'byte')} missing): {cause}.")
    if unit.at_end and not (origin is not None and unit.end == origin):
        e.details.append("At the end of a file this often means the data was cut off "
                         "(an interrupted download or a buffer split in the middle of a "
                         "character).")
    else:
        e.details.append("In the middle of text this often means the bytes were not UTF-8 "
                         "at all: a Latin-1 or Windows-1252 \u00e9 (E9) followed by a "
                         "letter looks exactly like this.")
    return line


def _explain_unexpected_continuation(e: _Explaining) -> str:
    b = e.raw[0]
    if e.lost:
        e.details.append(f"{_byte_text(b)} is a continuation byte (10xxxxxx). Decoding "
                         "starts at the chosen origin, so the lead byte this byte belongs "
                         "to lies before it: the decoder skips continuation bytes until "
                         "the next lead byte, where it is back in step.")
        return f"continuation byte {_byte_text(b)} lost to resynchronization after the origin"
    e.details.append(f"{_byte_text(b)} is a continuation byte (10xxxxxx), which only "
                     "belongs after a lead byte, and none comes before it (or its "
                     "sequence was already complete).")
    e.details.append(_legacy_guess(b))
    return f"stray continuation byte {_byte_text(b)}: not preceded by a lead byte"


def _explain_invalid_byte(e: _Explaining) -> str:
    b = e.raw[0]
    e.details.append(f"{_byte_text(b)} has no meaning in any form of UTF-8, not even the "
                     "1993 one: it would start a 7- or 8-byte sequence.")
    e.details.append("FF FE or FE FF at the start of a file is a UTF-16 byte order mark: "
                     "the file is probably UTF-16, not UTF-8.")
    return f"byte {_byte_text(b)} is never used by any UTF-8"


def _explain_by_table(e: _Explaining) -> str:
    """A kind with no words of its own here: the kinds table's."""
    info = K.KINDS.get(e.unit.kind)
    if info is None:
        return e.unit.kind
    e.details.append(info.explanation[:1].upper() + info.explanation[1:] + ".")
    return f"{info.title}: {info.summary}"


_EXPLAINERS = {
    K.VALID: _explain_valid,
    K.OVERLONG: _explain_overlong,
    K.SURROGATE: _explain_surrogate,
    K.OUT_OF_RANGE: _explain_out_of_range,
    K.LEGACY_LONG_FORM: _explain_legacy_long_form,
    K.TRUNCATED: _explain_truncated,
    K.UNEXPECTED_CONTINUATION: _explain_unexpected_continuation,
    K.INVALID_BYTE: _explain_invalid_byte,
}


def _explain(unit: Unit, raw: bytes, known_end: bool, lost: bool,
             dialect: str, origin: int | None = None) -> tuple[str, list[str], dict]:
    """The one-line explanation, the longer sentences and extra facts of a unit."""
    e = _Explaining(unit, raw, known_end, lost, dialect, origin)
    line = _EXPLAINERS.get(unit.kind, _explain_by_table)(e)
    if unit.replacements:
        e.details.append(f"A conforming decoder turns these bytes into "
                         f"{_plural(unit.replacements, 'replacement character')} (U+FFFD).")
    return line, e.details, e.extra


def _short_overlong(u: Unit, data: bytes) -> str:
    return (f"overlong form: {u.length} bytes for U+{u.value:04X}, which needs "
            f"{spelling.shortest_length(u.value)}")


def _short_surrogate(u: Unit, data: bytes) -> str:
    half = "high" if u.value <= 0xDBFF else "low"
    return f"encoded {half} surrogate U+{u.value:04X} (only UTF-16 may hold it)"


def _short_out_of_range(u: Unit, data: bytes) -> str:
    return f"value 0x{u.value:X} is above U+10FFFF, the last code point"


def _short_legacy_long_form(u: Unit, data: bytes) -> str:
    return f"{u.length}-byte form of the 1993 UTF-8, withdrawn by RFC 3629"


def _short_truncated(u: Unit, data: bytes) -> str:
    need = STRUCT_LEN[data[0] if data else 0]
    where = " at the end of the file" if u.at_end else ""
    # u.length counts the lead: "only 1 arrived" is the lead alone.
    return f"truncated: the lead byte announces {need} bytes, only {u.length} arrived{where}"


def _short_unexpected_continuation(u: Unit, data: bytes) -> str:
    return "continuation byte with no lead byte before it"


def _short_invalid_byte(u: Unit, data: bytes) -> str:
    return f"byte {data[0]:02X} never appears in UTF-8" if data else "byte never used in UTF-8"


_SHORT_LINES = {
    K.OVERLONG: _short_overlong,
    K.SURROGATE: _short_surrogate,
    K.OUT_OF_RANGE: _short_out_of_range,
    K.LEGACY_LONG_FORM: _short_legacy_long_form,
    K.TRUNCATED: _short_truncated,
    K.UNEXPECTED_CONTINUATION: _short_unexpected_continuation,
    K.INVALID_BYTE: _short_invalid_byte,
}


def short_explanation(unit: Unit, data: bytes) -> str:
    """One line saying what is wrong (or worth a look) with a unit, in plain words (the
    problem list's). ``data``: the unit's bytes, perhaps with a few after them."""
    if unit.kind != K.VALID:
        line = _SHORT_LINES.get(unit.kind)
        if line is not None:
            return line(unit, data)
        info = K.KINDS.get(unit.kind)  # a kind with no words of its own here
        return f"{info.title}: {info.summary}" if info is not None else unit.kind
    if unit.warnings:
        cp = f"U+{unit.value:04X}" if unit.value is not None else ""
        return f"{cp}: " + "; ".join(K.title(w) for w in unit.warnings)
    return ""


# ---------------------------------------------------------------------------- describe

def _dialect_readings(unit: Unit, raw: bytes) -> tuple[DialectReading, ...]:
    """Cut the unit's bytes (and the context after them) in each dialect and keep the
    units that start inside the unit."""
    readings = []
    for d in K.DIALECTS:
        units = cut(raw, unit.offset, d, final=True, stop=unit.length)
        # A truncated unit that hit the end of the data keeps that flag everywhere.
        if unit.at_end:
            units = [Unit(u.offset, u.length, u.kind, u.value, u.replacements,
                          u.at_end or (u.kind == K.TRUNCATED and u.end == unit.end),
                          u.warnings) for u in units]
        readings.append(DialectReading(d, K.DIALECT_TITLES[d], tuple(units)))
    return tuple(readings)


def describe(unit: Unit, data, dialect: str = K.UTF8, *, origin: int | None = None,
             lost: bool | None = None) -> UnitInfo:
    """Everything about ``unit``.

    ``data`` is the bytes from ``unit.offset`` on, or a byte source (see the module's
    docstring). ``origin`` is the chosen origin: with a byte source, a stray continuation
    byte in the run right after it is explained as lost to resynchronization; with plain
    bytes pass ``lost=True`` to say so.
    """
    dialect = K.check_dialect(dialect)
    raw, known_end = _unit_bytes(unit, data)
    if lost is None:
        lost = _is_lost(unit, data, origin)
    own = raw[:unit.length]
    byte_info = byte_roles(unit, raw)
    payload_bits = " ".join(b.payload for b in byte_info if b.payload)
    line, details, extra = _explain(unit, raw, known_end, lost, dialect, origin)
    v = unit.value
    if v is not None:
        cp_text = _cp_text(v)
        cp_name = name(v)
        cat = category(v) if v <= MAX_CODE_POINT else None
        utf16 = utf16_units(v)
    else:
        cp_text = cp_name = cat = None
        utf16 = ()
    warnings = tuple((w, warning_words(w)) for w in unit.warnings)
    return UnitInfo(
        offset=unit.offset, length=unit.length, kind=unit.kind,
        kind_title=K.title(unit.kind), dialect=dialect,
        is_error=unit.is_error, bytes=own, byte_info=byte_info, payload_bits=payload_bits,
        value=v, codepoint=cp_text, name=cp_name, category=cat, utf16=utf16, decimal=v,
        replacements=unit.replacements, at_end=unit.at_end, warnings=warnings,
        explanation=line, details=tuple(details), lost=lost,
        surrogate_pair=extra.get("surrogate_pair"), shortest=extra.get("shortest"),
        missing=extra.get("missing", 0), dialects=_dialect_readings(unit, raw))


def explain(unit: Unit, data, dialect: str = K.UTF8, *, lost: bool = False,
            origin: int | None = None) -> str:
    """The one-line explanation of ``unit`` (``data`` as for :func:`describe`; ``origin``
    lets a unit cut short by the chosen origin say so)."""
    raw, known_end = _unit_bytes(unit, data)
    return _explain(unit, raw, known_end, lost, dialect, origin)[0]


# ------------------------------------------------------------------------------ encode

_TEMPLATE_LETTERS = "uvwxyz"
_CP_PATTERNS = (
    re.compile(r"[uU]\+([0-9A-Fa-f]{1,8})"),
    re.compile(r"0[xX]([0-9A-Fa-f]{1,8})"),
    re.compile(r"\\u([0-9A-Fa-f]{4})"),
    re.compile(r"\\U([0-9A-Fa-f]{8})"),
    re.compile(r"([0-9A-Fa-f]{2,8})"),
)


def parse_codepoint(text: str) -> int:
    """A code point typed by a person.

    Accepted: ``U+20AC`` or ``u+20ac``, ``0x20AC``, ``\\u20AC``, ``\\U0001F600``, bare hex
    of two or more digits (``20AC``; code points are written in hex), or a string of
    exactly one character, which stands for itself (so ``"7"`` is U+0037, not 7, and
    ``"A"`` is U+0041). Values up to 7FFFFFFF (the 1993 form's reach) are returned;
    :func:`encode` decides whether one above U+10FFFF is acceptable.
    """
    if not isinstance(text, str):
        raise ValueError(f"a code point is written as text, got {type(text).__name__}")
    if len(text) == 1:
        return ord(text)
    t = text.strip()
    if len(t) == 1:
        return ord(t)
    if not t:
        raise ValueError("a code point is needed: U+20AC, 0x20AC, 20AC or one character")
    for pattern in _CP_PATTERNS:
        m = pattern.fullmatch(t)
        if m:
            value = int(m.group(1), 16)
            if value > MAX_LEGACY_VALUE:
                raise ValueError(f"{text!r} is U+{value:X}, beyond even the 1993 6-byte "
                                 "form (up to U+7FFFFFFF)")
            return value
    raise ValueError(f"{text!r} is not a code point: write U+20AC, 0x20AC, 20AC (hex), "
                     "or one character")


def encode(cp: int | str, *, legacy: bool = False) -> Encoding:
    """The UTF-8 bytes of a code point (an int, a one-character str, or text for
    :func:`parse_codepoint`), with the bit layout of the standard's worked examples.

    Values above U+10FFFF are refused unless ``legacy=True`` asks for the 1993 form
    (up to U+7FFFFFFF, 5 and 6 bytes). Surrogate code points are encoded the way WTF-8
    and CESU-8 do (``kind`` then says ``surrogate``: not valid UTF-8).
    """
    if isinstance(cp, str):
        value = parse_codepoint(cp)
    elif isinstance(cp, int) and not isinstance(cp, bool):
        value = cp
    else:
        raise ValueError(f"a code point is an int or a character, got {type(cp).__name__}")
    if value < 0:
        raise ValueError(f"{value} is negative; code points start at U+0000")
    if value > MAX_LEGACY_VALUE:
        raise ValueError(f"U+{value:X} is beyond even the 1993 6-byte form (up to U+7FFFFFFF)")
    if value > MAX_CODE_POINT and not legacy:
        raise ValueError(f"U+{value:X} is above U+10FFFF, the last Unicode code point: UTF-8 "
                         "(RFC 3629) cannot encode it; ask for the 1993 form to see its "
                         "withdrawn 4- to 6-byte spelling")
    length = spelling.shortest_length(value)
    utf8 = spelling.encode(value)
    if length == 1:
        groups = (f"{value:07b}",)
        template = "0xxxxxxx"
    else:
        lead_bits = 7 - length
        total = lead_bits + 6 * (length - 1)
        bits = f"{value:0{total}b}"
        groups = (bits[:lead_bits],) + tuple(bits[lead_bits + 6 * k: lead_bits + 6 * (k + 1)]
                                             for k in range(length - 1))
        letters = _TEMPLATE_LETTERS[-length:]
        template = " ".join(["1" * length + "0" + letters[0] * lead_bits]
                            + ["10" + letters[k] * 6 for k in range(1, length)])
    overlongs = tuple(spelling.encode(value, n) for n in range(max(length + 1, 2), 7))
    kind = cut(utf8)[0].kind
    return Encoding(codepoint=value, name=name(value) if value <= MAX_CODE_POINT else "<beyond Unicode>",
                    utf8=utf8, bit_groups=groups, template=template,
                    byte_bits=tuple(f"{b:08b}" for b in utf8), kind=kind,
                    overlongs=overlongs, cesu8=spelling.encode_cesu8(value),
                    mutf8=spelling.encode_mutf8(value),
                    utf16=utf16_units(value) if value <= MAX_CODE_POINT else ())


# -------------------------------------------------------------------------- format_text

def format_text(info: UnitInfo) -> str:
    """A readable multi-line rendering of :func:`describe`'s result."""
    lines = []
    if info.is_error:
        status = f" ({info.kind_title}: an error)"
    else:
        status = " (with warnings)" if info.warnings else ""
    lines.append(f"Unit at offset 0x{info.offset:X} ({info.offset:,}), "
                 f"{_plural(info.length, 'byte')}: {info.hex}")
    lines.append(f"Kind: {info.kind}{status} in {K.DIALECT_TITLES[info.dialect]}")
    lines.append(f"  {info.explanation}")
    lines.append("")
    lines.append("  offset          hex  oct  binary    marker|payload  role")
    for b in info.byte_info:
        split = b.split if b.payload else "(no payload)"
        lines.append(f"  0x{b.offset:<12X}  {b.hex}   {b.octal}  {b.binary}  {split:<14}  {b.note}")
    if info.payload_bits:
        joined = info.payload_bits.replace(" ", "")
        if info.surrogate_pair:
            hi, lo = info.surrogate_pair
            lines.append(f"Payload bits: {info.payload_bits} -> two surrogates "
                         f"{_cp_text(hi)} {_cp_text(lo)} -> {info.codepoint}")
        elif info.value is not None:
            lines.append(f"Payload bits: {info.payload_bits} -> {joined} = 0x{info.value:X}")
        else:
            lines.append(f"Payload bits: {info.payload_bits} (incomplete: no code point)")
    if info.value is not None:
        utf16 = " ".join(f"{u:04X}" for u in info.utf16) or "none (beyond UTF-16)"
        lines.append(f"Code point: {info.codepoint}  {info.name}")
        lines.append(f"  category {info.category or '-'}, decimal {info.decimal}, UTF-16 {utf16}")
    else:
        lines.append("Code point: none")
    if info.shortest is not None:
        lines.append(f"Shortest form: {info.shortest.hex(' ').upper()}")
    if info.warnings:
        lines.append("Warnings:")
        for w, words in info.warnings:
            lines.append(f"  {w}: {words}")
    if info.is_error or info.details:
        if info.details:
            lines.append("Explanation:")
            for sentence in info.details:
                lines.append(f"  {sentence}")
    if info.is_error:
        lines.append(f"Replacements: {info.replacements} U+FFFD")
    lines.append("In each dialect:")
    for d in info.dialects:
        lines.append(f"  {d.dialect:<8} {d.summary}")
    return "\n".join(lines) + "\n"
