"""What the keyboard and the mouse do in the text pane.

:class:`TextInput` turns the pane's key and mouse events into the document's cursor and
selection: moving by units, lines and pages (keeping the column a line move started
from), dragging and double-clicking to select, and the context menu and tooltips.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QToolTip

from inspector.core.analysis import copyformats, findings
from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import category, name as unicode_name
from inspector.gui.panes.textplan import PAD_X


class TextInput:
    """Input for one :class:`~inspector.gui.panes.textview.TextView`, which forwards
    its events here. A handler returns False for an event the view should hand to Qt."""

    def __init__(self, view):
        self.view = view
        self._goal_x: float | None = None  # the x up and down keys aim for
        self._press: tuple[int, int] | None = None  # unit [start, end) a drag began on

    def forget_goal(self) -> None:
        """A new file: up and down aim for the cursor's own x again."""
        self._goal_x = None

    # ------------------------------------------------------------------ keys
    def key_press(self, event) -> bool:
        view = self.view
        doc = view.document
        key = event.key()
        mods = event.modifiers()
        extend = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if event.matches(QKeySequence.StandardKey.Copy):
            view.copyRequested.emit(copyformats.TEXT)
            return True
        if event.matches(QKeySequence.StandardKey.SelectAll):
            doc.set_selection(0, doc.size)
            return True
        if doc.size == 0 or key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            return False
        cursor = doc.cursor
        layout = view.text_layout
        if key == Qt.Key.Key_Left:
            start = doc.unit_start(cursor)
            self._move(doc.unit_start(start - 1) if start > 0 else start, extend)
        elif key == Qt.Key.Key_Right:
            end = doc.unit_end(cursor)
            self._move(end if end < doc.size else doc.unit_start(cursor), extend)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._move_lines(-1 if key == Qt.Key.Key_Up else 1, extend)
        elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            page = max(1, view.visible_line_count(False) - 1)
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
            return False
        event.accept()
        return True

    def _move(self, offset: int, extend: bool, keep_goal: bool = False) -> None:
        if not keep_goal:
            self._goal_x = None
        self.view.document.set_cursor(offset, extend=extend)

    def _goal(self) -> float:
        if self._goal_x is None:
            self._goal_x = self.view.text_layout.position(self.view.document.cursor)[1]
        return self._goal_x

    def _move_lines(self, count: int, extend: bool) -> None:
        goal = self._goal()
        layout = self.view.text_layout
        line = layout.line_at(self.view.document.cursor)
        target = layout.step(line, count)
        if target.start == line.start:
            return
        self._move(layout.offset_at(target, goal), extend, keep_goal=True)

    def _page(self, count: int, extend: bool) -> None:
        """Scroll a page and keep the cursor on the same screen row; a cursor that was
        off screen lands on the new top line, so the pane never jumps back to it."""
        view = self.view
        goal = self._goal()
        layout = view.text_layout
        cursor_line = layout.line_at(view.document.cursor)
        rows = layout.lines_from(view.top, view.visible_line_count(partial=False))
        row = next((i for i, line in enumerate(rows) if line.start == cursor_line.start), None)
        view.scroll_lines(count)
        if row is None:
            target = layout.line_at(view.top)
        else:
            target = layout.step(layout.line_at(view.top), row)
            if target.start == cursor_line.start:
                target = layout.step(cursor_line, count)  # at either end of the file
        self._move(layout.offset_at(target, goal), extend, keep_goal=True)

    # ------------------------------------------------------------------ mouse
    def mouse_press(self, event) -> bool:
        view = self.view
        doc = view.document
        if event.button() != Qt.MouseButton.LeftButton or doc.size == 0:
            return False
        pos = event.position()
        offset = view.offset_at_point(pos)
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
        return True

    def mouse_move(self, event) -> bool:
        if not (event.buttons() & Qt.MouseButton.LeftButton) or self._press is None:
            return False
        view = self.view
        pos = event.position()
        if pos.y() < 0:
            view.scroll_lines(-1)
        elif pos.y() > view.viewport().height():
            view.scroll_lines(1)
        doc = view.document
        start = doc.unit_start(view.offset_at_point(pos))
        end = doc.unit_end(start)
        lo, hi = min(self._press[0], start), max(self._press[1], end)
        doc.set_selection(lo, hi)
        event.accept()
        return True

    def mouse_release(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = None

    def double_click(self, event) -> None:
        """Select the word (letters, digits, marks, _) around the clicked unit."""
        view = self.view
        if event.button() != Qt.MouseButton.LeftButton or view.document.size == 0:
            return
        offset = view.offset_at_point(event.position())
        par = view.text_layout.paragraph_at(offset)
        units = par.units

        def wordish(u) -> bool:
            if u.kind != K.VALID or u.value is None or u.value > 0x10FFFF:
                return False
            # Letters and numbers (what str.isalnum means, asked of the current database).
            return u.value == 0x5F or category(u.value)[0] in "LNM"

        idx = next((i for i, u in enumerate(units) if u.contains(offset)), None)
        if idx is None or not wordish(units[idx]):
            return
        lo = hi = idx
        while lo > 0 and wordish(units[lo - 1]):
            lo -= 1
        while hi + 1 < len(units) and wordish(units[hi + 1]):
            hi += 1
        view.document.set_selection(units[lo].offset, units[hi].end)
        self._press = None
        event.accept()

    # ------------------------------------------------------------------ menu
    def context_menu(self, offset: int) -> QMenu:
        """The context menu for the unit at ``offset``."""
        view = self.view
        doc = view.document
        menu = QMenu(view)
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
        mark = menu.addAction("Add finding…")
        mark.setObjectName("addFinding")
        mark.setEnabled(doc.size > 0)
        mark.triggered.connect(lambda: view.findingRequested.emit(start))
        copy = menu.addAction("Copy text")
        copy.setObjectName("copyText")
        copy.setEnabled(doc.has_selection)
        copy.triggered.connect(lambda: view.copyRequested.emit(copyformats.TEXT))
        menu.addSeparator()
        ws = QAction("Show whitespace and control pictures", menu)
        ws.setObjectName("showWhitespace")
        ws.setCheckable(True)
        ws.setChecked(view.show_whitespace)
        ws.toggled.connect(view.set_show_whitespace)
        menu.addAction(ws)
        return menu

    def show_context_menu(self, event) -> None:
        view = self.view
        offset = view.offset_at_point(QPointF(event.pos()))
        menu = view.context_menu(offset)
        menu.exec(event.globalPos())
        menu.deleteLater()

    # ------------------------------------------------------------------ tooltips
    def show_tooltip(self, event) -> None:
        """The unit under a tooltip event, described."""
        view = self.view
        offset = view.offset_at_point(QPointF(event.pos()))
        unit = view.document.unit_at(offset)
        if unit is not None:
            QToolTip.showText(event.globalPos(), self._describe(unit), view.viewport())

    def _describe(self, unit) -> str:
        doc = self.view.document
        data = doc.read(unit.offset, unit.length).hex(" ").upper()
        where = f"offset {unit.offset:,} (0x{unit.offset:X}), bytes {data}"
        if unit.kind != K.VALID:
            text = f"{K.title(unit.kind)}: {max(unit.replacements, 1)} \u00d7 U+FFFD"
        else:
            text = f"U+{unit.value:04X} {unicode_name(unit.value) or ''}".rstrip()
        if unit.warnings:
            text += "\n" + ", ".join(K.title(w) for w in unit.warnings)
        found = doc.findings_in(unit.offset, unit.end)
        notes = f"\n\n{findings.describe(found)}" if found else ""
        return f"{text}\n{where}{notes}"
