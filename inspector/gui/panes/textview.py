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

This module is the widget: it wires the pane to the document, keeps ``top`` and the
scrollbar, and forwards painting to :class:`~inspector.gui.panes.textpainter.TextPainter`
and keys, mouse, menu and tooltips to :class:`~inspector.gui.panes.textinput.TextInput`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSlider, QMenu, QWidget

from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textinput import TextInput
from inspector.gui.panes.textplan import PAD_X, PAD_Y, QtMetrics
from inspector.gui.panes.textpainter import TextPainter

SCROLL_STEPS = 10000          # scrollbar positions: the file is mapped in proportion
SMALL_SCALE = 0.72            # boxes' labels and problem marks, relative to the font
WHEEL_LINES = 3


class TextView(QAbstractScrollArea):
    """The decoded-text pane of one :class:`Document`."""

    showWhitespaceChanged = Signal(bool)
    findingRequested = Signal(object)  # "Add finding…" on a unit (its offset)
    # Ctrl+C and "Copy text": a copyformats format. The window makes every copy, the
    # same way for both panes and its menus.
    copyRequested = Signal(str)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("textView")
        self.setAccessibleName("Decoded text")
        self.setAccessibleDescription(
            "The file decoded as text: lines break at line feeds and wrap at the pane's "
            "width; each problem is shown as flagged replacement characters.")
        self.document = document
        # Before any event can come: the view forwards input and painting to these.
        self._input = TextInput(self)     # keys, mouse, menu, tooltips
        self.painter = TextPainter(self)  # paints the viewport, keeps its pictures
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
        self._zoom = 0
        self._base_point_size: float | None = None
        self._applying_zoom = False
        self._cursor_to_show = False
        self._jump_to_show = False   # the pending cursor is a jump's target
        # (top, first byte, end) of the last paint: what a resize keeps on screen.
        self._painted_range: tuple[int, int, int] | None = None
        self._painted_generation = None   # the layout's generation at that paint
        self._laid_out_for = None
        self._lines: list = []       # the lines last shown, and for what (visible_lines)
        self._lines_for = None

        # The hex view's family at the system's fixed-font size: one family for both
        # panes, so a code point's fallback font is found once and both agree on it.
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font = QFont(style.mono_family())
        font.setPointSizeF(fixed.pointSizeF() if fixed.pointSizeF() > 0 else 10)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self._make_metrics()
        self.text_layout = TL.TextLayout(document, self._metrics, wrap_width=self.wrap_width(),
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
        document.cutChanged.connect(self._on_cut_changed)
        document.anchorChanged.connect(self._on_anchor_changed)
        document.fileChanged.connect(self._on_file_changed)
        document.findingsChanged.connect(self.viewport().update)
        document.matchesChanged.connect(self.viewport().update)

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
                self.painter.forget_images()
                self._make_metrics()
                self.text_layout.set_metrics(self._metrics)
                self._relayout()
        super().changeEvent(event)

    def _make_metrics(self) -> None:
        font = QFont(self.font())
        small = QFont(font)
        small.setPointSizeF(max(4.0, font.pointSizeF() * SMALL_SCALE))
        self._metrics = QtMetrics(font, small)
        fm = self._metrics.fm
        self._line_height = math.ceil(fm.lineSpacing()) + 2
        self.painter.set_metrics(self._metrics, self._line_height, fm.ascent() + 1)

    @property
    def metrics(self) -> QtMetrics:
        """The pane's font metrics (the main font's and the small one's)."""
        return self._metrics

    # ------------------------------------------------------------------ geometry
    def wrap_width(self) -> float:
        """The width lines wrap at: the viewport's, less the margins."""
        return max(self._metrics.char_width * 4,
                   self.viewport().width() - 2 * PAD_X - self._metrics.char_width)

    def visible_line_count(self, partial: bool = True) -> int:
        """Lines the viewport holds (``partial``: counting one cut off at the bottom)."""
        h = max(0.0, self.viewport().height() - PAD_Y)
        n = h / self._line_height
        return max(1, math.ceil(n) if partial else int(n))

    def visible_lines(self) -> list[TL.Line]:
        self._show_pending_cursor()
        layout = self.text_layout
        doc = self.document
        key = (layout.generation, self._top, self.visible_line_count(True), layout.wrap_width,
               doc.size, id(getattr(doc, "source", None)), doc.origin, doc.dialect)
        if self._lines_for != key:
            # The scroll bar's sync and the paint that follows a jump ask for the same
            # lines: walked once.
            self._lines = lines = layout.lines_from(self._top, key[2])
            self._lines_for = (layout.generation,) + key[1:]
            if lines:   # the next page is cut at once (see TextLayout.paragraph)
                layout.read_ahead = min(1 << 16, (lines[-1].end - lines[0].start) * 5 // 4)
        return self._lines

    def visible_range(self) -> tuple[int, int]:
        """(first byte shown, end of the last byte shown), end exclusive."""
        if self.document.size == 0:
            return (0, 0)
        lines = self.visible_lines()
        return (lines[0].start, lines[-1].end)

    def _last_shown_range(self) -> tuple[int, int] | None:
        """What the pane showed before a resize: the last paint's range if the top has
        not moved since (in a resize the viewport already has its new size)."""
        painted = self._painted_range
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
        for i, line in enumerate(self.visible_lines()):
            cell = line.cell_at_offset(offset)
            if cell is not None:
                x = PAD_X + cell.x + max(cell.width, 2) / 2
                y = PAD_Y + i * self._line_height + self._line_height / 2
                return QPointF(x, y)
        return None

    def offset_at_point(self, pos) -> int:
        """The unit under a viewport point (the nearest one beside or below the text)."""
        lines = self.visible_lines()
        if not lines:
            return 0
        row = int((pos.y() - PAD_Y) // self._line_height)
        row = max(0, min(row, len(lines) - 1))
        return self.text_layout.offset_at(lines[row], pos.x() - PAD_X)

    # ------------------------------------------------------------------ reacting
    def _relayout(self) -> None:
        self.text_layout.set_wrap_width(self.wrap_width())
        self._top = self.text_layout.line_start(self._top)
        self._sync_scrollbar()
        self.viewport().update()

    def _decoding(self) -> tuple:
        doc = self.document
        return (id(doc.source), doc.size, doc.origin, doc.dialect)

    def _on_source_changed(self) -> None:
        self.text_layout.invalidate()
        self.painter.forget_images()
        self._laid_out_for = self._decoding()
        self._input.forget_goal()
        self._top = self.text_layout.line_start(self.document.anchor)
        self._cursor_to_show = True   # the new file's cursor, at the next paint
        self._sync_scrollbar()
        self.viewport().update()

    def _on_file_changed(self, change) -> None:
        self.text_layout.invalidate()
        self.painter.forget_images()
        self._laid_out_for = self._decoding()
        self._relayout()

    def _on_cut_changed(self) -> None:
        # The same bytes cut otherwise (the scan's sync points arrived): lay out again.
        self.text_layout.invalidate()
        self.painter.forget_images()
        self._relayout()

    def _on_decoding_changed(self, *_):
        # Opening a file also announces its origin (None): nothing to lay out again
        # when the origin and the dialect are what the layout already has.
        if self._decoding() == self._laid_out_for:
            return
        self.text_layout.invalidate()
        self.painter.forget_images()
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
        full = self.visible_line_count(partial=False)
        context = min(self.JUMP_CONTEXT_LINES, full // 4) if jump else 0
        if context:
            layout.cut_with_lines_before(offset, context)
        target = layout.line_at(offset)
        top_line = layout.line_at(self._top)
        if target.start < self._top:
            step = layout.step(top_line, -1).start == target.start
            self._set_top(target.start if step or not context
                          else layout.step(target, -context).start)
            return
        line = top_line
        painted = self._painted_range
        if (painted is not None and painted[0] == self._top and target.start >= painted[2]
                and self._painted_generation == layout.generation):
            pass   # beyond the page shown: no need to walk it
        else:
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
            last_top = self.text_layout.last_top(self.visible_line_count(partial=False))
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
            self.scroll_lines(max(1, self.visible_line_count(False) - 1))
        elif action == A.SliderPageStepSub:
            self.scroll_lines(-max(1, self.visible_line_count(False) - 1))
        elif action == A.SliderToMinimum:
            self.scroll_to(0)
        elif action == A.SliderToMaximum:
            self.scroll_to(self.text_layout.last_top(self.visible_line_count(False)))
        elif action == A.SliderMove:
            pos = bar.sliderPosition()
            if pos >= bar.maximum():
                self.scroll_to(self.text_layout.last_top(self.visible_line_count(False)))
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

    # ------------------------------------------------------------------ input
    # Keys, mouse, menu and tooltips are TextInput's: what it does not handle goes to Qt.
    def keyPressEvent(self, event):
        self._show_pending_cursor()
        if not self._input.key_press(event):
            super().keyPressEvent(event)

    def mousePressEvent(self, event):
        if not self._input.mouse_press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event):
        if not self._input.mouse_move(event):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        self._input.mouse_release(event)
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event):
        self._input.double_click(event)

    def context_menu(self, offset: int) -> QMenu:
        """The context menu for the unit at ``offset`` (built apart so tests can
        trigger its actions)."""
        return self._input.context_menu(offset)

    def contextMenuEvent(self, event):
        self._input.show_context_menu(event)

    def viewportEvent(self, event):
        if event.type() == QEvent.Type.ToolTip and self.document.size:
            self._input.show_tooltip(event)
            return True
        return super().viewportEvent(event)

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event):
        painter = QPainter(self.viewport())
        try:
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, p: QPainter) -> None:
        lines = self.visible_lines() if self.document.size else []
        if lines:
            self._painted_range = (self._top, lines[0].start, lines[-1].end)
            self._painted_generation = self.text_layout.generation
        self.painter.paint(p, lines, self._top)
