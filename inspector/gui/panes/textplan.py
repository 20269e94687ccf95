"""What to draw for one laid-out line of the text pane, worked out once per line.

A :class:`LinePlan` is built from its paragraph's arrays (the page cut's units and the
layout's looks), with no Python step per unit: the line's text is one string shaped by
one ``QTextLayout`` (font fallback, clusters, right-to-left runs all in C++), coloured by
format ranges. Boxes, problems, tabs and hidden characters are spaces of their width in
that string; the painter draws them over it by runs (see textpainter). Where the string
holds characters whose drawn advance is not the width the wrap measured (right-to-left
runs, combining marks, emoji), the units' places are read back from the shaped line and
given to the paragraph, so that the cursor, the selection and hit tests agree with the
pixels.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QTextCharFormat, QTextLayout, QTextLine, QTextOption

from inspector.core.scan.kernels.codes import C_VALID, KIND_CODES
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textmetrics import QtMetrics

_BIG = 1e7

# Colour keys of a line's text, by code: the plan keeps codes, the painter's look has a
# colour per code (resolved at paint time, so a theme change needs no new plans).
TEXT_KEYS = ("text", style.MULTI2, style.MULTI3, style.MULTI4, style.MULTI_LONG, "warning",
             "muted")
_WARNING, _MUTED = 5, 6
# Problem colours: a kind's code, and LOST for lost bytes (before the resync point).
LOST = len(KIND_CODES)
PROBLEM_KEYS = tuple(KIND_CODES) + ("lost",)
_MARKS = np.array([style.K.KINDS[k].mark if k in style.K.KINDS else "" for k in KIND_CODES],
                  dtype=object)

_MODE_TEXT = {TL.TEXT}
_MUTED_MODES = {TL.PICTURE, TL.LINE_END, TL.BLANK}


def _option(tab: float) -> QTextOption:
    option = QTextOption()
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    if tab > 0:
        option.setTabStopDistance(tab)
    return option


class LinePlan:
    """One line's drawing: ``layout`` (its text, shaped and coloured), the units'
    ``offsets``, ``ends``, ``xs`` and ``rights`` (lists, for the cursor, selection and
    matches), and arrays of its problems, warning fills and boxes."""

    __slots__ = ("offsets", "ends", "xs", "rights", "layout", "ascent",
                 "p_x", "p_w", "p_n", "p_key", "p_off", "w_x", "w_w", "w_off",
                 "boxes", "box_off")

    def __init__(self, layout: TL.TextLayout, par: TL.Paragraph, first: int, last: int,
                 metrics: QtMetrics, lost_end, origin, formats: list):
        rows = par.rows[first:last]
        _, r_u16, r_safe, r_mode, r_ltext, _ = layout.row_arrays()
        offs = par.offs[first:last]
        lens = par.lens[first:last]
        kinds = par.kinds[first:last]
        warned = np.fromiter((bool(w) for w in par.warns[first:last].tolist()), dtype=bool,
                             count=last - first)
        xs = np.array(par.xs[first:last], dtype=np.float64)
        widths = np.array(par.widths[first:last], dtype=np.float64)
        modes = r_mode[rows]
        n = last - first

        # The line's one string, and where each unit starts in it (UTF-16 positions).
        text = "".join(r_ltext[rows].tolist())
        u16 = r_u16[rows]
        starts = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(u16, out=starts[1:])
        tl = QTextLayout(text, metrics.font)
        tl.setTextOption(_option(metrics.text_width(" ") * layout.tab_columns))
        tl.setCacheEnabled(True)

        # Colours of the text: a code per unit, runs of one code become format ranges.
        is_text = modes == TL.TEXT
        valid = kinds == C_VALID
        code = np.where(lens >= 5, 4, np.clip(lens, 1, 5) - 1)
        code = np.where(is_text & valid, code, _MUTED)
        code[warned] = _WARNING
        drawn = u16 > 0
        drawn &= is_text | np.isin(modes, (TL.PICTURE, TL.LINE_END))
        ranges = []
        if drawn.any():
            where = np.flatnonzero(drawn)
            c = code[where]
            cut = np.flatnonzero(c[1:] != c[:-1]) + 1
            heads = np.concatenate(([0], cut))
            tails = np.concatenate((cut, [len(where)]))
            for h, t in zip(heads.tolist(), tails.tolist()):
                fr = QTextLayout.FormatRange()
                a = int(starts[where[h]])
                fr.start = a
                fr.length = int(starts[where[t - 1] + 1]) - a
                fr.format = formats[int(c[h])]
                ranges.append(fr)
        # Text before the first range (placeholders) keeps the plain format.
        tl.setFormats(ranges)
        tl.beginLayout()
        line = tl.createLine()
        line.setLineWidth(_BIG)
        tl.endLayout()
        self.layout = tl
        self.ascent = line.ascent()

        # Units whose drawn place is not what the wrap measured: from the first such
        # unit to the last one, places are read from the shaped line; later units move
        # by what that span grew or shrank.
        unsafe = ~r_safe[rows]
        if unsafe.any():
            where = np.flatnonzero(unsafe)
            a, b = int(where[0]), int(where[-1]) + 1
            spaced = ~(is_text | np.isin(modes, (TL.PICTURE, TL.LINE_END)))
            lefts, rights = _measure(tl, line, starts, a, b, widths, spaced)
            grown = max(rights + [float(line.cursorToX(int(starts[b]))[0])]) - \
                (xs[b - 1] + widths[b - 1])
            new_x = xs.copy()
            new_w = widths.copy()
            new_x[a:b] = lefts
            new_w[a:b] = np.array(rights) - np.array(lefts)
            new_x[b:] += grown
            xs, widths = new_x, new_w
            par.set_positions(first, xs.tolist(), widths.tolist())
        self.offsets = offs.tolist()
        self.ends = (offs + lens).tolist()
        self.xs = xs.tolist()
        self.rights = (xs + widths).tolist()

        # Problems: their U+FFFD count, colour (lost bytes apart) and place.
        prob = modes == TL.REPLACEMENT
        pi = np.flatnonzero(prob)
        self.p_x = xs[pi]
        self.p_w = widths[pi]
        self.p_n = np.maximum(par.reps[first:last][pi], 1)
        key = kinds[pi].astype(np.int64)
        if lost_end is not None and origin is not None:
            key = np.where((offs[pi] >= origin) & (offs[pi] < lost_end), LOST, key)
        self.p_key = key
        self.p_off = offs[pi]
        # Warning fills (text and marks drawn with a warning).
        wi = np.flatnonzero(warned & (modes != TL.REPLACEMENT) & (modes != TL.BOX))
        self.w_x, self.w_w, self.w_off = xs[wi], widths[wi], offs[wi]
        # Boxes: runs of one label side by side, each [label, width, warned, x, offsets].
        self.boxes: list[list] = []
        bi = np.flatnonzero(modes == TL.BOX)
        self.box_off = offs[bi]
        if len(bi):
            labels = np.array(par.texts[first:last], dtype=object)[bi]
            bw, bx, bwarn = widths[bi], xs[bi], warned[bi]
            same = ((labels[1:] == labels[:-1]) & (bw[1:] == bw[:-1]) & (bwarn[1:] == bwarn[:-1])
                    & (bi[1:] == bi[:-1] + 1))
            cut = np.flatnonzero(~same) + 1
            heads = np.concatenate(([0], cut)).tolist()
            tails = np.concatenate((cut, [len(bi)])).tolist()
            offs_b = self.box_off.tolist()
            for h, t in zip(heads, tails):
                self.boxes.append([labels[h], float(bw[h]), bool(bwarn[h]), float(bx[h]),
                                   offs_b[h:t]])

    def mark_of(self, key: int) -> str:
        return "" if key == LOST else _MARKS[key]


def _measure(tl: QTextLayout, line: QTextLine, starts: np.ndarray, a: int, b: int,
             widths: np.ndarray, spaced: np.ndarray) -> tuple[list, list]:
    """The left and right edges of units ``a..b-1`` on the shaped line (both edges of
    each unit's first character, and for spaces standing for a box or a problem the far
    edge of the last; Qt places the first character of a right-to-left run
    at the run's edge, so a unit found without width where it has one is measured from
    its glyphs)."""
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
    """A QTextCharFormat per text colour code (see TEXT_KEYS)."""
    out = []
    for key in TEXT_KEYS:
        f = QTextCharFormat()
        f.setForeground(colors[key])
        out.append(f)
    return out


def baseline_point(plan: LinePlan, x: float, y: float, ascent: float) -> QPointF:
    """Where to draw ``plan``'s layout for its baseline to be at ``y + ascent``."""
    return QPointF(x, y + ascent - plan.ascent)
