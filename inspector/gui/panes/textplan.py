"""What to draw for one laid-out line of the text pane, worked out once per line, and
the pane's measures (:class:`QtMetrics`: the Qt side of textlooks.Metrics, so that the
layout stays Qt-free and testable while the pane measures with its own fonts).

A :class:`LinePlan` is built from its paragraph's arrays (the page cut's units and the
layout's looks), with no Python step per unit: the line's text is one string shaped by
one ``QTextLayout`` (font fallback, clusters, right-to-left runs all in C++), coloured by
format ranges. A plain line (every unit in its measured place and drawn, if at all, as
one glyph of the main font: most lines of random bytes) is not shaped: its glyph indexes
and places go to the painter as arrays. Boxes, problems, tabs and hidden characters are spaces of their width in
that string; the painter draws them over it by runs (see textpainter). Where the string
holds characters whose drawn advance is not the width the wrap measured (right-to-left
runs, combining marks, emoji), the units' places are read back from the shaped line and
given to the paragraph, so that the cursor, the selection and hit tests agree with the
pixels.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (QFont, QFontMetricsF, QRawFont, QTextCharFormat, QTextLayout,
                           QTextLine, QTextOption)

from inspector.core.scan.kernels.codes import C_VALID, KIND_CODES
from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL

_BIG = 1e7
SHAPED_LINES = 512     # shaped lines kept by content (a few screens)

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
        self.raw = QRawFont.fromFont(font)   # plain lines' glyphs (see make_plans)
        self.char_width = self.fm.horizontalAdvance("0")
        self.box_pad = max(2.0, round(self.small.horizontalAdvance("0") * 0.35))

    def text_width(self, text: str) -> float:
        w = self._widths.get(text)
        if w is None:
            w = self._widths[text] = self.fm.horizontalAdvance(text)
        return w

    def box_width(self, label: str) -> float:
        return self.to_grid(math.ceil(self.small.horizontalAdvance(label)) + 2 * self.box_pad + 2)

    def mark_width(self, mark: str) -> float:
        return math.ceil(self.small.horizontalAdvance("W")) + 1

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


class LinePlan:
    """One line's drawing: ``layout`` (its text, shaped and coloured), or for a plain
    line (left to right, every character one glyph of the main font) None and its
    glyphs on the wrap's places (``g_glyph``, ``g_x``, ``g_code``: index, x, colour
    code; the painter draws the page's by colour, one glyph run each), the units'
    ``offsets``, ``ends``, ``xs`` and ``rights`` (lists, for the cursor, selection and
    matches), and arrays of its problems (``p_*``), warning fills (``w_*``) and its box
    runs (each [label, width, warned, x, [offsets]]). Made by :func:`make_plans`."""

    __slots__ = ("offsets", "ends", "xs", "rights", "layout", "ascent",
                 "g_glyph", "g_x", "g_code", "p_x", "p_w", "p_n", "p_key", "p_off", "w_x", "w_w", "w_off", "boxes")


def _runs(keys: np.ndarray, breaks: np.ndarray) -> tuple[list, list]:
    """(heads, tails) of the runs of equal ``keys``, also cut where ``breaks`` is True
    (a new line starts)."""
    n = len(keys)
    if not n:
        return [], []
    cut = np.flatnonzero((keys[1:] != keys[:-1]) | breaks[1:]) + 1
    return np.concatenate(([0], cut)).tolist(), np.concatenate((cut, [n])).tolist()


def make_plans(layout: TL.TextLayout, lines: list, metrics: QtMetrics, lost_end, origin,
               formats: list) -> list[LinePlan]:
    """The plans of ``lines`` (TL.Line), worked out together: the arrays of all their
    units are looked at in one pass of numpy calls for the page, and each line costs
    one joined string, one shaped layout and its colour ranges."""
    looks = layout.looks
    count = len(lines)
    pars = [ln.paragraph for ln in lines]
    firsts = [ln.first for ln in lines]
    lasts = [ln.last for ln in lines]

    def gather(field):
        return np.concatenate([getattr(p, field)[a:b] for p, a, b in zip(pars, firsts, lasts)])

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
    line_start16 = starts[bounds[:-1]]
    ltexts = looks.ltext[rows].tolist()

    # Colours of the text: a code per unit; runs of one code on a line become format
    # ranges, except the text colour's (the pen's). The letters that hold a box's or a
    # problem's place are a run of their own, drawn transparent.
    is_text = modes == TL.M_TEXT
    shown = is_text | (modes == TL.M_PICTURE) | (modes == TL.M_LINE_END)
    code = np.where(lens >= 5, 4, np.clip(lens, 1, 5) - 1)
    code = np.where(is_text & (kinds == C_VALID), code, _MUTED)
    code[warned] = _WARNING
    code[~shown] = _HIDDEN
    where = np.flatnonzero(u16 > 0)
    wl = line_of[where]
    heads, tails = _runs(code[where], np.r_[True, wl[1:] != wl[:-1]] if len(where) else wl)
    if heads:
        h = where[heads]
        run_code = code[h]
        keep = np.flatnonzero(run_code != _PLAIN)
        h = h[keep]
        run_line = wl[heads][keep].tolist()
        base16 = line_start16[wl[heads][keep]]
        run_start = (starts[h] - base16).tolist()
        run_end = (starts[where[np.array(tails)[keep] - 1] + 1] - base16).tolist()
        run_code = run_code[keep].tolist()
    else:
        run_line = run_code = run_start = run_end = []
    ranges = [[] for _ in range(count)]
    for k, c, a, e in zip(run_line, run_code, run_start, run_end):
        fr = QTextLayout.FormatRange()
        fr.start = a
        fr.length = e - a
        fr.format = formats[c]
        ranges[k].append(fr)

    unsafe = ~looks.safe[rows]
    # Plain lines: every unit in its measured place and drawn, if at all, as one glyph
    # of the main font. Nothing to shape or read back: their glyphs go on the wrap's
    # places (random bytes are mostly such lines: ASCII, boxes and problems).
    glyph = _main_glyphs(looks, rows, metrics.raw)
    odd = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(unsafe | (glyph == 0), out=odd[1:])
    plain_line = (odd[bounds[1:]] - odd[bounds[:-1]]) == 0
    plain_l = plain_line.tolist()
    strong = looks.strong_ltr[rows]
    rtl = looks.rtl[rows]
    option = _option(metrics.text_width(" ") * layout.tab_columns)
    font = metrics.font
    plans = []
    b_list = bounds.tolist()
    shaped = layout.shaped     # line content -> (layout, ascent, measured span or None)
    colors = tuple(f.foreground().color().rgba() for f in formats)   # the look
    for k in range(count):
        a, b = b_list[k], b_list[k + 1]
        if plain_l[k]:
            plan = LinePlan()
            plan.layout = plan.ascent = None
            plans.append(plan)
            continue
        # A line's look depends only on its units' looks and warnings: lines seen
        # before (repeated text, a jump back) are not shaped or measured again.
        key = (rows[a:b].tobytes(), warned[a:b].tobytes(), colors)
        got = shaped.get(key)
        if got is None:
            tl = QTextLayout("".join(ltexts[a:b]), font)
            tl.setTextOption(option)
            tl.setCacheEnabled(True)
            tl.setFormats(ranges[k])
            tl.beginLayout()
            line = tl.createLine()
            line.setLineWidth(_BIG)
            tl.endLayout()
            span = None
            # Units whose drawn place is not what the wrap measured: from the first
            # such unit to the last, places are read from the shaped line; later units
            # move by what that span grew or shrank. Digits, spaces and punctuation
            # next to another script's characters take its font (and, after a
            # right-to-left run, its direction): they are measured with it, back to
            # the last and on to the next strong left-to-right character.
            bad = np.flatnonzero(unsafe[a:b])
            if len(bad):
                i, j = int(bad[0]), int(bad[-1]) + 1
                before = np.flatnonzero(strong[a:a + i])
                i = int(before[-1]) + 1 if len(before) else 0
                after = np.flatnonzero(strong[a + j:b])
                j = j + int(after[0]) if len(after) else b - a
                local = starts[a:b + 1] - starts[a]
                lefts, rights = _measure(tl, line, local, i, j, widths[a:b], ~shown[a:b],
                                         bool(rtl[a + i:a + j].any()))
                end_x = float(line.cursorToX(int(local[j]))[0])
                span = (i, j, np.array(lefts), np.array(rights), end_x)
            got = (tl, line.ascent(), span)
            if len(shaped) >= SHAPED_LINES:
                shaped.clear()
            shaped[key] = got
        plan = LinePlan()
        plan.layout, plan.ascent, span = got
        if span is not None:
            i, j, lefts, rights, end_x = span
            i, j = a + i, a + j
            # Where the unit after the span starts: the span's right edge, even when
            # its own edges are ambiguous (a cluster, a run's first character).
            grown = end_x - (xs[j - 1] + widths[j - 1])
            xs[i:j] = lefts
            widths[i:j] = rights - lefts
            xs[j:b] += grown
            pars[k].set_positions(firsts[k], xs[a:b].tolist(), widths[a:b].tolist())
        plans.append(plan)

    # Per unit, now placed: the lists the cursor and overlays search.
    offs_l = offs.tolist()
    ends_l = (offs + lens).tolist()
    xs_l = xs.tolist()
    rights_l = (xs + widths).tolist()
    # Plain lines' glyphs, with their colour codes.
    gi = np.flatnonzero(plain_line[line_of] & (glyph > 0) & (code != _HIDDEN))
    g_cut = np.searchsorted(gi, bounds).tolist()
    g_glyph, g_x, g_code = glyph[gi], xs[gi], code[gi]
    # Problems: their U+FFFD count, colour (lost bytes apart) and place.
    pi = np.flatnonzero(modes == TL.M_REPLACEMENT)
    p_key = kinds[pi].astype(np.int64)
    if lost_end is not None and origin is not None:
        p_key = np.where((offs[pi] >= origin) & (offs[pi] < lost_end), LOST, p_key)
    p_cut = np.searchsorted(pi, bounds).tolist()
    p_x, p_w, p_n, p_off = xs[pi], widths[pi], np.maximum(reps[pi], 1), offs[pi]
    # Warning fills (text and marks drawn with a warning).
    wi = np.flatnonzero(warned & (modes != TL.M_REPLACEMENT) & (modes != TL.M_BOX))
    w_cut = np.searchsorted(wi, bounds).tolist()
    w_x, w_w, w_off = xs[wi], widths[wi], offs[wi]
    # Boxes: runs of one look side by side.
    bi = np.flatnonzero(modes == TL.M_BOX)
    box_runs = [[] for _ in range(count)]
    if len(bi):
        brow = rows[bi]
        adjacent = np.r_[False, bi[1:] == bi[:-1] + 1]
        key = brow * 2 + warned[bi]
        bline_a = line_of[bi]
        bheads, btails = _runs(key, ~adjacent | np.r_[True, bline_a[1:] != bline_a[:-1]])
        labels = looks.text[brow].tolist()
        bw = widths[bi].tolist()
        bx = xs[bi].tolist()
        bwarn = warned[bi].tolist()
        boffs = offs[bi].tolist()
        bline = line_of[bi].tolist()
        for h, t in zip(bheads, btails):
            box_runs[bline[h]].append([labels[h], bw[h], bwarn[h], bx[h], boffs[h:t]])
    for k, plan in enumerate(plans):
        a, b = b_list[k], b_list[k + 1]
        plan.offsets = offs_l[a:b]
        plan.ends = ends_l[a:b]
        plan.xs = xs_l[a:b]
        plan.rights = rights_l[a:b]
        pa, pb = p_cut[k], p_cut[k + 1]
        plan.p_x, plan.p_w, plan.p_n = p_x[pa:pb], p_w[pa:pb], p_n[pa:pb]
        plan.p_key, plan.p_off = p_key[pa:pb], p_off[pa:pb]
        wa, wb = w_cut[k], w_cut[k + 1]
        plan.w_x, plan.w_w, plan.w_off = w_x[wa:wb], w_w[wa:wb], w_off[wa:wb]
        plan.boxes = box_runs[k]
        ga, gb = g_cut[k], g_cut[k + 1]
        plan.g_glyph, plan.g_x, plan.g_code = g_glyph[ga:gb], g_x[ga:gb], g_code[ga:gb]
    return plans


def _main_glyphs(looks, rows: np.ndarray, raw: QRawFont) -> np.ndarray:
    """Per unit, its character's glyph in the main font (``looks.glyph``, looked up
    once per look): 0 when it is not one glyph of that font (fallback, several
    characters), GLYPH_NONE when nothing is drawn (boxes, problems, blanks, spaces)."""
    table = looks.glyph
    got = table[rows]
    for r in np.unique(rows[got == TL.GLYPH_UNKNOWN]).tolist():
        text = looks.ltext[r]
        g = TL.GLYPH_NONE
        if looks.mode[r] in (TL.M_TEXT, TL.M_PICTURE, TL.M_LINE_END) and text \
                and not text.isspace():
            g = 0
            if len(text) == 1 and raw.supportsCharacter(ord(text)):
                found = raw.glyphIndexesForString(text)
                g = int(found[0]) if len(found) == 1 and found[0] else 0
        table[r] = g
    return table[rows]


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


def baseline_point(plan: LinePlan, x: float, y: float, ascent: float) -> QPointF:
    """Where to draw ``plan``'s layout for its baseline to be at ``y + ascent``."""
    return QPointF(x, y + ascent - plan.ascent)
