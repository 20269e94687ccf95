"""A text in one legacy charset is one region, though a DOS editor ended it with Ctrl-Z
(once "binary data with little text") and though lines of its box drawing are
well-formed UTF-8 by chance (a Johab document was "UTF-8 74 %, Johab 26 %"); a real UTF-8
paragraph amid a multi-byte charset stays a region of its own."""

import pytest

from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource

KOREAN = "한국어 문서입니다. 이 프로그램은 파일을 관리합니다.\n"
# Johab box drawing (DB A1...) is well-formed UTF-8: Arabic marks and digits.
BOX = ("  ┌─────────────────────────────┐\n  │ 메뉴                        │\n"
       "  ├─────────────────────────────┤\n  └─────────────────────────────┘\n")
RUSSIAN = "Это документ на русском языке. Программа работает хорошо.\n"
GREEK = "Αυτό είναι ένα ελληνικό κείμενο για δοκιμή.\n"
CHINESE = "这是一个中文文件，用于测试编码检测。我们希望它能正确工作。\n"


def judge(data: bytes):
    src = MemorySource(data)
    return verdict(scan(src), src)


@pytest.mark.parametrize("text, codec", [
    (RUSSIAN * 6, "cp866"), (GREEK * 4, "cp737"), (KOREAN * 8, "johab"),
    ((RUSSIAN * 6).rstrip("\n"), "cp866"),
])
def test_a_dos_text_ending_in_ctrl_z_is_one_legacy_region(text, codec):
    data = text.encode(codec) + b"\x1a"
    v = judge(data)
    assert v.code == "legacy_charset", v
    assert v.details["encoding"] == codec
    assert [(r.start, r.end, r.encoding) for r in v.regions] == [(0, len(data), codec)]


@pytest.mark.parametrize("tail", [b"", b"\x1a"])
def test_box_drawing_that_is_utf8_by_chance_stays_in_the_legacy_charset(tail):
    data = (KOREAN * 3 + BOX * 3 + KOREAN * 3 + BOX * 2 + KOREAN * 2).encode("johab") + tail
    assert b"\xdb\xa1\xdb\xa1".decode("utf-8")  # (the chance sequences)
    v = judge(data)
    assert v.code == "legacy_charset", v
    assert [(r.start, r.end, r.encoding) for r in v.regions] == [(0, len(data), "johab")]


def test_a_utf8_paragraph_amid_gb18030_is_still_a_region():
    # GB18030 reads this Russian UTF-8 without an error, and as letters; it reads as
    # Russian words in UTF-8, so it is text there.
    head, middle = (CHINESE * 5).encode("gb18030"), (RUSSIAN * 6).encode("utf-8")
    data = head + middle + head
    v = judge(data)
    assert v.code == "mixed", v
    assert [(r.start, r.end, r.encoding) for r in v.regions] == [
        (0, len(head), "gb18030"), (len(head), len(head) + len(middle), "utf-8"),
        (len(head) + len(middle), len(data), "gb18030")]
