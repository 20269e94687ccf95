"""The hex view: offsets, byte cells and a character column, custom-painted.

It paints only the rows in the viewport: each paint reads those rows' bytes once and
asks the document for their units once (the document cuts them with the few bytes of
look-back that self-synchronization needs), so a 16 GiB file paints as fast as a 16 KiB
one. Everything it shows (cursor, selection, origin, dialect, the anchor at the top)
lives in the :class:`~inspector.gui.document.Document`; the view keeps only its own top
row, and writes the anchor only when the user scrolls it.

Geometry comes from :class:`~inspector.gui.panes.hexlayout.HexLayout`; colours, marks and
glyph substitutes from :mod:`inspector.gui.look.style`.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (QAction, QBrush, QColor, QFont, QFontDatabase,
                           QFontMetricsF, QGuiApplication, QPainter, QPen, QPixmap)
from PySide6.QtWidgets import QAbstractScrollArea, QMenu, QToolTip, QWidget

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import name as cp_name
from inspector.gui.look import style
from inspector.gui.panes.hexlayout import FIT, HexLayout, spelling_table

BASE_POINT_SIZE = 10
MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Menlo", "Consolas")


def monospace_font(point_size: float) -> QFont:
    """A monospaced font whose advance is a whole number of pixels (letter spacing makes
    up the fraction), so a run of cells drawn as one string lines up with the grid."""
    font = None
    families = set(QFontDatabase.families())
    for fam in MONO_FAMILIES:
        if fam in families:
            font = QFont(fam)
            break
    if font is None:
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(point_size)
    advance = QFontMetricsF(font).horizontalAdvance("0")
    font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, math.ceil(advance) - advance)
    return font


def describe_unit(unit: decoder.Unit, data: bytes, origin: int | None = None,
                  lost: bool = False) -> str:
    """A tooltip naming a unit: where, which bytes, the character or the problem."""
    shown = data.hex(" ").upper()
    head = (f"offset 0x{unit.offset:X} ({unit.offset:,}), {unit.length} byte"
            f"{'s' if unit.length != 1 else ''}: {shown}")
    lines = [head]
    if unit.kind == K.VALID:
        cp = unit.value
        lines.append(f"U+{cp:04X} {cp_name(cp)}")
        for w in unit.warnings:
            lines.append(f"warning: {K.KIND_TITLES.get(w, w)}")
    else:
        title = K.KIND_TITLES[unit.kind]
        what = {
            K.OVERLONG: "a value written with more bytes than it needs",
            K.SURROGATE: "a UTF-16 surrogate encoded on its own, invalid in UTF-8",
            K.OUT_OF_RANGE: "a value beyond U+10FFFF, the last code point",
            K.LEGACY_LONG_FORM: "a 5- or 6-byte form of the 1993 FSS-UTF, withdrawn by RFC 3629",
            K.TRUNCATED: "a lead byte without all the continuation bytes it announces",
            K.UNEXPECTED_CONTINUATION: "a continuation byte (80-BF) with no lead byte before it",
            K.INVALID_BYTE: "FE or FF, bytes that no UTF-8 ever uses",
        }[unit.kind]
        value = f" (value U+{unit.value:04X})" if unit.value is not None else ""
        lines.append(f"problem: {title}{value}: {what}")
        if unit.at_end:
            lines.append("cut short by the end of the data")
        lines.append(f"a decoder shows {unit.replacements} × U+FFFD here")
    if lost:
        lines.append(f"lost to resynchronization (decoding starts at 0x{origin:X})")
    elif origin is not None and unit.end <= origin:
        lines.append(f"before the origin 0x{origin:X}: decoded as a separate stream")
    return "\n".join(lines)


def _explain(unit, source, dialect, origin, lost) -> str:
    """The shared explanation (issue 5's unitinfo) if present, under our own header."""
    data = source.read(unit.offset, unit.length)
    try:
        from inspector.core.units.unitinfo import explain
    except ImportError:
        return describe_unit(unit, data, origin, lost)
    try:
        text = str(explain(unit, source, dialect, lost=lost))
    except Exception:  # a tooltip never breaks the view
        return describe_unit(unit, data, origin, lost)
    head = (f"offset 0x{unit.offset:X} ({unit.offset:,}), {unit.length} byte"
            f"{'s' if unit.length != 1 else ''}: {data.hex(' ').upper()}")
    lines = [head]
    if unit.kind == K.VALID:
        lines.append(f"U+{unit.value:04X} {cp_name(unit.value)}")
    lines.append(text)
    if lost:
        lines.append(f"lost to resynchronization (decoding starts at 0x{origin:X})")
    elif origin is not None and unit.end <= origin:
        lines.append(f"before the origin 0x{origin:X}: decoded as a separate stream")
    return "\n".join(lines)


class HexView(QAbstractScrollArea):
    zoomChanged = Signal(int)
    visibleRangeChanged = Signal(object, object)  # (start, end) of the bytes on screen

    WHEEL_ROWS = 3

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("hexView")
        self.document = document
        self._byte_format = "hex"
        self._bpr_choice = 16
        self._offset_base = "hex"
        self._zoom = 0
        self._top_row = 0
        self._goal_col: int | None = None
        self._wheel_rest = 0
        self._updating_bar = False
        self._drag_anchor: int | None = None
        self.context_actions: list[QAction] = []  # the window adds Go to..., etc.
        self.last_paint_range = (0, 0)
        self._last_visible = (0, 0)
        # The last paint without its cursor, and what it showed: a repaint that changes
        # none of it (a window repaint, a cursor move on screen) is one pixmap copy.
        self._base: QPixmap | None = None
        self._base_key = None
        self._row_pictures: OrderedDict = OrderedDict()
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
        d.anchorChanged.connect(self._on_anchor)
        d.fileChanged.connect(self._drop_base)
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
        size = max(5.0, BASE_POINT_SIZE + self._zoom)
        self._font = monospace_font(size)
        self.setFont(self._font)
        fm = QFontMetricsF(self._font)
        self._cw = round(fm.horizontalAdvance("0"))
        self._lh = math.ceil(fm.height()) + 4
        self._ascent = fm.ascent()
        self._small = QFont(self._font)
        self._small.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 0)
        self._small.setPointSizeF(max(4.0, size * 0.62))
        self._mark_font = QFont(self._small)
        self._mark_font.setBold(True)
        self._coverage = style.GlyphCoverage(self._font)
        self._glyph_width: dict[str, int] = {}
        self._pixmaps: dict = {}   # marks, glyphs and spellings as small pictures
        self._pixmaps_ratio = self.devicePixelRatioF()   # the pixel ratio they are drawn at
        self._cell_glyph: dict[str, bool] = {}
        self._small_fits: dict = {}

    def _make_layout(self) -> HexLayout:
        size = self.document.size
        n = self._bpr_choice
        if n == FIT:
            n = HexLayout.fit_bytes_per_row(self.viewport().width(), size, self._byte_format,
                                            self._offset_base, self._cw)
        return HexLayout(size, n, self._byte_format, self._offset_base, self._cw, self._lh)

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
            hbar.setSingleStep(self._cw)
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
        self._base = None
        self._base_key = None
        self._row_pictures.clear()

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

    def sizeHint(self) -> QSize:
        """Wide enough for a whole row of the current layout."""
        extra = self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth() + 6
        return QSize(self._layout.width + extra, 20 * self._lh)

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
                                            self._byte_format, self._offset_base, self._cw)
            if n != self._layout.bytes_per_row:
                self._relayout(follow_cursor=True if was_shown else None)
                return
        top = lay.clamp_top(self._top_row, h)
        if was_shown:
            top = lay.top_for_cursor(top, self.document.cursor, h)
        self._top_row = top
        self._update_bar()

    def wheelEvent(self, event) -> None:
        dy = event.angleDelta().y()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if dy:
                self.set_zoom(self._zoom + (1 if dy > 0 else -1))
            event.accept()
            return
        self._wheel_rest += dy
        steps = int(self._wheel_rest / 120 * self.WHEEL_ROWS)
        if steps:
            self._wheel_rest -= int(steps * 120 / self.WHEEL_ROWS)
            self.scroll_to_row(self._top_row - steps)
        event.accept()

    def _hit(self, pos: QPoint):
        x = pos.x() + self.horizontalScrollBar().value()
        return self._layout.hit(x, pos.y(), self._top_row)

    def mousePressEvent(self, event) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        hit = self._hit(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and hit is not None:
            doc = self.document
            start = doc.unit_start(hit[0])
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self._goal_col = self._layout.col_of(start)
            doc.set_cursor(start, extend=shift)
            self._drag_anchor = start
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._drag_anchor is not None and event.buttons() & Qt.MouseButton.LeftButton:
            hit = self._hit(event.position().toPoint())
            if hit is not None:
                doc = self.document
                here = doc.unit_start(hit[0])
                # Whole units: from the unit the drag began on to the unit under the mouse.
                doc.set_cursor(here, extend=True)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        self._drag_anchor = None
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:
        key = event.key()
        mods = event.modifiers()
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        doc = self.document
        lay = self._layout
        size = doc.size
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            self.focusNextPrevChild(key == Qt.Key.Key_Tab and not shift)
            return
        if size == 0:
            super().keyPressEvent(event)
            return
        cur = doc.cursor
        last = size - 1
        target = None
        keep_goal = False
        if key == Qt.Key.Key_Right:
            target = min(cur + 1, last) if alt else min(doc.unit_end(cur), last)
            if not alt and doc.unit_end(cur) > last:
                target = cur
        elif key == Qt.Key.Key_Left:
            if alt:
                target = max(cur - 1, 0)
            else:
                start = doc.unit_start(cur)
                target = start if start < cur else (doc.unit_start(cur - 1) if cur > 0 else 0)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            rows = 1 if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) else lay.full_rows(self.viewport().height())
            sign = -1 if key in (Qt.Key.Key_Up, Qt.Key.Key_PageUp) else 1
            goal = self._goal_col if self._goal_col is not None else lay.col_of(cur)
            row = lay.row_of(cur) + sign * rows
            row = max(0, min(row, lay.row_of(last)))
            target = doc.unit_start(min(lay.row_start(row) + goal, last))
            if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
                # Page keys scroll the view by a page too: that is the user scrolling.
                self.scroll_to_row(self._top_row + sign * rows)
            keep_goal = True
        elif key == Qt.Key.Key_Home:
            target = 0 if ctrl else doc.unit_start(lay.row_start(lay.row_of(cur)))
        elif key == Qt.Key.Key_End:
            if ctrl:
                target = doc.unit_start(last)
            else:
                target = doc.unit_start(min(lay.row_start(lay.row_of(cur) + 1) - 1, last))
        if target is None:
            super().keyPressEvent(event)
            return
        if not keep_goal:
            self._goal_col = lay.col_of(target)
        doc.set_cursor(target, extend=shift)
        event.accept()

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.viewport().update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.viewport().update()

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def tooltip_at(self, pos: QPoint) -> str:
        hit = self._hit(pos)
        if hit is None:
            return ""
        return self.tooltip_for(hit[0])

    def tooltip_for(self, offset: int) -> str:
        doc = self.document
        unit = doc.unit_at(offset)
        if unit is None:
            return ""
        resync = self._current_resync()
        lost = resync is not None and resync.origin <= unit.offset < resync.sync_offset
        return _explain(unit, doc.source, doc.dialect, doc.origin, lost)

    def contextMenuEvent(self, event) -> None:
        hit = self._hit(event.pos())
        menu = self.build_context_menu(hit[0] if hit else None)
        menu.exec(event.globalPos())

    def build_context_menu(self, offset: int | None) -> QMenu:
        doc = self.document
        menu = QMenu(self)
        here = menu.addAction("Decode from here")
        here.setObjectName("contextDecodeFromHere")
        if offset is None:
            here.setEnabled(False)
        else:
            here.setToolTip(f"decode as if the stream began at 0x{offset:X}")
            here.triggered.connect(lambda checked=False, o=offset: doc.set_origin(o))
        clear = menu.addAction("Clear origin")
        clear.setEnabled(doc.origin is not None)
        clear.triggered.connect(lambda checked=False: doc.set_origin(None))
        menu.addSeparator()
        menu.addAction("Copy as hex").triggered.connect(lambda checked=False: self.copy_hex())
        menu.addAction("Copy as text").triggered.connect(lambda checked=False: self.copy_text())
        if self.context_actions:
            menu.addSeparator()
            for action in self.context_actions:
                menu.addAction(action)
        return menu

    # ------------------------------------------------------------------ copying
    def _copy_range(self) -> tuple[int, int]:
        doc = self.document
        if doc.has_selection:
            return doc.selection
        unit = doc.unit_at(doc.cursor)
        return (unit.offset, unit.end) if unit else (0, 0)

    def copy_hex(self) -> str:
        start, end = self._copy_range()
        text = self.document.read(start, min(end - start, 16 << 20)).hex(" ").upper()
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_text(self) -> str:
        start, end = self._copy_range()
        doc = self.document
        end = min(end, start + (16 << 20))
        units = [u for u in doc.units(start, end) if u.offset >= start and u.offset < end]
        text = decoder.decode_units(units, b"")
        QGuiApplication.clipboard().setText(text)
        return text

    # ------------------------------------------------------------------ painting
    def _current_resync(self):
        return self.document.resync()

    def paintEvent(self, event) -> None:
        p = QPainter(self.viewport())
        try:
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        pal = style.Palette.current()
        lay = self._layout
        doc = self.document
        vp = self.viewport().rect()
        start, end = lay.visible_range(self._top_row, vp.height())
        sel_start, sel_end = doc.selection
        selected = (max(sel_start, start), min(sel_end, end)) \
            if sel_end > sel_start and sel_start < end and sel_end > start else None
        ratio = self.devicePixelRatioF()
        if ratio != self._pixmaps_ratio:
            # Moved to a screen of another scale: the small pictures are redrawn there.
            self._pixmaps.clear()
            self._pixmaps_ratio = ratio
        hscroll = self.horizontalScrollBar().value()
        key = (id(pal), pal.theme, id(lay), self._top_row, vp.width(), vp.height(), hscroll,
               ratio, id(doc.source), doc.size, doc.origin, doc.dialect, selected,
               tuple(doc.matches_in(start, end)))
        if self._base is None or key != self._base_key:
            pm = QPixmap(max(1, math.ceil(vp.width() * ratio)), max(1, math.ceil(vp.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            self._paint_base(pm)
            self._base, self._base_key = pm, key
        p.drawPixmap(0, 0, self._base)
        p.translate(-hscroll, 0)
        self._paint_cursor(p, pal, *self.last_paint_range)

    def _paint_base(self, pm: QPixmap) -> None:
        """Everything but the cursor, on ``pm`` (the viewport's size).

        The cells of each row are pictures kept by what the row shows (its bytes, its
        units, what is selected, matched or lost on it): a page of NULs is one picture
        drawn forty times, and a scroll by a row draws one new row. When most rows are
        new (a jump), they are drawn in one pass and cut into row pictures afterwards;
        the offsets and the origin and sync bars are drawn over them."""
        pal = style.Palette.current()
        lay = self._layout
        doc = self.document
        vp = self.viewport().rect()
        height = vp.height()
        bg = pal.color("background")
        cw, lh = self._cw, self._lh
        top = self._top_row
        hscroll = self.horizontalScrollBar().value()
        ratio = pm.devicePixelRatio()
        start, end = lay.visible_range(top, height)
        data = doc.read(start, end - start) if end > start else b""
        end = start + len(data)
        self.last_paint_range = (start, end)
        units = doc.units(start, end) if end > start else []
        nrows = lay.visible_rows(height)
        base_y = self._ascent + (lh - QFontMetricsF(self._font).height()) / 2
        origin = doc.origin
        resync = self._current_resync() if origin is not None else None
        sync_at = resync.sync_offset if resync is not None else None

        keys = self._row_keys(pal, start, data, units, origin, sync_at, vp.width(), hscroll, ratio)
        cache = self._row_pictures
        missing: dict = {}
        for r, k in enumerate(keys):
            if k not in cache and k not in missing:
                missing[k] = r
        p = QPainter(pm)
        try:
            p.fillRect(vp, bg)
            if len(missing) > max(2, len(keys) // 3):
                # Mostly new rows: one pass over the page, then cut into row pictures.
                p.save()
                p.translate(-hscroll, 0)
                self._paint_cells(p, pal, start, data, units, top, base_y)
                p.restore()
                p.end()
                px_w, px_h = pm.width(), math.ceil(lh * ratio)
                for k, r in missing.items():
                    y = math.floor(r * lh * ratio)
                    if y + px_h > pm.height():
                        continue  # the last row, cut by the viewport's bottom edge
                    row_pm = pm.copy(0, y, px_w, px_h)
                    row_pm.setDevicePixelRatio(ratio)
                    self._keep_row(k, row_pm)
                p.begin(pm)
            else:
                # The page's pictures, held here: keeping the new ones may push old ones
                # of this very page out of the cache.
                pictures = {}
                for k in keys:
                    if k not in missing and k not in pictures:
                        pictures[k] = cache[k]
                        cache.move_to_end(k)
                for k, r in missing.items():
                    pictures[k] = self._row_picture(pal, start, data, units, top, r, base_y,
                                                    vp.width(), hscroll, ratio, bg)
                    self._keep_row(k, pictures[k])
                for r, k in enumerate(keys):
                    p.drawPixmap(0, r * lh, pictures[k])
            p.translate(-hscroll, 0)
            p.setFont(self._font)
            # Offset column, on its own shade, and the column dividers.
            off_right = lay.cells_x_chars * cw - cw
            p.fillRect(QRect(0, 0, off_right, height), pal.color("alternate_background"))
            p.setPen(pal.color("offset_text"))
            rows_with_data = len(keys) if data else (1 if doc.size == 0 else 0)
            for r in range(min(nrows, rows_with_data)):
                p.drawText(int(lay.offset_x), int(r * lh + base_y), lay.format_offset(lay.row_start(top + r)))
            p.setPen(pal.color("grid"))
            p.drawLine(off_right, 0, off_right, height)
            chars_left = lay.chars_x_chars * cw - cw
            p.drawLine(chars_left, 0, chars_left, height)
            # Origin and back-in-step markers: vertical bars with a flag on top.
            last_row = top + nrows - 1
            if resync is not None:
                self._paint_bar(p, origin, pal.color("origin"), top, last_row, "origin")
                if sync_at is not None and sync_at < doc.size:
                    self._paint_bar(p, sync_at, pal.color("sync"), top, last_row, "sync")
        finally:
            if p.isActive():
                p.end()

    # Row pictures kept: about three pages of a maximised view (a few MiB).
    ROW_PICTURES = 160

    def _keep_row(self, key, picture: QPixmap) -> None:
        cache = self._row_pictures
        cache[key] = picture
        cache.move_to_end(key)
        while len(cache) > self.ROW_PICTURES:
            cache.popitem(last=False)

    def _row_keys(self, pal, start: int, data: bytes, units, origin, sync_at, width: int,
                  hscroll: int, ratio: float) -> list:
        """What each row with data shows, as a hashable key: two rows with equal keys
        paint the same pixels (offsets and bars aside)."""
        doc = self.document
        n = self._layout.bytes_per_row
        sel_start, sel_end = doc.selection
        lost = (origin, sync_at) if origin is not None and sync_at is not None and sync_at > origin else None
        view = (id(pal), pal.theme, width, hscroll, ratio)
        dialect = doc.dialect

        def spans_of(rs: int, re: int) -> tuple:
            """The lost bytes, the selection and the matches, as parts of the row."""
            return tuple((max(a, rs) - rs, min(b, re) - rs) if a < re and b > rs else None
                         for a, b in ((lost if lost else (0, 0)), (sel_start, sel_end),
                                      *doc.matches_in(rs, re)))

        keys = []
        count = len(units)
        ui = 0
        size = len(data)
        for i in range(0, size, n):
            rs = start + i
            re = start + min(i + n, size)
            while ui < count and units[ui].offset + units[ui].length <= rs:
                ui += 1
            row = data[i:i + n]
            last = ui + (re - rs) - 1
            if (row.isascii() and last < count and units[ui].offset == rs
                    and units[last].offset == re - 1
                    and (origin is None or origin <= rs or origin >= re)):
                # Every byte its own valid unit, its warnings the dialect's for that byte
                # (the bytes are in the key): no need to look at each unit.
                keys.append((view, row, ("ascii", dialect, origin is not None and re <= origin),
                             spans_of(rs, re)))
                ui = last + 1
                continue
            j = ui
            sig = []
            while j < count and units[j].offset < re:
                u = units[j]
                sig.append((u.offset - rs, u.length, u.kind, u.value, u.replacements, u.warnings,
                            origin is not None and u.offset + u.length <= origin))
                j += 1
            keys.append((view, row, tuple(sig), spans_of(rs, re)))
        return keys

    def _row_picture(self, pal, start: int, data: bytes, units, top: int, r: int, base_y: float,
                     width: int, hscroll: int, ratio: float, bg: QColor) -> QPixmap:
        """Row ``r`` of the page (counted from ``top``) drawn on a picture of its own."""
        n = self._layout.bytes_per_row
        lh = self._lh
        rs = start + r * n
        row_data = data[r * n:(r + 1) * n]
        re = rs + len(row_data)
        row_units = [u for u in units if u.offset < re and u.offset + u.length > rs]
        pm = QPixmap(max(1, math.ceil(width * ratio)), max(1, math.ceil(lh * ratio)))
        pm.setDevicePixelRatio(ratio)
        pm.fill(bg)
        q = QPainter(pm)
        try:
            q.translate(-hscroll, 0)
            self._paint_cells(q, pal, rs, row_data, row_units, top + r, base_y)
        finally:
            q.end()
        return pm

    def _paint_cells(self, p: QPainter, pal, start: int, data: bytes, units, top: int,
                     base_y: float) -> None:
        """The hex and character cells of the rows from ``top`` holding ``data`` (which
        begins at ``start``, a row start), with their boxes, fills, selection, matches,
        lost bytes and marks; row ``top`` is drawn at y = 0."""
        lay = self._layout
        doc = self.document
        p.setFont(self._font)
        cw, lh = self._cw, self._lh
        n = lay.bytes_per_row
        end = start + len(data)
        last_row = top + max(1, -(-len(data) // n)) - 1
        origin = doc.origin
        resync = self._current_resync() if origin is not None else None
        lost_end = resync.sync_offset if resync is not None else None

        # Per-byte text colour for the cells, and unit boxes.
        text_color = pal.color("text")
        muted = pal.color("muted_text")
        colors = [text_color] * len(data)
        color_cache: dict = {}
        half = cw // 2
        cell_w = lay.cell_w
        pen_cache: dict = {}

        def quiet(c: QColor) -> QColor:
            q = QColor(c)
            q.setAlphaF(0.55)
            return q

        boxes = []   # (unit, fill, border) for the second pass
        for u in units:
            role = style.role_for(u)
            warn = bool(u.warnings)
            dim = origin is not None and u.end <= origin
            key = (role, warn, dim)
            entry = color_cache.get(key)
            if entry is None:
                main = pal.unit_color(u)
                fill = pal.unit_fill(u)
                if dim:
                    main = QColor(muted)
                    fill = QColor(fill)
                    fill.setAlphaF(0.35)
                entry = (main, quiet(main), fill, role != style.ASCII or warn)
                color_cache[key] = entry
            main, q, fill, boxed = entry
            i0 = u.offset - start
            i1 = min(u.end - start, len(data))
            if 0 <= i0 < len(colors):
                colors[i0] = main
            for i in range(max(i0 + 1, 0), i1):
                colors[i] = q if u.kind == K.VALID else main
            if boxed:
                boxes.append((u, fill, main))

        # Unit pieces per row: (row, first col, last col, open left, open right, unit,
        # fill, border). A 1-byte unit needs no segment arithmetic.
        cell_xs = [lay.cell_x(c) for c in range(n)]
        char_xs = [lay.char_x(c) for c in range(n + 1)]
        open_left_x = cell_xs[0] - cw
        open_right_x = lay.cells_end_chars * cw + cw
        pieces = []
        for u, fill, border in boxes:
            if u.length == 1:
                i = u.offset - start
                if 0 <= i < len(data):
                    pieces.append((i // n, i % n, i % n, False, False, u, fill, border))
                continue
            for seg in lay.segments(u.offset, u.end, top, last_row):
                pieces.append((seg.row - top, seg.first, seg.last, seg.open_left,
                               seg.open_right, u, fill, border))

        # Unit fills, in the cells and under the glyphs; neighbours of one colour on a
        # row are filled as one rectangle (a run of NULs is one fill, not hundreds).
        run = None  # [row, first, last, open_left, open_right, fill]
        runs = []
        for r, c0, c1, ol, orr, u, fill, border in pieces:
            if (run is not None and run[0] == r and run[2] + 1 == c0 and run[5] is fill
                    and not run[4] and not ol):
                run[2], run[4] = c1, orr
            else:
                run = [r, c0, c1, ol, orr, fill]
                runs.append(run)
        for r, c0, c1, ol, orr, fill in runs:
            y = r * lh
            x0 = open_left_x if ol else cell_xs[c0] - half + 1
            x1 = open_right_x if orr else cell_xs[c1] + cell_w + half - 1
            p.fillRect(QRect(x0, y + 1, x1 - x0, lh - 2), fill)
            p.fillRect(QRect(char_xs[c0], y + 1, char_xs[c1 + 1] - char_xs[c0], lh - 2), fill)

        def bands(a: int, b: int, inset: int):
            """The rectangles (hex cells, then characters) covering bytes [a, b) of
            these rows, ``inset`` pixels in from the row's top and bottom."""
            for seg in lay.segments(max(a, start), min(b, end), top, last_row):
                y = (seg.row - top) * lh + inset
                x0 = lay.cell_x(seg.first) - half
                x1 = lay.cell_x(seg.last) + cell_w + half
                c0 = lay.char_x(seg.first)
                yield QRect(x0, y, x1 - x0, lh - 2 * inset)
                yield QRect(c0, y, lay.char_x(seg.last + 1) - c0, lh - 2 * inset)

        # Bytes lost to resynchronization: hatched.
        if resync is not None and lost_end > origin:
            lost_color = pal.color("lost")
            hatch = QBrush(pal.color("origin"), Qt.BrushStyle.BDiagPattern)
            for rect in bands(origin, lost_end, 1):
                p.fillRect(rect, lost_color)
                p.fillRect(rect, hatch)

        # Selection.
        sel_start, sel_end = doc.selection
        if sel_end > sel_start:
            sel = QColor(pal.color("selection"))
            sel.setAlphaF(0.75)
            for rect in bands(sel_start, sel_end, 0):
                p.fillRect(rect, sel)

        # Find matches (the find bar keeps them sorted in document.matches).
        match_color = QColor(pal.color("match"))
        match_color.setAlphaF(0.8)
        for m0, m1 in doc.matches_in(start, end):
            for rect in bands(m0, m1, 0):
                p.fillRect(rect, match_color)

        # Box outlines: open on the side where a unit goes on in another row.
        for r, c0, c1, ol, orr, u, fill, border in pieces:
            if u.length == 1 and u.kind == K.VALID:
                continue  # a lone character with a warning: its fill and mark say it
            pen = pen_cache.get(border.rgba())
            if pen is None:
                pen = pen_cache[border.rgba()] = QPen(border, 1)
            p.setPen(pen)
            y0 = r * lh + 1
            y1 = y0 + lh - 3
            x0 = open_left_x if ol else cell_xs[c0] - half + 1
            x1 = open_right_x - 1 if orr else cell_xs[c1] + cell_w + half - 2
            if not ol and not orr:
                p.drawRect(x0, y0, x1 - x0, y1 - y0)
                continue
            p.drawLine(x0, y0, x1, y0)
            p.drawLine(x0, y1, x1, y1)
            if not ol:
                p.drawLine(x0, y0, x0, y1)
            if not orr:
                p.drawLine(x1, y0, x1, y1)

        # Byte cells: a cached picture per spelling and colour. Qt shapes every string
        # it draws (about 8 us a call and 0.6 us a character), a picture is a copy: a
        # page of mixed bytes was hundreds of drawText calls, and per-colour strings
        # shape their padding too.
        table = spelling_table(lay.byte_format)
        rgba_of: dict = {}
        sprite = self._text_sprite
        for r in range((len(data) + n - 1) // n):
            i0 = r * n
            y = r * lh
            for k in range(min(n, len(data) - i0)):
                color = colors[i0 + k]
                rgba = rgba_of.get(id(color))
                if rgba is None:
                    rgba = rgba_of[id(color)] = color.rgba()
                p.drawPixmap(cell_xs[k] - 1, y, sprite(table[data[i0 + k]], rgba, base_y))

        # Marks: a letter per problem kind, small, at the box's top right (cached
        # pixmaps: hundreds of them on a page of NULs).
        for r, c0, c1, ol, orr, u, fill, border in pieces:
            if ol:
                continue  # the mark sits on the unit's first row
            mark = style.mark_for(u)
            if mark:
                p.drawPixmap(cell_xs[c0] + cell_w - 2, r * lh, self._mark_pixmap(mark, border))

        # The character column.
        self._paint_chars(p, pal, units, start, end, top, last_row, colors, data, base_y,
                          color_cache)

    def _paint_cursor(self, p: QPainter, pal, start: int, end: int) -> None:
        """The cursor: a frame around its byte in both columns."""
        doc = self.document
        lay = self._layout
        cw, lh = self._cw, self._lh
        half = cw // 2
        cell_w = lay.cell_w
        char_w = lay.char_w
        top = self._top_row
        if doc.size and start <= doc.cursor < max(end, start + 1):
            cur = doc.cursor
            r = lay.row_of(cur) - top
            col = lay.col_of(cur)
            focused = self.hasFocus()
            pen = QPen(pal.color("cursor"), 2 if focused else 1)
            if not focused:
                pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRect(lay.cell_x(col) - half + 1, r * lh + 1, cell_w + cw - 2, lh - 2))
            p.drawRect(QRect(lay.char_x(col) + 1, r * lh + 1, char_w - 2, lh - 2))

    def _paint_bar(self, p: QPainter, offset: int, color: QColor, top: int, last_row: int,
                   label: str) -> None:
        lay = self._layout
        row = lay.row_of(offset)
        if not (top <= row <= last_row):
            return
        col = lay.col_of(offset)
        y = (row - top) * self._lh
        cw = self._cw
        pen = QPen(color, 2)
        p.setPen(pen)
        for x in (lay.cell_x(col) - cw // 2, lay.char_x(col)):
            p.drawLine(x, y, x, y + self._lh - 1)
            # a small flag so the bar reads without colour too
            flag = [QPoint(x, y), QPoint(x + 5, y + 2), QPoint(x, y + 4)] if label == "origin" \
                else [QPoint(x, y + self._lh - 5), QPoint(x + 5, y + self._lh - 3), QPoint(x, y + self._lh - 1)]
            p.setBrush(color)
            p.drawPolygon(flag)
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _mark_pixmap(self, mark: str, color: QColor) -> QPixmap:
        key = ("mark", mark, color.rgba())
        pm = self._pixmaps.get(key)
        if pm is None:
            dpr = self.devicePixelRatioF()
            w, h = self._cw + 1, self._lh // 2 + 2
            pm = style.clear_picture(w, h, dpr)
            q = QPainter(pm)
            q.setFont(self._mark_font)
            q.setPen(color)
            q.drawText(QRect(0, 0, w, h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, mark)
            q.end()
            self._keep_pixmap(key, pm)
        return pm

    def _keep_pixmap(self, key, pm: QPixmap) -> None:
        if len(self._pixmaps) > 8192:   # a few MiB of tiny pictures at most
            self._pixmaps.clear()
        self._pixmaps[key] = pm

    def _text_sprite(self, text: str, rgba: int, base_y: float) -> QPixmap:
        """``text`` in the main font and colour ``rgba`` on a transparent picture one
        row high, one pixel of margin on the left, its baseline where the row's text
        sits (a byte's spelling, a plain character)."""
        key = ("text", text, rgba)
        pm = self._pixmaps.get(key)
        if pm is None:
            dpr = self.devicePixelRatioF()
            w = len(text) * self._cw + 3
            pm = style.clear_picture(w, self._lh, dpr)
            q = QPainter(pm)
            try:
                q.setFont(self._font)
                q.setPen(QColor.fromRgba(rgba))
                q.drawText(1, int(base_y), text)
            finally:
                q.end()
            self._keep_pixmap(key, pm)
        return pm

    def _glyph_sprite(self, text: str, color: QColor, flagged: bool, base_y: float) -> QPixmap:
        """A character cell's glyph (and, for a problem, its flag: a small triangle in
        the corner, so it reads without colour) on a transparent picture one row high,
        one pixel of margin on the left. A page of random bytes is hundreds of flagged
        U+FFFD: drawing a picture is far cheaper than drawing text and a polygon."""
        key = ("glyph", text, color.rgba(), flagged)
        pm = self._pixmaps.get(key)
        if pm is None:
            cw, lh = self._cw, self._lh
            dpr = self.devicePixelRatioF()
            w = max(math.ceil(QFontMetricsF(self._font).horizontalAdvance(text)), cw + 2) + 2
            pm = style.clear_picture(w, lh, dpr)
            q = QPainter(pm)
            try:
                q.setFont(self._font)
                q.setPen(color)
                q.drawText(1, int(base_y), text)
                if flagged:
                    q.setBrush(color)
                    q.setPen(Qt.PenStyle.NoPen)
                    x = 1
                    q.drawPolygon([QPoint(x + cw - 4, 1), QPoint(x + cw + 1, 1), QPoint(x + cw + 1, 6)])
            finally:
                q.end()
            self._keep_pixmap(key, pm)
        return pm

    def _is_cell_glyph(self, text: str) -> bool:
        """A single character the main font itself draws one cell wide: it can join a
        run of plain cells drawn as one string."""
        ok = self._cell_glyph.get(text)
        if ok is None:
            fm = QFontMetricsF(self._font)
            ok = (len(text) == 1 and self._coverage.in_main_font(ord(text))
                  and abs(fm.horizontalAdvance(text) - self._cw) < 0.5)
            self._cell_glyph[text] = ok
        return ok

    def _glyph_cells(self, text: str) -> int:
        """How many one-character cells a glyph covers."""
        w = self._glyph_width.get(text)
        if w is None:
            w = self._glyph_width[text] = max(1, math.ceil(
                QFontMetricsF(self._font).horizontalAdvance(text) / self._cw - 0.1))
        return w

    def _paint_chars(self, p: QPainter, pal, units, start, end, top, last_row, colors, data,
                     base_y, color_cache) -> None:
        lay = self._layout
        lh = self._lh
        n = lay.bytes_per_row
        muted = pal.color("muted_text")
        p.setFont(self._font)
        # Plain cells (printable ASCII and the continuation dot, all one advance wide)
        # are collected per row and drawn as runs; everything else one by one.
        rows_plain: dict[int, list] = {}
        singles = []
        compacts = []
        dot = style.CONTINUATION_MARK
        for u in units:
            covered = u.offset + 1  # continuation cells up to here are under the glyph
            if start <= u.offset < end:
                i = u.offset - start
                color = colors[i]
                if u.kind == K.VALID and 0x21 <= u.value < 0x7F and not u.warnings:
                    rows_plain.setdefault(i // n, []).append((i % n, chr(u.value), color))
                    continue
                text, kind = style.glyph_for(u, False)
                if kind == style.GLYPH and text != " " and not self._coverage.can_draw(text):
                    text, kind = f"{u.value:04X}", style.CODEPOINT
                if kind in (style.INVISIBLE, style.CODEPOINT) or (
                        kind == style.CONTROL_PICTURE and len(text) > 1):
                    if text.startswith("U+"):
                        text = text[2:]  # the box itself says "code point"
                    # Compact text across the unit's cells on this row.
                    row_end = lay.row_start(lay.row_of(u.offset) + 1)
                    last = min(u.end, row_end) - 1
                    compacts.append((i // n, i % n, last - lay.row_start(lay.row_of(u.offset)),
                                     text, color))
                    covered = u.end
                elif text != " " and u.kind == K.VALID and self._is_cell_glyph(text):
                    rows_plain.setdefault(i // n, []).append((i % n, text, color))
                elif text != " ":
                    singles.append((i // n, i % n, text, color, u.kind != K.VALID))
                    if u.length > 1:
                        covered = u.offset + min(u.length, self._glyph_cells(text))
            for off in range(max(covered, start), min(u.end, end)):
                i = off - start
                rows_plain.setdefault(i // n, []).append((i % n, dot, muted))
        # Plain cells: a cached picture each (see the byte cells).
        rgba_of: dict = {}
        sprite = self._text_sprite
        for r, cells in rows_plain.items():
            y = r * lh
            for col, ch, color in cells:
                rgba = rgba_of.get(id(color))
                if rgba is None:
                    rgba = rgba_of[id(color)] = color.rgba()
                p.drawPixmap(lay.char_x(col) - 1, y, sprite(ch, rgba, base_y))
        p.setFont(self._font)
        for r, col, text, color, flagged in singles:
            p.drawPixmap(lay.char_x(col) - 1, r * lh, self._glyph_sprite(text, color, flagged, base_y))
        for r, c0, c1, text, color in compacts:
            x0 = lay.char_x(c0)
            p.drawPixmap(x0, r * lh, self._compact_sprite(text, color, lay.char_x(c1 + 1) - x0))

    def _compact_sprite(self, text: str, color: QColor, width: int) -> QPixmap:
        """A code, control name or U+XXXX in a thin frame across ``width`` pixels of the
        character column, on a transparent picture one row high (pages of binary data
        show hundreds of them: a picture each is one copy instead of five calls and a
        shaped string)."""
        key = ("compact", text, color.rgba(), width)
        pm = self._pixmaps.get(key)
        if pm is None:
            lh = self._lh
            pm = style.clear_picture(width, lh, self.devicePixelRatioF())
            q = QPainter(pm)
            try:
                rect = QRect(0, 2, width - 1, lh - 4)
                frame = QColor(color)
                frame.setAlphaF(0.5)
                q.setPen(frame)
                q.drawRect(rect)
                q.setFont(self._fit_small(text, rect.width() - 1))
                q.setPen(color)
                q.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            finally:
                q.end()
            self._keep_pixmap(key, pm)
        return pm

    def _fit_small(self, text: str, width: int) -> QFont:
        """The small font, shrunk until ``text`` fits ``width`` pixels (a tiny box)."""
        key = (text, width)
        font = self._small_fits.get(key)
        if font is None:
            font = QFont(self._small)
            size = font.pointSizeF()
            while size > 4.0 and QFontMetricsF(font).horizontalAdvance(text) > width:
                size -= 0.5
                font.setPointSizeF(size)
            self._small_fits[key] = font
        return font
