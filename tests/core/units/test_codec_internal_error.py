"""CPython's ISO-2022-JP-2 decoder raises RuntimeError ("internal codec error") on ESC N
after ESC . J instead of reporting an error: the bytes are a problem unit, the reading
goes on, and a scan's verdict (which asks chardet and tries the escape encodings) is
still made."""

import codecs

import pytest

from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation

BROKEN = b"\x1b.J\x1bN"
TEXT = "Hello \u3053\u3093\u306b\u3061\u306f world\n".encode("iso2022_jp_2")


def test_pythons_decoder_still_fails_so_the_test_means_something():
    with pytest.raises(RuntimeError):
        (BROKEN + b"xy").decode("iso2022_jp_2", "replace")


@pytest.mark.parametrize("data", [
    BROKEN + b"xy\n", b"ab" + BROKEN + b"xy\ncd", TEXT + BROKEN + b"\xa1\xa1 q\n" + TEXT,
    BROKEN, BROKEN + b"x" + BROKEN + b"y\n" + BROKEN])
def test_the_bytes_are_a_problem_unit_and_the_reading_goes_on(data):
    units = interpretation("iso2022_jp_2").cut(data)
    pos = 0
    for u in units:
        assert u.offset == pos and u.length >= 1
        pos += u.length
    assert pos == len(data)
    assert any(u.kind == K.UNDECODABLE for u in units)
    broken = data.find(BROKEN)
    assert all(u.kind == K.VALID for u in units if u.end <= broken)
    # The lines without the broken bytes read as Python reads them.
    for line in data.split(b"\n")[:-1]:
        if BROKEN not in line:
            start = data.find(line + b"\n")
            text = "".join(u.text for u in units if start <= u.offset < start + len(line) + 1)
            assert text == (line + b"\n").decode("iso2022_jp_2")


def test_a_page_anywhere_is_cut_as_the_whole():
    data = (TEXT + BROKEN + b"xy\n") * 40
    whole = [(u.offset, u.length, u.kind) for u in interpretation("iso2022_jp_2").cut(data)]
    source = MemorySource(data)
    for start in range(0, len(data), 37):
        page = interpretation("iso2022_jp_2").units_in_range(source, start, start + 100)
        got = [(u.offset, u.length, u.kind) for u in page]
        assert set(got) <= set(whole) and got, start


def test_the_verdict_is_made():
    source = MemorySource(TEXT + BROKEN + b"xy\n" + TEXT)
    judged = verdict(scan(source), source)
    assert judged.code and judged.text


def test_the_other_decoders_of_the_family_report_errors_as_usual():
    for codec in ("iso2022_jp", "iso2022_jp_1", "iso2022_jp_3", "iso2022_jp_ext"):
        codecs.decode(BROKEN + b"xy", codec, "replace")
