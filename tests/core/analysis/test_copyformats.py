"""Copy as: hex, Python literal, C array, decoded text, table of units."""

import ast
import random
import re

import pytest

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import MemorySource
from inspector.core.analysis.copyformats import (
    C_ARRAY, FORMATS, HEX, PYTHON, TABLE, TEXT, TABLE_COLUMNS, as_c_array, as_hex, as_python,
    as_table, as_text, copy_bytes, copy_selection, read_selection,
)

SAMPLE = b"A\xe2\x82\xac\xc0\xaf\tq'\\\"\n\x00\xff\xf0\x9f\x98\x80\xe1\x80"


def test_hex():
    assert as_hex(b"\xe2\x82\xac") == "e2 82 ac"
    assert as_hex(b"\xe2\x82\xac", upper=True) == "E2 82 AC"
    assert as_hex(bytes(range(20)), per_line=8).splitlines()[1] == "08 09 0a 0b 0c 0d 0e 0f"
    assert bytes.fromhex(as_hex(SAMPLE)) == SAMPLE
    assert as_hex(b"") == ""


def test_python_literal_round_trip():
    assert as_python(b"\xe2\x82\xac") == "b'\\xe2\\x82\\xac'"
    rng = random.Random(3)
    for data in [b"", SAMPLE, bytes(range(256)), bytes(rng.randrange(256) for _ in range(5000))]:
        text = as_python(data)
        assert ast.literal_eval(text) == data
        assert all(len(line) <= 80 for line in text.splitlines())
    assert as_python(b"plain text") == "b'plain text'"


def test_c_array():
    assert as_c_array(b"\xe2\x82\xac") == "const unsigned char data[3] = { 0xe2, 0x82, 0xac };"
    text = as_c_array(bytes(range(30)), name="blob", per_line=8)
    assert text.startswith("const unsigned char blob[30] = {\n")
    assert text.endswith("\n};")
    values = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})", text)]
    assert values == list(range(30))
    assert all(len(line) < 80 for line in text.splitlines())
    with pytest.raises(ValueError):
        as_c_array(b"x", name="2bad")
    with pytest.raises(ValueError):
        as_c_array(b"")


def test_text_uses_one_fffd_per_replacement():
    data = b"a\xe0\x80\xafb\xe2\x82\xac\xed\xa0\x80"
    assert as_text(data) == data.decode("utf-8", "replace")
    rng = random.Random(5)
    for _ in range(50):
        blob = bytes(rng.randrange(256) for _ in range(200))
        assert as_text(blob) == blob.decode("utf-8", "replace")


def test_text_dialects():
    pair = b"\xed\xa0\xbd\xed\xb8\x80"
    assert as_text(pair, dialect=K.CESU8) == "😀"
    assert as_text(b"\xc0\x80", dialect=K.MUTF8) == "\x00"
    # A surrogate WTF-8 accepts cannot go to a clipboard: it is copied as U+FFFD.
    assert as_text(b"\xed\xa0\x80", dialect=K.WTF8) == "\ufffd"


def test_table():
    data = b"A\xe2\x82\xac\xc0\xaf\xef\xbb\xbf"
    rows = [r.split("\t") for r in as_table(data).splitlines()]
    assert rows[0] == list(TABLE_COLUMNS)
    assert rows[1] == ["0", "1", "41", "valid", "U+0041", "LATIN CAPITAL LETTER A", ""]
    assert rows[2] == ["1", "3", "e2 82 ac", "valid", "U+20AC", "EURO SIGN", ""]
    assert rows[3][:5] == ["4", "2", "c0 af", "overlong", "U+002F"]
    assert rows[3][5] == K.title(K.OVERLONG)
    assert rows[4][3] == "valid" and rows[4][6] == "zwnbsp"  # U+FEFF not at offset 0
    assert all(len(r) == len(TABLE_COLUMNS) for r in rows)


def test_selection_from_source_covers_whole_units():
    data = b"xy\xe2\x82\xacz\xc0\xaf"
    src = MemorySource(data)
    sel = read_selection(src, 3, 7)  # starts inside the euro sign, ends inside C0 AF
    assert sel.data == data[3:7]
    assert [u.offset for u in sel.units] == [2, 5, 6]
    assert copy_selection(sel, HEX) == "82 ac 7a c0"
    assert copy_selection(sel, TEXT) == "€z\ufffd\ufffd"
    assert copy_selection(sel, TABLE).splitlines()[1].startswith("2\t3\te2 82 ac\tvalid")
    assert ast.literal_eval(copy_selection(sel, PYTHON)) == data[3:7]
    assert copy_selection(sel, C_ARRAY, name="sel").startswith("const unsigned char sel[4]")
    with pytest.raises(ValueError):
        copy_selection(sel, "rtf")


def test_every_format_on_bytes():
    for fmt in FORMATS:
        assert copy_bytes(SAMPLE, fmt)
    assert ast.literal_eval(copy_bytes(SAMPLE, PYTHON)) == SAMPLE
    assert copy_bytes(SAMPLE, TEXT) == SAMPLE.decode("utf-8", "replace")
