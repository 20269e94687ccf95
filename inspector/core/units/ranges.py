"""Byte ranges as a person reads them, written one way everywhere (the unit contract's
"Byte ranges", ``resources/docs/utf8-units.md``).

A range is half-open, as the JSON fields ``start`` / ``end`` and Python slices are:
``start`` is its first byte, ``end`` the first byte after it, and its length
``end - start`` is always written beside it, so an inclusive reading of the end cannot
go unnoticed: ``0xB5E–0xD1B (445 bytes)`` in the window and the reports,
``2,910–3,355 (445 bytes)`` in the command line's text. The window, the command line
and the reports all write ranges through :func:`byte_range`, so a range quoted from one
is found as is in the others.

Only ranges of offsets (where bytes lie) follow this; ranges of byte values or code
points ("80–BF", "U+D800–DFFF") are inclusive, as the standards write them.
"""

from __future__ import annotations

DASH = "\u2013"  # an en dash, between the ends

# The header of a table column whose cells are ranges: the end is the first byte after.
RANGE_HEADER = "Range (end excl.)"


def offset_text(offset: int, decimal: bool = False) -> str:
    """An offset as the ranges write it: ``0xB5E``, or ``2,910`` with ``decimal``."""
    return f"{offset:,}" if decimal else f"0x{offset:X}"


def length_text(length: int) -> str:
    """``445 bytes``, ``1 byte``."""
    return f"{length:,} byte{'' if length == 1 else 's'}"


def byte_range(start: int, end: int, decimal: bool = False) -> str:
    """The bytes [start, end) as ``0xB5E–0xD1B (445 bytes)`` (``2,910–3,355 (445
    bytes)`` with ``decimal``): the end is the first byte after the range."""
    if end < start:
        raise ValueError(f"a range cannot end before it starts: {start}, {end}")
    return (f"{offset_text(start, decimal)}{DASH}{offset_text(end, decimal)} "
            f"({length_text(end - start)})")
