"""The flat scroll bars: each look is drawn once into a picture, and the picture is
what drawing it directly gives, in every state."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QScrollBar, QStyle, QStyleOptionSlider

from inspector.gui.look.scrollstyle import FlatScrollBarStyle

State = QStyle.StateFlag
SC = QStyle.SubControl


def _draw(style, option, bar, direct: bool) -> QImage:
    image = QImage(bar.size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    if direct:
        style.draw_bar(QStyle.ComplexControl.CC_ScrollBar, option, p, bar)
    else:
        style.drawComplexControl(QStyle.ComplexControl.CC_ScrollBar, option, p, bar)
    p.end()
    return image


@pytest.mark.parametrize("orientation", [Qt.Orientation.Vertical, Qt.Orientation.Horizontal])
@pytest.mark.parametrize("look", ["plain", "hover", "pressed", "disabled", "no range"])
def test_a_kept_picture_looks_like_drawing_the_bar(qtbot, orientation, look):
    style = FlatScrollBarStyle()
    bar = QScrollBar(orientation)
    qtbot.addWidget(bar)
    bar.resize(16, 300) if orientation == Qt.Orientation.Vertical else bar.resize(300, 16)
    bar.setStyle(style)
    bar.setRange(0, 0 if look == "no range" else 1000)
    bar.setValue(400)
    option = QStyleOptionSlider()
    bar.initStyleOption(option)
    if look == "hover":
        option.activeSubControls = SC.SC_ScrollBarSlider
        option.state |= State.State_MouseOver
    elif look == "pressed":
        option.activeSubControls = SC.SC_ScrollBarSlider
        option.state |= State.State_Sunken
    elif look == "disabled":
        option.state &= ~State.State_Enabled
    first = _draw(style, option, bar, direct=False)
    assert style.kept_pictures == 1
    assert _draw(style, option, bar, direct=False) == first   # from the kept picture
    assert style.kept_pictures == 1
    assert first == _draw(style, option, bar, direct=True)


def test_each_look_is_its_own_picture(qtbot):
    style = FlatScrollBarStyle()
    bar = QScrollBar(Qt.Orientation.Vertical)
    qtbot.addWidget(bar)
    bar.resize(16, 300)
    bar.setStyle(style)
    bar.setRange(0, 1000)
    looks = set()
    for value in (0, 500, 1000):
        bar.setValue(value)
        option = QStyleOptionSlider()
        bar.initStyleOption(option)
        looks.add(_draw(style, option, bar, direct=False).bits().tobytes())
    assert style.kept_pictures == 3 and len(looks) == 3
