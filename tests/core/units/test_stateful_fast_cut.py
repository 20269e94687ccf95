"""The state-carrying codecs' page cut (ISO-2022-*, HZ: numpy over the page, from each
line's decode and its errors) is the byte-by-byte cut, line by line: the codec's
incremental decoder fed a byte at a time, each line read from the initial state
(``MultiByteCodec.line_by_bytes``, the reference), on damaged text and on random
sequences of the bytes that matter (escapes, shifts, tildes, line feeds, pairs), with
any end of the data and any page end. And the common damage is cut without that
reference: a page of text with one byte in a hundred changed has no line cut byte by
byte."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.units.encodings import multibyte
from inspector.core.units.encodings.statefulcut import line_bounds
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unitarrays import concatenate

TEXTS = {
    "iso2022_jp": "日本語のテキストです。漢字かな交じり文。ABC 123\n",
    "iso2022_jp_1": "日本語のテキストです。丂丄丅 漢字\n",
    "iso2022_jp_2": "日本語のテキスト。한국어 텍스트. Αλφα 中文\n",
    "iso2022_jp_3": "日本語のテキストです。𠀋 漢字か\u309aな\n",
    "iso2022_jp_2004": "日本語のテキストです。𠀋 漢字か\u309aな\n",
    "iso2022_jp_ext": "日本語のテキストです。ｶﾀｶﾅ 漢字\n",
    "iso2022_kr": "한국어 텍스트입니다. 안녕하세요.\n",
    "hz": "中文文本，简体中文。ABC ~ 123\n",
}
CODECS = sorted(TEXTS)
# What matters to these decoders: designations (ISO-2022-JP's, JIS X 0212 and 0213's,
# KS X 1001, GB2312, G1 and G2), the ESC & @ prefix, ESC N, escapes the decoder writes
# out, SO and SI, HZ's tildes, line feeds, pairs of the two-byte sets, bytes past 7F.
PIECES = [b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$(D", b"\x1b$A",
          b"\x1b$(C", b"\x1b$)C", b"\x1b.A", b"\x1b.F", b"\x1bN", b"\x1b&@\x1b$B",
          b"\x1b$(O", b"\x1b$(Q", b"\x1b$(P", b"\x1b)B", b"\x1b.B", b"\x0e", b"\x0f", b"~{",
          b"~}", b"~~", b"~\n", b"~", b"\n", b"\x1b", b"\x1bx", b"\x1b(", b"\x1b$", b"F|",
          b"K\\", b"0!", b"VP", b"GQ", b"$+", b"%w", b'."', b"!!", b"t&", b"\x80", b"\xff",
          b" ", b"A", b"\x00", b"\r", b"\x7f", b"}", b"{", b"$", b"(", b"@", b"B"]
SPECIAL = b"\x1b\n$B(@)~{}\x0e\x0f.NJ&ICDA"


def byte_by_byte(reading, data: bytes, base: int, final: bool, stop: int):
    """The reference: each line (beginning before ``stop``) cut by the byte-by-byte
    decoder, the units beginning before ``stop``."""
    lo, hi = line_bounds(np.frombuffer(data, dtype=np.uint8), stop)
    cut = concatenate([reading.line_by_bytes(data[a:b], base + a, final if b == len(data)
                                             else True)
                       for a, b in zip(lo.tolist(), hi.tolist())])
    return cut.take(slice(0, int(np.searchsorted(cut.offset, base + stop))))


def rows(cut) -> list[tuple]:
    texts = cut.texts() or [""] * len(cut)
    return list(zip(cut.offset.tolist(), cut.length.tolist(), cut.kind.tolist(),
                    cut.value.tolist(), cut.replacements.tolist(), cut.at_end.tolist(), texts))


def check(codec: str, data: bytes, final: bool, stop: int, base: int = 1000) -> None:
    reading = interpretation(codec)
    try:
        want = rows(byte_by_byte(reading, data, base, final, stop))
    except RuntimeError:
        # CPython's ISO-2022-JP-2 decoder fails on ESC N after a G2 it cannot shift to
        # (ESC . J ESC N): no reading to hold the cut to.
        with pytest.raises(RuntimeError):
            reading.page_cut(data, base, final, stop)
        return
    assert rows(reading.page_cut(data, base, final, stop)) == want, (codec, data, final, stop)


@st.composite
def damaged(draw):
    """Text in a codec, bytes lost, changed or added here and there (the bytes that
    matter among them), an end of the data and of the page."""
    codec = draw(st.sampled_from(CODECS))
    data = bytearray((TEXTS[codec] * draw(st.integers(1, 4))).encode(codec))
    for _ in range(draw(st.integers(0, 10))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        how = draw(st.sampled_from(("cut", "flip", "insert", "special", "piece")))
        if how == "cut":
            del data[i]
        elif how == "flip":
            data[i] = draw(st.integers(0, 255))
        elif how == "insert":
            data.insert(i, draw(st.sampled_from(SPECIAL)))
        elif how == "special":
            data[i] = draw(st.sampled_from(SPECIAL))
        else:
            data[i:i] = draw(st.sampled_from(PIECES))
    return codec, bytes(data)


@st.composite
def pieces(draw):
    """A random sequence of the bytes that matter, in a codec."""
    codec = draw(st.sampled_from(CODECS))
    return codec, b"".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40)))


@st.composite
def page(draw, source):
    codec, data = draw(source)
    final = draw(st.booleans())
    stop = len(data) if draw(st.booleans()) else draw(st.integers(1, max(1, len(data))))
    return codec, data, final, stop


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page(damaged()))
def test_damaged_text_is_cut_as_the_byte_by_byte_decoder_cuts_it(case):
    check(*case)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page(pieces()))
def test_any_sequence_of_escapes_shifts_and_pairs_is_cut_as_byte_by_byte(case):
    check(*case)


@pytest.mark.parametrize("codec", CODECS)
def test_clean_text_in_pages_of_every_size_is_cut_as_byte_by_byte(codec):
    data = (TEXTS[codec] * 5).encode(codec)
    for stop in range(1, len(data) + 1, 7):
        check(codec, data[:stop + 20], stop + 20 >= len(data), stop)


def test_lines_read_from_their_start_even_after_a_one_byte_set_left_open():
    """JIS X 0201 Roman left in force at a line feed (writers that use ESC ( J as
    ASCII): CPython's decoder in one go would read the next line's backslash as a yen
    sign; read from its start, as the contract has it, that line is ASCII."""
    data = b"\x1b(J\\abc\n\\def\n"
    check("iso2022_jp", data, True, len(data))
    units = interpretation("iso2022_jp").page_cut(data, 0).units()
    assert (units[0].offset, units[0].length, units[0].value) == (0, 4, 0xA5)  # ¥ (JIS X 0201)
    assert [u.value for u in units if u.offset == 8] == [ord("\\")]


@pytest.mark.parametrize("codec", ["iso2022_jp", "iso2022_jp_2", "iso2022_jp_ext",
                                   "iso2022_kr", "hz"])
def test_text_with_one_byte_in_a_hundred_changed_needs_no_byte_by_byte_line(codec,
                                                                             monkeypatch):
    """The common damage is what the fast cut reads: no line of such pages goes to the
    byte-by-byte decoder (whose cut they equal: the tests above)."""
    slow = []
    monkeypatch.setattr(multibyte.MultiByteCodec, "line_by_bytes",
                        lambda self, *args: slow.append(args))
    rng = random.Random(5)
    text = (TEXTS[codec].replace("か\u309a", "か") * 200).encode(codec)
    data = bytearray(text)
    for i in rng.sample(range(len(data)), len(data) // 100):
        data[i] = rng.randrange(256)
    reading = interpretation(codec)
    for start in range(0, len(data) - 4096, 997):
        page = bytes(data[start:start + 4120])
        page = page[page.index(b"\n") + 1:]
        reading.page_cut(page, start, False, 4096)
    assert slow == []


def test_utf7_is_refused_with_why():
    """UTF-7 carries a state too, but its base64 puts a character's bits inside bytes:
    the byte-by-byte decoder gave a whole run's characters to one byte (and lost all but
    the first). It is refused, saying why."""
    for spelling in ("utf-7", "UTF7", "u7"):
        with pytest.raises(ValueError, match="UTF-7 is not offered: it writes characters in base64"):
            interpretation(spelling)
