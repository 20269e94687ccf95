"""The table of what each byte 80-FF is worth as text per single-byte charset (built in
one decode per charset) says what a decode of each byte alone says."""

from inspector.core.analysis.encodings.chardetfilter import _FILTERED, _text_weights
from inspector.core.units.unicode_db import category_of_char


def test_one_decode_per_charset_reads_each_byte_as_alone():
    weights = _text_weights()
    for row, name in enumerate(_FILTERED):
        for b in range(128):
            try:
                ch = bytes((b + 0x80,)).decode(name)
            except UnicodeDecodeError:
                assert weights[row, b] == -100.0, (name, hex(b + 0x80))
                continue
            cat = category_of_char(ch)
            want = (1.0 if cat[0] in "LM" else
                    0.5 if cat[0] == "P" or cat in ("Zs", "Sc") or ch in "©®°±×·¶§µ" else 0.0)
            assert weights[row, b] == want, (name, hex(b + 0x80))
