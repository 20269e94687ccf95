"""The vocabulary of the unit contract, ``resources/docs/utf8-units.md``: kind names,
warning names, dialects.

These exact strings appear in the command line's JSON, in reports and in the API, so
they live here once and everything else imports them.
"""

VALID = "valid"

# Errors, in the spec's order.
OVERLONG = "overlong"
SURROGATE = "surrogate"
OUT_OF_RANGE = "out_of_range"
LEGACY_LONG_FORM = "legacy_long_form"
TRUNCATED = "truncated"
UNEXPECTED_CONTINUATION = "unexpected_continuation"
INVALID_BYTE = "invalid_byte"

ERROR_KINDS = (
    OVERLONG,
    SURROGATE,
    OUT_OF_RANGE,
    LEGACY_LONG_FORM,
    TRUNCATED,
    UNEXPECTED_CONTINUATION,
    INVALID_BYTE,
)

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

WARNING_KINDS = (
    BOM,
    ZWNBSP,
    NONCHARACTER,
    REPLACEMENT_CHAR,
    CONTROL,
    PRIVATE_USE,
    BIDI_CONTROL,
    ZERO_WIDTH,
    UNASSIGNED,
    RAW_NUL,
)

ALL_KINDS = (VALID,) + ERROR_KINDS

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

KIND_TITLES = {
    VALID: "valid",
    OVERLONG: "overlong form",
    SURROGATE: "encoded surrogate",
    OUT_OF_RANGE: "above U+10FFFF",
    LEGACY_LONG_FORM: "5/6-byte 1993 form",
    TRUNCATED: "truncated sequence",
    UNEXPECTED_CONTINUATION: "stray continuation byte",
    INVALID_BYTE: "byte never used in UTF-8",
    BOM: "byte order mark",
    ZWNBSP: "zero width no-break space (U+FEFF)",
    NONCHARACTER: "noncharacter",
    REPLACEMENT_CHAR: "U+FFFD already in the data",
    CONTROL: "control character",
    PRIVATE_USE: "private use character",
    BIDI_CONTROL: "bidirectional control",
    ZERO_WIDTH: "zero-width character",
    UNASSIGNED: "unassigned code point",
    RAW_NUL: "raw NUL byte (Modified UTF-8 writes C0 80)",
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
