"""Text runs against their definition (the unit contract's "Text runs"): a slow, obvious
reference built on the decoder's units (UTF-8 dialects) and on a plain walk over code
units (UTF-16), compared with the vectorised finder on random bytes with text inside,
in every encoding option and dialect, with blocks small enough that runs cross them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.textruns import (ENCODINGS, ScriptSets, encodings_of, find_runs,
                                              run_text)
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K
from inspector.core.units.chartables import COMMON, INHERITED, UNKNOWN, is_printable, script
from inspector.core.units.decoder import cut

IGNORED = {"Unknown", "Common", "Inherited"}


def scripts_of(text: str) -> list[str]:
    counts: dict[str, int] = {}
    for c in text:
        name = script(ord(c))
        if name not in IGNORED:
            counts[name] = counts.get(name, 0) + 1
    return sorted(counts, key=lambda n: (-counts[n], n)) or ["Common"]


def reference_utf8(data: bytes, min_chars: int, dialect: str) -> list[tuple]:
    units = cut(data, 0, dialect, final=True)
    out = []
    i = 0
    while i < len(units):
        u = units[i]
        if not (u.is_valid and u.value is not None and is_printable(u.value)):
            i += 1
            continue
        j = i
        while j < len(units) and units[j].is_valid and units[j].value is not None \
                and is_printable(units[j].value):
            j += 1
        if j - i >= min_chars:
            start, end = units[i].offset, units[j - 1].end
            text = "".join(chr(x.value) for x in units[i:j])
            out.append((start, end - start, j - i, "utf-8",
                        i > 0 and units[i - 1].is_error,
                        j < len(units) and units[j].is_error, scripts_of(text), text))
        i = j
    return out


def reference_utf16(data: bytes, min_chars: int, encoding: str) -> list[tuple]:
    order = "big" if encoding == "utf-16-be" else "little"
    cus = [int.from_bytes(data[k:k + 2], order) for k in range(0, len(data) - 1, 2)]
    chars = []  # (unit index, units, code point or None for a lone surrogate)
    k = 0
    while k < len(cus):
        c = cus[k]
        if 0xD800 <= c <= 0xDBFF and k + 1 < len(cus) and 0xDC00 <= cus[k + 1] <= 0xDFFF:
            chars.append((k, 2, 0x10000 + ((c - 0xD800) << 10) + (cus[k + 1] - 0xDC00)))
            k += 2
        elif 0xD800 <= c <= 0xDFFF:
            chars.append((k, 1, None))
            k += 1
        else:
            chars.append((k, 1, c))
            k += 1
    out = []
    i = 0
    while i < len(chars):
        if chars[i][2] is None or not is_printable(chars[i][2]):
            i += 1
            continue
        j = i
        while j < len(chars) and chars[j][2] is not None and is_printable(chars[j][2]):
            j += 1
        if j - i >= min_chars:
            start = 2 * chars[i][0]
            end = 2 * (chars[j - 1][0] + chars[j - 1][1])
            text = "".join(chr(c[2]) for c in chars[i:j])
            out.append((start, end - start, j - i, encoding,
                        i > 0 and chars[i - 1][2] is None,
                        j < len(chars) and chars[j][2] is None, scripts_of(text), text))
        i = j
    return out


def reference(data: bytes, option: str, min_chars: int, dialect: str) -> list[tuple]:
    runs = []
    for encoding in encodings_of(option):
        if encoding == "utf-8":
            runs += reference_utf8(data, min_chars, dialect)
        else:
            runs += reference_utf16(data, min_chars, encoding)
    return sorted(runs, key=lambda r: r[0])  # stable: encodings keep their order at a tie


def fast(data: bytes, option: str, min_chars: int, dialect: str, block_size: int) -> list[tuple]:
    source = MemorySource(data)
    sets = ScriptSets()
    out = []
    for batch in find_runs(source, encodings_of(option), min_chars, dialect,
                           block_size=block_size, script_sets=sets):
        for i in range(len(batch)):
            enc = ENCODINGS[int(batch.encoding[i])]
            off, length = int(batch.offset[i]), int(batch.length[i])
            out.append((off, length, int(batch.chars[i]), enc, bool(batch.damaged_before[i]),
                        bool(batch.damaged_after[i]), sets.names(int(batch.script_set[i])),
                        run_text(source, off, length, enc, dialect)))
    return out


WORDS = ["hello world", "Grüße", "αβγ δέλτα", "Привет", "日本語のテキスト", "한국어", "עברית",
         "العربية", "हिन्दी", "ไทย", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "😀🎉", "e\u0301", "123 456", "a\tb",
         "\u200b", "\u00a0", "x\u2028y", "\ue000pua", "\ufeffbom", "\U000E0001tag"]


def encoded(word: str, how: str) -> bytes:
    if how == "utf-8":
        return word.encode("utf-8")
    if how == "cesu-8":
        return word.encode("utf-16-be", "surrogatepass").decode("utf-16-be").encode(
            "utf-8", "surrogatepass") if all(ord(c) < 0x10000 for c in word) else \
            "".join(c if ord(c) < 0x10000 else
                    chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
                    for c in word).encode("utf-8", "surrogatepass")
    return word.encode(how)


piece = st.one_of(
    st.binary(max_size=24),
    st.builds(encoded, st.sampled_from(WORDS),
              st.sampled_from(["utf-8", "utf-8", "cesu-8", "utf-16-le", "utf-16-be"])),
    st.sampled_from([b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xc0\x80", b"\xf8\x88\x80\x80\x80",
                     b"\xf4\x90\x80\x80", b"\x00\xd8", b"\xd8\x00", b"\x80", b"\xff", b" "]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(piece, max_size=20), option=st.sampled_from(["utf-8", "utf-16-le",
                                                                      "utf-16-be", "all"]),
       min_chars=st.integers(1, 8), dialect=st.sampled_from(K.DIALECTS),
       block_size=st.sampled_from([64, 70, 97, 256, 1 << 20]))
def test_the_finder_follows_the_definition(pieces, option, min_chars, dialect, block_size):
    data = b"".join(pieces)
    assert fast(data, option, min_chars, dialect, block_size) == \
        reference(data, option, min_chars, dialect)


@pytest.mark.parametrize("option", ["utf-8", "utf-16-le", "utf-16-be", "all"])
def test_random_bytes_in_large_blocks(option):
    import random
    rng = random.Random(7)
    parts = []
    for _ in range(300):
        parts.append(rng.randbytes(rng.randrange(0, 200)))
        parts.append(encoded(rng.choice(WORDS) * rng.randrange(1, 4),
                             rng.choice(["utf-8", "utf-16-le", "utf-16-be"])))
    data = b"".join(parts)
    for block in (1000, 4096, 1 << 20):
        assert fast(data, option, 4, K.UTF8, block) == reference(data, option, 4, K.UTF8)


def test_a_run_longer_than_many_blocks_is_one_run():
    data = b"\xff" + b"abc " * 5000 + b"\x80"
    runs = fast(data, "utf-8", 4, K.UTF8, 64)
    assert [(r[0], r[1], r[4], r[5]) for r in runs] == [(1, 20000, True, True)]


def test_the_script_indices_are_the_generators_order():
    assert (script(0x41), script(0x20), script(0x301)) == ("Latin", "Common", "Inherited")
    assert (UNKNOWN, COMMON, INHERITED) == (0, 1, 2)
    assert script(ord("日")) == "Han" and script(ord("α")) == "Greek"


def test_printable_is_the_definition():
    assert is_printable(0x20) and is_printable(0x09) and is_printable(ord("a"))
    for cp in (0x0A, 0x00, 0x7F, 0x85, 0xA0, 0x200B, 0x2028, 0x2029, 0xE000, 0xD800, 0xFFFF,
               0x3000, 0xFEFF):
        assert not is_printable(cp), hex(cp)
