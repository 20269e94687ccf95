"""The letter share that weighs a charset family counts bytes through a per-charset table
for single-byte charsets; it must equal decoding and asking each character."""

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings.charsets import letter_share
from inspector.core.units.unicode_db import category

CHARSETS = ["cp1252", "iso8859-1", "latin-1", "cp1251", "cp1250", "iso8859-2", "iso8859-5",
            "koi8-r", "mac_roman", "cp437", "cp1257", "iso8859-7", "cp874", "cp1255",
            "shift_jis", "big5", "gb18030", "euc-kr", "utf-8", "no-such-codec"]


def decoded_share(data: bytes, encoding: str) -> float:
    high = bytes(b for b in data if b > 0x7F)
    if not high:
        return 0.0
    try:
        text = high.decode(encoding, "replace")
    except LookupError:
        return 0.0
    # Letters (categories L*) and punctuation (P*), from the program's Unicode database.
    return sum(1 for ch in text if ch != "\ufffd"
               and category(ord(ch))[0] in "LP") / len(text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(CHARSETS))
def test_letter_share_equals_decoding_each_character(data, encoding):
    assert letter_share(data, encoding) == decoded_share(data, encoding)
