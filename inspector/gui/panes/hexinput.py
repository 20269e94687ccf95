"""What the hex view does with the keyboard, the mouse, hover and its context menu.

A :class:`HexInput` belongs to one :class:`~inspector.gui.panes.hexview.HexView`, which
forwards its events here. Keys and clicks move the document's cursor and selection (by
whole units unless Alt is held), the wheel scrolls or zooms, hover explains the unit
under the mouse, and the context menu sets the origin and copies.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu, QToolTip

from inspector.core.analysis import copyformats, findings

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation
from inspector.core.units.unicode_db import name as cp_name
from inspector.core.units.unitinfo import explain


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
            lines.append(f"warning: {K.title(w)}")
    else:
        info = K.KINDS[unit.kind]
        title, what = info.title, info.summary
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
    """The shared explanation of :mod:`inspector.core.units.unitinfo` under our own
    header."""
    data = source.read(unit.offset, unit.length)
    try:
        reading = interpretation(dialect)
        text = (str(explain(unit, source, reading.name, lost=lost)) if reading.is_utf8
                else reading.explain(unit, data, origin=origin))
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


class HexInput:
    """Event handling for ``view``: each handler returns whether it took the event, so
    the view passes the rest on to Qt. It remembers the column that up and down keep
    (``goal_col``), where a drag began and the part of a wheel step not scrolled yet."""

    WHEEL_ROWS = 3   # rows a wheel step scrolls

    def __init__(self, view):
        self.view = view
        self.document = view.document
        self.goal_col: int | None = None
        self._drag_anchor: int | None = None
        self._wheel_rest = 0

    def hit(self, pos: QPoint):
        """(offset, area) under viewport point ``pos``, or None."""
        view = self.view
        x = pos.x() + view.horizontalScrollBar().value()
        return view.layout_.hit(x, pos.y(), view.top_row)

    # ------------------------------------------------------------------ mouse
    def wheel(self, event) -> None:
        """Ctrl zooms; otherwise scroll, keeping the part of a step a touchpad sends."""
        view = self.view
        dy = event.angleDelta().y()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if dy:
                view.set_zoom(view.zoom + (1 if dy > 0 else -1))
            event.accept()
            return
        self._wheel_rest += dy
        steps = int(self._wheel_rest / 120 * self.WHEEL_ROWS)
        if steps:
            self._wheel_rest -= int(steps * 120 / self.WHEEL_ROWS)
            view.scroll_to_row(view.top_row - steps)
        event.accept()

    def mouse_press(self, event) -> bool:
        self.view.setFocus(Qt.FocusReason.MouseFocusReason)
        hit = self.hit(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and hit is not None:
            doc = self.document
            start = doc.unit_start(hit[0])
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.goal_col = self.view.layout_.col_of(start)
            doc.set_cursor(start, extend=shift)
            self._drag_anchor = start
            event.accept()
            return True
        return False

    def mouse_move(self, event) -> bool:
        if self._drag_anchor is not None and event.buttons() & Qt.MouseButton.LeftButton:
            hit = self.hit(event.position().toPoint())
            if hit is not None:
                doc = self.document
                here = doc.unit_start(hit[0])
                # Whole units: from the unit the drag began on to the unit under the mouse.
                doc.set_cursor(here, extend=True)
            event.accept()
            return True
        return False

    def mouse_release(self) -> None:
        self._drag_anchor = None

    # ------------------------------------------------------------------ keyboard
    def key_press(self, event) -> bool:
        """Arrows, Page Up/Down, Home and End move the cursor (Shift extends the
        selection, Alt steps by a byte instead of a unit); Tab moves the focus on."""
        view = self.view
        key = event.key()
        mods = event.modifiers()
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        doc = self.document
        lay = view.layout_
        size = doc.size
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            view.focusNextPrevChild(key == Qt.Key.Key_Tab and not shift)
            return True
        if size == 0:
            return False
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
            rows = 1 if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) else lay.full_rows(view.viewport().height())
            sign = -1 if key in (Qt.Key.Key_Up, Qt.Key.Key_PageUp) else 1
            goal = self.goal_col if self.goal_col is not None else lay.col_of(cur)
            row = lay.row_of(cur) + sign * rows
            row = max(0, min(row, lay.row_of(last)))
            target = doc.unit_start(min(lay.row_start(row) + goal, last))
            if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
                # Page keys scroll the view by a page too: that is the user scrolling.
                view.scroll_to_row(view.top_row + sign * rows)
            keep_goal = True
        elif key == Qt.Key.Key_Home:
            target = 0 if ctrl else doc.unit_start(lay.row_start(lay.row_of(cur)))
        elif key == Qt.Key.Key_End:
            if ctrl:
                target = doc.unit_start(last)
            else:
                target = doc.unit_start(min(lay.row_start(lay.row_of(cur) + 1) - 1, last))
        if target is None:
            return False
        if not keep_goal:
            self.goal_col = lay.col_of(target)
        doc.set_cursor(target, extend=shift)
        event.accept()
        return True

    # ------------------------------------------------------------------ hover
    def show_tooltip(self, event) -> None:
        """A ToolTip event: explain the unit under the mouse, or hide the tip."""
        text = self.tooltip_at(event.pos())
        if text:
            QToolTip.showText(event.globalPos(), text, self.view.viewport())
        else:
            QToolTip.hideText()
            event.ignore()

    def tooltip_at(self, pos: QPoint) -> str:
        hit = self.hit(pos)
        if hit is None:
            return ""
        return self.tooltip_for(hit[0])

    def tooltip_for(self, offset: int) -> str:
        doc = self.document
        unit = doc.unit_at(offset)
        if unit is None:
            return ""
        resync = doc.resync()
        lost = resync is not None and resync.origin <= unit.offset < resync.sync_offset
        text = _explain(unit, doc.source, doc.interpretation, doc.origin, lost)
        found = doc.findings_at(offset)
        return f"{text}\n\n{findings.describe(found)}" if found else text

    # ------------------------------------------------------------------ context menu
    def context_menu(self, event) -> None:
        hit = self.hit(event.pos())
        menu = self.build_context_menu(hit[0] if hit else None)
        menu.exec(event.globalPos())

    def build_context_menu(self, offset: int | None) -> QMenu:
        """Decode from ``offset`` (the byte clicked; None off the cells), clear the
        origin, copy, then the window's own actions (``view.context_actions``)."""
        view = self.view
        doc = self.document
        menu = QMenu(view)
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
        mark = menu.addAction("Add finding…")
        mark.setObjectName("contextAddFinding")
        mark.setEnabled(doc.size > 0)
        mark.triggered.connect(lambda checked=False, o=offset: view.findingRequested.emit(o))
        for title, fmt in (("Copy as hex", copyformats.HEX), ("Copy as text", copyformats.TEXT)):
            copy = menu.addAction(title)
            copy.setObjectName(f"contextCopyAs_{fmt}")
            copy.triggered.connect(lambda checked=False, f=fmt: view.copyRequested.emit(f))
        if view.context_actions:
            menu.addSeparator()
            for action in view.context_actions:
                menu.addAction(action)
        return menu
