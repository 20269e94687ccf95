"""Painting the text pane by runs.

:class:`TextPainter` draws the page its view lays out: each line's text as one shaped
``QTextLayout`` (:mod:`~inspector.gui.panes.textplan`), except plain lines (left to
right, one main-font glyph per character), whose glyphs are one ``QGlyphRun`` per colour
for the page on points kept on the character grid; and over it, for the whole page
at once, the problems' fills as one ``drawRects`` per colour and their U+FFFD glyphs and
marks as one ``QGlyphRun`` per colour; boxes are small pictures, one per look, tiled over
a run of equal ones. Then the selection, find matches, the origin and sync markers, and
the cursor. The page without its cursor is kept as one picture while what it shows
stays the same.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGlyphRun, QPainter, QPen, QPixmap, QPolygonF, QRawFont

from inspector.core.units import kinds as K
from inspector.gui.look import paintarrays, style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes import textplan as TP
from inspector.gui.panes.textplan import PAD_X, PAD_Y, QtMetrics
from inspector.gui.panes.textplan import LinePlan


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b`` (for subtle, palette-derived tints)."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


class _Look:
    """Colours by plan key, the text formats and the fonts, resolved once per palette
    and font."""

    def __init__(self, pal, metrics: QtMetrics):
        self.palette = pal
        self.metrics = metrics
        self.key = (pal.theme, id(pal), id(metrics))
        self.font = metrics.font
        self.small_font = metrics.small_font
        self.small_ascent = metrics.small.ascent()
        text_color = pal.color("text")
        # Colours by the plan's keys: text, warning, multibyte tints (subtle: the text
        # colour moved towards the length role's colour), muted marks.
        self.colors = {"text": text_color, "warning": pal.color("warning"),
                       "muted": pal.color("muted_text"), "lost": pal.color("origin")}
        for role in style.MULTI_ROLES:
            self.colors[role] = _blend(text_color, pal.color(role), 0.75)
        for kind in K.ERROR_KINDS:
            self.colors[kind] = pal.color(kind)
        self.formats = TP.text_formats(self.colors)
        self.text_colors = [self.colors[k] for k in TP.TEXT_KEYS]
        self.problem_colors = [self.colors.get(k, text_color) for k in TP.PROBLEM_KEYS]
        self.sel_fill = pal.color("selection")
        self.fill_colors = {"error": pal.color("error_fill"), "lost": pal.color("lost"),
                            "warning": pal.color("warning_fill")}
        # The glyphs problems are drawn with: U+FFFD in the main font, marks in the small.
        self.raw = QRawFont.fromFont(self.font)
        self.small_raw = QRawFont.fromFont(self.small_font)
        got = self.raw.glyphIndexesForString(TL.REPLACEMENT_CHAR)
        self.fffd = got[0] if len(got) == 1 and self.raw.supportsCharacter(0xFFFD) else 0
        self.fffd_width = metrics.text_width(TL.REPLACEMENT_CHAR)
        self._marks: dict = {}

    def mark_glyphs(self, mark: str) -> tuple[list[int], list[float]]:
        """A problem mark in the small font: its glyph indexes and their x offsets."""
        got = self._marks.get(mark)
        if got is None:
            glyphs = list(self.small_raw.glyphIndexesForString(mark))
            xs, x = [], 0.0
            for adv in self.small_raw.advancesForGlyphIndexes(glyphs):
                xs.append(x)
                x += adv.x()
            got = self._marks[mark] = (glyphs, xs)
        return got


def _add_fills(fills: dict, name: str, mask, x, w, ys, dims, lh: float) -> None:
    """Rectangles over entries ``mask`` (x from the left margin, width, line y), by
    fill and dimming; entries side by side on a line are one rectangle."""
    for dim in (0, 1):
        m = np.flatnonzero(mask & (dims == dim))
        if not len(m):
            continue
        order = np.lexsort((x[m], ys[m]))
        fx, fw, fy = x[m][order], w[m][order], ys[m][order]
        right = fx + fw
        joined = np.r_[False, (fy[1:] == fy[:-1]) & (np.abs(fx[1:] - right[:-1]) < 1e-6)]
        heads = np.flatnonzero(~joined)
        tails = np.r_[heads[1:], len(fx)] - 1
        fills.setdefault((name, bool(dim)), []).extend(
            QRectF(PAD_X + a, b + 1, c, lh - 2)
            for a, b, c in zip(fx[heads].tolist(), fy[heads].tolist(),
                               (right[tails] - fx[heads]).tolist()))


def _objects(items: list) -> np.ndarray:
    return np.fromiter(items, dtype=object, count=len(items))


class _PointGrid:
    """Glyph positions on the page's character grid, as QPointF objects made once per
    geometry and offset: a glyph placed on it takes an existing point instead of a new
    Python object per glyph and page (the hex pane's grid does the same). Boxes and
    problems are whole characters wide (textplan.QtMetrics.to_grid), so on plain lines
    every place is on it; places off it (after right-to-left text) get new points.
    A point costs about 230 bytes: only the glyphs' and the one-glyph marks' offsets are
    kept (two tables, some 6,500 points each at 1920x1080: ~3 MB)."""

    def __init__(self, step: float, lh: float):
        self.step = step
        self.lh = lh
        self._tables: dict = {}      # key -> object array [rows, columns]

    def _table(self, key, rows: int, cols: int, make) -> np.ndarray:
        arr = self._tables.get(key)
        if arr is None or arr.shape[0] < rows or arr.shape[1] < cols:
            rows = max(rows, arr.shape[0] if arr is not None else 0)
            cols = max(cols, arr.shape[1] if arr is not None else 0) + 8
            arr = np.empty((rows, cols), dtype=object)
            for r in range(rows):
                arr[r, :] = _objects([make(r, c) for c in range(cols)])
            if len(self._tables) > 2:
                self._tables.clear()
            self._tables[key] = arr
        return arr

    def _cells(self, x: np.ndarray, y: np.ndarray):
        """Each entry's column and row, and whether it is on the grid."""
        col = np.rint((x - PAD_X) / self.step).astype(np.int64)
        row = np.rint((y - PAD_Y) / self.lh).astype(np.int64)
        on = (np.abs(PAD_X + col * self.step - x) < 1e-6) & (col >= 0) & (row >= 0) \
            & (np.abs(PAD_Y + row * self.lh - y) < 1e-6)
        return col, row, on

    def _pick(self, out: np.ndarray, mask, key, make, col, row) -> None:
        if mask.any():
            table = self._table(key, int(row[mask].max()) + 1, int(col[mask].max()) + 1, make)
            out[mask] = table[row[mask], col[mask]]

    def points(self, x: np.ndarray, y: np.ndarray, dx: float, dy: float) -> list:
        """QPointF(x + dx, y + dy) for each x (from the viewport's left) and line top y."""
        step, lh = self.step, self.lh
        col, row, on = self._cells(x, y)
        out = np.empty(len(x), dtype=object)
        self._pick(out, on, ("point", dx, dy),
                   lambda r, c: QPointF(PAD_X + c * step + dx, PAD_Y + r * lh + dy), col, row)
        off = ~on
        if off.any():
            out[off] = _objects([QPointF(a + dx, b + dy)
                                 for a, b in zip(x[off].tolist(), y[off].tolist())])
        return out.tolist()


class TextPainter:
    """Paints one :class:`~inspector.gui.panes.textview.TextView`'s viewport. The view
    says which lines are shown; the document says what is selected, found, and where
    decoding starts and is back in step."""

    def __init__(self, view):
        self.view = view
        # The last page without its cursor, and what it showed (see paint).
        self._page_picture: QPixmap | None = None
        self._spare_picture: QPixmap | None = None
        self._page_key = None
        self._page_ids: list = []      # (paragraph, line) of each row of the picture
        self._page_static = None       # what else the picture depends on
        self._look_cache: _Look | None = None
        self._box_cache: dict = {}
        self._metrics: QtMetrics | None = None
        self._line_height = 0
        self._ascent = 0.0
        self._grid: _PointGrid | None = None
        self._last_plan = None         # (what it was made for, the last page plan)
        self._problem_pictures: dict = {}   # a problem's look -> its picture
        self._problem_pictures_for = None

    def set_metrics(self, metrics: QtMetrics, line_height: int, ascent: float) -> None:
        """The view's font changed: measures to draw with (box pictures are remade)."""
        self._metrics = metrics
        self._line_height = line_height
        self._ascent = ascent
        self._box_cache = {}
        self._grid = _PointGrid(metrics.text_width(" "), line_height)

    def forget_images(self) -> None:
        self._page_picture = self._spare_picture = None

    def paint(self, p: QPainter, lines: list[TL.Line], top: int) -> None:
        """The viewport showing ``lines``, the first of them starting at byte ``top``
        (an empty file shows a note instead)."""
        view = self.view
        pal = style.Palette.current()
        doc = view.document
        rect = view.viewport().rect()
        background = pal.color("background")
        if doc.size == 0:
            p.fillRect(rect, background)
            p.setPen(pal.color("muted_text"))
            p.drawText(QRectF(rect), Qt.AlignmentFlag.AlignCenter, "(empty file)")
            return
        m = self._metrics
        lh = self._line_height
        cursor = doc.cursor
        sel_start, sel_end = doc.selection
        origin = doc.origin
        rs = doc.resync()
        lost_end = rs.sync_offset if rs is not None else None
        look = self._look_for(pal)
        ratio = view.devicePixelRatioF()
        # The page without its cursor is one picture, kept while what it shows stays:
        # a repaint of the window, or a cursor move within the page, is a copy.
        first = lines[0].start if lines else 0
        last = lines[-1].end if lines else 0
        key = (view.text_layout.generation, top, first, last, rect.width(), rect.height(),
               ratio, look.key, (sel_start, sel_end) if sel_end > sel_start else None,
               origin, lost_end, tuple(doc.matches_in(first, last)),
               tuple((f.start, f.end) for f in doc.findings_in(first, last)))
        if self._page_picture is None or key != self._page_key:
            size = (max(1, math.ceil(rect.width() * ratio)),
                    max(1, math.ceil(rect.height() * ratio)))
            pm = self._spare_picture
            if pm is None or (pm.width(), pm.height()) != size:
                pm = QPixmap(*size)
            self._spare_picture = None
            pm.setDevicePixelRatio(ratio)
            pm.fill(background)
            ids = [(ln.paragraph.start, ln.index) for ln in lines]
            static = key[:1] + key[4:11] if not key[11] and not key[12] else None
            q = QPainter(pm)
            try:
                rows = self._reuse_rows(q, ids, static, rect.height(), ratio)
                todo = [r for r in range(len(lines)) if r not in rows]
                self._paint_lines(q, [lines[r] for r in todo], look, background, sel_start,
                                  sel_end, origin, lost_end, todo)
            finally:
                q.end()
            # The picture replaced is the next one's canvas (no new 3 MB a page).
            self._spare_picture, self._page_picture = self._page_picture, pm
            self._page_key = key
            self._page_ids, self._page_static = ids, static
        p.drawPixmap(0, 0, self._page_picture)

        # The cursor: a box around its unit's cells (a caret bar too when focused).
        focused = view.hasFocus()
        for row, line in enumerate(lines):
            if not line.start <= cursor < line.end:
                continue
            plan = self._plan(line, lost_end, origin, look)
            i = int(np.searchsorted(plan.offsets, cursor, side="right")) - 1
            if i >= 0 and plan.ends[i] > cursor:
                y = PAD_Y + row * lh
                x = float(plan.xs[i])
                w = float(plan.rights[i]) - x
                w = w if w > 0 else m.char_width * 0.5
                cur = pal.color("cursor")
                pen = QPen(cur)
                pen.setWidthF(1.5 if focused else 1.0)
                if not focused:
                    pen.setStyle(Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(PAD_X + x - 0.5, y + 0.5, w + 1, lh - 1))
                if focused:
                    p.fillRect(QRectF(PAD_X + x - 1, y, 2, lh), cur)
            break

    def _reuse_rows(self, q: QPainter, ids: list, static, height: int, ratio: float) -> set:
        """After a scroll by a few lines, the rows the last page picture already shows
        (same lines, same look, no matches or findings), copied into place: a wheel step
        draws only the lines it brings in. The rows it copied."""
        old = self._page_picture
        if old is None or static is None or static != self._page_static or not ids:
            return set()
        old_ids = self._page_ids
        lh = self._line_height
        full = int((height - PAD_Y) // lh)     # rows the old picture shows whole
        where = {v: i for i, v in enumerate(old_ids[:full])}
        if ids[0] in where:
            k = where[ids[0]]                  # new row r is old row r + k
        else:
            k = None
            for r, v in enumerate(ids[:full]):
                if v == old_ids[0]:
                    k = -r
                    break
            if k is None:
                return set()
        rows = [r for r in range(min(len(ids), full))
                if 0 <= r + k < min(len(old_ids), full) and ids[r] == old_ids[r + k]]
        if not rows or k == 0 and len(rows) < len(ids):
            return set()
        a, b = rows[0], rows[-1] + 1
        if rows != list(range(a, b)):
            return set()
        width = old.width() / ratio
        q.drawPixmap(QRectF(0, PAD_Y + a * lh, width, (b - a) * lh), old,
                     QRectF(0, (PAD_Y + (a + k) * lh) * ratio, old.width(), (b - a) * lh * ratio))
        return set(rows)

    def _paint_lines(self, p: QPainter, lines, look: _Look, background: QColor,
                     sel_start: int, sel_end: int, origin, lost_end,
                     row_numbers: list | None = None) -> None:
        """The page's lines, matches and origin and sync markers (not the cursor): the
        selection bands and fills first, each line's shaped text, then the problems'
        glyphs and marks by colour for the whole page, the boxes, the overlays."""
        pal = look.palette
        lh = self._line_height
        ascent = self._ascent
        if not lines:
            return
        row_numbers = row_numbers if row_numbers is not None else list(range(len(lines)))
        page = self._page_plan(lines, lost_end, origin, look)
        plans = page.lines
        selecting = sel_end > sel_start
        fills: dict = {}      # (fill colour key, dim) -> [QRectF]
        problems = None       # the problems' arrays (see _draw_problems)
        rows = []
        for row, line, plan in zip(row_numbers, lines, plans):
            y = PAD_Y + row * lh
            dim = origin is not None and line.start < origin
            selected = selecting and line.start < sel_end and line.end > sel_start
            rows.append((y, dim, selected))
            if selected:
                span = self._cells_span(plan, sel_start, sel_end)
                if span is not None:
                    p.setOpacity(0.45 if dim else 1.0)
                    p.fillRect(QRectF(PAD_X + span[0], y, span[1] - span[0], lh), look.sel_fill)
        row_y = np.array([r[0] for r in rows], dtype=np.float64)
        row_dim = np.array([r[1] for r in rows], dtype=np.int64)
        row_sel = np.array([r[2] for r in rows], dtype=bool)
        # Fills and problems for the whole page at once, from its arrays.
        if len(page.p_x):
            at = page.p_line
            off = page.p_off
            sel = row_sel[at] & (off >= sel_start) & (off < sel_end) if selecting else \
                np.zeros(len(off), dtype=bool)
            problems = (page.p_x, row_y[at], page.p_key, page.p_n, page.p_w, sel, row_dim[at])
        if len(page.w_x):
            x, w, off, at = page.w_x, page.w_w, page.w_off, page.w_line
            keep = ~(row_sel[at] & (off >= sel_start) & (off < sel_end)) if selecting else \
                np.ones(len(x), dtype=bool)
            _add_fills(fills, "warning", keep, x, w, row_y[at], row_dim[at], lh)
        for (name, dim), rects in fills.items():
            if rects:
                p.setOpacity(0.45 if dim else 1.0)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(look.fill_colors[name])
                p.drawRects(rects)
        p.setBrush(Qt.BrushStyle.NoBrush)

        # Text: the page's glyphs, one glyph run per font and colour; each shaped
        # segment's layout (what has no colour range is in the text colour).
        p.setPen(look.colors["text"])
        for (y, dim, _), segments in zip(rows, page.segments):
            if segments:
                p.setOpacity(0.45 if dim else 1.0)
                for tl, x, seg_ascent, _ in segments:
                    tl.draw(p, TP.baseline_point(seg_ascent, PAD_X + x, y, ascent))
        p.setOpacity(1.0)
        self._draw_plain(p, look, page, row_y, row_dim)

        # Problems: a picture per look (fill, U+FFFD glyphs, mark).
        if problems is not None:
            self._draw_problems(p, look, *problems)

        # Boxes: a picture per look, those of one look in one call.
        if len(page.b_x):
            at = page.b_line
            off = page.b_off
            sel = row_sel[at] & (off >= sel_start) & (off < sel_end) if selecting else \
                np.zeros(len(off), dtype=bool)
            self._draw_boxes(p, page, row_y[at], row_dim[at], sel, pal)
        self._paint_overlays(p, lines, plans, look, origin, lost_end, row_numbers)

    def _draw_plain(self, p: QPainter, look: _Look, page, row_y, row_dim) -> None:
        """The page's glyphs (see textplan.make_plans), one glyph run per font, colour
        and dimming."""
        if not len(page.g_x):
            return
        glyphs = page.g_glyph
        xs = page.g_x + PAD_X
        ys = row_y[page.g_line]
        codes = len(look.text_colors)
        keys = (page.g_font * codes + page.g_code) * 2 + row_dim[page.g_line]
        raws = self._metrics.fallback.raws
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        cuts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
        heads = np.concatenate(([0], cuts)).tolist()
        tails = np.concatenate((cuts, [len(keys)])).tolist()
        glyphs = glyphs[order]
        points = self._grid.points(xs[order], ys[order], 0.0, self._ascent)
        glyph_list = glyphs.tolist()
        for h, t in zip(heads, tails):
            key = int(keys[h])
            run = QGlyphRun()
            run.setRawFont(raws[(key >> 1) // codes])
            run.setGlyphIndexes(glyph_list[h:t])
            run.setPositions(points[h:t])
            p.setOpacity(0.45 if key & 1 else 1.0)
            p.setPen(look.text_colors[(key >> 1) % codes])
            p.drawGlyphRun(QPointF(0, 0), run)
        p.setOpacity(1.0)

    def _draw_problems(self, p: QPainter, look: _Look, x, y, key, n, w, selected, dims) -> None:
        """Every problem (left edge ``x``, line top ``y``, colour ``key``, ``n``
        replacements, width ``w``; ``selected``: no fill, the selection's shows) as the
        picture of its look: its fill, its U+FFFD glyphs side by side and its mark, made
        once per look; the problems of one look and dimming in one drawPixmapFragments
        call from numpy (paintarrays)."""
        pictures = self._problem_pictures
        made_for = (look.key, self._line_height, self.view.devicePixelRatioF())
        if self._problem_pictures_for != made_for:
            pictures.clear()
            self._problem_pictures_for = made_for
        ratio = made_for[2]
        # A picture goes on a whole device pixel: what it shows is drawn at the
        # problem's fraction of one (in quarters, as Qt places glyphs), so its glyphs
        # sit where a glyph run would put them.
        device = (x + PAD_X) * ratio
        whole = np.floor(device)
        quarter = np.rint((device - whole) * 4).astype(np.int64)
        whole += quarter == 4
        quarter[quarter == 4] = 0
        # The problems by look and dimming: one call each.
        order = np.lexsort((quarter, selected, w, n, key, dims))
        fields = (dims[order], key[order], n[order], w[order], selected[order], quarter[order])
        heads, tails = _runs(fields)
        left = whole[order] / ratio
        top = y[order]
        groups = [tuple(f[h].item() for f in fields) for h in heads]
        looks = {g[1:5] + (g[5] / (4 * ratio),) for g in groups}
        new = looks.difference(pictures)
        if len(pictures) + len(new) > 2048:
            pictures.clear()
            new = looks
        for look_key in new:
            pictures[look_key] = self._render_problem(look, *look_key)
        frags = _whole_pictures(len(order), ratio)
        _draw_dimmed(p, ((dim, frags[h:t], left[h:t], top[h:t],
                          pictures[(k, c, width, sel, q / (4 * ratio))])
                         for (dim, k, c, width, sel, q), h, t in zip(groups, heads, tails)),
                     ratio)

    def _draw_boxes(self, p: QPainter, page, y, dims, selected, pal) -> None:
        """The page's boxes (see textplan.PagePlan), each the picture of its look on the
        device pixel nearest its place, those of one look, selection and dimming in one
        drawPixmapFragments call from numpy (paintarrays)."""
        lh = self._line_height
        ratio = self.view.devicePixelRatioF()
        row, warned = page.b_row, page.b_warned
        order = np.lexsort((selected, warned, row, dims))
        fields = (dims[order], row[order], warned[order], selected[order])
        heads, tails = _runs(fields)
        left = np.floor((page.b_x[order] + PAD_X) * ratio + 0.5) / ratio
        top = y[order]
        widths = page.b_w[order]
        labels = self.view.text_layout.looks.text
        frags = _whole_pictures(len(order), ratio)

        def boxes():
            for h, t in zip(heads, tails):
                dim, r, warn, sel = (f[h].item() for f in fields)
                pm = self._box_picture((labels[r], float(widths[h]), warn, sel), lh, pal)
                yield dim, frags[h:t], left[h:t], top[h:t], pm

        _draw_dimmed(p, boxes(), ratio)

    def _render_problem(self, look: _Look, key: int, count: int, width: float,
                        selected: bool, shift: float) -> QPixmap:
        """The picture of a problem: its fill (none when selected), ``count`` U+FFFD
        glyphs in its kind's colour and its kind's mark after them in the small font,
        all ``shift`` pixels right of the picture's left edge."""
        lh = self._line_height
        pm = style.clear_picture(width + 1, lh, self.view.devicePixelRatioF())
        q = QPainter(pm)
        try:
            q.translate(shift, 0)
            if not selected:
                q.fillRect(QRectF(0, 1, width, lh - 2),
                           look.fill_colors["lost" if key == TP.LOST else "error"])
            q.setPen(look.problem_colors[key])
            step = look.fffd_width
            if look.fffd:
                run = QGlyphRun()
                run.setRawFont(look.raw)
                run.setGlyphIndexes([look.fffd] * count)
                run.setPositions([QPointF(k * step, self._ascent) for k in range(count)])
                q.drawGlyphRun(QPointF(0, 0), run)
            else:
                q.setFont(look.font)
                q.drawText(QPointF(0, self._ascent), TL.REPLACEMENT_CHAR * count)
            mark = "" if key == TP.LOST else TP.MARKS[key]
            glyphs, offsets = look.mark_glyphs(mark) if mark else ([], [])
            if glyphs:
                run = QGlyphRun()
                run.setRawFont(look.small_raw)
                run.setGlyphIndexes(glyphs)
                run.setPositions([QPointF(count * step + 0.5 + d, look.small_ascent)
                                  for d in offsets])
                q.drawGlyphRun(QPointF(0, 0), run)
        finally:
            q.end()
        return pm

    def _paint_overlays(self, p: QPainter, lines, plans, look: _Look, origin, lost_end,
                        row_numbers: list) -> None:
        """Find matches, findings, the origin and the sync point, over the lines."""
        if not lines:
            return
        doc = self.view.document
        pal = look.palette
        lh = self._line_height
        first, last = lines[0].start, lines[-1].end
        matches = doc.matches_in(first, last)
        findings = doc.findings_in(first, last)
        if not matches and not findings and origin is None:
            return
        origin_color = look.colors["lost"]
        sync_color = pal.color("sync")
        match_edge = pal.color("match")
        match_fill = QColor(match_edge)
        match_fill.setAlpha(110)
        match_edge = match_edge.darker(140)
        finding_pen = QPen(pal.color("finding"))
        finding_pen.setWidthF(1.5)
        finding_mark = pal.color("finding_mark")
        for row, line, plan in zip(row_numbers, lines, plans):
            y = PAD_Y + row * lh
            # Find matches: a translucent band over their cells, on top of the line.
            for m0, m1 in doc.matches_in(line.start, line.end) if matches else ():
                band = self._cells_span(plan, m0, m1)
                if band is not None:
                    p.fillRect(QRectF(PAD_X + band[0], y, band[1] - band[0], lh), match_fill)
                    p.setPen(match_edge)
                    p.drawRect(QRectF(PAD_X + band[0], y + 0.5, band[1] - band[0], lh - 1))
            # Findings: an outline round their cells and a mark in the left margin.
            for f in doc.findings_in(line.start, line.end) if findings else ():
                band = self._cells_span(plan, f.start, f.end)
                if band is not None:
                    p.fillRect(QRectF(0, y + 1, 3, lh - 2), finding_mark)
                    p.setPen(finding_pen)
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawRect(QRectF(PAD_X + band[0] - 1, y + 1, band[1] - band[0] + 2, lh - 2))
            # The origin and the point where decoding is back in step.
            if origin is not None:
                if line.start == origin:
                    self._paint_marker(p, PAD_X - 3, y, lh, origin_color, flag=True)
                if lost_end is not None and lost_end > origin and line.start <= lost_end < line.end:
                    i = int(np.searchsorted(plan.offsets, lost_end, side="right")) - 1
                    if i >= 0 and plan.ends[i] > lost_end:
                        self._paint_marker(p, PAD_X + float(plan.xs[i]) - 1, y, lh, sync_color,
                                           flag=False)

    def _look_for(self, pal) -> _Look:
        """The paint's colours and fonts for this palette (made once per palette)."""
        look = self._look_cache
        if look is None or look.palette is not pal or look.metrics is not self._metrics:
            look = self._look_cache = _Look(pal, self._metrics)
        return look

    def _cells_span(self, plan: LinePlan, start: int, end: int):
        """The x range (left, right) of the line's cells that hold bytes [start, end),
        or None when none of them is on this line."""
        offsets = plan.offsets
        i = max(0, int(np.searchsorted(offsets, start, side="right")) - 1)
        if i < len(offsets) and plan.ends[i] <= start:
            i += 1
        j = int(np.searchsorted(offsets, end, side="left"))
        if i >= j:
            return None
        left = float(plan.xs[i:j].min())
        right = max(float(plan.rights[i:j].max()),
                    float(plan.xs[j - 1]) + self._metrics.char_width * 0.5)
        return left, right

    def plan_for(self, line: TL.Line) -> LinePlan:
        """The plan of a shown line (for tests and hit tests)."""
        doc = self.view.document
        rs = doc.resync()
        return self._plan(line, rs.sync_offset if rs is not None else None, doc.origin,
                          self._look_for(style.Palette.current()))

    def _plan(self, line: TL.Line, lost_end, origin, look: _Look) -> LinePlan:
        """The plan of one shown line (the paragraph keeps the last one made)."""
        key = ("plans", look.key, lost_end, origin)
        plans = line.paragraph.extra.get(key)
        plan = plans.get(line.index) if plans is not None else None
        if plan is None:
            plan = self._page_plan([line], lost_end, origin, look).lines[0]
        return plan

    def _page_plan(self, lines: list, lost_end, origin, look: _Look) -> TP.PagePlan:
        """What to draw for ``lines``, worked out together (see textplan.make_plans);
        the last one is kept while the same lines are drawn again (a selection), and
        each paragraph keeps its lines' plans for the cursor and hit tests."""
        key = ("plans", look.key, lost_end, origin)
        ids = (key, self.view.text_layout.generation,
               tuple((ln.paragraph, ln.index) for ln in lines))
        if self._last_plan is not None and self._last_plan[0] == ids:
            return self._last_plan[1]
        page = TP.make_plans(self.view.text_layout, lines, self._metrics, lost_end, origin,
                             look.formats)
        self._last_plan = (ids, page)
        for line, plan in zip(lines, page.lines):
            extra = line.paragraph.extra
            plans = extra.get(key)
            if plans is None:
                extra.clear()
                plans = extra[key] = {}
            plans[line.index] = plan
        return page

    def _box_picture(self, key, lh, pal) -> QPixmap:
        """The picture of one box look ``key`` (label, width, warned, selected): small
        tagged boxes for invisible characters, controls, U+XXXX for glyphs no font has,
        so hidden characters are seen and nothing turns into tofu. Boxes repeat (a file
        of zeros is all NUL boxes): each look is drawn once."""
        cache_key = key + (pal.theme, lh, self.view.devicePixelRatioF())
        pm = self._box_cache.get(cache_key)
        if pm is None:
            label, width, warned, selected = key
            pm = self._render_box(label, width, lh, warned, selected, pal)
            if len(self._box_cache) > 512:
                self._box_cache.clear()
            self._box_cache[cache_key] = pm
        return pm

    def _render_box(self, label, width, lh, warned, selected, pal) -> QPixmap:
        ratio = self.view.devicePixelRatioF()
        pm = style.clear_picture(width, lh, ratio)
        q = QPainter(pm)
        try:
            q.setRenderHint(QPainter.RenderHint.Antialiasing)
            edge = pal.color("warning") if warned else pal.color("muted_text")
            r = QRectF(1.5, 2.5, width - 3, lh - 5)
            q.setPen(QPen(edge, 1.0))
            if selected:
                q.setBrush(Qt.BrushStyle.NoBrush)
            else:
                q.setBrush(pal.color("warning_fill") if warned else pal.color("alternate_background"))
            q.drawRoundedRect(r, 2.5, 2.5)
            q.setFont(self._metrics.small_font)
            q.setPen(pal.color("warning") if warned else pal.color("text"))
            q.drawText(r, Qt.AlignmentFlag.AlignCenter, label)
        finally:
            q.end()
        return pm

    @staticmethod
    def _paint_marker(p, x, y, lh, color, flag: bool) -> None:
        p.fillRect(QRectF(x, y, 2, lh), color)
        if flag:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawPolygon(QPolygonF([QPointF(x, y), QPointF(x + 6, y), QPointF(x, y + 5)]))
            p.setBrush(Qt.BrushStyle.NoBrush)


def _whole_pictures(n: int, ratio: float) -> np.ndarray:
    """``n`` drawPixmapFragments rows (paintarrays) each drawing a whole picture of
    device pixel ``ratio`` at full opacity; places and sizes are set by :func:`_placed`."""
    frags = np.empty((n, paintarrays.FRAGMENT_FIELDS), dtype=np.float64)
    frags[:, 2:4] = 0.0
    frags[:, 6:8] = 1.0 / ratio
    frags[:, 8] = 0.0
    frags[:, 9] = 1.0
    return frags


def _placed(part: np.ndarray, left, top, pm: QPixmap, ratio: float) -> np.ndarray:
    """``part`` (rows of :func:`_whole_pictures`) drawing ``pm`` with its top left at
    (``left``, ``top``): a fragment is placed by its centre."""
    pw, ph = pm.width(), pm.height()
    part[:, 0] = left + pw / (2 * ratio)
    part[:, 1] = top + ph / (2 * ratio)
    part[:, 4] = pw
    part[:, 5] = ph
    return part


def _runs(fields) -> tuple[list[int], list[int]]:
    """Where the runs of equal rows of ``fields`` (sorted arrays of one length) begin
    and end."""
    n = len(fields[0])
    change = np.zeros(n, dtype=bool)
    change[0] = True
    for f in fields:
        change[1:] |= f[1:] != f[:-1]
    heads = np.flatnonzero(change).tolist()
    return heads, heads[1:] + [n]


def _draw_dimmed(p: QPainter, groups, ratio: float) -> None:
    """Each of ``groups`` (dimmed, rows of :func:`_whole_pictures`, lefts, tops, picture)
    drawn in one drawPixmapFragments call, the dimmed ones at lower opacity."""
    opacity = None
    for dim, part, left, top, pm in groups:
        if dim != opacity:
            opacity = dim
            p.setOpacity(0.45 if dim else 1.0)
        paintarrays.draw_fragments(p, _placed(part, left, top, pm, ratio), pm)
    p.setOpacity(1.0)
