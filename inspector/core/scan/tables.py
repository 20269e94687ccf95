"""The warning tables: for every code point, which of the spec's warnings it carries,
and the byte-level tables derived from them that let the scanner skip clean text.

Built once per process, from the Unicode database of :mod:`inspector.core.units.unicode_db`.
The slow part, which code points are unassigned (one database lookup each, ~0.25-0.45 s),
is kept on disk in the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, file
named after the Unicode version: 139 KB of packed bits), so a process starts in a few
milliseconds; when the folder cannot be read or written it is simply built.
"""

from __future__ import annotations

import os
import tempfile
import threading

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import UNICODE_VERSION, category_of_char

# Warning bits: bit i is K.WARNING_KINDS[i].
WARNING_BIT = {name: 1 << i for i, name in enumerate(K.WARNING_KINDS)}
B_BOM = WARNING_BIT[K.BOM]
B_ZWNBSP = WARNING_BIT[K.ZWNBSP]
B_CONTROL = WARNING_BIT[K.CONTROL]
B_UNASSIGNED = WARNING_BIT[K.UNASSIGNED]
B_RAW_NUL = WARNING_BIT[K.RAW_NUL]


class Tables:
    """Lookup tables built once per process (about half a second: the unassigned code
    points come from the Unicode database)."""

    def __init__(self, unassigned: np.ndarray | None = None):
        cps = np.arange(0x110000, dtype=np.int64)
        bits = np.zeros(0x110000, dtype=np.uint16)
        bits[0xFFFD] |= WARNING_BIT[K.REPLACEMENT_CHAR]
        control = ((cps < 0x20) & (cps != 0x09) & (cps != 0x0A) & (cps != 0x0D)) | ((cps >= 0x7F) & (cps <= 0x9F))
        bits[control] |= B_CONTROL
        nonchar = ((cps >= 0xFDD0) & (cps <= 0xFDEF)) | ((cps & 0xFFFE) == 0xFFFE)
        bits[nonchar] |= WARNING_BIT[K.NONCHARACTER]
        private = (((cps >= 0xE000) & (cps <= 0xF8FF)) | ((cps >= 0xF0000) & (cps <= 0xFFFFD))
                   | ((cps >= 0x100000) & (cps <= 0x10FFFD)))
        bits[private] |= WARNING_BIT[K.PRIVATE_USE]
        bits[[0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]] |= WARNING_BIT[K.BIDI_CONTROL]
        bits[[0x200B, 0x200C, 0x200D, 0x2060]] |= WARNING_BIT[K.ZERO_WIDTH]
        bits[0xFEFF] |= B_ZWNBSP
        if unassigned is None:
            unassigned = cached_unassigned()
        unassigned = unassigned & ~nonchar
        unassigned[0xD800:0xE000] = False
        bits[unassigned] |= B_UNASSIGNED
        self.bits = bits
        # One byte per code point, nonzero where it has a warning: the scanner's first,
        # cheap pass over decoded text (a 1.1 MB table, not 2.2).
        self.any8 = (bits != 0).view(np.uint8)
        # The same, also nonzero on U+DC80..U+DCFF: what the decoder's surrogateescape
        # handler turns each byte of an error into (a valid decode never yields them).
        self.any8_escapes = self.any8.copy()
        self.any8_escapes[0xDC80:0xDD00] = 1
        self.flagged_or_escape = self.any8_escapes.view(bool)
        self.bits_mutf8 = bits.copy()
        self.bits_mutf8[0] |= B_RAW_NUL
        # Which (lead, second byte) pairs can start a code point with a warning.
        risk2 = np.zeros((256, 256), dtype=bool)
        any_bits = bits != 0
        risk2[:0x80, :] = any_bits[:0x80, None]
        for lead in range(0xC2, 0xE0):
            risk2[lead, 0x80:0xC0] = any_bits[((lead & 0x1F) << 6):((lead & 0x1F) << 6) + 64]
        blocks64 = any_bits[:0x10000].reshape(1024, 64).any(axis=1)
        for lead in range(0xE0, 0xF0):
            risk2[lead, 0x80:0xC0] = blocks64[(lead & 0x0F) << 6:((lead & 0x0F) << 6) + 64]
        blocks4k = any_bits.reshape(0x110, 4096).any(axis=1)
        for lead in range(0xF0, 0xF5):
            first = (lead & 0x07) << 6
            row = blocks4k[first:min(first + 64, 0x110)]
            risk2[lead, 0x80:0x80 + len(row)] = row
        self.risk2 = risk2.reshape(-1)
        risk1 = risk2.any(axis=1)
        # bytes.translate tables: delete the bytes that cannot start a warning...
        self.safe_bytes = bytes(b for b in range(256) if not risk1[b])
        # ...or map each byte to 1 if it can, 0 if not.
        self.risk_map = bytes(1 if risk1[b] else 0 for b in range(256))


_tables: Tables | None = None
_tables_lock = threading.Lock()
UNASSIGNED_SLICE = 1 << 14  # code points looked up per step of tables_steps (~5 ms)


def _unassigned(lo: int, hi: int) -> np.ndarray:
    """Whether each code point of [lo, hi) is unassigned (general category Cn): one
    database lookup per code point, most of the tables' cost."""
    return np.fromiter((category_of_char(chr(c)) == "Cn" for c in range(lo, hi)), dtype=bool,
                       count=hi - lo)


def cache_path() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "utf8-inspector", f"unassigned-unicode-{UNICODE_VERSION}.bits")


def _load_cached() -> np.ndarray | None:
    try:
        with open(cache_path(), "rb") as f:
            raw = f.read()
    except OSError:
        return None
    if len(raw) != 0x110000 // 8:
        return None
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8)).astype(bool)


def _store(unassigned: np.ndarray) -> None:
    path = cache_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".unassigned-")
        with os.fdopen(fd, "wb") as f:
            f.write(np.packbits(unassigned).tobytes())
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new
    except OSError:
        pass


def cached_unassigned() -> np.ndarray:
    """Whether each code point is unassigned: from the cache, else built and stored."""
    got = _load_cached()
    if got is None:
        got = _unassigned(0, 0x110000)
        _store(got)
    return got


def tables_steps():
    """Build the tables as a generator of short steps (a background worker that shares
    the interpreter with a UI yields between them; built at once, they held it for a
    quarter of a second). Nothing to do when they exist."""
    global _tables
    if _tables is not None:
        return
    unassigned = _load_cached()
    if unassigned is None:
        unassigned = np.empty(0x110000, dtype=bool)
        for lo in range(0, 0x110000, UNASSIGNED_SLICE):
            hi = min(lo + UNASSIGNED_SLICE, 0x110000)
            unassigned[lo:hi] = _unassigned(lo, hi)
            yield None
        _store(unassigned)
    with _tables_lock:
        if _tables is None:
            _tables = Tables(unassigned)


def tables() -> Tables:
    global _tables
    if _tables is None:
        with _tables_lock:
            if _tables is None:
                _tables = Tables()
    return _tables


