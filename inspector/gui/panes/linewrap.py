"""Wrapping the text pane's paragraphs into visual lines, without Qt.

The paragraphs cut together (:meth:`TextLayout.paragraph` cuts the short paragraphs of
a window in one cut) share one :class:`Batch`: their units' looks, widths, the running
sum of widths and where the spaces and tabs are, worked out in one pass of numpy calls
for the whole cut. Each paragraph is then wrapped when first asked for, with a Python
step per line (and per tab) on plain lists, and its units' places set with a few numpy
calls: no numpy call per line, none per unit.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np

from inspector.core.scan.kernels.codes import C_VALID
from inspector.gui.panes.textlooks import (CR, LF, M_LINE_END, SPACE, TAB,
                                           several_point_keys)


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
