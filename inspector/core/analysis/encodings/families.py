"""Families of encodings, for colour: the window's band and the HTML report's give one
colour per family, not per charset (ten shades of orange cannot be told apart in a band
a few pixels wide; a region's exact charset is in its tooltip and its table row). The
families are stable, the same encoding always in the same family:

* UTF-8, UTF-16/32, mojibake (UTF-8 encoded twice), binary;
* Western (Windows-1252, ISO-8859-1/15, Mac Roman, DOS 437/850), Central European
  (Windows-1250, ISO-8859-2), Cyrillic, Greek, East Asian (the double-byte charsets),
  and any other legacy charset.

A family is named by its colour role, the key of its colour in the palettes
(``resources/palettes/*.json``, ``region_*``). Qt-free: the window
(:mod:`inspector.gui.look.regionlook`) and the HTML report both read it here.
"""

from __future__ import annotations

from inspector.core.analysis.encodings.regions import BINARY, MOJIBAKE, UTF8

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

# What a legend lists, in this order: (role, words).
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
