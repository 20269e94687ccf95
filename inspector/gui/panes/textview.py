"""The decoded-text pane: the file as a reader sees it, flowing and wrapped.

The pane never keeps its own copy of the cursor, the selection, the origin or the
dialect: it reads them from the :class:`~inspector.gui.document.Document`, paints, and
sends input back through the document's setters. The only state of its own is the
first byte of its top visual line, ``top``, which follows ``document.anchor`` when the
anchor changes and moves by itself (without writing the anchor) just enough to keep the
cursor visible, so that it and the hex view, which show different amounts of bytes,
never fight over the anchor. Scrolling this pane (wheel, scrollbar, Page Up/Down) does
write the anchor, so the hex view follows.

Layout is :class:`~inspector.gui.panes.textlayout.TextLayout`, which decodes only the
paragraphs around what is shown; the scrollbar maps to byte offsets in proportion,
because a 16 GiB file has far more lines than anyone can count.
"""

from __future__ import annotations

import math
import unicodedata
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from functools import lru_cache

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QAction, QColor, QFont, QFontDatabase, QFontMetricsF,
                           QGuiApplication, QKeySequence, QPainter, QPen, QPixmap, QPolygonF)
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSlider, QMenu, QToolTip, QWidget

from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import name as unicode_name
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL

SCROLL_STEPS = 10000          # scrollbar positions: the file is mapped in proportion
COPY_LIMIT = 16 << 20         # bytes decoded for "Copy text"
PAD_X = 6.0                   # left and right margin inside the viewport
PAD_Y = 2.0
SMALL_SCALE = 0.72            # boxes' labels and problem marks, relative to the font
WHEEL_LINES = 3
MAX_LINE_ENTRIES = 4096       # lines remembered as painted (most without a picture)


class QtMetrics:
    """Pixel widths for the layout, measured once per string with ``QFontMetricsF``."""

    def __init__(self, font: QFont, small_font: QFont):
        self.font = font
        self.small_font = small_font
        self.fm = QFontMetricsF(font)
        self.small = QFontMetricsF(small_font)
        self._widths: dict[str, float] = {}
        self.coverage = style.GlyphCoverage(font)
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
        """``width`` rounded up to whole character widths: boxes and problems keep the
        characters after them on the monospace grid, so that a line's letters of one
        colour are one string (see _LinePlan) even among errors and control boxes."""
        space = self.text_width(" ")
        if space <= 0:
            return width
        return math.ceil(width / space - 1e-6) * space

    def can_draw(self, cp: int) -> bool:
        """Whether any font (after Qt's fallback) has a glyph: otherwise U+XXXX is shown
        instead of an empty box."""
        return 0x20 <= cp < 0x7F or self.coverage.can_draw(chr(cp))


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b`` (for subtle, palette-derived tints)."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


@lru_cache(maxsize=4096)
def _runs_safely(ch: str) -> bool:
    """Characters that may be drawn as part of one string at the layout's positions:
    left-to-right scripts drawn one glyph per character (Latin, Greek, Cyrillic, and
    the CJK ideographs, kana and Hangul syllables), no combining marks, no
    right-to-left reordering, no shaping between neighbours."""
    cp = ord(ch)
    if cp < 0x0590:
        return not (0x0300 <= cp < 0x0370) and not unicodedata.combining(ch)
    return (0x3040 <= cp < 0x3100 or 0x3400 <= cp < 0x4DC0 or 0x4E00 <= cp < 0xA000
            or 0xAC00 <= cp < 0xD7A4)


class _LinePlan:
    """One line's drawing, by colour key (resolved against the palette at paint time,
    so a theme change needs no new plans). Built straight from the paragraph's per-unit
    arrays: no Cell objects are made for painting."""

    __slots__ = ("offsets", "ends", "xs", "rights", "fills", "texts", "boxes", "errors")

    def __init__(self, par: TL.Paragraph, first: int, last: int, metrics: "QtMetrics",
                 lost_end, origin):
        units = par.units[first:last]
        xs = par.xs[first:last]
        widths = par.widths[first:last]
        cell_texts = par.texts[first:last]
        modes = par.modes[first:last]
        self.offsets = offsets = [u.offset for u in units]
        self.ends = [u.offset + u.length for u in units]
        self.xs = xs
        self.rights = [x + w for x, w in zip(xs, widths)]
        self.fills: list[tuple] = []    # (x, width, "error" | "lost" | "warning", offset)
        self.texts: list[tuple] = []    # (x, text, colour key)
        self.boxes: list[list] = []     # [label, width, warned, x, [offsets]]
        # Problems: (x, width, U+FFFD text, mark, colour key, fill, offset), each drawn as
        # one picture (fill, glyphs, mark): a page of random bytes is mostly these.
        self.errors: list[tuple] = []
        n = len(units)
        if (n > 1 and modes.count(TL.BOX) == n and cell_texts.count(cell_texts[0]) == n
                and widths.count(widths[0]) == n):
            # A line of one box repeated (a page of NULs): the wrap placed them side
            # by side, so they are one run, as the loop below would find unit by unit.
            warned = [bool(u.warnings) for u in units]
            if warned.count(warned[0]) == n:
                self.boxes.append([cell_texts[0], widths[0], warned[0], xs[0], list(offsets)])
                return
        texts = self.texts
        fills = self.fills
        # Characters that run safely are gathered by colour into one string per colour:
        # what lies between two of them (other colours, drawn by their own strings) is
        # padded with spaces when it is a whole number of spaces wide, so a line of
        # mixed scripts is a few drawText calls, not one per change of colour.
        space = metrics.text_width(" ")
        pieces: dict = {}   # colour key -> [x, [parts], right end]
        TEXT, REPLACEMENT, BOX = TL.TEXT, TL.REPLACEMENT, TL.BOX
        role_for = style.role_for
        for u, x, width, text, mode in zip(units, xs, widths, cell_texts, modes):
            if mode == TEXT:
                warned = u.warnings
                key = "warning" if warned else (role_for(u) if u.length > 1 else "text")
                if warned:
                    fills.append((x, width, "warning", u.offset))
                if len(text) == 1 and _runs_safely(text):
                    piece = pieces.get(key)
                    if piece is not None:
                        if x == piece[2]:  # the next character of the run (most of them)
                            piece[1].append(text)
                            piece[2] = x + width
                            continue
                        gap = x - piece[2]
                        n = round(gap / space) if space > 0 else -1
                        if n >= 0 and abs(gap - n * space) < 0.01:
                            piece[1].append(" " * n + text if n else text)
                            piece[2] = x + width
                            continue
                        texts.append((piece[0], "".join(piece[1]), key))
                    pieces[key] = [x, [text], x + width]
                    continue
                texts.append((x, text, key))
                continue
            if mode == REPLACEMENT:
                lost = lost_end is not None and origin is not None and origin <= u.offset < lost_end
                key = "lost" if lost else u.kind
                self.errors.append((x, width, text, style.mark_for(u), key,
                                    "lost" if lost else "error", u.offset))
            elif mode == BOX:
                warned = bool(u.warnings)
                last = self.boxes[-1] if self.boxes else None
                if (last is not None and last[0] == text and last[1] == width
                        and last[2] == warned
                        and abs(last[3] + len(last[4]) * width - x) < 0.01):
                    last[4].append(u.offset)
                else:
                    self.boxes.append([text, width, warned, x, [u.offset]])
            else:  # PICTURE, LINE_END, BLANK
                if text:
                    texts.append((x, text, "warning" if u.warnings else "muted"))
                if u.warnings:
                    fills.append((x, width, "warning", u.offset))
        for key, (x, parts, _) in pieces.items():
            texts.append((x, "".join(parts), key))
        # One pen change per colour when painting.
        texts.sort(key=lambda t: t[2])


def _whole_and_fraction(x: float) -> tuple[int, float]:
    """``x`` as a whole pixel and the rest, to 1/64 (Qt's own sub-pixel grid for glyph
    positions): on a grid of one character width a line has few distinct fractions,
    so pictures of text are kept for each."""
    left = math.floor(x)
    shift = round((x - left) * 64) / 64
    if shift >= 1.0:
        return left + 1, 0.0
    return left, shift


class _Look:
    """Colours by plan key and the fonts, resolved once per palette and font."""

    def __init__(self, pal, metrics: "QtMetrics"):
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
        self._sprites: dict = {}

    def problem_sprite(self, text: str, mark: str, key: str, fill: str | None,
                       width: float, height: int, ascent: float, ratio: float,
                       shift: float) -> QPixmap:
        """A problem as one transparent picture: its fill (unless selected), its U+FFFD
        glyphs and its mark letter, laid out as drawing them one by one would (origin at
        1 + ``shift``, a fraction of a pixel). A page of random bytes is hundreds of
        these, few of them different: one picture each is far cheaper than a fill, a
        text and a small text."""
        cache_key = (text, mark, key, fill, width, height, ascent, ratio, shift)
        pm = self._sprites.get(cache_key)
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
            if len(self._sprites) > 1024:
                self._sprites.clear()
            self._sprites[cache_key] = pm
        return pm


class TextView(QAbstractScrollArea):
    """The decoded-text pane of one :class:`Document`."""

    showWhitespaceChanged = Signal(bool)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("textView")
        self.setAccessibleName("Decoded text")
        self.setAccessibleDescription(
            "The file decoded as text: lines break at line feeds and wrap at the pane's "
            "width; each problem is shown as flagged replacement characters.")
        self.document = document
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        # The paint covers every pixel of the viewport: Qt need not fill it first.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.viewport().setAutoFillBackground(False)
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, False)

        self._show_whitespace = False
        self._top = 0                  # first byte of the top visual line
        self._goal_x: float | None = None
        self._press: tuple[int, int] | None = None  # unit [start, end) a drag began on
        self._zoom = 0
        self._base_point_size: float | None = None
        self._applying_zoom = False
        self._box_cache: dict = {}
        self._cursor_to_show = False
        self._jump_to_show = False   # the pending cursor is a jump's target
        # Finished pictures of lines, by (layout generation, paragraph, line, look,
        # width, pixel ratio), least recently drawn first; bounded in pixels.
        self._line_images: OrderedDict = OrderedDict()
        # The last page without its cursor, and what it showed (see _paint).
        self._page_picture: QPixmap | None = None
        self._page_key = None
        self._image_pixels = 0
        self._look_cache: _Look | None = None
        self._laid_out_for = None

        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self._make_metrics()
        self.text_layout = TL.TextLayout(document, self._metrics, wrap_width=self._wrap_width(),
                                    show_whitespace=False, glyph=style.glyph_for)

        bar = self.verticalScrollBar()
        bar.setRange(0, SCROLL_STEPS)
        bar.actionTriggered.connect(self._on_scroll_action)

        document.sourceChanged.connect(self._on_source_changed)
        document.cursorChanged.connect(self._on_cursor_changed)
        document.jumpedTo.connect(self._on_jump)
        document.selectionChanged.connect(self._on_selection_changed)
        document.originChanged.connect(self._on_decoding_changed)
        document.dialectChanged.connect(self._on_decoding_changed)
        document.anchorChanged.connect(self._on_anchor_changed)
        document.fileChanged.connect(self._on_file_changed)

        self._laid_out_for = self._decoding()
        self._top = self.text_layout.line_start(document.anchor)
        self._sync_scrollbar()

    # ------------------------------------------------------------------ options
    def set_show_whitespace(self, on: bool) -> None:
        on = bool(on)
        if on == self._show_whitespace:
            return
        self._show_whitespace = on
        self.text_layout.set_show_whitespace(on)
        self._relayout()
        self.showWhitespaceChanged.emit(on)

    show_whitespace = property(lambda self: self._show_whitespace, set_show_whitespace,
                               doc="Tabs, spaces and line ends drawn as marks.")

    def zoom_in(self) -> None:
        self._set_zoom(self._zoom + 1)

    def zoom_out(self) -> None:
        self._set_zoom(self._zoom - 1)

    def zoom_reset(self) -> None:
        self._set_zoom(0)

    def _set_zoom(self, steps: int) -> None:
        if self._base_point_size is None:
            self._base_point_size = self.font().pointSizeF()
        size = max(5.0, min(72.0, self._base_point_size + steps))
        self._zoom = int(size - self._base_point_size)
        font = QFont(self.font())
        font.setPointSizeF(size)
        self._applying_zoom = True
        try:
            self.setFont(font)
        finally:
            self._applying_zoom = False

    def changeEvent(self, event):
        if event.type() == QEvent.Type.FontChange:
            if not self._applying_zoom:
                # A font set from outside (the window's zoom or settings) is the new base.
                self._base_point_size = None
                self._zoom = 0
            if hasattr(self, "text_layout"):
                self._forget_images()
                self._make_metrics()
                self.text_layout.set_metrics(self._metrics)
                self._relayout()
        super().changeEvent(event)

    def _make_metrics(self) -> None:
        font = QFont(self.font())
        small = QFont(font)
        small.setPointSizeF(max(4.0, font.pointSizeF() * SMALL_SCALE))
        self._metrics = QtMetrics(font, small)
        self._box_cache = {}
        fm = self._metrics.fm
        self._line_height = math.ceil(fm.lineSpacing()) + 2
        self._ascent = fm.ascent() + 1

    # ------------------------------------------------------------------ geometry
    def _wrap_width(self) -> float:
        return max(self._metrics.char_width * 4,
                   self.viewport().width() - 2 * PAD_X - self._metrics.char_width)

    def _visible_line_count(self, partial: bool = True) -> int:
        h = max(0.0, self.viewport().height() - PAD_Y)
        n = h / self._line_height
        return max(1, math.ceil(n) if partial else int(n))

    def _visible_lines(self) -> list[TL.Line]:
        self._show_pending_cursor()
        return self.text_layout.lines_from(self._top, self._visible_line_count(True))

    def visible_range(self) -> tuple[int, int]:
        """(first byte shown, end of the last byte shown), end exclusive."""
        if self.document.size == 0:
            return (0, 0)
        lines = self._visible_lines()
        return (lines[0].start, lines[-1].end)

    def _last_shown_range(self) -> tuple[int, int] | None:
        """What the pane showed before a resize: the last paint's range if the top has
        not moved since (in a resize the viewport already has its new size)."""
        painted = getattr(self, "_painted_range", None)
        if painted is not None and painted[0] == self._top:
            return painted[1], painted[2]
        return self.visible_range() if self.document.size else None

    @property
    def top(self) -> int:
        """First byte of the top visual line."""
        self._show_pending_cursor()
        return self._top

    def line_height(self) -> int:
        return self._line_height

    def point_for_offset(self, offset: int):
        """Where the unit holding ``offset`` is drawn (viewport coordinates, centre of
        its first cell), or None when it is not on screen: for tests and tooltips."""
        for i, line in enumerate(self._visible_lines()):
            cell = line.cell_at_offset(offset)
            if cell is not None:
                x = PAD_X + cell.x + max(cell.width, 2) / 2
                y = PAD_Y + i * self._line_height + self._line_height / 2
                return QPointF(x, y)
        return None

    def offset_at_point(self, pos) -> int:
        """The unit under a viewport point (the nearest one beside or below the text)."""
        lines = self._visible_lines()
        if not lines:
            return 0
        row = int((pos.y() - PAD_Y) // self._line_height)
        row = max(0, min(row, len(lines) - 1))
        return self.text_layout.offset_at(lines[row], pos.x() - PAD_X)

    # ------------------------------------------------------------------ reacting
    def _relayout(self) -> None:
        self.text_layout.set_wrap_width(self._wrap_width())
        self._top = self.text_layout.line_start(self._top)
        self._sync_scrollbar()
        self.viewport().update()

    def _decoding(self) -> tuple:
        doc = self.document
        return (id(doc.source), doc.size, doc.origin, doc.dialect)

    def _on_source_changed(self) -> None:
        self.text_layout.invalidate()
        self._forget_images()
        self._laid_out_for = self._decoding()
        self._goal_x = None
        self._top = self.text_layout.line_start(self.document.anchor)
        self._sync_scrollbar()
        self.viewport().update()

    def _on_file_changed(self, change) -> None:
        self.text_layout.invalidate()
        self._forget_images()
        self._laid_out_for = self._decoding()
        self._relayout()

    def _on_decoding_changed(self, *_):
        # Opening a file also announces its origin (None): nothing to lay out again
        # when the origin and the dialect are what the layout already has.
        if self._decoding() == self._laid_out_for:
            return
        self.text_layout.invalidate()
        self._forget_images()
        self._laid_out_for = self._decoding()
        self._relayout()

    def _on_anchor_changed(self, anchor) -> None:
        self._top = self.text_layout.line_start(anchor)
        self._sync_scrollbar()
        self.viewport().update()

    def _on_cursor_changed(self, offset) -> None:
        # Deferred to the next paint or query: "go to" sets the cursor and then the
        # anchor, and the cursor is then already on screen, with nothing laid out twice.
        self._cursor_to_show = True
        self.viewport().update()

    def _on_jump(self, offset) -> None:
        # The cursor change that follows is a jump: shown with lines above it.
        self._jump_to_show = True

    def _show_pending_cursor(self) -> None:
        if self._cursor_to_show:
            self._cursor_to_show = False
            jump, self._jump_to_show = self._jump_to_show, False
            self.ensure_visible(self.document.cursor, jump=jump)

    def _on_selection_changed(self, start, end) -> None:
        self.viewport().update()

    # Lines kept above the target of a jump that lands off screen (see
    # HexView.JUMP_CONTEXT_ROWS).
    JUMP_CONTEXT_LINES = 2

    def ensure_visible(self, offset: int, jump: bool = False) -> None:
        """Scroll this pane's own top as little as needed to show ``offset``'s line,
        without touching the document's anchor. A ``jump``'s target further than one
        line off screen comes with a few lines above it (the screen still full at the
        end of the file)."""
        if self.document.size == 0:
            return
        layout = self.text_layout
        target = layout.line_at(offset)
        full = self._visible_line_count(partial=False)
        context = min(self.JUMP_CONTEXT_LINES, full // 4) if jump else 0
        top_line = layout.line_at(self._top)
        if target.start < self._top:
            step = layout.step(top_line, -1).start == target.start
            self._set_top(target.start if step or not context
                          else layout.step(target, -context).start)
            return
        line = top_line
        for _ in range(full):
            if line.start == target.start:
                return
            nxt = layout.next_line(line)
            if nxt is None:
                break
            line = nxt
        if not context or line.start == target.start:
            # The least scrolling: the target on the bottom line.
            self._set_top(layout.step(target, -(full - 1)).start)
            return
        # A jump: a few lines above the target, unless that would leave the end of the
        # file above the bottom of the screen. (The lines below the target are the ones
        # the page shows: walking them lays out nothing the paint would not.)
        after = 0
        last = target
        while after < full:
            nxt = layout.next_line(last)
            if nxt is None:
                break
            after += 1
            last = nxt
        if after >= full - 1 - context:
            self._set_top(layout.step(target, -context).start)
        else:
            self._set_top(layout.step(target, -(full - 1 - after)).start)

    def _set_top(self, top: int) -> None:
        if top != self._top:
            self._top = top
            self._sync_scrollbar()
            self.viewport().update()

    def scroll_to(self, top: int) -> None:
        """Put the visual line holding ``top`` at the top and tell the document (this is
        the user scrolling this pane, so the other pane follows)."""
        top = self.text_layout.line_start(top)
        moved = top != self._top
        self._set_top(top)
        self.document.set_anchor(top, scrolled=moved)

    def scroll_lines(self, count: int) -> None:
        line = self.text_layout.line_at(self._top)
        target = self.text_layout.step(line, count)
        if count > 0:
            # Stop when the last line reaches the bottom rather than scrolling past it.
            last_top = self.text_layout.last_top(self._visible_line_count(partial=False))
            if target.start > last_top:
                target = self.text_layout.line_at(max(last_top, self._top))
        self.scroll_to(target.start)

    # ------------------------------------------------------------------ scrollbar
    def _sync_scrollbar(self) -> None:
        bar = self.verticalScrollBar()
        size = self.document.size
        bar.blockSignals(True)
        try:
            if size <= 0:
                bar.setRange(0, 0)
                bar.setPageStep(SCROLL_STEPS)
                return
            start, end = self.visible_range()
            page = max(1, min(SCROLL_STEPS, (end - start) * SCROLL_STEPS // size))
            if start == 0 and end >= size:
                bar.setRange(0, 0)
                bar.setPageStep(SCROLL_STEPS)
                return
            bar.setRange(0, max(1, SCROLL_STEPS - page))
            bar.setPageStep(page)
            bar.setSingleStep(1)
            bar.setValue(min(bar.maximum(), self._top * SCROLL_STEPS // size))
        finally:
            bar.blockSignals(False)

    def _on_scroll_action(self, action: int) -> None:
        bar = self.verticalScrollBar()
        A = QAbstractSlider.SliderAction
        action = A(action) if not isinstance(action, A) else action
        if action == A.SliderSingleStepAdd:
            self.scroll_lines(1)
        elif action == A.SliderSingleStepSub:
            self.scroll_lines(-1)
        elif action == A.SliderPageStepAdd:
            self.scroll_lines(max(1, self._visible_line_count(False) - 1))
        elif action == A.SliderPageStepSub:
            self.scroll_lines(-max(1, self._visible_line_count(False) - 1))
        elif action == A.SliderToMinimum:
            self.scroll_to(0)
        elif action == A.SliderToMaximum:
            self.scroll_to(self.text_layout.last_top(self._visible_line_count(False)))
        elif action == A.SliderMove:
            pos = bar.sliderPosition()
            if pos >= bar.maximum():
                self.scroll_to(self.text_layout.last_top(self._visible_line_count(False)))
            else:
                self.scroll_to(pos * self.document.size // SCROLL_STEPS)
            return  # leave the handle where the hand put it
        bar.setSliderPosition(bar.value() if bar.maximum() == 0 else
                              min(bar.maximum(), self._top * SCROLL_STEPS // max(1, self.document.size)))

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        # Positions come from the document, not from pixel scrolling.
        self.viewport().update()

    def wheelEvent(self, event):
        dy = event.angleDelta().y()
        if dy == 0:
            event.ignore()
            return
        steps = int(round(dy / 120 * WHEEL_LINES)) or (1 if dy > 0 else -1)
        self.scroll_lines(-steps)
        event.accept()

    def resizeEvent(self, event):
        # A cursor that was on screen stays on screen (as in the hex view); one the user
        # scrolled away from is left where it is.
        doc = self.document
        shown = self._last_shown_range()
        super().resizeEvent(event)
        self._relayout()
        if shown is not None and doc.size and shown[0] <= doc.cursor < shown[1]:
            self.ensure_visible(doc.cursor)

    # ------------------------------------------------------------------ keys
    def keyPressEvent(self, event):
        doc = self.document
        self._show_pending_cursor()
        key = event.key()
        mods = event.modifiers()
        extend = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_text()
            return
        if event.matches(QKeySequence.StandardKey.SelectAll):
            doc.set_selection(0, doc.size)
            return
        if doc.size == 0 or key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            super().keyPressEvent(event)
            return
        cursor = doc.cursor
        layout = self.text_layout
        if key == Qt.Key.Key_Left:
            start = doc.unit_start(cursor)
            self._move(doc.unit_start(start - 1) if start > 0 else start, extend)
        elif key == Qt.Key.Key_Right:
            end = doc.unit_end(cursor)
            self._move(end if end < doc.size else doc.unit_start(cursor), extend)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._move_lines(-1 if key == Qt.Key.Key_Up else 1, extend)
        elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            page = max(1, self._visible_line_count(False) - 1)
            self._page(-page if key == Qt.Key.Key_PageUp else page, extend)
        elif key == Qt.Key.Key_Home:
            if ctrl:
                self._move(0, extend)
            else:
                line = layout.line_at(cursor)
                self._move(line.cells[0].offset if line.cells else line.start, extend)
        elif key == Qt.Key.Key_End:
            if ctrl:
                self._move(doc.unit_start(doc.size - 1), extend)
            else:
                line = layout.line_at(cursor)
                self._move(line.cells[-1].offset if line.cells else line.start, extend)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _move(self, offset: int, extend: bool, keep_goal: bool = False) -> None:
        if not keep_goal:
            self._goal_x = None
        self.document.set_cursor(offset, extend=extend)

    def _goal(self) -> float:
        if self._goal_x is None:
            self._goal_x = self.text_layout.position(self.document.cursor)[1]
        return self._goal_x

    def _move_lines(self, count: int, extend: bool) -> None:
        goal = self._goal()
        line = self.text_layout.line_at(self.document.cursor)
        target = self.text_layout.step(line, count)
        if target.start == line.start:
            return
        self._move(self.text_layout.offset_at(target, goal), extend, keep_goal=True)

    def _page(self, count: int, extend: bool) -> None:
        """Scroll a page and keep the cursor on the same screen row; a cursor that was
        off screen lands on the new top line, so the pane never jumps back to it."""
        goal = self._goal()
        layout = self.text_layout
        cursor_line = layout.line_at(self.document.cursor)
        rows = layout.lines_from(self._top, self._visible_line_count(partial=False))
        row = next((i for i, line in enumerate(rows) if line.start == cursor_line.start), None)
        self.scroll_lines(count)
        if row is None:
            target = layout.line_at(self._top)
        else:
            target = layout.step(layout.line_at(self._top), row)
            if target.start == cursor_line.start:
                target = layout.step(cursor_line, count)  # at either end of the file
        self._move(layout.offset_at(target, goal), extend, keep_goal=True)

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event):
        if event.button() != Qt.MouseButton.LeftButton or self.document.size == 0:
            super().mousePressEvent(event)
            return
        pos = event.position()
        offset = self.offset_at_point(pos)
        doc = self.document
        self._goal_x = max(0.0, pos.x() - PAD_X)
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            doc.set_cursor(offset, extend=True)
            sel = doc.selection
            self._press = (sel[0], sel[0] + 1) if doc.cursor > sel[0] else None
        else:
            start = doc.unit_start(offset)
            self._press = (start, doc.unit_end(start))
            doc.set_cursor(start)
        event.accept()

    def mouseMoveEvent(self, event):
        if not (event.buttons() & Qt.MouseButton.LeftButton) or self._press is None:
            super().mouseMoveEvent(event)
            return
        pos = event.position()
        if pos.y() < 0:
            self.scroll_lines(-1)
        elif pos.y() > self.viewport().height():
            self.scroll_lines(1)
        doc = self.document
        start = doc.unit_start(self.offset_at_point(pos))
        end = doc.unit_end(start)
        lo, hi = min(self._press[0], start), max(self._press[1], end)
        doc.set_selection(lo, hi)
        event.accept()

    def mouseReleaseEvent(self, event):
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = None
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event):
        """Select the word (letters, digits, marks, _) around the clicked unit."""
        if event.button() != Qt.MouseButton.LeftButton or self.document.size == 0:
            return
        offset = self.offset_at_point(event.position())
        par = self.text_layout.paragraph_at(offset)
        units = par.units

        def wordish(u) -> bool:
            if u.kind != K.VALID or u.value is None or u.value > 0x10FFFF:
                return False
            ch = chr(u.value)
            return ch.isalnum() or ch == "_" or unicodedata.category(ch).startswith("M")

        idx = next((i for i, u in enumerate(units) if u.contains(offset)), None)
        if idx is None or not wordish(units[idx]):
            return
        lo = hi = idx
        while lo > 0 and wordish(units[lo - 1]):
            lo -= 1
        while hi + 1 < len(units) and wordish(units[hi + 1]):
            hi += 1
        self.document.set_selection(units[lo].offset, units[hi].end)
        self._press = None
        event.accept()

    # ------------------------------------------------------------------ menu, copy
    def context_menu(self, offset: int) -> QMenu:
        """The context menu for the unit at ``offset`` (built apart so tests can
        trigger its actions)."""
        doc = self.document
        menu = QMenu(self)
        start = doc.unit_start(offset) if doc.size else 0
        decode = menu.addAction("Decode from here")
        decode.setObjectName("decodeFromHere")
        decode.setEnabled(doc.size > 0)
        decode.triggered.connect(lambda: doc.set_origin(start))
        clear = menu.addAction("Clear origin")
        clear.setObjectName("clearOrigin")
        clear.setEnabled(doc.origin is not None)
        clear.triggered.connect(lambda: doc.set_origin(None))
        menu.addSeparator()
        copy = menu.addAction("Copy text")
        copy.setObjectName("copyText")
        copy.setEnabled(doc.has_selection)
        copy.triggered.connect(self.copy_text)
        menu.addSeparator()
        ws = QAction("Show whitespace and control pictures", menu)
        ws.setObjectName("showWhitespace")
        ws.setCheckable(True)
        ws.setChecked(self._show_whitespace)
        ws.toggled.connect(self.set_show_whitespace)
        menu.addAction(ws)
        return menu

    def contextMenuEvent(self, event):
        offset = self.offset_at_point(QPointF(event.pos()))
        menu = self.context_menu(offset)
        menu.exec(event.globalPos())
        menu.deleteLater()

    def selected_text(self, limit: int = COPY_LIMIT) -> str:
        """The selection as decoded text (problems as their U+FFFD)."""
        start, end = self.document.selection
        if end <= start:
            return ""
        end = min(end, start + limit)
        return TL.decoded_text(self.document.units(start, end))

    def copy_text(self) -> None:
        text = self.selected_text()
        if text:
            QGuiApplication.clipboard().setText(text)

    # ------------------------------------------------------------------ tooltips
    def viewportEvent(self, event):
        if event.type() == QEvent.Type.ToolTip and self.document.size:
            offset = self.offset_at_point(QPointF(event.pos()))
            unit = self.document.unit_at(offset)
            if unit is not None:
                QToolTip.showText(event.globalPos(), self._describe(unit), self.viewport())
            return True
        return super().viewportEvent(event)

    def _describe(self, unit) -> str:
        data = self.document.read(unit.offset, unit.length).hex(" ").upper()
        where = f"offset {unit.offset:,} (0x{unit.offset:X}), bytes {data}"
        if unit.kind != K.VALID:
            text = f"{K.KIND_TITLES[unit.kind]}: {max(unit.replacements, 1)} \u00d7 U+FFFD"
        else:
            text = f"U+{unit.value:04X} {unicode_name(unit.value) or ''}".rstrip()
        if unit.warnings:
            text += "\n" + ", ".join(K.KIND_TITLES.get(w, w) for w in unit.warnings)
        return f"{text}\n{where}"

    # ------------------------------------------------------------------ painting
    def _current_resync(self):
        return self.document.resync()

    def paintEvent(self, event):
        painter = QPainter(self.viewport())
        try:
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, p: QPainter) -> None:
        pal = style.Palette.current()
        doc = self.document
        rect = self.viewport().rect()
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
        rs = self._current_resync()
        lost_end = rs.sync_offset if rs is not None else None
        look = self._look(pal)
        ratio = self.devicePixelRatioF()
        lines = self._visible_lines()
        if lines:
            self._painted_range = (self._top, lines[0].start, lines[-1].end)
        # The page without its cursor is one picture, kept while what it shows stays:
        # a repaint of the window, or a cursor move within the page, is a copy.
        first = lines[0].start if lines else 0
        last = lines[-1].end if lines else 0
        key = (self.text_layout.generation, self._top, first, last, rect.width(), rect.height(),
               ratio, look.key, (sel_start, sel_end) if sel_end > sel_start else None,
               origin, lost_end, tuple(doc.matches_in(first, last)))
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
        focused = self.hasFocus()
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

    def _paint_lines(self, p: QPainter, lines, look: "_Look", background: QColor,
                     sel_start: int, sel_end: int, origin, lost_end) -> None:
        """The page's lines, matches and origin and sync markers (not the cursor)."""
        doc = self.document
        pal = look.palette
        lh = self._line_height
        width = self.viewport().width()
        ratio = self.devicePixelRatioF()
        generation = self.text_layout.generation
        images = self._line_images
        origin_color = look.colors["lost"]
        sync_color = pal.color("sync")
        match_edge = pal.color("match")
        match_fill = QColor(match_edge)
        match_fill.setAlpha(110)
        match_edge = match_edge.darker(140)
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
                if origin is None and not doc.matches_in(line.start, line.end):
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

    def _look(self, pal) -> "_Look":
        """The paint's colours and fonts for this palette (made once per palette)."""
        look = self._look_cache
        if look is None or look.palette is not pal or look.metrics is not self._metrics:
            look = self._look_cache = _Look(pal, self._metrics)
        return look

    def _line_image(self, plan: "_LinePlan", look: "_Look", width: int, ratio: float,
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
        images = self._line_images
        old = images.pop(key, None)
        if old is not None:
            self._image_pixels -= old.width() * old.height()
        images[key] = pm
        if pm is not None:
            self._image_pixels += pm.width() * pm.height()
        # About three screens of pictures: a repaint, small scrolls and a jump back
        # hit; a bound in pixels keeps a maximised pane's memory small (a few MiB).
        vp = self.viewport()
        ratio = self.devicePixelRatioF()
        budget = 3 * max(1, vp.width()) * max(1, vp.height()) * ratio * ratio
        while (self._image_pixels > budget or len(images) > MAX_LINE_ENTRIES) and len(images) > 1:
            _, old = images.popitem(last=False)
            if old is not None:
                self._image_pixels -= old.width() * old.height()

    def _forget_images(self) -> None:
        self._line_images.clear()
        self._image_pixels = 0

    def _cells_span(self, plan: "_LinePlan", start: int, end: int):
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

    def _draw_line(self, p: QPainter, plan: "_LinePlan", y: float, look: "_Look",
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
        for x, w, text, mark, key, fill, off in plan.errors:
            if selected is not None and selected[0] <= off < selected[1]:
                fill = None   # the selection band shows beneath instead
            left, shift = _whole_and_fraction(PAD_X + x)
            p.drawPixmap(QPointF(left - 1, y),
                         look.problem_sprite(text, mark, key, fill, w, lh, self._ascent, ratio, shift))

        # Text: runs of plain characters of one colour, each drawn as one string.
        p.setFont(look.font)
        base = y + self._ascent
        pen_key = None
        for x, text, key in plan.texts:
            if key != pen_key:
                p.setPen(colors[key])
                pen_key = key
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

    def _plan(self, line: TL.Line, lost_end, origin) -> "_LinePlan":
        """What to draw for one line, worked out once per laid-out line (the paragraph
        keeps it) so a repaint is a few calls per line, not several per character."""
        par = line.paragraph
        plans = par.extra.get("plans")
        if plans is None:
            plans = par.extra["plans"] = {}
        plan = plans.get(line.index)
        if plan is None:
            plan = plans[line.index] = _LinePlan(par, line.first, line.last, self._metrics,
                                                 lost_end, origin)
        return plan

    def _paint_boxes(self, p, key, x, y, count, lh, pal) -> None:
        """``count`` identical small tagged boxes side by side: invisible characters,
        controls, U+XXXX for glyphs no font has, so hidden characters are seen and
        nothing turns into tofu. Boxes repeat (a file of zeros is all NUL boxes), so each
        look is drawn once into a pixmap and tiled."""
        label, width, warned, selected = key
        cache_key = key + (pal.theme, lh, self.devicePixelRatioF())
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
        ratio = self.devicePixelRatioF()
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
