"""Which legacy charset bytes that are not UTF-8 are in: chardet's answer, checked and
sharpened by the tell-tales of the bytes (:func:`guess_legacy`); and the charsets told
by their escape sequences alone (:func:`escape_encoding`).

Why chardet. On the project's labelled corpus (``tests/data/charsets``, 276 files in 60
charsets, ``tests/benchmarks/bench_detectors.py``) chardet 7 names the right charset for
93 % of the files, charset-normalizer for 78 %, cchardet for 73 %; on short files the gap
is wider. chardet's language models tell Czech Windows-1250 from Western Windows-1252,
Bulgarian Windows-1251 from KOI8-R, DOS Greek and Hebrew from the Windows pages, where
charset-normalizer's chaos measure sees the same letters. charset-normalizer remains the
second opinion when chardet has no answer (:mod:`.charsets`).

What is added to chardet's answer (the tell-tales):

* the decode-safe name: when the ISO 8859 part chardet names reads the bytes exactly as
  the Windows code page of its script does (no byte 80-9F, none of the few letters the
  two place differently), the Windows page is named, the same text and the charset
  browsers and editors use; likewise Windows-932 for Shift JIS, Windows-949 for EUC-KR,
  GB18030 for GB2312/GBK, Big5-HKSCS for Big5, Windows-874 for TIS-620. A byte 80-9F
  that the Windows page reads as punctuation (curly quotes, dashes, the euro sign) makes
  it the Windows page; one it leaves undefined keeps the ISO part;
* ISO-8859-15 against Latin-1 and Windows-1252: the euro sign at A4 beside a digit or a
  space, œ Œ š Š between letters (Latin-1 reads ¤ ½ ¼ ¦ ¨ there), and no byte 80-9F;
* ISO-8859-16 for Romanian (ș ț with a comma below, € „ ” « ») when no byte 80-9F makes
  it Windows-1250 and no byte that ISO-8859-16 reads otherwise than ISO-8859-2 says it is
  not (ű, û in ISO-8859-16, of a Hungarian text); with no byte telling them apart, or
  with such a byte, the Central European pair is named (its Windows page when it reads
  the same), whatever language chardet saw (it names ISO-8859-16 for Hungarian text
  that reads the same in both, and for Slovene whose š ž it reads as č Ÿ);
* KOI8-R for chardet's KOI8-U or KOI8-T when the bytes read the same in it (none of the
  Ukrainian or Tajik letters);
* a reading that glues letters of another script (Greek, Cyrillic, Hebrew, Arabic,
  Thai) to ASCII letters is not taken: chardet's next answer is (French text with many
  accents may score best as Mac Cyrillic);
* the language chardet saw, only when its confidence is ``LANGUAGE_CONFIDENCE`` or more
  (a few words of French are not told from Spanish).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings import chardetfilter as F
from inspector.core.analysis.encodings.chardetfilter import OTHER_SCRIPT_RANGES

CHARDET_LIMIT = 16 << 10       # bytes handed to chardet at most (see chardet_sample)
CHARDET_HEAD = 4 << 10         # the head handed whole: where declarations stand
LANGUAGE_CONFIDENCE = 0.4      # chardet's confidence from which its language is named

# (ISO 8859 part, Windows code page) of one script.
_ISO_WINDOWS = {"iso8859-1": "cp1252", "iso8859-2": "cp1250", "iso8859-5": "cp1251",
                "iso8859-6": "cp1256", "iso8859-7": "cp1253", "iso8859-8": "cp1255",
                "iso8859-9": "cp1254", "iso8859-13": "cp1257", "iso8859-15": "cp1252",
                "tis-620": "cp874", "iso8859-11": "cp874"}
# A wider charset that reads the same bytes alike (and more): named when it does.
_WIDER = {"shift_jis": "cp932", "euc_kr": "cp949", "gb2312": "gb18030", "gbk": "gb18030",
          "big5": "big5hkscs", "cp950": "big5hkscs"}
# chardet's names for charsets better known by another that reads the bytes alike.
_USUAL = {"euc_jis_2004": "euc_jp", "shift_jis_2004": "cp932", "iso2022_jp_2": "iso2022_jp"}
# Rarer relatives chardet names for text that reads the same in the common charset: KOI8-U
# and KOI8-T for Russian or Bulgarian without Ukrainian or Tajik letters (not applied to a
# declared charset, which says which one the file is in).
_MORE_COMMON = {"koi8-u": "koi8-r", "koi8-t": "koi8-r"}
_UNICODE = {"utf-8", "utf-8-sig", "ascii", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
            "utf-32-le", "utf-32-be", "utf-7"}
# Encodings no text file with ASCII line ends is in (EBCDIC): chardet is not asked about them.
_NOT_ASKED = ("cp037", "cp500", "cp1026", "cp1140", "cp273", "cp875", "cp424")

LANGUAGES = {"ar": "Arabic", "be": "Belarusian", "bg": "Bulgarian", "br": "Breton",
             "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
             "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
             "fa": "Farsi", "fi": "Finnish", "fr": "French", "ga": "Irish", "gd": "Gaelic",
             "he": "Hebrew", "hr": "Croatian", "hu": "Hungarian", "id": "Indonesian",
             "is": "Icelandic", "it": "Italian", "ja": "Japanese", "kk": "Kazakh",
             "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian",
             "ms": "Malay", "mt": "Maltese", "nl": "Dutch", "no": "Norwegian",
             "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
             "sk": "Slovak", "sl": "Slovene", "sr": "Serbian", "sv": "Swedish",
             "tg": "Tajik", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
             "ur": "Urdu", "vi": "Vietnamese", "zh": "Chinese"}

# ISO-8859-15's own letters and sign where Latin-1 has ¤ ¦ ¨ ´ ¸ ¼ ½ ¾: the euro sign
# beside a digit or a space, œ Œ š Š between letters.
_EURO_A4 = re.compile(rb"[0-9 ]\xa4|\xa4[0-9 ]")
_LATIN9_LETTERS = re.compile(rb"[A-Za-z\xc0-\xff][\xa6\xa8\xbc\xbd][A-Za-z\xc0-\xff]")


def _latin9_tell(data: bytes) -> bool:
    """ISO-8859-15's euro sign or one of its letters (the patterns above), looked for only
    when their bytes stand in ``data`` (a byte is found at memchr speed, a pattern that
    starts with a class of bytes is tried at every byte)."""
    return ((b"\xa4" in data and _EURO_A4.search(data) is not None)
            or (any(b in data for b in (b"\xa6", b"\xa8", b"\xbc", b"\xbd"))
                and _LATIN9_LETTERS.search(data) is not None))


class Guess:
    """chardet's answer after the tell-tales: ``encoding`` (a codec name), ``language``
    (empty unless confidently seen), ``confidence`` (chardet's), ``same_as``: the ISO 8859
    part that reads these bytes exactly like the Windows page named (or "")."""

    __slots__ = ("encoding", "language", "confidence", "same_as")

    def __init__(self, encoding: str, language: str, confidence: float, same_as: str = ""):
        self.encoding = encoding
        self.language = language
        self.confidence = confidence
        self.same_as = same_as

    def __repr__(self):
        return f"Guess({self.encoding!r}, {self.language!r}, {self.confidence:.2f})"


def decodes(data: bytes, encoding: str, cut_end: bool = True) -> bool:
    """``data`` decodes in ``encoding`` (but for a character cut by its end, when
    ``cut_end``). The reading is made once within :func:`~.charsets.reading_once`, and
    remembered for the last few samples up to ``CS.DECODE_MEMO_LIMIT`` bytes: the
    whole-file reading and the guess ask the same."""
    try:
        if CS.strict_text(data, encoding) is not None:
            return True
    except LookupError:
        return False
    if not cut_end:
        return False
    if len(data) > CS.DECODE_MEMO_LIMIT:
        return _decodes_cut(data, encoding)
    return _decodes_cut_memo(data, encoding)


def _decodes_cut(data: bytes, encoding: str) -> bool:
    """``data`` less its last one to three bytes decodes (a character cut by the end)."""
    for trim in range(1, 4):
        if trim >= len(data):
            break
        try:
            data[:len(data) - trim].decode(encoding)
            return True
        except (UnicodeDecodeError, RuntimeError):   # RuntimeError: see _chardet
            continue
    return False


_decodes_cut_memo = functools.lru_cache(maxsize=8)(_decodes_cut)


_same = CS.reads_alike  # (the decode-safe name reads the bytes alike)

# An answer given at a confidence below ``UNSURE`` (random damage reads as text in some
# charset, and box drawing as symbols in its DOS code page: the one chardet preferred
# among all may be left out) is weighed again against the charsets left out, and the
# one of them chardet prefers to it replaces it (asked about all again, on both corpora
# the answer was the same each time, at twice the cost).
UNSURE = 0.35          # chardet's confidence below which the charsets left out are asked
_FILTER_KNOWN = True  # False once chardet refused one of the names


def _chardet_asked(data: bytes, every: bool = False):
    """chardet's answer for ``data`` (a dict), or all its answers, best first. chardet is
    first asked without the single-byte charsets that cannot be the answer
    (:func:`~.chardetfilter.unlikely_charsets`), and when it is unsure of that answer, again about those
    it was not asked about, against that answer; a short sample, of which it is unsure
    most times (1,674 times in 2,033 on prefixes of both corpora's files, its answers the
    same either way), is asked about them at once. Never about the charsets it would set
    aside itself, nor about those whose reading is never taken (:mod:`.chardetfilter`)."""
    global _FILTER_KNOWN
    try:
        import chardet
        from chardet import EncodingEra
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    if every:
        return chardet.detect_all(data, ignore_threshold=True, encoding_era=EncodingEra.ALL,
                                  compat_names=False, max_bytes=CHARDET_LIMIT,
                                  exclude_encodings=_NOT_ASKED)
    never, unlikely, _, short = F.asked(data) if _FILTER_KNOWN else ((), (), (), True)
    if unlikely and not short:  # (a short sample leaves chardet unsure most times: one call)
        try:
            found = chardet.detect(data, encoding_era=EncodingEra.ALL, compat_names=False,
                                   max_bytes=CHARDET_LIMIT,
                                   exclude_encodings=_NOT_ASKED + never + unlikely)
            if (found.get("confidence") or 0.0) >= UNSURE:
                return found
            first = found.get("encoding")
            if first:
                # Unsure: the charsets left out, against its answer (not all again: the
                # others lost to it already, and a call about all costs twice as much).
                again = chardet.detect(data, encoding_era=EncodingEra.ALL, compat_names=False,
                                       max_bytes=CHARDET_LIMIT, include_encodings=unlikely + (first,),
                                       no_match_encoding=first)
                better = (again.get("confidence") or 0.0) > (found.get("confidence") or 0.0)
                return again if again.get("encoding") not in (first, None) and better else found
        except ValueError:  # a chardet that does not know one of the names
            _FILTER_KNOWN = False
            never = ()
    return chardet.detect(data, encoding_era=EncodingEra.ALL, compat_names=False,
                          max_bytes=CHARDET_LIMIT, exclude_encodings=_NOT_ASKED + never)


def _chardet(data: bytes, every: bool = False):
    """:func:`_chardet_asked`, or None when chardet fails on the bytes: its check of
    the escape encodings decodes them, and CPython's ISO-2022-JP-2 decoder raises
    RuntimeError on ESC N after ESC . J instead of reporting an error."""
    try:
        return _chardet_asked(data, every)
    except RuntimeError:
        return [] if every else None


# Letters of the scripts with their own single-byte charsets (Greek, Cyrillic, Hebrew,
# Arabic, Thai), against an ASCII letter: a word that mixes two scripts.
_OTHER_SCRIPT = "\u0370-\u052f\u0590-\u06ff\u0e00-\u0e7f"
_SCRIPT_LETTER = re.compile(f"[{_OTHER_SCRIPT}]")


def mixes_scripts(data: bytes, encoding: str) -> bool:
    """``encoding`` reads the bytes above 0x7F of ``data`` as letters of another script
    than Latin glued to ASCII letters, in a tenth of the places or more: Cyrillic inside
    French words ("dщjр" for "déjà") is a wrong reading, not text. The places are counted
    as a regular expression finds them, left to right without overlap ("aбc" is one).
    A single-byte charset that chardet's filter knows is judged from the bytes (no
    decode: :func:`~.chardetfilter.mixes_scripts_bytes`), any other from its reading."""
    if not _may_read_other_script(encoding):
        return False
    found = F.mixes_scripts_bytes(data, encoding)
    if found is not None:
        return found
    return _mixes_scripts_read(data, encoding)


def _mixes_scripts_read(data: bytes, encoding: str) -> bool:
    """:func:`mixes_scripts` on the text ``encoding`` reads ``data`` as."""
    try:
        text = CS.decoded(data, encoding)
    except LookupError:
        return False
    if text.isascii():
        return False
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    other = np.zeros(len(points), dtype=bool)
    for lo, hi in OTHER_SCRIPT_RANGES:
        other |= (points >= lo) & (points <= hi)
    letters = int(np.count_nonzero(other))
    if not letters:
        return False
    folded = points | 0x20
    latin = (folded >= 0x61) & (folded <= 0x7A)
    glued = (latin[:-1] & other[1:]) | (other[:-1] & latin[1:])  # at i: characters i, i + 1
    # Without overlap: a chain of k glued places in a row ("aбcд") is matched (k + 1) // 2 times.
    edges = np.diff(glued, prepend=False, append=False).nonzero()[0]
    chains = edges[1::2] - edges[0::2]
    mixed = int(((chains + 1) // 2).sum())
    return mixed >= 2 and mixed * 10 >= letters


@functools.lru_cache(maxsize=None)
def _may_read_other_script(encoding: str) -> bool:
    """Whether ``encoding`` has letters of those scripts at all (a multibyte charset
    may: Shift JIS has Cyrillic and Greek); Windows-1252 and the other Latin pages have
    none, and need no reading."""
    if CS.is_multibyte(encoding):
        return True
    try:
        table = bytes(range(0x80, 0x100)).decode(encoding, "replace")
    except LookupError:
        return False
    return bool(_SCRIPT_LETTER.search(table))


def _answers(sample: bytes):
    """chardet's answers for ``sample`` that may hold: its first, and when that one
    reads the bytes as another script glued to ASCII letters, the next that does not."""
    found = _chardet(sample)
    if not found or not found.get("encoding"):
        return
    yield found
    for other in _chardet(sample, every=True) or ():
        if other.get("encoding") and other["encoding"] != found["encoding"]:
            yield other


# Latin charsets of other scripts than the Western one, which chardet may name for a
# few words of Western text.
_OTHER_LATIN = {"cp1250", "iso8859-2", "cp1257", "iso8859-13", "cp1254", "iso8859-9",
                "iso8859-16", "iso8859-3", "iso8859-4", "iso8859-10", "iso8859-14",
                "mac-latin2", "cp1258", "cp852", "cp775"}
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def _text_share(data: bytes, encoding: str) -> float:
    """How well a single-byte ``encoding`` reads the bytes above 0x7F of ``data`` (the
    share :func:`~.charsets.plausible` gives: letters inside words, text beside them)."""
    return CS.plausible(*CS.once(data, "high bytes by words", lambda: _high_bytes_by_words(data)),
                        encoding)


def _high_bytes_by_words(data: bytes) -> tuple[bytes, bytes]:
    """The bytes above 0x7F of ``data``: (in words, the others). A run of such bytes is
    in a word when a byte beside it is none of digits, spaces and ASCII punctuation."""
    a = np.frombuffer(data, dtype=np.uint8)
    around = np.zeros(len(a) + 2, dtype=bool)  # high, with no high byte before and after
    high = around[1:-1]
    np.greater_equal(a, 0x80, out=high)
    if not high.any():
        return b"", b""
    edges = (around[1:] != around[:-1]).nonzero()[0]
    starts, ends = edges[0::2], edges[1::2]
    # The byte before and the byte after each run (none at the data's edges).
    before = np.where(starts > 0, _WORDISH.take(a[np.maximum(starts - 1, 0)]), False)
    after = np.where(ends < len(a), _WORDISH.take(a[np.minimum(ends, len(a) - 1)]), False)
    in_words = before | after
    run_of = np.cumsum(_marks(starts, len(a))) - 1  # the run each byte is in or after
    byte_in_word = in_words[run_of[high]]
    values = a[high]
    return values[byte_in_word].tobytes(), values[~byte_in_word].tobytes()


def _marks(starts: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.int64)
    out[starts] = 1
    return out


# A byte beside a run of high bytes that makes it part of a word: not a digit, space or
# ASCII punctuation (a high byte beside a run is part of it, so never one).
_WORDISH = np.ones(256, dtype=bool)
_WORDISH[list(b"0123456789 \t\r\n.,;:!?'\"()<>-")] = False


# The bytes ISO-8859-16 reads otherwise than ISO-8859-2 as Romanian writes them: ș ț Ș Ț
# with a comma below (ISO-8859-2 has them with a cedilla), € „ ” « ».
_LATIN10_ROMANIAN = frozenset(b"\xaa\xba\xde\xfe\xa4\xa5\xb5\xab\xbb")
_LATIN10_OTHER = bytes(b for b in range(0xA0, 0x100) if b not in _LATIN10_ROMANIAN
                       and bytes((b,)).decode("iso8859-16") != bytes((b,)).decode("iso8859-2"))


def _romanian_latin10(data: bytes) -> bool:
    """``data`` uses a byte that ISO-8859-16 reads as Romanian does and ISO-8859-2
    otherwise, and no other byte the two read differently (ű is û in ISO-8859-16: a
    Hungarian text chardet took for Romanian). Without such a byte nothing tells
    ISO-8859-16 from the Central European pair, whose Windows page is the safe name."""
    if any(b in data for b in _LATIN10_OTHER_BYTES):
        return False
    return any(bytes((b,)) in data for b in _LATIN10_ROMANIAN)


_LATIN10_OTHER_BYTES = [bytes((b,)) for b in _LATIN10_OTHER]


def sharpen(data: bytes, encoding: str, language: str = "") -> tuple[str, str]:
    """(the charset the tell-tales make of ``encoding``, the ISO 8859 part that reads the
    bytes the same when a Windows page was named in its place, or "")."""
    western = encoding in ("cp1252", "iso8859-1", "iso8859-15")
    c1 = CS.uses_c1_range(data)
    if western and not c1:
        if _latin9_tell(data):
            if decodes(data, "iso8859-15"):
                return "iso8859-15", ""
        elif encoding == "iso8859-15":
            encoding = "iso8859-1"  # none of its own letters: it reads as Latin-1
    if language == "ro" and encoding in ("cp1250", "iso8859-2", "iso8859-16") and not c1:
        if _romanian_latin10(data):
            return "iso8859-16", ""
    if encoding == "iso8859-16" and not _romanian_latin10(data):
        # Nothing of its own (a Hungarian text reads the same in both), or letters it reads
        # otherwise than Central European text writes them (Slovene "vprašanji" would be
        # "vpračanji"): the Central European pair.
        encoding = "iso8859-2"
    if encoding == "iso8859-15":
        return encoding, ""
    if encoding in _OTHER_LATIN and not c1 | (encoding == "cp1250"):
        western = "iso8859-1"
        if _text_share(data, western) > _text_share(data, encoding):
            encoding = western  # ½ and © of Western text, not ˝ and Š of another Latin script
    elif encoding in _OTHER_LATIN and decodes(data, "cp1252"):
        if _text_share(data, "cp1252") > _text_share(data, encoding):
            encoding = "cp1252"
    windows = _ISO_WINDOWS.get(encoding)
    if windows and _same(data, encoding, windows):
        return windows, encoding
    usual = _USUAL.get(encoding) or _MORE_COMMON.get(encoding)
    if usual and _same(data, encoding, usual):
        return usual, ""
    wider = _WIDER.get(encoding)
    if wider and _same(data, encoding, wider):
        return wider, ""
    return encoding, ""


@functools.lru_cache(maxsize=None)
def _read_alike(a: str, b: str) -> bytes:
    """The bytes two single-byte charsets read as the same character (so that the
    bytes of a text that are left when these are taken out are those it reads apart)."""
    def one(name, byte):
        try:
            return bytes((byte,)).decode(name)
        except UnicodeDecodeError:
            return None
    return bytes(x for x in range(256) if one(a, x) is not None and one(a, x) == one(b, x))


def sharpen_declared(data: bytes, encoding: str) -> tuple[str, str]:
    """:func:`sharpen` for a charset the file declares (:mod:`.declared`): only the
    decode-safe name and bytes 80-9F, no other script's or language's tell-tale (the
    file said which charset it is in). (The name, the ISO 8859 part that reads the
    bytes alike when its Windows page is named in its place, or "".)"""
    windows = _ISO_WINDOWS.get(encoding)
    if windows and encoding != "iso8859-15":
        if CS.uses_c1_range(data):  # punctuation in the Windows page, controls in the ISO part
            return (windows, "") if decodes(data, windows) else (encoding, "")
        if not data.translate(None, _read_alike(encoding, windows)):
            return windows, encoding
    for other in (_USUAL.get(encoding), _WIDER.get(encoding)):
        if other and _same(data, encoding, other):
            return other, ""
    return encoding, ""


_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def _next_high_byte(data: bytes, pos: int) -> int:
    """Where the first byte above ASCII from ``pos`` on stands, or -1. ASCII is skipped in
    growing pieces at ``isascii``'s speed (a class of bytes is searched a byte at a time,
    ~3 ms for a 750 KB file with one such byte at its start)."""
    n = len(data)
    step = 1024
    while pos < n:
        end = min(n, pos + step)
        if not data[pos:end].isascii():
            return _HIGH_BYTE.search(data, pos, end).start()
        pos = end
        step = min(step * 4, 1 << 20)
    return -1


def chardet_sample(data: bytes) -> bytes:
    """What chardet is shown of ``data``: its head (where an XML or HTML declaration of
    the charset stands: chardet reads one in its first 4 KB, and takes it when the bytes
    decode in it), then only the lines that hold bytes above ASCII, up to
    ``CHARDET_LIMIT`` bytes in all. A web page is mostly ASCII markup, which tells no
    charset from another: chardet's time goes into checking and scoring it. Lines are
    kept whole, so that no character is cut (a line end is never inside one). Cut once
    per ``data`` within :func:`~.charsets.reading_once`."""
    if len(data) <= 2 * CHARDET_HEAD:
        return data
    return CS.once(data, "chardet sample", lambda: _cut_sample(data))


def _cut_sample(data: bytes) -> bytes:
    cut = data.rfind(b"\n", 0, CHARDET_HEAD) + 1 or CHARDET_HEAD
    parts = [data[:cut]]
    size = cut
    pos = cut
    while size < CHARDET_LIMIT:
        found = _next_high_byte(data, pos)
        if found < 0:
            break
        first = data.rfind(b"\n", pos, found) + 1 or pos
        end = data.find(b"\n", found + 1)
        end = len(data) if end < 0 else end + 1
        parts.append(data[first:end])
        size += end - first
        pos = end
    sample = b"".join(parts)
    if len(sample) <= CHARDET_LIMIT:
        return sample
    last = sample.rfind(b"\n", 0, CHARDET_LIMIT) + 1  # whole lines, when there is one
    return sample[:last or CHARDET_LIMIT]


def guess_legacy(data: bytes) -> Guess | None:
    """chardet's charset for ``data`` (bytes that are not UTF-8) after the tell-tales
    (module text), or None when chardet names none, names a Unicode encoding, or names
    one that does not decode the bytes. chardet sees :func:`chardet_sample`."""
    sample = chardet_sample(data)
    for found in _answers(sample):
        encoding = CS.codec_name(found["encoding"])
        if encoding in _UNICODE:
            return None
        if decodes(sample, encoding) and (encoding in F.asked(sample)[2]
                                          or not mixes_scripts(sample, encoding)):
            break  # (chardet's filter may have found that it does not mix scripts)
    else:
        return None
    lang = found.get("language") or ""
    encoding, same_as = sharpen(sample, encoding, lang)
    confidence = float(found.get("confidence") or 0.0)
    language = LANGUAGES.get(lang, "") if confidence >= LANGUAGE_CONFIDENCE else ""
    return Guess(encoding, language, confidence, same_as)


def guess_charset(data: bytes):
    """The legacy charset of ``data`` (bytes that are not UTF-8), a
    :class:`~.charsets.CharsetGuess`: chardet's, sharpened by the tell-tales of the bytes
    (module text); charset-normalizer's (:func:`~.charsets.normalizer_guess`), sharpened
    alike, when chardet has none. None when neither finds a legacy charset."""
    found = guess_legacy(data)
    if found is not None:
        return CS.CharsetGuess(found.encoding, found.language, 1.0 - found.confidence,
                               found.confidence, [found.encoding], "chardet", found.same_as)
    found = CS.normalizer_guess(data)
    if found is not None and found.by == "charset-normalizer":
        found.encoding, found.same_as = sharpen(CS.head_lines(data, CS.GUESS_LIMIT), found.encoding)
    return found


# ------------------------------------------------------------------- escape sequences

_ESCAPES = (  # (designation, the codecs that may read it, in order)
    (re.compile(rb"\x1b\$\)C"), ("iso2022_kr",)),
    (re.compile(rb"\x1b\$[@B]|\x1b\$\(D|\x1b\([BJI]"),
     ("iso2022_jp", "iso2022_jp_ext", "iso2022_jp_2", "iso2022_jp_2004", "iso2022_jp_3")),
    (re.compile(rb"\x1b\$[AG-H]|\x1b\$\(Q"), ("iso2022_jp_2", "iso2022_jp_2004")),
)
_HZ = re.compile(rb"~\{[\x21-\x7e]{2,}~\}")
HZ_ALONE = 4  # GB characters that make one HZ span enough


def escape_encoding(head: bytes) -> str | None:
    """The 7-bit charset that ``head`` (the start of the data) is in when it switches
    character sets by escape sequences (ISO-2022-JP, ISO-2022-KR) or HZ's ``~{ ~}``, and
    decodes in it; else None. Only 7-bit data is looked at."""
    if not head or not head.isascii():
        return None
    if b"\x1b" in head:
        for pattern, codecs in _ESCAPES:
            if pattern.search(head):
                for name in codecs:
                    if decodes(head, name):
                        return name
        return None
    if b"~{" in head:
        spans = _HZ.findall(head)
        # Two spans, or one of four characters or more (a literal "~{x~}" in ASCII text
        # is rarer than that).
        if (len(spans) >= 2 or (spans and len(spans[0]) - 4 >= 2 * HZ_ALONE)) and decodes(head, "hz"):
            return "hz"
    return None
