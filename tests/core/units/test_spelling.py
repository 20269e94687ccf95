"""The one UTF-8 encoder, checked against Python's own (``surrogatepass`` for the
surrogates WTF-8 and CESU-8 write) and against the decoder, which must read every
spelling back to the value it was written from."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.units import kinds as K
from inspector.core.units import spelling
from inspector.core.units.decoder import cut
from inspector.core.units.spelling import (MAX_LEGACY_VALUE, MIN_VALUE, encode, encode_cesu8,
                                           encode_mutf8, shortest_length)

MANY = settings(max_examples=2000, deadline=None)
code_points = st.integers(0, 0x10FFFF)
# Code points near every length boundary and the surrogate block, where mistakes hide.
BOUNDARIES = sorted({v + d for v in (0x80, 0x800, 0x10000, 0xD800, 0xE000, 0x10FFFF)
                     for d in (-1, 0, 1)} - {0x110000})
legacy_values = st.integers(0x110000, MAX_LEGACY_VALUE)


def python_utf8(cp: int) -> bytes:
    return chr(cp).encode("utf-8", "surrogatepass")


def python_cesu8(cp: int) -> bytes:
    """Each UTF-16 code unit of the character, written as UTF-8 on its own."""
    utf16 = chr(cp).encode("utf-16-be", "surrogatepass")
    halves = [int.from_bytes(utf16[k:k + 2], "big") for k in range(0, len(utf16), 2)]
    return b"".join(python_utf8(h) for h in halves)


@MANY
@given(code_points)
def test_encode_is_pythons_utf8(cp):
    assert encode(cp) == python_utf8(cp)
    assert shortest_length(cp) == len(python_utf8(cp))


@pytest.mark.parametrize("cp", BOUNDARIES)
def test_encode_at_the_boundaries(cp):
    assert encode(cp) == python_utf8(cp)
    assert shortest_length(cp) == len(python_utf8(cp))


@MANY
@given(code_points)
def test_cesu8_and_mutf8_are_utf16_halves_written_one_by_one(cp):
    assert encode_cesu8(cp) == python_cesu8(cp)
    mutf8 = encode_mutf8(cp)
    assert mutf8 == (b"\xc0\x80" if cp == 0 else python_cesu8(cp))
    assert b"\x00" not in mutf8


@MANY
@given(code_points, st.data())
def test_every_spelling_reads_back_to_its_value(cp, draw):
    n = draw.draw(st.integers(shortest_length(cp), spelling.MAX_LENGTH))
    [unit] = cut(encode(cp, n), 0, K.FSS_UTF)
    assert (unit.length, unit.value) == (n, cp)
    [unit] = cut(encode(cp, n))
    if n > shortest_length(cp):
        assert unit.kind == (K.OVERLONG if n <= 4 else K.LEGACY_LONG_FORM)
    elif 0xD800 <= cp <= 0xDFFF:
        assert unit.kind == K.SURROGATE
    else:
        assert unit.kind == K.VALID


@MANY
@given(legacy_values)
def test_values_above_unicode_get_their_1993_form(value):
    data = encode(value)
    assert len(data) == shortest_length(value) >= 4
    assert MIN_VALUE[len(data)] <= value
    [unit] = cut(data, 0, K.FSS_UTF)
    assert unit.kind == K.VALID and unit.value == value
    [unit] = cut(data)
    assert unit.kind == (K.OUT_OF_RANGE if len(data) == 4 else K.LEGACY_LONG_FORM)
    assert encode_cesu8(value) == encode_mutf8(value) == data


def test_overlong_forms_of_the_slash():
    assert [encode(0x2F, n) for n in range(1, 7)] == [
        b"/", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",
        b"\xf8\x80\x80\x80\xaf", b"\xfc\x80\x80\x80\x80\xaf"]


@pytest.mark.parametrize("call", [
    lambda: encode(-1), lambda: encode(MAX_LEGACY_VALUE + 1), lambda: shortest_length(-1),
    lambda: encode(0x80, 1), lambda: encode(0x800, 2), lambda: encode(0x41, 7)])
def test_what_no_utf8_can_hold_is_refused(call):
    with pytest.raises(ValueError):
        call()


def test_every_caller_spells_through_here():
    """The unit inspector's layout and the search's spellings agree with the one encoder."""
    from inspector.core.analysis.search import spellings_of
    from inspector.core.units.unitinfo import encode as lay_out

    for cp in BOUNDARIES + [0, 0x2F, 0x20AC, 0x1F600]:
        e = lay_out(cp)
        assert e.utf8 == encode(cp) and e.cesu8 == encode_cesu8(cp)
        assert e.mutf8 == encode_mutf8(cp)
        assert e.overlongs == tuple(encode(cp, n) for n in range(max(len(e.utf8) + 1, 2), 7))
        found = spellings_of(cp)
        assert {encode(cp, n) for n in range(shortest_length(cp), 5)} <= set(found)
