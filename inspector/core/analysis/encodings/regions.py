"""The encoding map: where a file changes encoding.

:func:`~inspector.core.analysis.encodings.mapbuilder.encoding_map` turns a finished scan
into :class:`Region` objects that cover the scanned range in order, without gaps or
overlaps, each naming how its bytes are encoded: a Python codec name as
``codecs.lookup(name).name`` spells it (``utf-8``, ``cp1252``, ``iso8859-1``, ``koi8-r``,
``shift_jis``, ``utf-16-le``...), ``binary``, or ``mojibake`` (UTF-8 encoded twice;
``via`` names the charset it went through). Neighbouring regions always differ. A file
in one encoding is one region. The verdict works the map out once and keeps it
(``verdict_of(result, source).regions``, an :class:`EncodingMap`): a view asks it for
``region_at(offset)`` and draws ``regions``; the repair policy
:func:`inspector.core.analysis.encodings.regionrepair.region_repair_steps` takes it as
it is.

This module holds the map's types (:class:`Region`, :class:`EncodingMap`) and the names
of the labels that are not codecs. How the map is made:
:mod:`~inspector.core.analysis.encodings.mapbuilder` (what it reads, where boundaries
go), :mod:`~inspector.core.analysis.encodings.stretches` (how a window is cut into cells
and stretches), :mod:`~inspector.core.analysis.encodings.labeller` (which charset a
stretch is in).
"""

from __future__ import annotations

import bisect

from inspector.core.analysis.encodings import charsets as CS

UTF8 = "utf-8"
BINARY = "binary"
MOJIBAKE = "mojibake"


class Region:
    """One stretch of the map: [start, end) in ``encoding``. ``via``: for ``mojibake``,
    the charset the UTF-8 went through. ``language``: the language chardet
    saw, for a legacy charset. ``bom``: the region starts with a byte order mark.
    ``ascii``: a UTF-8 region with no byte above 0x7F. ``exact``: both boundaries were
    found in bytes read (False: placed between two samples). ``by``: what named it."""

    __slots__ = ("start", "end", "encoding", "via", "language", "bom", "ascii", "exact", "by")

    def __init__(self, start: int, end: int, encoding: str, *, via: str | None = None,
                 language: str = "", bom: bool = False, ascii: bool = False,
                 exact: bool = True, by: str = ""):
        self.start = start
        self.end = end
        self.encoding = encoding
        self.via = via
        self.language = language
        self.bom = bom
        self.ascii = ascii
        self.exact = exact
        self.by = by

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def is_legacy(self) -> bool:
        """A legacy (8-bit or East Asian) charset, not UTF-8/16/32, binary or mojibake."""
        return self.encoding not in (UTF8, BINARY, MOJIBAKE) and not self.encoding.startswith("utf-")

    def title(self) -> str:
        """The encoding as a person reads it: "UTF-8", "Windows-1252", "binary",
        "mojibake (UTF-8 read as Windows-1252)"."""
        if self.encoding == MOJIBAKE:
            return f"mojibake (UTF-8 read as {CS.charset_title(self.via)})" if self.via else "mojibake"
        if self.encoding == UTF8 and self.ascii:
            return "UTF-8 (ASCII)"
        return CS.charset_title(self.encoding)

    def notes(self) -> list[str]:
        """What else is known about the region, in a few words each, the same wherever
        a region is shown (the window's tooltips and statistics, the HTML report): its
        codec when its title names it otherwise, the charset mojibake went through, the
        language seen, a byte order mark at its start, a boundary placed between two
        samples, and what named it."""
        notes = []
        if self.encoding not in (UTF8, BINARY, MOJIBAKE) and self.encoding != self.title():
            notes.append(f"codec {self.encoding}")
        if self.via:
            notes.append(f"via {self.via}")
        if self.language:
            notes.append(f"language {self.language}")
        if self.bom:
            notes.append("starts with a byte order mark")
        if not self.exact:
            notes.append("boundary placed between samples")
        if self.by:
            notes.append(f"by {self.by}")
        return notes

    def to_dict(self) -> dict:
        out = {"start": self.start, "end": self.end, "encoding": self.encoding}
        if self.via:
            out["via"] = self.via
        if self.language:
            out["language"] = self.language
        if self.bom:
            out["bom"] = True
        if self.ascii:
            out["ascii"] = True
        out["exact"] = self.exact
        if self.by:
            out["by"] = self.by
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Region:
        """A region read back from :meth:`to_dict`'s form (a report's ``regions``)."""
        return cls(int(d["start"]), int(d["end"]), str(d["encoding"]), via=d.get("via"),
                   language=d.get("language") or "", bom=bool(d.get("bom")),
                   ascii=bool(d.get("ascii")), exact=bool(d.get("exact", True)),
                   by=d.get("by") or "")

    def __eq__(self, other):
        return isinstance(other, Region) and self.to_dict() == other.to_dict()

    def __repr__(self):
        via = f" via {self.via}" if self.via else ""
        return f"Region({self.start}, {self.end}, {self.encoding!r}{via})"


class EncodingMap:
    """The regions of a scanned range, in order, covering [start, end).
    ``bytes_read``: how many bytes working it out read (the windows and probes).
    ``shaped`` and ``legacy``: the UTF-8-shaped errors and legacy-shaped runs seen in
    the bytes read (module text)."""

    def __init__(self, start: int, end: int, regions: list[Region], bytes_read: int = 0,
                 shaped: int = 0, legacy: int = 0):
        self.start = start
        self.end = end
        self.regions = regions
        self.bytes_read = bytes_read
        self.shaped = shaped
        self.legacy = legacy
        self._starts = [r.start for r in regions]

    def __iter__(self):
        return iter(self.regions)

    def __len__(self):
        return len(self.regions)

    def __getitem__(self, i):
        return self.regions[i]

    def region_at(self, offset: int) -> Region | None:
        """The region holding ``offset`` (None outside the scanned range)."""
        if offset < self.start or offset >= self.end or not self.regions:
            return None
        return self.regions[bisect.bisect_right(self._starts, offset) - 1]

    def bytes_by_encoding(self) -> dict[str, int]:
        """Bytes per encoding name (mojibake as ``mojibake``), largest first."""
        out: dict[str, int] = {}
        for r in self.regions:
            out[r.encoding] = out.get(r.encoding, 0) + r.length
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    @property
    def encodings(self) -> list[str]:
        """The distinct encodings, in order of first appearance."""
        seen: list[str] = []
        for r in self.regions:
            key = r.encoding if r.encoding != MOJIBAKE else f"{MOJIBAKE}:{r.via}"
            if key not in seen:
                seen.append(key)
        return seen

    @property
    def mixed(self) -> bool:
        """More than one encoding (binary and mojibake count as encodings here)."""
        return len(self.encodings) > 1

    def to_list(self) -> list[dict]:
        return [r.to_dict() for r in self.regions]

    def __repr__(self):
        return f"EncodingMap({self.regions!r})"
