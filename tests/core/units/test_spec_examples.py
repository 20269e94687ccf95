"""Every example in the unit contract (resources/docs/utf8-units.md), and the worked
examples of the UTF-8 standard (RFC 3629 section 7 / Unicode chapter 3) in both
directions, exactly."""

import pytest

from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.decoder import resync, unit_at
from inspector.core.units.unitinfo import encode


def one(data: bytes, dialect: str = K.UTF8):
    units = cut(data, 0, dialect)
    assert len(units) == 1, units
    return units[0]


# ------------------------------------------------------------ the spec's byte classes

@pytest.mark.parametrize("byte,kind", [
    (0x00, K.VALID), (0x41, K.VALID), (0x7F, K.VALID),
    (0x80, K.UNEXPECTED_CONTINUATION), (0xBF, K.UNEXPECTED_CONTINUATION),
    (0xFE, K.INVALID_BYTE), (0xFF, K.INVALID_BYTE),
])
def test_single_byte_classes(byte, kind):
    u = one(bytes([byte]))
    assert (u.kind, u.length) == (kind, 1)
    assert u.replacements == (0 if kind == K.VALID else 1)
    assert u.value == (byte if kind == K.VALID else None)


@pytest.mark.parametrize("lead,length", [
    (0xC0, 2), (0xC1, 2), (0xC2, 2), (0xDF, 2), (0xE0, 3), (0xEF, 3), (0xF0, 4), (0xF4, 4),
    (0xF5, 4), (0xF7, 4), (0xF8, 5), (0xFB, 5), (0xFC, 6), (0xFD, 6),
])
def test_structural_length_of_each_lead(lead, length):
    u = one(bytes([lead]) + b"\x80" * (length - 1) + b"\x80" * 0)
    assert u.length == length
    # one more continuation byte is a separate stray unit
    units = cut(bytes([lead]) + b"\x80" * length)
    assert [x.length for x in units] == [length, 1]
    assert units[1].kind == K.UNEXPECTED_CONTINUATION


def test_c0_c1_always_overlong():
    for lead in (0xC0, 0xC1):
        for cont in (0x80, 0xBF):
            assert one(bytes([lead, cont])).kind == K.OVERLONG


def test_f5_to_f7_always_above_range():
    for lead in (0xF5, 0xF6, 0xF7):
        u = one(bytes([lead, 0x80, 0x80, 0x80]))
        assert u.kind == K.OUT_OF_RANGE and u.value > 0x10FFFF


def test_5_and_6_byte_forms_are_legacy():
    assert one(b"\xf8\x88\x80\x80\x80").kind == K.LEGACY_LONG_FORM
    assert one(b"\xfc\x84\x80\x80\x80\x80").kind == K.LEGACY_LONG_FORM
    # the 1993 form takes precedence over overlong
    assert one(b"\xf8\x80\x80\x80\xaf").kind == K.LEGACY_LONG_FORM


# ------------------------------------------------------------- the spec's named examples

def test_e0_80_af_overlong_slash_three_replacements():
    u = one(b"\xe0\x80\xaf")
    assert (u.kind, u.value, u.replacements) == (K.OVERLONG, 0x2F, 3)


def test_ed_a0_80_surrogate_three_replacements():
    u = one(b"\xed\xa0\x80")
    assert (u.kind, u.value, u.replacements) == (K.SURROGATE, 0xD800, 3)


def test_f4_90_80_80_out_of_range_four_replacements():
    u = one(b"\xf4\x90\x80\x80")
    assert (u.kind, u.value, u.replacements) == (K.OUT_OF_RANGE, 0x110000, 4)


def test_e1_80_then_41_truncated_one_replacement():
    units = cut(b"\xe1\x80\x41")
    assert [(u.kind, u.length, u.replacements) for u in units] == [
        (K.TRUNCATED, 2, 1), (K.VALID, 1, 0)]
    assert units[0].value is None and not units[0].at_end


def test_c0_af_overlong_two_replacements():
    u = one(b"\xc0\xaf")
    assert (u.kind, u.value, u.replacements) == (K.OVERLONG, 0x2F, 2)


def test_truncated_at_end_of_data_records_it():
    u = one(b"\xe2\x82")
    assert (u.kind, u.at_end, u.replacements) == (K.TRUNCATED, True, 1)


def test_sum_of_replacements_matches_python_on_the_examples():
    data = b"\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe1\x80\x41\xc0\xaf"
    assert sum(u.replacements for u in cut(data)) == data.decode("utf-8", "replace").count("\ufffd")


# ---------------------------------------------------------------- self-synchronization

def test_look_back_finds_the_unit_holding_any_offset():
    data = b"a\xe2\x82\xacb"
    src = MemorySource(data)
    assert unit_at(src, 2).offset == 1 and unit_at(src, 3).length == 3


def test_origin_loses_continuation_bytes_then_resyncs():
    data = "a€b".encode()          # 61 E2 82 AC 62
    r = resync(MemorySource(data), 2)
    assert [u.offset for u in r.lost] == [2, 3]
    assert r.sync_offset == 4 and r.lost_bytes == 2


# ------------------------------------------------------------------------- dialects

def test_wtf8_lone_surrogate_is_valid():
    assert one(b"\xed\xa0\x80", K.WTF8).kind == K.VALID


def test_wtf8_paired_surrogates_stay_errors():
    units = cut(b"\xed\xa0\xbd\xed\xb8\x80", 0, K.WTF8)
    assert [u.kind for u in units] == [K.SURROGATE, K.SURROGATE]


@pytest.mark.parametrize("dialect", [K.CESU8, K.MUTF8])
def test_cesu8_pair_is_one_valid_six_byte_unit(dialect):
    u = one(b"\xed\xa0\xbd\xed\xb8\x80", dialect)
    assert (u.kind, u.length, u.value) == (K.VALID, 6, 0x1F600)


def test_cesu8_lone_surrogate_is_still_an_error():
    assert one(b"\xed\xa0\x80", K.CESU8).kind == K.SURROGATE


def test_mutf8_c0_80_is_nul_and_raw_nul_warns():
    u = one(b"\xc0\x80", K.MUTF8)
    assert (u.kind, u.value) == (K.VALID, 0)
    assert K.RAW_NUL in one(b"\x00", K.MUTF8).warnings
    assert K.RAW_NUL not in one(b"\x00", K.UTF8).warnings
    assert one(b"\xc0\x80", K.UTF8).kind == K.OVERLONG


def test_fss_utf_accepts_1993_forms_and_surrogates_not_overlongs():
    assert one(b"\xf8\x88\x80\x80\x80", K.FSS_UTF).kind == K.VALID
    assert one(b"\xfd\xbf\xbf\xbf\xbf\xbf", K.FSS_UTF).value == 0x7FFFFFFF
    assert one(b"\xed\xa0\x80", K.FSS_UTF).kind == K.VALID
    assert one(b"\xf4\x90\x80\x80", K.FSS_UTF).kind == K.VALID
    assert one(b"\xc0\xaf", K.FSS_UTF).kind == K.OVERLONG


# ------------------------------------------------------------------------- warnings

@pytest.mark.parametrize("text,warning", [
    ("\ufdd0", K.NONCHARACTER), ("\ufdef", K.NONCHARACTER), ("\ufffe", K.NONCHARACTER),
    ("\U0001ffff", K.NONCHARACTER), ("\U0010fffe", K.NONCHARACTER),
    ("\ufffd", K.REPLACEMENT_CHAR), ("\x01", K.CONTROL), ("\x7f", K.CONTROL),
    ("\x9f", K.CONTROL), ("\ue000", K.PRIVATE_USE), ("\U000f0000", K.PRIVATE_USE),
    ("\u061c", K.BIDI_CONTROL), ("\u200e", K.BIDI_CONTROL), ("\u200f", K.BIDI_CONTROL),
    ("\u202a", K.BIDI_CONTROL), ("\u202e", K.BIDI_CONTROL), ("\u2066", K.BIDI_CONTROL),
    ("\u2069", K.BIDI_CONTROL), ("\u200b", K.ZERO_WIDTH), ("\u200c", K.ZERO_WIDTH),
    ("\u200d", K.ZERO_WIDTH), ("\u2060", K.ZERO_WIDTH), ("\u0378", K.UNASSIGNED),
])
def test_each_warning(text, warning):
    u = cut(b"x" + text.encode())[1]
    assert u.kind == K.VALID and warning in u.warnings


@pytest.mark.parametrize("text", ["\t", "\n", "\r", " ", "a", "é", "€", "😀"])
def test_no_warning_on_ordinary_characters(text):
    assert cut(text.encode())[0].warnings == ()


def test_bom_only_at_offset_zero():
    assert cut(b"\xef\xbb\xbf")[0].warnings == (K.BOM,)
    assert cut(b"a\xef\xbb\xbf")[1].warnings == (K.ZWNBSP,)
    # the base is a file offset: a window that starts mid-file sees zwnbsp
    assert cut(b"\xef\xbb\xbf", base=10)[0].warnings == (K.ZWNBSP,)


def test_a_unit_can_carry_several_warnings():
    # U+0085 is a C1 control; U+FFFF nothing else; a private-use noncharacter: U+10FFFF
    u = cut("\U0010ffff".encode())[0]
    assert K.NONCHARACTER in u.warnings


# --------------------------------------------- worked examples of the UTF-8 standard

WORKED = [
    # RFC 3629 section 7 and Unicode chapter 3
    ("\u0041\u2262\u0391\u002e", "41 e2 89 a2 ce 91 2e"),
    ("\ud55c\uad6d\uc5b4", "ed 95 9c ea b5 ad ec 96 b4"),
    ("\u65e5\u672c\u8a9e", "e6 97 a5 e6 9c ac e8 aa 9e"),
    ("\ufeff\U000233b4", "ef bb bf f0 a3 8e b4"),
    ("\u0041", "41"), ("\u00a9", "c2 a9"), ("\u20ac", "e2 82 ac"),
    ("\U00010348", "f0 90 8d 88"), ("\u0024", "24"), ("\u00a2", "c2 a2"),
    ("\U0010ffff", "f4 8f bf bf"), ("\u004d\u0430\u4e8c\U00010302", "4d d0 b0 e4 ba 8c f0 90 8c 82"),
]


@pytest.mark.parametrize("text,hexes", WORKED)
def test_worked_examples_encode(text, hexes):
    assert b"".join(encode(ch).utf8 for ch in text) == bytes.fromhex(hexes)


@pytest.mark.parametrize("text,hexes", WORKED)
def test_worked_examples_decode(text, hexes):
    units = cut(bytes.fromhex(hexes))
    assert [u.kind for u in units] == [K.VALID] * len(text)
    assert [u.value for u in units] == [ord(c) for c in text]
    assert [u.length for u in units] == [len(c.encode()) for c in text]


@pytest.mark.parametrize("cp,groups,template,byte_bits", [
    (0x41, ("1000001",), "0xxxxxxx", ("01000001",)),
    (0xA9, ("00010", "101001"), "110yyyyy 10zzzzzz", ("11000010", "10101001")),
    (0x20AC, ("0010", "000010", "101100"), "1110xxxx 10yyyyyy 10zzzzzz",
     ("11100010", "10000010", "10101100")),
    (0x10348, ("000", "010000", "001101", "001000"), "11110www 10xxxxxx 10yyyyyy 10zzzzzz",
     ("11110000", "10010000", "10001101", "10001000")),
])
def test_bit_layout_of_worked_examples(cp, groups, template, byte_bits):
    e = encode(cp)
    assert e.bit_groups == groups
    assert e.template == template
    assert e.byte_bits == byte_bits
    assert "".join(groups) == f"{cp:0{len(''.join(groups))}b}"
