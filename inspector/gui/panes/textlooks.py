"""The looks of units in the text pane, without Qt: how each unit is drawn (its mode,
text and width, from a :class:`Metrics`), what it puts into its line's shaped string,
and :class:`Looks`, the table of them a paragraph's units index (one row per distinct
code point, problem size or CR LF), and :class:`Cell`, one unit as placed on its line.

And how the units wrap into visual lines: the paragraphs cut together (the layout cuts
the short paragraphs of a window, or of a page, in one cut) share one :class:`Batch`,
their units' looks, widths, the running sum of widths and where the spaces and tabs
are, worked out in one pass of numpy calls for the whole cut; :func:`wrap` then lays a
paragraph out when first asked for, with a Python step per line (and per tab) on plain
lists and its units' places set with a few numpy calls: no numpy call per line, none
per unit.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Protocol

import numpy as np

from inspector.core.scan.kernels.codes import C_VALID
from inspector.core.scan.pagecut import ASCII_WARNINGS
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units import unicode_db
from inspector.core.units.unicode_db import combining_of_char, east_asian_width_of_char

LF, CR, TAB, SPACE = 0x0A, 0x0D, 0x09, 0x20
TAB_COLUMNS = 8

# How a cell is drawn.
TEXT = "text"                # the character itself, in the main font
PICTURE = "picture"          # a control picture or whitespace mark (␀ → ␣ ␍), muted
BOX = "box"                  # a small label in a box: invisibles, C1 controls, U+XXXX
REPLACEMENT = "replacement"  # a problem: as many U+FFFD as its replacements, flagged
BLANK = "blank"              # takes width (tab, space) or none (hidden CR) but draws nothing
LINE_END = "line_end"        # the line feed ending a paragraph: ↵ when whitespace is shown

RETURN_MARK = "\u21B5"       # ↵
TAB_MARK = "\u2192"          # →
CR_PICTURE = "\u240D"        # ␍
REPLACEMENT_CHAR = "\uFFFD"
PLACEHOLDER = "x"            # a box's or a problem's width in a line's shaped string

# C0 controls and DEL are boxed with their short names: the Control Pictures glyphs of
# common monospace fonts are too small to read at text size.
CONTROL_ABBREVIATIONS = dict(enumerate((
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF",
    "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
    "SUB", "ESC", "FS", "GS", "RS", "US")))
CONTROL_ABBREVIATIONS[0x7F] = "DEL"


class Metrics(Protocol):
    """Widths in whatever unit the caller lays out in (columns, pixels)."""

    def text_width(self, text: str) -> float: ...
    def box_width(self, label: str) -> float: ...
    def mark_width(self, mark: str) -> float: ...
    def to_grid(self, width: float) -> float: ...
    def can_draw(self, cp: int) -> bool: ...


@lru_cache(maxsize=8192)
def runs_safely(ch: str) -> bool:
    """Characters whose drawn advance in a line's shaped string is their width on its
    own: left-to-right scripts drawn one glyph per character (Latin, Greek, Cyrillic,
    and the CJK ideographs, kana and Hangul syllables), no combining marks, no
    right-to-left reordering, no shaping between neighbours. Lines with others are
    measured by the painter (see Paragraph.set_positions)."""
    cp = ord(ch)
    if cp < 0x0590:
        return not (0x0300 <= cp < 0x0370) and not combining_of_char(ch)
    return (0x2000 <= cp < 0x2BFF and not (0x200B <= cp < 0x2070) or 0x3000 <= cp < 0x3100
            or 0x3400 <= cp < 0x4DC0 or 0x4E00 <= cp < 0xA000 or 0xAC00 <= cp < 0xD7A4
            or 0xFF01 <= cp < 0xFF61)


def column_width(ch: str) -> int:
    """Monospace columns of one character: 2 for wide/full-width, 0 for combining."""
    if combining_of_char(ch):
        return 0
    return 2 if east_asian_width_of_char(ch) in ("W", "F") else 1


class ColumnMetrics:
    """One column per ordinary character, two per wide one; a box is its label plus one
    column; a problem's mark takes no room. What the tests lay out in."""

    def text_width(self, text: str) -> float:
        return sum(column_width(c) for c in text)

    def box_width(self, label: str) -> float:
        return len(label) + 1

    def mark_width(self, mark: str) -> float:
        return 0

    def to_grid(self, width: float) -> float:
        return width

    def can_draw(self, cp: int) -> bool:
        return True


MODES = (TEXT, PICTURE, BOX, REPLACEMENT, BLANK, LINE_END)
MODE_CODE = {m: i for i, m in enumerate(MODES)}
M_TEXT, M_PICTURE, M_BOX, M_REPLACEMENT, M_BLANK, M_LINE_END = range(len(MODES))
MODE_NAMES = np.array(MODES, dtype=object)
GLYPH_UNKNOWN, GLYPH_NONE = -2, -1     # Looks.glyph: not looked up yet; nothing to draw
# Display keys looked up by table (Looks.rows_of): problems (-1000 - replacements), the
# CR of a CR LF (-2) and the BMP.
KEY_LOW = -1100
KEY_TABLE = 0x10000 - KEY_LOW


class Looks:
    """The looks of units, one per display key (a code point, a problem's number of
    replacements, CR LF): what a unit shows, how, its width, what it puts into its
    line's shaped string (and that string's length in UTF-16 code units), and whether
    its drawn advance is its width. Kept as arrays, so a paragraph's units find theirs
    by one search (``rows_of``) and a painter picks fields by fancy indexing."""

    def __init__(self):
        self.count = 0
        self.width = np.zeros(256, dtype=np.float64)
        self.u16 = np.zeros(256, dtype=np.int64)
        self.safe = np.zeros(256, dtype=bool)
        self.strong_ltr = np.zeros(256, dtype=bool)
        self.rtl = np.zeros(256, dtype=bool)
        self.mode = np.zeros(256, dtype=np.int8)
        # A painter's glyph index of the unit's one character in its main font, filled
        # on first use (GLYPH_UNKNOWN until then; 0: not one glyph of the main font,
        # GLYPH_NONE: nothing drawn): lines of such units are drawn without shaping.
        self.glyph = np.full(256, GLYPH_UNKNOWN, dtype=np.int64)
        # The font of that glyph (an index into the painter's fonts, 0: the main one).
        self.font = np.zeros(256, dtype=np.int64)
        # Whether the unit's text starts with a combining mark (shaped with its base).
        self.mark = np.zeros(256, dtype=bool)
        # Whether it is a number to the bidi algorithm (a right-to-left letter before
        # it takes it into its run).
        self.number = np.zeros(256, dtype=bool)
        # Whether the unit it was made for has warnings (in the UTF-8 readings, a code
        # point's warnings are the same wherever it is: see Batch).
        self.warned = np.zeros(256, dtype=bool)
        self.text = np.empty(256, dtype=object)
        self.ltext = np.empty(256, dtype=object)
        # Each display key's row: keys from KEY_LOW below the BMP's end by a table
        # (-1: none yet), the others (astral code points, sequences) by a search.
        self._table = np.full(KEY_TABLE, -1, dtype=np.int32)
        self._keys = np.zeros(0, dtype=np.int64)    # the other display keys, sorted
        self._rows = np.zeros(0, dtype=np.int64)    # their rows

    def add(self, text: str, mode: str, width: float, ltext: str, safe: bool,
            warned: bool = False) -> int:
        r = self.count
        if r == len(self.width):
            for name in ("width", "u16", "safe", "strong_ltr", "rtl", "mode", "glyph", "font",
                         "mark", "number", "text", "ltext", "warned"):
                old = getattr(self, name)
                new = np.zeros(2 * len(old), dtype=old.dtype) if old.dtype != object else \
                    np.empty(2 * len(old), dtype=object)
                if name == "glyph":
                    new[:] = GLYPH_UNKNOWN
                new[:len(old)] = old
                setattr(self, name, new)
        self.width[r] = width
        self.u16[r] = len(ltext.encode("utf-16-le")) // 2
        self.safe[r] = safe
        # A strong left-to-right character ends what a right-to-left run before it can
        # reorder (digits and neutrals after one are carried along).
        bidi = unicode_db.bidirectional_of_char(ltext[0]) if ltext else ""
        self.strong_ltr[r] = bidi == "L"
        self.number[r] = any(unicode_db.bidirectional_of_char(c) in ("EN", "AN") for c in ltext)
        self.rtl[r] = any(unicode_db.bidirectional_of_char(c) in ("R", "AL", "AN")
                          for c in ltext)
        self.mark[r] = bool(ltext) and unicode_db.category(ord(ltext[0])).startswith("M")
        self.mode[r] = MODE_CODE[mode]
        self.warned[r] = warned
        self.text[r] = text
        self.ltext[r] = ltext
        self.count += 1
        return r

    def rows_of(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, missing): each key's row, and where a key has none yet."""
        at = keys - KEY_LOW
        inside = (at >= 0) & (at < KEY_TABLE)
        if inside.all():
            rows = self._table[at].astype(np.int64)
        else:
            rows = np.full(len(keys), -1, dtype=np.int64)
            rows[inside] = self._table[at[inside]]
            outside = keys[~inside]
            if len(self._keys):
                where = np.minimum(np.searchsorted(self._keys, outside), len(self._keys) - 1)
                rows[~inside] = np.where(self._keys[where] == outside, self._rows[where], -1)
        missing = rows < 0
        rows[missing] = 0
        return rows, missing

    def know(self, keys: list, rows: list) -> None:
        keys = np.array(keys, dtype=np.int64)
        rows = np.array(rows, dtype=np.int64)
        at = keys - KEY_LOW
        inside = (at >= 0) & (at < KEY_TABLE)
        self._table[at[inside]] = rows[inside]
        if not inside.all():
            keys = np.concatenate((self._keys, keys[~inside]))
            rows = np.concatenate((self._rows, rows[~inside]))
            order = np.argsort(keys, kind="stable")
            self._keys, self._rows = keys[order], rows[order]


class Cell:
    """One unit on screen: where it starts on its line, how wide it is, what to draw."""

    __slots__ = ("unit", "x", "width", "text", "mode")

    def __init__(self, unit: decoder.Unit, x: float, width: float, text: str, mode: str):
        self.unit = unit
        self.x = x
        self.width = width
        self.text = text
        self.mode = mode

    @property
    def offset(self) -> int:
        return self.unit.offset

    @property
    def end(self) -> int:
        return self.unit.end

    @property
    def right(self) -> float:
        return self.x + self.width

    def __repr__(self):
        return f"Cell({self.unit.offset}, x={self.x}, w={self.width}, {self.text!r}, {self.mode})"


def several_point_keys(keys, vals, more, valid):
    """Display keys of the units of several code points: one per distinct sequence,
    above every code point (its look shows the whole sequence)."""
    keys = keys.copy()
    several = np.fromiter(map(bool, more.tolist()), dtype=bool, count=len(more)) & valid
    for i in np.flatnonzero(several).tolist():
        keys[i] = (1 << 42) + (hash((int(vals[i]), *more[i])) & ((1 << 40) - 1))
    return keys


def display(unit: decoder.Unit, key, m: Metrics, ws: bool, glyph) -> tuple[str, str, float]:
    """What ``unit`` shows (text, mode, width) with metrics ``m``, whitespace shown or
    not (``ws``), ``glyph`` deciding substitutes (style.glyph_for); ``key`` is its
    display key (("CRLF",) for the CR of a CR LF)."""
    if unit.kind != K.VALID:
        n = max(unit.replacements, 1)
        text = REPLACEMENT_CHAR * n
        return text, REPLACEMENT, m.to_grid(m.text_width(text) + m.mark_width("X"))
    cp = unit.value
    if unit.more and cp <= 0x10FFFF:
        text = unit.text   # a letter and its combining mark (Big5-HKSCS, JIS X 0213)
        return text, TEXT, m.text_width(text)
    if cp is None or cp > 0x10FFFF:
        label = "?" if cp is None else f"U+{cp:X}"
        return label, BOX, m.box_width(label)
    if cp == LF:
        return (RETURN_MARK, LINE_END, m.text_width(RETURN_MARK)) if ws else ("", LINE_END, 0)
    if key == ("CRLF",):
        # CR LF is one line break: its CR shows only with visible whitespace.
        return (CR_PICTURE, PICTURE, m.text_width(CR_PICTURE)) if ws else ("", BLANK, 0)
    if cp == TAB:
        return (TAB_MARK if ws else "", PICTURE if ws else BLANK, -1)
    if cp == SPACE:
        return ("\u2423", PICTURE, m.text_width("\u2423")) if ws else (" ", TEXT, m.text_width(" "))
    text, kind = glyph(unit, ws)
    if cp in CONTROL_ABBREVIATIONS and cp != CR:  # a lone CR keeps its picture ␍
        label = CONTROL_ABBREVIATIONS[cp]
        return label, BOX, m.box_width(label)
    if kind == "control_picture":
        if len(text) == 1 and m.can_draw(ord(text)):
            return text, PICTURE, m.text_width(text)
        return text, BOX, m.box_width(text)
    if kind == "invisible":
        if not ws and not unit.warnings and unicode_db.category(cp) == "Zs":
            # A no-break or typographic space reads as a space unless asked to show it.
            return chr(cp), TEXT, m.text_width(chr(cp))
        return text, BOX, m.box_width(text)
    if kind in ("codepoint", "undefined"):
        label = text if text.startswith("U+") else f"U+{cp:04X}"
        return label, BOX, m.box_width(label)
    if not m.can_draw(cp):
        label = f"U+{cp:04X}"
        return label, BOX, m.box_width(label)
    return text, TEXT, m.text_width(text)


def layout_text(text: str, mode: str, width: float, metrics: Metrics) -> tuple[str, bool]:
    """What a unit puts into its line's one shaped string, and whether the metrics'
    width is what that string gives it. Boxes, problems and blanks are letters of
    the main font, as many as their width holds (whole characters: to_grid), drawn
    transparent (see textplan) and drawn over: a letter, unlike a space, is strong
    left-to-right Latin, so neither a right-to-left run nor another script's font
    takes it over."""
    space = metrics.text_width(" ")
    if mode in (TEXT, PICTURE, LINE_END) and text:
        return text, len(text) == 1 and runs_safely(text)
    if width < 0:            # a tab: its width depends on where it lands
        return "\t", True
    n = round(width / space) if space > 0 else 0
    return PLACEHOLDER * n, abs(n * space - width) < 0.01


# ------------------------------------------------------------------------- wrapping

@lru_cache(maxsize=None)
def _ascii_warned(dialect: str) -> np.ndarray:
    """Whether each ASCII byte has warnings in a UTF-8 reading (as the page cut gives
    them)."""
    return np.array([bool(w) for w in ASCII_WARNINGS[dialect]], dtype=bool)


class Batch:
    """The arrays of one cut for the paragraphs cut with it (indexes into the cut):
    ``rows`` into the layout's looks, ``widths`` (a tab's set when its paragraph is
    wrapped), ``xs`` (set as each paragraph is wrapped), and as lists for the wrap's
    Python steps: ``sums`` (``sums[k]``: the widths of units before k, tabs counted as
    0), the spaces and tabs; the units' first bytes and ends are read one a line."""

    __slots__ = ("rows", "widths", "xs", "sums", "sums_array", "starts", "ends", "spaces",
                 "tabs", "line_end", "crlf", "offs", "lens", "kinds", "reps",
                 "warned")

    def __init__(self, layout, cut, stops: list[int]):
        n = len(cut)
        vals = cut.value
        valid = cut.kind == C_VALID
        keys = np.where(valid, vals, -1000 - cut.replacements)
        if cut.more is not None:
            keys = several_point_keys(keys, vals, cut.more, valid)
        # The CR of a CR LF within one paragraph shows as one line break with its LF.
        crlf = np.zeros(n, dtype=bool)
        crlf[:-1] = valid[:-1] & (vals[:-1] == CR) & valid[1:] & (vals[1:] == LF)
        if stops:
            last = np.array(stops, dtype=np.int64) - 1
            crlf[last[last >= 0]] = False
        keys[crlf] = -2
        self.crlf = crlf
        self.rows = rows = layout.rows_for(keys, cut)
        looks = layout.looks
        self.widths = widths = looks.width[rows]
        tabs = widths < 0
        self.sums_array = sums = np.zeros(n + 1, dtype=np.float64)
        np.cumsum(np.where(tabs, 0.0, widths), out=sums[1:])
        self.sums = sums.tolist()
        self.xs = np.zeros(n, dtype=np.float64)
        self.starts = cut.offset
        self.ends = cut.offset + cut.length
        self.spaces = np.flatnonzero(valid & ((vals == SPACE) | (vals == TAB))).tolist()
        self.tabs = np.flatnonzero(tabs).tolist()
        self.line_end = looks.mode[rows] == M_LINE_END
        # The cut's own arrays, under the names a paragraph gives its part of them.
        self.offs, self.lens, self.kinds = cut.offset, cut.length, cut.kind
        self.reps = cut.replacements
        dialect = layout.document.dialect
        if dialect in K.DIALECTS:
            # A UTF-8 reading's warnings belong to the code point (the looks keep them),
            # an ASCII byte's to the byte (the reading's table), and only an ASCII value
            # in a longer form (Modified UTF-8's C0 80) is asked.
            warned = looks.warned[rows] & valid
            low = np.flatnonzero(valid & (vals < 0x80))
            if len(low):
                warned[low] = _ascii_warned(dialect)[vals[low]]
                odd = low[cut.length[low] > 1]
                if len(odd):
                    warned[odd] = [bool(w) for w in cut.warnings[odd].tolist()]
            self.warned = warned
        else:
            self.warned = cut.warnings.astype(bool)

    wrap_xs = property(lambda self: self.xs)
    wrap_widths = property(lambda self: self.widths)

    def set_tab(self, k: int, width: float) -> None:
        self.widths[k] = width


def wrap(layout, par) -> None:
    """Lay out paragraph ``par`` (of batch ``par.batch``, from its index ``par.base``)
    at the layout's width: its spans (first unit, last unit, first byte, end, width per
    visual line), the units' xs and widths. A line that cannot hold its next unit breaks
    after its last space (word wrap) or before that unit; the line feed ending a
    paragraph (and the CR of its CR LF) never wraps away; a unit wider than a line
    stays on it; a tab reaches the next tab stop."""
    b = par.batch
    lo = par.base
    n = len(par)
    hi = lo + n
    S = b.sums
    starts, ends, widths = b.starts, b.ends, b.widths
    terminator = hi
    if b.line_end[hi - 1]:
        terminator = hi - 2 if n >= 2 and b.crlf[hi - 2] else hi - 1
    limit = layout.wrap_width if layout.wrap_width and layout.wrap_width > 0 else None
    word_wrap = layout.word_wrap
    spaces = b.spaces
    tabs = b.tabs
    tab_width = layout.tab_width

    segs: list[list] = []     # [first, last, base]: units first..last-1 at S[k] - base
    spans: list[tuple] = []

    def x_of(k: int) -> float:
        for seg in reversed(segs):
            if seg[0] <= k < seg[1]:
                return S[k] - seg[2]
        return 0.0

    def close_line(at: int, line_start: int) -> int:
        """End the line from ``line_start`` that cannot hold unit ``at`` (after its last
        space before ``at``, else right before it); the next line's first unit."""
        brk = at
        if word_wrap:
            k = bisect_left(spaces, at) - 1
            if k >= 0 and spaces[k] >= line_start:
                brk = spaces[k] + 1
        while segs and segs[-1][0] >= brk:     # units after brk go to the next line
            segs.pop()
        if segs and segs[-1][1] > brk:
            segs[-1][1] = brk
        last = brk - 1
        spans.append((line_start - lo, brk - lo, int(starts[line_start]), int(ends[last]),
                      x_of(last) + float(widths[last])))
        return brk

    ls = pos = lo         # the line's first unit; the first unit not yet placed
    x = 0.0               # where unit ``pos`` goes on the line
    ti = bisect_left(tabs, lo)
    while True:
        while ti < len(tabs) and tabs[ti] < pos:
            ti += 1
        t = tabs[ti] if ti < len(tabs) and tabs[ti] < hi else hi
        base = S[pos] - x     # unit k from pos on goes to S[k] - base
        i = hi
        if limit is not None and pos < hi:
            # The first unit whose right edge passes the limit.
            i = max(pos, bisect_right(S, limit + 1e-9 + base, pos + 1, hi + 1) - 1)
        if i < t and i < terminator:
            # Unit i does not fit: units pos..i-1 do.
            if i > pos:
                segs.append([pos, i, base])
            if i > ls:
                ls = pos = close_line(i, ls)
                x = 0.0
                continue
            # The line's first unit is wider than the line: it stays on it.
            segs.append([i, i + 1, base])
            x = S[i + 1] - base
            pos = i + 1
            continue
        # Everything up to the next tab fits (or may no longer break).
        if t > pos:
            segs.append([pos, t, base])
            x = S[t] - base
        if t >= hi:
            break
        w = tab_width(x)
        if limit is not None and x + w > limit + 1e-9 and ls < t < terminator:
            ls = pos = close_line(t, ls)
            x = 0.0
            continue
        segs.append([t, t + 1, S[t] - x])
        b.set_tab(t, w)
        x += w
        pos = t + 1
    spans.append((ls - lo, n, int(starts[ls]), int(ends[hi - 1]), float(x)))
    # The units' places: S[k] less their segment's base, for the paragraph at once.
    if segs:
        firsts = [s[0] for s in segs]
        counts = [s[1] - s[0] for s in segs]
        bases = np.repeat(np.array([s[2] for s in segs], dtype=np.float64),
                          np.array(counts, dtype=np.int64))
        a = firsts[0]
        b.xs[a:a + len(bases)] = b.sums_array[a:a + len(bases)] - bases
    par.wrap_xs = b.xs[lo:hi]
    par.wrap_widths = b.widths[lo:hi]
    par.looks = layout.looks
    par.rows = b.rows[lo:hi]
    par.spans = spans
