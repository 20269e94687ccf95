"""The verdict and the encoding map on the labelled corpus of natural text
(``tests/data/charsets``: its manifest says what each file is and must get).

Every file: the verdict code the manifest names; for a file in one encoding, one region
whose encoding is the file's, or one the field counts as the same answer
(``labelled.strict_right``: Windows-1252 for ISO-8859-1, Windows-932 for Shift JIS...),
except where the bytes cannot tell (:data:`UNTELLABLE`); for a mixed file, its regions
with their boundaries. The detector benchmark (``tests/benchmarks/bench_detectors.py``)
scores the same files against chardet, charset-normalizer and cchardet.
"""

from __future__ import annotations

import pytest

from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from tests.data.charsets import labelled as L

CASES = L.cases()

# Files whose bytes read the same in their charset and in another, more usual one: the
# short cuts of the ISO-8859-15 texts hold neither its euro sign nor its œ/š, so they are
# Latin-1 to anyone (the answer names Windows-1252, which reads them alike).
UNTELLABLE = {"fr_iso885915_short.txt", "fr_iso885915_tiny.txt", "de_iso885915_short.txt",
              "de_iso885915_tiny.txt", "no_iso885915_short.txt", "no_iso885915_tiny.txt"}


def judge(data: bytes):
    src = MemorySource(data)
    return verdict(scan(src), src)


def _same_label(want: str, got: str) -> bool:
    if want in ("utf-8", "binary", "mojibake") or got in ("utf-8", "binary", "mojibake"):
        return want == got
    return L.strict_right(want, got)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_verdict_and_map(case):
    v = judge(case.data)
    assert v.code == case.code, (v.code, v.text)
    got = [(r.start, r.end, r.encoding) for r in v.regions]
    if case.name in UNTELLABLE:
        assert L.lenient_right(case.data, case.encoding, got[0][2]), got
        return
    assert len(got) == len(case.regions), (got, case.regions)
    for (a, b, enc), (wa, wb, want) in zip(got, case.regions):
        assert (a, b) == (wa, wb), (got, case.regions)
        assert _same_label(want, enc), (got, case.regions)
    if case.code == "legacy_charset":
        assert v.details["encoding"] == got[0][2]


def test_the_corpus_is_what_the_manifest_says():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    encodings = {c.encoding for c in CASES}
    for needed in ("cp1250", "iso8859-2", "cp1251", "koi8-r", "iso8859-5", "cp866", "cp855",
                   "cp1252", "iso8859-1", "iso8859-15", "cp1253", "iso8859-7", "cp737",
                   "cp1254", "iso8859-9", "cp1255", "iso8859-8", "cp862", "cp1256",
                   "iso8859-6", "cp1257", "iso8859-13", "tis-620", "cp874", "cp1258",
                   "iso8859-16", "shift_jis", "cp932", "euc_jp", "iso2022_jp", "gb2312", "gbk",
                   "gb18030", "big5", "big5hkscs", "euc_kr", "cp949", "johab", "iso2022_kr",
                   "utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        assert needed in encodings, needed
    short = [c for c in CASES if c.kind == "tiny"]
    assert short and all(30 <= len(c.data) <= 90 for c in short)
    for c in CASES:  # each file decodes to its text in its own charset
        if c.encoding not in ("mixed", "ascii") and c.code != "problems":
            c.data.decode(L.codec(c.encoding) if c.encoding != "utf-8-sig" else "utf-8-sig")


@pytest.mark.parametrize("text", ["en", "de", "ru", "ja", "fr"])
def test_random_runs_in_text_stay_utf8_with_problems(text):
    """Runs of 4 to 16 random bytes written over ASCII or UTF-8 text are damage, never
    a legacy charset or a region of one, whatever the seed. (One random byte that reads
    as a letter inside an English word cannot be told from a Latin-1 letter, so runs.)"""
    import random

    base = (L.load_text(text) * 3).encode()
    for seed in range(12):
        rng = random.Random(seed)
        data = bytearray(base)
        length = rng.choice([4, 8, 16])
        for _ in range(rng.choice([1, 2, 3])):
            at = rng.randrange(len(data) // 10, len(data) * 9 // 10)
            high = rng.random() < 0.5
            for k in range(length):
                data[at + k] = rng.randrange(0x80 if high else 0, 256)
        v = judge(bytes(data))
        assert v.code in ("problems", "valid"), (seed, v.text)
        assert [r.encoding for r in v.regions] == ["utf-8"], (seed, v.text)
