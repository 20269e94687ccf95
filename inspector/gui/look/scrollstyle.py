"""Flat scroll bars for the window (the panes and the docks).

The panes are repainted whole on every jump, and a pane's full-height scroll bar drawn
by the platform style (Fusion's gradients and bevels) costs more than a page of hex
rows; in a whole-window repaint the docks' bars cost as much again. These bars keep the platform's geometry, hit areas and behaviour (the base style
still says where the groove, handle and arrows are) and draw them as flat fills from the
widget's palette: the handle, its hover and pressed states, the arrows, the disabled look.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOption, QStyleOptionSlider

CC = QStyle.ComplexControl
SC = QStyle.SubControl
PE = QStyle.PrimitiveElement
State = QStyle.StateFlag


class FlatScrollBarStyle(QProxyStyle):
    """Draws each look of a bar once into a picture kept by what it shows (size, handle,
    state, palette): a whole-window repaint redraws five or six unchanged bars, and
    drawing one (its fills, the base style's geometry and arrows) cost ~0.3 ms."""

    PICTURES = 64

    def __init__(self, *args):
        super().__init__(*args)
        self._pictures: dict = {}

    def drawComplexControl(self, control, option, painter, widget=None) -> None:
        if control != CC.CC_ScrollBar or not isinstance(option, QStyleOptionSlider):
            super().drawComplexControl(control, option, painter, widget)
            return
        rect = option.rect
        handle = self.subControlRect(control, option, SC.SC_ScrollBarSlider, widget) \
            if option.maximum > option.minimum else QRect()
        ratio = painter.device().devicePixelRatioF()
        key = (rect.width(), rect.height(), handle.x(), handle.y(), handle.width(),
               handle.height(), option.state.value, option.activeSubControls.value,
               option.orientation.value, option.palette.cacheKey(), ratio)
        picture = self._pictures.get(key)
        if picture is None:
            picture = QPixmap(max(1, math.ceil(rect.width() * ratio)),
                              max(1, math.ceil(rect.height() * ratio)))
            picture.setDevicePixelRatio(ratio)
            # Opaque (the bar fills its whole rect first): an opaque picture is a plain
            # copy, one with an alpha channel was blended at ~0.25 ms a bar.
            picture.fill(Qt.GlobalColor.black)
            q = QPainter(picture)
            try:
                q.translate(-rect.x(), -rect.y())
                self.draw_bar(control, option, q, widget)
            finally:
                q.end()
            if len(self._pictures) >= self.PICTURES:
                self._pictures.clear()
            self._pictures[key] = picture
        painter.drawPixmap(rect.topLeft(), picture)

    @property
    def kept_pictures(self) -> int:
        """How many looks are kept as pictures now (at most ``PICTURES``)."""
        return len(self._pictures)

    def draw_bar(self, control, option, painter, widget) -> None:
        """Draw the bar itself, without a kept picture (what a picture is made of)."""
        pal = option.palette
        enabled = bool(option.state & State.State_Enabled)
        group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
        painter.fillRect(option.rect, pal.color(group, QPalette.ColorRole.Window))
        horizontal = bool(option.state & State.State_Horizontal)
        # The line between the bar and the pane.
        edge = pal.color(group, QPalette.ColorRole.Mid)
        r = option.rect
        if horizontal:
            painter.fillRect(QRect(r.left(), r.top(), r.width(), 1), edge)
        else:
            painter.fillRect(QRect(r.left(), r.top(), 1, r.height()), edge)
        if option.maximum > option.minimum:
            handle = self.subControlRect(control, option, SC.SC_ScrollBarSlider, widget)
            active = option.activeSubControls & SC.SC_ScrollBarSlider
            if active and option.state & State.State_Sunken:
                color = pal.color(group, QPalette.ColorRole.Dark)
            elif active and option.state & State.State_MouseOver:
                color = pal.color(group, QPalette.ColorRole.Mid).darker(115)
            else:
                color = pal.color(group, QPalette.ColorRole.Mid)
            painter.fillRect(handle.adjusted(3, 3, -2, -2), color)
        arrows = ((SC.SC_ScrollBarSubLine, PE.PE_IndicatorArrowLeft if horizontal else PE.PE_IndicatorArrowUp),
                  (SC.SC_ScrollBarAddLine, PE.PE_IndicatorArrowRight if horizontal else PE.PE_IndicatorArrowDown))
        for sub, arrow in arrows:
            rect = self.subControlRect(control, option, sub, widget)
            if rect.isEmpty():
                continue
            opt = QStyleOption()
            if widget is not None:
                opt.initFrom(widget)
            opt.rect = rect.adjusted(3, 3, -3, -3)
            opt.palette = pal
            opt.state = option.state
            self.baseStyle().drawPrimitive(arrow, opt, painter, widget)


_style: FlatScrollBarStyle | None = None


def flat_scroll_bars(*areas) -> None:
    """Give the scroll areas' bars the flat look (one shared style object, kept alive
    here: Qt does not own a style set on a widget)."""
    global _style
    if _style is None:
        _style = FlatScrollBarStyle()
    for area in areas:
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
            bar.setStyle(_style)
