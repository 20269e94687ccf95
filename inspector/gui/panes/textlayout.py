"""Where the decoded text goes, without Qt: paragraphs, wrapped visual lines, cells.

The text pane shows flowing text, so a byte's place on screen depends on everything
before it on its line. A 16 GiB file with no line feed cannot be laid out from its
start, so the layout works in bounded pieces:

* A **paragraph** is a run of bytes that always starts a new visual line. Paragraphs
  start (the *breaks*) at offset 0, right after every line feed byte, at the origin,
  and at a *virtual break* ``V(k)`` for each ``k >= 1`` such that window ``k - 1``
  (bytes ``[(k-1)W, kW)``) holds no line feed; ``V(k)`` is the start of the unit that
  holds byte ``kW``. ``W`` is :data:`WINDOW`.
* The breaks are a fixed set that depends only on the bytes, the origin and the
  dialect, never on how a region was reached: the paragraph holding any byte ``X`` is
  found by reading at most ``2W`` bytes back from ``X`` (window ``X // W`` and the one
  before it), and a paragraph is never longer than about ``2W`` bytes, so paging
  forwards, backwards or jumping all give the same lines.
* A paragraph is cut into units (``document.units``) and each unit becomes one
  **cell** with a width; the cells are wrapped into **visual lines** at the pane's
  width (at a space when there is one, otherwise between units).

Widths come from an injected :class:`Metrics` so the layout is testable without a
display: :class:`ColumnMetrics` counts monospace columns (2 for East Asian wide and
full-width characters); the view passes pixel widths from ``QFontMetricsF``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

import numpy as np

from inspector.core.scan import pagecut
from inspector.core.scan.kernels.codes import C_VALID
from inspector.core.units import boundaries, decoder
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation
from inspector.gui.panes import textlooks
from inspector.gui.panes.textlooks import (  # noqa: F401 - the layout's vocabulary
    BLANK, BOX, CONTROL_ABBREVIATIONS, CR, CR_PICTURE, GLYPH_NONE, GLYPH_UNKNOWN, LF,
    LINE_END, M_BLANK, M_BOX, M_LINE_END, M_PICTURE, M_REPLACEMENT, M_TEXT, MODE_CODE, MODES, PICTURE, PLACEHOLDER,
    REPLACEMENT, REPLACEMENT_CHAR, RETURN_MARK, SPACE, TAB, TAB_COLUMNS, TAB_MARK, TEXT,
    Cell, ColumnMetrics, Looks, Metrics, MODE_NAMES, column_width, display, layout_text,
    runs_safely, several_point_keys)

_NO_FLOATS = np.zeros(0)
_NO_INTS = np.zeros(0, dtype=np.int64)

# Bytes per virtual-break window. A paragraph is at most about 2 * WINDOW bytes, which
# bounds both what one lookup reads and what one paragraph costs to decode and wrap.
WINDOW = 2048

class DocumentLike(Protocol):
    """What the layout needs from the controller (``gui.document.Document`` has it)."""

    size: int
    origin: int | None
    dialect: str

    def read(self, offset: int, length: int) -> bytes: ...
    def page_cut(self, start: int, end: int) -> pagecut.PageCut: ...
    def unit_start(self, offset: int) -> int: ...


class SourceModel:
    """A Qt-free stand-in for the document: a byte source with an origin and a dialect
    (used by tests and by anything that lays out text without a window)."""

    def __init__(self, source, origin: int | None = None, dialect: str = K.UTF8):
        self.source = source
        self.origin = origin
        self.dialect = dialect

    @property
    def size(self) -> int:
        return self.source.size

    def read(self, offset: int, length: int) -> bytes:
        return self.source.read(offset, length)

    def units(self, start: int, end: int) -> list[decoder.Unit]:
        return pagecut.units_in_range(self.source, start, end, self.origin, self.dialect)

    def page_cut(self, start: int, end: int) -> pagecut.PageCut:
        return pagecut.join(pagecut.cuts_in_range(self.source, start, end, self.origin,
                                                  self.dialect))

    @property
    def line_feed(self) -> bytes:
        return interpretation(self.dialect).line_feed(self.source)

    def unit_start(self, offset: int) -> int:
        offset = max(0, min(offset, max(self.size - 1, 0)))
        return interpretation(self.dialect).unit_start(self.source, offset, self.origin)


class Line:
    """One visual line: units ``[first, last)`` of its paragraph and the bytes
    [start, end) they cover. Lines are small views made on demand; the paragraph keeps
    only their spans (and their cells once painted), so no reference cycle keeps an
    evicted paragraph's thousands of units waiting for the garbage collector."""

    __slots__ = ("paragraph", "index", "first", "last", "start", "end", "width")

    def __init__(self, paragraph: "Paragraph", index: int):
        self.paragraph = paragraph
        self.index = index
        self.first, self.last, self.start, self.end, self.width = paragraph.spans[index]

    @property
    def cells(self) -> list[Cell]:
        return self.paragraph.cells_of(self.index)

    @property
    def is_first(self) -> bool:
        return self.index == 0

    @property
    def is_last(self) -> bool:
        return self.index == len(self.paragraph.spans) - 1

    def text(self) -> str:
        """What the line shows, one string (boxes as [label]); for tests and copying."""
        out = []
        for c in self.cells:
            if c.mode == BOX:
                out.append(f"[{c.text}]")
            elif c.mode == BLANK and c.unit.value == TAB:
                out.append("\t")
            else:
                out.append(c.text)
        return "".join(out)

    def cell_at_offset(self, offset: int) -> Cell | None:
        for c in self.cells:
            if c.unit.offset <= offset < c.unit.end:
                return c
        return None

    def __repr__(self):
        return f"Line({self.start}..{self.end}, #{self.index} of paragraph {self.paragraph.start})"


class Paragraph:
    """Bytes [start, end) between two breaks, wrapped into lines. Its units are the page
    cut's arrays (``offs``, ``lens``, ``kinds``, ``vals``, ``reps``, ``warns``); the
    unit tuples are made only when something asks for them (hit tests, tooltips)."""

    __slots__ = ("start", "end", "cut", "stop", "_warned", "_units", "_xs", "_widths",
                 "wrap_xs", "wrap_widths", "_texts", "_modes", "looks", "rows", "spans",
                 "_cells", "extra", "repeated", "batch", "base", "_placed", "_moves")

    def __init__(self, start: int, end: int, cut: pagecut.PageCut, i: int = 0,
                 j: int | None = None):
        self.start = start
        self.end = end
        # Its units: [i, j) of ``cut`` (the arrays are sliced when asked for: a cut of a
        # page holds dozens of paragraphs, most of them only wrapped).
        self.cut = cut
        self.base = i
        self.stop = len(cut) if j is None else j
        self._warned: np.ndarray | None = None
        self._units: list | None = None
        # Per unit: x and width as the wrap measured them, ``rows`` into ``looks``. The
        # lists xs, widths, texts, modes (for hit tests and cells; xs and widths as a
        # painter corrects them, set_positions) are made when first asked for.
        self.wrap_xs = _NO_FLOATS
        self.wrap_widths = _NO_FLOATS
        self._xs: list[float] | None = None
        self._widths: list[float] | None = None
        self._texts: list[str] | None = None
        self._modes: list[str] | None = None
        self.looks: Looks | None = None
        self.rows = _NO_INTS
        # Per visual line: (first unit, last unit exclusive, start byte, end byte, width).
        self.spans: list[tuple] = []
        self._cells: dict[int, list[Cell]] = {}
        self.extra: dict = {}  # a view's own per-paragraph caches (dropped with it)
        # The byte, when the paragraph is one ASCII byte repeated (see _wrap_repeated):
        # its lines of equal length then look alike.
        self.repeated: int | None = None
        # The arrays of the cut shared with the paragraphs cut with it (textlooks.Batch);
        # its units are [base, stop) of them.
        self.batch: textlooks.Batch | None = None
        # (xs, widths) as a painter placed them (set_positions), when it moved any, and
        # its moves not applied yet.
        self._placed: tuple[np.ndarray, np.ndarray] | None = None
        self._moves: list = []

    offs = property(lambda self: self.cut.offset[self.base:self.stop])
    lens = property(lambda self: self.cut.length[self.base:self.stop])
    kinds = property(lambda self: self.cut.kind[self.base:self.stop])
    vals = property(lambda self: self.cut.value[self.base:self.stop])
    reps = property(lambda self: self.cut.replacements[self.base:self.stop])
    at_end = property(lambda self: self.cut.at_end[self.base:self.stop])
    warns = property(lambda self: self.cut.warnings[self.base:self.stop])
    # Units of several code points (Big5-HKSCS, JIS X 0213): the others (PageCut.more).
    more = property(lambda self: None if self.cut.more is None
                    else self.cut.more[self.base:self.stop])

    @property
    def warned(self) -> np.ndarray:
        """Whether each unit has warnings."""
        if self._warned is None:
            source = self.batch.warned if self.batch is not None else \
                self.cut.warnings.astype(bool)
            self._warned = source[self.base:self.stop]
        return self._warned

    @property
    def placed(self) -> tuple[np.ndarray, np.ndarray]:
        """(xs, widths) of the units as drawn: as wrapped, moved where a painter placed
        them (set_positions)."""
        self._apply_moves()
        if self._placed is None:
            return self.wrap_xs, self.wrap_widths
        return self._placed

    def _apply_moves(self) -> None:
        if self._moves:
            if self._placed is None:
                self._placed = (self.wrap_xs.copy(), self.wrap_widths.copy())
            xs, widths = self._placed
            for first, a, b in self._moves:
                xs[first:first + len(a)] = a
                widths[first:first + len(b)] = b
            self._moves = []

    @property
    def xs(self) -> list[float]:
        if self._xs is None:
            self._xs = self.placed[0].tolist()
        return self._xs

    @property
    def widths(self) -> list[float]:
        if self._widths is None:
            self._widths = self.placed[1].tolist()
        return self._widths

    @property
    def texts(self) -> list[str]:
        if self._texts is None and self.looks is not None:
            self._texts = self.looks.text[self.rows].tolist()
        return self._texts or []

    @property
    def modes(self) -> list[str]:
        if self._modes is None and self.looks is not None:
            self._modes = MODE_NAMES[self.looks.mode[self.rows]].tolist()
        return self._modes or []

    @property
    def units(self) -> list[decoder.Unit]:
        if self._units is None:
            self._units = pagecut.PageCut(self.offs, self.lens, self.kinds, self.vals,
                                          self.reps, self.at_end, self.warns,
                                          self.more).units()
        return self._units

    def unit(self, i: int) -> decoder.Unit:
        return self.units[i]

    def __len__(self) -> int:
        return self.stop - self.base

    @property
    def line_count(self) -> int:
        return len(self.spans)

    def line(self, index: int) -> Line:
        return Line(self, index if index >= 0 else len(self.spans) + index)

    @property
    def lines(self) -> list[Line]:
        return [Line(self, i) for i in range(len(self.spans))]

    def set_positions(self, first: int, xs: np.ndarray, widths: np.ndarray) -> None:
        """Where a painter found units ``first..`` to be drawn (shaped text: right-to-left
        runs, clusters): hit tests and the cursor then agree with the pixels."""
        # Applied when the lists are asked for (hit tests), not at every paint.
        self._moves.append((first, xs, widths))
        if len(self._moves) > 16:   # a paragraph painted again and again
            self._apply_moves()
        self._xs = self._widths = None
        self._cells.clear()

    def cells_of(self, index: int) -> list[Cell]:
        """The cells of line ``index``, made once when first painted or hit-tested."""
        cells = self._cells.get(index)
        if cells is None:
            first, last = self.spans[index][:2]
            units, xs, ws, texts, modes = self.units, self.xs, self.widths, self.texts, self.modes
            cells = self._cells[index] = [Cell(units[i], xs[i], ws[i], texts[i], modes[i])
                                          for i in range(first, last)]
        return cells


class TextLayout:
    """Paragraphs, visual lines and positions for one document at one width.

    ``wrap_width`` is in the metrics' unit; 0 or None means no wrapping (a paragraph is
    one line, still bounded by the window). The layout caches recent paragraphs and
    notices a change of origin, dialect or source by itself; call :meth:`invalidate`
    when the width function or options change (``set_*`` do it).
    """

    # Laid-out paragraphs kept, counted in units (one short paragraph per line on a
    # screen of prose, a few long ones on a screen of binary): bounds memory, not count.
    CACHE_UNITS = 40_000

    # A paragraph of one ASCII byte repeated is laid out arithmetically (False: by the
    # general loop, which it must equal; tests compare the two).
    arithmetic_runs = True

    def __init__(self, document: DocumentLike, metrics: Metrics | None = None,
                 wrap_width: float | None = 80, show_whitespace: bool = False,
                 window: int = WINDOW, word_wrap: bool = True, tab_columns: int = TAB_COLUMNS,
                 glyph=None):
        if window < 16:
            raise ValueError("window must be at least 16 bytes")
        self.document = document
        self.metrics = metrics or ColumnMetrics()
        self.wrap_width = wrap_width
        self.show_whitespace = show_whitespace
        self.window = window
        self.word_wrap = word_wrap
        self.tab_columns = tab_columns
        # Bytes a cut reaches past the paragraph asked for (a view sets it to about what
        # its page shows, so that a new page is cut at once).
        self.read_ahead = 0
        # style.glyph_for decides substitutes for every view; it is passed in (or
        # imported on first use) so this module itself never imports Qt.
        self._glyph = glyph
        self._paragraphs: OrderedDict[int, Paragraph] = OrderedDict()
        self._unwrapped: dict[int, Paragraph] = {}   # cut, not wrapped yet (see paragraph)
        self._cached_units = 0
        self._lf_windows: OrderedDict[int, bool] = OrderedDict()
        self._display: dict = {}   # display key -> index into looks
        self.looks = Looks()
        # A painter's shaped segments by content (they depend on the looks: dropped with
        # them).
        self.shaped: dict = {}
        self._state = None
        # Bumped whenever laid-out paragraphs are dropped: a (generation, paragraph
        # start, line index) names one line's content for as long as it stays the same,
        # so views can cache what they drew for it.
        self.generation = 0
        self._check_state()

    # ----------------------------------------------------------------- options
    def set_wrap_width(self, width: float | None) -> None:
        if width != self.wrap_width:
            self.wrap_width = width
            self.forget_paragraphs()

    def set_show_whitespace(self, on: bool) -> None:
        if bool(on) != self.show_whitespace:
            self.show_whitespace = bool(on)
            self.invalidate()

    def set_metrics(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.invalidate()

    def forget_paragraphs(self) -> None:
        """Drop laid-out paragraphs (keeping the known glyph widths)."""
        self._paragraphs.clear()
        self._unwrapped = {}
        self._cached_units = 0
        self.generation += 1

    def invalidate(self) -> None:
        """Forget every laid-out paragraph (widths, options or the data changed)."""
        self.forget_paragraphs()
        self._lf_windows.clear()
        self._display.clear()
        self.looks = Looks()
        self.shaped = {}
        self._state = None
        self._check_state()

    def _check_state(self) -> None:
        d = self.document
        source = getattr(d, "source", None)
        state = (id(source), d.size, d.origin, d.dialect)
        if state != self._state:
            if self._state is not None:
                self.forget_paragraphs()
                self._lf_windows.clear()
            self._state = state

    @property
    def size(self) -> int:
        return self.document.size

    def glyph(self, unit: decoder.Unit, show_whitespace: bool) -> tuple[str, str]:
        if self._glyph is None:
            from inspector.gui.look.style import glyph_for

            self._glyph = glyph_for
        return self._glyph(unit, show_whitespace)

    # ----------------------------------------------------------------- breaks
    def _window_has_lf(self, k: int) -> bool:
        hit = self._lf_windows.get(k)
        if hit is None:
            hit = self._line_feed() in self.document.read(k * self.window, self.window)
            self._lf_windows[k] = hit
            if len(self._lf_windows) > 4096:
                self._lf_windows.popitem(last=False)
        return hit

    def _line_feed(self) -> bytes:
        """The bytes of a line feed in the reading in use (``0A 00`` in UTF-16 LE)."""
        return getattr(self.document, "line_feed", b"\n")

    def _virtual_break(self, k: int) -> int:
        return self.document.unit_start(k * self.window)

    def paragraph_start(self, offset: int) -> int:
        """The last break at or before ``offset`` (reads at most 2 windows)."""
        self._check_state()
        size = self.size
        if size == 0 or offset <= 0:
            return 0
        offset = min(offset, size - 1)
        W = self.window
        k = offset // W
        base = k * W
        lo = max(0, base - W)
        data = self.document.read(lo, offset - lo)
        nl = self._line_feed()
        p = data.rfind(nl, base - lo)
        if p >= 0:
            start = lo + p + len(nl)
        elif k >= 1:
            p = data.rfind(nl, 0, base - lo)
            if p < 0:
                self._lf_windows[k - 1] = False
                start = self._virtual_break(k)
            else:
                start = lo + p + len(nl)
        else:
            start = 0
        # The next window's virtual break snaps back to the start of the unit holding
        # its first byte, so it may lie a few bytes before that window, at or before X.
        nxt = base + W
        if nxt - offset <= boundaries.UNIT_START_REACH and nxt < size and not self._window_has_lf(k):
            v = self._virtual_break(k + 1)
            if v <= offset:
                start = max(start, v)
        origin = self.document.origin
        if origin is not None and start < origin <= offset:
            start = origin
        return start

    def paragraph_end(self, start: int, buffer: tuple | None = None) -> int:
        """The first break after the break ``start`` (the size at the end); ``buffer``:
        (bytes, their first offset) read already, searched when they hold what is
        needed."""
        self._check_state()
        size = self.size
        if start >= size:
            return size
        W = self.window
        k = start // W
        end = size
        origin = self.document.origin
        if origin is not None and start < origin < end:
            end = origin
        # Virtual breaks: a paragraph reaches at most two windows past its own.
        for j in (k + 1, k + 2):
            if j * W >= end:
                break
            if not self._window_has_lf(j - 1):
                v = self._virtual_break(j)
                if v > start:
                    end = min(end, v)
                    break
        # Without a virtual break, windows k and k + 1 both hold a line feed, so one
        # lies before the end of window k + 1: never read further than that.
        length = max(0, min(end, (k + 2) * W) - start)
        nl = self._line_feed()
        if buffer is not None and buffer[1] <= start and (
                start + length <= buffer[1] + len(buffer[0])
                or buffer[1] + len(buffer[0]) >= size):
            data, base = buffer
            p = data.find(nl, start - base, start - base + length)
            p = p - (start - base) if p >= 0 else -1
        else:
            p = self.document.read(start, length).find(nl)
        if p >= 0:
            end = min(end, start + p + len(nl))
        return end

    # ----------------------------------------------------------------- paragraphs
    def paragraph(self, start: int) -> Paragraph:
        """The paragraph beginning at the break ``start``, laid out (cached).

        Short paragraphs that follow it within one window (or ``read_ahead`` bytes,
        what a view last showed) are cut with it: a screen of prose is dozens of
        paragraphs, and each cut has a fixed cost. They are wrapped when asked for (a
        jump's page ends before the window does)."""
        self._check_state()
        hit = self._paragraphs.get(start)
        if hit is not None:
            self._paragraphs.move_to_end(start)
            return hit
        par = self._unwrapped.pop(start, None)
        if par is None:
            size = self.size
            reach = max(self.window, self.read_ahead)
            # The bytes the paragraphs' ends are searched in, read once.
            buffer = (self.document.read(start, reach), start)
            ends = [self.paragraph_end(start, buffer)]
            while (ends[-1] < size and ends[-1] - start < reach and len(ends) < 1024
                   and ends[-1] not in self._paragraphs and ends[-1] not in self._unwrapped):
                ends.append(self.paragraph_end(ends[-1], buffer))
            cut = self._cut(start, ends[-1])
            stops = np.searchsorted(cut.offset, ends, side="left").tolist()
            batch = textlooks.Batch(self, cut, stops)
            if len(self._unwrapped) > 1024:
                self._unwrapped.clear()
            i, s = 0, start
            for e, j in zip(ends, stops):
                got = self._unwrapped[s] = Paragraph(s, e, cut, i, j)
                got.batch = batch
                i, s = j, e
            par = self._unwrapped.pop(start)
        self._wrap(par)
        self._store(par)
        return par

    def _cut(self, start: int, end: int) -> pagecut.PageCut:
        if end <= start:
            return pagecut.join([])
        cut_of = getattr(self.document, "page_cut", None)
        if cut_of is not None:
            return cut_of(start, end)
        return pagecut.join(pagecut.cuts_in_range(self.document, start, end,
                                                  self.document.origin, self.document.dialect))

    def _store(self, par: Paragraph) -> None:
        self._paragraphs[par.start] = par
        self._cached_units += len(par) + 1
        while self._cached_units > self.CACHE_UNITS and len(self._paragraphs) > 1:
            _, old = self._paragraphs.popitem(last=False)
            self._cached_units -= len(old) + 1

    def paragraph_at(self, offset: int) -> Paragraph:
        return self.paragraph(self.paragraph_start(offset))

    def cut_with_lines_before(self, offset: int, lines: int) -> None:
        """Lay out the paragraphs that hold the ``lines`` lines above the one holding
        ``offset`` together with it (one cut, not one a paragraph): a jump shows a few
        lines above its target. Every paragraph is at least a line."""
        self._check_state()
        start = self.paragraph_start(offset)
        if start in self._paragraphs or start in self._unwrapped:
            return
        for _ in range(lines):
            if start <= 0:
                break
            before = self.paragraph_start(start - 1)
            if before in self._paragraphs or before in self._unwrapped:
                break
            start = before
        self.paragraph(start)

    # ----------------------------------------------------------------- cells
    def _rows(self, keys: list, par: Paragraph, at: np.ndarray) -> list[int]:
        """The rows in ``looks`` of display ``keys`` (a code point, -1: none, -2: the CR of
        a CR LF, -1000 - n: a problem of n replacements), made from units ``at`` of ``par``."""
        units = pagecut.PageCut(par.offs[at], par.lens[at], par.kinds[at], par.vals[at],
                                par.reps[at], par.at_end[at], par.warns[at],
                                None if par.more is None else par.more[at]).units()
        return [self._row(k, u) for k, u in zip(keys, units)]

    def _row(self, key, u: decoder.Unit) -> int:
        """The row in ``looks`` of display ``key`` (see _rows) for unit ``u``."""
        key = ("CRLF",) if key == -2 else ("E", -1000 - key) if key <= -1000 else key
        r = self._display.get(key)
        if r is None:
            text, mode, width = self._compute_display(u, key)
            ltext, safe = self._layout_text(text, mode, width)
            r = self._display[key] = self.looks.add(text, mode, width, ltext, safe,
                                                    bool(u.warnings))
        return r

    def _compute_display(self, unit: decoder.Unit, key) -> tuple[str, str, float]:
        return display(unit, key, self.metrics, self.show_whitespace, self.glyph)

    def _layout_text(self, text: str, mode: str, width: float) -> tuple[str, bool]:
        return layout_text(text, mode, width, self.metrics)

    def _tab_width(self, x: float) -> float:
        stop = self.metrics.text_width(" ") * self.tab_columns
        if stop <= 0:
            return 0
        n = int(x // stop) + 1
        w = n * stop - x
        return w if w > 1e-9 else stop

    tab_width = _tab_width

    def rows_for(self, keys: np.ndarray, cut: pagecut.PageCut) -> np.ndarray:
        """The rows in ``looks`` of display ``keys`` (see _rows) of the units of ``cut``,
        a look made for each key not seen before."""
        looks = self.looks
        rows, missing = looks.rows_of(keys)
        if missing.any():
            where = np.flatnonzero(missing)
            distinct, first = np.unique(keys[where], return_index=True)
            distinct = distinct.tolist()
            looks.know(distinct, self._rows(distinct, Paragraph(0, 0, cut), where[first]))
            rows, _ = looks.rows_of(keys)
        return rows

    def _wrap(self, par: Paragraph) -> None:
        """Lay out a paragraph (see textlooks.wrap); one ASCII byte repeated is laid
        out arithmetically."""
        n = len(par)
        if not n:
            par.spans = [(0, 0, par.start, par.start, 0)]
            return
        if n > 64 and self.arithmetic_runs and self._wrap_repeated(par):
            return
        if par.batch is None:    # cut on its own
            par.batch = textlooks.Batch(self, par.cut, [par.stop])
        textlooks.wrap(self, par)

    def _wrap_repeated(self, par: Paragraph) -> bool:
        """Lay out a paragraph that is one ASCII byte repeated (a page of NULs, a run of
        one letter) arithmetically: every line holds as many cells as the first. Gives
        exactly what the general loop gives (the same sums, the same break test); False
        when the paragraph is not such a run."""
        n = len(par)
        if par.end - par.start != n:     # not all units one byte: no run of one byte
            return False
        value = int(par.vals[0])
        if (par.kinds[0] != C_VALID or par.lens[0] != 1 or value in (CR, LF, SPACE, TAB)
                or int(par.offs[-1]) + int(par.lens[-1]) - int(par.offs[0]) != n):
            return False
        data = self.document.read(int(par.offs[0]), n)
        if len(data) != n or data.count(data[:1]) != n:
            return False
        # One ASCII byte: every unit's warnings are the dialect's table entry for it (a
        # warning that depends on place, a BOM at the start, is never ASCII).
        if par.warns[-1] is not par.warns[0]:
            return False
        key = value
        r = self._rows([key], par, np.zeros(1, dtype=np.int64))[0]
        looks = self.looks
        text, mode, w = looks.text[r], MODES[looks.mode[r]], float(looks.width[r])
        if w < 0 or mode == LINE_END:
            return False
        limit = self.wrap_width if self.wrap_width and self.wrap_width > 0 else None
        # Cells per line, by the general loop's own test.
        line = [0.0]
        x = w
        while len(line) < n and not (limit is not None and x + w > limit + 1e-9):
            line.append(x)
            x += w
        k = len(line)
        full_width = x   # the sum after k cells, as the general loop computes it
        xs = (line * (n // k + 1))[:n]
        spans = []
        offs = par.offs
        for ls in range(0, n, k):
            le = min(ls + k, n)
            width = full_width if le - ls == k else line[le - ls - 1] + w
            spans.append((ls, le, int(offs[ls]), int(offs[le - 1]) + 1, width))
        par._xs, par._widths, par._texts, par._modes = xs, [w] * n, [text] * n, [mode] * n
        par.wrap_xs, par.wrap_widths = np.array(xs, dtype=np.float64), np.full(n, w)
        par.looks = looks
        par.rows = np.full(n, r, dtype=np.int64)
        par.spans = spans
        par.repeated = key
        return True

    # ----------------------------------------------------------------- lines
    def line_at(self, offset: int) -> Line:
        """The visual line holding byte ``offset`` (clamped into the file)."""
        size = self.size
        offset = max(0, min(offset, max(size - 1, 0)))
        par = self.paragraph_at(offset)
        spans = par.spans
        # Binary search on the lines' starts.
        lo, hi = 0, len(spans) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if spans[mid][2] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return par.line(lo)

    def line_start(self, offset: int) -> int:
        """First byte of the visual line holding ``offset``: the top for an anchor."""
        return self.line_at(offset).start

    top_for_anchor = line_start

    def next_line(self, line: Line) -> Line | None:
        par = line.paragraph
        if line.index + 1 < len(par.spans):
            return par.line(line.index + 1)
        if par.end >= self.size:
            return None
        return self.paragraph(par.end).line(0)

    def previous_line(self, line: Line) -> Line | None:
        par = line.paragraph
        if line.index > 0:
            return par.line(line.index - 1)
        if par.start <= 0:
            return None
        return self.paragraph_at(par.start - 1).line(-1)

    def step(self, line: Line, count: int) -> Line:
        """The line ``count`` lines below (negative: above), stopping at either end."""
        if count >= 0:
            for _ in range(count):
                nxt = self.next_line(line)
                if nxt is None:
                    break
                line = nxt
        else:
            for _ in range(-count):
                prev = self.previous_line(line)
                if prev is None:
                    break
                line = prev
        return line

    def lines_from(self, start_offset: int, count: int) -> list[Line]:
        """Up to ``count`` lines, the first being the one holding ``start_offset``."""
        out: list[Line] = []
        if count <= 0:
            return out
        line: Line | None = self.line_at(start_offset)
        while line is not None and len(out) < count:
            out.append(line)
            line = self.next_line(line)
        return out

    def last_top(self, visible_lines: int) -> int:
        """The top line start that shows the file's last line at the bottom."""
        last = self.line_at(self.size - 1)
        return self.step(last, -(max(1, visible_lines) - 1)).start

    # ----------------------------------------------------------------- positions
    def position(self, offset: int) -> tuple[Line, float]:
        """(visual line, x) of the unit holding ``offset``."""
        line = self.line_at(offset)
        cell = line.cell_at_offset(offset)
        return line, (cell.x if cell is not None else line.width)

    def offset_at(self, line: Line, x: float) -> int:
        """The unit under ``x`` on ``line`` (the nearest at either end)."""
        cells = line.cells
        if not cells:
            return line.start
        # Shaped text (a right-to-left run) need not go left to right: the cell under x.
        for c in cells:
            if c.x <= x < c.x + c.width:
                return c.offset
        if x < cells[0].x:
            return cells[0].offset
        for c in cells:
            if x < c.right:
                return c.offset
        return cells[-1].offset

    def cells_in(self, line: Line, start: int, end: int) -> list[Cell]:
        """Cells of ``line`` whose unit overlaps bytes [start, end)."""
        return [c for c in line.cells if c.unit.offset < end and c.unit.end > start]
