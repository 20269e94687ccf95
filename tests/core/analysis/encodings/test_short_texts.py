"""Short real texts in legacy charsets are that charset, not "UTF-8 with problems", and
random damage stays damage (issue 27). The texts are sentences written for these tests;
longer files of the same kinds are in the labelled corpus (``tests/data/charsets``:
``ja_notice``, ``he_menu``, ``ru_links``, ``bg_feed``, ``en_cjk_punct``)."""

from __future__ import annotations

import random

import pytest

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.legacyguess import sharpen
from inspector.core.analysis.encodings.missedreadings import (borrowed_punctuation, kana_reading,
                                                              script_reading)
from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from tests.data.charsets import labelled as L


def judge(data: bytes):
    src = MemorySource(data)
    return verdict(scan(src), src)


KANA = [
    # A katakana word after a valid pair makes an overlong form by chance (C1 A5 in EUC-JP).
    "きのうの夜、テレビで『チャーリーとチョコレート工場』をみました。とてもたのしかったです。",
    "あしたはチョコレートのケーキをつくります。いもうとがチョコがだいすきなので、たのしみにしています。",
    "ふゆやすみに、ともだちとチャットでおしゃべりしながら、チョコチップのクッキーをたべました。",
]


@pytest.mark.parametrize("encoding", ["euc_jp", "shift_jis"])
@pytest.mark.parametrize("text", KANA)
def test_kana_text_is_japanese(text, encoding):
    """chardet 7 leaves the Japanese charsets out for such lines (CP866, CP775...)."""
    v = judge(text.encode(encoding))
    assert v.code == "legacy_charset", v.text
    assert L.strict_right(encoding, v.details["encoding"]), v.text


def test_kana_reading_needs_kana():
    assert kana_reading("世界和平与发展是当今时代的主题。".encode("gb18030")) is None
    assert kana_reading("Привет, как дела? Всё хорошо.".encode("cp1251")) is None
    rng = random.Random(3)
    for _ in range(300):  # random bytes above ASCII, in pairs as a multi-byte text has them
        data = b"text " + bytes(rng.randrange(0x81, 0x100) for _ in range(rng.choice([8, 24, 64])))
        assert kana_reading(data) is None, data


SENTENCE = ("I’ll be in Taipei for the last week of December… although it’s cold, "
            "I’ll still go hiking. Don’t forget the umbrella.\n")


@pytest.mark.parametrize("encoding", ["big5", "gbk", "cp932", "euc_kr"])
def test_latin_text_with_cjk_punctuation(encoding):
    """English typed on a Chinese, Japanese or Korean system: its quotes and ellipses are
    the multi-byte charset's ("December\\xa1K" in Big5), nothing else is above ASCII."""
    data = SENTENCE.encode(encoding)
    v = judge(data)
    assert v.code == "legacy_charset", v.text
    assert L.lenient_right(data, encoding, v.details["encoding"]), v.text
    assert v.details["by"] == "punctuation"


def test_borrowed_punctuation_is_never_random_bytes():
    base = ("The library opens at nine and closes at six. " * 6).encode()
    for seed in range(400):
        rng = random.Random(seed)
        data = bytearray(base)
        for _ in range(rng.choice([1, 2, 3])):
            at = rng.randrange(10, len(data) - 10)
            for k in range(rng.choice([1, 2, 4])):
                data[at + k] = rng.randrange(0x80, 0x100)
        assert borrowed_punctuation(bytes(data)) is None, (seed, bytes(data))


@pytest.mark.parametrize("text", ["¡Hola! ¡Vamos a la playa mañana por la tarde!\n",
                                  "¡Hola! ¡Vamos a la playa!\n", "Bis bald, Grüße aus München.\n",
                                  "Wir sehen uns übermorgen.\n"])
@pytest.mark.parametrize("encoding", ["cp1252", "cp850"])
def test_latin_text_is_no_borrowed_punctuation(text, encoding):
    """Spanish "¡" before a word is Big5 punctuation too ("\\xa1H"), CP850's "üb" is
    Windows-932's "｜": a single-byte Latin charset reads them."""
    v = judge(text.encode(encoding))
    assert not any(r.encoding != "utf-8" and CS.is_multibyte(r.encoding) for r in v.regions), v.text


def test_utf8_with_a_damaged_run_in_one_line_stays_problems():
    """Valid sequences carry most of the bytes above ASCII (one line, no clean line to
    count): UTF-8's shape, although GB18030 decodes the whole."""
    good = "Вчера мы ходили в театр на новую постановку, всем очень понравилось.".encode()
    for seed in range(30):
        rng = random.Random(seed)
        data = bytearray(good)
        at = rng.randrange(10, len(data) - 20)
        data[at:at + 8] = bytes(rng.randrange(0x80, 0x100) for _ in range(8))
        v = judge(bytes(data))
        assert v.code == "problems" and [r.encoding for r in v.regions] == ["utf-8"], (seed, v.text)


def test_iso8859_16_only_with_romanian_letters():
    """chardet names ISO-8859-16 for Hungarian text that reads the same in ISO-8859-2
    and for Slovene whose š ž it reads as č Ÿ: the Central European pair is named."""
    hungarian = "A kutyák a kertben játszanak, és a gyerekek örülnek a napsütésnek.".encode("iso8859-2")
    assert sharpen(hungarian, "iso8859-16")[0] in ("cp1250", "iso8859-2")
    slovene = "Ali se dela veseliš? Vprašanje je, kdo bo šel na tržnico.".encode("iso8859-2")
    assert sharpen(slovene, "iso8859-16")[0] in ("cp1250", "iso8859-2")
    romanian = "Mulțumim pentru ajutor, știm că a fost greu.".encode("iso8859-16")
    assert sharpen(romanian, "iso8859-16")[0] == "iso8859-16"
    assert sharpen(romanian, "iso8859-2", "ro")[0] == "iso8859-16"


def test_symbols_are_text_in_cjk_charsets():
    """Box drawing, arrows and shapes of the symbol rows count as text; private use not."""
    table = "┏━━━━━┓\n┃ 目次 ┃\n┗━━━━━┛\n■ 会場 ⇒ ３階 ○\n".encode("cp932")
    assert CS.plausible_text(table, "cp932") == 1.0
    private = bytes.fromhex("f040f041f042") + "ですます".encode("cp932")
    assert CS.plausible_text(private, "cp932") < 0.85


def test_gbk_text_without_ascii_is_not_utf16():
    """GB2312's lead bytes B0-D7 read in pairs are Hangul syllables: without a space
    they are not Korean text in UTF-16."""
    data = "艺术家们认为这种新的创作方法可以丰富人们的审美经验，它为年轻画家提供了发挥个性的新的可能性".encode("gbk")
    v = judge(data)
    assert v.code == "legacy_charset", v.text
    assert L.strict_right("gbk", v.details["encoding"]), v.text
    korean = "오늘은 날씨가 좋아서 친구들과 함께 공원에 갔습니다"
    assert CS.wide_text_pattern(korean.encode("utf-16-le")) == ("utf16", "utf-16-le")


def test_koi8_r_for_text_that_reads_the_same():
    """chardet names KOI8-U or KOI8-T for short Russian or Bulgarian text; without their
    own letters it reads the same in KOI8-R, the charset such text is in."""
    russian = "Обсуждение новой версии программы продолжится завтра.".encode("koi8-r")
    assert sharpen(russian, "koi8-u")[0] == "koi8-r"
    assert sharpen(russian, "koi8-t")[0] == "koi8-r"
    ukrainian = "Їжак і білка живуть у лісі, де ростуть ґрушки.".encode("koi8-u")
    assert sharpen(ukrainian, "koi8-u")[0] == "koi8-u"


FEED = ("http://blog.example.org/?p=41#comments\n Sat, 10 Dec 2005 11:02:40 +0000\n marina\n"
        " General\n http://blog.example.org/?p=41\n http://blog.example.org/?feed=rss2&p=41\n"
        " {word}\n http://blog.example.org/?p=40\n http://blog.example.org/?p=40#comments\n")


@pytest.mark.parametrize("word, encoding", [
    *(("Кино", e) for e in ("cp855", "cp866", "iso8859-5", "mac-cyrillic", "koi8-r", "cp1251")),
    *(("Отпуск", e) for e in ("cp855", "cp866", "iso8859-5"))])
def test_one_cyrillic_word_in_a_feed(word, encoding):
    """One Cyrillic word among ASCII lines: chardet names a Latin page (Windows-1252 reads
    "Кино" as "Êèíî", Mac Roman, CP437) or one that leaves it undecided; the word is a
    word of its own, in one case, and chardet asked again among the Cyrillic pages that
    read it so names the right one."""
    data = FEED.format(word=word).encode(encoding)
    v = judge(data)
    assert v.code == "legacy_charset", v.text
    assert L.strict_right(encoding, v.details["encoding"]), v.text


def test_script_reading_wants_whole_words_in_one_case():
    assert script_reading("Je vais à Paris demain.".encode("cp1252")) is not None  # "а" in Cyrillic
    assert script_reading("Je vais à Paris demain.".encode("cp1252"), 3) is None
    assert script_reading("Permission café".encode("cp1252")) is None  # glued to ASCII letters
    assert script_reading(b"Per\xcf\xf0ssion") is None
    # Windows-1251 and KOI8-R swap the cases: each reads the other's "Привет" as "пРИВЕТ".
    assert script_reading("ok Привет ok".encode("cp1251")) == "cp1251"
    assert script_reading("ok Привет ok".encode("koi8-r")) in ("koi8-r", "koi8-u")


TRIP = "We spent the whole week in the north, hiking every morning and swimming in the lake. " * 8


@pytest.mark.parametrize("ending, encoding", [
    ("The last evening we had dinner at מסעדת הים near the old port.\n", "cp1255"),
    ("The last evening we had dinner at מסעדת הים near the old port.\n", "iso8859-8"),
    ("My friend Ilya wrote in the guest book: Спасибо за всё.\n", "cp1251")])
def test_a_few_words_of_another_script_in_english(ending, encoding):
    """chardet names Windows-1252 ("ãñòãú äéí", "Ñïàñèáî"): whole words of three letters
    or more above ASCII are no Latin text."""
    data = (TRIP + ending).encode(encoding)
    v = judge(data)
    assert v.code == "legacy_charset", v.text
    assert L.strict_right(encoding, v.details["encoding"]), v.text


@pytest.mark.parametrize("text", ["¡Hola! ¡Vamos a la playa mañana por la tarde?\n",
                                  "¿Qué tal? El niño comió a las once.\n"])
def test_short_spanish_in_latin1_is_western(text):
    """chardet ties ISO-8859-1 and ISO-8859-3 on such a line, ISO-8859-1 first: asked
    about Windows-1252 instead of ISO-8859-1, the tie went to ISO-8859-3 (Ħola)."""
    v = judge(text.encode("latin-1"))
    assert v.code == "legacy_charset"
    assert L.strict_right("windows-1252", v.details["encoding"]), v.text
