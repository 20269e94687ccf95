"""Which code points any installed font has a glyph for, as one table.

Qt finds a fallback font for a character by asking its fallback fonts one after the
other; for a code point no font has it asks them all, every time it shapes it (about
0.1-0.4 ms a code point on a desktop with a few hundred fonts). A page of random bytes
holds dozens of code points never seen before, and the panes must know before drawing
whether to draw a glyph or a U+XXXX box. On systems with fontconfig (the font
configuration Qt itself reads on Linux and the BSDs) the answer for every code point is
the union of the installed fonts' character sets, read once with ``fc-list`` (about
0.1 s, in a thread of its own) into a table of 0x110000 flags, kept as runs. Where there is no
fontconfig, :func:`table` stays None and the caller asks Qt.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading

import numpy as np

_RANGE = re.compile(rb"([0-9a-f]+)(?:-([0-9a-f]+))?")
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


def parse_charsets(text: bytes) -> CodePointRuns:
    """The union of fontconfig character sets (``fc-list --format '%{charset}\\n'``:
    hexadecimal code points and ranges separated by spaces) as flags per code point."""
    found = _RANGE.findall(text)
    counts = np.zeros(0x110001, dtype=np.int32)
    if found:
        starts = np.array([int(a, 16) for a, _ in found], dtype=np.int64)
        ends = np.array([int(b or a, 16) for a, b in found], dtype=np.int64)
        keep = starts <= 0x10FFFF
        starts, ends = starts[keep], np.minimum(ends[keep], 0x10FFFF)
        np.add.at(counts, starts, 1)
        np.add.at(counts, ends + 1, -1)
    return CodePointRuns(np.cumsum(counts[:0x110000]) > 0)


def _load() -> None:
    result = None
    try:
        exe = shutil.which("fc-list")
        if exe:
            out = subprocess.run([exe, "--format", "%{charset}\\n"], capture_output=True,
                                 timeout=20, check=True).stdout
            if out.strip():
                result = parse_charsets(out)
    except (OSError, subprocess.SubprocessError, ValueError):
        result = None
    _state["table"] = result


def start() -> None:
    """Begin reading the table in the background (once)."""
    with _lock:
        if "thread" not in _state:
            thread = threading.Thread(target=_load, name="font-coverage", daemon=True)
            _state["thread"] = thread
            thread.start()


def table(wait: bool = False) -> CodePointRuns | None:
    """The flags per code point, or None (not read yet, unless ``wait``; or no
    fontconfig)."""
    start()
    if wait:
        _state["thread"].join()
    return _state.get("table")
