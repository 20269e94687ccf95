"""Readings of short texts that chardet misses (:func:`missed_reading`), asked by
:func:`~.onereading.one_legacy_reading` when chardet's own answer does not explain a file
that holds no UTF-8 part. Without them such a file would be "UTF-8 with problems".

* Kana text (:func:`kana_reading`): short Japanese written mostly in kana, which chardet 7
  may leave to CP866 or CP437;
* words of a non-Latin script (:func:`script_reading`): a few Cyrillic, Greek, Hebrew,
  Arabic or Thai words among ASCII (feed lines, links, a menu), which chardet may give to
  a DOS Latin page that reads them as box drawing;
* borrowed punctuation (:func:`borrowed_punctuation`): Latin text whose only bytes above
  ASCII are the quotes and ellipses of a Chinese, Japanese or Korean charset.

Each asks for what random damage does not make: whole words of one script with their
letters in one case, kana rows, punctuation rows; the caller still weighs the reading as
it weighs chardet's (letters where letters stand, words that read as words).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.chardetfilter import paired_bytes
from inspector.core.analysis.encodings.legacyguess import decodes, sharpen
from inspector.core.units.unicode_db import category_of_char

_HIGH_BYTES = bytes(range(0x80, 0x100))


# -------------------------------------------------------------- borrowed punctuation

# Latin text typed on a Chinese, Japanese or Korean system: English or pinyin with the
# quotes, apostrophes and ellipses of a multi-byte charset ("it\xa1\xa6ll" is "it’ll" in
# Big5, "December\xa1K" is "December…"). Its bytes above ASCII stand alone or beside an
# ASCII letter (the trail byte of Big5's ellipsis is "K"), so chardet rules the multi-byte
# charsets out and names a Latin one that reads them as "it¡¦ll": no word, and the text
# would be "UTF-8 with problems". The charset is the one that reads every character above
# ASCII as the punctuation Latin text writes (``_BORROWED``), at least ``BORROWED_LEAST``
# of them; random bytes make such punctuation in no charset (a CJK charset reads them
# as ideographs glued to ASCII letters, or not at all).
BORROWED_CANDIDATES = ("big5hkscs", "gb18030", "cp932", "cp949", "euc_jp")
BORROWED_LEAST = 2
# General punctuation (dashes, quotes, the ellipsis, primes, angle quotes), the ideographic
# space, comma, full stop and corner brackets, and the full-width forms of ASCII's signs
# (not the half-width katakana ones Shift JIS reads single bytes A1-A5 as).
_BORROWED_RANGES = ((0x2010, 0x203A), (0x3000, 0x3002), (0x300C, 0x300F), (0xFF01, 0xFF0F),
                    (0xFF1A, 0xFF20), (0xFF3B, 0xFF40), (0xFF5B, 0xFF60))
_BORROWED = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _BORROWED_RANGES) + "]")
# Of those, what Latin text writes most: dashes, quotes and the ellipsis (a tie between two
# charsets goes to the one that reads more of these).
_PROSE_MARKS = re.compile("[\u2010-\u2027]")
_PLACED = re.compile("[A-Za-z][\u2019\u2032][A-Za-z]|[A-Za-z]\u2026")
# Their first byte after a letter: the candidates' apostrophes and ellipses all start
# with 81 (Windows-932) or A1 (the others).
_PLACED_BYTES = re.compile(rb"[A-Za-z][\x81\xa1]")


def borrowed_punctuation(data: bytes, placed: bool = False) -> str | None:
    """The multi-byte charset in which ``data`` is Latin text with borrowed punctuation
    (above), or None. ``placed``: asked before chardet's Latin answer (Windows-932's "’"
    is 81 66, "üf" in CP850), only quotes, dashes and ellipses count, and one at least
    must stand where Latin text writes it: an apostrophe between two letters ("it’s"),
    an ellipsis after a letter ("December…")."""
    if placed and ((b"\xa1" not in data and b"\x81" not in data)
                   or _PLACED_BYTES.search(data) is None):
        return None  # (byte searches at memchr's speed first: most files pass here)
    a = np.frombuffer(data, dtype=np.uint8)
    high = a >= 0x80
    if np.count_nonzero(high) < BORROWED_LEAST:
        return None
    counts = np.bincount(a[high], minlength=256)
    best, best_marks = None, -1
    for name in BORROWED_CANDIDATES:
        # Each byte above ASCII leads such a character or follows one that does (a
        # count first: damaged UTF-8 has its own leads, C3 E2..., and is passed at once).
        leads = _borrowed_leads(name)
        n_leads = int(counts[leads].sum())
        if not n_leads or np.count_nonzero(high) > 2 * n_leads:
            continue
        is_lead = leads.take(a)
        covered = is_lead.copy()
        covered[1:] |= is_lead[:-1]
        if (high & ~covered).any():
            continue
        text = CS.strict_text(data, name)
        if text is None:
            continue
        above = [ch for ch in text if ch > "\x7f"]
        if len(above) < BORROWED_LEAST or not all(_BORROWED.match(ch) for ch in above):
            continue
        marks = sum(1 for ch in above if _PROSE_MARKS.match(ch))
        if placed and (marks < len(above) or _PLACED.search(text) is None):
            continue
        if marks > best_marks:
            best, best_marks = name, marks
    return best


# ----------------------------------------------------------------------- kana text

# Short Japanese text written mostly in kana ("クリスマスプレゼントにアーケードゲームはいかが?",
# a line of hiragana with a few kanji): chardet 7 may leave the Japanese charsets out of
# its answers altogether (CP437 or CP866 at a confidence of 0.03), and a single-byte
# charset then reads the pairs as accented letters. Kana are a script of their own, which
# only Japanese writes at length: a reading in a Japanese charset whose characters above
# ASCII are a ``KANA_SHARE`` of full-width kana or more (``KANA_LEAST`` at the least; the
# half-width katakana Shift JIS reads single bytes A1-DF as are not counted: random bytes
# make them) and text otherwise (:func:`~.charsets.plausible_text`) is Japanese. Random
# bytes fall on the kana rows about once in a hundred pairs.
@functools.lru_cache(maxsize=None)
def _borrowed_leads(encoding: str) -> np.ndarray:
    """Per byte value: whether it is the first byte of a character of ``_BORROWED`` in
    ``encoding``."""
    leads = np.zeros(256, dtype=bool)
    for lo, hi in _BORROWED_RANGES:
        for cp in range(lo, hi + 1):
            try:
                leads[chr(cp).encode(encoding)[0]] = True
            except UnicodeEncodeError:
                continue
    leads[:0x80] = False
    return leads


KANA_CANDIDATES = ("cp932", "euc_jp")
KANA_SHARE = 0.4
KANA_LEAST = 8
_KANA = re.compile("[\u3041-\u3096\u309b-\u309e\u30a1-\u30fa\u30fc-\u30fe]")


def kana_reading(data: bytes) -> str | None:
    """The Japanese charset in which ``data`` is kana text (above), or None."""
    high = len(data) - len(data.translate(None, _HIGH_BYTES))
    checked_pairs = False
    for name, rows in zip(KANA_CANDIDATES, _KANA_ROWS):
        # The first bytes of the kana rows first (counted at C speed): Latin, Cyrillic,
        # Greek or Hebrew text has hardly any, and is passed without a reading.
        leads = sum(data.count(row) for row in rows)
        if leads < KANA_LEAST or 2 * leads < KANA_SHARE * high:
            continue
        if not checked_pairs:  # the bytes above ASCII stand in pairs, as kana do
            if not paired_bytes(data):
                return None
            checked_pairs = True
        if not decodes(data, name):
            continue
        text = CS.decoded(data, name)
        above = sum(1 for ch in text if ch > "\x7f")
        kana = len(_KANA.findall(text))
        if (kana >= KANA_LEAST and kana >= KANA_SHARE * above
                and CS.plausible_text(data, name) >= KANA_PLAUSIBLE):
            return name
    return None


KANA_PLAUSIBLE = 0.85  # (onereading.PLAUSIBLE)
# The first bytes of the kana per candidate: Shift JIS 82 (hiragana) and 83 (katakana),
# EUC-JP A4 and A5.
_KANA_ROWS = ((b"\x82", b"\x83"), (b"\xa4", b"\xa5"))


# ------------------------------------------------------------------ non-Latin words

# A few words of Cyrillic, Greek, Hebrew, Arabic or Thai among ASCII (feed lines, links, a
# menu): chardet 7 names CP437 or another DOS Latin page for them (box drawing and
# accented letters), which reads them as no words. Whole words of one script are what
# such text has and random bytes hardly make: every run of bytes above ASCII stands
# between non-letters (a run glued to an ASCII letter is "Per\xe7\xf3ssion", not a
# word), and a charset reads ``SCRIPT_LETTERS`` of them or more as letters of one cased
# script (Cyrillic, Greek), none as letters of another, with each word in one case
# ("Тема", "ТЕМА", "тема"; a Cyrillic page read as another swaps or mixes cases:
# "пРИВЕТ") and most of its letters among the script's frequent ones; Hebrew too (it
# has no case, but its pages leave most bytes undefined or symbols: a Hebrew text
# that chardet gives to a Latin page must not become Cyrillic). (Arabic and Thai pages
# read most random bytes as letters: chardet's own answer stands for them.) chardet,
# asked again
# only about the charsets left, tells them apart by its language models (on
# bench_short_texts it names the right one for 13 of 14 such files).
SCRIPT_CHARSETS = ("cp1251", "koi8-r", "koi8-u", "iso8859-5", "cp866", "cp855", "mac-cyrillic",
                   "cp1253", "iso8859-7", "cp737", "cp869", "mac-greek",
                   "cp1255", "iso8859-8", "cp862")
SCRIPT_LETTERS = 0.8  # of the bytes above ASCII
MIXED_CASE = 0.1      # of the words, at most, not in one case
_SCRIPTS = ((0x0370, 0x03FF), (0x0400, 0x052F), (0x0590, 0x05FF), (0x0600, 0x06FF),
            (0x0E00, 0x0E7F), (0xFB50, 0xFEFF))  # Greek, Cyrillic, Hebrew, Arabic, Thai
_GLUED = re.compile(rb"[A-Za-z][\x80-\xff]|[\x80-\xff][A-Za-z]")
_RUN: dict[int, re.Pattern] = {}  # a run of so many bytes above ASCII, by length
_WORD = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=None)
def _scripts_of(encoding: str) -> np.ndarray | None:
    """Per byte value: the script of the letter (or mark) ``encoding`` reads it as, 1 to 6
    (``_SCRIPTS``), -1 for a letter of another script (Latin), 0 otherwise; None for a
    charset Python does not know."""
    try:
        chars = _HIGH_BYTES.decode(encoding, "surrogateescape")
    except LookupError:
        return None
    out = np.zeros(256, dtype=np.int8)
    if len(chars) != 128:  # not one character per byte
        return out
    for b, ch in enumerate(chars, 0x80):
        if not (ch.isalpha() or category_of_char(ch)[0] == "M"):
            continue
        cp = ord(ch)
        out[b] = next((k for k, (lo, hi) in enumerate(_SCRIPTS, 1) if lo <= cp <= hi), -1)
    return out


def _reads_as_words(text: str) -> bool:
    """The words of ``text`` with letters above ASCII are in one case but a ``MIXED_CASE``
    share (all lower case, all capitals, a capital then lower case; Hebrew has none), and ``COMMON_SHARE``
    of their letters or more are among the most frequent of their script (random bytes
    read as Cyrillic make "ЋЮРЖ" or "щђѓш")."""
    words = [w for w in _WORD.findall(text) if not w.isascii()]
    if not words:
        return False
    mixed = sum(1 for w in words if any(c.isupper() for c in w[1:]) and any(c.islower() for c in w))
    if mixed > MIXED_CASE * len(words):
        return False
    letters = "".join(words).lower()
    common = sum(1 for c in letters if c in _COMMON_LETTERS)
    return common >= COMMON_SHARE * len(letters)


COMMON_SHARE = 0.75
# The letters of their script that Russian, Bulgarian, Ukrainian and Serbian (Cyrillic),
# Greek (with their accents: ά έ ή ί ό ύ ώ) and Hebrew (with the final forms of mem and
# nun) write most, and the Latin letters of ASCII that stand in a word beside them.
_COMMON_LETTERS = frozenset("оеаинтсрвлкмдпуяъзіј" "αοιετσνηυρπκμλωάέήίόύώς"
                            "יוהלאמרבתנשעםן" "abcdefghijklmnopqrstuvwxyz")


def script_reading(data: bytes, longest: int = 1) -> str | None:
    """The single-byte charset of a non-Latin script in which ``data`` is words among
    ASCII (above), or None. ``longest``: the bytes the longest run above ASCII must hold
    at least."""
    # Searches that stop at the first hit first: in Latin text the first accented letter
    # stands beside an ASCII one.
    if _GLUED.search(data) is not None:
        return None  # a run glued to an ASCII letter
    if _RUN.get(longest) is None:
        _RUN[longest] = re.compile(b"[\x80-\xff]{%d}" % longest)
    if _RUN[longest].search(data) is None:
        return None
    a = np.frombuffer(data, dtype=np.uint8)
    high = a >= 0x80
    n_high = int(np.count_nonzero(high))
    counts = np.bincount(a[high], minlength=256)
    present = np.flatnonzero(counts)
    left = []
    for name in SCRIPT_CHARSETS:
        scripts = _scripts_of(name)
        if scripts is None:
            continue
        of = scripts[present]
        mine = set(of[of > 0].tolist())
        if len(mine) != 1 or (of < 0).any():
            continue
        if int(counts[present[of > 0]].sum()) < SCRIPT_LETTERS * n_high:
            continue
        if decodes(data, name, cut_end=False) and _reads_as_words(CS.decoded(data, name)):
            left.append(name)
    if len(left) <= 1:
        return left[0] if left else None
    return _chardet_among(data, left) or left[0]


@functools.lru_cache(maxsize=None)
def latin_page(encoding: str) -> bool:
    """``encoding`` reads one byte as one character and most of its letters above ASCII
    are Latin (Windows-1252, Mac Roman; CP437 with a few Greek ones for mathematics)."""
    scripts = _scripts_of(encoding)
    return (scripts is not None and not CS.is_multibyte(encoding)
            and int((scripts < 0).sum()) > int((scripts > 0).sum()))


def script_guess(data: bytes, longest: int = 1) -> CS.CharsetGuess | None:
    """:func:`script_reading` as a guess, its name sharpened as chardet's are (an ISO
    8859 part that reads the bytes as its Windows page does is named as that page)."""
    name = script_reading(data, longest)
    if name is None:
        return None
    name = sharpen(data, name)[0]
    return CS.CharsetGuess(name, "", 0.0, 1.0, [name], "chardet")


def _chardet_among(data: bytes, names: list[str]) -> str | None:
    """chardet's first answer for ``data`` among ``names``, or None."""
    try:
        import chardet
        from chardet import EncodingEra

        # (Its answer when no model fits must be one of them, or it warns and says None.)
        found = chardet.detect(data, encoding_era=EncodingEra.ALL, compat_names=False,
                               include_encodings=names, no_match_encoding=names[0])
    except (ImportError, ValueError, RuntimeError):
        # (ValueError: a chardet that does not know one of the names; RuntimeError: see
        # legacyguess._chardet)
        return None
    name = CS.codec_name(found.get("encoding") or "")
    return name if name in names else None


def missed_reading(data: bytes, few_valid: bool) -> CS.CharsetGuess | None:
    """A reading chardet missed, asked when its answer does not explain ``data`` (module
    text): words of a non-Latin script, then, when valid UTF-8 sequences are few
    (``few_valid``: a multi-byte charset's punctuation is never one), borrowed
    punctuation; or None. (Kana text is asked first, before chardet's answer is weighed:
    :func:`kana_reading`.)"""
    found = script_guess(data)
    if found is not None:
        return found
    name = borrowed_punctuation(data) if few_valid else None
    if name is not None:
        return CS.CharsetGuess(name, "", 0.0, 1.0, [name], "punctuation")
    return None
