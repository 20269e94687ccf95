"""One line a person understands, plus its machine form, for a finished scan.

Codes: ``empty``, ``valid``, ``valid_bom``, ``problems``, ``dialect_cesu-8``,
``dialect_mutf-8``, ``dialect_wtf-8``, ``dialect_fss-utf``, ``utf16``, ``utf32``,
``legacy_charset``, ``mojibake``, ``binary``.

Only bounded samples are read (the first MiB and a few windows spread over the file), so
a verdict on a huge file costs about as much as on a small one. Other encodings are
guessed by ``charset-normalizer`` and double encoding is recognised by ``ftfy``: no
home-made guesser.
"""

from __future__ import annotations

from inspector.core.units import kinds as K

HEAD_SAMPLE = 1 << 20
SPREAD_WINDOW = 256 * 1024
SPREAD_COUNT = 3
RESCAN_WHOLE_LIMIT = 16 << 20
BINARY_SHARE = 0.3  # of the scanned bytes: NULs, controls text never uses, bytes in errors
CONTROL_SHARE = 0.02  # of the scanned bytes: NULs and controls text never uses


class Verdict:
    __slots__ = ("code", "text", "details")

    def __init__(self, code: str, text: str, details: dict | None = None):
        self.code = code
        self.text = text
        self.details = details or {}

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


def _sample(source, start: int, end: int) -> bytes:
    return b"".join(source.read(a, b - a) for a, b in sample_ranges(start, end))


def _nul_pattern(data: bytes) -> tuple[str, str] | None:
    """UTF-16/32 without a BOM: text in them puts NULs at fixed positions."""
    n = len(data) - len(data) % 4
    if n < 16:
        return None
    data = data[:n]
    nuls = data.count(0)
    if nuls < n * 0.2:
        return None
    by_pos = [data[k::4].count(0) for k in range(4)]
    quarter = n // 4
    if by_pos[1] > 0.9 * quarter and by_pos[2] > 0.9 * quarter and by_pos[3] > 0.9 * quarter:
        return "utf32", "UTF-32LE"
    if by_pos[0] > 0.9 * quarter and by_pos[1] > 0.9 * quarter and by_pos[2] > 0.9 * quarter:
        return "utf32", "UTF-32BE"
    even = by_pos[0] + by_pos[2]
    odd = by_pos[1] + by_pos[3]
    if odd > 0.6 * (n // 2) and even < 0.2 * odd:
        return "utf16", "UTF-16LE"
    if even > 0.6 * (n // 2) and odd < 0.2 * even:
        return "utf16", "UTF-16BE"
    return None


def _bom_encoding(head: bytes) -> tuple[str, str] | None:
    if head.startswith(b"\xff\xfe\x00\x00"):
        return "utf32", "UTF-32LE"
    if head.startswith(b"\x00\x00\xfe\xff"):
        return "utf32", "UTF-32BE"
    if head.startswith(b"\xff\xfe"):
        return "utf16", "UTF-16LE"
    if head.startswith(b"\xfe\xff"):
        return "utf16", "UTF-16BE"
    return None


def _charset_name(encoding: str) -> str:
    e = encoding.lower().replace("-", "_")
    if e.startswith("cp12") and e[2:].isdigit():
        return f"Windows-{e[2:]}"
    if e in ("latin_1", "iso8859_1", "latin1"):
        return "Latin-1 (ISO-8859-1)"
    if e.startswith("iso8859_"):
        return "ISO-8859-" + e.split("_", 1)[1]
    if e.startswith("mac_"):
        return "Mac " + e[4:].capitalize()
    return encoding.upper().replace("_", "-")


def _legacy_guess(sample: bytes) -> str | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    best = from_bytes(sample).best()
    if best is None:
        return None
    enc = best.encoding
    if enc.replace("-", "_").lower() in ("utf_8", "ascii", "utf_8_sig"):
        return None
    return enc


def _mojibake(sample: bytes) -> tuple[str, str, str] | None:
    """(seen, meant, encoding) when ftfy undoes a double encoding in the sample."""
    from inspector.core.analysis.mojibake import could_be_mojibake

    text = sample.decode("utf-8", "replace")
    if not could_be_mojibake(text):
        return None  # nothing ftfy could undo: spare its ~1 ms per 10 KB
    try:
        import ftfy
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    fixed, steps = ftfy.fix_and_explain(text)
    if fixed == text or not steps:
        return None
    encodings = [arg for op, arg in steps if op == "encode"]
    if not encodings or not any(op == "decode" and "utf-8" in arg for op, arg in steps):
        return None
    enc = encodings[0]
    for ch in fixed:
        if ord(ch) > 0x7F:
            try:
                seen = ch.encode("utf-8").decode(enc)
            except (UnicodeError, LookupError):
                continue
            if seen in text:
                return seen, ch, enc
    return None


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
    name = "UTF-8" if result.dialect == K.UTF8 else K.DIALECT_TITLES[result.dialect]
    return f"{name} with {total:,} {noun}: " + ", ".join(f"{n:,} {k.replace('_', ' ')}" for n, k in parts)


def verdict_of(result, source) -> Verdict:
    """The verdict on a finished scan: the one its own worker worked out (see
    ``judgedscan.judged_scan_steps``), else judged now and kept on the result, so
    that the next view asking does not judge again. May raise what reading ``source``
    raises."""
    if result.verdict is None:
        result.verdict = verdict(result, source)
    return result.verdict


def verdict(result, source) -> Verdict:
    """The verdict on a finished :class:`~inspector.core.scan.results.ScanResult`."""
    scanned = result.end - result.start
    counts = {"errors": result.error_units, "warnings": result.warning_units,
              "code_points": result.code_points, "binary_bytes": result.binary_bytes,
              "bytes": scanned}
    if scanned == 0:
        return Verdict("empty", "empty file" if result.size == 0 else "empty region", counts)
    head = source.read(result.start, 4)
    sample = _sample(source, result.start, result.end)
    name = "UTF-8" if result.dialect == K.UTF8 else K.DIALECT_TITLES[result.dialect]
    if result.error_units:
        bom = _bom_encoding(head)
        if bom:
            return Verdict(bom[0], f"probably {bom[1]} (BOM)", {**counts, "encoding": bom[1], "by": "bom"})
    nul = _nul_pattern(sample)
    if nul:
        return Verdict(nul[0], f"probably {nul[1]} (NUL byte pattern, no BOM)",
                       {**counts, "encoding": nul[1], "by": "nul_pattern"})
    multibyte = sum(n for length, n in result.units.items() if length > 1)
    controls = result.binary_bytes - result.error_bytes
    # Binary: much of it is NULs, controls text does not use, or bytes in errors, and
    # some of it is controls (a legacy-charset text has errors but no controls).
    binary = (result.binary_bytes > BINARY_SHARE * scanned
              and controls > CONTROL_SHARE * scanned)
    if result.error_units == 0:
        if binary:
            return Verdict("binary", "binary data with little text", counts)
        if multibyte:
            moji = _mojibake(sample)
            if moji:
                seen, meant, enc = moji
                return Verdict("mojibake", f"UTF-8 encoded twice (mojibake): {seen!r} for {meant!r} (ftfy)",
                               {**counts, "seen": seen, "meant": meant, "via": enc, "by": "ftfy"})
        if result.warnings_by_kind.get(K.BOM):
            return Verdict("valid_bom", f"valid {name} with a byte order mark", counts)
        if not multibyte and result.dialect == K.UTF8:
            return Verdict("valid", "valid UTF-8 (plain ASCII)", {**counts, "ascii": True})
        return Verdict("valid", f"valid {name}", counts)
    dialect = _dialect_explaining(result, source)
    if dialect:
        return Verdict(f"dialect_{dialect}", _DIALECT_EXPLAINS[dialect][1], {**counts, "dialect": dialect})
    if binary:
        return Verdict("binary", "binary data with little text", counts)
    # 8-bit text read as UTF-8: its accented letters are leads followed by ASCII
    # (truncated) or bytes 80-BF on their own (stray), and they outnumber valid UTF-8.
    e = result.errors_by_kind
    legacy_like = e[K.TRUNCATED] + e[K.UNEXPECTED_CONTINUATION] + e[K.INVALID_BYTE]
    if result.error_units > multibyte and legacy_like >= 0.8 * result.error_units:
        enc = _legacy_guess(sample)
        if enc:
            return Verdict("legacy_charset", f"probably {_charset_name(enc)}, not UTF-8 (charset-normalizer)",
                           {**counts, "encoding": enc, "by": "charset-normalizer"})
    return Verdict("problems", _problems_text(result),
                   {**counts, "by_kind": {k: n for k, n in result.errors_by_kind.items() if n}})
