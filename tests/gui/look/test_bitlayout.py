"""The bit layout: marker and payload bits apart, as text."""

from inspector.gui.look.bitlayout import BitLayout, byte_segments


def test_bit_layout_text_marks_payload():
    lay = BitLayout("€".encode(), 0x20AC)
    assert "binary   1110|0010 10|000010 10|101100" in lay.text()
    assert byte_segments(b"\xfc")[0] == ("1111110", "0")
