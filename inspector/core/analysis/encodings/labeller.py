"""Which encoding each stretch of the encoding map is in (the stretches are cut by
:mod:`inspector.core.analysis.encodings.stretches`).

A damaged stretch can be in a legacy charset only when it has a legacy-shaped run,
``LEGACY_WEIGHT`` times as many of them as UTF-8-shaped runs, and no more valid UTF-8
bytes than damaged ones; any other is UTF-8 with problems and joins the UTF-8 around
it. A stretch with ``MIN_LEGACY_RUNS`` legacy-shaped runs or more is given to
chardet (only its own bytes, from its first to its last damaged word, at most
32 KiB cut at a line; see
:func:`inspector.core.analysis.encodings.legacyguess.guess_charset`): on its own when it
is ``GUESS_ALONE`` bytes or more (in a large file: all the stretches of one run of
blocks together), else pooled with the other small ones and with the stretches
that have fewer legacy-shaped runs but no UTF-8-shaped one (when the whole map leans
that way). The guess is kept when it explains the bytes that are not UTF-8
(:func:`~inspector.core.analysis.encodings.charsets.plausible`: letters where letters
stand; random damage in English text does not pass, nor do a few bytes in words that
read as no word: ``onereading.odd_words``). chardet is asked at most
``MAX_GUESSES`` + 1 times; further stretches take the nearest guess that explains them.
Double-encoded stretches are asked to ftfy (the ``MAX_MOJI_CHECKS`` largest; others
take the nearest answer) and become ``mojibake`` when it undoes them, UTF-8 otherwise.
"""

from __future__ import annotations

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.legacyguess import guess_charset
from inspector.core.analysis.encodings.regions import BINARY, MOJIBAKE, UTF8
from inspector.core.analysis.encodings.stretches import (ASC, BIN, ERR, LEGACY_WEIGHT, MOJ, UTF,
                                                   Stretch)

MIN_LEGACY_RUNS = 3
PLAUSIBLE = 0.85
MAX_GUESSES = 6
MAX_MOJI_CHECKS = 8
MOJI_TEXT = 16 << 10       # characters handed to ftfy to confirm a stretch


class Labeller:
    """Labels the stretches of every window once all are known, so that small damaged
    ones are pooled and chardet and ftfy are asked a bounded number of
    times (``MAX_GUESSES``, ``MAX_MOJI_CHECKS``)."""

    def __init__(self):
        self.found: list = []    # (offset, CharsetGuess) of the guesses that held
        self.moji: list = []     # (offset, via) of the double encodings ftfy undid

    def label(self, stretches: list[Stretch]) -> None:
        mojis = []
        for s in stretches:
            if s.cls == UTF or s.cls == ASC:
                s.label = UTF8
            elif s.cls == BIN:
                self._binary(s)
            elif s.cls == MOJ:
                mojis.append(s)
        self._mojibake(mojis)
        errs = [s for s in stretches if s.cls == ERR]
        for s in errs:
            s.label = UTF8
        if not errs:
            return
        shaped = sum(s.shaped for s in errs)
        legacy = sum(s.legacy_runs for s in errs)
        strong = [s for s in errs if s.legacy_runs >= MIN_LEGACY_RUNS
                  and s.legacy_runs >= LEGACY_WEIGHT * s.shaped]
        chosen = {id(s) for s in strong}
        weak = [s for s in errs if id(s) not in chosen and s.legacy_runs and not s.shaped]
        if legacy < LEGACY_WEIGHT * shaped:
            weak = []  # the damage is UTF-8-shaped on the whole: small legacy-like bits are chance
        # Large stretches (or all of a run of blocks) are guessed on their own, small ones
        # pooled: no detector can tell much from a line.
        groups: dict = {}
        pool = list(weak)
        for s in strong:
            if s.group is None:
                pool.append(s)
            else:
                groups.setdefault(s.group, []).append(s)
        order = sorted(groups, key=lambda g: -sum(s.legacy_runs for s in groups[g]))
        for n, g in enumerate(order):
            members = groups[g]
            guess = self._guess(members) if n < MAX_GUESSES else self._nearest(members)
            for s in members:
                _set_legacy(s, guess)
        if pool and sum(s.legacy_runs for s in pool) >= MIN_LEGACY_RUNS:
            guess = self._guess(pool) if len(order) < MAX_GUESSES else None
            guess = guess or self._nearest(pool)
            for s in pool:
                _set_legacy(s, guess)

    def _guess(self, members):
        guess = guess_charset(_joined(members))
        if guess is None:
            return None
        guess = _western_if_better(members, guess)
        if not _explains(members, guess.encoding) or _damage(members, guess.encoding):
            return None
        self.found.append((members[0].start, guess))
        return guess

    def _nearest(self, members):
        if not self.found:
            return None
        at = members[0].start
        for _, guess in sorted(self.found, key=lambda f: abs(f[0] - at)):
            if _explains(members, guess.encoding):
                return guess
        return None

    @staticmethod
    def _binary(s: Stretch) -> None:
        wide = CS.nul_pattern(s.bytes[:1 << 16])
        if wide:
            s.label, s.by = wide[1], "nul_pattern"
        else:
            s.label, s.by = BINARY, "controls"

    def _mojibake(self, stretches: list[Stretch]) -> None:
        """ftfy is asked about the largest candidates; the others take the charset of
        the nearest one it undid (they showed the same pairs), or stay UTF-8."""
        by_size = sorted(stretches, key=lambda s: -(s.end - s.start))
        for s in by_size[:MAX_MOJI_CHECKS]:
            text = s.bytes[:MOJI_TEXT * 2].decode("utf-8", "replace")[:MOJI_TEXT]
            found = CS.mojibake_in(text)
            if found is not None:
                s.label, s.via, s.by = MOJIBAKE, found.via, "ftfy"
                self.moji.append((s.start, found.via))
            else:
                s.label = UTF8
        for s in by_size[MAX_MOJI_CHECKS:]:
            if self.moji:
                _, via = min(self.moji, key=lambda m: abs(m[0] - s.start))
                s.label, s.via, s.by = MOJIBAKE, via, "ftfy"
            else:
                s.label = UTF8


def _joined(members: list[Stretch]) -> bytes:
    """The bytes of damaged stretches, each from its first to its last word that is
    not UTF-8 (see ``Stretch.edges``), joined by newlines, at most GUESS_LIMIT."""
    parts, total = [], 0
    for s in members:
        a, b = s.edges()
        b = CS.head_lines(s.w.data[a - s.w.base:b - s.w.base], CS.GUESS_LIMIT - total)
        parts.append(b)
        total += len(b)
        if total >= CS.GUESS_LIMIT:
            break
    return b"\n".join(parts)


def _western_if_better(members: list[Stretch], guess):
    """On a few words charset-normalizer may name a neighbour of the usual Western
    charset (ISO-8859-2 "Hungarian" for "café, ½ cup"): the Western one is kept instead
    when it explains the bytes that are not UTF-8 strictly better (a ½ that ISO-8859-2
    reads as a lone ˝). Windows-1252 when a byte of 0x80-0x9F is among them, else
    ISO-8859-1."""
    if (guess.by != "charset-normalizer" or guess.encoding in ("cp1252", "iso8859-1", "iso8859-15")
            or CS.is_multibyte(guess.encoding)):
        return guess
    if not {"cp1252", "iso8859-1", "iso8859-15"} & set(guess.candidates):
        return guess
    words, alone = zip(*(s.runs() for s in members))
    raw = b"".join(words) + b"".join(alone)
    western = "cp1252" if any(0x80 <= b <= 0x9F for b in raw) else "iso8859-1"
    if plausibility(members, western) > plausibility(members, guess.encoding):
        return CS.CharsetGuess(western, "", guess.chaos, guess.coherence, guess.candidates)
    return guess


def _damage(members: list[Stretch], encoding: str) -> bool:
    """A few bytes that are not UTF-8 (``FEW_ERRORS`` or fewer) standing in words that
    are not words in ``encoding``: random damage, not a charset's letters
    (:func:`~.onereading.odd_words`)."""
    from inspector.core.analysis.encodings.onereading import FEW_ERRORS, odd_words

    if CS.is_multibyte(encoding) or sum(s.count(s.w.n_err) for s in members) > FEW_ERRORS:
        return False
    return all(odd_words(s.w, encoding, int(s.w.cell_start[s.first]), int(s.w.cell_end[s.last]))
               for s in members)


def _explains(members: list[Stretch], encoding: str) -> bool:
    return plausibility(members, encoding) >= PLAUSIBLE


def plausibility(members: list[Stretch], encoding: str) -> float:
    """How well ``encoding`` explains the bytes of the stretches that are not UTF-8:
    their runs (single-byte charsets), or their whole text (multibyte charsets, whose
    bytes mean nothing cut from their neighbours)."""
    try:
        if CS.is_multibyte(encoding):
            return CS.plausible_text(_joined(members), encoding)
        words, alone = zip(*(s.runs() for s in members))
        return CS.plausible(b"".join(words), b"".join(alone), encoding)
    except LookupError:
        return 0.0


def _set_legacy(s: Stretch, guess) -> None:
    if guess is None:
        return
    s.label = guess.encoding
    s.language = guess.language
    s.by = guess.by
