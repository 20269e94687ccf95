"""The interpretation objects: each says truly what it can produce, and its encoder and
its cut agree (what it writes, it reads back as one valid unit of that value)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import (INTERPRETATIONS, Interpretation,
                                                 interpretation)

READINGS = list(INTERPRETATIONS.values())
# Bytes that reach every branch of the cut: ASCII, every lead and continuation byte,
# surrogate halves (paired and lone), overlongs, 1993 forms, C0 80.
PIECES = [b"a", b"\x00", b"\xc0\x80", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
          b"\xed\xa0\xbd", b"\xed\xb8\x80", b"\xed\xb0\x80", b"\xf8\x88\x80\x80\x80",
          b"\xfc\x84\x80\x80\x80\x80", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xf4\x90\x80\x80",
          b"\x80", b"\xbf", b"\xfe", b"\xff", b"\xe2\x82", b"\xf0"]


def test_every_dialect_has_one_and_the_names_resolve():
    assert sorted(INTERPRETATIONS) == sorted(K.DIALECTS)
    for name in K.DIALECTS:
        reading = interpretation(name)
        assert isinstance(reading, Interpretation) and reading.name == name
        assert interpretation(reading) is reading
        assert reading.title == K.DIALECT_TITLES[name]
    assert interpretation("UTF8") is INTERPRETATIONS[K.UTF8]
    with pytest.raises(ValueError):
        interpretation("latin-9")


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.binary(max_size=4), max_size=40))
def test_what_it_cuts_is_what_it_says_it_can_produce(reading, pieces):
    data = b"".join(pieces)
    for u in reading.cut(data):
        assert reading.can_produce(u.kind), (reading.name, u)
        if u.kind == K.VALID:
            assert u.length in reading.unit_lengths, (reading.name, u)
        src = MemorySource(data)
        for k in range(u.offset, u.offset + u.length):
            assert reading.unit_start(src, k) == u.offset
            assert u.offset >= k - reading.lookback


def test_the_1993_form_never_says_surrogate_or_out_of_range():
    fss = interpretation(K.FSS_UTF)
    assert not fss.can_produce(K.SURROGATE) and not fss.can_produce(K.OUT_OF_RANGE)
    assert not fss.can_produce(K.LEGACY_LONG_FORM)
    assert interpretation(K.UTF8).can_produce(K.LEGACY_LONG_FORM)
    assert interpretation(K.UTF8).scanned_by_kernels
    assert not any(r.scanned_by_kernels for r in READINGS if r.name != K.UTF8)


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=0x7FFFFFFF))
def test_what_it_writes_it_reads_back(reading, value):
    try:
        data = reading.encode(value)
    except ValueError:
        # Refused only what the dialect cannot hold as one valid unit.
        assert value > 0x10FFFF or 0xD800 <= value <= 0xDFFF
        assert reading.name != K.FSS_UTF
        return
    [unit] = reading.cut(data)
    assert unit.kind == K.VALID and unit.value == value and unit.length == len(data)


def test_python_agrees_where_it_has_a_codec():
    for value in (0x41, 0xE9, 0x20AC, 0x1F600, 0x10FFFF):
        assert interpretation(K.UTF8).encode(value) == chr(value).encode("utf-8")
    assert interpretation(K.WTF8).encode(0xD800) == "\ud800".encode("utf-8", "surrogatepass")
    assert interpretation(K.MUTF8).encode(0) == b"\xc0\x80"
    pair = "\ud83d\ude00".encode("utf-8", "surrogatepass")   # U+1F600 as two halves
    assert interpretation(K.CESU8).encode(0x1F600) == pair == b"\xed\xa0\xbd\xed\xb8\x80"
