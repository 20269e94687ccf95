"""The vocabulary of the unit contract, ``resources/docs/utf8-units.md``: kind names,
warning names, dialects, and :data:`TABLE`, the one table that says everything the
program knows about each kind.

These exact strings appear in the command line's JSON, in reports and in the API, so
they live here once and everything else imports them. Every view, report and the command
line read a kind's title, words, mark, colour role and legend sample from the table, and
the vectorised paths take its code from it: adding a kind is an entry here plus its rule
in the reference cut (``decoder``) and in the vectorised cuts' one place
(``scan/kernels/codes.py``), and its colour in each palette (README, "Adding an error
kind"; ``tests/core/units/test_adding_a_kind.py`` does it).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.units.unicode_db import UNICODE_VERSION

VALID = "valid"

# Errors, in the spec's order.
OVERLONG = "overlong"
SURROGATE = "surrogate"
OUT_OF_RANGE = "out_of_range"
LEGACY_LONG_FORM = "legacy_long_form"
TRUNCATED = "truncated"
UNEXPECTED_CONTINUATION = "unexpected_continuation"
INVALID_BYTE = "invalid_byte"
# Errors of the other interpretations (legacy code pages, UTF-16/32): see the contract's
# "Other interpretations".
UNDECODABLE = "undecodable"
UNPAIRED_SURROGATE = "unpaired_surrogate"

# Warnings: valid units worth a look.
BOM = "bom"
ZWNBSP = "zwnbsp"
NONCHARACTER = "noncharacter"
REPLACEMENT_CHAR = "replacement_char"
CONTROL = "control"
PRIVATE_USE = "private_use"
BIDI_CONTROL = "bidi_control"
ZERO_WIDTH = "zero_width"
UNASSIGNED = "unassigned"
# Modified UTF-8 spells NUL as C0 80, so a raw 00 byte there is worth a look (the spec's
# mutf-8 row); it is named apart from `control`, which every NUL also carries.
RAW_NUL = "raw_nul"

# The three families of kinds: what a unit is, and what a warning adds to a valid one.
FAMILY_VALID, FAMILY_ERROR, FAMILY_WARNING = "valid", "error", "warning"
# The palette role and the mark of every warning: the views show warnings alike.
WARNING_ROLE, WARNING_MARK = "warning", "!"


@dataclass(frozen=True)
class KindInfo:
    """Everything said about one kind, in one place: the views, the reports and the
    command line read it here. The words that depend on a unit's bytes or value (the
    problem list's line, the inspector's explanation) are functions of
    :mod:`inspector.core.units.unitinfo`, which fall back on these for a kind they do
    not know."""

    name: str           # the contract's name, as the JSON, the CSV and the reports write it
    family: str         # FAMILY_VALID, FAMILY_ERROR or FAMILY_WARNING
    # The valid kind and errors: the kind code of the vectorised paths' arrays (0 valid,
    # errors from 1 in the spec's order); a warning: its bit in a unit's warning mask.
    code: int
    title: str          # a few words naming it: lists, the status bar, the legend
    summary: str        # what it is, in a phrase: after the title in tooltips and the inspector
    explanation: str    # what it means, for the reader of a report
    mark: str           # the letter drawn beside its colour: nothing relies on colour alone
    role: str | None    # the palette role that colours it (None: valid units go by length)
    # That role's colour in the light palette, for the HTML report, which reads no
    # palette file (a test keeps the two equal).
    light_colour: str | None
    sample: bytes       # one unit of this kind (the legend shows its first two bytes)
    has_value: bool     # a complete unit of this kind carries its decoded value
    # The interpretation ``sample`` is one unit of this kind in (a codec name for the
    # kinds only other encodings produce).
    sample_encoding: str = "utf-8"

    @property
    def is_error(self) -> bool:
        return self.family == FAMILY_ERROR

    @property
    def is_warning(self) -> bool:
        return self.family == FAMILY_WARNING


def _error(name: str, **fields) -> KindInfo:
    """An error kind: coloured by a role of its own name."""
    return KindInfo(name=name, family=FAMILY_ERROR, role=name, **fields)


def _warning(name: str, **fields) -> KindInfo:
    """A warning: marked and coloured as every warning is."""
    return KindInfo(name=name, family=FAMILY_WARNING, mark=WARNING_MARK, role=WARNING_ROLE,
                    light_colour="#a16207", has_value=True, **fields)


TABLE: tuple[KindInfo, ...] = (
    KindInfo(
        name=VALID, family=FAMILY_VALID, code=0, title="valid",
        summary="a character in the one spelling UTF-8 allows for it",
        explanation="a well-formed character",
        mark="", role=None, light_colour=None, sample=b"A", has_value=True),
    _error(
        OVERLONG, code=1, mark="O", light_colour="#c2410c", sample=b"\xc0\xaf", has_value=True,
        title="overlong form",
        summary="a value written with more bytes than it needs",
        explanation="a character written with more bytes than it needs; decoders must reject "
                    "it because it can sneak characters such as '/' past filters"),
    _error(
        SURROGATE, code=2, mark="S", light_colour="#b45309", sample=b"\xed\xa0\x80",
        has_value=True,
        title="encoded surrogate",
        summary="a UTF-16 surrogate encoded on its own, invalid in UTF-8",
        explanation="an encoded UTF-16 surrogate (D800-DFFF): UTF-16 internals that are not "
                    "characters and are not allowed in UTF-8 (CESU-8 or WTF-8 data?)"),
    _error(
        OUT_OF_RANGE, code=3, mark="R", light_colour="#9f1239", sample=b"\xf4\x90\x80\x80",
        has_value=True,
        title="above U+10FFFF",
        summary="a value beyond U+10FFFF, the last code point",
        explanation="a value above U+10FFFF, the last code point"),
    _error(
        LEGACY_LONG_FORM, code=4, mark="L", light_colour="#92400e",
        sample=b"\xf8\x88\x80\x80\x80", has_value=True,
        title="5/6-byte 1993 form",
        summary="a 5- or 6-byte form of the 1993 FSS-UTF, withdrawn by RFC 3629",
        explanation="a 5- or 6-byte sequence of the 1993 design, withdrawn by RFC 3629"),
    _error(
        TRUNCATED, code=5, mark="T", light_colour="#dc2626", sample=b"\xe2\x82", has_value=False,
        title="truncated sequence",
        summary="a lead byte without all the continuation bytes it announces",
        explanation="a sequence cut short: its lead byte promises more continuation bytes "
                    "than follow"),
    _error(
        UNEXPECTED_CONTINUATION, code=6, mark="C", light_colour="#e11d48", sample=b"\x80",
        has_value=False,
        title="stray continuation byte",
        summary="a continuation byte (80-BF) with no lead byte before it",
        explanation="a continuation byte (80-BF) with no lead byte before it: often a byte of "
                    "another encoding such as Windows-1252"),
    _error(
        INVALID_BYTE, code=7, mark="X", light_colour="#7f1d1d", sample=b"\xff", has_value=False,
        title="byte never used in UTF-8",
        summary="FE or FF, bytes that no UTF-8 ever uses",
        explanation="FE or FF, bytes no form of UTF-8 ever uses (UTF-16 byte order mark?)"),
    _error(
        UNDECODABLE, code=8, mark="U", light_colour="#6d28d9", sample=b"\x81",
        sample_encoding="cp1252", has_value=False,
        title="undecodable in this encoding",
        summary="bytes the chosen encoding's decoder rejects: a byte value its table leaves "
                "undefined, a lead byte without a valid trail byte, or a sequence cut short",
        explanation="bytes the chosen encoding cannot decode: its decoder reports an error "
                    "there and goes on after them (the file is probably in another encoding "
                    "here)"),
    _error(
        UNPAIRED_SURROGATE, code=9, mark="P", light_colour="#be185d",
        sample=b"\x00\xd8", sample_encoding="utf-16-le", has_value=True,
        title="unpaired surrogate",
        summary="a UTF-16 surrogate code unit (D800-DFFF) without its partner, or a "
                "surrogate value in UTF-32: not a character",
        explanation="a surrogate (D800-DFFF) that is not half of a high-low pair: UTF-16 "
                    "data cut or joined in the wrong place, or a lone surrogate written by "
                    "a program that treats strings as 16-bit units"),
    _warning(
        BOM, code=0, sample=b"\xef\xbb\xbf",
        title="byte order mark",
        summary="a byte order mark at the start of the file: UTF-8 needs none, and tools "
                "that do not expect it show it as \"\u00ef\u00bb\u00bf\" or fail on the first line",
        explanation="a byte order mark at the start: harmless in UTF-8 but trips some tools"),
    _warning(
        ZWNBSP, code=1, sample=b"\xef\xbb\xbf",
        title="zero width no-break space (U+FEFF)",
        summary="U+FEFF away from the start of the file: usually a byte order mark left "
                "behind when files were joined; it is invisible",
        explanation="U+FEFF in the middle of the data: usually a byte order mark left by "
                    "joining files"),
    _warning(
        NONCHARACTER, code=2, sample=b"\xef\xbf\xbe",
        title="noncharacter",
        summary="a noncharacter: reserved for a program's internal use and not meant "
                "to be exchanged in text",
        explanation="a noncharacter code point, reserved for internal use"),
    _warning(
        REPLACEMENT_CHAR, code=3, sample=b"\xef\xbf\xbd",
        title="U+FFFD already in the data",
        summary="U+FFFD is already in the data: an earlier conversion met bytes "
                "it could not decode and replaced them, so the original is lost",
        explanation="U+FFFD already in the data: an earlier lossy conversion"),
    _warning(
        CONTROL, code=4, sample=b"\x01",
        title="control character",
        summary="a control character, invisible in text and often a sign of binary data "
                "or a wrong encoding",
        explanation="a control character other than tab, line feed and carriage return"),
    _warning(
        PRIVATE_USE, code=5, sample=b"\xee\x80\x80",
        title="private use character",
        summary="a private use character: its meaning is agreed between parties "
                "(often an icon font), not by Unicode",
        explanation="a private-use character: its meaning is a private agreement"),
    _warning(
        BIDI_CONTROL, code=6, sample=b"\xe2\x80\xae",
        title="bidirectional control",
        summary="a bidirectional control: it reorders how the text around it is "
                "displayed, so code or text can read differently from what it is "
                "(the \"Trojan Source\" attack)",
        explanation="a bidirectional control: it can make text display differently "
                    "from what it is (Trojan Source)"),
    _warning(
        ZERO_WIDTH, code=7, sample=b"\xe2\x80\x8b",
        title="zero-width character",
        summary="a zero-width character: invisible, yet it makes two strings that look "
                "the same compare different",
        explanation="an invisible zero-width character"),
    _warning(
        UNASSIGNED, code=8, sample=b"\xcd\xb8",
        title="unassigned code point",
        summary=f"no character is assigned to this code point in Unicode {UNICODE_VERSION} "
                "(the database this program uses)",
        explanation="a code point with no character in the Unicode database used"),
    _warning(
        RAW_NUL, code=9, sample=b"\x00",
        title="raw NUL byte (Modified UTF-8 writes C0 80)",
        summary="a raw 00 byte: Modified UTF-8 writes NUL as C0 80, so a 00 byte does not "
                "belong in it",
        explanation="a raw 00 byte where Modified UTF-8 writes C0 80"),
)

# Read from the table once: by name, and the names of each family by code (which is the
# table's order and the spec's; a test checks).
KINDS: dict[str, KindInfo] = {k.name: k for k in TABLE}
ERROR_KINDS = tuple(k.name for k in sorted(TABLE, key=lambda k: k.code) if k.is_error)
WARNING_KINDS = tuple(k.name for k in sorted(TABLE, key=lambda k: k.code) if k.is_warning)
# A unit's kinds, valid first: the name of each kind code of the vectorised paths.
ALL_KINDS = (VALID,) + ERROR_KINDS
# The errors the UTF-8 dialects can make (the others are other encodings' own): what a
# UTF-8 scan's counts list.
UTF8_ERROR_KINDS = tuple(k for k in ERROR_KINDS if KINDS[k].sample_encoding == "utf-8")


def title(name: str) -> str:
    """A kind's title; a name the table does not know (a report of another version)
    stays as it is."""
    info = KINDS.get(name)
    return info.title if info is not None else name


# Dialects: they change only which units count as valid.
UTF8 = "utf-8"
WTF8 = "wtf-8"
CESU8 = "cesu-8"
MUTF8 = "mutf-8"
FSS_UTF = "fss-utf"

DIALECTS = (UTF8, WTF8, CESU8, MUTF8, FSS_UTF)
# Dialects in which a surrogate pair (a high half, ED A0..AF xx, right before a low one,
# ED B0..BF xx) changes the units: CESU-8 and Modified UTF-8 make it one unit, WTF-8
# keeps both halves errors where a lone half is valid. A cut must not fall between them.
PAIR_DIALECTS = (WTF8, CESU8, MUTF8)
# Of those, the dialects that make a pair one 6-byte unit.
PAIR_UNIT_DIALECTS = (CESU8, MUTF8)

DIALECT_TITLES = {
    UTF8: "UTF-8 (RFC 3629)",
    WTF8: "WTF-8",
    CESU8: "CESU-8",
    MUTF8: "Modified UTF-8 (Java)",
    FSS_UTF: "FSS-UTF (1993)",
}


def check_dialect(name: str) -> str:
    """Return the canonical dialect name, or raise ValueError naming the choices."""
    key = name.strip().lower().replace("_", "-")
    aliases = {"utf8": UTF8, "wtf8": WTF8, "cesu8": CESU8, "mutf8": MUTF8,
               "modified-utf-8": MUTF8, "fss": FSS_UTF, "fssutf": FSS_UTF, "fss-utf-8": FSS_UTF}
    key = aliases.get(key, key)
    if key not in DIALECTS:
        raise ValueError(f"unknown dialect {name!r}; choose one of {', '.join(DIALECTS)}")
    return key
