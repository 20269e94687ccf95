"""The bit layout: marker and payload bits apart, as text, as the core splits them."""

from inspector.core.units.decoder import cut
from inspector.gui.look.bitlayout import BitLayout


def layout_of(data: bytes, dialect: str = "utf-8") -> BitLayout:
    return BitLayout(cut(data, 0, dialect)[0], data)


def test_bit_layout_text_marks_payload():
    lay = layout_of("€".encode())
    assert "binary   1110|0010 10|000010 10|101100" in lay.text()
    assert "layout   1110xxxx  10xxxxxx  10xxxxxx" in lay.text()
    assert "payload  0010000010101100 = U+20AC" in lay.text()
    assert layout_of(b"\xfc").segments == [("1111110", "0")]


def test_a_byte_with_no_payload_role_shows_its_bits_and_no_template():
    for byte in (b"\x80", b"\xbf", b"\xfe", b"\xff"):
        lay = layout_of(byte)
        bits = f"{byte[0]:08b}"
        assert lay.segments == [("", "")] and lay.groups == []
        assert f"binary   {bits}" in lay.text() and f"layout   {bits}" in lay.text()
        assert "x" not in lay.text().split("layout")[1]


def test_a_surrogate_pair_joins_each_half_then_the_pair():
    lay = layout_of(b"\xed\xa0\xbd\xed\xb8\x80", "cesu-8")
    assert lay.groups == [(0, 3), (3, 6)]
    assert "U+D83D + U+DE00 = U+1F600" in lay.text()
