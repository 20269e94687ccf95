"""Painting the text pane, and the pictures that keep a repaint cheap.

:class:`TextPainter` draws the page its view lays out: the lines from their plans
(:mod:`~inspector.gui.panes.textplan`), the selection, find matches, the origin and sync
markers, and the cursor. What it has drawn it keeps as pictures while what they show
stays the same: the page without its cursor, lines painted more than once (bounded in
pixels), one picture per look of a box and of a problem.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import OrderedDict

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (QColor, QPainter, QPen, QPixmap, QPolygonF, QStaticText, QTextLayout,
                           QTransform)

from inspector.core.units import kinds as K
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textmetrics import PAD_X, PAD_Y, QtMetrics
from inspector.gui.panes.textplan import LinePlan

MAX_LINE_ENTRIES = 4096       # lines remembered as painted (most without a picture)
MAX_STATIC_TEXTS = 4096       # short texts kept shaped (characters drawn one by one)
KEEP_SHAPED = True            # draw them from their kept shaping (same pixels: tested)


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b`` (for subtle, palette-derived tints)."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


class _Look:
    """Colours by plan key and the fonts, resolved once per palette and font."""

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
        self.sel_fill = pal.color("selection")
        self.fill_colors = {"error": pal.color("error_fill"), "lost": pal.color("lost"),
                            "warning": pal.color("warning_fill")}
        self.sprites: dict = {}    # problem pictures by what they show (problem_sprite)
        self._static: dict = {}
        self._met_once: set[str] = set()   # texts drawn once, without a kept shaping

    def static_text(self, text: str) -> tuple[QStaticText, float] | None:
        """``text`` shaped once in the main font, and its line's ascent (drawn with its
        top left at the baseline minus the ascent, it gives the pixels drawText at the
        baseline gives: a fallback font's glyphs set the line's ascent). The characters
        a line draws one by one (right-to-left and shaped scripts, wide punctuation,
        emoji) are a few dozen strings a page, each shaped by every drawText.

        None the first time ``text`` is asked for: keeping a shaping shapes it twice
        (the static text and the layout that gives the ascent), and on a page of random
        bytes most such characters are met once; drawText draws those."""
        got = self._static.get(text)
        if got is None:
            if text not in self._met_once:
                if len(self._met_once) >= MAX_STATIC_TEXTS:
                    self._met_once.clear()
                self._met_once.add(text)
                return None
            st = QStaticText(text)
            st.setTextFormat(Qt.TextFormat.PlainText)
            st.prepare(QTransform(), self.font)
            layout = QTextLayout(text, self.font)
            layout.beginLayout()
            line = layout.createLine()
            layout.endLayout()
            if len(self._static) >= MAX_STATIC_TEXTS:
                self._static.clear()
            got = self._static[text] = (st, line.ascent())
        return got

    def problem_sprite(self, text: str, mark: str, key: str, fill: str | None,
                       width: float, height: int, ascent: float, ratio: float,
                       shift: float) -> QPixmap:
        """A problem as one transparent picture: its fill (unless selected), its U+FFFD
        glyphs and its mark letter, laid out as drawing them one by one would (origin at
        1 + ``shift``, a fraction of a pixel). A page of random bytes is hundreds of
        these, few of them different: one picture each is far cheaper than a fill, a
        text and a small text."""
        cache_key = (text, mark, key, fill, width, height, ascent, ratio, shift)
        pm = self.sprites.get(cache_key)
        if pm is None:
            x0 = 1 + shift
            text_width = self.metrics.text_width(text)
            w = math.ceil(max(width, text_width + 0.5 + self.metrics.mark_width(mark))) + 4
            pm = style.clear_picture(w, height, ratio)
            q = QPainter(pm)
            try:
                if fill is not None:
                    q.fillRect(QRectF(x0, 1, width, height - 2), self.fill_colors[fill])
                q.setPen(self.colors[key])
                q.setFont(self.font)
                q.drawText(QPointF(x0, ascent), text)
                q.setFont(self.small_font)
                q.drawText(QPointF(x0 + text_width + 0.5, self.small_ascent), mark)
            finally:
                q.end()
            if len(self.sprites) > 1024:
                self.sprites.clear()
            self.sprites[cache_key] = pm
        return pm


class TextPainter:
    """Paints one :class:`~inspector.gui.panes.textview.TextView`'s viewport. The view
    says which lines are shown; the document says what is selected, found, and where
    decoding starts and is back in step."""

    def __init__(self, view):
        self.view = view
        # Finished pictures of lines, by (layout generation, paragraph, line, look,
        # width, pixel ratio), least recently drawn first; bounded in pixels.
        self.line_images: OrderedDict = OrderedDict()
        self.image_pixels = 0
        # The last page without its cursor, and what it showed (see paint).
        self._page_picture: QPixmap | None = None
        self._page_key = None
        self._look_cache: _Look | None = None
        self._box_cache: dict = {}
        self._metrics: QtMetrics | None = None
        self._line_height = 0
        self._ascent = 0.0

    def set_metrics(self, metrics: QtMetrics, line_height: int, ascent: float) -> None:
        """The view's font changed: measures to draw with (box pictures are remade)."""
        self._metrics = metrics
        self._line_height = line_height
        self._ascent = ascent
        self._box_cache = {}

    def forget_images(self) -> None:
        self.line_images.clear()
        self.image_pixels = 0
        self._page_picture = None

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
            pm = QPixmap(max(1, math.ceil(rect.width() * ratio)),
                         max(1, math.ceil(rect.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            pm.fill(background)
            q = QPainter(pm)
            try:
                self._paint_lines(q, lines, look, background, sel_start, sel_end, origin,
                                  lost_end)
            finally:
                q.end()
            self._page_picture, self._page_key = pm, key
        p.drawPixmap(0, 0, self._page_picture)

        # The cursor: a box around its unit's cells (a caret bar too when focused).
        focused = view.hasFocus()
        for row, line in enumerate(lines):
            if not line.start <= cursor < line.end:
                continue
            plan = self._plan(line, lost_end, origin)
            i = bisect_right(plan.offsets, cursor) - 1
            if i >= 0 and plan.ends[i] > cursor:
                y = PAD_Y + row * lh
                x = plan.xs[i]
                w = plan.rights[i] - x
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

    def _paint_lines(self, p: QPainter, lines, look: _Look, background: QColor,
                     sel_start: int, sel_end: int, origin, lost_end) -> None:
        """The page's lines, matches and origin and sync markers (not the cursor)."""
        view = self.view
        doc = view.document
        pal = look.palette
        lh = self._line_height
        width = view.viewport().width()
        ratio = view.devicePixelRatioF()
        generation = view.text_layout.generation
        images = self.line_images
        origin_color = look.colors["lost"]
        sync_color = pal.color("sync")
        match_edge = pal.color("match")
        match_fill = QColor(match_edge)
        match_fill.setAlpha(110)
        match_edge = match_edge.darker(140)
        finding_pen = QPen(pal.color("finding"))
        finding_pen.setWidthF(1.5)
        finding_mark = pal.color("finding_mark")
        for row, line in enumerate(lines):
            y = PAD_Y + row * lh
            dim = origin is not None and line.start < origin
            p.setOpacity(0.45 if dim else 1.0)
            selected = sel_end > sel_start and line.start < sel_end and line.end > sel_start
            par = line.paragraph
            if (par.repeated is not None and not selected
                    and (lost_end is None or line.end <= origin or line.start >= lost_end)):
                # A line of one byte repeated (a page of NULs) looks like every other
                # such line of its length: one picture for all of them, made on first
                # sight, and no plan unless a match or a marker needs one.
                key = ("repeated", generation, par.repeated, line.last - line.first,
                       look.key, width, ratio)
                pm = images.get(key)
                if pm is None:
                    pm = self._line_image(self._plan(line, lost_end, origin), look, width, ratio,
                                          background)
                    self._keep_image(key, pm)
                else:
                    images.move_to_end(key)
                p.drawPixmap(QPointF(0, y), pm)
                if (origin is None and not doc.matches_in(line.start, line.end)
                        and not doc.findings_in(line.start, line.end)):
                    continue
                plan = self._plan(line, lost_end, origin)
            elif selected:
                # A line under the selection is drawn directly: the selection band
                # goes beneath its text and hides the problem fills it covers.
                plan = self._plan(line, lost_end, origin)
                self._draw_line(p, plan, y, look, (sel_start, sel_end))
            else:
                # Otherwise a line painted again is a picture, made on its second
                # paint and reused while the layout, palette and width stay the same
                # (a scroll by a line redraws one line). Its first paint is direct:
                # after a jump most lines are new, and a picture costs more than
                # drawing once.
                plan = self._plan(line, lost_end, origin)
                key = (generation, par.start, line.index, look.key, width, ratio)
                if key not in images:
                    self._keep_image(key, None)
                    self._draw_line(p, plan, y, look, None)
                else:
                    pm = images[key]
                    if pm is None:
                        pm = self._line_image(plan, look, width, ratio, background)
                        self._keep_image(key, pm)
                    else:
                        images.move_to_end(key)
                    p.drawPixmap(QPointF(0, y), pm)

            # Find matches: a translucent band over their cells, on top of the line
            # (cached line pictures stay valid while the matches change).
            for m0, m1 in doc.matches_in(line.start, line.end):
                band = self._cells_span(plan, m0, m1)
                if band is not None:
                    p.setOpacity(1.0)
                    p.fillRect(QRectF(PAD_X + band[0], y, band[1] - band[0], lh), match_fill)
                    p.setPen(match_edge)
                    p.drawRect(QRectF(PAD_X + band[0], y + 0.5, band[1] - band[0], lh - 1))

            # Findings: an outline round their cells and a mark in the left margin.
            for f in doc.findings_in(line.start, line.end):
                band = self._cells_span(plan, f.start, f.end)
                if band is not None:
                    p.setOpacity(1.0)
                    p.fillRect(QRectF(0, y + 1, 3, lh - 2), finding_mark)
                    p.setPen(finding_pen)
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawRect(QRectF(PAD_X + band[0] - 1, y + 1, band[1] - band[0] + 2, lh - 2))

            # The origin and the point where decoding is back in step.
            if origin is not None:
                if line.start == origin:
                    p.setOpacity(1.0)
                    self._paint_marker(p, PAD_X - 3, y, lh, origin_color, flag=True)
                if lost_end is not None and lost_end > origin and line.start <= lost_end < line.end:
                    i = bisect_right(plan.offsets, lost_end) - 1
                    if i >= 0 and plan.ends[i] > lost_end:
                        self._paint_marker(p, PAD_X + plan.xs[i] - 1, y, lh, sync_color, flag=False)
        p.setOpacity(1.0)

    def _look_for(self, pal) -> _Look:
        """The paint's colours and fonts for this palette (made once per palette)."""
        look = self._look_cache
        if look is None or look.palette is not pal or look.metrics is not self._metrics:
            look = self._look_cache = _Look(pal, self._metrics)
        return look

    def _line_image(self, plan: LinePlan, look: _Look, width: int, ratio: float,
                    background: QColor) -> QPixmap:
        """One line drawn on its own opaque picture (the background baked in, so that
        drawing it, faded or not, gives what drawing the line directly would)."""
        lh = self._line_height
        pm = QPixmap(max(1, math.ceil(width * ratio)), max(1, math.ceil(lh * ratio)))
        pm.setDevicePixelRatio(ratio)
        pm.fill(background)
        q = QPainter(pm)
        try:
            self._draw_line(q, plan, 0.0, look, None)
        finally:
            q.end()
        return pm

    def _keep_image(self, key, pm: QPixmap | None) -> None:
        """Remember a line's picture, or (None) that the line was painted once."""
        images = self.line_images
        old = images.pop(key, None)
        if old is not None:
            self.image_pixels -= old.width() * old.height()
        images[key] = pm
        if pm is not None:
            self.image_pixels += pm.width() * pm.height()
        # About three screens of pictures: a repaint, small scrolls and a jump back
        # hit; a bound in pixels keeps a maximised pane's memory small (a few MiB).
        vp = self.view.viewport()
        ratio = self.view.devicePixelRatioF()
        budget = 3 * max(1, vp.width()) * max(1, vp.height()) * ratio * ratio
        while (self.image_pixels > budget or len(images) > MAX_LINE_ENTRIES) and len(images) > 1:
            _, old = images.popitem(last=False)
            if old is not None:
                self.image_pixels -= old.width() * old.height()

    def _cells_span(self, plan: LinePlan, start: int, end: int):
        """The x range (left, right) of the line's cells that hold bytes [start, end),
        or None when none of them is on this line."""
        offsets = plan.offsets
        i = max(0, bisect_right(offsets, start) - 1)
        if i < len(offsets) and plan.ends[i] <= start:
            i += 1
        j = bisect_left(offsets, end)
        if i >= j:
            return None
        right = max(plan.rights[j - 1], plan.xs[j - 1] + self._metrics.char_width * 0.5)
        return plan.xs[i], right

    def _draw_line(self, p: QPainter, plan: LinePlan, y: float, look: _Look,
                   selection) -> None:
        """Backgrounds, text, problem marks and boxes of one line, its top at ``y``."""
        lh = self._line_height
        colors = look.colors
        selected = None
        if selection is not None:
            # The selection is one band: its cells are consecutive.
            sel_start, sel_end = selection
            offsets = plan.offsets
            i = max(0, bisect_right(offsets, sel_start) - 1)
            if i < len(offsets) and plan.ends[i] <= sel_start:
                i += 1
            j = bisect_left(offsets, sel_end)
            span = self._cells_span(plan, sel_start, sel_end)
            if span is not None:
                selected = (offsets[i], plan.ends[j - 1])
                p.fillRect(QRectF(PAD_X + span[0], y, span[1] - span[0], lh), look.sel_fill)
        fill_colors = look.fill_colors
        for x, w, fill, off in plan.fills:
            if selected is not None and selected[0] <= off < selected[1]:
                continue
            p.fillRect(QRectF(PAD_X + x, y + 1, w, lh - 2), fill_colors[fill])
        ratio = p.device().devicePixelRatioF()
        # Problems (hundreds on a page of random bytes): the kept picture looked up
        # here, made by problem_sprite when missing; a whole y drawn as ints.
        ascent = self._ascent
        kept_sprites = look.sprites
        draw = p.drawPixmap
        whole_y = y.is_integer() if isinstance(y, float) else True
        int_y = int(y)
        floor = math.floor
        for x, w, text, mark, key, fill, off in plan.errors:
            if selected is not None and selected[0] <= off < selected[1]:
                fill = None   # the selection band shows beneath instead
            # The x as a whole pixel and the rest, to 1/64 (Qt's sub-pixel grid for
            # glyph positions): on a grid of one character width a line has few distinct
            # fractions, so a picture is kept for each. Written out here: a call per
            # problem is a noticeable share of a page of random bytes.
            left_x = PAD_X + x
            left = floor(left_x)
            shift = round((left_x - left) * 64) / 64
            if shift >= 1.0:
                left += 1
                shift = 0.0
            pm = kept_sprites.get((text, mark, key, fill, w, lh, ascent, ratio, shift))
            if pm is None:
                pm = look.problem_sprite(text, mark, key, fill, w, lh, ascent, ratio, shift)
            if whole_y:
                draw(left - 1, int_y, pm)
            else:
                draw(QPointF(left - 1, y), pm)

        # Text: runs of plain characters of one colour, each drawn as one string; a
        # short one (a character drawn alone) from its kept shaping, where the painter
        # is not scaled (a kept shaping is laid out for an unscaled painter).
        p.setFont(look.font)
        base = y + self._ascent
        pen_key = None
        kept = KEEP_SHAPED and ratio == 1.0 and p.worldTransform().isIdentity()
        static_text = look.static_text
        for x, text, key in plan.texts:
            if key != pen_key:
                p.setPen(colors[key])
                pen_key = key
            if kept and len(text) <= 2:
                shaped = static_text(text)
                if shaped is not None:
                    p.drawStaticText(QPointF(PAD_X + x, base - shaped[1]), shaped[0])
                    continue
            p.drawText(QPointF(PAD_X + x, base), text)
        pal = look.palette
        for label, width, warned, x, offsets_in_run in plan.boxes:
            if selected is not None and offsets_in_run[0] < selected[1] and \
                    offsets_in_run[-1] >= selected[0]:
                for k, off in enumerate(offsets_in_run):
                    box = (label, width, warned, selected[0] <= off < selected[1])
                    self._paint_boxes(p, box, PAD_X + x + k * width, y, 1, lh, pal)
            else:
                self._paint_boxes(p, (label, width, warned, False), PAD_X + x, y,
                                  len(offsets_in_run), lh, pal)

    def _plan(self, line: TL.Line, lost_end, origin) -> LinePlan:
        """What to draw for one line, worked out once per laid-out line (the paragraph
        keeps it) so a repaint is a few calls per line, not several per character."""
        par = line.paragraph
        plans = par.extra.get("plans")
        if plans is None:
            plans = par.extra["plans"] = {}
        plan = plans.get(line.index)
        if plan is None:
            plan = plans[line.index] = LinePlan(par, line.first, line.last, self._metrics,
                                                lost_end, origin)
        return plan

    def _paint_boxes(self, p, key, x, y, count, lh, pal) -> None:
        """``count`` identical small tagged boxes side by side: invisible characters,
        controls, U+XXXX for glyphs no font has, so hidden characters are seen and
        nothing turns into tofu. Boxes repeat (a file of zeros is all NUL boxes), so each
        look is drawn once into a pixmap and tiled."""
        label, width, warned, selected = key
        cache_key = key + (pal.theme, lh, self.view.devicePixelRatioF())
        pm = self._box_cache.get(cache_key)
        if pm is None:
            pm = self._render_box(label, width, lh, warned, selected, pal)
            if len(self._box_cache) > 512:
                self._box_cache.clear()
            self._box_cache[cache_key] = pm
        if count == 1:
            p.drawPixmap(QPointF(x, y), pm)
        else:
            p.drawTiledPixmap(QRectF(x, y, width * count, lh), pm)

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
