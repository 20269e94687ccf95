"""The multi-byte codecs' shape (which bytes must start a unit, which a unit always
starts after, the longest unit), asked in one call to the codec per question, is what
asking the codec one pair and one character at a time finds; and a character's length
asked in one call is what encoding it alone gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.units.encodings import multibyte as mb

MULTI_BYTE = ["shift_jis", "cp932", "euc_jp", "gb18030", "gbk", "gb2312", "big5",
              "big5hkscs", "euc_kr", "cp949", "johab",
              # JIS X 0213: their encoders drop a NUL after a character that can combine.
              "shift_jis_2004", "euc_jis_2004"]


@pytest.mark.parametrize("codec", MULTI_BYTE)
def test_the_one_call_probe_finds_what_the_one_at_a_time_probe_finds(codec):
    shape = mb.shape_of(codec)
    leads = [b for b in range(256) if mb._first_event(bytes([b]), codec)[1]]
    inner, nonfinal, longest = mb._probe_one_at_a_time(codec, leads)
    assert np.flatnonzero(~shape.starts_at).tolist() == sorted(inner)
    assert np.flatnonzero(~shape.starts_after).tolist() == sorted(nonfinal)
    assert shape.max_length == longest


@settings(max_examples=30, deadline=None)
@given(codec=st.sampled_from(MULTI_BYTE),
       cps=st.lists(st.integers(0, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF),
                    max_size=40))
def test_char_lengths_are_each_characters_own_encoding(codec, cps):
    mb._length_cache.pop(codec, None)
    got = mb.char_lengths(codec, np.array(cps, dtype=np.int64)).tolist()
    want = []
    for cp in cps:
        try:
            want.append(len(chr(cp).encode(codec)))
        except UnicodeEncodeError:
            want.append(-1)
    assert got == want
