"""Names of encodings, and the outside judges the verdict asks: ``chardet`` for a charset that
is not UTF-8 (:mod:`.legacyguess`, which says why it is asked first, and holds
:func:`~.legacyguess.guess_charset`), ``charset-normalizer``
when chardet has no answer, ``ftfy`` for UTF-8 encoded twice.

Every encoding is named the way Python spells it, ``codecs.lookup(name).name``
(``cp1252``, ``iso8859-1``, ``koi8-r``, ``shift_jis``, ``utf-16-le``), so that a name
can be handed straight to ``bytes.decode``; :func:`charset_title` gives the name a person
reads ("Windows-1252", "ISO-8859-1 (Latin-1)").

How charset-normalizer's guess is made (:func:`normalizer_guess`, asked by
:func:`~.legacyguess.guess_charset` when chardet has no answer). charset-normalizer
ranks the charsets that decode the bytes by how messy the result is (``chaos``) and how
much it looks like a language (``coherence``); it is good at telling the script and the
language, and poor at choosing among the single-byte charsets of one script, which all
decode the same letters of a short sample alike ("French" in ISO-8859-10, German in
Windows-1250). So:

1. The candidates are the charsets rated within ``TIE_CHAOS`` of the least messy one,
   together with the charsets charset-normalizer says decode those bytes identically;
   the first choice is the most coherent of them.
2. When the language it found belongs to a family with a Windows code page and an ISO
   8859 part (Western: Windows-1252 / ISO-8859-1; Central European: Windows-1250 /
   ISO-8859-2; Greek, Turkish, Baltic, Hebrew, Arabic likewise) and a member of that
   family is among the candidates, the answer is that family's (but a language told with
   a coherence under ``CONFIDENT`` gives way to the Western family when a member of it
   is among the candidates: short or repetitive samples of French come out "Romanian"):
   the Windows code page
   when the bytes use 0x80-0x9F and every such byte is defined there (those are the
   Windows punctuation: curly quotes, dashes, the ellipsis, the euro sign), else the ISO
   part, which leaves 0x80-0x9F to control codes. That is the usual answer of tools that
   meet Western text ("windows-1252") and the exact one when the file never uses the
   bytes where the two differ.
3. Otherwise a charset that decodes the sample to the very same text under a more
   usual name is preferred (``shift_jis`` for ``cp932``, ``gbk`` for ``gb18030``,
   ``euc_kr`` for ``cp949``, ``koi8-r`` for ``koi8-u``, ...).
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import functools
import re
import sys

from inspector.core.units.unicode_db import category_of_char


TIE_CHAOS = 0.02
CONFIDENT = 0.5  # coherence under which charset-normalizer's language is a weak hint
GUESS_LIMIT = 8 << 10  # bytes handed to charset-normalizer at most

# (Windows code page, ISO 8859 part) by the languages charset-normalizer names.
_FAMILIES = (
    (("cp1252", "iso8859-1"), {"English", "English—", "French", "German", "Dutch", "Danish",
                               "Finnish", "Indonesian", "Italian", "Norwegian", "Portuguese",
                               "Spanish", "Swedish"}),
    (("cp1250", "iso8859-2"), {"Czech", "Croatian", "Hungarian", "Polish", "Romanian",
                               "Slovak", "Slovene"}),
    (("cp1257", "iso8859-13"), {"Estonian", "Lithuanian"}),
    (("cp1254", "iso8859-9"), {"Turkish"}),
    (("cp1253", "iso8859-7"), {"Greek"}),
    (("cp1255", "iso8859-8"), {"Hebrew"}),
    (("cp1256", "iso8859-6"), {"Arabic", "Farsi"}),
)
# Members of a family charset-normalizer may name (equal to one of the pair on the
# letters that matter): their presence among the candidates shows the family fits.
_FAMILY_MEMBERS = {
    "cp1252": {"cp1252", "iso8859-1", "iso8859-15", "cp1254", "cp1258", "iso8859-14", "iso8859-16"},
    "cp1250": {"cp1250", "iso8859-2", "iso8859-16"},
    "cp1257": {"cp1257", "iso8859-13", "iso8859-4"},
    "cp1254": {"cp1254", "iso8859-9"},
    "cp1253": {"cp1253", "iso8859-7"},
    "cp1255": {"cp1255", "iso8859-8"},
    "cp1256": {"cp1256", "iso8859-6"},
}
# A more usual name for a charset, taken when it decodes the sample to the same text.
_USUAL = {
    "cp932": ("shift_jis",),
    "shift_jis_2004": ("shift_jis", "cp932"),
    "shift_jisx0213": ("shift_jis", "cp932"),
    "gb18030": ("gbk",),
    "gb2312": ("gbk",),
    "cp949": ("euc_kr",),
    "euc_jis_2004": ("euc_jp",),
    "euc_jisx0213": ("euc_jp",),
    "cp950": ("big5",),
    "big5hkscs": ("big5",),
    "koi8-u": ("koi8-r",),
    "koi8-t": ("koi8-r",),
    "kz1048": ("cp1251",),
    "ptcp154": ("cp1251",),
    "cp1125": ("cp866",),
    "iso8859-15": ("iso8859-1",),
}
_UNICODE_FAMILY = {"utf-8", "utf-8-sig", "ascii", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                   "utf-32-le", "utf-32-be", "utf-7"}


def codec_name(name: str) -> str:
    """Python's own spelling of an encoding name (``codecs.lookup(name).name``); ftfy's
    "sloppy-windows-1252" is Windows-1252. Unknown names come back lower-cased."""
    key = name.strip().lower()
    if key.startswith("sloppy-"):
        key = key[len("sloppy-"):]
    try:
        return codecs.lookup(key).name
    except LookupError:
        return key


def charset_title(name: str) -> str:
    """An encoding's name as a person reads it: Windows-1252, ISO-8859-1 (Latin-1)..."""
    e = codec_name(name)
    if e.startswith("cp12") and e[2:].isdigit():
        return f"Windows-{e[2:]}"
    if e == "iso8859-1":
        return "ISO-8859-1 (Latin-1)"
    if e.startswith("iso8859-"):
        return "ISO-8859-" + e.split("-", 1)[1]
    if e.startswith("mac-"):
        return "Mac " + e[4:].capitalize()
    titles = {"utf-8": "UTF-8", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE",
              "utf-32-le": "UTF-32LE", "utf-32-be": "UTF-32BE", "shift_jis": "Shift JIS",
              "euc_jp": "EUC-JP", "euc_kr": "EUC-KR", "gbk": "GBK", "gb18030": "GB18030",
              "big5": "Big5", "koi8-r": "KOI8-R", "koi8-u": "KOI8-U",
              "cp949": "Windows-949 (EUC-KR)", "cp932": "Windows-932 (Shift JIS)",
              "cp874": "Windows-874 (Thai)", "tis-620": "TIS-620", "big5hkscs": "Big5-HKSCS",
              "euc_jis_2004": "EUC-JIS-2004 (EUC-JP)", "shift_jis_2004": "Shift_JIS-2004",
              "iso2022_jp": "ISO-2022-JP", "iso2022_jp_2": "ISO-2022-JP-2",
              "iso2022_jp_ext": "ISO-2022-JP-EXT", "iso2022_kr": "ISO-2022-KR",
              "hz": "HZ-GB-2312", "johab": "Johab", "binary": "binary", "mojibake": "mojibake"}
    return titles.get(e, e.upper().replace("_", "-"))


# ------------------------------------------------------------------------- BOM and NULs

def bom_encoding(head: bytes) -> tuple[str, str] | None:
    """(``utf16``/``utf32``, codec name) when ``head`` starts with a UTF-16/32 byte order
    mark."""
    if head.startswith(b"\xff\xfe\x00\x00"):
        return "utf32", "utf-32-le"
    if head.startswith(b"\x00\x00\xfe\xff"):
        return "utf32", "utf-32-be"
    if head.startswith(b"\xff\xfe"):
        return "utf16", "utf-16-le"
    if head.startswith(b"\xfe\xff"):
        return "utf16", "utf-16-be"
    return None


def _text_like(data: bytes, encoding: str) -> bool:
    """``data`` decodes in ``encoding`` (but perhaps for a character cut at its end) to
    text: hardly any controls other than tab, newline, carriage return, form feed."""
    text = data.decode(encoding, "replace")
    if text[:-1].count("\ufffd"):
        return False
    controls = sum(1 for ch in text if ord(ch) < 0x20 and ch not in "\t\n\r\x0c")
    return controls <= 0.01 * len(text)


def nul_pattern(data: bytes) -> tuple[str, str] | None:
    """(``utf16``/``utf32``, codec name) for UTF-16/32 without a BOM: text in them puts
    NULs at fixed positions (UTF-32: the top byte of every character, and nearly always
    the next; UTF-16: the high byte of every ASCII or Latin-1 character, on one side
    only), and decodes to text."""
    n = len(data) - len(data) % 4
    if n < 16 or data.find(0, 0, n) < 0 or data.count(0, 0, n) < 0.1 * (n // 2):
        return None  # every pattern below needs at least that many NULs (no NUL: memchr)
    data = bytes(data[:n])
    q = n // 4
    by_pos = [data[k::4].count(0) for k in range(4)]
    # (A run of NULs is not text in any of them: the byte that carries the character
    # must be mostly set.)
    if (by_pos[3] >= 0.99 * q and by_pos[2] >= 0.9 * q and by_pos[0] < 0.5 * q
            and _text_like(data, "utf-32-le")):
        return "utf32", "utf-32-le"
    if (by_pos[0] >= 0.99 * q and by_pos[1] >= 0.9 * q and by_pos[3] < 0.5 * q
            and _text_like(data, "utf-32-be")):
        return "utf32", "utf-32-be"
    even = by_pos[0] + by_pos[2]
    odd = by_pos[1] + by_pos[3]
    half = n // 2
    if odd >= 0.1 * half and even <= 0.1 * odd and _text_like(data, "utf-16-le"):
        return "utf16", "utf-16-le"
    if even >= 0.1 * half and odd <= 0.1 * even and _text_like(data, "utf-16-be"):
        return "utf16", "utf-16-be"
    return None


UNSPACED_HANGUL = 16  # Hangul syllables a UTF-16 text may hold without a space
_COMMON_HIGH = bytes((0x30, *range(0xAC, 0xD8), 0xFF))  # of U+3000-30FF, AC00-D7A3, FF00-FFEF
# ... and of ASCII, U+3000-30FF, 4E00-9FFF, AC00-D7A3, FF00-FFEF.
_CJK_OR_ASCII_HIGH = bytes((0x00, 0x30, *range(0x4E, 0xA0), *range(0xAC, 0xD8), 0xFF))


def wide_text_pattern(data: bytes) -> tuple[str, str] | None:
    """(``utf16``, codec name) for UTF-16 text without a BOM and without NULs: Chinese,
    Japanese or Korean, whose characters have no zero byte. It must decode without
    error, hold the line ends of UTF-16 (0A 00 or 00 0A at a character's place: a text
    in a byte charset has none), unless it is a few lines at most, and be made of CJK
    characters: ideographs, kana, Hangul, CJK punctuation and full-width forms, with the
    kana, Hangul and punctuation making a tenth of it (bytes of another charset read in
    pairs make ideographs and rarer blocks, hardly any kana or punctuation). Mostly
    Hangul, it must hold a space or a line end past ``UNSPACED_HANGUL`` syllables: Korean
    writes spaces between words, and GBK or EUC-KR text read in pairs is a string of
    Hangul syllables without any (a byte B0-D7 then A1-FE is one)."""
    n = len(data) - len(data) % 2
    if n < 8:
        return None
    for codec, dtype, high_byte in (("utf-16-le", "<u2", 1), ("utf-16-be", ">u2", 0)):
        # Bounds first, from the high bytes alone (text in a byte charset is ruled out
        # without numpy): a kana, Hangul or full-width unit has one of _COMMON_HIGH, and
        # 95 % of the units below must have one of _CJK_OR_ASCII_HIGH.
        highs = data[high_byte:n:2]
        if ((len(highs) - len(highs.translate(None, _COMMON_HIGH))) * 10 < n // 2
                or len(highs.translate(None, _CJK_OR_ASCII_HIGH)) > 0.05 * (n // 2)):
            continue
        import numpy as np

        units = np.frombuffer(data, dtype=dtype, count=n // 2)
        # The rarest trait first: a byte charset's text read in pairs has hardly any.
        common = ((units >= 0x3000) & (units <= 0x30FF)) | ((units >= 0xAC00) & (units <= 0xD7A3)) \
            | ((units >= 0xFF00) & (units <= 0xFFEF))
        n_common = int(common.sum())
        if n_common * 10 < len(units):
            continue
        newlines = int((units == 0x0A).sum())
        if not newlines and n > 400:
            continue
        if ((units >= 0xD800) & (units <= 0xDFFF)).any():
            continue  # UTF-16 text in these scripts uses no surrogate pairs
        hangul = int(((units >= 0xAC00) & (units <= 0xD7A3)).sum())
        if (2 * hangul > len(units) and hangul > UNSPACED_HANGUL and not newlines
                and not (units == 0x20).any()):
            continue
        ideographs = (units >= 0x4E00) & (units <= 0x9FFF)
        ascii_text = (units == 0x20) | (units == 0x0A) | (units == 0x0D) | (units == 0x09) \
            | ((units >= 0x21) & (units <= 0x7E))
        if n_common + int(ideographs.sum()) + int(ascii_text.sum()) < 0.95 * len(units):
            continue
        if _text_like(data[:n], codec):
            return "utf16", codec
    return None


# ----------------------------------------------------------------------- legacy charsets

DECODE_MEMO_LIMIT = 64 << 10  # bytes up to which a reading is remembered (see decoded)

# One verdict reads one file in one charset several times (does it decode, does the wider
# charset read it alike, does it read as text, does it mix scripts): within
# :func:`reading_once` each reading of a bytes object is made once. Keyed by the object
# (which the entry holds, so that its id is not reused while the scope lasts), not by
# its value: hashing a large file costs about as much as decoding it.
_READINGS: contextvars.ContextVar = contextvars.ContextVar("readings", default=None)


@contextlib.contextmanager
def reading_once():
    """Within it (one verdict), :func:`strict_text` and :func:`decoded` read each bytes
    object in each charset once; nested, the outer scope's readings are kept."""
    if _READINGS.get() is not None:
        yield
        return
    token = _READINGS.set({})
    try:
        yield
    finally:
        _READINGS.reset(token)


def _reading(data: bytes, encoding: str, strict: bool):
    """(memo, key, the remembered entry or None) for :func:`strict_text`/:func:`decoded`."""
    memo = _READINGS.get()
    if memo is None:
        return None, None, None
    key = (id(data), encoding, strict)
    found = memo.get(key)
    if found is not None and found[0] is not data:
        found = None
    return memo, key, found


def strict_text(data: bytes, encoding: str) -> str | None:
    """``data`` read in ``encoding``, or None when it does not decode (remembered within
    :func:`reading_once`). Raises LookupError for an unknown name."""
    memo, key, found = _reading(data, encoding, True)
    if found is not None:
        return found[1]
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, RuntimeError):
        # RuntimeError: CPython's decoder failing outright ("internal codec error":
        # ISO-2022-JP-2 on ESC N after ESC . J); such bytes do not decode either.
        text = None
    if memo is not None:
        memo[key] = (data, text)
    return text


def once(data: bytes, fact: str, work):
    """``work()``, a fact about ``data`` named ``fact``, worked out once within
    :func:`reading_once` (the chardet filter and the checks after it ask the same of one
    sample), every time outside it."""
    memo = _READINGS.get()
    if memo is None:
        return work()
    key = (id(data), fact)
    found = memo.get(key)
    if found is None or found[0] is not data:
        found = memo[key] = (data, work())
    return found[1]


@functools.lru_cache(maxsize=4)
def _decoded_memo(data: bytes, encoding: str) -> str:
    return data.decode(encoding, "replace")


def decoded(data: bytes, encoding: str) -> str:
    """``data`` read in ``encoding``, bytes it cannot decode as U+FFFD. The verdict's
    checks read one sample in one charset several times (does it decode, does it mix
    scripts, do its words read as words): within :func:`reading_once` each reading is
    made once (a strict reading that succeeded is the same text), elsewhere the last few
    readings of samples up to ``DECODE_MEMO_LIMIT`` bytes are remembered. Raises
    LookupError for an unknown name."""
    memo, key, found = _reading(data, encoding, True)
    if found is not None and found[1] is not None:
        return found[1]
    if memo is not None:
        key = key[:2] + (False,)
        found = memo.get(key)
        if found is not None and found[0] is data:
            return found[1]
        text = data.decode(encoding, "replace")
        memo[key] = (data, text)
        return text
    if len(data) > DECODE_MEMO_LIMIT:
        return data.decode(encoding, "replace")
    return _decoded_memo(data, encoding)


class CharsetGuess:
    """What :func:`~.legacyguess.guess_charset` found: the codec name, the language charset-normalizer
    saw (empty when it saw none with a coherence of ``CONFIDENT`` or more), its chaos and
    coherence, and the other candidates."""

    __slots__ = ("encoding", "language", "chaos", "coherence", "candidates", "by", "same_as")

    def __init__(self, encoding, language, chaos, coherence, candidates, by="charset-normalizer",
                 same_as=""):
        self.encoding = encoding
        self.language = language
        self.chaos = chaos
        self.coherence = coherence
        self.candidates = candidates
        self.by = by  # who named it: "chardet" or "charset-normalizer"
        self.same_as = same_as  # the ISO 8859 part that reads the bytes alike, or ""

    def __repr__(self):
        return f"CharsetGuess({self.encoding!r}, {self.language!r}, chaos={self.chaos:.3f})"


def reads_alike(data: bytes, a: str, b: str) -> bool:
    """``data`` decodes in ``a``, and ``b`` reads it as the same text. Told without
    reading it twice where the codecs allow: for two charsets of one byte a character,
    by the bytes they read alike (deleted, nothing is left); for the multi-byte pairs of
    ``_READ_APART``, by the byte sequences they read apart (none is found)."""
    try:
        if _one_byte_each(a) and _one_byte_each(b):
            return not data.translate(None, alike_bytes(a, b))
        apart = _READ_APART.get((a, b))
        if apart is not None and not apart.search(data):
            return strict_text(data, a) is not None
        text = strict_text(data, a)
        return text is not None and text == strict_text(data, b)
    except LookupError:
        return False



# Multi-byte charsets and the wider ones read in their place, with the byte sequences
# the two read apart (each a character of the first that the second reads otherwise,
# by lead byte; tests/.../test_byte_level_checks.py checks them against the codecs, and
# that single bytes read alike): where none stands, every character reads alike.
_READ_APART = {
    ("shift_jis", "cp932"): re.compile(rb"\x81[\x60\x61\x7c\x91\x92\xca]"),
    ("gb2312", "gb18030"): re.compile(rb"\xa1[\xa4\xaa]"),
    ("gbk", "gb18030"): re.compile(rb"(?!)"),  # none
    ("big5", "big5hkscs"): re.compile(rb"[\xc6\xc7]"),
    # (no two-byte character apart; EUC-KR's eight-byte compositions start with A4 D4)
    ("euc_kr", "cp949"): re.compile(rb"\xa4\xd4"),
}


@functools.lru_cache(maxsize=None)
def _one_byte_each(encoding: str) -> bool:
    """A charset that reads each byte as one character by a table (Latin-1, the
    charmap codecs)."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return False
    if info.name == "iso8859-1":
        return True
    module = sys.modules.get(getattr(info.decode, "__module__", "") or "")
    table = getattr(module, "decoding_table", None)
    return isinstance(table, str) and len(table) == 256


@functools.lru_cache(maxsize=None)
def alike_bytes(a: str, b: str) -> bytes:
    """The bytes two single-byte charsets both define and read as the same character."""
    ta = bytes(range(256)).decode(a, "replace")
    tb = bytes(range(256)).decode(b, "replace")
    return bytes(x for x in range(256) if ta[x] == tb[x] and ta[x] != "\ufffd")


def _decodes(data: bytes, name: str) -> bool:
    try:
        return strict_text(data, name) is not None
    except LookupError:
        return False


_NOT_ASCII = bytes(range(0x80, 0x100))
_OUTSIDE_C1_RANGE = bytes(b for b in range(256) if not 0x80 <= b <= 0x9F)


def uses_c1_range(data: bytes) -> bool:
    """True when some byte of ``data`` is in 0x80-0x9F (one pass: deleting every other
    byte leaves something)."""
    return bool(data.translate(None, _OUTSIDE_C1_RANGE))


def windows_or_iso(data: bytes, windows: str, iso: str) -> str:
    """The Windows code page when ``data`` uses 0x80-0x9F and it decodes them all, else
    the ISO 8859 part (see the module text)."""
    if uses_c1_range(data) and _decodes(data, windows):
        return windows
    return iso if _decodes(data, iso) else windows


_ISO_OF_WINDOWS = {"cp1252": "iso8859-1", "cp1250": "iso8859-2", "cp1253": "iso8859-7",
                   "cp1254": "iso8859-9", "cp1255": "iso8859-8", "cp1257": "iso8859-13",
                   "cp874": "tis-620"}


def iso_reading_alike(data: bytes, windows: str) -> str | None:
    """The ISO 8859 part (TIS-620 for Windows-874) that reads ``data`` exactly as the
    Windows code page ``windows`` does (no byte 80-9F, none of the letters the two place
    differently), else None."""
    iso = _ISO_OF_WINDOWS.get(windows)
    if iso is None or not data or data.isascii():
        return None
    return iso if reads_alike(data, windows, iso) else None


def letter_share(data: bytes, encoding: str) -> float:
    """The share of the bytes above 0x7F that ``encoding`` decodes to letters or
    punctuation (for charsets that spell every character with one byte)."""
    high = data.translate(None, _ASCII_BYTES)
    if not high:
        return 0.0
    letters = _letter_bytes(encoding)
    if letters is not None:  # one byte, one character: count bytes, not characters
        return (len(high) - len(high.translate(None, letters))) / len(high)
    try:
        text = high.decode(encoding, "replace")
    except LookupError:
        return 0.0
    return sum(1 for ch in text if _letter_or_punctuation(ch)) / len(text)


_ASCII_BYTES = bytes(range(0x80))
_LETTER_BYTES: dict[str, bytes | None] = {}


def _letter_or_punctuation(ch: str) -> bool:
    return ch != "\ufffd" and category_of_char(ch)[0] in "LP"


def _letter_bytes(encoding: str) -> bytes | None:
    """The bytes above 0x7F that ``encoding`` decodes to a letter or punctuation, when it
    is a single-byte charset (a charmap codec, or Latin-1); else None."""
    if encoding not in _LETTER_BYTES:
        table = None
        try:
            info = codecs.lookup(encoding)
        except LookupError:
            info = None
        if info is not None and info.name == "iso8859-1":
            table = "".join(map(chr, range(256)))
        elif info is not None:
            module = sys.modules.get(getattr(info.decode, "__module__", "") or "")
            table = getattr(module, "decoding_table", None)
        if isinstance(table, str) and len(table) == 256:
            # An undefined byte (U+FFFE in the table) decodes to U+FFFD: not a letter.
            _LETTER_BYTES[encoding] = bytes(b for b in range(0x80, 0x100)
                                            if table[b] != "\ufffe" and _letter_or_punctuation(table[b]))
        else:
            _LETTER_BYTES[encoding] = None
    return _LETTER_BYTES[encoding]


def head_lines(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes of ``data``, cut after the last newline in them when
    there is one in their second half (so that no character is cut)."""
    data = bytes(data[:limit + 1])
    if len(data) <= limit:
        return data
    data = data[:limit]
    nl = data.rfind(b"\n")
    return data[:nl + 1] if nl >= limit // 2 else data


def normalizer_guess(data: bytes) -> CharsetGuess | None:
    """The legacy charset of ``data`` as charset-normalizer ranks it (module text), or
    None when it finds none, or finds a Unicode encoding. Only the first
    ``GUESS_LIMIT`` bytes are looked at."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    data = head_lines(data, GUESS_LIMIT)
    # charset-normalizer first looks for a declared encoding ("coding: koi8-r",
    # "charset=..."): a regular expression over the ASCII of the sample, a sixth of its
    # time. Without those words in the ASCII (lowercased) that search finds nothing, so
    # it is not asked for.
    ascii_words = data.translate(None, _NOT_ASCII).lower()
    declared = b"coding" in ascii_words or b"charset" in ascii_words
    results = list(from_bytes(data, preemptive_behaviour=declared))
    for trim in (1, 2, 3):
        # A sample cut inside a multibyte character fails every multibyte charset.
        if results or len(data) <= trim:
            break
        results = list(from_bytes(data[:-trim], preemptive_behaviour=declared))
    if not results:
        return None
    least = min(r.chaos for r in results)
    band = sorted((r for r in results if r.chaos <= least + TIE_CHAOS),
                  key=lambda r: (-r.coherence, r.chaos))
    first = band[0]
    encoding = codec_name(first.encoding)
    if encoding in _UNICODE_FAMILY:
        return None
    candidates: list[str] = []
    for r in band:
        for name in (r.encoding, *r.could_be_from_charset):
            name = codec_name(name)
            if name not in candidates:
                candidates.append(name)
    language = first.language if first.language != "Unknown" else ""
    family = None
    for pair, languages in _FAMILIES:
        if language in languages:
            family = pair
            break
    western = _FAMILY_MEMBERS["cp1252"] & set(candidates)
    if western and (family is None or (family[0] != "cp1252" and first.coherence < CONFIDENT)):
        # A language told with little confidence does not outweigh the usual choice.
        family = ("cp1252", "iso8859-1")
    if family is not None and not _FAMILY_MEMBERS[family[0]] & set(candidates):
        # The family of the language was not among the candidates (charset-normalizer
        # keeps one of the charsets that decode alike): it still fits if it explains
        # the bytes as well as the first choice does.
        mine = windows_or_iso(data, *family)
        if letter_share(data, mine) < letter_share(data, encoding) - 0.02:
            family = None
    if family is not None:
        encoding = windows_or_iso(data, *family)
    else:
        for usual in _USUAL.get(encoding, ()):
            if reads_alike(data, encoding, usual):
                encoding = usual
                break
    shown = language if first.coherence >= CONFIDENT else ""
    return CharsetGuess(encoding, shown, first.chaos, first.coherence, candidates)


# Characters that may stand inside a word: letters, apostrophes and quotes, dashes.
# Signs written against a letter: 10 °C, № 5. Punctuation written against a letter:
# the ellipsis after a word ("al…"), ¡ and ¿ before one, the middle dot of Catalan l·l
# (where in the word a byte stands is weighed by onereading.odd_words).
_UNIT_SIGNS = frozenset("\u00b0\u2116")
_AGAINST_LETTERS = frozenset("\u2026\u00a1\u00bf\u00b7")


def _wordlike(ch: str) -> bool:
    cat = category_of_char(ch)
    return (cat[0] == "L" or ch in _UNIT_SIGNS or ch in _AGAINST_LETTERS
            or cat in ("Pi", "Pf", "Pd", "Mn", "Mc"))


def _textlike(ch: str) -> bool:
    # Symbols too (© 2024, ½ cup, ± 3, £ 5): short Western text is full of them. Modifier
    # symbols (a lone ¨ ´ ¸ ¯ ˝) are not: text does not write them alone. Combining marks
    # are (Thai vowels and tone marks, Hebrew points, Vietnamese tones in Windows-1258).
    cat = category_of_char(ch)
    return cat[0] in "LPZN" or cat in ("Sc", "Sm", "So", "Mn", "Mc")


_TABLES: dict[str, tuple] = {}


def _byte_tables(encoding: str) -> tuple[bytes, bytes]:
    """For a single-byte charset: the byte values that decode to a character that may
    stand in a word, and those that decode to one that text uses (letters, punctuation,
    digits, spaces); as ``bytes.translate`` deletion tables, which count them at C speed."""
    found = _TABLES.get(encoding)
    if found is None:
        word, text = bytearray(), bytearray()
        for b in range(256):
            ch = bytes((b,)).decode(encoding, "replace")
            if len(ch) == 1 and ch != "\ufffd":
                if _wordlike(ch):
                    word.append(b)
                if _textlike(ch):
                    text.append(b)
        found = _TABLES[encoding] = (bytes(word), bytes(text))
    return found


def plausible(in_words: bytes, alone: bytes, encoding: str) -> float:
    """How well a single-byte ``encoding`` explains the bytes that are not UTF-8, from
    0 to 1: of the bytes of runs that touch an ASCII letter (``in_words``), the share
    that decode to letters (or apostrophes, quotes, dashes); of the others (``alone``),
    the share that decode to letters, punctuation, digits, spaces or symbols (a degree
    sign may touch a letter: 10 °C). Random damage in
    ASCII text scores about 0.6 in Windows-1252; text in that charset about 1."""
    total = len(in_words) + len(alone)
    if not total:
        return 0.0
    word, text = _byte_tables(encoding)
    good = total - len(in_words.translate(None, word)) - len(alone.translate(None, text))
    return good / total


_MULTIBYTE: dict[str, bool] = {}


def is_multibyte(encoding: str) -> bool:
    """True for a charset that spells some characters with two or more bytes (Shift
    JIS, EUC, GBK, Big5...), where a byte means nothing cut from its neighbours."""
    found = _MULTIBYTE.get(encoding)
    if found is None:
        try:
            found = any(len(bytes((b, 0xA1)).decode(encoding, "replace")) == 1
                        for b in range(0x81, 0x100))
        except LookupError:
            found = False
        _MULTIBYTE[encoding] = found
    return found


def plausible_text(data: bytes, encoding: str, signs: bool = True) -> float:
    """How well a multibyte ``encoding`` explains ``data``, from 0 to 1: the share of the
    characters above ASCII that decode without error to letters, digits, punctuation,
    spaces, combining marks and, with ``signs``, symbols (0 when more than 2 % do not
    decode). Symbols count unless asked not to: CJK text draws tables, lists and frames
    with the box drawing, arrows, shapes and full-width signs of its charsets' symbol
    rows (━ ┃ ⇒ ■ ○ ｜), a third of the characters of some short files and DOS texts;
    private-use characters and controls never do. The last few answers are remembered
    (the declaration's check and the whole-file reading ask the same)."""
    return _plausible_text(data, encoding, "LPNZSM" if signs else "LPNZM")


# Blocks of letters only (CJK ideographs, kana, Hangul syllables), which hold most of
# the characters of CJK text: counted without asking each character's category.
_LETTER_BLOCKS = ((0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x3041, 0x3096), (0x30A1, 0x30FA))


@functools.lru_cache(maxsize=4)
def _plausible_text(data: bytes, encoding: str, kinds: str) -> float:
    import numpy as np

    text = decoded(data, encoding)
    if text.isascii():
        return 0.0
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    high = points[points > 0x7F]
    bad = int(np.count_nonzero(high == 0xFFFD))
    if bad > 0.02 * len(high):
        return 0.0
    in_blocks = np.zeros(len(high), dtype=bool)
    for lo, hi in _LETTER_BLOCKS:
        in_blocks |= (high - lo) <= (hi - lo)  # uint32: below lo wraps round
    rest = np.sort(high[~in_blocks])
    good = len(high) - len(rest)
    if len(rest):
        # Each distinct code point's category asked once, weighed by how often it stands.
        first = np.flatnonzero(np.concatenate(([True], rest[1:] != rest[:-1])))
        counts = np.diff(np.append(first, len(rest)))
        good += sum(n for cp, n in zip(rest[first].tolist(), counts.tolist())
                    if cp != 0xFFFD and category_of_char(chr(cp))[0] in kinds)
    return good / len(high)


# ------------------------------------------------------------------------------ mojibake

class Mojibake:
    """UTF-8 encoded twice: ``via`` is the charset the UTF-8 bytes were read in before
    being encoded again; ``seen`` is one sequence as it shows, ``meant`` what it was."""

    __slots__ = ("via", "seen", "meant")

    def __init__(self, via: str, seen: str, meant: str):
        self.via = via
        self.seen = seen
        self.meant = meant

    def __repr__(self):
        return f"Mojibake(via={self.via!r}, {self.seen!r} for {self.meant!r})"


def mojibake_in(text: str) -> Mojibake | None:
    """A :class:`Mojibake` when ftfy undoes a double encoding in ``text``, else None."""
    from inspector.core.analysis.encodings.mojibake import could_be_mojibake  # numpy

    if not could_be_mojibake(text):
        return None  # nothing ftfy could undo: spare its ~1 ms per 10 KB
    try:
        import ftfy
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    fixed, steps = ftfy.fix_and_explain(text)
    if fixed == text or not steps:
        return None
    encodings = [arg for op, arg in steps if op == "encode"]
    if not encodings or not any(op == "decode" and "utf-8" in arg for op, arg in steps):
        return None
    enc = encodings[0]
    via = codec_name(enc)
    for ch in fixed:
        if ord(ch) > 0x7F:
            try:
                seen = ch.encode("utf-8").decode(enc)
            except (UnicodeError, LookupError):
                continue
            if seen in text:
                return Mojibake(via, seen, ch)
    return Mojibake(via, "", "")


def undo_mojibake(text: str, via: str) -> str:
    """``text`` with its double encoding undone by ftfy (the same steps ftfy finds;
    ``via`` is only a fallback when ftfy finds none: the text encoded in ``via`` and
    decoded as UTF-8, characters that do not fit kept as they were)."""
    try:
        import ftfy
        fixed = ftfy.fix_encoding(text)
        if fixed != text:
            return fixed
    except ImportError:  # pragma: no cover - a declared dependency
        pass
    try:
        return text.encode(via).decode("utf-8")
    except (UnicodeError, LookupError):
        return text
