"""How a code point is spelled in bytes: the one UTF-8 encoder of the program, and the one
rule for how many bytes a value needs.

The unit inspector's worked examples, the encoder dialog, the search for other spellings
and the problem list's "needs N bytes" all write through here, and the decoder judges
overlong forms by the same table (:data:`MIN_VALUE`), so what one part writes the others
read back alike.

It writes whatever the 1993 table can hold (up to U+7FFFFFFF), not only valid UTF-8,
because the data under inspection holds the rest: surrogate code points get their 3-byte
form (as WTF-8, CESU-8 and Modified UTF-8 write them), values above U+10FFFF their 4- to
6-byte 1993 form, and a ``length`` longer than needed gives the overlong form.
"""

from __future__ import annotations

from inspector.core.units.unicode_db import MAX_CODE_POINT, utf16_units

# The largest value the 1993 (FSS-UTF / RFC 2279) 6-byte form can hold.
MAX_LEGACY_VALUE = 0x7FFFFFFF
MAX_LENGTH = 6
# The smallest value that needs a sequence of each length (index: the length); a
# sequence of that length holding less is overlong.
MIN_VALUE = (None, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000)


def _check_value(value: int) -> None:
    if not 0 <= value <= MAX_LEGACY_VALUE:
        raise ValueError(f"{value:#x} is not a value any UTF-8 can hold "
                         "(U+0000 to U+7FFFFFFF, the 1993 form's reach)")


def shortest_length(value: int) -> int:
    """The length of the shortest sequence that holds ``value``: 1 to 4 for code points,
    5 or 6 for the 1993 forms of larger values."""
    _check_value(value)
    length = 1
    while length < MAX_LENGTH and value >= MIN_VALUE[length + 1]:
        length += 1
    return length


def encode(value: int, length: int | None = None) -> bytes:
    """``value`` as one sequence of ``length`` bytes; by default the shortest, the only
    valid spelling, and a longer ``length`` gives the overlong one. ValueError when the
    value does not fit in ``length`` bytes."""
    shortest = shortest_length(value)
    if length is None:
        length = shortest
    elif not shortest <= length <= MAX_LENGTH:
        raise ValueError(f"U+{value:04X} does not fit in a {length}-byte sequence "
                         f"(it needs {shortest} to {MAX_LENGTH})")
    if length == 1:
        return bytes([value])
    out = bytearray(length)
    for k in range(length - 1, 0, -1):
        out[k] = 0x80 | (value & 0x3F)
        value >>= 6
    out[0] = ((0xFF << (8 - length)) & 0xFF) | value  # ``length`` ones, then a zero
    return bytes(out)


def encode_cesu8(value: int) -> bytes:
    """CESU-8: a supplementary character as its two UTF-16 surrogates, each in its
    3-byte form; any other value as :func:`encode` writes it."""
    if 0x10000 <= value <= MAX_CODE_POINT:
        return b"".join(encode(half) for half in utf16_units(value))
    return encode(value)


def encode_mutf8(value: int) -> bytes:
    """Java's Modified UTF-8: CESU-8, and NUL as C0 80 so that a string holds no 00 byte."""
    return b"\xc0\x80" if value == 0 else encode_cesu8(value)
