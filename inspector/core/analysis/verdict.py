"""One line a person understands, plus its machine form, for a finished scan.

Codes: ``empty``, ``valid``, ``valid_bom``, ``problems``, ``truncated_end``,
``dialect_cesu-8``, ``dialect_mutf-8``, ``dialect_wtf-8``, ``dialect_fss-utf``,
``utf16``, ``utf32``, ``legacy_charset``, ``mojibake``, ``binary``, ``mixed``.

The verdict reads the encoding map (:mod:`inspector.core.analysis.encodings.regions`), which
judges a file of up to 2 MiB whole first (one legacy charset throughout, the one it
declares when its bytes agree, :mod:`~inspector.core.analysis.encodings.declared`, else
named by chardet: :mod:`~inspector.core.analysis.encodings.onereading`), else weighs the shape of the errors
(what only a UTF-8 encoder writes against isolated high bytes between letters), asks
chardet (:mod:`~inspector.core.analysis.encodings.legacyguess`) only about the stretches
that are not UTF-8 and only on enough evidence, and asks ftfy about double encoding. Then:

* ``mixed``: the map has more than one encoding (binary counts, and so does mojibake),
  unless binary covers most of the range and the rest is plain ASCII (``binary``), or
  mojibake covers at least half of it and the rest is plain ASCII lines (``mojibake``);
* one region in UTF-16/32, a legacy charset, mojibake, binary: ``utf16``/``utf32``,
  ``legacy_charset``, ``mojibake``, ``binary``;
* UTF-8: ``valid``/``valid_bom`` without errors; ``truncated_end`` when the only error
  is a last character cut by the end of the data (the text says how many bytes are
  missing); a ``dialect_*`` that explains every error; else ``problems``.

Only bounded samples are read (see the map), so a verdict on a huge file costs about as
much as on a small one. The map is kept on the verdict (``Verdict.regions``).
"""

from __future__ import annotations

import weakref

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.cleanmap import clean_utf8_map
from inspector.core.analysis.encodings.regions import BINARY, MOJIBAKE, UTF8, EncodingMap
from inspector.core.units import kinds as K

HEAD_SAMPLE = 1 << 20
SPREAD_WINDOW = 256 * 1024
SPREAD_COUNT = 3
RESCAN_WHOLE_LIMIT = 16 << 20
BINARY_SHARE = 0.3  # of the scanned bytes: NULs, controls text never uses, bytes in errors
CONTROL_SHARE = 0.02  # of the scanned bytes: NULs and controls text never uses
MOSTLY_BINARY = 0.5  # of the range in binary regions, the rest ASCII: a binary file
MOJIBAKE_SAMPLE = 64 << 10  # bytes ftfy reads to show one double-encoded sequence


class Verdict:
    """``code`` and ``text`` (see the module text), ``details`` (counts and what decided),
    ``regions``: the :class:`~inspector.core.analysis.encodings.regions.EncodingMap` it was judged
    on (None when made by hand)."""

    __slots__ = ("code", "text", "details", "regions")

    def __init__(self, code: str, text: str, details: dict | None = None,
                 regions: EncodingMap | None = None):
        self.code = code
        self.text = text
        self.details = details or {}
        self.regions = regions

    def to_dict(self) -> dict:
        return {"code": self.code, "text": self.text, "details": self.details}

    def details_text(self) -> str:
        """The details as "name: value" lines (a tooltip's text)."""
        def spell(value) -> str:
            if isinstance(value, dict):
                return ", ".join(f"{k} {spell(v)}" for k, v in value.items())
            if isinstance(value, int) and not isinstance(value, bool):
                return f"{value:,}"
            return str(value)
        return "\n".join(f"{k.replace('_', ' ')}: {spell(v)}" for k, v in self.details.items())

    def __repr__(self):
        return f"Verdict({self.code!r}, {self.text!r})"


def sample_ranges(start: int, end: int) -> list[tuple[int, int]]:
    """The head of the region and a few windows spread over the rest."""
    out = [(start, min(end, start + HEAD_SAMPLE))]
    rest = end - out[0][1]
    if rest > SPREAD_WINDOW * SPREAD_COUNT * 2:
        for k in range(1, SPREAD_COUNT + 1):
            a = out[0][1] + rest * k // (SPREAD_COUNT + 1)
            out.append((a, a + SPREAD_WINDOW))
    elif rest > 0:
        out.append((out[0][1], end))
    return out


_DIALECT_EXPLAINS = {
    K.CESU8: ({K.SURROGATE}, "valid CESU-8: every error is an encoded surrogate pair"),
    K.MUTF8: ({K.SURROGATE, K.OVERLONG}, "valid Modified UTF-8 (Java): surrogate pairs and C0 80 for NUL"),
    K.WTF8: ({K.SURROGATE}, "valid WTF-8: every error is a lone surrogate"),
    K.FSS_UTF: ({K.SURROGATE, K.OUT_OF_RANGE, K.LEGACY_LONG_FORM},
                "valid FSS-UTF (the 1993 form): every error is a 5/6-byte form or a value past U+10FFFF"),
}


def _dialect_explaining(result, source) -> str | None:
    present = {k for k, n in result.errors_by_kind.items() if n}
    from inspector.core.scan.scanner import scan

    for dialect, (allowed, _) in _DIALECT_EXPLAINS.items():
        if dialect == result.dialect or not present or not present <= allowed:
            continue
        if result.end - result.start <= RESCAN_WHOLE_LIMIT:
            ranges = [(result.start, result.end)]
        else:
            ranges = sample_ranges(result.start, result.end)
        ok = True
        for a, b in ranges:
            r = scan(source, dialect, start=a, end=b, sha256=False, max_errors=0)
            # A window cut out of the middle may begin or end inside a unit.
            edge = {K.UNEXPECTED_CONTINUATION, K.TRUNCATED} if (a, b) != (result.start, result.end) else set()
            if any(n and k not in edge for k, n in r.errors_by_kind.items()):
                ok = False
                break
            if not edge and r.error_units:
                ok = False
                break
        if ok:
            return dialect
    return None


def _problems_text(result) -> str:
    parts = sorted(((n, k) for k, n in result.errors_by_kind.items() if n), key=lambda t: (-t[0], t[1]))
    total = result.error_units
    noun = "problem" if total == 1 else "problems"
    name = "UTF-8" if result.dialect == K.UTF8 else K.DIALECT_TITLES.get(result.dialect,
                                                                          result.dialect)
    return f"{name} with {total:,} {noun}: " + ", ".join(f"{n:,} {k.replace('_', ' ')}" for n, k in parts)


# The verdict on each finished result, by result: judged by the scan's own worker
# (``judgedscan``, handed over with the result and remembered here by whoever shows it)
# or, failing that, by the first view that asked. Kept here, never written onto the
# result, which is the scan layer's and was made by another thread.
_known: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def remember(result, judged: Verdict | None) -> None:
    """Keep ``judged`` as the verdict on ``result`` (None: nothing to keep)."""
    if judged is not None:
        _known[result] = judged


def known_verdict(result) -> Verdict | None:
    """The verdict on ``result`` if someone has worked it out (its worker, or an earlier
    :func:`verdict_of`), else None; never judges."""
    return None if result is None else _known.get(result)


def verdict_of(result, source) -> Verdict:
    """The verdict on a finished scan: the one remembered for it (see
    :func:`remember`), else judged now and remembered, so that the next view asking
    does not judge again. May raise what reading ``source`` raises."""
    known = known_verdict(result)
    if known is None:
        known = _known[result] = verdict(result, source)
    return known


def _share(n: int, total: int) -> str:
    pct = 100 * n / total if total else 0
    return "<1%" if 0 < pct < 1 else f"{pct:.0f}%"


def _mixed_text(emap: EncodingMap, scanned: int) -> str:
    parts = {}
    for r in emap:
        title = r.title()
        if r.encoding == UTF8:
            title = "UTF-8"
        parts[title] = parts.get(title, 0) + r.length
    ordered = sorted(parts.items(), key=lambda kv: -kv[1])
    return (f"mixed encodings in {len(emap)} regions: "
            + ", ".join(f"{title} {_share(n, scanned)}" for title, n in ordered))


def truncated_tail(tail: bytes) -> tuple[int, int] | None:
    """(bytes present, bytes missing) when ``tail`` (the last bytes of the data, 4 are
    enough) ends inside a well-formed UTF-8 sequence, else None."""
    for k in range(1, min(4, len(tail)) + 1):
        b = tail[-k]
        if 0x80 <= b <= 0xBF:
            continue
        need = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if not need or k >= need:
            return None
        if k >= 2:
            second = tail[-k + 1]
            lo, hi = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF),
                      0xF4: (0x80, 0x8F)}.get(b, (0x80, 0xBF))
            if not lo <= second <= hi:
                return None
        return k, need - k
    return None


def verdict(result, source) -> Verdict:
    """The verdict on a finished :class:`~inspector.core.scan.scanner.ScanResult`."""
    with CS.reading_once():  # each sample read in each charset once
        return _verdict(result, source)


def _verdict(result, source) -> Verdict:
    scanned = result.end - result.start
    counts = {"errors": result.error_units, "warnings": result.warning_units,
              "code_points": result.code_points, "binary_bytes": result.binary_bytes,
              "bytes": scanned}
    if scanned == 0:
        return Verdict("empty", "empty file" if result.size == 0 else "empty region", counts,
                       EncodingMap(result.start, result.end, []))
    emap = clean_utf8_map(source, result)
    if emap is None:  # not clean UTF-8: the map builder (numpy) cuts it into cells
        from inspector.core.analysis.encodings.mapbuilder import encoding_map

        emap = encoding_map(source, result, clean_shortcut=False)
    evidence = {"utf8_shaped": emap.shaped, "legacy_shaped": emap.legacy}

    def judged(code, text, details=None):
        return Verdict(code, text, {**counts, **(details or {})}, emap)

    name = "UTF-8" if result.dialect == K.UTF8 else K.DIALECT_TITLES.get(result.dialect,
                                                                          result.dialect)
    by_encoding = emap.bytes_by_encoding()
    only = emap.regions[0] if len(emap) == 1 else None
    if only is not None and only.encoding.startswith(("utf-16", "utf-32")):
        how = ("BOM" if only.bom else "NUL byte pattern, no BOM" if only.by == "nul_pattern"
               else "CJK characters in pairs of bytes, no BOM")
        title = CS.charset_title(only.encoding)
        return judged("utf16" if "16" in only.encoding else "utf32", f"probably {title} ({how})",
                      {"encoding": title, "by": only.by})
    binary_share = by_encoding.get(BINARY, 0)
    text_regions = [r for r in emap if r.encoding != BINARY]
    if binary_share and (not text_regions or (binary_share > MOSTLY_BINARY * scanned
                                              and all(r.ascii for r in text_regions))):
        return judged("binary", "binary data with little text")
    moji = [r for r in emap if r.encoding == MOJIBAKE]
    if (emap.mixed and len({r.via for r in moji}) == 1 and 2 * sum(r.length for r in moji) >= scanned
            and all(r.encoding == MOJIBAKE or (r.encoding == UTF8 and r.ascii) for r in emap)):
        only = max(moji, key=lambda r: r.length)  # double encoded but for ASCII lines: mojibake
    elif emap.mixed:
        return judged("mixed", _mixed_text(emap, scanned),
                      {"encodings": by_encoding, "regions": len(emap), **evidence})
    if only is not None and only.encoding == MOJIBAKE:
        sample = source.read(only.start, min(only.length, MOJIBAKE_SAMPLE))
        moji = CS.mojibake_in(sample.decode("utf-8", "replace"))
        seen, meant = (moji.seen, moji.meant) if moji else ("", "")
        via = only.via or (moji.via if moji else "")
        shown = f": {seen!r} for {meant!r}" if seen else ""
        return judged("mojibake", f"UTF-8 encoded twice (mojibake){shown} (ftfy)",
                      {"seen": seen, "meant": meant, "via": via, "by": "ftfy"})
    if only is not None and only.is_legacy:
        by = only.by or "chardet"
        language = f"; {only.language}" if only.language else ""
        same = CS.iso_reading_alike(source.read(only.start, min(only.length, HEAD_SAMPLE)),
                                    only.encoding)
        alike = f", read the same as {CS.charset_title(same)}" if same else ""
        return judged("legacy_charset",
                      f"probably {CS.charset_title(only.encoding)}{alike}, not UTF-8 "
                      f"({by}{language})",
                      {"encoding": only.encoding, "by": by,
                       **({"language": only.language} if only.language else {}), **evidence})
    multibyte = sum(n for length, n in result.units.items() if length > 1)
    controls = result.binary_bytes - result.error_bytes
    # Binary: much of it is NULs, controls text does not use, or bytes in errors, and
    # some of it is controls (a legacy-charset text has errors but no controls).
    binary = (result.binary_bytes > BINARY_SHARE * scanned
              and controls > CONTROL_SHARE * scanned)
    if result.error_units == 0:
        if binary:
            return judged("binary", "binary data with little text")
        if result.warnings_by_kind.get(K.BOM):
            return judged("valid_bom", f"valid {name} with a byte order mark")
        if not multibyte and result.dialect == K.UTF8:
            return judged("valid", "valid UTF-8 (plain ASCII)", {"ascii": True})
        return judged("valid", f"valid {name}")
    if result.error_units == result.errors_by_kind[K.TRUNCATED] == 1:
        cut = truncated_tail(source.read(max(result.start, result.end - 4),
                                         min(4, result.end - result.start)))
        if cut is not None:
            have, missing = cut
            noun = "byte" if missing == 1 else "bytes"
            return judged("truncated_end",
                          f"valid {name} cut short: the last character is incomplete, "
                          f"{missing} {noun} missing ({have} of {have + missing})",
                          {"missing_bytes": missing, "present_bytes": have})
    dialect = _dialect_explaining(result, source)
    if dialect:
        return judged(f"dialect_{dialect}", _DIALECT_EXPLAINS[dialect][1], {"dialect": dialect})
    if binary:
        return judged("binary", "binary data with little text")
    return judged("problems", _problems_text(result),
                  {"by_kind": {k: n for k, n in result.errors_by_kind.items() if n}, **evidence})
