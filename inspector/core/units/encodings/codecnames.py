"""Encodings by name: how a name the user gives is spelled inside the program, what
the window calls it, and the groups the "Interpret as" menu shows them in.

A codec is named as ``codecs.lookup(name).name`` spells it (``cp1252``, ``koi8-r``,
``shift_jis``, ``utf-16-le``), the spelling the encoding map uses too. ``utf-16`` and
``utf-32`` (no byte order in the name) read the byte order mark at the start of the
file. The UTF-8 dialects keep their own names (``kinds.DIALECTS``).
"""

from __future__ import annotations

import codecs

from inspector.core.units import kinds as K

MAP = "map"   # each region of the encoding map in its own encoding

# Codecs that turn bytes into bytes or text into text, or are not encodings of text a
# file is written in: no unit can be cut with them.
_NOT_TEXT = frozenset({"idna", "punycode", "unicode-escape", "raw-unicode-escape",
                       "palmos", "undefined", "mbcs", "oem"})

# Names the program gives the codecs people know under another name.
_TITLES = {
    "utf-16": "UTF-16 (byte order mark decides)",
    "utf-16-le": "UTF-16 LE",
    "utf-16-be": "UTF-16 BE",
    "utf-32": "UTF-32 (byte order mark decides)",
    "utf-32-le": "UTF-32 LE",
    "utf-32-be": "UTF-32 BE",
    "iso8859-1": "ISO-8859-1 (Latin-1)",
    "cp1252": "Windows-1252 (Western)",
    "cp1250": "Windows-1250 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "cp1253": "Windows-1253 (Greek)",
    "cp1254": "Windows-1254 (Turkish)",
    "cp1255": "Windows-1255 (Hebrew)",
    "cp1256": "Windows-1256 (Arabic)",
    "cp1257": "Windows-1257 (Baltic)",
    "cp1258": "Windows-1258 (Vietnamese)",
    "cp874": "Windows-874 (Thai)",
    "koi8-r": "KOI8-R", "koi8-u": "KOI8-U",
    "shift_jis": "Shift_JIS", "cp932": "CP932 (Windows Japanese)", "euc_jp": "EUC-JP",
    "iso2022_jp": "ISO-2022-JP", "gb18030": "GB18030", "gbk": "GBK", "gb2312": "GB2312",
    "big5": "Big5", "big5hkscs": "Big5-HKSCS", "euc_kr": "EUC-KR",
    "cp949": "CP949 (Unified Hangul)", "johab": "Johab", "tis-620": "TIS-620",
    "mac-roman": "Mac Roman",
    "cp437": "CP437 (DOS US)", "cp850": "CP850 (DOS Western)",
    "cp852": "CP852 (DOS Central European)", "cp855": "CP855 (DOS Cyrillic)",
    "cp857": "CP857 (DOS Turkish)", "cp860": "CP860 (DOS Portuguese)",
    "cp861": "CP861 (DOS Icelandic)", "cp862": "CP862 (DOS Hebrew)",
    "cp863": "CP863 (DOS Canadian French)", "cp865": "CP865 (DOS Nordic)",
    "cp866": "CP866 (DOS Russian)", "cp869": "CP869 (DOS Greek)",
    "cp737": "CP737 (DOS Greek)", "cp775": "CP775 (DOS Baltic)", "cp720": "CP720 (DOS Arabic)",
}

# The "Interpret as" menu: (group, codec names), as people look for them.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Unicode", ("utf-16-le", "utf-16-be", "utf-16", "utf-32-le", "utf-32-be", "utf-32")),
    ("Western", ("cp1252", "iso8859-1", "iso8859-15", "mac-roman", "cp850", "cp437")),
    ("Central European", ("cp1250", "iso8859-2", "mac-latin2", "cp852", "iso8859-16")),
    ("Cyrillic", ("cp1251", "koi8-r", "koi8-u", "iso8859-5", "cp866", "mac-cyrillic")),
    ("Greek", ("cp1253", "iso8859-7", "mac-greek", "cp737")),
    ("Hebrew", ("cp1255", "iso8859-8", "cp862")),
    ("Arabic", ("cp1256", "iso8859-6", "cp720")),
    ("Turkish", ("cp1254", "iso8859-9", "mac-turkish", "cp857")),
    ("Baltic", ("cp1257", "iso8859-13", "iso8859-4", "cp775")),
    ("Vietnamese", ("cp1258",)),
    ("Thai", ("cp874", "tis-620", "iso8859-11")),
    ("Japanese", ("shift_jis", "cp932", "euc_jp", "iso2022_jp")),
    ("Chinese", ("gb18030", "gbk", "gb2312", "big5", "big5hkscs")),
    ("Korean", ("euc_kr", "cp949", "johab")),
    ("DOS code pages", ("cp437", "cp850", "cp852", "cp855", "cp857", "cp860", "cp861",
                        "cp862", "cp863", "cp865", "cp866", "cp869")),
    ("Mac code pages", ("mac-roman", "mac-latin2", "mac-cyrillic", "mac-greek",
                        "mac-turkish", "mac-iceland")),
)


def title(name: str) -> str:
    """What the window calls the encoding ``name`` (a canonical name)."""
    if name in K.DIALECT_TITLES:
        return K.DIALECT_TITLES[name]
    if name == MAP:
        return "By the encoding map"
    if name in _TITLES:
        return _TITLES[name]
    if name.startswith("iso8859-"):
        return "ISO-8859-" + name[8:]
    if name.startswith("cp") and name[2:].isdigit():
        return name.upper()
    if name.startswith("mac-"):
        return "Mac " + name[4:].replace("-", " ").title()
    return name.replace("_", "-").upper()


def canonical(name: str) -> str:
    """The program's spelling of an encoding: a UTF-8 dialect's name, ``map``, or a
    codec's name as ``codecs.lookup`` spells it. ValueError (naming what went wrong)
    for a name no codec has, or a codec that does not decode bytes into text."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("an encoding is named by a non-empty string")
    key = name.strip()
    if key.lower() == MAP:
        return MAP
    try:
        return K.check_dialect(key)
    except ValueError:
        pass
    try:
        info = codecs.lookup(key)
    except LookupError:
        raise ValueError(f"unknown encoding {name!r}: name a UTF-8 dialect "
                         f"({', '.join(K.DIALECTS)}), 'map', or a codec Python knows "
                         f"(cp1252, koi8-r, shift_jis, utf-16-le...)") from None
    codec = info.name
    if codec in ("utf-8", "utf-8-sig"):
        return K.UTF8   # the BOM is the utf-8 dialect's `bom` warning
    if not getattr(info, "_is_text_encoding", True) or codec in _NOT_TEXT:
        raise ValueError(f"{name!r} is not an encoding of text (it is the {codec!r} "
                         f"codec); choose a character set")
    if codec in NOT_IN_BYTES:
        raise ValueError(NOT_IN_BYTES[codec])
    return codec


# Codecs whose characters are not groups of whole bytes: no unit could hold one.
NOT_IN_BYTES = {
    "utf-7": "UTF-7 is not offered: it writes characters in base64, 6 bits a byte, so a "
             "character's bits begin and end inside bytes and no group of whole bytes is "
             "one character (decode it with Python: data.decode('utf-7'))"}
