"""Character facts from a current Unicode database: the one place that asks it.

``unicodedata2`` follows the newest Unicode release; the standard library's
``unicodedata`` is frozen at the version the interpreter shipped with. We use the former
when it is installed and say which version answered, because "unassigned" depends on it.
Every other module asks here (a test holds them to it), so that the text pane, the
inspector and the scan never disagree about a character.
"""

from __future__ import annotations

import unicodedata as _builtin_ucd
from functools import lru_cache

try:  # pragma: no cover - which branch runs depends on the machine
    import unicodedata2 as _ucd
except ImportError:  # pragma: no cover
    _ucd = _builtin_ucd

UNICODE_VERSION: str = _ucd.unidata_version
DATABASE_MODULE: str = _ucd.__name__  # "unicodedata2", or "unicodedata" without it

# The version ``str`` methods (isprintable, isalpha, ...) answer from: the interpreter's
# own, perhaps older than UNICODE_VERSION. For code that leans on them for speed.
BUILTIN_UNICODE_VERSION: str = _builtin_ucd.unidata_version

MAX_CODE_POINT = 0x10FFFF

_CONTROL_NAMES = {
    0x00: "NULL", 0x01: "START OF HEADING", 0x02: "START OF TEXT", 0x03: "END OF TEXT",
    0x04: "END OF TRANSMISSION", 0x05: "ENQUIRY", 0x06: "ACKNOWLEDGE", 0x07: "BELL",
    0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED (LF)",
    0x0B: "LINE TABULATION", 0x0C: "FORM FEED (FF)", 0x0D: "CARRIAGE RETURN (CR)",
    0x0E: "SHIFT OUT", 0x0F: "SHIFT IN", 0x10: "DATA LINK ESCAPE",
    0x11: "DEVICE CONTROL ONE", 0x12: "DEVICE CONTROL TWO", 0x13: "DEVICE CONTROL THREE",
    0x14: "DEVICE CONTROL FOUR", 0x15: "NEGATIVE ACKNOWLEDGE", 0x16: "SYNCHRONOUS IDLE",
    0x17: "END OF TRANSMISSION BLOCK", 0x18: "CANCEL", 0x19: "END OF MEDIUM",
    0x1A: "SUBSTITUTE", 0x1B: "ESCAPE", 0x1C: "INFORMATION SEPARATOR FOUR",
    0x1D: "INFORMATION SEPARATOR THREE", 0x1E: "INFORMATION SEPARATOR TWO",
    0x1F: "INFORMATION SEPARATOR ONE", 0x7F: "DELETE",
    0x80: "PADDING CHARACTER", 0x81: "HIGH OCTET PRESET", 0x82: "BREAK PERMITTED HERE",
    0x83: "NO BREAK HERE", 0x84: "INDEX", 0x85: "NEXT LINE (NEL)",
    0x86: "START OF SELECTED AREA", 0x87: "END OF SELECTED AREA",
    0x88: "CHARACTER TABULATION SET", 0x89: "CHARACTER TABULATION WITH JUSTIFICATION",
    0x8A: "LINE TABULATION SET", 0x8B: "PARTIAL LINE FORWARD", 0x8C: "PARTIAL LINE BACKWARD",
    0x8D: "REVERSE LINE FEED", 0x8E: "SINGLE SHIFT TWO", 0x8F: "SINGLE SHIFT THREE",
    0x90: "DEVICE CONTROL STRING", 0x91: "PRIVATE USE ONE", 0x92: "PRIVATE USE TWO",
    0x93: "SET TRANSMIT STATE", 0x94: "CANCEL CHARACTER", 0x95: "MESSAGE WAITING",
    0x96: "START OF GUARDED AREA", 0x97: "END OF GUARDED AREA", 0x98: "START OF STRING",
    0x99: "SINGLE GRAPHIC CHARACTER INTRODUCER", 0x9A: "SINGLE CHARACTER INTRODUCER",
    0x9B: "CONTROL SEQUENCE INTRODUCER", 0x9C: "STRING TERMINATOR",
    0x9D: "OPERATING SYSTEM COMMAND", 0x9E: "PRIVACY MESSAGE",
    0x9F: "APPLICATION PROGRAM COMMAND",
}


def is_noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE and cp <= MAX_CODE_POINT


def is_surrogate(cp: int) -> bool:
    return 0xD800 <= cp <= 0xDFFF


# The database's own lookups, by character and uncached: for walks over every code point
# and for hot loops that already hold a character (one C call, no ``ord`` and no cache).
category_of_char = _ucd.category
combining_of_char = _ucd.combining                 # canonical combining class, 0 for a base
east_asian_width_of_char = _ucd.east_asian_width   # "W" and "F" take two columns
bidirectional_of_char = _ucd.bidirectional         # "L", "R", "AL", "EN", ... (UAX #9)


@lru_cache(maxsize=65536)
def category(cp: int) -> str:
    """General category (two letters); ``Cn`` for anything outside Unicode's range."""
    if cp < 0 or cp > MAX_CODE_POINT:
        return "Cn"
    return _ucd.category(chr(cp))


def is_unassigned(cp: int) -> bool:
    """No character in the database. Noncharacters are reserved, not unassigned: they
    get their own warning, so they are left out here."""
    if cp > MAX_CODE_POINT:
        return True
    return category(cp) == "Cn" and not is_noncharacter(cp)


@lru_cache(maxsize=65536)
def name(cp: int) -> str:
    """The character's name, or a descriptive label in angle brackets for the code points
    that have none (controls, surrogates, private use, noncharacters, unassigned)."""
    if cp < 0:
        return "<invalid>"
    if cp > MAX_CODE_POINT:
        return "<beyond Unicode>"
    if cp in _CONTROL_NAMES:
        return f"<control> {_CONTROL_NAMES[cp]}"
    if is_surrogate(cp):
        return "<high surrogate>" if cp < 0xDC00 else "<low surrogate>"
    found = _ucd.name(chr(cp), "")
    if found:
        return found
    if is_noncharacter(cp):
        return "<noncharacter>"
    cat = category(cp)
    if cat == "Co":
        return "<private use>"
    if cat == "Cn":
        return "<unassigned>"
    return f"<{cat}>"


def utf16_units(cp: int) -> tuple[int, ...]:
    """UTF-16 code units for a code point (a lone surrogate stays one unit)."""
    if cp < 0x10000:
        return (cp,)
    if cp > MAX_CODE_POINT:
        return ()
    v = cp - 0x10000
    return (0xD800 | (v >> 10), 0xDC00 | (v & 0x3FF))


def format_cp(cp: int) -> str:
    return f"U+{cp:04X}"
