"""Whether a range read whole is in one legacy charset throughout (:func:`one_legacy_reading`).

The map cuts a range into stretches line by line and weighs each by the shape of its
errors (:mod:`.stretches`). That reasoning is made for UTF-8 with a few foreign parts; a
file wholly in a legacy charset is better judged whole, before it is cut: in Thai,
Shift JIS, EUC-KR or DOS Greek a third of the bytes above 0x7F fall by chance into
well-formed UTF-8 sequences (เก, 年 read as ǯ), enough to make lines of them look like
UTF-8 with problems, or short UTF-8 regions between legacy ones.

So, first: does the range hold a UTF-8 part at all? Errors of UTF-8's own shape (encoded
surrogates, overlong forms: what a UTF-8 encoder writes) outweighing the runs a legacy
charset makes, and a quarter of all the runs of errors or more, leave it to the map too,
when valid sequences carry most of the bytes above 0x7F or no run has a legacy charset's
shape (in a short Korean text a few pairs fall into such forms by chance, among errors
that outnumber its valid sequences; in kana-heavy EUC-JP, among many more runs of other
errors). So do valid sequences carrying three times the bytes the errors hold
(:func:`utf8_carries_most`: a line of UTF-8 with a run of damaged bytes; chance
sequences carry at most two thirds in legacy text). Only lines without any error whose
valid bytes above 0x7F number ``UTF8_LINE`` or more count as one (in a legacy charset a
whole line of such chance sequences is rare), and only when such lines hold at least a
``UTF8_PART`` share of the bytes above 0x7F. Without such a part, and without binary
cells, the range is one reading: the charset it declares names it when the bytes agree
(:mod:`.declared`; when the scan's counts alone rule out a UTF-8 part, binary and
UTF-8-shaped errors, :func:`counts_rule_out_parts`, or, for a multi-byte charset, the
counts and the cells' counts do, :func:`cells_rule_out_parts`, the map takes it without
this window), else chardet names the charset (:mod:`.legacyguess`), and
the answer is kept when the charset decodes the whole range and explains its bytes that
are not UTF-8 (the labeller's measure, :func:`~.charsets.plausible`: letters where letters stand), and no
control that text does not use stands near them (``NEAR`` bytes), and, when they are few
(``FEW_ERRORS``), the words that hold them read as words (letters, not "Per@¦ssion";
markup and URLs separate words: :func:`odd_words`). What chardet misses in short text
(:mod:`.missedreadings`) is weighed the same way: kana text before chardet's single-byte
answer, whole words of a non-Latin script of ``WHOLE_WORD`` bytes or more before its Latin
page's ("Êèíî"), and, when its answer does not explain the bytes, words of such a script
or a CJK charset's punctuation in Latin text. Random
damage in ASCII or UTF-8 text is explained by no charset (bytes that decode to symbols
and controls in the middle of words) and stays UTF-8 with problems, as the map says.

Lines of chance sequences do make such a part in a DOS document framed with box drawing
(Johab's ─ is DB A1, well-formed UTF-8 for an Arabic mark): the part is then set aside
when a multi-byte charset, the one declared or chardet's, reads the whole range without
error and as text (frames included) and those lines read in UTF-8 as no text, fewer than
half of their characters letters and most of those of a script the legacy reading of
the range never shows (:func:`_despite_chance_utf8`). A real UTF-8 paragraph reads as words.
(The map builder also judges a range that ends in a DOS end-of-file mark, Ctrl-Z,
without it: one control at the end is no binary data.)
"""

from __future__ import annotations

import codecs
import functools
import re
import threading
from collections import Counter

import numpy as np

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.chardetfilter import paired_bytes
from inspector.core.analysis.encodings.legacyguess import chardet_sample, decodes, guess_charset
from inspector.core.analysis.encodings.missedreadings import (borrowed_punctuation, kana_reading,
                                                             latin_page, missed_reading, script_guess)
from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import category_of_char
from inspector.core.analysis.encodings.stretches import (BIN, ERR, LEGACY_WEIGHT, Stretch, Window,
                                                        cell_counts)

UTF8_LINE = 4       # valid bytes above 0x7F in a line without errors: a line of UTF-8 text
UTF8_PART = 0.02    # of the bytes above 0x7F, in such lines: a UTF-8 part the map must cut
NEAR = 16           # bytes between a control and an error that make them one piece of damage
FEW_ERRORS = 64     # up to this many bytes that are not UTF-8, the words holding them are read
PLAUSIBLE = 0.85    # the labeller's PLAUSIBLE: the share of the bytes a charset must explain
WHOLE_WORD = 3      # bytes above ASCII in a word of their own that no Latin page reads


def utf8_part(w: Window) -> int:
    """The valid bytes above 0x7F in lines of ``w`` that are UTF-8 text (module text)."""
    return _utf8_part(w.n_err, w.n_valid)


def utf8_carries_most(errors: int, valid: int) -> bool:
    """Valid multi-byte sequences carry ``LEGACY_WEIGHT`` times the bytes above 0x7F that
    the errors hold, or more: UTF-8's shape, whatever the lines (a one-line UTF-8 text
    with a run of damaged bytes). Chance sequences carry at most two thirds of them in a
    legacy text, short ones included (a third in most CJK text)."""
    return valid >= LEGACY_WEIGHT * errors


def _utf8_part(n_err: np.ndarray, n_valid: np.ndarray) -> int:
    clean = (n_err == 0) & (n_valid >= UTF8_LINE)
    return int(n_valid[clean].sum())


def _controls_near_errors(w: Window) -> bool:
    """A control that text does not use (NUL, ESC, DEL...) within ``NEAR`` bytes of a
    byte that is not UTF-8."""
    ctrl = w.ctrl.nonzero()[0]
    err = w.err.nonzero()[0]
    if not len(ctrl) or not len(err):
        return False
    at = err.searchsorted(ctrl)
    before = np.abs(ctrl - err[np.maximum(at - 1, 0)])
    after = np.abs(err[np.minimum(at, len(err) - 1)] - ctrl)
    return bool((np.minimum(before, after) <= NEAR).any())


def counts_rule_out_parts(result) -> bool:
    """The scan's counts alone say that its range holds no UTF-8 part, no binary and no
    errors of UTF-8's shape (module text), so that a charset the range declares needs no
    window to be checked against: no control that text does not use, fewer valid bytes
    above 0x7F than a UTF-8 part needs (``UTF8_LINE``, and a ``UTF8_PART`` share), and
    UTF-8-shaped errors, if any, outweighed ``LEGACY_WEIGHT`` times by the others."""
    if result.binary_bytes > result.error_bytes:  # a control (NUL, ESC, DEL...)
        return False
    valid = sum(length * n for length, n in result.units.items() if length > 1)
    if valid >= UTF8_LINE and valid >= UTF8_PART * (valid + result.error_bytes):
        return False
    shaped = shaped_errors(result)
    return LEGACY_WEIGHT * shaped <= result.error_units - shaped


def cells_rule_out_parts(data: bytes, result) -> bool:
    """What :func:`one_legacy_reading` checks of a window of ``data`` (the whole range
    of ``result``) before it takes a multi-byte charset the range declares, without the
    window (in CJK text a third of the bytes above 0x7F fall into valid UTF-8 sequences
    by chance, too many for :func:`counts_rule_out_parts`): the scan's counts say there
    are errors and no control; UTF-8's shape is ruled out, by the counts (no UTF-8-shaped
    error, no sequence cut by the end of the range) or by the cells (fewer valid bytes
    above 0x7F than bytes that are not UTF-8, and a legacy-shaped run: then the window
    does not weigh the shaped ones); and the lines of UTF-8 text that the cells hold
    (:func:`~.stretches.cell_counts`) are less than a ``UTF8_PART`` share."""
    if not result.error_units or result.binary_bytes > result.error_bytes:
        return False
    n_err, n_valid, cut_end, lead_pair = cell_counts(data)
    errors, valid = int(n_err.sum()), int(n_valid.sum())
    if not errors:
        return False
    if (shaped_errors(result) or cut_end) and not (lead_pair and valid <= errors):
        return False
    if utf8_carries_most(errors, valid):
        return False
    part = _utf8_part(n_err, n_valid)
    return not (part and part >= UTF8_PART * (errors + valid))


def shaped_errors(result) -> int:
    """The scan's error units of the kinds only a UTF-8 encoder writes."""
    return sum(result.errors_by_kind.get(k, 0) for k in _SHAPED_KINDS)


_SHAPED_KINDS = (K.OVERLONG, K.SURROGATE, K.OUT_OF_RANGE, K.LEGACY_LONG_FORM)


def one_legacy_reading(w: Window, declared: CS.CharsetGuess | None = None) -> CS.CharsetGuess | None:
    """The legacy charset the whole window ``w`` is in, or None when it holds a UTF-8
    part, binary, no error, or no charset explains it (module text). ``declared``: the
    charset the window declares (:mod:`.declared`), taken before chardet is asked when
    it explains the bytes."""
    if not len(w.cls) or not len(w.run_starts):
        return None
    errors = int(w.n_err.sum())
    valid = int(w.n_valid.sum())
    if (w.cls == BIN).any():
        return None
    shaped = int(w.n_shaped.sum())
    legacy = int(w.n_legacy.sum())
    if (shaped and legacy < LEGACY_WEIGHT * shaped and (valid > errors or not legacy)
            and len(w.run_starts) - shaped <= LEGACY_WEIGHT * shaped):
        # Errors a UTF-8 encoder makes (surrogates, overlong forms) among few others, and
        # valid sequences carrying most of the bytes above 0x7F or no run of a legacy
        # charset's shape: UTF-8's. (In Japanese, Korean or Chinese text a few pairs fall
        # into such forms by chance, among errors that outnumber its valid sequences, or
        # among many more runs of other errors, as in kana-heavy EUC-JP.)
        return None
    if w.ctrl.any() and _controls_near_errors(w):
        return None  # random bytes among the errors: damage, not text in a charset
    part = utf8_part(w)
    if utf8_carries_most(errors, valid) or (part and part >= UTF8_PART * (errors + valid)):
        # (A UTF-8 line that is well-formed by chance, a Johab frame, is weighed again.)
        return _despite_chance_utf8(w, declared, errors)
    if declared is not None and (CS.is_multibyte(declared.encoding) or _explains(w, declared, errors)):
        return declared  # (a multi-byte one was weighed as _explains does, by plausible_text)
    guess = guess_charset(w.data)
    whole = guess is not None and decodes(w.data, guess.encoding)
    if whole and CS.is_multibyte(guess.encoding):
        return guess if _explains(w, guess, errors) else None
    # A single-byte answer may be what a damaged multi-byte file looks like to chardet
    # (a Shift JIS file that lost a byte was "CP737"): the reading despite the damage
    # comes first when there is one.
    despite = guess_despite_damage(w.data)
    if despite is not None and _explains(w, despite, errors):
        return despite
    kana = kana_reading(w.data)  # kana text that chardet left to a single-byte charset
    if kana is not None:
        return CS.CharsetGuess(kana, "Japanese", 0.0, 1.0, [kana], "kana")
    if whole and latin_page(guess.encoding):
        # chardet's Latin page for whole words of three letters or more above ASCII
        # ("Êèíî" for "Кино" in Windows-1251): Latin text has accented letters inside its
        # words, beside ASCII ones, and a lone "à" or "è" at most.
        words = script_guess(w.data, WHOLE_WORD)
        if words is not None and _explains(w, words, errors):
            return words
        # ... and for a multi-byte charset's quotes and ellipses where Latin text writes
        # them ("it\x81fs" is "it’s" in Windows-932, "itüfs" in CP850).
        borrowed = borrowed_punctuation(w.data, placed=True) if LEGACY_WEIGHT * valid < errors else None
        if borrowed is not None:
            return CS.CharsetGuess(borrowed, "", 0.0, 1.0, [borrowed], "punctuation")
    if whole and _explains(w, guess, errors):
        return guess
    missed = missed_reading(w.data, LEGACY_WEIGHT * valid < errors)
    return missed if missed is not None and _explains(w, missed, errors) else None


def _despite_chance_utf8(w: Window, declared: CS.CharsetGuess | None,
                         errors: int) -> CS.CharsetGuess | None:
    """The multi-byte charset the whole window is in although lines of it are well-formed
    UTF-8 (module text), or None: when those lines read as no text in UTF-8 (fewer than
    half of their characters above ASCII letters: asked first, so that a real UTF-8 part
    costs no guess), the one it declares or chardet names, when it reads the whole window
    without error, as text (frames of box drawing included), and those lines' letters
    are mostly of scripts its reading of the window never shows."""
    utf8 = _utf8_lines(w)
    if not _no_text(utf8):
        return None
    guess = (declared if declared is not None and CS.is_multibyte(declared.encoding)
             else guess_charset(w.data))
    if guess is None or not CS.is_multibyte(guess.encoding):
        return None
    try:
        text = CS.strict_text(w.data, guess.encoding)
    except LookupError:
        return None
    if (text is None or CS.plausible_text(w.data, guess.encoding, signs=True) < PLAUSIBLE
            or not _foreign_scripts(utf8, text)):
        return None
    return guess


def _utf8_lines(w: Window) -> str:
    """The lines of ``w`` counted as UTF-8 text (:func:`utf8_part`), read in UTF-8."""
    lines = ((w.n_err == 0) & (w.n_valid >= UTF8_LINE)).nonzero()[0].tolist()
    return "".join(w.data[int(w.cell_start[k]):int(w.cell_end[k])].decode("utf-8", "replace")
                   for k in lines)


def _no_text(utf8: str) -> bool:
    """Fewer than half of the characters above ASCII of ``utf8`` are letters (Johab box
    drawing reads as Arabic marks; a Russian paragraph reads as Russian words)."""
    kinds = Counter(ch for ch in utf8 if ch > "\x7f")  # each character's category asked once
    letters = sum(n for ch, n in kinds.items() if category_of_char(ch)[0] == "L")
    return bool(kinds) and letters * 2 < sum(kinds.values())


def _foreign_scripts(utf8: str, text: str) -> bool:
    """Half or more of the characters of a script (not Common or Inherited) of ``utf8``
    are of scripts ``text`` (the whole window read in the legacy charset) holds none of."""
    from inspector.core.units.chartables import INHERITED, SCRIPT_NAMES, script_table

    scripts = script_table()
    held = np.bincount(scripts[_code_points(text)], minlength=len(SCRIPT_NAMES)) > 0
    points = _code_points(utf8)
    scripted = scripts[points[points > 0x7F]]
    scripted = scripted[scripted > INHERITED]  # (Unknown, Common, Inherited: of no script)
    return bool(len(scripted)) and int(np.count_nonzero(~held[scripted])) * 2 >= len(scripted)


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def _explains(w: Window, guess: CS.CharsetGuess, errors: int) -> bool:
    """``guess`` reads the bytes of ``w`` that are not UTF-8 as text (module text)."""
    if CS.is_multibyte(guess.encoding):
        explained = CS.plausible_text(w.data, guess.encoding)
    else:
        explained = CS.plausible(*Stretch(w, 0, len(w.cls) - 1, ERR).runs(), guess.encoding)
    if explained < PLAUSIBLE:
        return False
    return not (errors <= FEW_ERRORS and not CS.is_multibyte(guess.encoding)
                and odd_words(w, guess.encoding))


# A multi-byte text that lost a byte (a cut transfer, a bad sector) decodes nowhere, and
# the damaged line's misaligned pairs throw chardet off the whole file (a Big5 file with
# one line shifted by a byte was "ISO-8859-15" at confidence 0.03, an EUC-JP one "CP737").
# Asked again without the lines that a multi-byte charset does not decode, it names the
# charset; that answer is kept when it reads the whole file losing at most DAMAGE_LOST
# of its characters above ASCII (plausible_text then weighs what it reads) and the lines
# set aside are few.
DAMAGE_CANDIDATES = ("big5hkscs", "cp932", "euc_jp", "cp949", "gb18030", "johab")
DAMAGE_SET_ASIDE = 0.25  # at most this share of the bytes in lines set aside
DAMAGE_LOST = 0.02
DAMAGE_LEAST = 8         # characters above ASCII the charset must read, at the least
_ASCII = bytes(range(0x80))


class _TooMany(Exception):
    pass


_lost = threading.local()  # (characters lost so far, how many may be) of the decode in hand


def _count_lost(error: UnicodeDecodeError):
    """An error handler that reads as "replace" does, and gives up after the
    ``_lost.most``-th lost character."""
    _lost.count += 1
    if _lost.count > _lost.most:
        raise _TooMany
    return "\ufffd", error.end


codecs.register_error("inspector-count-lost", _count_lost)


def _loses_more(data: bytes, encoding: str, most: float) -> bool:
    """``data`` read in ``encoding`` holds more than ``most`` U+FFFD where a "replace"
    reading would; the reading stops at the first character past ``most`` lost (a
    single-byte text read as Big5 stops after a few)."""
    _lost.count, _lost.most = 0, most
    try:
        text = data.decode(encoding, "inspector-count-lost")
    except _TooMany:
        return True
    return text.count("\ufffd") > most


def _decodes_line(line: bytes, encoding: str) -> bool:
    try:
        line.decode(encoding)
        return True
    except UnicodeDecodeError:
        return False


def _paired(data: bytes) -> bool:
    """Most bytes above ASCII stand beside another one (:func:`~.legacyguess.paired`):
    no multi-byte charset reads Latin text losing only a few characters."""
    return paired_bytes(data)


def guess_despite_damage(data: bytes) -> CS.CharsetGuess | None:
    """The multi-byte charset of ``data`` that a few damaged lines hide (module text),
    or None."""
    high = len(data.translate(None, _ASCII))
    if high < 2 * DAMAGE_LEAST:  # too few bytes above ASCII for DAMAGE_LEAST characters
        return None
    if not _paired(data):
        return None
    lines = None
    most = max(2, DAMAGE_LOST * high)
    # Whole lines that hold bytes above ASCII, the ones chardet is shown (a line end is
    # never inside a character of these charsets, so they lose no more than the whole
    # file): most single-byte text is ruled out there without reading the rest.
    head = chardet_sample(data)
    if head is data or not head.endswith(b"\n"):
        head = None
    for candidate in DAMAGE_CANDIDATES:
        # One decode first: a charset that loses more than a few characters of the
        # file is not its charset (a single-byte text loses many in every one).
        if head is not None and _loses_more(head, candidate, most):
            continue
        if _loses_more(data, candidate, most):
            continue
        lines = lines if lines is not None else data.split(b"\n")
        kept = [line for line in lines if _decodes_line(line, candidate)]
        aside = len(data) - sum(len(line) + 1 for line in kept)
        if len(kept) == len(lines) or aside > DAMAGE_SET_ASIDE * len(data):
            continue
        guess = guess_charset(b"\n".join(kept))
        if guess is None or not CS.is_multibyte(guess.encoding):
            continue
        text = data.decode(guess.encoding, "replace")
        high = sum(1 for ch in text if ord(ch) > 0x7F)
        lost = text.count("\ufffd")
        if high - lost >= DAMAGE_LEAST and lost <= max(1, DAMAGE_LOST * high):
            return guess
    return None


_IN_WORDS = "'’-°№.·"
_EDGE_PUNCTUATION = ".,;:!?¡¿\"'()[]{}<>«»‹›-–—…“”„‘’*/"


def odd_words(w: Window, encoding: str, lo: int = 0, hi: int | None = None) -> bool:
    """A third or more of the bytes that are not UTF-8 (in ``lo:hi`` of the window) stand in words that are not words
    when read in ``encoding`` (a sign or an ASCII symbol among letters: "Per@¦ssion"): a
    few random bytes in ASCII text, not a legacy charset's letters.

    A word: from the last space or separator before the byte to the first after it (at
    most ``WORD_REACH`` characters either way), without the punctuation at its ends. The
    separators are the ASCII signs that markup, URLs and prose put between words
    (``_SEPARATORS``: "ank>שכיכבה</A>", "?sub=Тема", "&nbsp;בגלילאו" hold words of their
    own); the other ASCII signs ("@", "#", "_"...) stay inside. Odd: it holds letters and
    something else words do not hold ("©", "½", "10 °C" and "MP3" are text)."""
    err = w.err[lo:hi].nonzero()[0] + lo
    if not len(err):
        return False
    classes = _byte_classes(encoding)
    if classes is None:  # not one character per byte: read the text
        return _odd_words_read(w.data, encoding, err.tolist())
    if len(err) <= FEW_WORDS:
        return _odd_words_few(w.data, encoding, err.tolist())
    space, alpha, bad, edge = classes
    a = w.a
    n = len(a)
    # Where the word around each byte p starts and ends: a space before p (or p - 40,
    # or 0), a space from p + 1 on (or p + 40, or the end).
    spaces = space.take(a).nonzero()[0]
    k = spaces.searchsorted(err)  # the first space at or after p
    prev = np.where(k > 0, spaces[np.maximum(k - 1, 0)] + 1, 0) if len(spaces) else np.zeros_like(err)
    prev = np.where(prev <= err, prev, 0)  # (a space at p itself is no word boundary before p)
    start = np.maximum(np.maximum(prev, err - WORD_REACH), 0)
    k1 = spaces.searchsorted(err + 1)
    nxt = spaces[np.minimum(k1, len(spaces) - 1)] if len(spaces) else np.full_like(err, n)
    nxt = np.where(k1 < len(spaces), nxt, n)
    end = np.minimum(np.minimum(nxt, err + WORD_REACH), n)
    # Without the punctuation at its ends: from the first byte that is none, to after the
    # last one (an empty word when all are).
    inner = (~edge.take(a)).nonzero()[0]
    if not len(inner):
        return False
    first = inner[np.minimum(inner.searchsorted(start), len(inner) - 1)]
    last = inner[np.maximum(inner.searchsorted(end) - 1, 0)] + 1
    first = np.where(inner.searchsorted(start) < len(inner), first, n)
    last = np.where(inner.searchsorted(end) > 0, last, 0)
    core = first < np.minimum(last, end)
    s_, e_ = np.minimum(first, end), np.maximum(np.minimum(last, end), start)
    alphas = np.zeros(n + 1, dtype=np.int64)  # running counts, 0 before the first byte
    np.cumsum(alpha.take(a), out=alphas[1:])
    bads = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(bad.take(a), out=bads[1:])
    odd = core & (alphas[e_] > alphas[s_]) & (bads[e_] > bads[s_])
    return int(odd.sum()) * 3 >= len(err)


WORD_REACH = 40
FEW_WORDS = 16  # bytes up to which their words are looked at one by one, not with numpy


def _odd_words_few(data: bytes, encoding: str, err: list[int]) -> bool:
    """:func:`odd_words` for a few bytes: each word found in the bytes read as classes
    (one ``translate``): spaces, punctuation that may end a word (bad or not), letters,
    other bad characters, the rest."""
    classes = data.translate(_class_table(encoding))
    n = len(classes)
    odd = 0
    for p in err:
        start = classes.rfind(b"S", max(0, p - WORD_REACH), p) + 1 or max(0, p - WORD_REACH)
        end = classes.find(b"S", p + 1, min(n, p + WORD_REACH))
        core = classes[start:end if end >= 0 else min(n, p + WORD_REACH)].strip(b"ef")
        odd += b"A" in core and (b"B" in core or b"e" in core or b"S" in core)  # (S: p itself)
    return odd * 3 >= len(err)


@functools.lru_cache(maxsize=None)
def _class_table(encoding: str) -> bytes:
    """Per byte value, a class for :func:`_odd_words_few` (from :func:`_byte_classes`)."""
    space, alpha, bad, edge = _byte_classes(encoding)
    return bytes(ord("S") if space[b] else ord("e") if edge[b] and bad[b] else
                 ord("f") if edge[b] else ord("A") if alpha[b] else ord("B") if bad[b] else ord("o")
                 for b in range(256))


@functools.lru_cache(maxsize=None)
def _byte_classes(encoding: str):
    """Per byte value, what ``encoding`` reads it as: a space, a letter, a character
    words do not hold, punctuation that may end a word; None for a charset that does
    not read one character per byte."""
    if CS.is_multibyte(encoding):
        return None
    space, alpha, bad, edge = (np.zeros(256, dtype=bool) for _ in range(4))
    for b in range(256):
        try:
            ch = bytes((b,)).decode(encoding, "replace")
        except LookupError:
            return None
        if len(ch) != 1:
            return None
        space[b] = ch.isspace() or ch in _SEPARATORS
        alpha[b] = ch.isalpha()
        bad[b] = not (ch.isalnum() or ch in _IN_WORDS or category_of_char(ch) in ("Mn", "Mc"))
        edge[b] = ch in _EDGE_PUNCTUATION
    return space, alpha, bad, edge


def _odd_words_read(data: bytes, encoding: str, err: list[int]) -> bool:
    """:func:`odd_words` on the text, for a charset that does not read one character
    per byte (positions are then only about right)."""
    text = CS.decoded(data, encoding)
    n = len(text)
    odd = 0
    for p in err:
        a = max(0, p - WORD_REACH)
        before = _LAST_SPACE.search(text, a, p)
        if before is not None:
            a = before.start() + 1
        after = _SPACE.search(text, p + 1, min(n, p + WORD_REACH))
        b = after.start() if after is not None else min(n, p + WORD_REACH)
        core = text[a:b].strip(_EDGE_PUNCTUATION)
        odd += any(ch.isalpha() for ch in core) and not all(
            ch.isalnum() or ch in _IN_WORDS or category_of_char(ch) in ("Mn", "Mc") for ch in core)
    return odd * 3 >= len(err)


_SEPARATORS = "<>\"=&;/?|()[]{},:!%+_"  # between words (odd_words)
_BOUNDARY = "\\s" + re.escape(_SEPARATORS)  # str.isspace's characters and the separators
_SPACE = re.compile(f"[{_BOUNDARY}]")
_LAST_SPACE = re.compile(f"[{_BOUNDARY}][^{_BOUNDARY}]*\\Z")
