"""How units look: each unit is classified once into a semantic role; colours come from
a palette file per theme (``resources/palettes/*.json``, read through
:mod:`inspector.resources_access`) and glyphs from a separate table. Paint code asks here
and never hard-codes a colour or a substitute glyph.

Problem marks do not rely on colour alone: every error kind also has a short mark (its
``mark`` in the kinds table, :data:`inspector.core.units.kinds.TABLE`) that the views
draw beside the colour. Kinds are coloured by their role in that table.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette, QPixmap, QRawFont, QTextLayout

from inspector import resources_access
from inspector.gui.look import fontcoverage
from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit
from inspector.core.units.unicode_db import category

# Roles of valid units, by structure.
ASCII, MULTI2, MULTI3, MULTI4, MULTI_LONG = "ascii", "multi2", "multi3", "multi4", "multi_long"
WARNING = K.WARNING_ROLE
MULTI_ROLES = (MULTI2, MULTI3, MULTI4, MULTI_LONG)


def mark_of(role: str) -> str:
    """The mark of a role, readable without colour (in the hex cells' corner, the legend,
    the statistics): a kind's from the kinds table, the warnings' one, or none."""
    info = K.KINDS.get(role)
    if info is not None:
        return info.mark
    return K.WARNING_MARK if role == WARNING else ""


def role_for(unit: Unit) -> str:
    """The one classification every view uses for colour."""
    if unit.kind != K.VALID:
        return unit.kind
    if unit.length == 1:
        return ASCII
    if unit.length == 2:
        return MULTI2
    if unit.length == 3:
        return MULTI3
    if unit.length == 4:
        return MULTI4
    return MULTI_LONG  # CESU-8 pairs (6 bytes), 1993 forms (5 and 6 bytes)


def mark_for(unit: Unit) -> str:
    if unit.kind != K.VALID:
        return K.KINDS[unit.kind].mark
    return K.WARNING_MARK if unit.warnings else ""


def fill_role(role: str) -> str:
    """The background role of a unit's box."""
    if role in MULTI_ROLES:
        return role + "_fill"
    if role in K.ERROR_KINDS:
        return "error_fill"
    if role == WARNING:
        return "warning_fill"
    return "background"


# ---------------------------------------------------------------------------- glyphs

# Kinds of substitute, kept apart as Okteta does: a character that cannot be decoded is
# not the same thing as one that cannot be printed.
GLYPH, CONTROL_PICTURE, INVISIBLE, UNDEFINED, CODEPOINT = (
    "glyph", "control_picture", "invisible", "undefined", "codepoint")

REPLACEMENT = "\uFFFD"
CONTINUATION_MARK = "\u00B7"  # the quiet marker under continuation bytes
SPACE_MARK = "\u2423"          # OPEN BOX, when whitespace is shown

_INVISIBLE_NAMES = {
    0x00A0: "NBSP", 0x00AD: "SHY", 0x034F: "CGJ", 0x061C: "ALM", 0x115F: "HCF",
    0x180E: "MVS", 0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM",
    0x200F: "RLM", 0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO",
    0x202E: "RLO", 0x2060: "WJ", 0x2061: "FA", 0x2062: "IT", 0x2063: "IS", 0x2064: "IP",
    0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xFEFF: "BOM",
    0x3164: "HF", 0xFFA0: "HWHF",
}


def control_picture(cp: int) -> str | None:
    """The Control Pictures block's symbol for C0 controls, SPACE and DEL."""
    if cp < 0x20:
        return chr(0x2400 + cp)
    if cp == 0x7F:
        return "\u2421"
    return None


def glyph_for(unit: Unit, show_whitespace: bool = False) -> tuple[str, str]:
    """What to draw for a unit and what kind of substitute it is.

    Problems are a flagged replacement glyph; controls are control pictures; format and
    other invisible characters get a short abbreviation; anything else is the
    character itself (the view falls back to ``U+XXXX`` when its font cannot draw it).
    """
    if unit.kind != K.VALID or unit.value is None or unit.value > 0x10FFFF:
        return REPLACEMENT, UNDEFINED
    cp = unit.value
    if cp == 0x20:
        return (SPACE_MARK, CONTROL_PICTURE) if show_whitespace else (" ", GLYPH)
    pic = control_picture(cp)
    if pic is not None:
        return pic, CONTROL_PICTURE
    if 0x80 <= cp <= 0x9F:
        return f"{cp:02X}", CONTROL_PICTURE
    if cp in _INVISIBLE_NAMES:
        return _INVISIBLE_NAMES[cp], INVISIBLE
    if 0xD800 <= cp <= 0xDFFF:
        return f"U+{cp:04X}", CODEPOINT
    cat = category(cp)
    if cat in ("Cf", "Zl", "Zp") or cat == "Zs" and cp != 0x20:
        return f"U+{cp:04X}", INVISIBLE
    if cat in ("Cn", "Co", "Cs"):
        return f"U+{cp:04X}", CODEPOINT
    if cat.startswith("M"):
        return "\u25CC" + chr(cp), GLYPH  # a combining mark on a dotted circle
    return chr(cp), GLYPH


# --------------------------------------------------------------------------- palettes

@lru_cache(maxsize=8)
def load_palette(theme: str) -> dict[str, str]:
    return json.loads(resources_access.read_text(f"palettes/{theme}.json"))


def themes() -> list[str]:
    return [name.removesuffix(".json") for name in resources_access.names("palettes", ".json")]


def system_theme() -> str:
    """``dark`` when the application's window colour is dark, else ``light``."""
    app = QGuiApplication.instance()
    if app is None:
        return "light"
    window = app.palette().color(QPalette.ColorRole.Window)
    return "dark" if window.lightnessF() < 0.5 else "light"


class Palette:
    """Colours by role for one theme. ``Palette.current()`` follows the application."""

    _current: "Palette | None" = None
    _chosen: str | None = None  # a theme the user picked; None follows the application

    def __init__(self, theme: str = "light"):
        self.theme = theme
        self._colors = {role: QColor(value) for role, value in load_palette(theme).items()
                        if isinstance(value, str) and value.startswith("#")}

    def color(self, role: str) -> QColor:
        """The colour of ``role``: a palette role, or a kind's name (a warning's is the
        warnings' role in the kinds table). A role the palette lacks (a palette of an
        older version) is drawn in the text colour."""
        c = self._colors.get(role)
        if c is None:
            info = K.KINDS.get(role)
            if info is not None and info.role:
                c = self._colors.get(info.role)
            if c is None:
                c = self._colors.get("text")
        return QColor(c)

    def unit_color(self, unit: Unit) -> QColor:
        role = role_for(unit)
        if role == ASCII and unit.warnings:
            return self.color(WARNING)
        return self.color(role)

    def unit_fill(self, unit: Unit) -> QColor:
        role = role_for(unit)
        if role in (ASCII,) and unit.warnings:
            return self.color("warning_fill")
        return self.color(fill_role(role))

    @classmethod
    def current(cls) -> "Palette":
        """The chosen theme's palette, or the one matching the application's colours."""
        theme = cls._chosen or system_theme()
        if cls._current is None or cls._current.theme != theme:
            cls._current = Palette(theme)
        return cls._current

    @classmethod
    def chosen(cls) -> str | None:
        """The theme the user picked, None when it follows the application."""
        return cls._chosen

    @classmethod
    def set_current(cls, theme: str | None) -> "Palette":
        """Pick a theme by name; None or "system" follows the application again."""
        cls._chosen = None if theme in (None, "system") else theme
        return cls.current()


def legend() -> list[tuple[str, str]]:
    """The legend's rows, (role, words): the valid units by length, each error kind of
    the kinds table, the warnings."""
    return [
        (ASCII, "ASCII (1 byte)"),
        (MULTI2, "2-byte sequence"),
        (MULTI3, "3-byte sequence"),
        (MULTI4, "4-byte sequence"),
        (MULTI_LONG, "longer valid unit (CESU-8 pair, 1993 form)"),
        *[(k, K.title(k)) for k in K.ERROR_KINDS],
        (WARNING, "valid, with a warning"),
    ]


def clear_picture(width: float, height: float, ratio: float) -> QPixmap:
    """A transparent picture ``width`` x ``height`` logical pixels at device pixel ratio
    ``ratio``: what the views draw a cached glyph, mark or box on."""
    pm = QPixmap(max(1, math.ceil(width * ratio)), max(1, math.ceil(height * ratio)))
    pm.setDevicePixelRatio(ratio)
    pm.fill(Qt.GlobalColor.transparent)
    return pm


# The monospaced families both panes draw in, best first: one family for both, so that
# Qt resolves a fallback font once per code point, and the panes agree on what they can
# draw (they once used two families that disagreed on some code points).
MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Menlo", "Consolas")


def mono_family() -> str:
    """The first of :data:`MONO_FAMILIES` installed, or the system's fixed font's."""
    from PySide6.QtGui import QFontDatabase

    families = set(QFontDatabase.families())
    for fam in MONO_FAMILIES:
        if fam in families:
            return fam
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()


_SHARED_COVERAGE: dict = {}


def shared_coverage(font: QFont) -> "GlyphCoverage":
    """The one :class:`GlyphCoverage` of ``font``'s family: both panes ask it, so a code
    point is looked up (and Qt's fallback fonts searched for it) once, and both panes
    decide alike whether to draw it or its U+XXXX."""
    family = font.family()
    cov = _SHARED_COVERAGE.get(family)
    if cov is None:
        base = QFont(font)
        base.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 0)
        cov = _SHARED_COVERAGE[family] = GlyphCoverage(base)
    return cov


class GlyphCoverage:
    """Whether ``font``, with the fonts Qt falls back to, has glyphs for a text: where it
    has none the panes show U+XXXX instead of an empty box. The font's own character
    map answers first; otherwise the text is shaped and its glyphs looked at. Answers
    are kept per text. Where fontconfig is, the installed fonts' character sets answer
    instead of shaping (:mod:`~inspector.gui.look.fontcoverage`): Qt searches its fallback
    fonts for every code point it shapes, ~0.1-0.4 ms for one that no font or a late
    one has.

    Only the glyph indexes of a shaped text are read: the raw fonts of its glyph runs
    (``QGlyphRun.rawFont``) are not valid to keep or even to ask in PySide (asking one
    for its name crashed), so no fallback font is remembered."""

    def __init__(self, font: QFont):
        self.font = font
        self._known: dict[str, bool] = {}
        self._main = QRawFont.fromFont(font)

    def in_main_font(self, cp: int) -> bool:
        """Whether the font itself (not a fallback) has a glyph for ``cp``: a look in its
        character map. (QFontMetrics.inFontUcs4 also asks the fallback fonts, loading
        them: ~0.6 ms a character not seen before.)"""
        return self._main.supportsCharacter(cp)

    def can_draw(self, text: str) -> bool:
        hit = self._known.get(text)
        if hit is None:
            main = self._main
            hit = all(main.supportsCharacter(ord(c)) for c in text)
            table = None if hit else fontcoverage.table()
            if table is not None:
                # The installed fonts' character sets, read once (fontcoverage): Qt's
                # own search of its fallback fonts costs up to 0.4 ms a code point.
                hit = all(main.supportsCharacter(ord(c)) or bool(table[ord(c)]) for c in text)
            elif not hit:
                layout = QTextLayout(text, self.font)
                layout.beginLayout()
                layout.createLine()
                layout.endLayout()
                runs = layout.glyphRuns()
                hit = bool(runs) and all(0 not in run.glyphIndexes() for run in runs)
            self._known[text] = hit
        return hit
