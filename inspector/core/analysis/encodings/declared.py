"""The charset a file declares for itself, checked against its bytes (:func:`declared_reading`).

Web pages and XML files name their charset near their start: ``<meta charset="...">``,
``<meta http-equiv="Content-Type" content="text/html; charset=...">``, ``<?xml ...
encoding="..."?>``; source files a ``coding:`` line in their first two lines (Python's
``# -*- coding: latin-1 -*-``, Emacs' and Vim's ``fileencoding=``). Browsers and
chardet's own first stage take such a declaration when the bytes decode in it; so does
the verdict, after checking that the bytes agree:

* the declaration stands in the first ``DECLARATION_HEAD`` bytes, outside ``<!-- -->``
  comments, and names a charset that is not UTF-8/16/32 (a UTF-8 declaration on a file
  that is not clean UTF-8 says nothing about its other bytes);
* the charset decodes the whole range (a character cut by its end aside), or the wider
  charset browsers read that name as does (Windows-932 for Shift JIS, Windows-949 for
  EUC-KR, GB18030 for GB2312/GBK, Big5-HKSCS for Big5, Windows-874 for TIS-620);
* bytes 80-9F decide between an ISO 8859 part and the Windows code page of its script,
  as they do for chardet's answers (:func:`~.legacyguess.sharpen`): a Windows page that
  reads them as punctuation is named; with none of them, the Windows page is named when
  it reads the bytes alike (the decode-safe name; the verdict says "read the same as");
* the charset reads the bytes above ASCII as text (``PLAUSIBLE`` of them letters,
  punctuation, digits, spaces or signs) and not as letters of another script glued to
  ASCII letters (a French page declared KOI8-R).

A declaration that fails a check is not taken, and chardet is asked as for any file.
The answer's ``by`` is ``declared``.
"""

from __future__ import annotations

import re

from inspector.core.analysis.encodings import charsets as CS

DECLARATION_HEAD = 4096  # bytes looked at for a declaration (chardet's and the HTML prescan's reach)
PLAUSIBLE = 0.85         # the labeller's PLAUSIBLE: the share of the bytes that must read as text

_COMMENT = re.compile(rb"<!--.*?(?:-->|\Z)", re.DOTALL)
_XML = re.compile(rb"""<\?xml\s[^<>]*?encoding\s*=\s*['"]([^'"<>]+)['"]""", re.IGNORECASE)
_META = re.compile(rb"<meta\b([^<>]*)>", re.IGNORECASE)
_META_CHARSET = re.compile(rb"""\bcharset\s*=\s*['"]?\s*([^\s'";/>]+)""", re.IGNORECASE)
_HTTP_EQUIV = re.compile(rb"""\b(?:http-equiv|name)\s*=\s*['"]?\s*content-type""", re.IGNORECASE)
_QUOTED = re.compile(rb""""[^"]*"|'[^']*'""")  # attribute values, taken out to find attribute names
_CHARSET_ATTRIBUTE = re.compile(rb"""(?:^|\s)charset\s*=""", re.IGNORECASE)
_CODING_LINE = re.compile(rb"^[ \t\f]*[#;%/*!-].*?(?:coding[:=]|fileencoding=)[ \t]*([-\w.]+)")

# Labels that name another codec than Python's codec of the same spelling, or none that
# Python knows (the WHATWG Encoding Standard's labels).
_LABELS = {"x-sjis": "cp932", "ms_kanji": "cp932", "windows-31j": "cp932", "x-euc-jp": "euc_jp",
           "ks_c_5601-1987": "cp949", "ks_c_5601": "cp949", "x-windows-949": "cp949",
           "windows-949": "cp949", "x-gbk": "gbk", "x-mac-cyrillic": "mac-cyrillic",
           "x-mac-ukrainian": "mac-cyrillic", "x-mac-roman": "mac-roman", "macintosh": "mac-roman",
           "x-cp1250": "cp1250", "x-cp1251": "cp1251", "x-cp1252": "cp1252",
           "iso-8859-8-i": "iso8859-8", "visual": "iso8859-8", "logical": "iso8859-8",
           "windows-874": "cp874", "dos-874": "cp874", "x-user-defined": "cp1252",
           "euc-tw": "", "x-euc-tw": ""}
_UNICODE = {"utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
            "utf-32-be", "utf-7", "ascii"}
# The wider charset a browser reads a name as, tried when the named one does not decode.
_WIDER = {"shift_jis": "cp932", "euc_kr": "cp949", "gb2312": "gb18030", "gbk": "gb18030",
          "big5": "big5hkscs", "tis-620": "cp874", "iso8859-11": "cp874",
          "euc_jp": "euc_jis_2004", "iso8859-1": "cp1252"}


def declared_label(head: bytes) -> bytes | None:
    """The charset label ``head`` (the first bytes of a file) declares, or None: an XML
    declaration's, a ``<meta>`` tag's (``charset=``, or an ``http-equiv`` Content-Type's
    ``charset=``), or a ``coding:`` line's in the first two lines."""
    head = head[:DECLARATION_HEAD]
    if b"<" in head:
        if b"<!--" in head:
            head = _COMMENT.sub(b"", head)
        found = _XML.search(head)
        if found:
            return found.group(1)
        for tag in _META.finditer(head):
            body = tag.group(1)
            charset = _META_CHARSET.search(body)
            if charset and (_CHARSET_ATTRIBUTE.search(_QUOTED.sub(b"", body))
                            or _HTTP_EQUIV.search(body)):
                return charset.group(1)
    if b"coding" in head:
        for line in head.split(b"\n", 2)[:2]:
            found = _CODING_LINE.match(line)
            if found:
                return found.group(1)
    return None


def codec_of_label(label: bytes) -> str | None:
    """Python's codec for a declared label (module text), or None when Python has none."""
    try:
        key = label.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return None
    if key in _LABELS:
        return _LABELS[key] or None
    name = CS.codec_name(key)
    try:
        "".encode(name)
    except LookupError:
        return None
    return name


def declared_reading(data: bytes) -> CS.CharsetGuess | None:
    """The legacy charset ``data`` (a whole file or range, not clean UTF-8) declares,
    when its bytes agree (module text), as a guess ``by`` "declared"; else None."""
    from inspector.core.analysis.encodings.legacyguess import decodes, mixes_scripts, sharpen_declared

    label = declared_label(data)
    if label is None:
        return None
    encoding = codec_of_label(label)
    if encoding is None or encoding in _UNICODE:
        return None
    if not decodes(data, encoding):
        wider = _WIDER.get(encoding)
        if wider is None or not decodes(data, wider):
            return None
        encoding = wider
    encoding, same_as = sharpen_declared(data, encoding)
    if reads_as_text(data, encoding) < PLAUSIBLE:
        return None
    if not CS.is_multibyte(encoding) and mixes_scripts(data, encoding):
        return None  # (a multi-byte charset reading Latin text loses characters: not plausible)
    return CS.CharsetGuess(encoding, "", 0.0, 1.0, [encoding], "declared", same_as)


def reads_as_text(data: bytes, encoding: str) -> float:
    """The share of the bytes (characters, in a multi-byte charset) above ASCII that
    ``encoding`` reads as text: letters, punctuation, digits, spaces, signs."""
    if CS.is_multibyte(encoding):
        return CS.plausible_text(data, encoding)
    return CS.plausible(b"", data.translate(None, _ASCII), encoding)


_ASCII = bytes(range(0x80))
