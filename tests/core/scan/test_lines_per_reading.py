"""Lines and columns in every reading (the unit contract's "Lines and columns"): each
way of finding line feeds, the scan's line index, the CSV, checked against the
definition over the reading's own units and against CPython's decoder, on hypothesis
data in many encodings, clean and damaged."""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.report import write_csv
from inspector.core.scan import lines as L
from inspector.core.scan.linefeeds import (ByteFeeds, CutFeeds, EdgeFeeds, MapFeeds,
                                           WideFeeds, feeds_of)
from inspector.core.scan.readings.mapreading import MapReading
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation

from tests.core.units.test_other_encodings import TWO_POINT_TEXT, damaged

CODECS = ["utf-16-le", "utf-16-be", "utf-16", "utf-32-le", "utf-32-be", "utf-32", "cp1252",
          "koi8-r", "cp037", "shift_jis", "euc_jp", "gb18030", "big5", "big5hkscs", "euc_kr",
          "shift_jis_2004", "euc_jis_2004", "utf-8", "cesu-8"]
# State-carrying codecs on damaged data: the whole file's cut carries a broken shift
# state over a line feed, which the contract's "each line read from ASCII" does not
# (the codec's resynchronization, not the line count); clean text below.
STATEFUL = ["iso2022_jp", "iso2022_jp_2004", "iso2022_jp_2"]
LINES = ["first line\n", "ligne « deux »\r\n", "日本語\n", "\u0a0d\u0a0a mixed\n", "\n",
         TWO_POINT_TEXT, "Привет\n", "😀 end"]


def spec(units, off: int) -> tuple[int, int]:
    """The definition over the reading's units: 1 plus the line feeds before; 1 plus the
    characters of each unit since the line's start."""
    line, col = 1, 1
    for u in units:
        if u.offset >= off:
            break
        if u.kind == K.VALID and u.value == 10:
            line, col = line + 1, 1
        else:
            col += u.width
    return line, col


def python_reference(data: bytes, codec: str, units, off: int) -> tuple[int, int]:
    """The same from CPython's replacing decoder of the bytes up to the unit (valid
    data, no byte order mark)."""
    text = data[:off].decode(codec, "replace")
    return text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1


@st.composite
def case(draw):
    codec = draw(st.sampled_from(CODECS))
    reading = interpretation(codec)
    if draw(st.booleans()):
        text = "".join(draw(st.lists(st.sampled_from(LINES), min_size=1, max_size=8)))
        data = text.encode(codec if not reading.is_utf8 else "utf-8", "replace")
        if draw(st.booleans()):
            data = bytearray(data)
            for _ in range(draw(st.integers(1, 3))):
                i = draw(st.integers(0, len(data)))
                data[i:i] = bytes([draw(st.sampled_from([0x0A, 0x00, 0x0D, 0x88, 0xE3, 0x1B]))])
            data = bytes(data)
    else:
        data = damaged(draw, codec) if not reading.is_utf8 else draw(st.binary(max_size=80))
    return codec, data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case())
def test_line_and_column_of_every_unit_follow_the_definition(c):
    codec, data = c
    reading = interpretation(codec)
    source = MemorySource(data)
    units = reading.units_in_range(source, 0, len(data))
    offsets = [u.offset for u in units]
    want = [spec(units, o) for o in offsets]
    assert [L.line_column(source, o, dialect=codec) for o in offsets] == want
    assert L.line_columns(source, offsets, dialect=codec) == want
    # Where each line starts, and the way back from a line number.
    starts = [0] + [u.end for u in units if u.kind == K.VALID and u.value == 10]
    for n, start in enumerate(starts, 1):
        assert L.offset_of_line(source, n, dialect=codec) == start
        assert L.locate_line(source, n, dialect=codec) == start
    assert L.offset_of_line(source, len(starts) + 1, dialect=codec) is None
    # The scan's index counts the same line feeds.
    result = scan(source, codec, block_size=64)
    assert int(result.index.lf.sum()) == len(starts) - 1
    for o, w in zip(offsets, want):
        assert L.line_column(source, o, index=result.index, dialect=codec) == w
        assert L.line_of_offset(source, o, result.index, 0, codec) == w[0]
    for n, start in enumerate(starts, 1):
        assert L.locate_line(source, n, result.index, 0, codec) == start


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([c for c in CODECS + STATEFUL if c not in ("cesu-8", "utf-16", "utf-32")]),
       st.lists(st.sampled_from(LINES), min_size=1, max_size=8))
def test_on_clean_text_they_are_what_cpython_decodes(codec, parts):
    text = "".join(parts)
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        data = "".join(p for p in parts if p.isascii()).encode(codec)
    reading = interpretation(codec)
    source = MemorySource(data)
    for u in reading.units_in_range(source, 0, len(data)):
        assert L.line_column(source, u.offset, dialect=codec) == \
            python_reference(data, codec, None, u.offset)


def test_utf16_line_feeds_are_aligned_code_units():
    data = "a\u0a0d\u0a0a\nb".encode("utf-16-le")   # 61 00 0D 0A 0A 0A 0A 00 62 00
    source = MemorySource(data)
    assert data.count(b"\n") == 4
    assert L.lines_before(source, len(data), dialect="utf-16-le") == 1
    assert L.line_column(source, 6, dialect="utf-16-le") == (1, 4)
    assert L.line_column(source, 8, dialect="utf-16-le") == (2, 1)
    be = "\u0a0a\n".encode("utf-16-be")        # 0A 0A 00 0A
    assert L.lines_before(MemorySource(be), 4, dialect="utf-16-be") == 1
    # Read from an odd offset, the 0A 00 pairs are not line feeds.
    assert L.lines_before(MemorySource(b"\x00" + data), 11, dialect="utf-16-le") == 0


def test_a_line_feed_in_a_sequence_cut_short_by_the_end_is_none():
    data = b"a\n\xbe\x37\n"   # GB18030: BE 37 0A at the end is one incomplete form
    assert L.lines_before(MemorySource(data), len(data), dialect="gb18030") == 1
    assert L.offset_of_line(MemorySource(data), 3, dialect="gb18030") is None


def test_the_contract_examples():
    assert L.line_column(MemorySource(b"a\nbc"), 3) == (2, 2)
    assert L.line_column(MemorySource(bytes.fromhex("61000a0062006300")), 6,
                         dialect="utf-16-le") == (2, 2)
    assert L.line_column(MemorySource(bytes.fromhex("0d0a6200")), 2,
                         dialect="utf-16-le") == (1, 2)
    assert L.line_column(MemorySource(bytes.fromhex("886241")), 2,
                         dialect="big5hkscs") == (1, 3)


def test_each_reading_gets_the_cheapest_exact_feeds():
    src = MemorySource(b"")
    assert isinstance(feeds_of("utf-8", src), ByteFeeds)
    assert isinstance(feeds_of("mutf-8", src), ByteFeeds)
    assert feeds_of("cp1252", src).byte == b"\n"
    assert feeds_of("cp037", src).byte == b"\x25"
    assert isinstance(feeds_of("shift_jis", src), EdgeFeeds)
    assert isinstance(feeds_of("euc_kr", src), EdgeFeeds)
    assert isinstance(feeds_of("utf-16", MemorySource(b"\xfe\xff")), WideFeeds)
    assert feeds_of("utf-16", MemorySource(b"\xfe\xff")).dtype.byteorder == ">"
    assert isinstance(feeds_of("iso2022_jp", src), CutFeeds)


def test_the_maps_reading_counts_each_regions_own_line_feeds():
    head = "one\ntwo\n".encode("utf-16-le")
    tail = "три\nчотири".encode("koi8-r")
    data = head + tail
    reading = MapReading.of([(0, len(head), "utf-16-le"), (len(head), len(data), "koi8-r")],
                            len(data))
    source = MemorySource(data)
    assert isinstance(feeds_of(reading, source), MapFeeds)
    assert L.lines_before(source, len(data), dialect=reading) == 3
    assert L.offset_of_line(source, 4, dialect=reading) == len(head) + 4
    assert L.line_column(source, len(data) - 1, dialect=reading) == (4, 6)
    assert L.line_column(source, 6, dialect=reading) == (1, 4)   # the first LF


def _csv_rows(data: bytes, dialect) -> list[dict]:
    out = io.StringIO()
    write_csv(out, MemorySource(data), dialect)
    return list(csv.DictReader(io.StringIO(out.getvalue())))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case())
def test_the_csv_counts_lines_and_columns_in_the_reading(c):
    codec, data = c
    reading = interpretation(codec)
    source = MemorySource(data)
    units = reading.units_in_range(source, 0, len(data))
    want = [(u.offset, *spec(units, u.offset)) for u in units if u.kind != K.VALID]
    rows = _csv_rows(data, codec)
    assert [(int(r["offset"]), int(r["line"]), int(r["column"])) for r in rows] == want


def test_the_csv_in_utf16_and_after_a_two_code_point_character():
    data = "ab\ncd".encode("utf-16-le") + b"\x00\xd8" + "x".encode("utf-16-le")
    rows = _csv_rows(data, "utf-16-le")
    assert [(r["offset"], r["line"], r["column"]) for r in rows] == [("10", "2", "3")]
    data = b"\x88\x62\x88\xa5\xff\n\x88\x62\xff"
    rows = _csv_rows(data, "big5hkscs")
    assert [(r["line"], r["column"]) for r in rows] == [("1", "5"), ("2", "3")]
