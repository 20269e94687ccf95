"""unitinfo: describe, explain, byte roles and value groups, encode, parse_codepoint,
format_text."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.decoder import cut, unit_at
from inspector.core.units.unitinfo import (byte_roles, describe, encode, explain, format_text,
                                     parse_codepoint, value_groups)


def first(data, dialect=K.UTF8):
    return cut(data, 0, dialect)[0]


def info_of(data, dialect=K.UTF8):
    return describe(first(data, dialect), data, dialect)


# ---------------------------------------------------------------- bytes and bit split

def test_three_byte_lead_and_continuations_split():
    info = info_of("€".encode())
    assert [b.hex for b in info.byte_info] == ["E2", "82", "AC"]
    assert [b.octal for b in info.byte_info] == ["342", "202", "254"]
    assert [b.binary for b in info.byte_info] == ["11100010", "10000010", "10101100"]
    assert [b.split for b in info.byte_info] == ["1110|0010", "10|000010", "10|101100"]
    assert [b.role for b in info.byte_info] == ["lead", "continuation", "continuation"]
    assert info.payload_bits == "0010 000010 101100"
    assert int(info.payload_bits.replace(" ", ""), 2) == 0x20AC == info.value
    assert (info.codepoint, info.name, info.category) == ("U+20AC", "EURO SIGN", "Sc")
    assert info.utf16 == (0x20AC,) and info.decimal == 8364


def test_ascii_byte_split():
    info = info_of(b"A")
    assert info.byte_info[0].split == "0|1000001"
    assert info.explanation.startswith("U+0041 LATIN CAPITAL LETTER A")


def test_supplementary_utf16_units():
    info = info_of("😀".encode())
    assert info.utf16 == (0xD83D, 0xDE00)
    assert info.byte_info[0].split == "11110|000"


@pytest.mark.parametrize("data,role", [(b"\x80", "stray_continuation"), (b"\xfe", "invalid"),
                                       (b"\xff", "invalid")])
def test_stray_and_invalid_bytes_have_no_payload_role(data, role):
    info = info_of(data)
    b = info.byte_info[0]
    assert b.role == role and b.payload == "" and b.marker == ""
    assert "no payload role" in b.note
    assert info.value is None and info.codepoint is None and info.payload_bits == ""


@pytest.mark.parametrize("data,dialect,groups", [
    ("€".encode(), K.UTF8, ((0, 3),)), (b"\xc0\xaf", K.UTF8, ((0, 2),)),
    (b"\xed\xa0\xbd\xed\xb8\x80", K.CESU8, ((0, 3), (3, 6))),
    (b"\xed\xa0\xbd\xed\xb8\x80", K.MUTF8, ((0, 3), (3, 6))),
    (b"\xfc\x80\x80\x80\x80\xaf", K.FSS_UTF, ((0, 6),)),
    (b"\xe2\x82", K.UTF8, ()), (b"\x80", K.UTF8, ()), (b"\xff", K.UTF8, ())])
def test_value_groups(data, dialect, groups):
    assert value_groups(first(data, dialect), data) == groups


def test_byte_roles_of_bytes_no_longer_all_there():
    unit = first("€".encode())
    assert [b.role for b in byte_roles(unit, b"\xe2\x82")] == ["lead", "continuation"]


def test_offsets_of_each_byte_follow_the_unit():
    data = b"abc\xe2\x82\xac"
    u = unit_at(MemorySource(data), 4)
    info = describe(u, MemorySource(data))
    assert [b.offset for b in info.byte_info] == [3, 4, 5]


# ------------------------------------------------------------------ explanations

def test_overlong_slash_names_the_character_and_the_attack():
    info = info_of(b"\xc0\xaf")
    assert info.kind == K.OVERLONG and info.value == 0x2F and info.codepoint == "U+002F"
    assert '"/" U+002F' in info.explanation
    assert "2 bytes where 1 byte suffices" in info.explanation
    text = " ".join(info.details)
    assert "validation" in text and "directory traversal" in text
    assert info.shortest == b"/"
    assert info.replacements == 2


def test_overlong_nul_mentions_modified_utf8():
    info = info_of(b"\xc0\x80")
    assert "Modified UTF-8" in " ".join(info.details)


def test_three_byte_overlong_slash():
    info = info_of(b"\xe0\x80\xaf")
    assert "3 bytes where 1 byte suffices" in info.explanation and info.replacements == 3


def test_surrogate_names_cesu8_wtf8_and_java():
    info = info_of(b"\xed\xa0\x80")
    assert "CESU-8" in info.explanation and "WTF-8" in info.explanation
    text = " ".join(info.details)
    assert "Java" in text and "Modified UTF-8" in text
    assert info.name == "<high surrogate>" and info.utf16 == (0xD800,)


def test_high_surrogate_followed_by_low_names_the_pair():
    data = b"\xed\xa0\xbd\xed\xb8\x80"
    info = info_of(data)
    assert "U+1F600" in " ".join(info.details)


def test_cesu8_pair_unit():
    data = b"\xed\xa0\xbd\xed\xb8\x80"
    info = info_of(data, K.CESU8)
    assert info.kind == K.VALID and info.value == 0x1F600
    assert info.surrogate_pair == (0xD83D, 0xDE00)
    assert [b.role for b in info.byte_info] == ["lead", "continuation", "continuation"] * 2
    assert "U+D83D U+DE00" in format_text(info)


def test_truncated_mid_data_names_the_byte_that_cut_it():
    data = b"\xe1\x80A"
    info = info_of(data)
    assert info.missing == 1
    assert "1 missing" in info.explanation and "ASCII byte 41" in info.explanation
    assert info.value is None


def test_truncated_by_a_lead_byte():
    assert "lead byte E2" in explain(first(b"\xf0\x9f\xe2\x82\xac"), b"\xf0\x9f\xe2\x82\xac")


def test_truncated_at_end_of_data():
    info = info_of(b"\xf0\x9f\x98")
    assert info.at_end and info.missing == 1
    assert "data ends" in info.explanation


def test_truncated_at_end_seen_through_a_source():
    data = b"ab\xe2\x82"
    src = MemorySource(data)
    u = unit_at(src, 3)
    assert "data ends" in describe(u, src).explanation


def test_out_of_range_says_rfc_3629():
    info = info_of(b"\xf4\x90\x80\x80")
    assert "U+10FFFF" in info.explanation and "RFC 3629" in info.explanation
    assert info.utf16 == () and info.category is None


def test_legacy_long_form_names_1993():
    info = info_of(b"\xf8\x88\x80\x80\x80")
    assert "1993" in info.explanation and info.length == 5
    assert "RFC 2279" in " ".join(info.details)


def test_stray_continuation_not_preceded_by_a_lead():
    assert "not preceded by a lead" in explain(first(b"\x80"), b"\x80")


def test_stray_continuation_lost_after_an_origin():
    data = "a€b".encode()
    src = MemorySource(data)
    u = unit_at(src, 2, origin=2)
    assert u.kind == K.UNEXPECTED_CONTINUATION
    info = describe(u, src, origin=2)
    assert info.lost and "resynchronization" in info.explanation
    # given plain bytes, the caller says so
    assert "resynchronization" in explain(u, data[2:], lost=True)


def test_fe_ff_never_used():
    assert "never used" in info_of(b"\xfe").explanation
    assert "UTF-16" in " ".join(info_of(b"\xff").details)


def test_warnings_in_words():
    info = info_of("x\u202e".encode()[1:])
    assert [w for w, _ in info.warnings] == [K.BIDI_CONTROL]
    assert "Trojan Source" in info.warnings[0][1]
    info = describe(cut("\u0378".encode())[0], "\u0378".encode())
    assert "Unicode 18" in info.warnings[0][1] or "Unicode" in info.warnings[0][1]


def test_bom_warning():
    info = info_of(b"\xef\xbb\xbf")
    assert info.warnings[0][0] == K.BOM


def test_describe_needs_the_unit_bytes():
    with pytest.raises(ValueError):
        describe(first(b"\xe2\x82\xac"), b"\xe2")


# ---------------------------------------------------------------------- dialects

def test_dialect_readings_of_a_surrogate():
    info = info_of(b"\xed\xa0\x80")
    kinds = {d.dialect: [u.kind for u in d.units] for d in info.dialects}
    assert kinds == {K.UTF8: [K.SURROGATE], K.WTF8: [K.VALID], K.CESU8: [K.SURROGATE],
                     K.MUTF8: [K.SURROGATE], K.FSS_UTF: [K.VALID]}


def test_dialect_readings_of_overlong_nul():
    info = info_of(b"\xc0\x80")
    kinds = {d.dialect: d.units[0].kind for d in info.dialects}
    assert kinds[K.MUTF8] == K.VALID and kinds[K.UTF8] == K.OVERLONG
    assert kinds[K.FSS_UTF] == K.OVERLONG


def test_dialect_readings_of_a_cesu8_pair_seen_from_utf8():
    info = info_of(b"\xed\xa0\xbd\xed\xb8\x80")
    readings = {d.dialect: d for d in info.dialects}
    assert [(u.kind, u.value) for u in readings[K.CESU8].units] == [(K.VALID, 0x1F600)]
    assert [u.kind for u in readings[K.UTF8].units] == [K.SURROGATE]


def test_dialect_readings_of_legacy_form():
    info = info_of(b"\xfc\x84\x80\x80\x80\x80")
    kinds = {d.dialect: d.units[0].kind for d in info.dialects}
    assert kinds[K.FSS_UTF] == K.VALID and kinds[K.UTF8] == K.LEGACY_LONG_FORM


# ------------------------------------------------------------------------ encode

@pytest.mark.parametrize("cp,hexes", [
    (0x41, "41"), (0xA9, "c2 a9"), (0x20AC, "e2 82 ac"), (0x10348, "f0 90 8d 88"),
    (0xD55C, "ed 95 9c"), (0x65E5, "e6 97 a5"), (0x672C, "e6 9c ac"), (0x8A9E, "e8 aa 9e"),
    (0x233B4, "f0 a3 8e b4"), (0xFEFF, "ef bb bf"), (0, "00"), (0x7F, "7f"), (0x80, "c2 80"),
    (0x7FF, "df bf"), (0x800, "e0 a0 80"), (0xFFFF, "ef bf bf"), (0x10000, "f0 90 80 80"),
    (0x10FFFF, "f4 8f bf bf")])
def test_encode_matches_python(cp, hexes):
    e = encode(cp)
    assert e.utf8 == bytes.fromhex(hexes) == chr(cp).encode()
    assert e.kind == K.VALID


def test_encode_round_trips_through_the_decoder():
    for cp in list(range(0, 0x900, 7)) + list(range(0x10000, 0x10FFFF, 4099)):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        u = cut(encode(cp).utf8)[0]
        assert (u.kind, u.value) == (K.VALID, cp)


def test_encode_layout_text():
    assert encode(0x20AC).layout == ("U+20AC = 0010 000010 101100 -> "
                                    "11100010 10000010 10101100 = E2 82 AC")


def test_encode_overlong_spellings():
    e = encode("/")
    assert e.overlongs == (b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",
                           b"\xf8\x80\x80\x80\xaf", b"\xfc\x80\x80\x80\x80\xaf")
    for spelling in e.overlongs:
        u = cut(spelling)[0]
        assert u.value == 0x2F and u.length == len(spelling)
        assert u.kind in (K.OVERLONG, K.LEGACY_LONG_FORM)
    assert encode(0x20AC).overlongs[0] == b"\xf0\x82\x82\xac"
    assert encode(0x10FFFF).overlongs == (b"\xf8\x84\x8f\xbf\xbf", b"\xfc\x80\x84\x8f\xbf\xbf")


def test_encode_cesu8_and_mutf8():
    e = encode(0x1F600)
    assert e.cesu8 == b"\xed\xa0\xbd\xed\xb8\x80" == e.mutf8
    assert cut(e.cesu8, 0, K.CESU8)[0].value == 0x1F600
    assert encode(0).mutf8 == b"\xc0\x80" and encode(0).cesu8 == b"\x00"
    assert encode("é").cesu8 == "é".encode()


def test_encode_surrogate_is_flagged():
    e = encode(0xD800)
    assert e.utf8 == b"\xed\xa0\x80" and e.kind == K.SURROGATE


def test_encode_refuses_above_10ffff_unless_legacy():
    with pytest.raises(ValueError, match="above U\\+10FFFF"):
        encode(0x110000)
    e = encode(0x110000, legacy=True)
    assert e.utf8 == b"\xf4\x90\x80\x80" and e.kind == K.OUT_OF_RANGE
    e = encode(0x7FFFFFFF, legacy=True)
    assert e.utf8 == b"\xfd\xbf\xbf\xbf\xbf\xbf" and e.kind == K.LEGACY_LONG_FORM
    assert e.template.startswith("1111110")
    with pytest.raises(ValueError, match="1993"):
        encode(0x80000000, legacy=True)
    with pytest.raises(ValueError, match="negative"):
        encode(-1)


def test_encode_accepts_a_character_and_text():
    assert encode("€").utf8 == encode("U+20AC").utf8 == encode(0x20AC).utf8


# -------------------------------------------------------------------- parse_codepoint

@pytest.mark.parametrize("text,cp", [
    ("U+20AC", 0x20AC), ("u+20ac", 0x20AC), ("0x20AC", 0x20AC), ("0X20ac", 0x20AC),
    ("20AC", 0x20AC), ("\\u20AC", 0x20AC), ("\\U0001F600", 0x1F600), ("€", 0x20AC),
    ("A", 0x41), ("7", 0x37), (" ", 0x20), ("  U+41  ", 0x41), ("41", 0x41),
    ("U+10FFFF", 0x10FFFF), ("U+7FFFFFFF", 0x7FFFFFFF), ("😀", 0x1F600)])
def test_parse_codepoint(text, cp):
    assert parse_codepoint(text) == cp


@pytest.mark.parametrize("text", ["", "   ", "U+", "U+XYZ", "hello", "0x", "U+80000000",
                                  "12 34", "-5"])
def test_parse_codepoint_errors(text):
    with pytest.raises(ValueError):
        parse_codepoint(text)


# ------------------------------------------------------------------------ format_text

def test_format_text_holds_everything():
    text = format_text(info_of(b"\xc0\xaf"))
    for piece in ("C0 AF", "110|00000", "10|101111", "U+002F", "SOLIDUS", "overlong",
                  "Shortest form: 2F", "Replacements: 2", "fss-utf", "300", "257"):
        assert piece in text, piece


def test_format_text_of_every_demo_unit_kind():
    samples = [b"a", "é".encode(), b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
               b"\xf8\x88\x80\x80\x80", b"\xe2\x82", b"\x80", b"\xfe", b"\xef\xbb\xbf",
               b"\x07", "\U0010ffff".encode()]
    for data in samples:
        text = format_text(info_of(data))
        assert text.startswith("Unit at offset 0x0")
        assert "In each dialect:" in text


def test_to_dict_is_json_ready():
    import json

    d = info_of(b"\xed\xa0\xbd\xed\xb8\x80").to_dict()
    json.dumps(d)
    assert d["kind"] == K.SURROGATE and d["codepoint"] == 0xD83D
    assert d["dialects"][K.CESU8][0]["codepoint"] == 0x1F600


# ------------------------------------------------------------------------- samples

SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[3] / "resources" / "samples"


def test_joined_bits():
    assert info_of("€".encode()).joined_bits == "0010000010101100"


def test_describe_from_a_source_that_shrank():
    src = MemorySource(b"\xe2\x82\xac")
    u = cut(b"ab\xe2\x82\xac", 0)[2]      # a unit at offset 2 the source no longer holds
    with pytest.raises(ValueError, match="could be read"):
        describe(u, src)


@pytest.mark.parametrize("name,dialect", [("demo.txt", K.UTF8), ("cesu8.txt", K.CESU8),
                                          ("mutf8.bin", K.MUTF8), ("latin1.txt", K.UTF8)])
def test_every_unit_of_the_samples_can_be_described(name, dialect):
    data = (SAMPLES / name).read_bytes()
    src = MemorySource(data)
    for u in cut(data, 0, dialect):
        if u.kind == K.VALID and not u.warnings and u.length == 1:
            continue  # plain ASCII: nothing new, and it keeps the test quick
        info = describe(u, src, dialect)
        assert info.bytes == data[u.offset:u.end]
        assert format_text(info)
        assert explain(u, src, dialect) == info.explanation


def test_samples_are_current():
    """The committed samples and SAMPLES.md are what make_samples.py writes now."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(SAMPLES / "make_samples.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_truncated_by_the_chosen_origin():
    data = b"a\xe2\x82\xacb"
    src = MemorySource(data)
    u = unit_at(src, 1, origin=3)
    assert u.kind == K.TRUNCATED and u.end == 3
    assert "origin" in describe(u, src, origin=3).explanation
    assert "origin" in explain(u, src, origin=3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(
    [b"a", b"\x00", b"\x80", b"\xc0\xaf", b"\xc0\x80", b"\xe2\x82\xac", b"\xe2\x82",
     b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xed\xa0\xbd\xed\xb8\x80", b"\xef\xbb\xbf",
     b"\xf0\x9f\x98\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80",
     b"\xfc\x84\x80\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf", b"\xfe", b"\xff"]),
    max_size=12).map(b"".join) | st.binary(max_size=40),
    st.sampled_from(K.DIALECTS))
def test_every_unit_of_every_dialect_can_be_described(data, dialect):
    """Whatever the bytes and the dialect, every unit has an explanation (a 6-byte 1993
    form, valid in FSS-UTF, was once taken for a CESU-8 surrogate pair and raised)."""
    for unit in cut(data, dialect=dialect):
        info = describe(unit, data[unit.offset:], dialect)
        assert info.explanation


def test_a_1993_six_byte_form_in_fss_utf():
    data = b"\xfc\x84\x80\x80\x80\x80"
    unit = cut(data, dialect=K.FSS_UTF)[0]
    assert unit.kind == K.VALID and unit.value == 0x4000000
    info = describe(unit, data, K.FSS_UTF)
    assert "4000000" in info.explanation and "surrogate" not in " ".join(info.details)
