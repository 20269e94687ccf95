"""Find: query parsing, every query kind, the other spellings, chunk boundaries, cancel."""

import random
import re

import pytest

from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.analysis.search import (
    CODEPOINT, HEX, TEXT, Match, Progress, bytes_pattern, find_all,
    find_next, find_previous, find_steps, parse_codepoints, parse_hex, parse_query,
    spellings_of,
)


def offsets(matches):
    return [m.offset for m in matches]


def naive_starts(data: bytes, regex: re.Pattern) -> list[int]:
    return [i for i in range(len(data)) if regex.match(data, i)]


# ------------------------------------------------------------------------------ parsing

@pytest.mark.parametrize("query", ["E2 82 AC", "e282ac", "0xE2,0x82,0xAC", "\\xe2\\x82\\xac",
                                   "E2:82:AC", "  e2  82ac "])
def test_hex_forms(query):
    assert parse_hex(query) == [0xE2, 0x82, 0xAC]
    assert parse_query(query, HEX).literal == b"\xe2\x82\xac"


def test_hex_wildcards():
    assert parse_hex("C0 ?? AF") == [0xC0, None, 0xAF]
    p = parse_query("C0??AF", HEX)
    assert p.literal is None and p.max_length == 3


@pytest.mark.parametrize("query, words", [
    ("", "empty"), ("E", "odd"), ("E2 8", "odd"), ("GG", "not a hex byte"),
    ("C0 ? AF", "odd"), ("?? ??", "at least one"), ("E2 ?x", "not a hex byte"),
])
def test_hex_errors_are_clear(query, words):
    with pytest.raises(ValueError, match=words):
        parse_query(query, HEX)


def test_codepoint_forms():
    assert parse_codepoints("U+20AC") == (0x20AC,)
    assert parse_codepoints("u+2e U+002F 0x41 20ac") == (0x2E, 0x2F, 0x41, 0x20AC)
    assert parse_codepoints("U+D800") == (0xD800,)  # lone surrogates are searchable
    for bad in ("", "U+", "U+110000", "hello", "U+12G"):
        with pytest.raises(ValueError):
            parse_codepoints(bad)


def test_unknown_kind_and_empty_text():
    with pytest.raises(ValueError, match="unknown query kind"):
        parse_query("x", "regex")
    with pytest.raises(ValueError):
        parse_query("", TEXT)
    with pytest.raises(ValueError, match="surrogate"):
        parse_query("\ud800", TEXT)


def test_spellings_hold_utf8_and_overlongs():
    for cp in (0, 0x2F, 0x7F, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF):
        spelled = spellings_of(cp)
        assert chr(cp).encode() in spelled and spelled[chr(cp).encode()] == "utf-8"
    assert {b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf"} <= set(spellings_of(0x2F))
    with pytest.raises(ValueError):
        spellings_of(0x110000)


def test_spellings_per_length():
    assert sorted(map(len, spellings_of(ord("a")))) == [1, 2, 3, 4]
    assert sorted(map(len, spellings_of(0xE9))) == [2, 3, 4]
    assert sorted(map(len, spellings_of(0x20AC))) == [3, 4]
    assert sorted(map(len, spellings_of(0x1F600))) == [4, 6]
    assert spellings_of(0x1F600)[b"\xed\xa0\xbd\xed\xb8\x80"] == "cesu-8"
    assert spellings_of(0)[b"\xc0\x80"] == "mutf-8"


# ------------------------------------------------------------------------- query kinds

def test_hex_literal_and_wildcard_find():
    src = MemorySource(b"xx\xe2\x82\xacyy\xc0\xafzz\xc0\x2f\xaf")
    assert offsets(find_all(src, parse_query("E2 82 AC", HEX))[0]) == [2]
    found, _ = find_all(src, parse_query("C0 ?? AF", HEX))
    assert offsets(found) == [11]
    found, _ = find_all(src, parse_query("C0 ??", HEX))
    assert offsets(found) == [7, 11]
    assert all(m.spelling is None for m in found)


def test_text_found_as_utf8():
    data = "prix: 5 €, puis 7 €".encode()
    found, _ = find_all(MemorySource(data), parse_query("€", TEXT))
    assert offsets(found) == [m.start() for m in re.finditer("€".encode(), data)]
    assert all(m.spelling == "utf-8" and m.length == 3 for m in found)


def test_codepoint_query():
    data = "a€b😀c".encode()
    src = MemorySource(data)
    assert offsets(find_all(src, parse_query("U+20AC", CODEPOINT))[0]) == [1]
    assert offsets(find_all(src, parse_query("U+62 U+1F600", CODEPOINT))[0]) == [4]


def test_overlong_dot_dot_slash_all_combinations():
    """Every mix of per-character spellings of "../" is found, and named."""
    p = parse_query("../", TEXT, spellings=True)
    dot = list(spellings_of(ord(".")))
    slash = list(spellings_of(ord("/")))
    combos = [a + b + c for a in dot for b in dot for c in slash]
    assert len(combos) == 64
    data = b"|".join(combos)
    found, more = find_all(MemorySource(data), p)
    assert not more
    assert [data[m.offset:m.end] for m in found] == combos
    names = {data[m.offset:m.end]: m.spelling for m in found}
    assert names[b"../"] == "utf-8"
    assert names[b"\xc0\xae\xc0\xae\xc0\xaf"] == "overlong"
    assert names[b"\xe0\x80\xae.\xf0\x80\x80\xaf"] == "overlong"
    m = found[combos.index(b".\xc0\xae/")]
    assert m.char_spellings == ("utf-8", "overlong", "utf-8")
    # The pattern grows with the text, not with the number of combinations.
    assert len(p.regex.pattern) < 200


def test_spellings_off_finds_only_the_standard_form():
    data = b"../ \xc0\xae\xc0\xae\xc0\xaf"
    assert offsets(find_all(MemorySource(data), parse_query("../", TEXT))[0]) == [0]


def test_cesu8_and_mutf8_spellings():
    data = (b"A\xed\xa0\xbd\xed\xb8\x80B" + "😀".encode() + b"\xc0\x80\x00"
            + b"\xc0\x80\xed\xa0\xbd\xed\xb8\x80")
    src = MemorySource(data)
    found, _ = find_all(src, parse_query("U+1F600", CODEPOINT, spellings=True))
    assert [(m.offset, m.length, m.spelling) for m in found] == [
        (1, 6, "cesu-8"), (8, 4, "utf-8"), (17, 6, "cesu-8")]
    found, _ = find_all(src, parse_query("U+0", CODEPOINT, spellings=True))
    assert [(m.offset, m.spelling) for m in found] == [(12, "mutf-8"), (14, "utf-8"), (15, "mutf-8")]
    found, _ = find_all(src, parse_query("\x00😀", TEXT, spellings=True))
    assert [(m.offset, m.spelling) for m in found] == [(15, "mutf-8")]


def test_mixed_spelling():
    data = b"\xc0\xae\xed\xa0\xbd\xed\xb8\x80"
    found, _ = find_all(MemorySource(data), parse_query(".😀", TEXT, spellings=True))
    assert found[0].spelling == "mixed"


# --------------------------------------------------------------------- chunks and order

@pytest.mark.parametrize("query, kind, spellings", [
    ("ab", HEX, False), ("C0 ?? AF", HEX, False), ("../", TEXT, True), ("aa", TEXT, False)])
def test_chunk_boundaries_exactly_once(query, kind, spellings):
    rng = random.Random(7)
    alphabet = [b"a", b"b", b"\xab", b"\xc0\xae", b"\xc0\xaf", b".", b"/", b"\xe0\x80\xae", b"\x00"]
    data = b"".join(rng.choice(alphabet) for _ in range(3000))
    p = parse_query(query, kind, spellings)
    expected = naive_starts(data, p.regex)
    src = MemorySource(data)
    for chunk in (4096, 5000, 1 << 20):
        found = [m for m in find_steps(src, p, chunk_size=chunk) if isinstance(m, Match)]
        assert offsets(found) == expected
        back = [m for m in find_steps(src, p, backwards=True, chunk_size=chunk) if isinstance(m, Match)]
        assert offsets(back) == expected[::-1]
    for m in find_all(src, p, limit=None)[0]:
        assert p.regex.fullmatch(data, m.offset, m.end)


def test_match_straddling_a_chunk_boundary_is_found_once():
    data = b"x" * 4094 + b"\xe2\x82\xac" + b"y" * 5000
    src = MemorySource(data)
    found = [m for m in find_steps(src, parse_query("E2 82 AC", HEX), chunk_size=4096)
             if isinstance(m, Match)]
    assert offsets(found) == [4094]


def test_range_limits_and_overlapping_matches():
    src = MemorySource(b"aaaa")
    p = parse_query("aa", TEXT)
    assert offsets(find_all(src, p)[0]) == [0, 1, 2]
    assert offsets(find_all(src, p, 1, 3)[0]) == [1]  # a match must lie inside the range
    assert find_all(src, p, limit=2) == ([Match(0, 2, "utf-8", ("utf-8", "utf-8")),
                                          Match(1, 2, "utf-8", ("utf-8", "utf-8"))], True)


def test_progress_and_cancel():
    data = b"ab" * 10000
    steps = find_steps(MemorySource(data), bytes_pattern(b"zz"), chunk_size=4096)
    progress = [s for s in steps if isinstance(s, Progress)]
    assert progress[-1].done == progress[-1].total == len(data)
    assert [p.done for p in progress] == sorted(p.done for p in progress)
    steps = find_steps(MemorySource(data), bytes_pattern(b"ab"), chunk_size=4096)
    first = [next(steps) for _ in range(3)]
    steps.close()  # cancel: the generator just ends
    assert offsets(first) == [0, 2, 4]
    with pytest.raises(StopIteration):
        next(steps)


def test_find_next_previous_wrap():
    data = b"..X.....X..X.."
    src = MemorySource(data)
    p = parse_query("X", TEXT)
    assert find_next(src, p, 0).offset == 2
    assert find_next(src, p, 3).offset == 8
    assert find_next(src, p, 12) is None
    assert find_next(src, p, 12, wrap=True).offset == 2
    assert find_previous(src, p, 8).offset == 2
    assert find_previous(src, p, 9).offset == 8
    assert find_previous(src, p, 2) is None
    assert find_previous(src, p, 2, wrap=True).offset == 11
    assert find_next(MemorySource(b""), p, 0) is None


def test_on_a_file_source(tmp_path):
    path = tmp_path / "f.bin"
    data = b"z" * 70000 + b"\xc0\xae\xc0\xae\xc0\xaf" + b"z" * 70000 + b"../"
    path.write_bytes(data)
    with FileSource(path) as src:
        found, _ = find_all(src, parse_query("../", TEXT, spellings=True), chunk_size=65536)
    assert [(m.offset, m.spelling) for m in found] == [(70000, "overlong"), (140006, "utf-8")]


@pytest.mark.parametrize("encoding, width", [("utf-16-le", 2), ("utf-16-be", 2),
                                             ("utf-32-le", 4)])
@pytest.mark.parametrize("backwards", [False, True])
def test_text_in_utf16_and_utf32_is_found_only_where_a_unit_starts(encoding, width, backwards):
    from inspector.core.analysis.search import find_all, find_next, find_previous
    from inspector.core.units.interpretation import interpretation

    reading = interpretation(encoding)
    # Characters whose bytes hold "A"'s bytes across their boundary, half of one and
    # half of the next (U+4100 U+0100 in UTF-16 LE is 00 41 00 01: "41 00" at offset 1).
    text = {"utf-16-le": "\u4100\u0100", "utf-16-be": "\u0100\u4142",
            "utf-32-le": "\u4100\x00"}[encoding]
    data = ("xy" + text + "A").encode(encoding)
    assert any(data.startswith("A".encode(encoding), o) for o in range(len(data))
               if o % width)
    pattern = parse_query("A", reading=reading)
    assert pattern.alignment == width
    found = [m.offset for m in find_all(MemorySource(data), pattern)[0]]
    assert found and all(o % width == 0 for o in found)
    assert [o for o in range(len(data)) if data.startswith("A".encode(encoding), o)
            and o % width == 0] == found
    src = MemorySource(data)
    step = (find_previous(src, pattern, len(data)) if backwards
            else find_next(src, pattern, 0))
    assert step is not None and step.offset % width == 0
