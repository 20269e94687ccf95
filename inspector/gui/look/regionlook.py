"""How the encoding map looks: a colour role per region, by family of encoding, and the
words the views use for a region.

One hue per family, not per charset: the band beside the hex view is a few pixels wide,
and ten shades of orange cannot be told apart there; the region's exact charset is in
the strip's tooltip, the status bar and the statistics dock. The families are stable
(the same encoding always gets the same colour, in both palettes):

* UTF-8, UTF-16/32, mojibake (UTF-8 encoded twice), binary;
* Western (Windows-1252, ISO-8859-1/15, Mac Roman, DOS 437/850), Central European
  (Windows-1250, ISO-8859-2), Cyrillic, Greek, East Asian (the double-byte charsets),
  and any other legacy charset.

The colours are roles of the palettes (``resources/palettes/*.json``, ``region_*``).
"""

from __future__ import annotations

from inspector.core.analysis.encodings.regions import BINARY, MOJIBAKE, UTF8
from inspector.core.units.ranges import byte_range

UTF8_ROLE = "region_utf8"
UTF16_ROLE = "region_utf16"
MOJIBAKE_ROLE = "region_mojibake"
BINARY_ROLE = "region_binary"
LEGACY_ROLE = "region_legacy"

# Families of legacy charsets, by codec name as codecs.lookup spells it.
_FAMILIES = (
    ("region_western", ("cp1252", "iso8859-1", "latin-1", "iso8859-15", "mac-roman", "cp437",
                        "cp850", "cp858", "iso8859-3", "iso8859-9", "cp1254", "iso8859-4",
                        "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-16", "cp1257",
                        "cp1258", "cp775", "cp865", "cp863", "cp860", "cp861", "mac-iceland",
                        "mac-turkish")),
    ("region_central", ("cp1250", "iso8859-2", "cp852", "mac-latin2")),
    ("region_cyrillic", ("cp1251", "koi8-r", "koi8-u", "cp866", "iso8859-5", "mac-cyrillic",
                         "cp855", "kz1048", "ptcp154")),
    ("region_greek", ("cp1253", "iso8859-7", "cp737", "cp869", "mac-greek")),
    ("region_cjk", ("shift_jis", "cp932", "euc_jp", "euc_jis_2004", "euc_jisx0213",
                    "shift_jis_2004", "shift_jisx0213", "iso2022_jp", "gbk", "gb2312",
                    "gb18030", "hz", "big5", "big5hkscs", "cp950", "euc_kr", "cp949", "johab",
                    "iso2022_kr")),
)
_ROLE_OF = {name: role for role, names in _FAMILIES for name in names}

# What the legend lists, in this order: (role, words).
LEGEND = (
    (UTF8_ROLE, "UTF-8"),
    (UTF16_ROLE, "UTF-16 / UTF-32"),
    ("region_western", "Western legacy charset (Windows-1252, ISO-8859-1...)"),
    ("region_central", "Central European charset (Windows-1250, ISO-8859-2)"),
    ("region_cyrillic", "Cyrillic charset (Windows-1251, KOI8-R, CP866...)"),
    ("region_greek", "Greek charset (Windows-1253, ISO-8859-7)"),
    ("region_cjk", "East Asian charset (Shift JIS, EUC, GBK, Big5...)"),
    (LEGACY_ROLE, "other legacy charset"),
    (MOJIBAKE_ROLE, "mojibake: UTF-8 encoded twice"),
    (BINARY_ROLE, "binary data"),
)
LEGEND_WORDS = dict(LEGEND)


def role_for_encoding(encoding: str) -> str:
    """The colour role of a region's ``encoding`` (a codec name, ``binary`` or
    ``mojibake``)."""
    if encoding == UTF8:
        return UTF8_ROLE
    if encoding == BINARY:
        return BINARY_ROLE
    if encoding == MOJIBAKE:
        return MOJIBAKE_ROLE
    if encoding.startswith(("utf-16", "utf-32", "utf_16", "utf_32")):
        return UTF16_ROLE
    return _ROLE_OF.get(encoding.lower(), LEGACY_ROLE)


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
    and length, how it was named (``via``, the language seen)."""
    head = f"{region.title()}: {byte_range(region.start, region.end)}"
    extra = []
    if region.encoding not in (UTF8, BINARY, MOJIBAKE) and region.encoding != region.title():
        extra.append(f"codec {region.encoding}")
    if region.via:
        extra.append(f"via {region.via}")
    if region.language:
        extra.append(f"language {region.language}")
    if region.bom:
        extra.append("starts with a byte order mark")
    if not region.exact:
        extra.append("boundary placed between samples")
    if region.by:
        extra.append(f"by {region.by}")
    return head + ("\n" + ", ".join(extra) if extra else "")


def map_of(result):
    """The encoding map a finished scan carries (its verdict's ``regions``), or None:
    never worked out here, so never read from the file (the scan's worker judged it)."""
    if result is None or not getattr(result, "complete", False) or getattr(result, "verdict_pending", False):
        return None
    verdict = getattr(result, "verdict", None)
    return getattr(verdict, "regions", None)
