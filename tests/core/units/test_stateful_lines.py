"""State-carrying codecs (ISO-2022-JP/KR, HZ) read a line the same wherever a read of
the file begins (the contract: each line from the initial state; ISO-2022-KR with the
designation its file carries once at the start), and clean text is cut into exactly
the characters Python's decoder makes."""

from __future__ import annotations

import random

import pytest

from inspector.core.units.interpretation import interpretation

TEXTS = {
    "iso2022_jp": "日本語のテキスト\nつぎの行です\nASCII line\n",
    "iso2022_jp_2": "日本語\nΑλφα\nASCII\n",
    "iso2022_kr": "한국어 텍스트\n다음 줄\nASCII line\n한국\n",
    "hz": "中文文本\n下一行 ~ tilde\nASCII\n",
}


def _units(cut):
    return [(u.offset, u.length, u.kind, u.value) for u in cut.units()]


def _line_starts(data: bytes):
    return [i + 1 for i, c in enumerate(data) if c == 0x0A and i + 1 < len(data)]


def _same_from_each_line(reading, data: bytes) -> None:
    whole = _units(reading.page_cut(data, 0))
    assert sum(u[1] for u in whole) == len(data)
    starts = {u[0] for u in whole}
    for s in _line_starts(data):
        end = data.find(b"\n", s)
        end = len(data) if end < 0 else end + 1
        assert s in starts, f"a unit runs over the line feed before {s}"
        from_here = [u for u in _units(reading.page_cut(data[s:], s)) if u[0] < end]
        assert from_here == [u for u in whole if s <= u[0] < end]


@pytest.mark.parametrize("codec", sorted(TEXTS))
def test_clean_text_is_cut_as_python_decodes_it(codec):
    text = TEXTS[codec] * 4
    data = text.encode(codec)
    reading = interpretation(codec)
    units = _units(reading.page_cut(data, 0))
    assert all(kind == "valid" for _, _, kind, _ in units)
    assert "".join(chr(v) for *_, v in units) == text
    _same_from_each_line(reading, data)


def test_a_page_in_the_middle_of_an_iso2022_kr_file_reads_korean():
    text = TEXTS["iso2022_kr"] * 4
    data = text.encode("iso2022_kr")
    s = data.index(b"\n", 30) + 1
    page = interpretation("iso2022_kr").page_cut(data[s:], s)
    # the page alone lacks the file's designation, yet reads as the whole file does
    before = data[:s].decode("iso2022_kr")
    assert "".join(chr(u.value) for u in page.units()) == text[len(before):]
    assert page.offset[0] == s


@pytest.mark.parametrize("damaged", [
    # a broken escape at a line's end: its error must not take in the next line
    "日本語のテキスト\nつぎの行です\n".encode("iso2022_jp").replace(b"\x1b(B\n", b"\x1b(\n", 1),
    # a character's byte lost before the line feed, in double-byte mode
    "日本語のテキスト\nつぎの行です\n".encode("iso2022_jp").replace(b"%H\x1b(B\n", b"%\n", 1),
])
def test_a_damaged_line_does_not_carry_over_into_the_next(damaged):
    _same_from_each_line(interpretation("iso2022_jp"), damaged * 3)


@pytest.mark.parametrize("codec", sorted(TEXTS))
def test_randomly_damaged_lines_read_the_same_from_any_line_start(codec):
    """Bytes lost, changed or added (ESC, shifts, line feeds among them), a few at a
    time: every line is cut the same in a read from the start of the file and in one
    from that line's start."""
    rng = random.Random(7)
    good = (TEXTS[codec] * 4).encode(codec)
    reading = interpretation(codec)
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(data))
            op = rng.random()
            if op < 0.4:
                del data[i]
            elif op < 0.7:
                data[i] = rng.randrange(256)
            else:
                data.insert(i, rng.choice(b"\x1b\x0a$B(~{\x0e\x0f" + bytes([rng.randrange(256)])))
        _same_from_each_line(reading, bytes(data))


@pytest.mark.parametrize("codec", sorted(TEXTS))
def test_a_page_anywhere_is_cut_as_the_whole_file_is(codec, write_file):
    """Pages at any offset (in a long stretch of ASCII without a line feed, where the
    page may begin right where it is asked, and elsewhere) hold the units the cut of
    the whole file has there."""
    from inspector.core.source.bytesource import open_source

    data = (TEXTS[codec] * 3).encode(codec) + b"x" * 40000 + (TEXTS[codec] * 3).encode(codec)
    reading = interpretation(codec)
    whole = _units(reading.page_cut(data, 0))
    source = open_source(write_file(data, f"pages-{codec}.txt"))
    try:
        for start in (5, 20000, 39990, len(data) - 90):
            got = [u for cut in reading.cuts_in_range(source, start, start + 64) for u in _units(cut)]
            want = [u for u in whole if u[0] + u[1] > start and u[0] < start + 64]
            assert got == want, (codec, start)
    finally:
        source.close()
