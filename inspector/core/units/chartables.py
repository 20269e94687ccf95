"""Per-code-point tables for vectorised text questions: which characters a text run may
hold (``printable_table``) and which script each belongs to (``script_table``).

Both are numpy arrays indexed by code point (0..0x10FFFF), built once per process.
Printability comes from the general categories of :mod:`inspector.core.units.unicode_db`
(one lookup per code point, ~0.1-0.4 s), so it is kept, as packed bits named after the
Unicode version, in the cache folder the warning tables use; the scripts come from the
generated ranges of :mod:`inspector.core.units.scriptdata`.
"""

from __future__ import annotations

import base64
import os
import threading
import zlib

import numpy as np

from inspector.core.source.safewrite import write_atomic
from inspector.core.units import scriptdata
from inspector.core.units.unicode_db import UNICODE_VERSION, category_of_char

N_CODE_POINTS = 0x110000
# General categories a text run never holds: controls, format characters, surrogates,
# private use, unassigned (noncharacters too) and separators. SPACE and TAB are let in.
NOT_PRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
ALSO_PRINTABLE = (0x20, 0x09)

SCRIPT_NAMES: tuple[str, ...] = scriptdata.NAMES
UNKNOWN, COMMON, INHERITED = 0, 1, 2  # indices in SCRIPT_NAMES (the generator's order)
LATIN = SCRIPT_NAMES.index("Latin")

_lock = threading.Lock()
_printable: np.ndarray | None = None
_scripts: np.ndarray | None = None


def is_printable(cp: int) -> bool:
    """Whether a text run may hold this code point (the unit contract's "Text runs")."""
    if cp in ALSO_PRINTABLE:
        return True
    if cp < 0 or cp >= N_CODE_POINTS or 0xD800 <= cp <= 0xDFFF:
        return False
    return category_of_char(chr(cp)) not in NOT_PRINTABLE


def _build_printable() -> np.ndarray:
    bad = NOT_PRINTABLE
    table = np.fromiter((category_of_char(chr(c)) not in bad for c in range(N_CODE_POINTS)),
                        dtype=bool, count=N_CODE_POINTS)
    table[list(ALSO_PRINTABLE)] = True
    return table


def printable_cache_path() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "utf8-inspector", f"printable-unicode-{UNICODE_VERSION}.bits")


def _load_printable() -> np.ndarray | None:
    try:
        with open(printable_cache_path(), "rb") as f:
            raw = f.read()
    except OSError:
        return None
    if len(raw) != N_CODE_POINTS // 8:
        return None
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8)).view(bool)


def printable_table() -> np.ndarray:
    """bool per code point: may a text run hold it (read-only)."""
    global _printable
    if _printable is None:
        with _lock:
            if _printable is None:
                table = _load_printable()
                if table is None:
                    table = _build_printable()
                    try:
                        os.makedirs(os.path.dirname(printable_cache_path()), exist_ok=True)
                        write_atomic(printable_cache_path(), np.packbits(table).tobytes())
                    except OSError:
                        pass  # a cache that cannot be written: build it again next time
                table.flags.writeable = False
                _printable = table
    return _printable


def script_table() -> np.ndarray:
    """uint8 per code point: its script's index in ``SCRIPT_NAMES`` (read-only)."""
    global _scripts
    if _scripts is None:
        with _lock:
            if _scripts is None:
                raw = zlib.decompress(base64.b85decode("".join(scriptdata.RANGES)))
                n = scriptdata.N_RANGES
                starts = np.frombuffer(raw, dtype="<u4", count=n).astype(np.int64)
                ids = np.frombuffer(raw, dtype=np.uint8, count=n, offset=4 * n)
                lengths = np.diff(np.append(starts, N_CODE_POINTS))
                table = np.repeat(ids, lengths)
                table.flags.writeable = False
                _scripts = table
    return _scripts


def script(cp: int) -> str:
    """The Unicode Script property's long name (``Unknown`` outside every script)."""
    if cp < 0 or cp >= N_CODE_POINTS:
        return SCRIPT_NAMES[UNKNOWN]
    return SCRIPT_NAMES[int(script_table()[cp])]
