"""Which code points any installed font has a glyph for, as one table.

Qt finds a fallback font for a character by asking its fallback fonts one after the
other; for a code point no font has it asks them all, every time it shapes it (about
0.1-0.4 ms a code point on a desktop with a few hundred fonts). A page of random bytes
holds dozens of code points never seen before, and the panes must know before drawing
whether to draw a glyph or a U+XXXX box. On systems with fontconfig (the font
configuration Qt itself reads on Linux and the BSDs) the answer for every code point is
the union of the installed fonts' character sets, read once with ``fc-list`` (in a thread
of its own, while the window starts) into flags per code point, kept as runs. Where there
is no fontconfig, :func:`table` stays None and the caller asks Qt.
"""

from __future__ import annotations

import shutil
import subprocess
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

    @classmethod
    def from_runs(cls, starts: np.ndarray, values: np.ndarray) -> CodePointRuns:
        """The runs themselves: ``starts`` ascending from 0, ``values`` each run's."""
        runs = cls.__new__(cls)
        runs.starts = starts.astype(np.int32)
        runs.values = values
        return runs

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
    hexadecimal code points and ranges separated by spaces) as flags per code point.

    The ranges (~90,000 on a desktop) are merged, not counted into an array of 0x110000
    entries: this runs in a thread while the window paints its first look and held the
    interpreter ~45-100 ms of it (a regular expression, ``np.add.at``, a cumulative sum);
    now ~13 ms, mostly the one ``int`` per number."""
    # "20-7e a0" -> "20 -7e a0": a range's end is the negative number after its start.
    numbers = np.array([int(n, 16) for n in text.replace(b"-", b" -").split()],
                       dtype=np.int64)
    is_start = numbers >= 0
    following = np.append(numbers[1:], 0)
    starts = numbers[is_start]
    ends = np.where(following < 0, -following, numbers)[is_start]
    keep = starts <= 0x10FFFF
    starts, ends = starts[keep], np.minimum(ends[keep], 0x10FFFF)
    if not len(starts):
        return CodePointRuns.from_runs(np.zeros(1, np.int32), np.zeros(1, bool))
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    # Merged: a range that starts past the furthest end so far (and not right after it)
    # begins a new covered run; each covered run ends where its ranges reach.
    reach = np.maximum.accumulate(ends)
    begins = np.ones(len(starts), dtype=bool)
    begins[1:] = starts[1:] > reach[:-1] + 1
    first = starts[begins]
    after = np.maximum.reduceat(ends, np.flatnonzero(begins)) + 1
    run_starts = np.empty(2 * len(first), dtype=np.int64)
    run_starts[0::2], run_starts[1::2] = first, after
    values = np.tile([True, False], len(first))
    if first[0] > 0:   # the code points before the first covered one
        run_starts = np.concatenate(([0], run_starts))
        values = np.concatenate(([False], values))
    if run_starts[-1] >= 0x110000:   # covered up to the last code point
        run_starts, values = run_starts[:-1], values[:-1]
    return CodePointRuns.from_runs(run_starts, values)


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


def hold(held: bool = True) -> None:
    """While held, asking for the table starts no thread. The window's start holds it
    during its first look: the table is not read by the first paint anyway (the paint
    asks before the thread could answer), and the thread took the interpreter from that
    paint. ``hold(False)``: no longer held (nothing started)."""
    if held:
        _state["held"] = True
    else:
        _state.pop("held", None)


def release() -> None:
    """No longer held: begin reading the table now (see :func:`hold`)."""
    hold(False)
    start()


def start() -> None:
    """Begin reading the table in the background (once), unless held."""
    with _lock:
        if "thread" not in _state and "held" not in _state:
            thread = threading.Thread(target=_load, name="font-coverage", daemon=True)
            _state["thread"] = thread
            thread.start()


def table(wait: bool = False) -> CodePointRuns | None:
    """The flags per code point, or None (not read yet, unless ``wait``; or no
    fontconfig)."""
    start()
    if wait:
        release()
        _state["thread"].join()
    return _state.get("table")
