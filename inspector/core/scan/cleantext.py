"""Small files of clean UTF-8 text, counted without numpy.

Most files of a folder are text that decodes strictly and carries none of the contract's
warnings. For such a file the whole scan is counts that Python's codecs and string
methods give at C speed: the units by length from the number of characters and the lead
bytes E0..FF and F0..FF, no error, no warning. Whether a character could carry a warning
is asked of ``str.isprintable``: every warning's characters (controls, format characters
such as the bidirectional and zero-width ones and U+FEFF, private use, noncharacters,
unassigned code points) are not printable, U+FFFD aside, which is looked for on its own.
That answer comes from Python's own Unicode database; it is trusted only when that
database is no newer than the contract's (a character assigned in Python's is then
assigned in the contract's), and a character that is not printable without carrying a
warning (a no-break space, a soft hyphen) merely sends the file to the scanner.

A file that is not such text (an error, a possible warning, over CLEAN_LIMIT bytes,
another dialect) is left to :mod:`inspector.core.scan.scanner` (None). Tests compare the
result with the scanner's.
"""

from __future__ import annotations

import time
import unicodedata

from inspector.core.scan.results import DEFAULT_BLOCK, ScanResult
from inspector.core.units import kinds as K
from inspector.core.units.decoder import units_by_length
from inspector.core.units.unicode_db import UNICODE_VERSION

CLEAN_LIMIT = 1 << 20  # files up to this size are read whole and tried this way

_CONTROLS = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_NOT_CONTROLS = bytes(b for b in range(256) if b not in _CONTROLS)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


PRINTABLE_IS_TRUSTED = _version(unicodedata.unidata_version) <= _version(UNICODE_VERSION)


def clean_units(data: bytes) -> dict[int, int] | None:
    """The units of ``data`` by length (1..4) when it is clean UTF-8 text: it decodes
    strictly and no character of it can carry a warning; else None."""
    n = len(data)
    if data.isascii():
        if data.translate(None, _NOT_CONTROLS):
            return None  # an ASCII control: a warning
        return {1: n, 2: 0, 3: 0, 4: 0}
    if not PRINTABLE_IS_TRUSTED:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\ufffd" in text:
        return None
    bare = text
    for space in "\t\n\r":  # not printable, and no warning
        if space in bare:
            bare = bare.replace(space, "")
    if not bare.isprintable():
        return None
    return units_by_length(data, len(text))


def clean_scan(source, max_errors: int = 100, sha256: bool = True) -> ScanResult | None:
    """The finished scan of a whole ``source`` in the utf-8 dialect when it holds at most
    CLEAN_LIMIT bytes of clean text (see :func:`clean_units`), equal to the scanner's
    (its block index is made by the scanner if someone asks for it); else None."""
    size = source.size
    if not 0 < size <= CLEAN_LIMIT:
        return None
    began = time.perf_counter()
    data = source.read(0, size)
    if len(data) != size:
        return None  # the file changed: the scanner says how
    units = clean_units(data)
    if units is None:
        return None
    result = ScanResult(size, K.UTF8, 0, size, None, max_errors, None)
    result.units.update(units)
    if sha256:
        import hashlib  # OpenSSL's libcrypto, 3.3 MiB resident: not before a first scan

        result.sha256 = hashlib.sha256(data).hexdigest()
    result.defer_index(lambda: _index_of(data), DEFAULT_BLOCK)
    result.scanned = size
    result.complete = True
    result.seconds = time.perf_counter() - began
    return result


def _index_of(data: bytes):
    from inspector.core.scan.scanner import index_of  # numpy, only when asked

    return index_of(data, K.UTF8, DEFAULT_BLOCK)
