"""How the encoding map looks: a colour role per region, by family of encoding, and the
words the views use for a region.

The families and their colour roles are the core's
(:mod:`inspector.core.analysis.encodings.families`, shared with the HTML report): one
hue per family, not per charset, stable in both palettes. The colours are roles of the
palettes (``resources/palettes/*.json``, ``region_*``).
"""

from __future__ import annotations

from inspector.core.analysis.encodings.families import (  # noqa: F401 - the views' names
    LEGEND, role_for_encoding)
from inspector.core.analysis.encodings.regions import BINARY, MOJIBAKE, UTF8
from inspector.core.units.ranges import byte_range


def role_for(region) -> str:
    return role_for_encoding(region.encoding)


def short_name(region) -> str:
    """A few words for the status bar: "cp1252 region", "binary", "mojibake (via
    cp1252)", "UTF-8"."""
    enc = region.encoding
    if enc == BINARY:
        return "binary"
    if enc == MOJIBAKE:
        return f"mojibake (via {region.via})" if region.via else "mojibake"
    if enc == UTF8:
        return "UTF-8 region"
    return f"{enc} region"


def short_name_of(encoding: str) -> str:
    """An encoding name as the counts read it: "UTF-8", "binary", "mojibake", "cp1252"."""
    return "UTF-8" if encoding == UTF8 else encoding


def describe(region) -> str:
    """The region in one or two lines: its encoding as a person reads it, its offsets
    and length, and its notes (:meth:`Region.notes`)."""
    head = f"{region.title()}: {byte_range(region.start, region.end)}"
    notes = region.notes()
    return head + ("\n" + ", ".join(notes) if notes else "")


def map_of(result):
    """The encoding map a finished scan carries (its verdict's ``regions``), or None:
    never worked out here, so never read from the file (the scan's worker judged it)."""
    if result is None or not result.complete or result.is_snapshot:
        return None
    from inspector.core.analysis.verdict import known_verdict

    return getattr(known_verdict(result), "regions", None)
