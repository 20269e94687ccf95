"""Ways of reading bytes: the :class:`Interpretation` every one of them is, and the five
UTF-8 dialects (:class:`Utf8Dialect`). :mod:`inspector.core.units.interpretation` finds
one by name, the other encodings included.

An :class:`Interpretation` cuts bytes into units, finds the start of the unit that holds
an offset, decodes from a chosen origin, explains a unit, encodes a code point, and says
what it can produce (which problem kinds, which unit lengths) and which fast paths of
the scanner serve it. The window, the scanner and the command line hold one (by
:func:`interpretation`) and ask it, instead of comparing dialect names.

The five UTF-8 dialects of the unit contract (``resources/docs/utf8-units.md``,
"Dialects") are one :class:`Utf8Dialect` each. A legacy code page or UTF-16/32 is
another subclass (:mod:`inspector.core.units.encodings.codecunits`,
:mod:`inspector.core.units.encodings.multibyte`): it cuts its own units (a valid unit's ``value``
is its code point, its ``length`` its bytes) and names its own problem kinds, and every
caller that asks the object keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.units import boundaries, decoder
from inspector.core.units import kinds as K
from inspector.core.units import spelling
from inspector.core.units.decoder import Resync, Source, Unit


@dataclass(frozen=True)
class Interpretation:
    """What every way of reading bytes answers. ``name`` is what the command line's
    ``--dialect``, the JSON and the settings write; ``title`` what the window shows.

    ``problem_kinds``: the kinds of problem unit it can produce; ``unit_lengths``: the
    byte lengths a valid unit can have; ``lookback``: how many bytes before an offset
    can belong to the unit that holds it (how far :meth:`unit_start` reads back)."""

    name: str
    title: str
    short_title: str
    problem_kinds: tuple[str, ...]
    unit_lengths: tuple[int, ...]
    lookback: int

    # -------------------------------------------------------------- what it is
    @property
    def max_unit_length(self) -> int:
        return max(self.unit_lengths)

    def can_produce(self, kind: str) -> bool:
        """Whether a unit of ``kind`` (``valid`` or a problem kind) can come out."""
        return kind == K.VALID or kind in self.problem_kinds

    @property
    def is_utf8(self) -> bool:
        """One of the UTF-8 dialects (cut by the decoder and the UTF-8 page cut)."""
        return False

    def line_feed(self, source) -> bytes:
        """The bytes a line feed is written in (the text pane breaks paragraphs there)."""
        return b"\n"

    def reading_at(self, offset: int) -> "Interpretation":
        """The interpretation the byte at ``offset`` is read in (itself, but in the
        encoding map's reading, where each region has its own)."""
        return self

    @property
    def note(self) -> str:
        """What a reader should know about where units start in it (the window's status
        bar says it): empty when every byte of the data tells."""
        return ""

    @property
    def alignment(self) -> int:
        """Units start only every this many bytes from the stream's start (UTF-16: 2,
        UTF-32: 4; 1 where a unit may start anywhere): a search for text in this
        reading keeps only the matches that start there."""
        return 1

    @property
    def keeps_sync_points(self) -> bool:
        """Its whole-file scan notes sync points for the page cut (a multi-byte legacy
        encoding: :mod:`inspector.core.units.encodings.syncpoints`)."""
        return False

    @property
    def scanned_by_kernels(self) -> bool:
        """The scanner's vectorised UTF-8 path (and its slices on other processes, its
        whole-file quick count, the line index's fast count) reads it exactly."""
        return False

    # -------------------------------------------------------------- cutting
    def cut(self, data, base: int = 0, final: bool = True, stop: int | None = None) -> list[Unit]:
        """``data`` cut into units, ``data[0]`` taken as a unit's start (see
        :func:`inspector.core.units.decoder.cut`)."""
        raise NotImplementedError

    def units_in_range(self, source: Source, start: int, end: int,
                       origin: int | None = None) -> list[Unit]:
        """Every unit that overlaps [start, end) of ``source``, cut from ``origin``."""
        raise NotImplementedError

    def exact_in(self, source: Source, start: int, end: int, origin: int | None = None,
                 sync=None) -> bool:
        """Whether the units of [start, end) are cut as the reading from the stream's
        start cuts them (False only in a multi-byte legacy encoding where the cut
        began afresh without a sync point: see the unit contract)."""
        return True

    def unit_at(self, source: Source, offset: int, origin: int | None = None) -> Unit | None:
        """The unit that holds ``offset`` (None past the end): by default the one of
        :meth:`units_in_range` over that byte."""
        if offset < 0 or offset >= source.size:
            return None
        for u in self.units_in_range(source, offset, offset + 1, origin):
            if u.offset <= offset < u.offset + u.length:
                return u
        return None

    def unit_start(self, source: Source, offset: int, origin: int | None = None) -> int:
        """The first byte of the unit that holds ``offset``."""
        u = self.unit_at(source, offset, origin)
        return offset if u is None else u.offset

    def resync(self, source: Source, origin: int) -> Resync:
        """Decoding as if the stream began at ``origin``: what is lost, where it is in
        step again with the reading from the start."""
        raise NotImplementedError

    # -------------------------------------------------------------- words and bytes
    def explain(self, unit: Unit, data, origin: int | None = None) -> str:
        """The one-line explanation of ``unit`` (``data``: its bytes and a few after)."""
        raise NotImplementedError

    def encode(self, value: int) -> bytes:
        """The bytes this interpretation writes ``value`` as (ValueError if none)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Utf8Dialect(Interpretation):
    """One of the contract's UTF-8 dialects: the decoder's cut with ``name`` as its
    dialect."""

    @property
    def is_utf8(self) -> bool:
        return True

    def cut(self, data, base: int = 0, final: bool = True, stop: int | None = None) -> list[Unit]:
        return decoder.cut(data, base, self.name, final, stop)

    def units_in_range(self, source, start, end, origin=None):
        return decoder.units_in_range(source, start, end, origin, self.name)

    def unit_at(self, source, offset, origin=None):
        return decoder.unit_at(source, offset, origin, self.name)

    def unit_start(self, source, offset, origin=None):
        return boundaries.unit_start(source, offset, origin, self.name)

    def resync(self, source, origin):
        return decoder.resync(source, origin, self.name)

    def explain(self, unit, data, origin=None):
        from inspector.core.units.unitinfo import explain  # the long words load on demand

        return explain(unit, data, self.name, origin=origin)

    def encode(self, value: int) -> bytes:
        if self.name == K.FSS_UTF:
            return spelling.encode(value)
        if value > 0x10FFFF or value < 0:
            raise ValueError(f"{self.title} cannot write {value:#x}: above U+10FFFF")
        if 0xD800 <= value <= 0xDFFF and self.name != K.WTF8:
            raise ValueError(f"{self.title} writes no lone surrogate (U+{value:04X})")
        if self.name == K.CESU8:
            return spelling.encode_cesu8(value)
        if self.name == K.MUTF8:
            return spelling.encode_mutf8(value)
        return spelling.encode(value)

    @property
    def scanned_by_kernels(self) -> bool:
        return self.name == K.UTF8


_ALL_PROBLEMS = K.UTF8_ERROR_KINDS
# The 1993 form makes 5/6-byte units, surrogates and values to 7FFFFFFF valid: of the
# problems only the shape errors are left (and any kind the table gains, until this
# says FSS-UTF accepts it).
_FSS_ACCEPTS = (K.SURROGATE, K.OUT_OF_RANGE, K.LEGACY_LONG_FORM)
_FSS_PROBLEMS = tuple(k for k in K.UTF8_ERROR_KINDS if k not in _FSS_ACCEPTS)
# A CESU-8 / Modified UTF-8 surrogate pair is one 6-byte unit; its high half may sit up
# to 3 bytes before a low half's continuation bytes.
_PAIR_LOOKBACK = boundaries.UNIT_START_REACH

INTERPRETATIONS: dict[str, Interpretation] = {
    d.name: d for d in (
        Utf8Dialect(K.UTF8, K.DIALECT_TITLES[K.UTF8], "UTF-8", _ALL_PROBLEMS,
                    (1, 2, 3, 4), boundaries.MAX_LOOKBACK),
        Utf8Dialect(K.WTF8, K.DIALECT_TITLES[K.WTF8], "WTF-8", _ALL_PROBLEMS,
                    (1, 2, 3, 4), boundaries.MAX_LOOKBACK),
        Utf8Dialect(K.CESU8, K.DIALECT_TITLES[K.CESU8], "CESU-8", _ALL_PROBLEMS,
                    (1, 2, 3, 4, 6), _PAIR_LOOKBACK),
        Utf8Dialect(K.MUTF8, K.DIALECT_TITLES[K.MUTF8], "Modified UTF-8", _ALL_PROBLEMS,
                    (1, 2, 3, 4, 6), _PAIR_LOOKBACK),
        Utf8Dialect(K.FSS_UTF, K.DIALECT_TITLES[K.FSS_UTF], "FSS-UTF", _FSS_PROBLEMS,
                    (1, 2, 3, 4, 5, 6), boundaries.MAX_LOOKBACK),
    )
}
