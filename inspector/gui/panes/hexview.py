"""The hex view: offsets, byte cells and a character column, custom-painted.

It paints only the rows in the viewport: each paint reads those rows' bytes once and
asks the document for their units once (the document cuts them with the few bytes of
look-back that self-synchronization needs), so a 16 GiB file paints as fast as a 16 KiB
one. Everything it shows (cursor, selection, origin, dialect, the anchor at the top)
lives in the :class:`~inspector.gui.document.Document`; the view keeps only its own top
row, and writes the anchor only when the user scrolls it.

The widget here keeps the settings, the layout and the scroll position and follows the
document; it hands the rest to helpers it owns: painting and its picture caches to
:class:`~inspector.gui.panes.hexpainter.HexPainter`, keys, mouse, hover and the context
menu to :class:`~inspector.gui.panes.hexinput.HexInput`. Geometry comes from
:class:`~inspector.gui.panes.hexlayout.HexLayout`, fonts and their small pictures from
:class:`~inspector.gui.panes.hexsprites.HexSprites`; colours, marks and glyph substitutes
from :mod:`inspector.gui.look.style`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QMenu, QWidget

from inspector.gui.panes.hexinput import HexInput
from inspector.gui.panes.hexlayout import FIT, HexLayout
from inspector.gui.panes.hexpainter import HexPainter
from inspector.gui.panes.hexpainter import line_starts_in
from inspector.gui.panes.hexsprites import HexSprites

BASE_POINT_SIZE = 10


class HexView(QAbstractScrollArea):
    zoomChanged = Signal(int)
    visibleRangeChanged = Signal(object, object)  # (start, end) of the bytes on screen
    findingRequested = Signal(object)  # "Add finding…" on a byte (offset, or None)
    # "Copy as hex" / "Copy as text": a copyformats format. The window makes every copy,
    # the same way for both panes and its menus.
    copyRequested = Signal(str)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("hexView")
        self.document = document
        self._byte_format = "hex"
        self._bpr_choice = 16
        self._offset_base = "hex"
        self._zoom = 0
        self._top_row = 0
        self._updating_bar = False
        self.context_actions: list[QAction] = []  # the window adds Go to..., etc.
        self._last_visible = (0, 0)
        self.show_line_numbers = False    # View > Line numbers: tags at line starts
        self.painter = HexPainter(self)   # paints the viewport, keeps its pictures
        self._input = HexInput(self)      # keys, mouse, hover, context menu
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        # The paint covers every pixel of the viewport: Qt need not fill it first.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._set_fonts()
        self._layout = self._make_layout()
        self.verticalScrollBar().valueChanged.connect(self._on_scrollbar)
        self.horizontalScrollBar().valueChanged.connect(self.viewport().update)
        d = document
        d.sourceChanged.connect(self._on_source)
        d.cursorChanged.connect(self._on_cursor)
        d.jumpedTo.connect(self._on_jump)
        d.selectionChanged.connect(self._on_selection)
        d.originChanged.connect(self._on_decoding)
        d.dialectChanged.connect(self._on_decoding)
        d.cutChanged.connect(self._on_cut_changed)
        d.anchorChanged.connect(self._on_anchor)
        d.fileChanged.connect(self._drop_base)
        d.findingsChanged.connect(self.viewport().update)
        d.matchesChanged.connect(self.viewport().update)
        d.scanChanged.connect(self._on_scan)
        self._update_bar()

    # ------------------------------------------------------------------ settings
    @property
    def layout_(self) -> HexLayout:
        """The current row layout (tests compute click positions from it)."""
        return self._layout

    @property
    def top_row(self) -> int:
        return self._top_row

    @property
    def byte_format(self) -> str:
        return self._byte_format

    def set_byte_format(self, fmt: str) -> None:
        if fmt != self._byte_format:
            HexLayout(0, 8, fmt)  # validates
            self._byte_format = fmt
            self._relayout()

    @property
    def bytes_per_row_choice(self) -> int:
        """8, 16, 24, 32, or 0 for fit-to-width."""
        return self._bpr_choice

    @property
    def bytes_per_row(self) -> int:
        return self._layout.bytes_per_row

    def set_bytes_per_row(self, n: int) -> None:
        n = int(n)
        if n != self._bpr_choice:
            self._bpr_choice = n
            self._relayout()

    @property
    def offset_base(self) -> str:
        return self._offset_base

    def set_offset_base(self, base: str) -> None:
        if base != self._offset_base:
            HexLayout(0, 8, "hex", base)
            self._offset_base = base
            self._relayout()

    @property
    def zoom(self) -> int:
        return self._zoom

    def set_zoom(self, steps: int) -> None:
        steps = max(-6, min(12, int(steps)))
        if steps != self._zoom:
            self._zoom = steps
            self._set_fonts()
            self._relayout()
            self.zoomChanged.emit(steps)

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom + 1)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom - 1)

    def zoom_reset(self) -> None:
        self.set_zoom(0)

    def _set_fonts(self) -> None:
        # Fonts, metrics and small pictures for this zoom step (the painter reads them).
        self.sprites = HexSprites(max(5.0, BASE_POINT_SIZE + self._zoom), self.devicePixelRatioF())
        self.setFont(self.sprites.font)

    def _make_layout(self) -> HexLayout:
        size = self.document.size
        cw = self.sprites.cw
        n = self._bpr_choice
        if n == FIT:
            n = HexLayout.fit_bytes_per_row(self.viewport().width(), size, self._byte_format,
                                            self._offset_base, cw)
        return HexLayout(size, n, self._byte_format, self._offset_base, cw, self.sprites.lh)

    def _relayout(self, follow_cursor: bool | None = None) -> None:
        """A new layout (format, row width, font). ``follow_cursor``: whether the cursor
        was on screen before, when the caller knows better than the current viewport
        (a resize has already changed its height)."""
        self._drop_base()
        # Keep the cursor on screen only if it was: after the user scrolled away from it,
        # a new format or row width keeps the anchor (the text pane shows it too).
        cursor = self.document.cursor
        if follow_cursor is None:
            old = getattr(self, "_layout", None)
            start, end = self.visible_range() if old is not None else (cursor, cursor + 1)
            follow_cursor = start <= cursor < max(end, start + 1)
        self._layout = self._make_layout()
        lay = self._layout
        h = self.viewport().height()
        self._top_row = lay.clamp_top(lay.row_of(self.document.anchor), h)
        if follow_cursor:
            self._top_row = lay.top_for_cursor(self._top_row, cursor, h)
        self._update_bar()
        self.viewport().update()

    # ------------------------------------------------------------------ scrolling
    def _update_bar(self) -> None:
        lay = self._layout
        h = self.viewport().height()
        maximum, proportional = lay.scroll_range(h)
        self._updating_bar = True
        try:
            bar = self.verticalScrollBar()
            bar.setRange(0, maximum)
            page = lay.full_rows(h)
            bar.setPageStep(page if not proportional else max(1, maximum // max(1, lay.total_rows // page)))
            bar.setSingleStep(1)
            bar.setValue(lay.scroll_value(self._top_row, h))
            hbar = self.horizontalScrollBar()
            hbar.setRange(0, max(0, lay.width - self.viewport().width()))
            hbar.setPageStep(self.viewport().width())
            hbar.setSingleStep(self.sprites.cw)
        finally:
            self._updating_bar = False
        shown = self.visible_range()
        if shown != self._last_visible:
            self._last_visible = shown
            self.visibleRangeChanged.emit(*shown)

    def _set_top(self, row: int) -> None:
        """Our own top row (no anchor write)."""
        row = self._layout.clamp_top(row, self.viewport().height())
        if row != self._top_row:
            self._top_row = row
            self._update_bar()
            self.viewport().update()

    def scroll_to_row(self, row: int) -> None:
        """The user scrolled: move and tell the document which byte is at the top."""
        before = self._top_row
        self._set_top(row)
        self.document.set_anchor(self._layout.row_start(self._top_row),
                                 scrolled=self._top_row != before)

    def _on_scrollbar(self, value: int) -> None:
        if self._updating_bar:
            return
        self.scroll_to_row(self._layout.top_from_scroll(value, self.viewport().height()))

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()  # we paint from our own top row; nothing to move

    def visible_range(self) -> tuple[int, int]:
        return self._layout.visible_range(self._top_row, self.viewport().height())

    # ------------------------------------------------------------------ document signals
    def _drop_base(self, *_) -> None:
        """Forget the last paint and the row pictures (a slot of the view, so the
        connection ends with it)."""
        self.painter.forget_pictures()

    def _on_source(self) -> None:
        self._drop_base()
        self._top_row = 0
        self._relayout()

    def _on_anchor(self, offset) -> None:
        lay = self._layout
        self._set_top(lay.row_of(offset))

    # Rows kept above the target of a jump that lands off screen (Go to, F8, a find,
    # the problem list): what leads up to a problem is often the point.
    JUMP_CONTEXT_ROWS = 3

    def _on_cursor(self, offset) -> None:
        lay = self._layout
        self._set_top(lay.top_for_cursor(self._top_row, offset, self.viewport().height()))
        self.viewport().update()

    def _on_jump(self, offset) -> None:
        lay = self._layout
        self._set_top(lay.top_for_cursor(self._top_row, offset, self.viewport().height(),
                                         self.JUMP_CONTEXT_ROWS))

    def _on_selection(self, start, end) -> None:
        self.viewport().update()

    def _on_decoding(self, *_):
        self.viewport().update()

    def _on_cut_changed(self) -> None:
        self.painter.forget_pictures()
        self.viewport().update()

    # ------------------------------------------------------------------ line numbers
    def set_show_line_numbers(self, on: bool) -> None:
        self.show_line_numbers = bool(on)
        self.viewport().update()

    def line_numbers_key(self):
        """What the line tags of a paint depend on (part of the painter's cache key)."""
        if not self.show_line_numbers:
            return None
        scan = self.document.scan
        return (id(scan), scan.index.done if scan is not None else None)

    def line_starts_in(self, start: int, end: int) -> list[tuple[int, int]]:
        return line_starts_in(self.document, start, end)

    def _on_scan(self, _result) -> None:
        if self.show_line_numbers:
            self.viewport().update()

    def sizeHint(self) -> QSize:
        """Wide enough for a whole row of the current layout."""
        extra = self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth() + 6
        return QSize(self._layout.width + extra, 20 * self.sprites.lh)

    # ------------------------------------------------------------------ events
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        lay = self._layout
        h = self.viewport().height()
        # A cursor that was on screen stays on screen when the view changes size (a find
        # bar or a banner opening below or above it, a window made wider and shorter at
        # once). "Was" is what the view last showed: the event's old size may be the
        # viewport's or the frame's (a scroll bar coming or going resizes the viewport
        # alone), so neither tells the old viewport height reliably.
        shown_start, shown_end = self._last_visible
        was_shown = shown_start <= self.document.cursor < shown_end
        if self._bpr_choice == FIT:
            n = HexLayout.fit_bytes_per_row(self.viewport().width(), self.document.size,
                                            self._byte_format, self._offset_base, self.sprites.cw)
            if n != self._layout.bytes_per_row:
                self._relayout(follow_cursor=True if was_shown else None)
                return
        top = lay.clamp_top(self._top_row, h)
        if was_shown:
            top = lay.top_for_cursor(top, self.document.cursor, h)
        self._top_row = top
        self._update_bar()

    def wheelEvent(self, event) -> None:
        self._input.wheel(event)

    def mousePressEvent(self, event) -> None:
        if not self._input.mouse_press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if not self._input.mouse_move(event):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        self._input.mouse_release()
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:
        if not self._input.key_press(event):
            super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.viewport().update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.viewport().update()

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self._input.show_tooltip(event)
            return True
        return super().viewportEvent(event)

    def contextMenuEvent(self, event) -> None:
        self._input.context_menu(event)

    def tooltip_at(self, pos: QPoint) -> str:
        """The explanation of the unit at viewport point ``pos``, or ""."""
        return self._input.tooltip_at(pos)

    def tooltip_for(self, offset: int) -> str:
        """The explanation of the unit holding byte ``offset``, or ""."""
        return self._input.tooltip_for(offset)

    def build_context_menu(self, offset: int | None) -> QMenu:
        """The context menu for byte ``offset`` (None: off the cells)."""
        return self._input.build_context_menu(offset)

    # ------------------------------------------------------------------ painting
    @property
    def last_paint_range(self) -> tuple[int, int]:
        """The bytes the last paint showed, (start, end)."""
        return self.painter.last_paint_range

    def paintEvent(self, event) -> None:
        p = QPainter(self.viewport())
        try:
            self.painter.paint(p)
        finally:
            p.end()
