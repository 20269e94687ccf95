"""Verdicts on typical files."""

import os

import pytest

from inspector.core.source.bytesource import MemorySource
from inspector.core.scan.scanner import scan
from inspector.core.analysis.verdict import verdict


def judge(data: bytes, dialect="utf-8"):
    src = MemorySource(data)
    return verdict(scan(src, dialect), src)


FRENCH = "Voilà déjà l’été, ça coûte très cher, façade élégante, naïveté, où êtes-vous?\n"


@pytest.mark.parametrize("data, code, words", [
    (b"", "empty", "empty"),
    (b"plain ascii\n", "valid", "valid UTF-8"),
    ("grüße, 世界\n".encode(), "valid", "valid UTF-8"),
    ("\ufeffbom text é\n".encode(), "valid_bom", "byte order mark"),
    (b"x \xc0\xaf \xc0\xaf y \xe2\x82 \xc3\xa9\xc3\xa9\xc3\xa9", "problems", "UTF-8 with 3 problems: 2 overlong, 1 truncated"),
    (b"smile \xed\xa0\xbd\xed\xb8\x80 ok\n" * 5, "dialect_cesu-8", "CESU-8"),
    (b"nul \xc0\x80 and \xed\xa0\xbd\xed\xb8\x80\n" * 5, "dialect_mutf-8", "Modified UTF-8"),
    (b"lone \xed\xa0\xbd here\n" * 5, "dialect_wtf-8", "WTF-8"),
    (b"old \xf8\x88\x80\x80\x80 form\n" * 5, "dialect_fss-utf", "FSS-UTF"),
    ("hello world\n".encode("utf-16"), "utf16", "UTF-16LE (BOM)"),
    ("hello world text\n".encode("utf-16-be") * 20, "utf16", "UTF-16BE"),
    ("hello world\n".encode("utf-32"), "utf32", "UTF-32LE (BOM)"),
    ((FRENCH * 40).encode("cp1252"), "legacy_charset", "probably Windows-1252, not UTF-8 (chardet"),
    (("café naïve résumé déjà vu\n" * 5).encode().decode("latin-1").encode(), "mojibake", "'Ã©' for 'é'"),
    (os.urandom(50000), "binary", "binary data with little text"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
def test_verdicts(data, code, words):  # noqa: D103
    v = verdict_for = judge(data)
    assert v.code == code, v
    assert words in v.text
    assert isinstance(verdict_for.details, dict)


def test_verdict_in_another_dialect_is_valid():
    v = judge(b"smile \xed\xa0\xbd\xed\xb8\x80 ok\n" * 5, "cesu-8")
    assert v.code == "valid" and v.text == "valid CESU-8"


def test_verdict_of_takes_the_workers_verdict_or_judges_now(monkeypatch):
    from inspector.core.scan import scanner
    from inspector.core.analysis import verdict as V
    from inspector.core.source.bytesource import MemorySource

    source = MemorySource(b"caf\xc3\xa9 \xc0\xaf" * 10)
    result = scanner.scan(source)
    judged = V.verdict_of(result, source)
    assert judged.code == V.verdict(result, source).code
    assert not hasattr(result, "verdict")             # not written onto the result
    assert V.verdict_of(result, source) is judged     # remembered beside it
    assert V.known_verdict(result) is judged
    other = scanner.scan(source)
    V.remember(other, V.Verdict("given", "the worker's own"))
    assert V.verdict_of(other, source).text == "the worker's own"
    assert V.known_verdict(None) is None
    assert V.Verdict("x", "y", {"errors": 1200, "by_kind": {"overlong": 3}}).details_text() == \
        "errors: 1,200\nby kind: overlong 3"
