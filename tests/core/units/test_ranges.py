"""Byte ranges are written one way (the unit contract's "Byte ranges"): half-open, the
length beside them, hex in the window and the reports, decimal in the command line."""

import pytest

from inspector import resources_access
from inspector.core.units.ranges import byte_range, length_text, offset_text


def test_a_range_is_half_open_with_its_length():
    assert byte_range(0xB5E, 0xD1B) == "0xB5E\u20130xD1B (445 bytes)"
    assert byte_range(2910, 3355, decimal=True) == "2,910\u20133,355 (445 bytes)"
    assert byte_range(0, 1) == "0x0\u20130x1 (1 byte)"
    assert byte_range(7, 7, decimal=True) == "7\u20137 (0 bytes)"
    assert byte_range(0, 1 << 32) == "0x0\u20130x100000000 (4,294,967,296 bytes)"


def test_the_parts():
    assert offset_text(255) == "0xFF" and offset_text(1234567, decimal=True) == "1,234,567"
    assert length_text(1) == "1 byte" and length_text(1000) == "1,000 bytes"


def test_a_range_cannot_end_before_it_starts():
    with pytest.raises(ValueError):
        byte_range(10, 9)


def test_the_contracts_examples_are_what_the_code_writes():
    contract = resources_access.read_text("docs/utf8-units.md")
    section = contract.split("## Byte ranges\n", 1)[1].split("\n## ", 1)[0]
    assert "`0xB5E\u20130xD1B (445 bytes)`" in section
    assert "`2,910\u20133,355 (445 bytes)`" in section
    assert byte_range(2910, 3355) == "0xB5E\u20130xD1B (445 bytes)"
    assert '"start": 2910, "end": 3355' in section
    assert "inspector.core.units.ranges.byte_range" in section
