"""The checks the verdict makes at the byte level, to spare decodes and numpy passes, say
what the plainer checks they stand for say:

* the chardet filter's script mixing (``chardetfilter._mixing_scripts``, all the single-byte
  charsets at once, and ``mixes_scripts`` of one of them) is what the reading says
  (``_mixes_scripts_read``, a decode per charset);
* ``onereading._loses_more`` (a decode that gives up once too many characters are lost)
  is a "replace" decode's count of U+FFFD;
* ``charsets.plausible`` (deletion tables) counts what decoding each byte alone reads;
* ``charsets.wide_text_pattern``'s bound from the high bytes rejects nothing that its
  full check takes.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings import chardetfilter as F
from inspector.core.analysis.encodings import legacyguess as LG
from inspector.core.analysis.encodings import onereading as OR

# Bytes that make places where letters of two scripts meet: ASCII letters, spaces and
# punctuation, bytes above ASCII that read as letters in some charsets and as signs in
# others.
MIXED_PIECES = [b"a", b"Z", b"q", b" ", b".", b"\n", b"'", b"\xe9", b"\xe0", b"\xc1", b"\xd0",
                b"\xf0", b"\x80", b"\xa9", b"\xb5", b"\xe4\xe5", b"\xc0\xc1\xc2", b"\x8e"]
TEXTS = ["déjà vu, naïve café où l'été".encode("cp1252"),
         "Привет, как дела? Hello world".encode("koi8-r"),
         "Γειά σου κόσμε, abc".encode("cp1253"),
         "שלום עולם abc".encode("cp1255")]


def mixing_fast(data: bytes) -> set:
    names, _, _, other, can_mix = F._tables()
    a = np.frombuffer(data, dtype=np.uint8)
    high = a >= 0x80
    counts = np.bincount(a, minlength=256)[0x80:]
    return set(names[F._mixing_scripts(a, high, counts, other, can_mix)].tolist())


def mixing_slow(data: bytes) -> set:
    names, _, _, _, can_mix = F._tables()
    return {n for n in names[can_mix].tolist() if LG._mixes_scripts_read(data, n)}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MIXED_PIECES), max_size=80))
def test_script_mixing_at_the_byte_level_is_mixes_scripts(parts):
    data = b"".join(parts)
    assert mixing_fast(data) == mixing_slow(data)


def test_script_mixing_on_text():
    for data in TEXTS:
        assert mixing_fast(data) == mixing_slow(data)
        for name in F._FILTERED:  # one charset at a time, as the declared check asks
            assert LG.mixes_scripts(data, name) == LG._mixes_scripts_read(data, name)
    # French read as Cyrillic glues Cyrillic letters to Latin ones: never taken.
    assert "iso8859-5" in mixing_fast(TEXTS[0])
    assert "koi8-r" not in mixing_fast(TEXTS[1])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60), st.sampled_from(OR.DAMAGE_CANDIDATES),
       st.sampled_from([2, 3.5, 10]))
def test_loses_more_counts_as_a_replace_decode(data, encoding, most):
    assert OR._loses_more(data, encoding, most) == (
        data.decode(encoding, "replace").count("\ufffd") > most)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=30), st.binary(max_size=30),
       st.sampled_from(["cp1252", "iso8859-5", "koi8-r", "cp437", "cp1255", "mac-roman"]))
def test_plausible_counts_what_each_byte_reads_as(in_words, alone, encoding):
    def reads(b):
        ch = bytes((b,)).decode(encoding, "replace")
        return None if ch == "\ufffd" else ch
    good = sum(1 for b in in_words if reads(b) is not None and CS._wordlike(reads(b)))
    good += sum(1 for b in alone if reads(b) is not None and CS._textlike(reads(b)))
    total = len(in_words) + len(alone)
    assert CS.plausible(in_words, alone, encoding) == (good / total if total else 0.0)


WIDE_PIECES = ["こんにちは".encode("utf-16-le"), "안녕하세요".encode("utf-16-be"), "\n".encode("utf-16-le"),
               "漢字".encode("utf-16-le"), b"ab", b"\xe9\xe8", "Привет".encode("koi8-r"), b"\x00\x0a",
               "한국어".encode("utf-16-le") * 3, " ".encode("utf-16-le"), "。".encode("utf-16-le")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WIDE_PIECES), max_size=30))
def test_the_wide_text_bound_rejects_nothing_the_full_check_takes(parts):
    data = b"".join(parts)
    saved = CS._COMMON_HIGH, CS._CJK_OR_ASCII_HIGH
    try:
        # every high byte counted: no text kept out by the bounds
        CS._COMMON_HIGH = CS._CJK_OR_ASCII_HIGH = bytes(range(256))
        full = CS.wide_text_pattern(data)
    finally:
        CS._COMMON_HIGH, CS._CJK_OR_ASCII_HIGH = saved
    assert CS.wide_text_pattern(data) == full


def _reads(codec: str, data: bytes):
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def test_read_apart_sequences_are_all_the_multibyte_pairs_read_apart():
    """Each pair of ``charsets._READ_APART``: single bytes read alike, and every two-byte
    character of the first that the second reads otherwise matches the pattern."""
    for (a, b), apart in CS._READ_APART.items():
        for x in range(0x100):
            one = bytes((x,))
            assert _reads(a, one) is None or _reads(a, one) == _reads(b, one), (a, b, one)
        for lead in range(0x80, 0x100):
            for trail in range(0x21, 0x100):
                pair = bytes((lead, trail))
                mine = _reads(a, pair)
                if mine is not None and len(mine) == 1 and mine != _reads(b, pair):
                    assert apart.search(pair), (a, b, pair)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40), st.sampled_from([
    ("cp1252", "iso8859-1"), ("cp1251", "iso8859-5"), ("iso8859-7", "cp1253"),
    ("shift_jis", "cp932"), ("gb2312", "gb18030"), ("gbk", "gb18030"), ("big5", "big5hkscs"),
    ("euc_kr", "cp949"), ("euc_jis_2004", "euc_jp")]))
def test_reads_alike_is_two_readings_compared(data, pair):
    a, b = pair
    want = _reads(a, data) is not None and _reads(a, data) == _reads(b, data)
    assert CS.reads_alike(data, a, b) == want


def test_reads_alike_on_text():
    text = "日本語のテキスト、漢字と「かな」〜".encode("shift_jis")
    assert CS.reads_alike(text, "shift_jis", "cp932") == (text.decode("shift_jis") == text.decode("cp932"))
    korean = "한국어 텍스트입니다".encode("euc_kr")
    assert CS.reads_alike(korean, "euc_kr", "cp949")
    assert CS.reads_alike(b"\xa4\xd4\xa4\xbe\xa4\xbf\xa4\xd4", "euc_kr", "cp949") is False


ODD_PIECES = [b"word", b" ", b"\xe9", b"\xa4", b"\xa9", b"Per", b"mission", b".", b",", b"'", b"-",
              b"10", b"\xb0", b"\xa0", b"\n", b"\x93", b"(", b"MP3", b"x" * 45]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ODD_PIECES), min_size=1, max_size=40),
       st.sampled_from(["cp1252", "iso8859-1", "cp1250", "koi8-r", "iso8859-7"]))
def test_odd_words_of_a_few_bytes_one_by_one_is_the_numpy_count(parts, encoding):
    from inspector.core.analysis.encodings.stretches import Window

    data = b"".join(parts)
    w = Window(data, 0, True, True)
    err = w.err.nonzero()[0].tolist()
    if not err:
        return
    saved = OR.FEW_WORDS
    try:
        OR.FEW_WORDS = -1  # every count with numpy
        want = OR.odd_words(w, encoding)
    finally:
        OR.FEW_WORDS = saved
    assert OR._odd_words_few(data, encoding, err) == want
