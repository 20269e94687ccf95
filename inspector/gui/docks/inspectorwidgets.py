"""Widgets the sequence inspector is built from: ``SidewaysScroll`` (holds the bit
layout and scrolls it sideways) and ``FactsGrid`` (the unit's facts, a name and a value
per row)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QScrollArea, QSizePolicy, QWidget

from inspector.gui.look.labels import HoverSelectableLabel, SteadyLabel


class SidewaysScroll(QScrollArea):
    """Holds a widget of fixed size (the bit layout) and scrolls it sideways when the
    dock is narrower, so that the dock's text still wraps at the dock's width (without
    it the widest row set the width of the whole dock, and the explanation ran off its
    right edge)."""

    def __init__(self, inner: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidgetResizable(False)
        self.setWidget(inner)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.refit()

    def refit(self) -> None:
        """The inner widget took a new size: take it, and the height it needs."""
        inner = self.widget()
        inner.resize(inner.sizeHint())
        self.updateGeometry()

    def _bar_height(self) -> int:
        return (self.horizontalScrollBar().sizeHint().height()
                if self.widget().width() > self.viewport().width() else 0)

    def sizeHint(self) -> QSize:
        hint = self.widget().sizeHint()
        return QSize(hint.width(), hint.height() + self._bar_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(60, self.sizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.updateGeometry()   # the bar may come or go, and the height with it


class FactsGrid(QWidget):
    """The unit's facts, a name and a value per row, as plain selectable labels.

    Rich text (an HTML table in one label) cost 4-5 ms of layout and painting on every
    cursor move; here only the values that changed are set again (a jump through a page
    of NULs changes the offset alone), and the kind is coloured through the label's
    palette."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("unitFacts")
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(10)
        self._grid.setVerticalSpacing(1)
        self._grid.setColumnStretch(1, 1)
        self._rows: list[tuple[QLabel, QLabel]] = []
        self._shown: list[tuple[str, str]] = []
        self._colors: tuple = ()
        # The rows a unit can need, made and polished now: making a label the first
        # time a unit needs one more row (a warning) cost the jump that met it ~8 ms.
        for _ in range(self.PREPARED_ROWS):
            self._add_row()

    PREPARED_ROWS = 16
    # Rows visible from the start (empty until needed): a valid character with a
    # warning needs 12, and a row shown later relays out the whole dock once.
    SHOWN_ROWS = 12

    def _add_row(self) -> None:
        name, value = SteadyLabel(), HoverSelectableLabel()
        value.setWordWrap(True)
        r = len(self._rows)
        self._grid.addWidget(name, r, 0, Qt.AlignmentFlag.AlignTop)
        self._grid.addWidget(value, r, 1, Qt.AlignmentFlag.AlignTop)
        for label in (name, value):
            label.ensurePolished()
            if r >= self.SHOWN_ROWS:
                label.hide()
        self._rows.append((name, value))
        self._colors = ()  # new labels need their colours

    def set_facts(self, facts: list[tuple[str, str]], kind_color: QColor | None,
                  muted: QColor | None = None) -> None:
        colors = (kind_color.rgba() if kind_color is not None else None,
                  muted.rgba() if muted is not None else None)
        if facts == self._shown and colors == self._colors:
            return
        while len(self._rows) < len(facts):
            self._add_row()
        recolor = colors != self._colors
        for r, (name_label, value_label) in enumerate(self._rows):
            if r >= len(facts):
                # A row once shown stays, emptied: showing a hidden row again relaid
                # out the whole dock (3-8 ms a time, inside a jump between a letter
                # and a NUL); an empty row is a blank line at the bottom.
                if r < len(self._shown):
                    name_label.clear()
                    value_label.clear()
                continue
            key, value = facts[r]
            old = self._shown[r] if r < len(self._shown) else None
            if name_label.isHidden():
                name_label.show()
                value_label.show()
            if old is None or old[0] != key:
                name_label.setText(key)
            if old is None or old[1] != value:
                value_label.setText(value)
            if recolor or old is None or (old[0] == "Kind") != (key == "Kind"):
                self._paint_row(name_label, value_label, key == "Kind", kind_color, muted)
        self._shown = list(facts)
        self._colors = colors

    @staticmethod
    def _paint_row(name_label: QLabel, value_label: QLabel, is_kind: bool,
                   kind_color: QColor | None, muted: QColor | None) -> None:
        for label, color in ((name_label, muted), (value_label, kind_color if is_kind else None)):
            if color is None:
                label.setPalette(QPalette())   # nothing set: inherit the window's colours
            else:
                pal = QPalette()
                pal.setColor(QPalette.ColorRole.WindowText, color)
                label.setPalette(pal)          # only the text colour is set
        font = value_label.font()
        if font.bold() != is_kind:
            font.setBold(is_kind)
            value_label.setFont(font)

    def text(self) -> str:
        """The facts as lines of "name: value" (what the copy button copies)."""
        return "\n".join(f"{k}: {v}" for k, v in self._shown)

    def kind_color(self) -> QColor | None:
        for (name, value), (_, label) in zip(self._shown, self._rows):
            if name == "Kind":
                return label.palette().color(QPalette.ColorRole.WindowText)
        return None
