"""Which charsets chardet is asked about for a sample (:func:`asked`): chardet scores
every charset it may answer, ~80, each with models of its own; most of its time on a
short text goes there, and into checking that each decodes the sample. The charsets that
cannot be the answer, or that :func:`~.legacyguess.guess_legacy` would not take, are
left out; the unlikely ones are asked only when chardet is unsure of its answer without
them (:func:`~.legacyguess._chardet`). Worked out once per sample, from the bytes, for
all the single-byte charsets at once (a byte is a character in them).
"""

from __future__ import annotations

import codecs
import functools

import numpy as np

from inspector.core.analysis.encodings import charsets as CS

# A single-byte charset that reads the bytes
# above ASCII of the sample as much less text than another one does (box drawing,
# symbols, controls, bytes it leaves undefined where another reads letters) is not the
# text's charset, and is not asked about: on the project's corpus and on chardet's test
# set this leaves chardet's answers as they were and its cost at two thirds.
# The share of the bytes above ASCII a charset reads as text: letters and marks count
# 1, punctuation, spaces and signs 0.5, the rest 0, a byte it does not define -100.
_FILTERED = ("cp874", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
             "cp1258", "koi8-r", "koi8-u", "tis-620", "iso8859-1", "iso8859-2", "iso8859-3",
             "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8", "iso8859-9",
             "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16",
             "mac-cyrillic", "mac-greek", "mac-iceland", "mac-latin2", "mac-roman",
             "mac-turkish", "cp720", "cp1006", "cp1125", "koi8-t", "kz1048", "ptcp154",
             "hp-roman8", "cp437", "cp737", "cp775", "cp850", "cp852", "cp855", "cp856",
             "cp857", "cp858", "cp860", "cp861", "cp862", "cp863", "cp864", "cp865", "cp866",
             "cp869")  # chardet's single-byte charsets but Windows-1252, its fallback answer
UNLIKELY_MARGIN = 0.15  # below the best charset's share: not asked
UNLIKELY_SAMPLE = 64    # bytes above ASCII from which shares are compared; with fewer,
UNLIKELY_FLOOR = 0.5    # a charset reading less than this share as text is not asked


_HIGH_BYTES = bytes(range(0x80, 0x100))


@functools.lru_cache(maxsize=None)
def _text_weights() -> np.ndarray:
    """Per charset of ``_FILTERED`` (rows) and byte 80-FF (columns): what the byte is
    worth as text (see above)."""
    from inspector.core.units.unicode_db import category_of_char

    weights = np.zeros((len(_FILTERED), 128))
    for row, name in enumerate(_FILTERED):
        # One decode per charset (not one per byte: 7,000 decodes cost ~6 ms at every
        # start); each of these charsets reads one byte as one character, and a byte it
        # leaves undefined comes out as its lone surrogate (U+DC80 + byte).
        try:
            chars = _HIGH_BYTES.decode(name, "surrogateescape")
        except LookupError:
            weights[row] = -100.0
            continue
        assert len(chars) == 128, name
        for b, ch in enumerate(chars):
            if "\udc80" <= ch <= "\udcff":
                weights[row, b] = -100.0
                continue
            cat = category_of_char(ch)
            weights[row, b] = (1.0 if cat[0] in "LM" else
                               0.5 if cat[0] == "P" or cat in ("Zs", "Sc") or ch in "©®°±×·¶§µ"
                               else 0.0)
    return weights


def unlikely_charsets(data: bytes) -> tuple[str, ...]:
    """The single-byte charsets chardet need not be asked about for ``data`` (above)."""
    never, unlikely = not_asked(data)
    return tuple(name for name in _FILTERED if name in never or name in unlikely)


# Charsets chardet would set aside itself, not asked about even when it is asked again:
# the single-byte ones that leave a byte of the sample undefined (chardet keeps only
# the charsets that decode it), and the East Asian multi-byte ones when the bytes above
# ASCII do not stand in pairs (chardet's own gate then rules them out: measured on both
# corpora, its answers and confidences stay as they were, at a tenth less cost) but in a
# short text: there a few Shift JIS, Big5 or Johab characters with ASCII trail bytes
# stand alone, and they are only unlikely (chardet, unsure of the answer it gave
# without them, is asked about them).
_EAST_ASIAN = ("big5hkscs", "cp932", "cp949", "euc_jis_2004", "euc_kr", "gb18030",
               "shift_jis_2004", "johab")
PAIRED = 0.5  # of the bytes above ASCII with one beside them: text in a multi-byte charset


def paired(high: np.ndarray) -> bool:
    """Most bytes above ASCII (``high``: a mask per byte) stand beside another one, as in
    text in a multi-byte charset (a character's first byte and the next character's
    first byte are both above ASCII even when a trail byte is not); in Latin text they
    stand alone ("é" between letters)."""
    beside = np.zeros(len(high), dtype=bool)
    beside[1:] |= high[:-1]
    beside[:-1] |= high[1:]
    return int(np.count_nonzero(high & beside)) >= PAIRED * int(np.count_nonzero(high))


def paired_bytes(data: bytes) -> bool:
    """:func:`paired` for the bytes ``data`` (worked out once per sample within
    :func:`~.charsets.reading_once`)."""
    return CS.once(data, "paired", lambda: paired(np.frombuffer(data, dtype=np.uint8) >= 0x80))


def not_asked(data: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the charsets chardet would set aside itself or whose reading is never taken,
    the unlikely ones) for ``data``."""
    return asked(data)[:2]


def asked(data: bytes):
    """(:func:`not_asked`'s two, the charsets whose reading of ``data`` was found not to
    mix scripts, whether it is short: fewer than ``UNLIKELY_SAMPLE`` bytes above ASCII),
    worked out once per sample within :func:`~.charsets.reading_once`."""
    return CS.once(data, "chardet filter", lambda: _sort_out(data))


def _sort_out(data: bytes):
    a = np.frombuffer(data, dtype=np.uint8)
    counts = np.bincount(a, minlength=256)[0x80:]
    n_high = int(counts.sum())
    if not n_high:
        return (), (), frozenset(), True
    names, weights, undefined_at, other, can_mix = _tables()
    share = weights @ counts / n_high
    undefined = undefined_at @ counts > 0
    # Measured on a few bytes, shares differ by chance (16 random bytes may all be
    # letters in one charset): then only the charsets that read most of them as no text.
    floor = share.max() - UNLIKELY_MARGIN if n_high >= UNLIKELY_SAMPLE else UNLIKELY_FLOOR
    is_high = a >= 0x80
    # (Never taken, so not asked when chardet is asked again either: the unlikely ones too.)
    mixing = _mixing_scripts(a, is_high, counts, other, can_mix & ~undefined)
    misfits = _case_misfits(a, is_high, ~undefined & ~mixing)
    never = undefined | mixing | misfits
    if not CS.uses_c1_range(data):
        never |= _READ_AS_WINDOWS_1252
        if not data.translate(None, _celtic_alike()):
            never |= _CELTIC
    unlikely = (share < floor) & ~never
    unmixed = frozenset(_names(can_mix & ~never))
    never = _names(never) + _unicode_never(data)
    unlikely = _names(unlikely)
    if not CS.once(data, "paired", lambda: paired(is_high)):
        if n_high < UNLIKELY_SAMPLE:
            unlikely += _EAST_ASIAN
        else:
            never += _EAST_ASIAN
    return never, unlikely, unmixed, n_high < UNLIKELY_SAMPLE


# A byte above ASCII between two small ASCII letters belongs to the word: a small letter,
# a mark, an apostrophe, a dash. A charset that reads most such bytes as capitals or
# signs ("mÚnage", "co‚ur", "BlanchardÕs") where another reads them as what words hold
# is never asked (DOS and Mac pages for Windows text, and the other way round: Mac Roman's
# "Blanchard’s" alone in a 750 KB file was named Windows-1252); from ``CASE_SAMPLE``
# such bytes on.
CASE_SAMPLE = 1
CASE_MARGIN = 0.5  # of those bytes read as what words hold, below the best charset's share


def _case_misfits(a: np.ndarray, is_high: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per charset of ``_FILTERED`` (among ``rows``): it reads the bytes above ASCII
    between two small ASCII letters as small letters ``CASE_MARGIN`` less often than the
    best of ``rows`` does."""
    out = np.zeros(len(rows), dtype=bool)
    if len(a) < 3:
        return out
    small = _ASCII_SMALL.take(a)
    inner = is_high[1:-1] & small[:-2]
    inner &= small[2:]
    values = a[1:-1][inner]
    if len(values) < CASE_SAMPLE or not rows.any():
        return out
    fits = _word_letters() @ np.bincount(values - 0x80, minlength=128) / len(values)
    return rows & (fits < fits[rows].max() - CASE_MARGIN)


@functools.lru_cache(maxsize=None)
def _word_letters() -> np.ndarray:
    """Per charset of ``_FILTERED`` and byte 80-FF: 1.0 when it reads the byte as what
    stands inside a word of small letters (a small letter, a letter without case, a
    mark, a soft hyphen, an apostrophe, a quote, a dash, a middle dot, an ellipsis),
    else 0.0."""
    from inspector.core.units.unicode_db import category_of_char

    table = np.zeros((len(_FILTERED), 128))
    for row, name in enumerate(_FILTERED):
        try:
            chars = _HIGH_BYTES.decode(name, "replace")
        except LookupError:
            continue
        table[row] = [category_of_char(ch) in _IN_SMALL_WORDS or ch in "'·…" for ch in chars]
    return table


# (Cf: the soft hyphen; Pd, Pi, Pf: "word—word", "l’été", "Blanchard’s")
_IN_SMALL_WORDS = ("Ll", "Lo", "Lm", "Mn", "Mc", "Cf", "Pd", "Pi", "Pf")
# Without a byte 80-9F, ISO-8859-1 reads the sample as Windows-1252 does, and so does
# ISO-8859-15 but for its own letters, which the tell-tales weigh whatever chardet names
# (legacyguess.sharpen): of the three Western answers, sharpen makes the same name, so
# chardet is asked about Windows-1252 alone (34 models fewer to score; a short text's
# languages are checked again for each answer whose best model is a Celtic one).
_READ_AS_WINDOWS_1252 = np.array([n == "iso8859-15" for n in _FILTERED])
# ISO-8859-14 (Celtic) too, when none of its own letters (ŵ ŷ ḃ ċ ḋ...) stands in the
# sample: then it reads it as Latin-1 does, and the decode-safe name is Windows-1252, as
# sharpen makes of ISO-8859-15 without its letters. (On a short text chardet also
# checks the language of every answer whose best model is Celtic again: ISO-8859-14's
# are all Celtic.)
_CELTIC = np.array([n == "iso8859-14" for n in _FILTERED])


@functools.lru_cache(maxsize=None)
def _celtic_alike() -> bytes:
    """The bytes ISO-8859-14 reads as Latin-1 does."""
    return CS.alike_bytes("iso8859-14", "iso8859-1")
_ASCII_SMALL = np.zeros(256, dtype=bool)
_ASCII_SMALL[0x61:0x7B] = True


# The Unicode and 7-bit encodings chardet checks the sample against first (a decode each,
# ~1.5 us) and sets aside for a sample with a byte above ASCII: ASCII, UTF-7, HZ and
# ISO-2022 do not decode one; UTF-16/32 have no model to score a text by, and chardet names
# them only for a byte order mark or NULs; UTF-8 when the sample does not decode in it
# (but for a character cut by its end, as chardet reads it).
_SEVEN_BIT = ("ascii", "utf-7", "hz", "iso2022_jp_2", "iso2022_jp_2004", "iso2022_jp_ext",
              "iso2022_kr", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be")
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\x00\x00\xfe\xff", b"+/v")


def _unicode_never(data: bytes) -> tuple[str, ...]:
    """The encodings of ``_SEVEN_BIT`` (and UTF-8) chardet would set aside for ``data``,
    which holds a byte above ASCII."""
    if b"\x00" in data or data.startswith(_BOMS):
        return ()
    try:
        codecs.utf_8_decode(data, "strict", False)
        return _SEVEN_BIT
    except UnicodeDecodeError:
        return _SEVEN_BIT + ("utf-8", "utf-8-sig")


def _names(rows: np.ndarray) -> tuple[str, ...]:
    """The charsets of ``_FILTERED`` at ``rows`` (a mask)."""
    return tuple(_FILTERED[k] for k in rows.nonzero()[0].tolist())


# A charset whose reading glues letters of another script to ASCII letters is never taken
# (:func:`mixes_scripts`; guess_legacy then takes chardet's next answer), so chardet is
# not asked about it either: for Western text that is most of the Cyrillic, Greek,
# Hebrew and Arabic pages, ~11 charsets on a short text, and chardet's answers stay as
# they were (checked on both corpora) at ~15 % less cost. Worked out for all the
# single-byte charsets at once from the bytes: in them a byte is a character, so a place
# where a letter of another script touches an ASCII letter is a byte above ASCII next to
# an ASCII letter that the charset reads as such a letter.


@functools.lru_cache(maxsize=None)
def _tables():
    """Per charset of ``_FILTERED``: its name (an array), what each byte 80-FF is worth as
    text (:func:`_text_weights`), whether it leaves the byte undefined, whether it reads
    the byte as a letter of another script (1.0, else 0.0: numpy multiplies floats
    faster), and whether such a reading can be told from the bytes (it reads 00-7F as
    ASCII, and some byte 80-FF so)."""
    weights = _text_weights()
    other = np.zeros((len(_FILTERED), 128))
    ascii_bytes = bytes(range(0x80))
    for row, name in enumerate(_FILTERED):
        try:
            if ascii_bytes.decode(name, "replace") != ascii_bytes.decode("ascii"):
                continue  # (cp864 reads % as an Arabic sign)
            chars = _HIGH_BYTES.decode(name, "replace")
        except LookupError:
            continue
        other[row] = [any(lo <= ord(ch) <= hi for lo, hi in OTHER_SCRIPT_RANGES) for ch in chars]
    return np.array(_FILTERED), weights, (weights < -1).astype(float), other, other.any(axis=1)


def _mixing_scripts(a: np.ndarray, is_high: np.ndarray, counts: np.ndarray,
                    other: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per charset of ``_FILTERED`` (among ``rows``, a mask; False elsewhere): whether
    :func:`mixes_scripts` is True on the bytes ``a`` (``is_high``: the bytes above ASCII;
    ``counts``: how many of each byte 80-FF; ``other``: per charset and byte 80-FF,
    whether it reads the byte as a letter of another script). Its count, at the byte
    level: the places where one is glued to the other, left to right without overlap,
    so that in a chain of such places in a row every other one counts, from the first
    (at least half of them: only when that half does not decide are the chains followed)."""
    out = np.zeros(len(rows), dtype=bool)
    if len(a) < 2 or not rows.any():
        return out
    letter = _ASCII_LETTER.take(a)
    before = letter[:-1] & is_high[1:]  # at i: an ASCII letter, then a byte above ASCII
    before |= is_high[:-1] & letter[1:]
    places = before.nonzero()[0]
    if len(places) < 2:
        return out
    high_at = np.maximum(a[places], a[places + 1]) - 0x80
    glued = other @ np.bincount(high_at, minlength=128)  # places per charset
    letters = other @ counts
    half = np.ceil(glued / 2)  # each chain of k places counts ceil(k / 2), so at least this
    out = rows & (half >= 2) & (half * 10 >= letters)
    maybe = rows & (glued >= 2) & (glued * 10 >= letters) & ~out
    two = maybe & (glued == 2)
    if two.any():
        # Two places count 2, or 1 when they make one chain (a byte above ASCII between
        # two letters, or a letter between two such bytes): places in a row, both glued.
        chained = ((places[1:] == places[:-1] + 1)).nonzero()[0]
        links = (other[:, high_at[chained]] * other[:, high_at[chained + 1]]).sum(axis=1)
        out |= two & (links == 0) & (20 >= letters)
        maybe &= ~two
    if maybe.any():
        at = (other[:, high_at] > 0)[maybe]  # per charset and place: glued there
        # A place continues a chain when the place before it is at the byte before
        # and glued too; it counts when its distance from the chain's first is even.
        follows = np.zeros(at.shape, dtype=bool)
        follows[:, 1:] = at[:, :-1] & at[:, 1:] & (places[1:] == places[:-1] + 1)
        index = np.arange(len(places))
        first = np.maximum.accumulate(np.where(at & ~follows, index, -1), axis=1)
        mixed = (at & ((index - first) % 2 == 0)).sum(axis=1)
        out[maybe] = (mixed >= 2) & (mixed * 10 >= letters[maybe])
    return out


_ASCII_LETTER = np.zeros(256, dtype=bool)
_ASCII_LETTER[[*range(0x41, 0x5B), *range(0x61, 0x7B)]] = True


# Letters of the scripts with their own single-byte charsets (Greek, Cyrillic, Hebrew,
# Arabic, Thai), against an ASCII letter: a word that mixes two scripts.
OTHER_SCRIPT_RANGES = ((0x370, 0x52F), (0x590, 0x6FF), (0xE00, 0xE7F))


def mixes_scripts_bytes(data: bytes, encoding: str) -> bool | None:
    """:func:`~.legacyguess.mixes_scripts` of one single-byte charset of ``_FILTERED``
    from the bytes, or None for a charset it does not know that way."""
    names, _, _, other, can_mix = _tables()
    row = _ROWS.get(encoding)
    if row is None or not can_mix[row]:
        return None
    # A bound first: the places where an ASCII letter touches a byte above ASCII,
    # against the letters of the other script (in text of that script, far more
    # than the places where it meets Latin words).
    letters = len(data) - len(data.translate(None, _other_bytes(row)))
    if not letters:
        return False
    a = np.frombuffer(data, dtype=np.uint8)
    letter, high = _ASCII_LETTER.take(a), a >= 0x80
    places = np.count_nonzero(letter[:-1] & high[1:]) + np.count_nonzero(high[:-1] & letter[1:])
    if places < 2 or places * 10 < letters:
        return False
    counts = np.bincount(a, minlength=256)[0x80:]
    rows = np.zeros(len(names), dtype=bool)
    rows[row] = True
    return bool(_mixing_scripts(a, high, counts, other, rows)[row])


_ROWS = {name: row for row, name in enumerate(_FILTERED)}


@functools.lru_cache(maxsize=None)
def _other_bytes(row: int) -> bytes:
    """The bytes the charset of ``_FILTERED[row]`` reads as letters of another script."""
    return bytes(0x80 + b for b in _tables()[3][row].nonzero()[0].tolist())
