"""Units as numbers, for the vectorised cuts (the scanner's row kernel and byte kernel,
the views' page cut): kind codes, the per-byte tables they index, and the rules that
give a unit its kind.

A kind's code is the kinds table's (``kinds.TABLE``) and its place in ``KIND_CODES``: 0
is valid, then the error kinds in the spec's order (``kinds.ERROR_KINDS``).

The vectorised cuts decide a unit's kind here and nowhere else, as the reference
decoder (:func:`inspector.core.units.decoder.cut`) does one unit at a time: by its
first byte (:data:`FIRST_KIND`), by being cut short (``truncated``), or, for a complete
multi-byte unit, by its value and length in a dialect (:func:`complete_unit_kinds`).
The row kernel and the page cut call these; the byte kernel (utf-8 at byte level)
derives its tables from them. A new error kind is an entry in the kinds table, its rule
in the decoder and its rule here.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.boundaries import STRUCT_LEN
from inspector.core.units.decoder import SECOND_BYTE_RANGE
from inspector.core.units.spelling import MIN_VALUE

# Kind codes, the kinds table's: the name of each code, and the code of each name.
KIND_CODES = K.ALL_KINDS
N_KINDS = len(KIND_CODES)
CODE_OF = {name: K.KINDS[name].code for name in KIND_CODES}
C_VALID = CODE_OF[K.VALID]
C_OVERLONG = CODE_OF[K.OVERLONG]
C_SURROGATE = CODE_OF[K.SURROGATE]
C_OUT_OF_RANGE = CODE_OF[K.OUT_OF_RANGE]
C_LEGACY = CODE_OF[K.LEGACY_LONG_FORM]
C_TRUNCATED = CODE_OF[K.TRUNCATED]
C_STRAY = CODE_OF[K.UNEXPECTED_CONTINUATION]
C_INVALID = CODE_OF[K.INVALID_BYTE]

# Per byte: the length of the unit it starts when complete (1 for ASCII, continuation
# bytes, which start a stray, and FE/FF), and its kind before looking further.
LEAD_LENGTH = np.frombuffer(STRUCT_LEN, dtype=np.uint8).copy()
LEAD_LENGTH[LEAD_LENGTH == 0] = 1
FIRST_KIND = np.zeros(256, dtype=np.uint8)
FIRST_KIND[0x80:0xC0] = C_STRAY
FIRST_KIND[0xFE:] = C_INVALID
# By unit length: the payload bits of its lead, and the smallest value it may hold
# (below it the unit is overlong).
PAYLOAD = np.array([0, 0x7F, 0x1F, 0x0F, 0x07, 0x03, 0x01], dtype=np.int64)
SMALLEST_VALUE = np.array([0 if v is None else v for v in MIN_VALUE], dtype=np.int64)


def complete_unit_kinds(value: np.ndarray, length: np.ndarray, dialect: str) -> np.ndarray:
    """The kind codes (uint8) of complete multi-byte units with these values and lengths
    (int64 arrays), read in ``dialect``: the vectorised twin of the decoder's rule.
    A surrogate pair of the pair dialects (``kinds.PAIR_DIALECTS``) is two units here;
    the cuts join them afterwards."""
    fss = dialect == K.FSS_UTF
    kind = np.zeros(len(value), dtype=np.uint8)
    if not fss:
        kind[value > 0x10FFFF] = C_OUT_OF_RANGE
        kind[(value >= 0xD800) & (value <= 0xDFFF)] = C_SURROGATE
    kind[value < SMALLEST_VALUE[length]] = C_OVERLONG
    if not fss:
        kind[length >= 5] = C_LEGACY
    if dialect == K.MUTF8:
        kind[(length == 2) & (value == 0)] = C_VALID
    return kind
# Per lead: the range its second byte must be in for a well-formed sequence (empty for
# a byte that leads none), which decides the replacements of a broken unit.
SECOND_LO = np.array([r[0] if r else 1 for r in SECOND_BYTE_RANGE], dtype=np.uint8)
SECOND_HI = np.array([r[1] if r else 0 for r in SECOND_BYTE_RANGE], dtype=np.uint8)
# Bytes a binary file is full of and a text file hardly has (TAB, LF, VT, FF, CR and ESC
# are left out: text uses them).
BINARY_ASCII = np.zeros(256, dtype=bool)
BINARY_ASCII[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = True
