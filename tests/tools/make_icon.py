"""Writes the program's icon, ``resources/icons/utf8-inspector.svg``: "UTF-8" over one
three-byte unit boxed as the hex view boxes it (a lead byte with its three marker bits,
two continuation bytes with one). The lettering is turned into outlines here, so the SVG
needs no font.

    python3 tests/tools/make_icon.py [OUT.svg]
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    Path(__file__).resolve().parents[2] / "resources" / "icons" / "utf8-inspector.svg")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"


def _number(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def lettering() -> str:
    """ "UTF-8" as one SVG path, centred, its capitals' top at y=50."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPainterPath

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (fonts need it)
    family = QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(FONT))[0]
    font = QFont(family)
    font.setPixelSize(62)
    font.setBold(True)
    path = QPainterPath()
    path.addText(QPointF(0, 0), font, "UTF-8")
    box = path.boundingRect()
    path.translate(128 - (box.left() + box.width() / 2), 50 - box.top())
    d, i = [], 0
    kinds = QPainterPath.ElementType
    while i < path.elementCount():
        e = path.elementAt(i)
        if e.type == kinds.MoveToElement:
            d.append(f"M{_number(e.x)} {_number(e.y)}")
            i += 1
        elif e.type == kinds.LineToElement:
            d.append(f"L{_number(e.x)} {_number(e.y)}")
            i += 1
        elif e.type == kinds.CurveToElement:
            c2, p = path.elementAt(i + 1), path.elementAt(i + 2)
            d.append(f"C{_number(e.x)} {_number(e.y)} {_number(c2.x)} {_number(c2.y)} "
                     f"{_number(p.x)} {_number(p.y)}")
            i += 3
        else:
            i += 1
    return "".join(d) + "Z"


text_d = lettering()
svg = f'''<?xml version="1.0" encoding="UTF-8"?>
<!-- UTF-8 Inspector: "UTF-8" over one three-byte unit, boxed as the hex view boxes it:
     a lead byte (1110xxxx, three marker bits) and two continuation bytes (10xxxxxx).
     The lettering is outlined (DejaVu Sans Condensed Bold), so no font is needed. -->
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>UTF-8 Inspector</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#30588f"/>
      <stop offset="1" stop-color="#1a2d50"/>
    </linearGradient>
  </defs>
  <rect x="8" y="8" width="240" height="240" rx="52" fill="url(#bg)"/>
  <rect x="9.5" y="9.5" width="237" height="237" rx="50.5" fill="none" stroke="#ffffff" stroke-opacity="0.16" stroke-width="3"/>
  <path fill="#f5f7fb" d="{text_d}"/>
  <rect x="28" y="125" width="200" height="80" rx="18" fill="none" stroke="#f5f7fb" stroke-width="6"/>
  <rect x="40" y="137" width="56" height="56" rx="9" fill="#f2a93b"/>
  <rect x="100" y="137" width="56" height="56" rx="9" fill="#4cc3b2"/>
  <rect x="160" y="137" width="56" height="56" rx="9" fill="#4cc3b2"/>
  <g fill="#1a2d50">
    <rect x="48" y="147" width="8" height="16" rx="2"/>
    <rect x="60" y="147" width="8" height="16" rx="2"/>
    <rect x="72" y="147" width="8" height="16" rx="2"/>
    <rect x="108" y="147" width="8" height="16" rx="2"/>
    <rect x="168" y="147" width="8" height="16" rx="2"/>
  </g>
</svg>
'''
OUT.write_text(svg, encoding="utf-8")
print(f"wrote {OUT}")
