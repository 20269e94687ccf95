"""What to draw for the laid-out lines of the text pane, worked out once per line, and
the pane's measures (:class:`QtMetrics`: the Qt side of textlooks.Metrics, so that the
layout stays Qt-free and testable while the pane measures with its own fonts).

A :class:`LinePlan` is built from its paragraph's arrays (the page cut's units and the
layout's looks), with no Python step per unit: every unit stays on the place the wrap
measured, and a character that is one glyph of the main font or of the fallback font
chosen for its code point (:mod:`~inspector.gui.look.fallbackfonts`) goes to the painter as
a glyph index on that place (the painter draws the page's by font and colour). Only
what must be shaped (right-to-left runs, combining marks, emoji, joining scripts) is
shaped by Qt, as short segments between strong left-to-right characters, each one
small ``QTextLayout`` kept by content (font fallback, clusters and bidi in C++); the
units' places in a segment are read back from it and given to the paragraph, so that
the cursor, the selection and hit tests agree with the pixels, and the units after it
move by whole characters of what it grew or shrank. Boxes, problems, tabs and hidden
characters are letters of their width in a segment's string, drawn transparent; the
painter draws them over by runs (see textpainter).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (QFont, QFontMetricsF, QTextCharFormat, QTextLayout,
                           QTextLine, QTextOption)

from inspector.core.scan.kernels.codes import C_VALID, KIND_CODES
from inspector.core.units import kinds as K
from inspector.core.units import unicode_db
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.look.fallbackfonts import FallbackFonts

_BIG = 1e7
SHAPED_SEGMENTS = 4096   # shaped segments kept by content (many screens)

# Colour keys of a line's text, by code: the plan keeps codes, the painter's look has a
# colour per code (resolved at paint time, so a theme change needs no new plans).
TEXT_KEYS = ("text", style.MULTI2, style.MULTI3, style.MULTI4, style.MULTI_LONG, "warning",
             "muted")
_PLAIN, _WARNING, _MUTED, _HIDDEN = 0, 5, 6, 7     # _HIDDEN: placeholders, transparent
# Problem colours: a kind's code, and LOST for lost bytes (before the resync point).
LOST = len(KIND_CODES)
PROBLEM_KEYS = tuple(KIND_CODES) + ("lost",)
MARKS = np.array([K.KINDS[k].mark if k in K.KINDS else "" for k in KIND_CODES],
                  dtype=object)



PAD_X = 6.0                   # left and right margin inside the viewport
PAD_Y = 2.0


class QtMetrics:
    """Pixel widths for the layout, measured once per string with ``QFontMetricsF``."""

    def __init__(self, font: QFont, small_font: QFont):
        self.font = font
        self.small_font = small_font
        self.fm = QFontMetricsF(font)
        self.small = QFontMetricsF(small_font)
        self._widths: dict[str, float] = {}
        self.coverage = style.shared_coverage(font)  # one decision per code point, both panes
        # The font of each code point's glyph (the main one or a fallback), decided once.
        self.fallback = FallbackFonts(font)
        self.raw = self.fallback.main
        self.char_width = self.fm.horizontalAdvance("0")
        self.box_pad = max(2.0, round(self.small.horizontalAdvance("0") * 0.35))
        self._mark_width = math.ceil(self.small.horizontalAdvance("W")) + 1
        column = self.small.horizontalAdvance("0")
        printable = "".join(chr(c) for c in range(0x20, 0x7F))
        self._small_column = column if self.small.horizontalAdvance(printable) == \
            column * len(printable) else 0.0

    def text_width(self, text: str) -> float:
        w = self._widths.get(text)
        if w is None:
            w = self._widths[text] = self._measure_text(text)
        return w

    def _measure_text(self, text: str) -> float:
        """The advances of the glyphs chosen for ``text``'s characters (look.fallbackfonts), a
        fallback font's in whole characters of the main font, so that what follows
        stays on the character grid; combining marks and format characters take none,
        as when shaped. A character no font of the list draws alone counts a column
        (two when wide): Qt's own measure searches its fallback fonts, milliseconds for
        a script not met before, and such a character is shaped, what follows it moved
        by what it takes (make_plans)."""
        total = 0.0
        for ch in text:
            cp = ord(ch)
            if cp >= 0x20 and unicode_db.category(cp) in ("Mn", "Me", "Cf"):
                continue
            got = self.fallback.decide(cp)
            if got is None:
                total += self.to_grid(self.char_width * max(1, TL.column_width(ch)))
            else:
                total += got[2] if got[0] == 0 else self.to_grid(got[2]) if got[2] > 0 else 0.0
        return total

    def box_width(self, label: str) -> float:
        if label.isascii() and self._small_column:
            # A label of a monospace small font (the usual case: U+XXXX, control
            # names, one new label a code point) is measured by its length.
            wide = len(label) * self._small_column
        else:
            wide = self.small.horizontalAdvance(label)
        return self.to_grid(math.ceil(wide - 1e-9) + 2 * self.box_pad + 2)

    def mark_width(self, mark: str) -> float:
        return self._mark_width

    def to_grid(self, width: float) -> float:
        """``width`` rounded up to whole character widths: a box or a problem holds its
        place in its line's shaped string with whole letters of the main font (see
        textlooks.layout_text), so the characters after it stay where the wrap
        measured them."""
        space = self.text_width(" ")
        if space <= 0:
            return width
        return math.ceil(width / space - 1e-6) * space

    def can_draw(self, cp: int) -> bool:
        """Whether any font (after Qt's fallback) has a glyph: otherwise U+XXXX is shown
        instead of an empty box."""
        return 0x20 <= cp < 0x7F or self.coverage.can_draw(chr(cp))


def _option(tab: float) -> QTextOption:
    option = QTextOption()
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    if tab > 0:
        option.setTabStopDistance(tab)
    return option


class PagePlan:
    """The drawing of lines laid out together (made by :func:`make_plans`), as arrays
    for all of them: the units' ``offsets``, ``ends``, ``xs`` and ``rights`` (``bounds``:
    each line's first unit); the glyphs drawn as such (``g_glyph``, ``g_x``, ``g_code``,
    ``g_font``: index, x, colour code, font; ``g_line``: their line); the problems
    (``p_*``) and warning fills (``w_*``), each with its line; per line, its shaped
    ``segments`` (each (layout, x, ascent, width): the layout drawn with its left edge
    at x); the boxes (``b_*``: look row, x, width, warned, offset, line). ``lines``: a
    :class:`LinePlan` per line."""

    __slots__ = ("bounds", "offsets", "ends", "xs", "rights", "segments", "b_row", "b_x",
                 "b_w", "b_warned", "b_off", "b_line",
                 "g_glyph", "g_x", "g_code", "g_font", "g_line", "g_cut",
                 "p_x", "p_w", "p_n", "p_key", "p_off", "p_line", "p_cut",
                 "w_x", "w_w", "w_off", "w_line", "w_cut", "lines")


class LinePlan:
    """One line of a :class:`PagePlan`: the same fields, its own part of each array
    (the cursor, the selection and matches search them)."""

    __slots__ = ("page", "k")

    def __init__(self, page: PagePlan, k: int):
        self.page = page
        self.k = k

    @property
    def segments(self) -> list:
        return self.page.segments[self.k]


def _part(name: str, cut: str) -> property:
    def get(self):
        page = self.page
        bounds = getattr(page, cut)
        return getattr(page, name)[bounds[self.k]:bounds[self.k + 1]]
    return property(get)


for _name, _cut in (("offsets", "bounds"), ("ends", "bounds"), ("xs", "bounds"),
                    ("rights", "bounds"), ("g_glyph", "g_cut"), ("g_x", "g_cut"),
                    ("g_code", "g_cut"), ("g_font", "g_cut"), ("p_x", "p_cut"),
                    ("p_w", "p_cut"), ("p_n", "p_cut"), ("p_key", "p_cut"),
                    ("p_off", "p_cut"), ("w_x", "w_cut"), ("w_w", "w_cut"),
                    ("w_off", "w_cut")):
    setattr(LinePlan, _name, _part(_name, _cut))


def make_plans(layout: TL.TextLayout, lines: list, metrics: QtMetrics, lost_end, origin,
               formats: list) -> PagePlan:
    """The plans of ``lines`` (TL.Line), worked out together: the arrays of all their
    units are looked at in one pass of numpy calls for the page; what must be shaped
    costs one small layout per segment not seen before."""
    looks = layout.looks
    count = len(lines)
    pars = [ln.paragraph for ln in lines]
    firsts = [ln.first for ln in lines]
    lasts = [ln.last for ln in lines]

    # The units side by side in one batch's arrays (a paragraph's lines, paragraphs cut
    # together) are taken as one slice.
    runs: list = []
    for par, a, b in zip(pars, firsts, lasts):
        src = par.batch if par.repeated is None and par.batch is not None else par
        lo = a + (par.base if src is not par else 0)
        if runs and runs[-1][0] is src and runs[-1][2] == lo:
            runs[-1][2] = lo + b - a
        else:
            runs.append([src, lo, lo + b - a])

    def gather(field):
        if len(runs) == 1:
            src, lo, hi = runs[0]
            return getattr(src, field)[lo:hi].copy()
        return np.concatenate([getattr(src, field)[lo:hi] for src, lo, hi in runs])

    rows = gather("rows")
    offs = gather("offs")
    lens = gather("lens")
    kinds = gather("kinds")
    warned = gather("warned")
    reps = gather("reps")
    xs = gather("wrap_xs")
    widths = gather("wrap_widths")
    sizes = np.array(lasts, dtype=np.int64) - np.array(firsts, dtype=np.int64)
    bounds = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(sizes, out=bounds[1:])
    n = int(bounds[-1])
    line_of = np.repeat(np.arange(count), sizes)

    modes = looks.mode[rows]
    u16 = looks.u16[rows]
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(u16, out=starts[1:])

    # Colours of the text: a code per unit (glyph runs by colour; a segment's format
    # ranges). The letters that hold a box's or a problem's place in a segment are
    # drawn transparent.
    is_text = modes == TL.M_TEXT
    shown = is_text | (modes == TL.M_PICTURE) | (modes == TL.M_LINE_END)
    code = np.where(lens >= 5, 4, np.clip(lens, 1, 5) - 1)
    code = np.where(is_text & (kinds == C_VALID), code, _MUTED)
    code[warned] = _WARNING
    code[~shown] = _HIDDEN
    # Every unit is drawn on the place the wrap measured: as one glyph of the main font
    # or of the fallback font chosen for its code point (look.fallbackfonts), in glyph runs for
    # the page; units that must be shaped (right-to-left text, combining marks, emoji,
    # scripts whose letters join, characters no font of the list has) are shaped by Qt
    # in short segments (see _segments), each a small QTextLayout kept by content.
    font_of, glyph = _glyphs(looks, rows, metrics.fallback)
    shape = ~looks.safe[rows] | (glyph == 0)
    seg_s, seg_e = _segments(shape, looks.rtl[rows], looks.strong_ltr[rows], looks.mark[rows],
                             bounds, line_of)
    # A segment whose one unit to shape is one glyph of a font (a letter of a
    # right-to-left or joining script among letters of others: most of them in random
    # bytes) is that glyph, the form a letter takes on its own, when nothing around it
    # can be reordered with it (no number: neutrals between it and left-to-right text
    # stay where they are); not a combining mark (it needs its base) nor an emoji
    # (colour fonts are drawn by Qt's shaping).
    if len(seg_s):
        counted = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(shape, out=counted[1:])
        numbers = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(looks.number[rows], out=numbers[1:])
        one = (counted[seg_e] - counted[seg_s] == 1) & ((numbers[seg_e] == numbers[seg_s])
                                                        | (seg_e - seg_s == 1))
        lone = np.flatnonzero(one)
        if len(lone):
            # The one unit to shape: where the count of them goes up by one.
            at = np.searchsorted(counted, counted[seg_s[lone]] + 1, side="left") - 1
            ok = (glyph[at] > 0) & ~looks.mark[rows[at]]
            ok[ok] = np.array([ord(t) < 0x1F000 for t in looks.ltext[rows[at[ok]]].tolist()],
                              dtype=bool)
            keep = np.ones(len(seg_s), dtype=bool)
            keep[lone[ok]] = False
            seg_s, seg_e = seg_s[keep], seg_e[keep]
    rtl = looks.rtl[rows]
    option = _option(metrics.text_width(" ") * layout.tab_columns)
    font = metrics.font
    shaped = layout.shaped     # segment content -> (layout, ascent, lefts, rights, width)
    colors = tuple(f.foreground().color().rgba() for f in formats)   # the look
    segs: list = [[] for _ in range(count)]
    in_seg = np.zeros(n, dtype=bool)
    if len(seg_s):
        got_list = []
        for s_, e_ in zip(seg_s.tolist(), seg_e.tolist()):
            seg_codes = code[s_:e_]
            # By its units' looks (rows of this layout's looks, dropped with them).
            key = (rows[s_:e_].tobytes(), seg_codes.tobytes(), colors)
            got = shaped.get(key)
            if got is None:
                got = _shape("".join(looks.ltext[rows[s_:e_]].tolist()), seg_codes, starts[s_:e_ + 1] - starts[s_], widths[s_:e_],
                             ~shown[s_:e_], bool(rtl[s_:e_].any()), font, option, formats,
                             metrics)
                if len(shaped) >= SHAPED_SEGMENTS:
                    shaped.clear()
                shaped[key] = got
            got_list.append(got)
        _place_segments(got_list, seg_s, seg_e, line_of, bounds, xs, widths, in_seg, segs)
        # The paragraphs' places too, for hit tests (a paragraph's lines on the page
        # are one run of units).
        moved = np.zeros(count, dtype=bool)
        moved[line_of[seg_s]] = True
        b_list = bounds.tolist()
        k = 0
        while k < count:
            j = k + 1
            while j < count and pars[j] is pars[k]:
                j += 1
            if moved[k:j].any():
                a, b = b_list[k], b_list[j]
                pars[k].set_positions(firsts[k], xs[a:b], widths[a:b])
            k = j

    page = PagePlan()
    page.bounds = bounds.tolist()
    page.segments = segs
    page.offsets = offs
    page.ends = offs + lens
    page.xs = xs
    page.rights = xs + widths
    # The glyphs drawn as such, with their fonts and colour codes.
    gi = np.flatnonzero(~in_seg & (glyph > 0) & (code != _HIDDEN))
    page.g_cut = np.searchsorted(gi, bounds).tolist()
    page.g_glyph, page.g_x, page.g_code, page.g_font = glyph[gi], xs[gi], code[gi], font_of[gi]
    page.g_line = line_of[gi]
    # Problems: their U+FFFD count, colour (lost bytes apart) and place.
    pi = np.flatnonzero(modes == TL.M_REPLACEMENT)
    p_key = kinds[pi].astype(np.int64)
    if lost_end is not None and origin is not None:
        p_key = np.where((offs[pi] >= origin) & (offs[pi] < lost_end), LOST, p_key)
    page.p_cut = np.searchsorted(pi, bounds).tolist()
    page.p_x, page.p_w, page.p_n, page.p_off = xs[pi], widths[pi], np.maximum(reps[pi], 1), offs[pi]
    page.p_key, page.p_line = p_key, line_of[pi]
    # Warning fills (text and marks drawn with a warning).
    wi = np.flatnonzero(warned & (modes != TL.M_REPLACEMENT) & (modes != TL.M_BOX))
    page.w_cut = np.searchsorted(wi, bounds).tolist()
    page.w_x, page.w_w, page.w_off, page.w_line = xs[wi], widths[wi], offs[wi], line_of[wi]
    # Boxes: their looks, places and lines (the painter draws those of one look at once).
    bi = np.flatnonzero(modes == TL.M_BOX)
    page.b_row, page.b_x, page.b_w = rows[bi], xs[bi], widths[bi]
    page.b_warned, page.b_off, page.b_line = warned[bi], offs[bi], line_of[bi]
    page.lines = [LinePlan(page, k) for k in range(count)]
    return page


def _place_segments(got_list: list, seg_s: np.ndarray, seg_e: np.ndarray,
                    line_of: np.ndarray, bounds: np.ndarray, xs: np.ndarray,
                    widths: np.ndarray, in_seg: np.ndarray, segs: list) -> None:
    """Each shaped segment in place of its units: they take the places Qt gave them,
    and the units after it on its line move by what it grew or shrank (by whole
    characters: everything stays on the character grid). A segment's growth does not
    depend on the segments before it on its line (they move its start and its end
    alike), so every move is worked out at once."""
    n = len(xs)
    seg_width = np.array([g[4] for g in got_list], dtype=np.float64)
    seg_line = line_of[seg_s]
    line_end = bounds[1:][seg_line]
    inner = seg_e < line_end
    ei = seg_e[inner]
    grow = seg_width[inner] - (xs[ei] - xs[seg_s[inner]])
    shift = np.zeros(n + 1, dtype=np.float64)
    np.add.at(shift, ei, grow)
    np.add.at(shift, line_end[inner], -grow)
    xs += np.cumsum(shift[:n])
    x0 = xs[seg_s]
    sizes = seg_e - seg_s
    heads = np.repeat(np.cumsum(sizes) - sizes, sizes)
    at = np.arange(len(heads)) - heads + np.repeat(seg_s, sizes)
    lefts = np.concatenate([g[2] for g in got_list])
    rights = np.concatenate([g[3] for g in got_list])
    xs[at] = np.repeat(x0, sizes) + lefts
    widths[at] = rights - lefts
    in_seg[at] = True
    for (tl, seg_ascent, _, _, width), x, k in zip(got_list, x0.tolist(), seg_line.tolist()):
        segs[k].append((tl, x, seg_ascent, width))


def _glyphs(looks, rows: np.ndarray, fallback: FallbackFonts) -> tuple[np.ndarray, np.ndarray]:
    """Per unit, (font, glyph) of its character (``looks.font``, ``looks.glyph``, decided
    once per look): glyph 0 when it is not one glyph of a font of ``fallback`` (it is
    shaped), GLYPH_NONE when nothing is drawn (boxes, problems, blanks, spaces)."""
    table = looks.glyph
    got = table[rows]
    for r in set(rows[got == TL.GLYPH_UNKNOWN].tolist()):  # np.unique would load numpy.ma
        text = looks.ltext[r]
        g = TL.GLYPH_NONE
        if looks.mode[r] in (TL.M_TEXT, TL.M_PICTURE, TL.M_LINE_END) and text \
                and not text.isspace():
            g = 0
            if len(text) == 1:
                found = fallback.decide(ord(text))
                if found is not None:
                    looks.font[r], g = found[0], found[1]
        table[r] = g
    return looks.font[rows], table[rows]


def _segments(shape: np.ndarray, rtl: np.ndarray, strong: np.ndarray, mark: np.ndarray,
              bounds: np.ndarray, line_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the page's segments to shape: the runs of units that must be
    shaped, and around each right-to-left one the units back to the last and on to the
    next strong left-to-right unit (or its line's ends). A strong left-to-right
    character is never reordered and ends what a right-to-left run can carry along
    (neutrals, digits), so a segment shaped alone reads as it would in its whole line;
    one that must be shaped itself (Devanagari beside Arabic) starts a segment of its
    own: shorter segments, met again more often (they are kept by content). A segment
    that starts with a combining mark takes its base too."""
    n = len(shape)
    if not shape.any():
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    idx = np.arange(n)
    line_first = bounds[:-1][line_of]
    cover = np.zeros(n + 1, dtype=np.int64)
    np.add.at(cover, np.flatnonzero(shape), 1)
    np.add.at(cover, np.flatnonzero(shape) + 1, -1)
    need = np.flatnonzero(shape & rtl)
    apart = np.zeros(n + 1, dtype=bool)     # where a segment must start
    if len(need):
        last = np.maximum.accumulate(np.where(strong, idx, -1))
        following = np.minimum.accumulate(np.where(strong, idx, n)[::-1])[::-1]
        starts = np.maximum(np.where(need > 0, last[need - 1], -1) + 1, line_first[need])
        ends = np.minimum(following[need], bounds[1:][line_of[need]])
        np.add.at(cover, starts, 1)
        np.add.at(cover, ends, -1)
        apart[starts] = True
        apart[ends] = True
    covered = np.cumsum(cover[:n]) > 0
    head = covered & (np.r_[True, ~covered[:-1]] | (idx == line_first) | apart[:n])
    starts = np.flatnonzero(head)
    tail = covered & (np.r_[~covered[1:], True] | np.r_[idx[1:] == line_first[1:], True]
                      | apart[1:])
    ends = np.flatnonzero(tail) + 1
    # A combining mark takes its base along, unless the base is another segment's.
    base = mark[starts] & (starts > line_first[starts]) & ~np.r_[False, covered[:-1]][starts]
    return starts - base, ends


def _shape(text: str, codes: np.ndarray, starts: np.ndarray, widths: np.ndarray,
           spaced: np.ndarray, rtl: bool, font: QFont, option: QTextOption, formats: list,
           metrics: QtMetrics) -> tuple:
    """A segment shaped by Qt: (layout, ascent, lefts, rights, width) with its units'
    edges on it and its width in whole characters of the main font."""
    tl = QTextLayout(text, font)
    tl.setTextOption(option)
    tl.setCacheEnabled(True)
    ranges = []
    c = codes.tolist()
    u = starts.tolist()
    i = 0
    while i < len(c):
        j = i + 1
        while j < len(c) and c[j] == c[i]:
            j += 1
        if c[i] != _PLAIN and u[j] > u[i]:
            fr = QTextLayout.FormatRange()
            fr.start = u[i]
            fr.length = u[j] - u[i]
            fr.format = formats[c[i]]
            ranges.append(fr)
        i = j
    tl.setFormats(ranges)
    tl.beginLayout()
    line = tl.createLine()
    line.setLineWidth(_BIG)
    tl.endLayout()
    lefts, rights = _measure(tl, line, starts, 0, len(c), widths, spaced, rtl)
    # Its right edge: where a unit after it would start (not the ink, which a mark may
    # push further), or its rightmost unit's.
    end_x = max(float(line.cursorToX(int(starts[-1]))[0]), max(rights) if rights else 0.0)
    return (tl, line.ascent(), np.array(lefts, dtype=np.float64),
            np.array(rights, dtype=np.float64), metrics.to_grid(end_x))


def _measure(tl: QTextLayout, line: QTextLine, starts: np.ndarray, a: int, b: int,
             widths: np.ndarray, spaced: np.ndarray, rtl: bool) -> tuple[list, list]:
    """The left and right edges of units ``a..b-1`` on the shaped line. Left to right
    only, a unit ends where the next begins: one position each. With a right-to-left
    run, both edges of each unit's first character, and for letters standing for a box
    or a problem the far edge of the last; Qt places the first character of a
    right-to-left run at the run's edge, so a unit found without width where it has
    one is measured from its glyphs."""
    if not rtl:
        to_x = line.cursorToX
        edges = [to_x(int(s))[0] for s in starts[a:b + 1].tolist()]
        return edges[:-1], edges[1:]
    lead, trail = QTextLine.Edge.Leading, QTextLine.Edge.Trailing
    to_x = line.cursorToX
    lefts, rights = [], []
    for k in range(a, b):
        s = int(starts[k])
        e = int(starts[k + 1])
        if e == s:   # nothing in the string (a zero-width blank)
            x = to_x(s, lead)[0]
            lefts.append(x)
            rights.append(x)
            continue
        x0 = to_x(s, lead)[0]
        x1 = to_x(s, trail)[0]
        if e - s > 1 and spaced[k]:   # a box's or a problem's spaces
            last = to_x(e - 1, trail)[0]
            x0, x1 = min(x0, x1, last), max(x0, x1, last)
        if x0 == x1 and widths[k] > 0:
            runs = tl.glyphRuns(s, e - s)
            edges = []
            for run in runs:
                pos = run.positions()
                adv = run.rawFont().advancesForGlyphIndexes(run.glyphIndexes())
                edges += [p.x() for p in pos] + [p.x() + v.x() for p, v in zip(pos, adv)]
            if edges:
                x0, x1 = min(edges), max(edges)
        lefts.append(min(x0, x1))
        rights.append(max(x0, x1))
    return lefts, rights


def text_formats(colors: dict) -> list:
    """A QTextCharFormat per text colour code (see TEXT_KEYS), and a transparent one
    for the placeholders."""
    out = []
    for key in TEXT_KEYS:
        f = QTextCharFormat()
        f.setForeground(colors[key])
        out.append(f)
    f = QTextCharFormat()
    f.setForeground(Qt.GlobalColor.transparent)
    out.append(f)
    return out


def baseline_point(segment_ascent: float, x: float, y: float, ascent: float) -> QPointF:
    """Where to draw a segment's layout (its line's ascent ``segment_ascent``) for its
    baseline to be at ``y + ascent``."""
    return QPointF(x, y + ascent - segment_ascent)
