"""Find bytes, text and code points in a byte source, including the spellings a filter
misses.

A query is parsed once into a :class:`Pattern`:

* ``hex``: bytes written in hex (``"E2 82 AC"``, ``"e282ac"``, ``"0xE2,0x82"``), with
  ``??`` for any one byte (``"C0 ?? AF"``);
* ``text``: found as its UTF-8 bytes;
* ``codepoint``: ``"U+20AC"``, or several separated by spaces (``"U+002E U+002F"``).

Text and code point queries can also find the *other spellings* of the same text
(``spellings=True``): every overlong form (2/3/4 bytes for ASCII, 3/4 for two-byte
characters, 4 for three-byte characters), CESU-8 (a supplementary character as two
encoded surrogates) and Modified UTF-8 (``C0 80`` for NUL, plus CESU-8 pairs). That is
how an overlong ``"../"`` (``C0 AE C0 AE C0 AF``) slips past a filter that looks for
``2E 2E 2F``. Each character gets an alternation of its spellings in one compiled
``re`` bytes pattern, so every combination is found without listing combinations.

Matches are every offset where the pattern matches (overlapping matches included), so
the set is the same whichever direction or chunk size is used. A literal pattern is
searched with ``bytes.find`` / ``bytes.rfind`` on large chunks; a pattern with
wildcards or alternations with a compiled ``re`` bytes pattern. Chunks overlap by the
longest match minus one byte and a match is reported by the chunk it starts in, so a
match across a chunk boundary is found exactly once.

:func:`find_steps` is a plain generator that yields :class:`Progress` and
:class:`Match` objects; stopping the iteration (``close()`` or just dropping it) cancels
the search. :func:`find_next`, :func:`find_previous` and :func:`find_all` are built on it.
"""

from __future__ import annotations

import re
from typing import Iterator

from inspector.core.units import spelling
from inspector.core.units.unicode_db import MAX_CODE_POINT

HEX = "hex"
TEXT = "text"
CODEPOINT = "codepoint"
QUERY_KINDS = (HEX, TEXT, CODEPOINT)

# What a match of a text or code point query is spelled as.
SPELLING_UTF8 = "utf-8"
SPELLING_OVERLONG = "overlong"
SPELLING_CESU8 = "cesu-8"
SPELLING_MUTF8 = "mutf-8"
# Several non-standard spellings in one match (say an overlong "." next to a CESU-8 pair).
SPELLING_MIXED = "mixed"
SPELLINGS = (SPELLING_UTF8, SPELLING_OVERLONG, SPELLING_CESU8, SPELLING_MUTF8, SPELLING_MIXED)

DEFAULT_CHUNK = 16 << 20
# Minimum bytes per chunk: the overlap must stay small next to what each chunk searches.
_MIN_CHUNK = 4096


def spellings_of(cp: int) -> dict[bytes, str]:
    """Every spelling of one code point that the search knows, mapped to its name.

    The standard form is ``utf-8``; the longer forms up to 4 bytes are ``overlong``;
    a supplementary character also has its ``cesu-8`` surrogate pair; NUL's ``C0 80``
    is ``mutf-8`` (it is also the 2-byte overlong form, but Modified UTF-8 is why anyone
    writes it). A surrogate code point is written as its 3-byte (WTF-8) form.
    """
    if cp > MAX_CODE_POINT:
        raise ValueError(f"U+{cp:X} is beyond U+10FFFF")
    n = spelling.shortest_length(cp)
    out = {spelling.encode(cp): SPELLING_UTF8}
    for length in range(n + 1, 5):
        out[spelling.encode(cp, length)] = SPELLING_OVERLONG
    if cp == 0:
        out[spelling.encode_mutf8(cp)] = SPELLING_MUTF8
    if cp >= 0x10000:
        out[spelling.encode_cesu8(cp)] = SPELLING_CESU8
    return out


def combine_spellings(per_char: tuple[str, ...]) -> str:
    """The spelling of a whole match from the spelling of each of its characters."""
    odd = set(per_char) - {SPELLING_UTF8}
    if not odd:
        return SPELLING_UTF8
    if odd == {SPELLING_OVERLONG}:
        return SPELLING_OVERLONG
    if odd == {SPELLING_CESU8}:
        return SPELLING_CESU8
    if odd <= {SPELLING_CESU8, SPELLING_MUTF8}:
        return SPELLING_MUTF8  # Modified UTF-8 writes supplementary characters as CESU-8
    return SPELLING_MIXED


class Match:
    """One place the pattern matches: ``offset``, ``length``, and for text and code point
    queries the ``spelling`` (one of :data:`SPELLINGS`) and ``char_spellings`` (one per
    character). Hex queries have no text, so both are None."""

    __slots__ = ("offset", "length", "spelling", "char_spellings")

    def __init__(self, offset: int, length: int, spelling: str | None = None,
                 char_spellings: tuple[str, ...] | None = None):
        self.offset = offset
        self.length = length
        self.spelling = spelling
        self.char_spellings = char_spellings

    @property
    def end(self) -> int:
        return self.offset + self.length

    def _key(self):
        return (self.offset, self.length, self.spelling, self.char_spellings)

    def __eq__(self, other):
        return isinstance(other, Match) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Match(offset={self.offset}, length={self.length}, spelling={self.spelling!r})"

    def to_dict(self) -> dict:
        return {"offset": self.offset, "length": self.length, "spelling": self.spelling}


class Progress:
    """``done`` of ``total`` bytes searched (both counted from the searched range)."""

    __slots__ = ("done", "total")

    def __init__(self, done: int, total: int):
        self.done = done
        self.total = total

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else self.done / self.total

    def __repr__(self):
        return f"Progress({self.done}/{self.total})"


class Pattern:
    """A parsed query. ``literal`` is set when plain ``bytes.find`` can search it;
    ``regex`` always matches the same thing. ``max_length`` is the longest possible
    match (the chunk overlap), ``min_length`` the shortest."""

    def __init__(self, kind: str, query: str, regex: re.Pattern, literal: bytes | None,
                 min_length: int, max_length: int, codepoints: tuple[int, ...] | None = None,
                 spellings: bool = False, alignment: int = 1):
        self.kind = kind
        # Matches count only where a unit can start: every ``alignment`` bytes from the
        # file's start (UTF-16 text found at an odd offset is two halves of characters).
        self.alignment = alignment
        self.query = query
        self.regex = regex
        self.literal = literal
        self.min_length = min_length
        self.max_length = max_length
        self.codepoints = codepoints
        self.spellings = spellings
        # Per character: spelling bytes -> spelling name (used to name each match).
        self._char_spellings = ([spellings_of(cp) for cp in codepoints]
                                if codepoints is not None else None)

    @property
    def has_text(self) -> bool:
        return self.codepoints is not None

    def describe(self) -> str:
        what = {HEX: "bytes", TEXT: "text", CODEPOINT: "code points"}[self.kind]
        extra = " (all spellings)" if self.spellings else ""
        return f"{what} {self.query!r}{extra}"

    def name_match(self, data: bytes | memoryview, start: int, length: int, base: int = 0) -> Match:
        """A :class:`Match` for ``data[start:start+length]`` (``data[0]`` being at offset
        ``base``), its spelling worked out."""
        if self._char_spellings is None:
            return Match(base + start, length)
        if not self.spellings:
            return Match(base + start, length, SPELLING_UTF8,
                         (SPELLING_UTF8,) * len(self._char_spellings))
        names = []
        raw = bytes(data[start:start + length])
        pos = 0
        for table in self._char_spellings:
            for spelled, name in table.items():
                if raw.startswith(spelled, pos):
                    names.append(name)
                    pos += len(spelled)
                    break
            else:  # pragma: no cover - the regex only matches listed spellings
                raise AssertionError("match does not follow the pattern")
        per_char = tuple(names)
        return Match(base + start, length, combine_spellings(per_char), per_char)

    def __repr__(self):
        return f"Pattern({self.describe()})"


# ------------------------------------------------------------------------------ parsing

_HEX_SPLIT = re.compile(r"[\s,;:]+")
_HEX_PAIR = re.compile(r"[0-9A-Fa-f]{2}|\?\?")


def parse_hex(query: str) -> list[int | None]:
    """Bytes written in hex, ``None`` for each ``??`` wildcard. Separators (spaces,
    commas, colons) are optional; a ``0x`` or ``\\x`` before a byte is allowed."""
    out: list[int | None] = []
    tokens = [t for t in _HEX_SPLIT.split(query.strip()) if t]
    if not tokens:
        raise ValueError("empty hex query: type bytes such as E2 82 AC")
    for token in tokens:
        # A 0x or \x before each byte is allowed ("0xE2,0x82", "\xe2\x82").
        body = re.sub(r"0x|\\x", "", token, flags=re.IGNORECASE)
        if not body:
            raise ValueError(f"{token!r} has no hex digits")
        if len(body) % 2:
            raise ValueError(f"{token!r} has an odd number of hex digits: write each byte "
                             "as two digits (0A, not A)")
        for k in range(0, len(body), 2):
            pair = body[k:k + 2]
            if not _HEX_PAIR.fullmatch(pair):
                raise ValueError(f"{pair!r} in {token!r} is not a hex byte or the ?? wildcard")
            out.append(None if pair == "??" else int(pair, 16))
    if all(b is None for b in out):
        raise ValueError("a hex query needs at least one byte that is not ??")
    return out


_CODEPOINT_TOKEN = re.compile(r"(?:U\+|0x|\\u|\\U)?([0-9A-Fa-f]{1,8})", re.IGNORECASE)


def parse_codepoints(query: str) -> tuple[int, ...]:
    """``"U+20AC"``, ``"U+2E U+2F"``, ``"20AC"`` -> code points. Surrogates are allowed (a
    lone surrogate is found in its 3-byte WTF-8 form); above U+10FFFF is refused."""
    tokens = [t for t in re.split(r"[\s,;]+", query.strip()) if t]
    if not tokens:
        raise ValueError("empty code point query: type one such as U+20AC")
    out = []
    for token in tokens:
        m = _CODEPOINT_TOKEN.fullmatch(token)
        if not m:
            raise ValueError(f"{token!r} is not a code point; write it as U+20AC")
        cp = int(m.group(1), 16)
        if cp > MAX_CODE_POINT:
            raise ValueError(f"{token!r} is beyond U+10FFFF, the last code point")
        out.append(cp)
    return tuple(out)


def _codepoint_pattern(kind: str, query: str, cps: tuple[int, ...], spellings: bool) -> Pattern:
    if not cps:
        raise ValueError("empty text query")
    if not spellings:
        literal = b"".join(spelling.encode(cp) for cp in cps)
        regex = re.compile(re.escape(literal), re.DOTALL)
        return Pattern(kind, query, regex, literal, len(literal), len(literal), cps, False)
    parts = []
    min_len = max_len = 0
    for cp in cps:
        # Longest alternative first is not needed: the spellings of one character start
        # with different bytes or differ before either ends, so at most one matches.
        alternatives = list(spellings_of(cp))
        parts.append(b"(?:" + b"|".join(re.escape(a) for a in alternatives) + b")")
        min_len += min(map(len, alternatives))
        max_len += max(map(len, alternatives))
    regex = re.compile(b"".join(parts), re.DOTALL)
    return Pattern(kind, query, regex, None, min_len, max_len, cps, True)


def encoded_pattern(kind: str, query: str, cps: tuple[int, ...], reading) -> Pattern:
    """Text or code points as the bytes another encoding than UTF-8 writes them in
    (``reading``: an interpretation; the encoding map's reading: each of its encodings,
    any of them matching). ValueError when none of them can write it."""
    readings = getattr(reading, "encodings", None) or [reading]
    alternatives = []
    for r in readings:
        try:
            alternatives.append(b"".join(r.encode(cp) for cp in cps))
        except ValueError:
            continue
    alternatives = list(dict.fromkeys(a for a in alternatives if a))
    if not alternatives:
        raise ValueError(f"{reading.title} cannot write {query!r}")
    regex = re.compile(b"|".join(re.escape(a) for a in alternatives), re.DOTALL)
    literal = alternatives[0] if len(alternatives) == 1 else None
    return Pattern(kind, query, regex, literal, min(map(len, alternatives)),
                   max(map(len, alternatives)),
                   alignment=readings[0].alignment if len(readings) == 1 else 1)


def parse_query(query: str, kind: str = TEXT, spellings: bool = False,
                reading=None) -> Pattern:
    """Parse what a person typed into a :class:`Pattern`; ValueError says what is wrong.

    ``spellings`` applies to text and code point queries (hex bytes have no text).
    ``reading``: the interpretation the file is read in; in another encoding than
    UTF-8, text and code points are searched as that encoding writes them.
    """
    if reading is not None and not reading.is_utf8 and kind in (TEXT, CODEPOINT):
        if query == "":
            raise ValueError("empty text query")
        cps = tuple(ord(c) for c in query) if kind == TEXT else parse_codepoints(query)
        return encoded_pattern(kind, query, cps, reading)
    if kind == HEX:
        values = parse_hex(query)
        if None not in values:
            literal = bytes(values)
            return Pattern(HEX, query, re.compile(re.escape(literal), re.DOTALL), literal,
                           len(literal), len(literal))
        regex = re.compile(b"".join(b"." if v is None else re.escape(bytes([v])) for v in values),
                           re.DOTALL)
        return Pattern(HEX, query, regex, None, len(values), len(values))
    if kind == TEXT:
        if query == "":
            raise ValueError("empty text query")
        try:
            query.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("the text holds a lone surrogate; search for it as a code "
                             "point (U+D800) instead") from None
        return _codepoint_pattern(TEXT, query, tuple(ord(c) for c in query), spellings)
    if kind == CODEPOINT:
        return _codepoint_pattern(CODEPOINT, query, parse_codepoints(query), spellings)
    raise ValueError(f"unknown query kind {kind!r}; choose one of {', '.join(QUERY_KINDS)}")


def bytes_pattern(data: bytes) -> Pattern:
    """A pattern for exact bytes (for callers that already hold them)."""
    if not data:
        raise ValueError("empty byte pattern")
    literal = bytes(data)
    return Pattern(HEX, literal.hex(" "), re.compile(re.escape(literal), re.DOTALL), literal,
                   len(literal), len(literal))


# ------------------------------------------------------------------------------ finding

def read_chunk(source, offset: int, length: int) -> bytes:
    """Up to ``length`` bytes at ``offset``, large reads bypassing the source's block
    cache (a whole-file pass would only evict what the views keep there)."""
    if length > (1 << 18):
        data = source.read_uncached(offset, length)
        # read_uncached does not clip to the size the source was opened with.
        return data[:max(0, source.size - offset)]
    return source.read(offset, length)


def _starts_in_forward(pattern: Pattern, data: bytes, limit: int) -> Iterator[tuple[int, int]]:
    """(start, length) of every match starting before ``limit`` in ``data``, in order."""
    literal = pattern.literal
    if literal is not None:
        n = len(literal)
        find = data.find
        i = find(literal, 0, limit + n - 1)
        while i >= 0:
            yield i, n
            i = find(literal, i + 1, limit + n - 1)
        return
    search = pattern.regex.search
    i = 0
    while i < limit:
        m = search(data, i)
        if m is None or m.start() >= limit:
            return
        yield m.start(), m.end() - m.start()
        i = m.start() + 1


def _starts_in_backward(pattern: Pattern, data: bytes, limit: int) -> Iterator[tuple[int, int]]:
    """(start, length) of every match starting before ``limit``, from the last one back."""
    literal = pattern.literal
    if literal is not None:
        n = len(literal)
        rfind = data.rfind
        i = rfind(literal, 0, limit + n - 1)
        while i >= 0:
            yield i, n
            if i == 0:
                return
            i = rfind(literal, 0, i + n - 1)
        return
    # A regex cannot run backwards: collect this chunk's starts, then hand them out in
    # reverse. A chunk is bounded, so this is bounded too.
    found = list(_starts_in_forward(pattern, data, limit))
    yield from reversed(found)


def find_steps(source, pattern: Pattern, start: int = 0, end: int | None = None,
               backwards: bool = False, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[Progress | Match]:
    """Search ``source`` for ``pattern`` in [start, end): yields a :class:`Match` for each
    match that lies wholly inside the range (in offset order, or reverse order when
    ``backwards``) and a :class:`Progress` after each chunk. Stop iterating to cancel.
    """
    size = source.size
    end = size if end is None else max(0, min(end, size))
    start = max(0, min(start, end))
    total = end - start
    chunk_size = max(chunk_size, _MIN_CHUNK, pattern.max_length * 4)
    overlap = pattern.max_length - 1
    if total < pattern.min_length:
        yield Progress(total, total)
        return
    if not backwards:
        pos = start
        while pos < end:
            span = min(chunk_size, end - pos)
            data = read_chunk(source, pos, min(span + overlap, end - pos))
            if not data:
                break  # the source turned out shorter: nothing more to search
            for i, length in _starts_in_forward(pattern, data, span):
                if i + length <= len(data) and (pos + i) % pattern.alignment == 0:
                    yield pattern.name_match(data, i, length, pos)
            pos += span
            yield Progress(pos - start, total)
        return
    pos = end
    while pos > start:
        span = min(chunk_size, pos - start)
        lo = pos - span
        data = read_chunk(source, lo, min(span + overlap, end - lo))
        for i, length in _starts_in_backward(pattern, data, span):
            if i + length <= len(data) and (lo + i) % pattern.alignment == 0:
                yield pattern.name_match(data, i, length, lo)
        pos = lo
        yield Progress(end - pos, total)


def _matches(steps) -> Iterator[Match]:
    for item in steps:
        if isinstance(item, Match):
            yield item


def find_next(source, pattern: Pattern, offset: int, wrap: bool = False,
              chunk_size: int = DEFAULT_CHUNK) -> Match | None:
    """The first match starting at or after ``offset`` (pass the cursor + 1 to step past
    a match under the cursor). With ``wrap``, continue from the start of the file."""
    steps = find_steps(source, pattern, offset, None, False, chunk_size)
    try:
        for m in _matches(steps):
            return m
    finally:
        steps.close()
    if wrap and offset > 0:
        # Matches that start before ``offset`` may end after it.
        steps = find_steps(source, pattern, 0, min(source.size, offset + pattern.max_length - 1),
                           False, chunk_size)
        try:
            for m in _matches(steps):
                if m.offset < offset:
                    return m
                break
        finally:
            steps.close()
    return None


def find_previous(source, pattern: Pattern, offset: int, wrap: bool = False,
                  chunk_size: int = DEFAULT_CHUNK) -> Match | None:
    """The last match starting before ``offset``. With ``wrap``, continue from the end."""
    steps = find_steps(source, pattern, 0, min(source.size, offset + pattern.max_length - 1),
                       True, chunk_size)
    try:
        for m in _matches(steps):
            if m.offset < offset:
                return m
    finally:
        steps.close()
    if wrap:
        steps = find_steps(source, pattern, max(0, offset), None, True, chunk_size)
        try:
            for m in _matches(steps):
                return m
        finally:
            steps.close()
    return None


def find_all(source, pattern: Pattern, start: int = 0, end: int | None = None,
             limit: int | None = 10000, chunk_size: int = DEFAULT_CHUNK) -> tuple[list[Match], bool]:
    """Every match in [start, end) in order, at most ``limit`` of them. Returns the
    matches and whether the limit cut the list short."""
    out: list[Match] = []
    steps = find_steps(source, pattern, start, end, False, chunk_size)
    try:
        for m in _matches(steps):
            if limit is not None and len(out) >= limit:
                return out, True
            out.append(m)
    finally:
        steps.close()
    return out, False
