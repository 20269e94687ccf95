"""One font decision per code point for the text pane's glyphs.

The pane draws most characters as glyph runs on the places its layout measured, without
shaping a line (see panes.textplan). A character the main font has is a glyph of it; for one
it lacks, Qt would search its fallback fonts each time it shapes it, and the font it
finds cannot be asked for from Python (the raw font of a shaped glyph run is not valid
to keep or to ask in PySide). So the pane picks the font itself, once per code point,
the way fontconfig (which Qt reads on Linux and the BSDs) orders the fallbacks of the
main family: ``fc-match -s FAMILY`` lists the installed fonts by preference with their
character sets, read once in a thread of its own into a table of the first font that
has each code point. The pane keeps a ``QRawFont`` of each font it uses: its glyph
index and advance for the code point are the decision. Where there is no fontconfig
(or a font of the list cannot be opened) a character has no decision and is shaped by
Qt, as a short run of its own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading

import numpy as np
from PySide6.QtGui import QFont, QRawFont

from inspector.gui.look.fontcoverage import CodePointRuns

_RANGE = re.compile(rb"([0-9a-f]+)(?:-([0-9a-f]+))?")
_lock = threading.Lock()
_orders: dict = {}      # family -> {"thread": Thread, "result": (families, table) | None}


def parse_sorted(text: bytes) -> tuple[list[str], CodePointRuns]:
    """``fc-match -s`` lines ``family<TAB>charset`` (best first) as the distinct families
    in order and, per code point, the index of the first family that has it (-1: none).
    Later lines of a family already listed (its bold, its italic) add nothing."""
    families: list[str] = []
    index: dict[str, int] = {}
    table = np.full(0x110000, -1, dtype=np.int16)
    entries = []
    for line in text.splitlines():
        family, _, charset = line.partition(b"\t")
        name = family.decode("utf-8", "replace").strip()
        if not name or name in index:
            continue
        index[name] = len(families)
        families.append(name)
        entries.append(charset)
        if len(families) >= 0x7FFF:
            break
    # The least preferred first, so that a better font overwrites it.
    for k in range(len(entries) - 1, -1, -1):
        for a, b in _RANGE.findall(entries[k]):
            lo = int(a, 16)
            hi = min(int(b or a, 16), 0x10FFFF)
            if lo <= hi:
                table[lo:hi + 1] = k
    # Kept as runs (~50 KiB): an array of a family a code point took 1 MiB.
    return families, CodePointRuns(table)


def font_of(table: CodePointRuns, cp: int) -> int:
    """The index of the first family that has ``cp`` in a table of parse_sorted, or -1."""
    return int(table[cp]) if 0 <= cp < len(table) else -1


def _load(family: str) -> None:
    result = None
    try:
        exe = shutil.which("fc-match")
        if exe:
            out = subprocess.run([exe, "-s", family, "--format", "%{family[0]}\t%{charset}\n"],
                                 capture_output=True, timeout=20, check=True).stdout
            if out.strip():
                result = parse_sorted(out)
    except (OSError, subprocess.SubprocessError, ValueError):
        result = None
    _orders[family]["result"] = result


def start(family: str) -> None:
    """Begin reading the fallback order of ``family`` in the background (once)."""
    with _lock:
        if family not in _orders:
            _orders[family] = {"result": None}
            thread = threading.Thread(target=_load, args=(family,), name="font-fallbacks",
                                      daemon=True)
            _orders[family]["thread"] = thread
            thread.start()


def order(family: str) -> tuple[list[str], CodePointRuns] | None:
    """(families, table) for ``family`` (waiting for the thread), or None."""
    start(family)
    _orders[family]["thread"].join()
    return _orders[family]["result"]


class FallbackFonts:
    """The glyph of each code point in the main font or in the fallback font chosen for
    it: ``raws[0]`` is the main font, later entries the fallbacks in the order the pane
    first used them."""

    def __init__(self, font: QFont):
        self.font = font
        self.main = QRawFont.fromFont(font)
        self.raws: list[QRawFont] = [self.main]
        self._by_family: dict[str, int] = {}
        self._known: dict[int, tuple[int, int, float] | None] = {}
        self._order = None     # the family's fallback order, once read
        start(font.family())

    def decide(self, cp: int) -> tuple[int, int, float] | None:
        """(font index into ``raws``, glyph index, advance) of code point ``cp``, or None
        when no font of the list draws it as one glyph (Qt shapes it then)."""
        try:
            return self._known[cp]
        except KeyError:
            pass
        got = None
        if self.main.supportsCharacter(cp):
            got = self._glyph(0, cp)
        else:
            found = self._order
            if found is None:
                found = self._order = order(self.font.family())
            if found is not None:
                families, table = found
                k = font_of(table, cp)
                if k >= 0:
                    fi = self._font_index(families[k])
                    if fi is not None and self.raws[fi].supportsCharacter(cp):
                        got = self._glyph(fi, cp)
        self._known[cp] = got
        return got

    def _glyph(self, fi: int, cp: int) -> tuple[int, int, float] | None:
        raw = self.raws[fi]
        glyphs = raw.glyphIndexesForString(chr(cp))
        if len(glyphs) != 1 or not glyphs[0]:
            return None
        advance = raw.advancesForGlyphIndexes(glyphs)[0].x()
        return fi, int(glyphs[0]), float(advance)

    def _font_index(self, family: str) -> int | None:
        fi = self._by_family.get(family)
        if fi is None and family not in self._by_family:
            font = QFont(self.font)
            font.setFamilies([family])
            font.setStyleHint(QFont.StyleHint.AnyStyle)
            raw = QRawFont.fromFont(font)
            if raw.isValid() and raw.familyName() == family:
                fi = len(self.raws)
                self.raws.append(raw)
            self._by_family[family] = fi
        return fi
