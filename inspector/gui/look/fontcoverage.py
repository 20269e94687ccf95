"""Which code points any installed font has a glyph for, as one table.

Qt finds a fallback font for a character by asking its fallback fonts one after the
other; for a code point no font has it asks them all, every time it shapes it (about
0.1-0.4 ms a code point on a desktop with a few hundred fonts). A page of random bytes
holds dozens of code points never seen before, and the panes must know before drawing
whether to draw a glyph or a U+XXXX box. On systems with fontconfig (the font
configuration Qt itself reads on Linux and the BSDs) the answer for every code point is
the union of the installed fonts' character sets: read from the fontconfig library Qt
has loaded (through ctypes: the fonts' list, their sets merged, the union's pages of 256
code points) when first asked, ~3-6 ms, into flags per code point kept as runs. Where
there is no fontconfig, :func:`table` is None and the caller asks Qt.

(It was read with ``fc-list`` in a thread started at the first question, which came
from the window's first paint: the answer came too late for that paint, which shaped
its characters to find out instead, loading a fallback face for each script met, ~3 MiB
each for the CJK ones; and the thread's parsing took the interpreter from the paint.)
"""

from __future__ import annotations

import ctypes
import sys
import threading

import numpy as np

_lock = threading.Lock()
_state: dict = {}


class CodePointRuns:
    """A value for each code point 0..0x10FFFF, kept as runs of equal values: a run's
    first code point (``starts``, ascending from 0) and its value (``values``). Asked
    like the array it was made from (``runs[cp]``, ``len(runs)``, ``runs.dtype``). The
    installed fonts' tables change every few code points only: some 6,000 runs, ~50 KiB
    where an array took 1 MiB for the whole run of the window."""

    __slots__ = ("starts", "values")

    def __init__(self, per_code_point: np.ndarray):
        change = np.flatnonzero(per_code_point[1:] != per_code_point[:-1]) + 1
        self.starts = np.concatenate(([0], change)).astype(np.int32)
        self.values = per_code_point[self.starts]

    @property
    def dtype(self):
        return self.values.dtype

    def __len__(self) -> int:
        return 0x110000

    def __getitem__(self, cp: int):
        if not 0 <= cp < 0x110000:
            raise IndexError(cp)
        return self.values[int(np.searchsorted(self.starts, cp, side="right")) - 1]


PAGE = 256   # code points in a page of a fontconfig character set (8 words of 32 bits)


def flags_of_pages(bases, pages: bytes) -> CodePointRuns:
    """Runs of flags from a character set's pages: ``bases`` their first code points
    (multiples of 256), ``pages`` their 32 bytes each, bit ``i`` of byte ``j`` for code
    point ``base + 8 * j + i`` (fontconfig's 32-bit words, little-endian)."""
    flags = np.zeros((0x110000 // PAGE, PAGE), dtype=bool)
    rows = np.asarray(bases, dtype=np.int64) // PAGE
    bits = np.unpackbits(np.frombuffer(pages, dtype=np.uint8).reshape(-1, PAGE // 8),
                         axis=1, bitorder="little").view(bool)
    keep = rows < len(flags)
    flags[rows[keep]] = bits[keep]
    return CodePointRuns(flags.ravel())


class _FontSet(ctypes.Structure):
    _fields_ = [("nfont", ctypes.c_int), ("sfont", ctypes.c_int),
                ("fonts", ctypes.POINTER(ctypes.c_void_p))]


def _fontconfig():
    """The fontconfig library with the functions used here typed, or None."""
    if sys.platform in ("win32", "darwin"):   # Qt does not read fontconfig there
        return None
    try:
        fc = ctypes.CDLL("libfontconfig.so.1")
    except OSError:
        return None
    ptr, page = ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32 * 8)
    fc.FcPatternCreate.restype = ptr
    fc.FcPatternDestroy.argtypes = [ptr]
    fc.FcObjectSetBuild.restype = ptr
    fc.FcObjectSetBuild.argtypes = [ctypes.c_char_p, ptr]
    fc.FcObjectSetDestroy.argtypes = [ptr]
    fc.FcFontList.restype = ctypes.POINTER(_FontSet)
    fc.FcFontList.argtypes = [ptr, ptr, ptr]
    fc.FcFontSetDestroy.argtypes = [ctypes.POINTER(_FontSet)]
    fc.FcPatternGetCharSet.argtypes = [ptr, ctypes.c_char_p, ctypes.c_int,
                                       ctypes.POINTER(ptr)]
    fc.FcCharSetCreate.restype = ptr
    fc.FcCharSetDestroy.argtypes = [ptr]
    fc.FcCharSetMerge.argtypes = [ptr, ptr, ptr]
    for name in ("FcCharSetFirstPage", "FcCharSetNextPage"):
        getattr(fc, name).restype = ctypes.c_uint32
        getattr(fc, name).argtypes = [ptr, page, ctypes.POINTER(ctypes.c_uint32)]
    return fc


def read_installed() -> CodePointRuns | None:
    """The union of the installed fonts' character sets, from fontconfig (None without
    it, or when it lists no font)."""
    try:
        fc = _fontconfig()
    except AttributeError:   # a fontconfig without one of the functions
        return None
    if fc is None:
        return None
    pattern = fc.FcPatternCreate()   # empty: every font
    wanted = fc.FcObjectSetBuild(b"charset", None)
    fonts = fc.FcFontList(None, pattern, wanted)
    union = fc.FcCharSetCreate()
    try:
        charset = ctypes.c_void_p()
        listed = fonts.contents if fonts else _FontSet()
        for i in range(listed.nfont):
            if fc.FcPatternGetCharSet(listed.fonts[i], b"charset", 0,
                                      ctypes.byref(charset)) == 0:   # FcResultMatch
                fc.FcCharSetMerge(union, charset, None)
        page, following = (ctypes.c_uint32 * 8)(), ctypes.c_uint32()
        bases, pages = [], []
        base = fc.FcCharSetFirstPage(union, page, ctypes.byref(following))
        while base != 0xFFFFFFFF:   # FC_CHARSET_DONE
            bases.append(base)
            pages.append(bytes(page))
            base = fc.FcCharSetNextPage(union, page, ctypes.byref(following))
    finally:
        fc.FcCharSetDestroy(union)
        if fonts:
            fc.FcFontSetDestroy(fonts)
        fc.FcObjectSetDestroy(wanted)
        fc.FcPatternDestroy(pattern)
    return flags_of_pages(bases, b"".join(pages)) if bases else None


def table() -> CodePointRuns | None:
    """The flags per code point (read at the first question), or None (no fontconfig)."""
    with _lock:
        if "table" not in _state:
            _state["table"] = read_installed()
    return _state["table"]
