"""View > Theme for the whole application. The views' palette follows the
application's (style.Palette.current), so a theme is applied by giving the application a
light or dark QPalette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from inspector.gui.look import style


def dark_palette() -> QPalette:
    colors = style.load_palette("dark")
    pal = QPalette()
    bg, text = QColor(colors["background"]), QColor(colors["text"])
    alt = QColor(colors.get("alternate_background", colors["background"]))
    for role, color in (
            (QPalette.ColorRole.Window, alt), (QPalette.ColorRole.WindowText, text),
            (QPalette.ColorRole.Base, bg), (QPalette.ColorRole.AlternateBase, alt),
            (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, alt),
            (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, alt),
            (QPalette.ColorRole.ToolTipText, text),
            (QPalette.ColorRole.Highlight, QColor(colors.get("cursor", "#2f81f7"))),
            (QPalette.ColorRole.HighlightedText, QColor("#ffffff"))):
        pal.setColor(role, color)
    return pal


def apply_to_application(theme: str, previous: str | None) -> bool:
    """Give the application the palette of ``theme`` ("system", "light" or "dark"),
    ``previous`` being the theme applied before (None at first). False without an
    application."""
    app = QApplication.instance()
    if app is None:
        return False
    if theme == "dark":
        app.setPalette(dark_palette())
    elif theme == "light" or previous == "dark":
        # "system" after "dark": the style's own palette again.
        app.setPalette(app.style().standardPalette())
    return True
