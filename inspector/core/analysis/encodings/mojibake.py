"""A cheap necessary condition for ftfy to find UTF-8 read as a single-byte charset.

UTF-8 decoded as one of the single-byte charsets ftfy knows turns each multi-byte
sequence into a lead character (the charset's letter for a byte C0 or C2..F4) followed by a
continuation character (its letter for a byte 80..BF), or a space where a no-break space
(A0) was lost. Text without such a pair cannot be undone into UTF-8, so ftfy, whose
look-around costs about a millisecond per 10 KB, is asked only about text that has one.
"""

from __future__ import annotations

import numpy as np

# The charsets ftfy re-encodes with (ftfy.chardata.CHARMAP_ENCODINGS; its "sloppy"
# variants decode the holes as Latin-1, which is in the list).
CHARSETS = ("latin-1", "cp1252", "cp1251", "cp1250", "cp1253", "cp1254", "cp1257",
            "iso-8859-2", "mac_roman", "cp437")

_tables = None
# ftfy's ALTERED_UTF8_RE: the leads after which a space may stand for a lost byte A0,
# either ending a 2-byte sequence, or inside a longer one (followed by a continuation).
_SPACE_ENDS = (0xC2, 0xC3, 0xC5, 0xCE, 0xD0, 0xD9)
_SPACE_INSIDE = (0xE2, 0xE3, 0xF0)
# The bytes that can lead a sequence ftfy decodes: C2..F4, and C0 (its "utf-8-variants"
# read C0 80 as NUL). F5..FF and C1 lead nothing, so a letter they stand for (Cyrillic
# ш..я in cp1251, ö ø ü in Latin-1) does not make text suspect.
_LEADS = (0xC0, *range(0xC2, 0xF5))


def _build():
    lead = np.zeros(0x110000, dtype=np.uint16)
    cont = np.zeros(0x110000, dtype=np.uint16)
    space_ends = np.zeros(0x110000, dtype=np.uint16)
    space_inside = np.zeros(0x110000, dtype=np.uint16)
    for bit, enc in enumerate(CHARSETS):
        for b in _LEADS:
            ch = bytes([b]).decode(enc, "ignore")
            if ch:
                lead[ord(ch)] |= 1 << bit
                if b in _SPACE_ENDS:
                    space_ends[ord(ch)] |= 1 << bit
                if b in _SPACE_INSIDE:
                    space_inside[ord(ch)] |= 1 << bit
        for b in range(0x80, 0xC0):
            ch = bytes([b]).decode(enc, "ignore")
            if ch:
                cont[ord(ch)] |= 1 << bit
        cont[0xFFFD] |= 1 << bit  # a lossy "sloppy" sequence (ftfy's replace_lossy_sequences)
    return lead, cont, space_ends, space_inside


def could_be_mojibake(text: str) -> bool:
    """False when ``text`` has no adjacent (lead, continuation) pair of one charset, nor
    a lead and a space where ftfy would restore a byte A0: ftfy then finds no UTF-8 to
    restore."""
    global _tables
    if len(text) < 2 or text.isascii():
        return False
    if _tables is None:
        _tables = _build()
    lead, cont, space_ends, space_inside = _tables
    cps = np.array([text]).view(np.uint32)
    head = lead.take(cps[:-1])
    at = np.flatnonzero(head)
    if not len(at):
        return False
    nxt = cps[at + 1]
    if np.any(head[at] & cont.take(nxt)):
        return True
    sp = at[nxt == 0x20]
    if not len(sp):
        return False
    if np.any(space_ends.take(cps[sp])):
        return True
    sp = sp[sp + 2 < len(cps)]
    return bool(np.any(space_inside.take(cps[sp]) & cont.take(cps[sp + 2])))
