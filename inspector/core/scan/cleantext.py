"""Small files of clean UTF-8 text, or text with a few errors, counted without numpy.

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

Text with a few errors (at most SPARSE_LIMIT of CPython's error spans) is counted the same
way: CPython's decoder finds the spans at C speed and hands each to an error handler;
the bytes in those spans are exactly the contract's error bytes (a well-formed sequence
is valid to both; an error unit of the contract only ever adds continuation bytes, which
CPython flags on their own), so each run of them is cut into units by the contract's
decoder (:func:`inspector.core.units.decoder.cut`) and the text between is counted as
above.

A file that is not such text (more errors, a possible warning, over CLEAN_LIMIT bytes,
another dialect) is left to :mod:`inspector.core.scan.scanner` (None). Tests compare the
result with the scanner's.

:func:`small_scan` goes further for any small file (a web page in a legacy charset, a
few KiB of binary data), where the scanner's fixed costs (a block index, windows cut at
block edges, a decode to find out that the text is dense with errors, then the
byte-level kernel per piece, the file read again for each) outweigh the counting. It
reads the file once (the source keeps the bytes: :meth:`ByteSource.read_whole`, so the
verdict and the report read them from memory) and counts it the cheapest exact way:
clean text or text with a few errors as above (no numpy); valid UTF-8 with warnings by
:func:`inspector.core.scan.utf8path.quick_whole`; anything else of at most SMALL_LIMIT
bytes by one byte-level kernel over the whole file
(:func:`inspector.core.scan.utf8path.bytelevel_whole`). The block index is made only if
someone asks for it (:meth:`ScanResult.defer_index`; a report of many files never
does).
"""

from __future__ import annotations

import time

from inspector.core.scan.results import DEFAULT_BLOCK, ScanResult
from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut, units_by_length
from inspector.core.units.errorruns import error_runs
from inspector.core.units.unicode_db import BUILTIN_UNICODE_VERSION, UNICODE_VERSION

CLEAN_LIMIT = 1 << 20  # files up to this size are read whole and tried this way
SPARSE_LIMIT = 32  # error spans (CPython's) a file may hold to be counted this way
_PROBE = 4096  # bytes looked at first for more error spans than that
# Files up to this size are counted by small_scan whatever their bytes; larger ones only
# when they are text (CLEAN_LIMIT). Past it the scanner's windows keep the temporaries
# of the byte-level kernel in the cache.
SMALL_LIMIT = 256 << 10

_CONTROLS = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_NOT_CONTROLS = bytes(b for b in range(256) if b not in _CONTROLS)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


PRINTABLE_IS_TRUSTED = _version(BUILTIN_UNICODE_VERSION) <= _version(UNICODE_VERSION)


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
    if not _printable(text):
        return None
    return units_by_length(data, len(text))


def _printable(text: str) -> bool:
    """No character of ``text`` can carry a warning (see the module text)."""
    if "\ufffd" in text:
        return False
    for space in "\t\n\r":  # not printable, and no warning
        if space in text:
            text = text.replace(space, "")
    return text.isprintable()


class TextCounts:
    """What :func:`text_counts` finds: ``units`` by length (1..4) and the error units
    (:class:`~inspector.core.units.decoder.Unit`, in order)."""

    __slots__ = ("units", "errors")

    def __init__(self, units: dict[int, int], errors: list):
        self.units = units
        self.errors = errors


def text_counts(data: bytes) -> TextCounts | None:
    """The counts of ``data`` when it is text with at most SPARSE_LIMIT error spans and
    no character that can carry a warning; else None."""
    units = clean_units(data)
    if units is not None:
        return TextCounts(units, [])
    if data.isascii() or not PRINTABLE_IS_TRUSTED:
        return None  # ASCII has no error: a control sent it here
    # Text in another charset shows more error spans than that in its first few KiB:
    # the replacing decoder (C, one U+FFFD per span, one more where the probe cuts a
    # character) tells so without a call of the error handler per span.
    if data[:_PROBE].decode("utf-8", "replace").count("\ufffd") > SPARSE_LIMIT + 1:
        return None
    found = error_runs(data, SPARSE_LIMIT)
    if found is None:
        return None
    runs, text = found
    if not runs or not _printable(text):
        return None
    n = len(data)
    errors = []
    valid = []  # the bytes between the runs of errors
    pos = 0
    for start, end in zip(runs[0::2], runs[1::2]):
        # Six bytes past the run let its last unit see that no continuation follows.
        run = cut(data[start:end + 6], base=start, final=end + 6 >= n, stop=end - start)
        if not run or run[-1].offset + run[-1].length != end or any(u.is_valid for u in run):
            return None  # not the premise (see the module text): the scanner decides
        errors.extend(run)
        valid.append(data[pos:start])
        pos = end
    valid.append(data[pos:])
    return TextCounts(units_by_length(b"".join(valid), len(text)), errors)


def clean_scan(source, max_errors: int = 100, sha256: bool = True) -> ScanResult | None:
    """The finished scan of a whole ``source`` in the utf-8 dialect when it holds at most
    CLEAN_LIMIT bytes of clean text or text with a few errors (see :func:`text_counts`),
    equal to the scanner's (its block index is made by the scanner if someone asks for
    it); else None."""
    size = source.size
    if not 0 < size <= CLEAN_LIMIT:
        return None
    began = time.perf_counter()
    data = source.read_whole(CLEAN_LIMIT)  # kept: the verdict and the report read it again
    if data is None or len(data) != size:
        return None  # the file changed: the scanner says how
    counts = text_counts(data)
    if counts is None:
        return None
    result = ScanResult(size, K.UTF8, 0, size, None, max_errors, None)
    add_text_counts(result, counts)
    return finish_whole(result, data, sha256, began)


def small_scan(source, max_errors: int = 100, sha256: bool = True) -> ScanResult | None:
    """The finished scan of a whole small ``source`` in the utf-8 dialect from one read
    (see the module text), equal to the scanner's; None for a file this is not for."""
    size = source.size
    if not 0 < size <= CLEAN_LIMIT:
        return None
    began = time.perf_counter()
    data = source.read_whole(CLEAN_LIMIT)
    if data is None or len(data) != size:
        return None  # the file changed: the scanner says how
    result = ScanResult(size, K.UTF8, 0, size, None, max_errors, None)
    counts = text_counts(data)
    if counts is not None:
        add_text_counts(result, counts)
    elif size <= SMALL_LIMIT:
        from inspector.core.scan import utf8path  # numpy: not for clean text

        if not utf8path.quick_whole(result, data):
            utf8path.bytelevel_whole(result, data)
    else:
        return None
    return finish_whole(result, data, sha256, began)


def add_text_counts(result: ScanResult, counts: TextCounts) -> None:
    """Count what :func:`text_counts` found into a fresh ``result``."""
    result.units.update(counts.units)
    for unit in counts.errors:
        result.errors_by_kind[unit.kind] += 1
        result.replacements += unit.replacements
        result.error_bytes += unit.length
        for warning in unit.warnings:
            result.warnings_by_kind[warning] += 1
    result.binary_bytes = result.error_bytes  # no control: the text is printable
    result.first_errors = counts.errors[:result.max_errors]


def finish_whole(result: ScanResult, data: bytes, sha256: bool, began: float) -> ScanResult:
    """Finish the scan of a whole stream ``data`` counted in memory: its SHA-256, its
    block index left to be made if someone asks, the time it took."""
    if sha256:
        import hashlib  # OpenSSL's libcrypto, 3.3 MiB resident: not before a first scan

        result.sha256 = hashlib.sha256(data).hexdigest()
    result.defer_index(lambda: _index_of(data), DEFAULT_BLOCK)
    result.scanned = len(data)
    result.complete = True
    result.seconds = time.perf_counter() - began
    return result


def _index_of(data: bytes):
    from inspector.core.scan.scanner import index_of  # numpy, only when asked

    return index_of(data, K.UTF8, DEFAULT_BLOCK)
