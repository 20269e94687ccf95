"""The unit contract the program ships (resources/docs/utf8-units.md, Help > Unit
contract) says what the decoder does: its table of replacements, its byte classes and
its names are checked against the code."""

import re

import pytest

from inspector import resources_access
from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut

CONTRACT = resources_access.read_text("docs/utf8-units.md")


def table_rows(heading: str) -> list[list[str]]:
    section = CONTRACT.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


REPLACEMENT_ROWS = table_rows("Replacements")


def test_the_replacements_table_is_there():
    assert len(REPLACEMENT_ROWS) >= 8


@pytest.mark.parametrize("row", REPLACEMENT_ROWS, ids=lambda row: row[0])
def test_each_row_of_the_replacements_table(row):
    data = bytes.fromhex(row[0].strip("`"))
    kind = re.search(r"`(\w+)` unit", row[1]).group(1)
    units = cut(data, 0, K.UTF8)
    assert units[0].kind == kind
    assert units[0].replacements == int(row[2])
    assert sum(u.replacements for u in units) == data.decode("utf-8", "replace").count("\ufffd")


def test_the_byte_classes_give_each_lead_its_length():
    lengths = {}
    for span, _cls, length in table_rows("Byte classes (by value)"):
        first, _, last = span.partition("–")
        for b in range(int(first, 16), int(last or first, 16) + 1):
            lengths[b] = length
    assert sorted(lengths) == list(range(256))
    for b, length in lengths.items():
        if length.isdigit() and int(length) > 1:
            full = bytes([b]) + b"\x80" * (int(length) - 1)
            assert cut(full, 0, K.FSS_UTF)[0].length == int(length), hex(b)


def test_the_names_are_the_programs():
    names = set(re.findall(r"`([a-z_]+)`", CONTRACT))
    assert set(K.ERROR_KINDS) <= names
    assert set(K.WARNING_KINDS) <= names
    dialects = {row[0].strip("`") for row in table_rows("Dialects")}
    assert dialects == set(K.DIALECTS) - {K.UTF8}
