"""The warning tables: for every code point, which of the spec's warnings it carries,
and the byte-level tables derived from them that let the scanner skip clean text.

Built once per process, from the Unicode database of :mod:`inspector.core.units.unicode_db`.
The slow part, which code points are unassigned (one database lookup each, ~0.25-0.45 s),
is kept on disk in the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, file
named after the Unicode version: 139 KB of packed bits), so a process starts in a few
milliseconds; when the folder cannot be read or written it is simply built.

The finished tables (4.4 MB) are kept there too, and mapped read-only: a scan then has
in memory only the pages of the tables it looks at (measured: 0.2-0.3 MB after a 1 GiB
file of text in a dozen scripts; all of them for random bytes), the pages are the
system's file cache, shared by every process, and the tables cost no building. Built
in memory when that file cannot be had.
"""

from __future__ import annotations

import mmap
import os
import threading
import types
import zlib

import numpy as np

from inspector.core.source.safewrite import AtomicWriter, write_atomic
from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import UNICODE_VERSION, category_of_char

# Warning bits: a warning's code in the kinds table is its bit (bit i is K.WARNING_KINDS[i]).
WARNING_BIT = {name: 1 << K.KINDS[name].code for name in K.WARNING_KINDS}
B_BOM = WARNING_BIT[K.BOM]
B_ZWNBSP = WARNING_BIT[K.ZWNBSP]
B_CONTROL = WARNING_BIT[K.CONTROL]
B_UNASSIGNED = WARNING_BIT[K.UNASSIGNED]
B_RAW_NUL = WARNING_BIT[K.RAW_NUL]

N_CODE_POINTS = 0x110000
PLANE = 0x10000


def warning_bits(unassigned: np.ndarray) -> np.ndarray:
    """The warning bits of every code point (uint16). Built with slices and strides, not
    masks over an array of all code points: no temporary of 9 MB on the way."""
    bits = np.zeros(N_CODE_POINTS, dtype=np.uint16)
    np.bitwise_or(bits, B_UNASSIGNED, out=bits, where=unassigned)
    # Surrogates and noncharacters have kinds of their own, never "unassigned".
    bits[0xD800:0xE000] = 0
    nonchar = WARNING_BIT[K.NONCHARACTER]
    bits[0xFDD0:0xFDF0] = nonchar
    bits[0xFFFE::PLANE] = nonchar  # U+xFFFE and U+xFFFF of every plane
    bits[0xFFFF::PLANE] = nonchar
    for lo, hi in ((0x00, 0x09), (0x0B, 0x0D), (0x0E, 0x20), (0x7F, 0xA0)):
        bits[lo:hi] |= B_CONTROL  # C0 but tab, LF and CR; DEL and C1
    private = WARNING_BIT[K.PRIVATE_USE]
    for lo, hi in ((0xE000, 0xF900), (0xF0000, 0xFFFFE), (0x100000, 0x10FFFE)):
        bits[lo:hi] |= private
    bits[0xFFFD] |= WARNING_BIT[K.REPLACEMENT_CHAR]
    bits[[0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]] |= \
        WARNING_BIT[K.BIDI_CONTROL]
    bits[[0x200B, 0x200C, 0x200D, 0x2060]] |= WARNING_BIT[K.ZERO_WIDTH]
    bits[0xFEFF] |= B_ZWNBSP
    return bits


def lead_pair_risk(any_warning: np.ndarray) -> np.ndarray:
    """Which (lead, second byte) pairs can start a code point with a warning: 256 x 256
    booleans, flat, from one boolean per code point."""
    risk2 = np.zeros((256, 256), dtype=bool)
    risk2[:0x80, :] = any_warning[:0x80, None]
    for lead in range(0xC2, 0xE0):
        risk2[lead, 0x80:0xC0] = any_warning[((lead & 0x1F) << 6):((lead & 0x1F) << 6) + 64]
    blocks64 = any_warning[:PLANE].reshape(1024, 64).any(axis=1)
    for lead in range(0xE0, 0xF0):
        risk2[lead, 0x80:0xC0] = blocks64[(lead & 0x0F) << 6:((lead & 0x0F) << 6) + 64]
    blocks4k = any_warning.reshape(0x110, 4096).any(axis=1)
    for lead in range(0xF0, 0xF5):
        first = (lead & 0x07) << 6
        row = blocks4k[first:min(first + 64, 0x110)]
        risk2[lead, 0x80:0x80 + len(row)] = row
    return risk2.reshape(-1)


class Tables:
    """Lookup tables, one set per process (:func:`tables`): built from the unassigned
    code points, or mapped from the cache file (:meth:`from_arrays`)."""

    def __init__(self, unassigned: np.ndarray | None = None):
        if unassigned is None:
            unassigned = cached_unassigned()
        bits = warning_bits(unassigned)
        # One byte per code point, nonzero where it has a warning: the scanner's first,
        # cheap pass over decoded text (a 1.1 MB table, not 2.2).
        any8 = (bits != 0).view(np.uint8)
        # The same, also nonzero on U+DC80..U+DCFF: what the decoder's surrogateescape
        # handler turns each byte of an error into (a valid decode never yields them).
        any8_escapes = any8.copy()
        any8_escapes[0xDC80:0xDD00] = 1
        self._set(bits, any8, any8_escapes, lead_pair_risk(any8.view(bool)))

    @classmethod
    def from_arrays(cls, bits, any8, any8_escapes, risk2) -> Tables:
        """Tables over arrays made elsewhere (the mapped cache file)."""
        t = cls.__new__(cls)
        t._set(bits, any8, any8_escapes, risk2)
        return t

    def _set(self, bits, any8, any8_escapes, risk2) -> None:
        self.bits = bits
        self.any8 = any8
        self.any8_escapes = any8_escapes
        self.flagged_or_escape = any8_escapes.view(bool)
        self.risk2 = risk2
        self._bits_mutf8 = None
        risk1 = risk2.reshape(256, 256).any(axis=1)
        # bytes.translate tables: delete the bytes that cannot start a warning...
        self.safe_bytes = bytes(b for b in range(256) if not risk1[b])
        # ...or map each byte to 1 if it can, 0 if not.
        self.risk_map = bytes(1 if risk1[b] else 0 for b in range(256))

    @property
    def bits_mutf8(self) -> np.ndarray:
        """``bits`` with the raw NUL's warning on U+0000 (Modified UTF-8): a 2.2 MB copy,
        made when that dialect is first scanned."""
        if self._bits_mutf8 is None:
            copy = self.bits.copy()
            copy[0] |= B_RAW_NUL
            self._bits_mutf8 = copy
        return self._bits_mutf8


_tables: Tables | None = None
_tables_lock = threading.Lock()
UNASSIGNED_SLICE = 1 << 14  # code points looked up per step of tables_steps (~5 ms)


def build_unassigned(lo: int = 0, hi: int = N_CODE_POINTS) -> np.ndarray:
    """Whether each code point of [lo, hi) is unassigned (general category Cn): one
    database lookup per code point, most of the tables' cost."""
    return np.fromiter((category_of_char(chr(c)) == "Cn" for c in range(lo, hi)), dtype=bool,
                       count=hi - lo)


def cache_path() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "utf8-inspector", f"unassigned-unicode-{UNICODE_VERSION}.bits")


def load_cached_unassigned() -> np.ndarray | None:
    """The unassigned code points from the cache file; None when it is missing or damaged."""
    try:
        with open(cache_path(), "rb") as f:
            raw = f.read()
    except OSError:
        return None
    if len(raw) != 0x110000 // 8:
        return None
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8)).view(bool)


def _store(unassigned: np.ndarray) -> None:
    path = cache_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # atomic: a concurrent reader sees the old file or the new
        write_atomic(path, np.packbits(unassigned).tobytes())
    except OSError:
        pass


def cached_unassigned() -> np.ndarray:
    """Whether each code point is unassigned: from the cache, else built and stored."""
    got = load_cached_unassigned()
    if got is None:
        got = build_unassigned()
        _store(got)
    return got


def code_fingerprint(*codes, crc: int = 0) -> int:
    """A CRC-32 of what functions do: their bytecode, names and constants (nested code
    too), not where they are (file, lines), nor anything that varies between runs."""
    for code in codes:
        crc = zlib.crc32(code.co_code, crc)
        crc = zlib.crc32(repr(code.co_names).encode(), crc)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                crc = code_fingerprint(const, crc=crc)
            elif isinstance(const, frozenset):  # its order follows the run's string hashes
                crc = zlib.crc32(repr(sorted(const, key=repr)).encode(), crc)
            else:
                crc = zlib.crc32(repr(const).encode(), crc)
    return crc


TABLES_LAYOUT = (("bits", np.uint16, N_CODE_POINTS), ("any8", np.uint8, N_CODE_POINTS),
                 ("any8_escapes", np.uint8, N_CODE_POINTS), ("risk2", np.bool_, 256 * 256))
# The finished tables' file: a header, then the arrays one after the other, each at a
# multiple of 16 bytes. The header names the layout and the definitions the tables were
# built by (the code above and the warning kinds): a file of other ones (an older
# version of the program, say, that drew a warning's code points differently) or of a
# broken write is not used, and is written anew.
TABLES_DEFINITIONS = code_fingerprint(
    warning_bits.__code__, lead_pair_risk.__code__, Tables.__init__.__code__,
    crc=zlib.crc32(repr((K.WARNING_KINDS, TABLES_LAYOUT)).encode()))
TABLES_HEADER = b"utf8-inspector warning tables, layout 1, definitions %08x\n" % TABLES_DEFINITIONS


def _aligned(n: int) -> int:
    return (n + 15) // 16 * 16


TABLES_FILE_SIZE = _aligned(len(TABLES_HEADER)) + sum(
    _aligned(np.dtype(dtype).itemsize * count) for _, dtype, count in TABLES_LAYOUT)


def tables_cache_path() -> str:
    return os.path.join(os.path.dirname(cache_path()),
                        f"warning-tables-unicode-{UNICODE_VERSION}.bin")


def map_cached_tables() -> Tables | None:
    """The tables of the cache file, mapped read-only (None if it is missing or not
    of this layout)."""
    try:
        with open(tables_cache_path(), "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    if len(mapped) != TABLES_FILE_SIZE or mapped[:len(TABLES_HEADER)] != TABLES_HEADER:
        mapped.close()
        return None
    arrays = []
    offset = _aligned(len(TABLES_HEADER))
    for _, dtype, count in TABLES_LAYOUT:
        # Each array keeps the mapping alive (its base); read-only, as the file is.
        arrays.append(np.frombuffer(mapped, dtype=dtype, count=count, offset=offset))
        offset += _aligned(np.dtype(dtype).itemsize * count)
    return Tables.from_arrays(*arrays)


def store_tables(t: Tables) -> bool:
    """Write the tables' cache file (atomically); False if it cannot be written."""
    path = tables_cache_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # atomic: a concurrent reader (another process maps it) sees the old file or the new
        with AtomicWriter(path, binary=True) as out:
            out.file.write(TABLES_HEADER.ljust(_aligned(len(TABLES_HEADER)), b"\0"))
            for name, dtype, count in TABLES_LAYOUT:
                data = np.ascontiguousarray(getattr(t, name), dtype=dtype).tobytes()
                assert len(data) == np.dtype(dtype).itemsize * count
                out.file.write(data.ljust(_aligned(len(data)), b"\0"))
    except OSError:
        return False
    return True


def _built_and_stored(unassigned: np.ndarray) -> Tables:
    """Tables built from ``unassigned``; once stored, the mapped file's instead (the
    built arrays are then freed)."""
    built = Tables(unassigned)
    if store_tables(built):
        return map_cached_tables() or built
    return built


def tables_steps():
    """Build the tables as a generator of short steps (a background worker that shares
    the interpreter with a UI yields between them; built at once, they held it for a
    quarter of a second). Nothing to do when they exist."""
    global _tables
    if _tables is not None:
        return
    made = map_cached_tables()
    if made is None:
        unassigned = load_cached_unassigned()
        if unassigned is None:
            unassigned = np.empty(0x110000, dtype=bool)
            for lo in range(0, 0x110000, UNASSIGNED_SLICE):
                hi = min(lo + UNASSIGNED_SLICE, 0x110000)
                unassigned[lo:hi] = build_unassigned(lo, hi)
                yield None
            _store(unassigned)
        made = _built_and_stored(unassigned)
    with _tables_lock:
        if _tables is None:
            _tables = made


def use_tables(t: Tables | None) -> Tables | None:
    """Make ``t`` the process's tables and return the ones it had; ``None`` forgets them,
    as in a process that never scanned (the next ``tables()`` maps or builds them)."""
    global _tables
    with _tables_lock:
        before, _tables = _tables, t
    return before


def release_pages() -> bool:
    """Drop the mapped tables' pages from this process's resident memory: they stay in
    the system's file cache, and a later look reads the few it needs back from there.
    For after a whole-file scan, which looks at all of them on random bytes (~3.3 MB
    resident for the rest of a window's run). False when the tables are not mapped (not
    made yet, or built in memory) or the system has no ``madvise``."""
    t = _tables
    mapped = getattr(getattr(t, "bits", None), "base", None)
    if isinstance(mapped, memoryview):   # np.frombuffer's base: a view of the map
        mapped = mapped.obj
    if not isinstance(mapped, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return False
    try:
        mapped.madvise(mmap.MADV_DONTNEED)
    except (OSError, ValueError):  # ValueError: closed
        return False
    return True


def tables() -> Tables:
    global _tables
    if _tables is None:
        with _tables_lock:
            if _tables is None:
                _tables = map_cached_tables() or _built_and_stored(cached_unassigned())
    return _tables
