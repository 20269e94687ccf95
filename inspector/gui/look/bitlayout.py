"""The bit layout of one unit: its bytes in hex, octal and binary, the marker bits and
the payload bits drawn apart (the ``1110xxxx 10xxxxxx 10xxxxxx`` template), and the
payload bits joined below into the value they spell.

``BitLayout`` holds those facts as plain data and text; ``BitLayoutView`` paints them.
Both the sequence inspector dock and the encoder dialog show it, so it lives here rather
than in either. Which bits are marker and which payload, and which bytes join into a
value, is the core's answer (``unitinfo.byte_roles`` and ``value_groups``); the look
only paints it, so the picture cannot say what the core does not.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QFontDatabase, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from inspector.core.units import unitinfo
from inspector.core.units.decoder import Unit
from inspector.gui.look import style


# Payload bits are coloured by the byte they come from, so that in the joined code point
# below a person sees which bits each byte gave. These palette roles are distinct hues
# in both themes.
BYTE_ROLES = ("multi3", "multi2", "multi4", "multi_long", "origin", "overlong")


def template_for(marker: str, payload: str) -> str:
    return marker + "x" * len(payload)


def format_value(value: int) -> str:
    return f"U+{value:04X}"


class BitLayout:
    """The facts a bit-layout picture shows of ``unit``, whose bytes ``data`` starts
    with, as plain data (painted by BitLayoutView, printed by ``text()``, checked by the
    tests).

    ``segments`` are the core's (marker, payload) of each byte, ``("", "")`` for a byte
    with no payload role (a stray continuation byte, FE, FF); ``cells`` are what each
    byte's cell shows, such a byte's bits all as fixed bits.
    """

    def __init__(self, unit: Unit, data: bytes):
        self.data = bytes(data[:unit.length])
        self.value = unit.value
        self.segments = [(b.marker, b.payload) for b in unitinfo.byte_roles(unit, self.data)]
        self.cells = [(m, p) if m or p else (f"{b:08b}", "")
                      for (m, p), b in zip(self.segments, self.data)]
        self.groups = list(unitinfo.value_groups(unit, self.data))

    def joined(self, group: tuple[int, int]) -> str:
        lo, hi = group
        return "".join(self.segments[i][1] for i in range(lo, hi))

    def group_value(self, group: tuple[int, int]) -> int:
        bits = self.joined(group)
        return int(bits, 2) if bits else 0

    @property
    def joined_bits(self) -> str:
        return "".join(self.joined(g) for g in self.groups)

    def text(self) -> str:
        cells = [f"{b:02X}".ljust(9) for b in self.data]
        lines = [
            "hex      " + " ".join(cells).rstrip(),
            "octal    " + " ".join(f"{b:03o}".ljust(9) for b in self.data).rstrip(),
            "binary   " + " ".join(f"{m}|{p}".ljust(9) if p else m.ljust(9)
                                   for m, p in self.cells).rstrip(),
            "layout   " + " ".join(template_for(m, p).ljust(9)
                                   for m, p in self.cells).rstrip(),
        ]
        for g in self.groups:
            v = self.group_value(g)
            lines.append(f"payload  {self.joined(g)} = {format_value(v)}")
        if len(self.groups) == 2 and self.value is not None:
            lines.append(f"pair     {format_value(self.group_value(self.groups[0]))} + "
                         f"{format_value(self.group_value(self.groups[1]))} = "
                         f"{format_value(self.value)}")
        return "\n".join(lines)


class BitLayoutView(QWidget):
    """Paints a unit's bytes: hex, octal, binary with the marker bits muted and the payload
    bits coloured by byte, the template under it, and the payload bits joined into the
    value below. Colours come from palette roles; the template row and the ``x`` marks
    say the same thing without colour."""

    LABELS = ("hex", "octal", "binary", "layout")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.layout_data: BitLayout | None = None
        self.note = ""
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_layout(self, layout: BitLayout | None, note: str = "") -> None:
        self.layout_data = layout
        self.note = note
        self.updateGeometry()
        self.update()

    def _metrics(self):
        fm = self.fontMetrics()
        ch = fm.horizontalAdvance("0")
        return fm, ch, fm.height() + 4

    def _rows(self) -> int:
        lay = self.layout_data
        if lay is None:
            return 1
        extra = len(lay.groups) + (1 if len(lay.groups) == 2 else 0)
        return len(self.LABELS) + max(extra, 1) + (1 if self.note else 0)

    def sizeHint(self) -> QSize:
        fm, ch, line = self._metrics()
        n = len(self.layout_data.data) if self.layout_data else 1
        width = ch * (10 + 10 * max(n, 2) + 12)
        return QSize(width, line * self._rows() + 8)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event) -> None:
        pal = style.Palette.current()
        p = QPainter(self)
        p.fillRect(self.rect(), pal.color("background"))
        fm, ch, line = self._metrics()
        lay = self.layout_data
        muted, text = pal.color("muted_text"), pal.color("text")
        x0 = ch * 10
        col = ch * 10
        y = 4 + fm.ascent()
        if lay is None:
            p.setPen(muted)
            p.drawText(4, y, self.note or "no unit")
            p.end()
            return

        def label(row_y, name):
            p.setPen(muted)
            p.drawText(4, row_y, name)

        # hex and octal: one cell per byte, in the byte's colour
        for row, fmt in (("hex", "{:02X}"), ("octal", "{:03o}")):
            label(y, row)
            for i, b in enumerate(lay.data):
                p.setPen(pal.color(BYTE_ROLES[i % len(BYTE_ROLES)]))
                p.drawText(x0 + i * col, y, fmt.format(b))
            y += line
        # binary: markers muted, payload bold in the byte's colour
        label(y, "binary")
        bold = self.font()
        bold.setBold(True)
        plain = self.font()
        for i, (marker, payload) in enumerate(lay.cells):
            x = x0 + i * col
            p.setFont(plain)
            p.setPen(muted)
            p.drawText(x, y, marker)
            x += ch * len(marker)
            p.setFont(bold)
            p.setPen(pal.color(BYTE_ROLES[i % len(BYTE_ROLES)]))
            p.drawText(x, y, payload)
        p.setFont(plain)
        y += line
        label(y, "layout")
        p.setPen(muted)
        for i, (marker, payload) in enumerate(lay.cells):
            p.drawText(x0 + i * col, y, template_for(marker, payload))
        y += line
        # the payload bits joined, each run still in its byte's colour
        for g in lay.groups:
            label(y, "payload")
            x = x0
            for i in range(*g):
                bits = lay.segments[i][1]
                p.setFont(bold)
                p.setPen(pal.color(BYTE_ROLES[i % len(BYTE_ROLES)]))
                p.drawText(x, y, bits)
                x += ch * len(bits)
            p.setFont(plain)
            p.setPen(text)
            p.drawText(x + ch, y, f"= {format_value(lay.group_value(g))}")
            y += line
        if len(lay.groups) == 2 and lay.value is not None:
            label(y, "pair")
            p.setPen(text)
            p.drawText(x0, y, f"{format_value(lay.group_value(lay.groups[0]))} + "
                              f"{format_value(lay.group_value(lay.groups[1]))} = "
                              f"{format_value(lay.value)}")
            y += line
        if not lay.groups:
            label(y, "payload")
            p.setPen(muted)
            p.drawText(x0, y, "no code point: the bytes do not form a complete sequence")
            y += line
        if self.note:
            p.setPen(muted)
            p.drawText(4, y, self.note)
        p.end()
