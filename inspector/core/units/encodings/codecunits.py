"""Reading bytes in an encoding other than UTF-8: legacy code pages and UTF-16/32.

Each class here is an :class:`~inspector.core.units.interpretation.Interpretation` that
cuts bytes into the units of its encoding (the unit contract's "Other
interpretations"): units tile the bytes, a valid unit's ``value`` is its code point and
its ``length`` its bytes, and what the codec's decoder rejects is a problem unit, after
which the cut goes on where that decoder goes on. Every cut is a :class:`PageCut` made
with numpy, never one Python call per byte of an ordinary page:

- :class:`SingleByteCodec` (the code pages of one byte per character): a 256-entry
  table, probed once from the codec;
- :class:`UtfWide` (UTF-16 and UTF-32, either byte order, or the byte order mark's):
  code units read as one numpy array, surrogate pairs joined by a shift;
- :class:`~inspector.core.units.encodings.multibyte.MultiByteCodec` (Shift_JIS, EUC-*, GBK,
  GB18030, Big5, ISO-2022-*, ...): in its own module.

What they share lives in :class:`CodecInterpretation`: cutting a range of a source in
one or more streams (an origin starts a stream), the unit at an offset, what decoding
from an origin loses, the words for a unit and the bytes of a code point.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units import unicode_db
from inspector.core.units.boundaries import segment
from inspector.core.units.decoder import Resync, Unit, warnings_for
from inspector.core.units.dialects import Interpretation
from inspector.core.units.ranges import byte_range
from inspector.core.units.unitarrays import CODE_OF, NO_WARNINGS, PageCut, concatenate, empty

C_VALID = CODE_OF[K.VALID]
C_UNDECODABLE = CODE_OF[K.UNDECODABLE]
C_UNPAIRED = CODE_OF[K.UNPAIRED_SURROGATE]
C_OUT_OF_RANGE = CODE_OF[K.OUT_OF_RANGE]

# How far on from an origin the misreading is looked at before saying "never in step".
RESYNC_LOOK = 64 << 10
# The lost units a Resync lists at most (the views need only where the misreading ends).
RESYNC_LIST = 4096


@lru_cache(maxsize=1)
def _low_warnings() -> np.ndarray:
    """The warning tuples of U+0000-U+00FF, by code point."""
    table = np.empty(0x100, dtype=object)
    table[:] = [warnings_for(cp, 1) for cp in range(0x100)]
    return table


def unit_warnings(value: np.ndarray, offset: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The warning tuple of every unit: the decoder's, per distinct code point of the
    page (U+FEFF at file offset 0 is a byte order mark, elsewhere a ZWNBSP)."""
    out = np.empty(len(value), dtype=object)
    out.fill(NO_WARNINGS)
    at = np.flatnonzero(valid)
    if not len(at):
        return out
    values = value[at]
    low = values < 0x100            # most of a page: one table lookup for them all
    out[at[low]] = _low_warnings()[values[low]]
    high = ~low
    if high.any():
        distinct, where = np.unique(values[high], return_inverse=True)
        found = np.empty(len(distinct), dtype=object)
        found[:] = [warnings_for(cp, 1) for cp in distinct.tolist()]
        out[at[high]] = found[where.reshape(-1)]
    if offset[at[0]] == 0 and value[at[0]] == 0xFEFF:
        out[at[0]] = warnings_for(0xFEFF, 0)
    return out


def make_cut(offset, length, kind, value, replacements, at_end, base: int,
             more=None) -> PageCut:
    """A PageCut from arrays relative to ``base``, with the warnings worked out; ``more``:
    None, or per unit the code points after its value (see ``PageCut.more``)."""
    offset = np.asarray(offset, dtype=np.int64) + base
    value = np.asarray(value, dtype=np.int64)
    kind = np.asarray(kind, dtype=np.uint8)
    warnings = unit_warnings(value, offset, kind == C_VALID)
    return PageCut(offset, np.asarray(length, dtype=np.int64), kind, value,
                   np.asarray(replacements, dtype=np.int64), np.asarray(at_end, dtype=bool),
                   warnings, more)


@dataclass(frozen=True)
class CodecInterpretation(Interpretation):
    """An encoding Python's codecs read. Subclasses say how a stretch of bytes that
    begins at a unit start is cut (:meth:`page_cut`), where the last unit start at or
    before an offset is (:meth:`anchor`), and where, if anywhere, a long cut must begin
    afresh (:meth:`restarts`)."""

    codec: str = ""
    # Bytes read past a range's end, so the last unit that starts in it is whole.
    read_ahead: int = 16

    # ------------------------------------------------------------ what subclasses say
    def page_cut(self, data, base: int = 0, final: bool = True, stop: int | None = None,
                 head: bytes = b"") -> PageCut:
        """``data`` (``data[0]`` a unit start at file offset ``base``) cut into units;
        only units starting before index ``stop`` are kept. ``head``: the first bytes of
        the file (a byte order mark there decides UTF-16/32's byte order)."""
        raise NotImplementedError

    def anchor(self, source, offset: int, seg_start: int, sync=None) -> int:
        """A unit start at or before ``offset`` in the stream that begins at
        ``seg_start``, from which the cut is the cut of the whole stream (``sync``: the
        scan's :class:`~inspector.core.units.encodings.syncpoints.SyncPoints`, if any)."""
        return offset

    def restarts(self, source, lo: int, hi: int, seg_start: int, sync=None) -> list[int]:
        """Offsets in (lo, hi) where the cut begins afresh (none but in multi-byte
        codecs without a byte that marks a boundary for a long stretch)."""
        return []

    def exact_at(self, source, offset: int, seg_start: int, sync=None) -> bool:
        """Whether a cut that begins at :meth:`anchor` of ``offset`` is the reading from
        the stream's start (not where a multi-byte codec began afresh)."""
        return True

    def head(self, source) -> bytes:
        return b""

    def line_feed(self, source) -> bytes:
        try:
            return "\n".encode(self.codec) or b"\n"
        except UnicodeEncodeError:
            return b"\n"

    # ------------------------------------------------------------ cutting
    def cut(self, data, base: int = 0, final: bool = True, stop: int | None = None) -> list[Unit]:
        return self.page_cut(bytes(data), base, final, stop).units()

    def cuts_in_range(self, source, start: int, end: int, origin: int | None = None,
                      sync=None) -> list[PageCut]:
        """The units overlapping [start, end), one PageCut per stream the range touches
        (``sync``: the scan's sync points, which a multi-byte codec's cut begins at)."""
        size = source.size
        start, end = max(0, start), min(end, size)
        out: list[PageCut] = []
        pos = start
        head = self.head(source)
        while pos < end:
            seg_start, seg_end = segment(pos, origin, size)
            stop = min(end, seg_end)
            first = self.anchor(source, pos, seg_start, sync)
            points = [first, *self.restarts(source, first, stop, seg_start, sync)]
            pieces = []
            for i, p in enumerate(points):
                forced = i + 1 < len(points)
                piece_stop = points[i + 1] if forced else stop
                pieces.append(self.cut_from(source, p, piece_stop, seg_end, forced, head))
            page = concatenate(pieces)
            if len(page) and page.offset[0] + page.length[0] <= start:
                k = int(np.searchsorted(page.offset + page.length, start, side="right"))
                page = page.take(slice(k, None))
            out.append(page)
            pos = seg_end
        return out

    def cut_from(self, source, start: int, stop: int, seg_end: int, forced: bool = False,
                 head: bytes = b"") -> PageCut:
        """The units starting in [start, stop), ``start`` a unit start of the stream that
        ends at ``seg_end`` (the scan's windows: each begins where the last unit of the
        one before ended). ``forced``: the cut ends at ``stop`` (where a multi-byte
        codec begins afresh)."""
        read_end = stop if forced else min(seg_end, stop + self.read_ahead)
        data = source.read(start, read_end - start)
        final = forced or start + len(data) >= seg_end or len(data) < read_end - start
        return self.page_cut(data, start, final, stop - start, head)

    def exact_in(self, source, start, end, origin=None, sync=None):
        size = source.size
        pos, end = max(0, start), min(end, size)
        while pos < end:
            seg_start, seg_end = segment(pos, origin, size)
            stop = min(end, seg_end)
            if not self.exact_at(source, pos, seg_start, sync) or \
                    self.restarts(source, pos, stop, seg_start, sync):
                return False
            pos = seg_end
        return True

    def units_in_range(self, source, start, end, origin=None, sync=None):
        out: list[Unit] = []
        for c in self.cuts_in_range(source, start, end, origin, sync):
            out += c.units()
        return out

    def resync(self, source, origin):
        """Decoding as if the stream began at ``origin``: the units read differently from
        the reading from the start, up to the first unit start both readings share
        (from there on they are the same). ``in_step`` is False when they share none
        within ``RESYNC_LOOK`` bytes: then ``sync_offset`` is the end of the file."""
        size = source.size
        origin = max(0, min(origin, size))
        look = origin + 4096
        while True:
            hi = min(size, look)
            moved = [u for c in self.cuts_in_range(source, origin, hi, origin) for u in c.units()]
            plain = {u.offset for c in self.cuts_in_range(source, origin, hi, None)
                     for u in c.units()}
            for i, u in enumerate(moved):
                if u.offset in plain:
                    return Resync(origin, moved[:i], u.offset)
            if hi >= size:
                return Resync(origin, moved[:RESYNC_LIST], size, in_step=moved == [])
            if look - origin >= RESYNC_LOOK:
                return Resync(origin, moved[:RESYNC_LIST], size, in_step=False)
            look = origin + (look - origin) * 4

    # ------------------------------------------------------------ words and bytes
    def encode(self, value: int) -> bytes:
        if not 0 <= value <= 0x10FFFF:
            raise ValueError(f"{self.title} cannot write {value:#x}: not a code point")
        try:
            return chr(value).encode(self.codec)
        except UnicodeEncodeError:
            raise ValueError(f"{self.title} has no character U+{value:04X}") from None

    def explain(self, unit, data, origin=None):
        raw = bytes(data[:unit.length]) if data is not None else b""
        spelled = raw.hex(" ").upper()
        if unit.kind == K.VALID:
            cp = unit.value
            named = " + ".join(f"{unicode_db.format_cp(v)} {unicode_db.name(v)}"
                               for v in (cp, *unit.more))
            words = (f"{named}: {unit.length} "
                     f"byte{'s' if unit.length != 1 else ''} in {self.short_title} ({spelled})")
            if cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
                words += f"; in UTF-8 {unit.text.encode('utf-8').hex(' ').upper()}"
            if unit.warnings:
                words += "; " + ", ".join(K.title(w) for w in unit.warnings)
            return words
        info = K.KINDS.get(unit.kind)
        head = info.title if info is not None else unit.kind
        what = info.explanation if info is not None else unit.kind
        where = byte_range(unit.offset, unit.offset + unit.length)
        value = f" {unicode_db.format_cp(unit.value)}" if unit.value is not None else ""
        end = ", cut short by the end of the data" if unit.at_end else ""
        return f"{head}{value} in {self.short_title}{end}: {spelled} at {where}; {what}"


# ====================================================================== single byte

@lru_cache(maxsize=None)
def byte_table(codec: str) -> np.ndarray | None:
    """Per byte value: the code point ``codec`` decodes it to alone, -1 where it decodes
    none; None when the codec is not one byte per character (a byte starts a longer
    sequence, decodes to several characters or to none, or the bytes read in a row do
    not decode as they do alone)."""
    table = np.full(256, -1, dtype=np.int64)
    for b in range(256):
        try:
            text = bytes([b]).decode(codec)
        except UnicodeDecodeError as e:
            if e.start != 0 or e.end != 1 or "incomplete" in e.reason or "end of data" in e.reason:
                return None
            continue
        except Exception:  # a codec that cannot decode at all
            return None
        if len(text) != 1:
            return None
        table[b] = ord(text)
    # In a row, as one string: a stateful codec decodes them otherwise.
    row = bytes(b for b in range(256) if table[b] >= 0)
    try:
        joined = row.decode(codec)
    except Exception:
        return None
    if [ord(c) for c in joined] != table[table >= 0].tolist():
        return None
    return table


@dataclass(frozen=True)
class SingleByteCodec(CodecInterpretation):
    """A code page of one byte per character: each byte is a unit; a byte the codec
    leaves undefined is ``undecodable``."""

    def page_cut(self, data, base=0, final=True, stop=None, head=b""):
        n = len(data)
        stop = n if stop is None else min(stop, n)
        if stop <= 0:
            return empty()
        m = np.frombuffer(data, dtype=np.uint8, count=stop)
        value = byte_table(self.codec)[m]
        bad = value < 0
        kind = bad.view(np.uint8) * np.uint8(C_UNDECODABLE)
        ones = np.ones(stop, dtype=np.int64)
        return make_cut(np.arange(stop), ones, kind, value, bad.astype(np.int64),
                        np.zeros(stop, bool), base)

    def unit_start(self, source, offset, origin=None):
        return offset

    def resync(self, source, origin):
        return Resync(origin, [], origin)


# ====================================================================== UTF-16 / UTF-32

@dataclass(frozen=True)
class UtfWide(CodecInterpretation):
    """UTF-16 (``width`` 2) or UTF-32 (4), little- or big-endian, or with the byte
    order the file's byte order mark gives (``order`` "bom"; without one, little-endian
    as Python's own ``utf-16`` / ``utf-32`` decoders read it).

    UTF-16: a high surrogate right before a low one is one 4-byte unit; any other
    surrogate is ``unpaired_surrogate``. UTF-32: a value above U+10FFFF is
    ``out_of_range``, a surrogate ``unpaired_surrogate``. Bytes left over at the end
    (fewer than a code unit) are ``undecodable``; in UTF-16 a high surrogate followed by
    them is one unit with them, as CPython reports it. A unit starts every ``width``
    bytes from the stream's start (the origin, if one is chosen): started at another
    offset the reading is never in step again."""

    width: int = 2
    order: str = "little"

    @property
    def alignment(self) -> int:
        return self.width

    @property
    def note(self) -> str:
        return (f"{self.short_title}: a unit starts every {self.width} bytes from the start "
                f"of the stream; decoding from another offset is never back in step")

    def head(self, source) -> bytes:
        return source.read(0, 4) if self.order == "bom" else b""

    def line_feed(self, source) -> bytes:
        end = "le" if self.byte_order(self.head(source)) == "little" else "be"
        return "\n".encode(f"utf-{8 * self.width}-{end}")

    def byte_order(self, head: bytes) -> str:
        if self.order != "bom":
            return self.order
        if self.width == 4:
            return "big" if head[:4] == b"\x00\x00\xfe\xff" else "little"
        return "big" if head[:2] == b"\xfe\xff" else "little"

    def anchor(self, source, offset, seg_start, sync=None):
        q = seg_start + (offset - seg_start) // self.width * self.width
        if self.width == 2 and q - 2 >= seg_start:
            pair = source.read(q - 2, 4)
            if len(pair) == 4:
                dt = self._dtype(self.head(source))
                u = np.frombuffer(pair, dtype=dt)
                if 0xD800 <= u[0] <= 0xDBFF and 0xDC00 <= u[1] <= 0xDFFF:
                    return q - 2
        return q

    def _dtype(self, head: bytes):
        end = "<" if self.byte_order(head) == "little" else ">"
        return np.dtype(f"{end}u{self.width}")

    def page_cut(self, data, base=0, final=True, stop=None, head=b""):
        n = len(data)
        stop = n if stop is None else min(stop, n)
        if stop <= 0:
            return empty()
        w = self.width
        if not head and base == 0:
            head = bytes(data[:4])
        count = n // w
        u = np.frombuffer(data, dtype=self._dtype(head), count=count).astype(np.int64)
        offset = np.arange(count, dtype=np.int64) * w
        length = np.full(count, w, dtype=np.int64)
        kind = np.zeros(count, dtype=np.uint8)
        value = u.copy()
        at_end = np.zeros(count, dtype=bool)
        if w == 2:
            high = (u & 0xFC00) == 0xD800
            low = (u & 0xFC00) == 0xDC00
            first = np.zeros(count, dtype=bool)
            first[:-1] = high[:-1] & low[1:]
            second = np.zeros(count, dtype=bool)
            second[1:] = first[:-1]
            at = np.flatnonzero(first)
            value[at] = 0x10000 + ((u[at] - 0xD800) << 10) + (u[at + 1] - 0xDC00)
            length[at] = 4
            kind[(high | low) & ~first & ~second] = C_UNPAIRED
            keep = ~second
            offset, length, kind, value, at_end = (offset[keep], length[keep], kind[keep],
                                                   value[keep], at_end[keep])
        else:
            kind[(u >= 0xD800) & (u <= 0xDFFF)] = C_UNPAIRED
            kind[u > 0x10FFFF] = C_OUT_OF_RANGE
        rest = n - count * w
        if rest:
            if final and w == 2 and len(kind) and kind[-1] == C_UNPAIRED and value[-1] <= 0xDBFF:
                length[-1] += rest   # CPython: "unexpected end of data" over both
                at_end[-1] = True
            else:
                offset = np.append(offset, count * w)
                length = np.append(length, rest)
                kind = np.append(kind, np.uint8(C_UNDECODABLE))
                value = np.append(value, -1)
                at_end = np.append(at_end, final)
        elif final and w == 2 and len(kind) and kind[-1] == C_UNPAIRED and value[-1] <= 0xDBFF:
            at_end[-1] = True
        replacements = (kind != C_VALID).astype(np.int64)
        if len(offset) and offset[-1] >= stop:
            k = int(np.searchsorted(offset, stop))
            offset, length, kind, value, replacements, at_end = (
                offset[:k], length[:k], kind[:k], value[:k], replacements[:k], at_end[:k])
        return make_cut(offset, length, kind, value, replacements, at_end, base)
