"""A stress suite following the sections of Markus Kuhn's "UTF-8 decoder capability and
stress test". The byte strings are built here (the suite does not read Kuhn's file).

Replacement counts follow the spec's maximal-subpart practice (CPython's), which differs
from Kuhn's one-per-sequence counts in some cases; each case also checks CPython agrees.
"""

import pytest

from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut


def kinds_of(data, dialect=K.UTF8):
    return [(u.kind, u.length) for u in cut(data, 0, dialect)]


def fffd(data):
    return data.decode("utf-8", "replace").count("\ufffd")


def replacements(data):
    n = sum(u.replacements for u in cut(data))
    assert n == fffd(data)
    return n


# ---------------------------------------------------------------- 1 some correct UTF-8

def test_1_kosme():
    data = "κόσμε".encode()
    assert kinds_of(data) == [(K.VALID, 2)] * 5


# ------------------------------------------------------------------- 2 boundary cases

@pytest.mark.parametrize("cp,length", [(0x0000, 1), (0x0080, 2), (0x0800, 3), (0x10000, 4)])
def test_2_1_first_sequence_of_each_length(cp, length):
    u = cut(chr(cp).encode())[0]
    assert (u.kind, u.length, u.value) == (K.VALID, length, cp)


@pytest.mark.parametrize("data,length,value", [
    (b"\xf8\x88\x80\x80\x80", 5, 0x200000), (b"\xfc\x84\x80\x80\x80\x80", 6, 0x4000000)])
def test_2_1_first_5_and_6_byte_sequences(data, length, value):
    u = cut(data)[0]
    assert (u.kind, u.length, u.value, u.replacements) == (K.LEGACY_LONG_FORM, length, value, length)
    assert cut(data, 0, K.FSS_UTF)[0].kind == K.VALID
    assert replacements(data) == length


@pytest.mark.parametrize("cp,length", [(0x7F, 1), (0x7FF, 2), (0xFFFF, 3)])
def test_2_2_last_sequence_of_each_length(cp, length):
    u = cut(chr(cp).encode())[0]
    assert (u.kind, u.length, u.value) == (K.VALID, length, cp)


@pytest.mark.parametrize("data,kind,length,value,repl", [
    (b"\xf7\xbf\xbf\xbf", K.OUT_OF_RANGE, 4, 0x1FFFFF, 4),
    (b"\xfb\xbf\xbf\xbf\xbf", K.LEGACY_LONG_FORM, 5, 0x3FFFFFF, 5),
    (b"\xfd\xbf\xbf\xbf\xbf\xbf", K.LEGACY_LONG_FORM, 6, 0x7FFFFFFF, 6),
])
def test_2_2_last_4_5_6_byte_sequences(data, kind, length, value, repl):
    u = cut(data)[0]
    assert (u.kind, u.length, u.value, u.replacements) == (kind, length, value, repl)
    assert replacements(data) == repl


@pytest.mark.parametrize("cp", [0xD7FF, 0xE000, 0xFFFD, 0x10FFFF])
def test_2_3_other_boundaries_valid(cp):
    u = cut(chr(cp).encode())[0]
    assert (u.kind, u.value) == (K.VALID, cp)


def test_2_3_just_above_unicode():
    u = cut(b"\xf4\x90\x80\x80")[0]
    assert (u.kind, u.value, u.replacements) == (K.OUT_OF_RANGE, 0x110000, 4)


# ------------------------------------------------------- 3.1 unexpected continuation

@pytest.mark.parametrize("byte", [0x80, 0xBF])
def test_3_1_first_and_last_continuation(byte):
    assert kinds_of(bytes([byte])) == [(K.UNEXPECTED_CONTINUATION, 1)]


@pytest.mark.parametrize("n", range(2, 8))
def test_3_1_sequences_of_continuations(n):
    data = bytes([0x80, 0xBF] * 4)[:n]
    assert kinds_of(data) == [(K.UNEXPECTED_CONTINUATION, 1)] * n
    assert replacements(data) == n


def test_3_1_all_64_continuation_bytes():
    data = bytes(range(0x80, 0xC0))
    units = cut(data)
    assert len(units) == 64
    assert all(u.kind == K.UNEXPECTED_CONTINUATION and u.value is None for u in units)
    assert replacements(data) == 64


# -------------------------------------------------------------- 3.2 lonely start bytes

@pytest.mark.parametrize("first,last", [(0xC0, 0xDF), (0xE0, 0xEF), (0xF0, 0xF7),
                                        (0xF8, 0xFB), (0xFC, 0xFD)])
def test_3_2_lonely_start_bytes_followed_by_space(first, last):
    data = b"".join(bytes([b, 0x20]) for b in range(first, last + 1))
    units = cut(data)
    assert len(units) == 2 * (last - first + 1)
    for lead, space in zip(units[::2], units[1::2]):
        assert (lead.kind, lead.length, lead.replacements, lead.at_end) == (K.TRUNCATED, 1, 1, False)
        assert (space.kind, space.value) == (K.VALID, 0x20)
    assert replacements(data) == last - first + 1


# ------------------------------------------------- 3.3 sequences with last byte missing

MISSING_LAST = [
    (b"\xc0", 2), (b"\xe0\x80", 3), (b"\xf0\x80\x80", 4), (b"\xf8\x80\x80\x80", 5),
    (b"\xfc\x80\x80\x80\x80", 6),
    (b"\xdf", 2), (b"\xef\xbf", 3), (b"\xf7\xbf\xbf", 4), (b"\xfb\xbf\xbf\xbf", 5),
    (b"\xfd\xbf\xbf\xbf\xbf", 6),
]


@pytest.mark.parametrize("data,full", MISSING_LAST)
def test_3_3_last_byte_missing(data, full):
    u = cut(data)[0]
    assert (u.kind, u.length, u.value, u.at_end) == (K.TRUNCATED, full - 1, None, True)
    # maximal subpart: one U+FFFD when the second byte is allowed after the lead
    expected = fffd(data)
    assert u.replacements == expected


@pytest.mark.parametrize("data,repl", [
    (b"\xc0", 1), (b"\xe0\x80", 2), (b"\xf0\x80\x80", 3), (b"\xf8\x80\x80\x80", 4),
    (b"\xfc\x80\x80\x80\x80", 5), (b"\xdf", 1), (b"\xef\xbf", 1), (b"\xf7\xbf\xbf", 3),
    (b"\xfb\xbf\xbf\xbf", 4), (b"\xfd\xbf\xbf\xbf\xbf", 5),
])
def test_3_3_maximal_subpart_counts(data, repl):
    assert cut(data)[0].replacements == repl


def test_3_4_concatenated_incomplete_sequences():
    data = b"".join(d for d, _ in MISSING_LAST)
    units = cut(data)
    assert [(u.kind, u.length) for u in units] == [(K.TRUNCATED, full - 1) for _, full in MISSING_LAST]
    assert [u.at_end for u in units] == [False] * 9 + [True]
    assert replacements(data) == 29


# ---------------------------------------------------------------- 3.5 impossible bytes

@pytest.mark.parametrize("data", [b"\xfe", b"\xff", b"\xfe\xfe\xff\xff"])
def test_3_5_impossible_bytes(data):
    assert kinds_of(data) == [(K.INVALID_BYTE, 1)] * len(data)
    assert replacements(data) == len(data)
    for dialect in K.DIALECTS:
        assert all(u.kind == K.INVALID_BYTE for u in cut(data, 0, dialect))


# ------------------------------------------------------------------- 4 overlong forms

OVERLONG_SLASH = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xf8\x80\x80\x80\xaf",
                  b"\xfc\x80\x80\x80\x80\xaf"]


@pytest.mark.parametrize("data", OVERLONG_SLASH)
def test_4_1_overlong_slash(data):
    u = cut(data)[0]
    assert u.length == len(data) and u.value == 0x2F
    assert u.kind == (K.OVERLONG if len(data) <= 4 else K.LEGACY_LONG_FORM)
    assert u.replacements == len(data) == replacements(data)
    # overlongs stay invalid even in the 1993 dialect
    assert cut(data, 0, K.FSS_UTF)[0].kind == K.OVERLONG


@pytest.mark.parametrize("data,value", [
    (b"\xc1\xbf", 0x7F), (b"\xe0\x9f\xbf", 0x7FF), (b"\xf0\x8f\xbf\xbf", 0xFFFF),
    (b"\xf8\x87\xbf\xbf\xbf", 0x1FFFFF), (b"\xfc\x83\xbf\xbf\xbf\xbf", 0x3FFFFFF)])
def test_4_2_maximum_overlong_sequences(data, value):
    u = cut(data)[0]
    assert (u.length, u.value, u.replacements) == (len(data), value, len(data))
    assert u.kind == (K.OVERLONG if len(data) <= 4 else K.LEGACY_LONG_FORM)
    assert cut(data, 0, K.FSS_UTF)[0].kind == K.OVERLONG


@pytest.mark.parametrize("data", [b"\xc0\x80", b"\xe0\x80\x80", b"\xf0\x80\x80\x80",
                                  b"\xf8\x80\x80\x80\x80", b"\xfc\x80\x80\x80\x80\x80"])
def test_4_3_overlong_nul(data):
    u = cut(data)[0]
    assert (u.length, u.value, u.replacements) == (len(data), 0, len(data))
    assert u.kind == (K.OVERLONG if len(data) <= 4 else K.LEGACY_LONG_FORM)
    # only Modified UTF-8 accepts exactly C0 80
    assert (cut(data, 0, K.MUTF8)[0].kind == K.VALID) == (data == b"\xc0\x80")


# ---------------------------------------------------------- 5 illegal code positions

SINGLE_SURROGATES = [(b"\xed\xa0\x80", 0xD800), (b"\xed\xad\xbf", 0xDB7F),
                     (b"\xed\xae\x80", 0xDB80), (b"\xed\xaf\xbf", 0xDBFF),
                     (b"\xed\xb0\x80", 0xDC00), (b"\xed\xbe\x80", 0xDF80),
                     (b"\xed\xbf\xbf", 0xDFFF)]


@pytest.mark.parametrize("data,value", SINGLE_SURROGATES)
def test_5_1_single_surrogates(data, value):
    u = cut(data)[0]
    assert (u.kind, u.length, u.value, u.replacements) == (K.SURROGATE, 3, value, 3)
    assert replacements(data) == 3
    assert cut(data, 0, K.WTF8)[0].kind == K.VALID
    assert cut(data, 0, K.CESU8)[0].kind == K.SURROGATE
    assert cut(data, 0, K.FSS_UTF)[0].kind == K.VALID


PAIRS = [
    ("\ud800\udc00", 0x10000), ("\ud800\udfff", 0x103FF), ("\udb7f\udc00", 0xEFC00),
    ("\udb7f\udfff", 0xEFFFF), ("\udb80\udc00", 0xF0000), ("\udb80\udfff", 0xF03FF),
    ("\udbff\udc00", 0x10FC00), ("\udbff\udfff", 0x10FFFF),
]


@pytest.mark.parametrize("pair,cp", PAIRS)
def test_5_2_paired_surrogates(pair, cp):
    data = pair.encode("utf-8", "surrogatepass")
    assert kinds_of(data) == [(K.SURROGATE, 3), (K.SURROGATE, 3)]
    assert replacements(data) == 6
    for dialect in (K.CESU8, K.MUTF8):
        u = cut(data, 0, dialect)
        assert [(x.kind, x.length, x.value) for x in u] == [(K.VALID, 6, cp)]
    # WTF-8 forbids a pair written as two halves
    assert [u.kind for u in cut(data, 0, K.WTF8)] == [K.SURROGATE, K.SURROGATE]


@pytest.mark.parametrize("cp", [0xFFFE, 0xFFFF, *range(0xFDD0, 0xFDF0, 7),
                                *[(p << 16) | 0xFFFE for p in range(1, 17)],
                                *[(p << 16) | 0xFFFF for p in range(1, 17)]])
def test_5_3_noncharacters_are_valid_with_a_warning(cp):
    u = cut(b"x" + chr(cp).encode())[1]
    assert (u.kind, u.value) == (K.VALID, cp)
    assert K.NONCHARACTER in u.warnings
    assert u.replacements == 0
