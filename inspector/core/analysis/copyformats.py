"""Copy as: the selected bytes written as hex, a Python ``bytes`` literal, a C array, the
decoded text, or a tab-separated table of the units.

The byte formats (hex, Python, C) hold exactly the selected bytes and read back to
them. The text and the table work on units, so they cover every unit that overlaps the
selection: :func:`read_selection` gathers both from a byte source, and
:func:`copy_selection` turns it into any of :data:`FORMATS`.

Every copy the window makes (the panes' own, Edit > Copy, Copy as) is made here and
refused above :data:`COPY_LIMIT`, so the same bytes give the same text whichever way
they were copied.
"""

from __future__ import annotations

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit, decode_units
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unicode_db import MAX_CODE_POINT, name as cp_name

HEX = "hex"
PYTHON = "python"
C_ARRAY = "c"
TEXT = "text"
TABLE = "table"

FORMATS = (HEX, PYTHON, C_ARRAY, TEXT, TABLE)
FORMAT_TITLES = {
    HEX: "Hex",
    PYTHON: "Python bytes literal",
    C_ARRAY: "C array",
    TEXT: "Decoded text",
    TABLE: "Table of units (tab-separated)",
}

TABLE_COLUMNS = ("offset", "length", "bytes", "kind", "code point", "name", "warnings")

# The most bytes one copy takes, in every format. 16 MiB holds what a person selects to
# paste elsewhere (a whole log, a large region), and what lands on the clipboard stays
# within what desktops pass along: the decoded text is at most 16 Mi characters, hex
# 48 MiB. (The C array and the unit table of a full 16 MiB run to 100-550 MiB.)
# Anything larger is File > Export's work, which writes a file instead.
COPY_LIMIT = 16 << 20


def as_hex(data: bytes, upper: bool = False, per_line: int | None = None) -> str:
    """``"e2 82 ac"``; ``per_line`` bytes per line when given (none: one line)."""
    text = bytes(data).hex(" ")
    if upper:
        text = text.upper()
    if not per_line or len(data) <= per_line:
        return text
    width = per_line * 3
    return "\n".join(text[k:k + width].rstrip() for k in range(0, len(text), width))


def _python_escape(b: int) -> str:
    if b == 0x5C:
        return "\\\\"
    if b == 0x27:
        return "\\'"
    if b == 0x09:
        return "\\t"
    if b == 0x0A:
        return "\\n"
    if b == 0x0D:
        return "\\r"
    if 0x20 <= b < 0x7F:
        return chr(b)
    return f"\\x{b:02x}"


_PY_ESCAPES = tuple(_python_escape(b) for b in range(256))


def as_python(data: bytes, width: int = 76) -> str:
    """A Python ``bytes`` literal that evaluates back to ``data``.

    Printable ASCII stays as it is (so text stays readable), everything else is a
    ``\\xNN`` escape. Longer than ``width`` characters, it is written as adjacent
    literals in parentheses, one per line, never splitting an escape.
    """
    pieces = [_PY_ESCAPES[b] for b in bytes(data)]
    single = "b'" + "".join(pieces) + "'"
    if len(single) <= width:
        return single
    inner = max(8, width - 7)  # room for the indent and b'...'
    lines = []
    current: list[str] = []
    used = 0
    for piece in pieces:
        if used + len(piece) > inner and current:
            lines.append("    b'" + "".join(current) + "'")
            current, used = [], 0
        current.append(piece)
        used += len(piece)
    if current:
        lines.append("    b'" + "".join(current) + "'")
    return "(\n" + "\n".join(lines) + "\n)"


def _check_identifier(name: str) -> str:
    if not name or not (name[0].isalpha() or name[0] == "_") or not all(
            c.isascii() and (c.isalnum() or c == "_") for c in name):
        raise ValueError(f"{name!r} is not a C identifier")
    return name


def as_c_array(data: bytes, name: str = "data", per_line: int = 12) -> str:
    """``const unsigned char data[3] = { 0xe2, 0x82, 0xac };``, wrapped at ``per_line``
    bytes per line when longer. C has no empty arrays, so empty data is refused."""
    _check_identifier(name)
    data = bytes(data)
    if not data:
        raise ValueError("nothing to copy: C has no zero-length arrays")
    values = [f"0x{b:02x}" for b in data]
    head = f"const unsigned char {name}[{len(data)}] = "
    if len(data) <= per_line:
        return head + "{ " + ", ".join(values) + " };"
    rows = [", ".join(values[k:k + per_line]) for k in range(0, len(values), per_line)]
    return head + "{\n    " + ",\n    ".join(rows) + "\n};"


def _units_of(data: bytes, units, base: int, dialect: str) -> list[Unit]:
    return list(units) if units is not None else interpretation(dialect).cut(data, base)


def as_text(data: bytes, units=None, base: int = 0, dialect: str = K.UTF8) -> str:
    """The decoded text: each valid unit's character, each problem as one U+FFFD per
    replacement (the Unicode practice). ``units`` default to the cut of ``data`` itself.

    A surrogate that a dialect accepts (WTF-8, FSS-UTF) cannot be put on a clipboard or
    written as UTF-8, so it is copied as U+FFFD too.
    """
    text = decode_units(_units_of(data, units, base, dialect), data, base)
    if any("\ud800" <= c <= "\udfff" for c in text):
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def _code_point_cell(u: Unit) -> str:
    if u.value is None:
        return ""
    if u.value > MAX_CODE_POINT:
        return f"0x{u.value:X}"
    return " ".join(f"U+{v:04X}" for v in (u.value, *u.more))


def _name_cell(u: Unit) -> str:
    if u.kind == K.VALID:
        return " + ".join(cp_name(v) for v in (u.value, *u.more))
    return K.title(u.kind)


def _table_cell(text: str) -> str:
    # A tab or line break inside a cell would shift the columns.
    return text.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def as_table(data: bytes, units=None, base: int = 0, dialect: str = K.UTF8) -> str:
    """Tab-separated rows, one per unit, with a header row: offset, length, bytes, kind,
    code point, name, warnings. ``data`` must hold every unit's bytes (``data[0]`` at
    offset ``base``); a problem unit's name column says what the problem is."""
    rows = ["\t".join(TABLE_COLUMNS)]
    data = bytes(data)
    for u in _units_of(data, units, base, dialect):
        lo = u.offset - base
        if lo < 0 or lo + u.length > len(data):
            raise ValueError(f"the unit at offset {u.offset} lies outside the bytes given")
        raw = data[lo:lo + u.length]
        rows.append("\t".join(_table_cell(c) for c in (
            str(u.offset), str(u.length), raw.hex(" "), u.kind, _code_point_cell(u),
            _name_cell(u), ", ".join(u.warnings))))
    return "\n".join(rows) + "\n"


class Selection:
    """What a copy needs from a selection: the selected bytes exactly (``start``,
    ``end``, ``data``), and the units that overlap it with the bytes that hold them
    (``units``, ``unit_data`` starting at ``unit_base``)."""

    __slots__ = ("start", "end", "data", "units", "unit_base", "unit_data", "dialect")

    def __init__(self, start: int, end: int, data: bytes, units: list[Unit], unit_base: int,
                 unit_data: bytes, dialect: str = K.UTF8):
        self.start = start
        self.end = end
        self.data = data
        self.units = units
        self.unit_base = unit_base
        self.unit_data = unit_data
        self.dialect = dialect

    def __repr__(self):
        return f"Selection({self.start}..{self.end}, {len(self.units)} units)"


def read_selection(source, start: int, end: int, origin: int | None = None,
                   dialect: str = K.UTF8) -> Selection:
    """Read the selection [start, end) and the units overlapping it from a byte source,
    cut under ``origin`` and ``dialect`` (any interpretation's name, or one) as the views
    cut them."""
    start = max(0, start)
    end = min(end, source.size)
    if end < start:
        end = start
    data = source.read(start, end - start)
    units = interpretation(dialect).units_in_range(source, start, end, origin)
    if units:
        unit_base = units[0].offset
        unit_data = source.read(unit_base, units[-1].end - unit_base)
    else:
        unit_base, unit_data = start, b""
    return Selection(start, end, data, units, unit_base, unit_data, dialect)


def copy_selection(selection: Selection, fmt: str, **options) -> str:
    """The selection in one of :data:`FORMATS`; ``options`` go to the formatter (for
    instance ``name`` for the C array, ``width`` for the Python literal)."""
    if fmt == HEX:
        return as_hex(selection.data, **options)
    if fmt == PYTHON:
        return as_python(selection.data, **options)
    if fmt == C_ARRAY:
        return as_c_array(selection.data, **options)
    if fmt == TEXT:
        return as_text(selection.unit_data, selection.units, selection.unit_base, selection.dialect)
    if fmt == TABLE:
        return as_table(selection.unit_data, selection.units, selection.unit_base, selection.dialect)
    raise ValueError(f"unknown copy format {fmt!r}; choose one of {', '.join(FORMATS)}")


def copy_bytes(data: bytes, fmt: str, base: int = 0, dialect: str = K.UTF8, **options) -> str:
    """Any of :data:`FORMATS` for bytes held in memory, cut as a stream of their own."""
    data = bytes(data)
    units = interpretation(dialect).cut(data, base) if fmt in (TEXT, TABLE) else []
    return copy_selection(Selection(base, base + len(data), data, units, base, data, dialect),
                          fmt, **options)
