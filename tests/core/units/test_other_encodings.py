"""The other interpretations (the unit contract's "Other interpretations"): every unit
checked against Python's own decoder, on hypothesis data in every encoding, clean and
damaged.

- units tile the bytes;
- the valid units' characters, with one U+FFFD per problem unit, are what
  ``bytes.decode(codec, errors)`` gives with a handler that writes U+FFFD, and the
  problem units are exactly the byte ranges the decoder reports as errors;
- a range cut on its own (from any start, any end) is the same units as the whole cut;
- decoding from an origin: what is lost, and where it is back in step.
"""

from __future__ import annotations

import codecs

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.scan.readings.mapreading import MapReading
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K
from inspector.core.units.encodings import codecnames
from inspector.core.units.interpretation import interpretation, title_of

TEXTS = ["Le café est prêt. À bientôt, œuvre “quotes” €5\n",
         "Привет, мир! Съешь же ещё этих мягких французских булок.\n",
         "日本語のテキストです。半角ｶﾀｶﾅ ABC 123 漢字\n",
         "中文文本，繁體中文。😀 € 한국어 텍스트\n",
         "Ελληνικά, עברית, العربية, Türkçe, ąčęėįšųūž, Tiếng Việt, ภาษาไทย\n"]

CODECS = ["cp1252", "iso8859-1", "iso8859-15", "cp1250", "cp1251", "koi8-r", "koi8-u",
          "cp1253", "cp1255", "cp1256", "cp1254", "cp1257", "cp1258", "cp874", "cp437",
          "cp850", "cp866", "mac-roman", "shift_jis", "cp932", "euc_jp", "gb18030", "gbk",
          "gb2312", "big5", "big5hkscs", "euc_kr", "cp949", "johab", "utf-16-le",
          "utf-16-be", "utf-16", "utf-32-le", "utf-32-be", "utf-32",
          "shift_jis_2004", "euc_jis_2004", "shift_jisx0213", "euc_jisx0213"]
# Characters some codecs write as one sequence that decodes to two code points (four
# Big5-HKSCS pairs, JIS X 0213 kana with a semi-voiced mark): one unit each, its
# ``more`` the second code point.
TWO_POINT_TEXT = "Ê\u0304Ê\u030cê\u0304ê\u030c か\u309aき\u309aセ\u309a ab\n"
TEXTS.append(TWO_POINT_TEXT)


def encodable(text: str, codec: str) -> bytes:
    return text.encode(codec, "replace")


def reference(data: bytes, codec: str) -> tuple[str, list[tuple[int, int]]]:
    """Python's decoder: its text (U+FFFD per error) and the byte ranges of its errors."""
    errors = []

    def handler(e):
        errors.append((e.start, e.end))
        return "\ufffd", e.end

    codecs.register_error("test-reference", handler)
    return data.decode(codec, "test-reference"), errors


def text_of(units, data: bytes, codec: str) -> str:
    out = []
    for i, u in enumerate(units):
        if u.kind == K.VALID:
            # Python's utf-16 / utf-32 decoders take the byte order mark and write nothing.
            marks = {"utf-16": (b"\xff\xfe", b"\xfe\xff"),
                     "utf-32": (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")}.get(codec, ())
            if i == 0 and u.value == 0xFEFF and data[:len(marks[0]) if marks else 0] in marks:
                continue
            out.append(u.text)
        else:
            out.append("\ufffd" * u.replacements)
    return "".join(out)


def check_against_python(data: bytes, codec: str) -> None:
    reading = interpretation(codec)
    units = reading.cut(data)
    pos = 0
    for u in units:
        assert u.offset == pos, (codec, data, units)
        assert u.length >= 1
        pos += u.length
    assert pos == len(data)
    text, errors = reference(data, codec)
    assert text_of(units, data, codec) == text, (codec, data)
    assert [(u.offset, u.end) for u in units if u.kind != K.VALID] == errors, (codec, data)
    for u in units:
        assert u.kind == K.VALID or u.kind in reading.problem_kinds
        if u.kind == K.VALID:
            assert u.replacements == 0 and u.value is not None
        else:
            assert u.replacements == 1


def damaged(draw, codec: str) -> bytes:
    text = draw(st.sampled_from(TEXTS)) * draw(st.integers(1, 3))
    data = bytearray(encodable(text, codec))
    for _ in range(draw(st.integers(0, 4))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        how = draw(st.sampled_from(("flip", "cut", "insert")))
        if how == "flip":
            data[i] = draw(st.integers(0, 255))
        elif how == "cut":
            del data[i]
        else:
            data.insert(i, draw(st.integers(0, 255)))
    return bytes(data)


@st.composite
def encoded(draw):
    codec = draw(st.sampled_from(CODECS))
    if draw(st.booleans()):
        return codec, damaged(draw, codec)
    return codec, draw(st.binary(max_size=80))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encoded())
def test_every_unit_agrees_with_pythons_decoder(case):
    codec, data = case
    check_against_python(data, codec)


@pytest.mark.parametrize("codec", CODECS)
def test_clean_text_is_all_valid_and_reads_back(codec):
    text = "".join(TEXTS)
    data = encodable(text, codec)
    units = interpretation(codec).cut(data)
    assert all(u.kind == K.VALID for u in units)
    check_against_python(data, codec)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_range_cut_on_its_own_is_the_whole_cut(data):
    codec, raw = data.draw(encoded())
    if len(raw) < 2:
        return
    reading = interpretation(codec)
    whole = reading.cut(raw)
    start = data.draw(st.integers(0, len(raw) - 1))
    end = data.draw(st.integers(start + 1, len(raw)))
    part = reading.units_in_range(MemorySource(raw), start, end)
    assert part == [u for u in whole if u.offset < end and u.end > start]
    for offset in (start, end - 1):
        assert reading.unit_start(MemorySource(raw), offset) == next(
            u.offset for u in whole if u.offset <= offset < u.end)


def test_a_surrogate_pair_is_one_four_byte_unit_and_a_lone_half_a_problem():
    data = "A😀".encode("utf-16-le") + b"\x00\xdc" + "B".encode("utf-16-le")
    units = interpretation("utf-16-le").cut(data)
    assert [(u.length, u.kind, u.value) for u in units] == [
        (2, K.VALID, 0x41), (4, K.VALID, 0x1F600), (2, K.UNPAIRED_SURROGATE, 0xDC00),
        (2, K.VALID, 0x42)]


def test_a_gb18030_four_byte_sequence_is_one_unit():
    data = "€😀".encode("gb18030")
    units = interpretation("gb18030").cut(data)
    assert [(u.length, u.value) for u in units] == [(2, 0x20AC), (4, 0x1F600)]


def test_utf32_above_the_last_code_point_is_out_of_range():
    units = interpretation("utf-32-le").cut(b"\x00\x00\x11\x00A\x00\x00\x00")
    assert [(u.kind, u.value) for u in units] == [(K.OUT_OF_RANGE, 0x110000), (K.VALID, 0x41)]


def test_the_byte_order_mark_decides_and_is_a_bom_unit():
    data = "hé".encode("utf-16")  # the machine's order, with its mark
    be = b"\xfe\xff" + "hé".encode("utf-16-be")
    for raw in (data, be):
        units = interpretation("utf-16").cut(raw)
        assert [u.value for u in units] == [0xFEFF, 0x68, 0xE9]
        assert units[0].warnings == (K.BOM,)


def test_names_are_normalised_and_titled():
    assert interpretation("Windows-1252").name == "cp1252"
    assert interpretation("latin_1").name == "iso8859-1"
    assert interpretation("UTF8").name == K.UTF8
    assert interpretation("utf-8-sig").name == K.UTF8
    assert title_of("sjis") == "Shift_JIS"
    for bad in ("no-such-codec", "base64", "rot13", ""):
        with pytest.raises(ValueError):
            interpretation(bad)
    with pytest.raises(ValueError, match="map"):
        interpretation("map")
    for _group, names in codecnames.GROUPS:
        for name in names:
            assert interpretation(name).name == name


def test_utf16_from_an_odd_offset_is_never_back_in_step():
    data = ("text " * 40).encode("utf-16-le")
    reading = interpretation("utf-16-le")
    r = reading.resync(MemorySource(data), 3)
    assert not r.in_step and r.sync_offset == len(data)
    assert reading.resync(MemorySource(data), 4).lost == []


def test_big5_from_mid_character_runs_until_a_byte_that_must_start_one():
    text = "中文文本" * 16 + "\n" + "中文" * 4   # every byte A1-FE: no boundary byte
    data = text.encode("big5")
    reading = interpretation("big5")
    r = reading.resync(MemorySource(data), 1)
    assert r.in_step
    # The misreading runs through the double-byte text, back in step at the line feed.
    assert r.sync_offset == data.index(b"\n")
    assert r.lost_bytes > 100
    assert interpretation("utf-8").resync(MemorySource(data), 1).lost_bytes <= 3


def test_shift_jis_falls_back_in_step_after_any_byte_that_leads_nothing():
    data = "日本語のテキストABCです".encode("shift_jis")
    r = interpretation("shift_jis").resync(MemorySource(data), 1)
    assert r.in_step and r.sync_offset <= data.index(b"ABC") + 1


def test_iso2022_resynchronizes_at_line_starts():
    text = "日本語のテキスト\nABC です\n" * 3
    data = text.encode("iso2022_jp")
    reading = interpretation("iso2022_jp")
    units = reading.cut(data)
    assert "".join(chr(u.value) for u in units) == text
    # A line read on its own, from its start, reads as in the whole.
    second = data.index(b"\n") + 1
    assert reading.units_in_range(MemorySource(data), second, len(data)) == [
        u for u in units if u.offset >= second]


def test_a_long_run_without_a_boundary_byte_is_cut_afresh_at_the_grid():
    from inspector.core.units.encodings.multibyte import SYNC_GRID

    data = ("中文" * (SYNC_GRID // 2)).encode("gbk")   # 2 * SYNC_GRID bytes, no ASCII
    reading = interpretation("gbk")
    source = MemorySource(data)
    # The same units whichever range asks: a page past the grid agrees with one before.
    a = reading.units_in_range(source, SYNC_GRID - 100, SYNC_GRID + 100)
    b = reading.units_in_range(source, SYNC_GRID + 2, SYNC_GRID + 50)
    assert [u for u in a if u.offset >= SYNC_GRID + 2 and u.offset < SYNC_GRID + 50] == b
    assert all(u.kind == K.VALID for u in a)


def test_the_encoding_maps_reading_reads_each_region_in_its_own_encoding():
    a = "Hello wörld\n".encode()
    b = "Le café est prêt\n".encode("cp1252")
    c = "Привет\n".encode("koi8-r")
    source = MemorySource(a + b + c)
    reading = MapReading.of([(0, len(a), "utf-8"), (len(a), len(a + b), "cp1252"),
                             (len(a + b), len(a + b + c), "koi8-r")], source.size)
    units = reading.units_in_range(source, 0, source.size)
    assert "".join(chr(u.value) for u in units) == "Hello wörld\nLe café est prêt\nПривет\n"
    assert reading.reading_at(len(a)).name == "cp1252"
    # A character never runs over a region's edge: a UTF-8 lead at the end of a region.
    cut = MapReading.of([(0, 2, "utf-8"), (2, 4, "cp1252")], 4)
    units = cut.units_in_range(MemorySource(b"A\xc3\xa9B"), 0, 4)
    assert [(u.offset, u.kind) for u in units] == [(0, K.VALID), (1, K.TRUNCATED),
                                                   (2, K.VALID), (3, K.VALID)]
    assert units[2].value == 0xA9


def test_every_reading_writes_what_it_reads():
    for name in ("cp1252", "koi8-r", "shift_jis", "utf-16-be", "gb18030"):
        reading = interpretation(name)
        assert reading.encode(0x41) == "A".encode(name)
    with pytest.raises(ValueError):
        interpretation("cp1252").encode(0x4E2D)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["日本語", "ABC", " ", "テキスト", "\n", "ｶﾀｶﾅ", "123"]),
                max_size=30))
def test_iso2022_stretch_by_stretch_is_the_byte_by_byte_cut(parts):
    import numpy as np

    data = "".join(parts).encode("iso2022_jp", "replace")
    reading = interpretation("iso2022_jp")
    fast = reading.page_cut(data)
    slow = reading.by_bytes(data, [], True)
    for got, want in zip((fast.offset, fast.length, fast.value), slow[:1] + slow[1:2] + slow[3:4]):
        assert np.array_equal(got, want)
