"""A multi-byte legacy file that lost a byte is still that charset, not "UTF-8 with
problems": the line the lost byte shifts decodes nowhere and throws the detector off the
whole file (``onereading.guess_despite_damage``)."""

from __future__ import annotations

import pytest

from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from tests.data.charsets import labelled as L

CJK = [("ja", "shift_jis"), ("ja", "euc_jp"), ("zh_cn", "gbk"),
       ("zh_tw", "big5"), ("ko", "euc_kr")]


def _judge(data: bytes):
    src = MemorySource(data)
    return verdict(scan(src), src)


def _lose_a_byte(data: bytes, line: int) -> bytes:
    """``data`` without the first byte above 0x7F of its ``line``-th line that has one."""
    seen = 0
    start = 0
    for piece in data.split(b"\n"):
        high = next((i for i, b in enumerate(piece) if b > 0x7F), None)
        if high is not None:
            if seen == line:
                at = start + high
                return data[:at] + data[at + 1:]
            seen += 1
        start += len(piece) + 1
    raise AssertionError("no such line")


@pytest.mark.parametrize("name, encoding", CJK)
@pytest.mark.parametrize("line", [0, 2])
def test_a_lost_byte_leaves_the_charset(name, encoding, line):
    data = L.encode(L.load_text(name), encoding)
    damaged = _lose_a_byte(data, line)
    v = _judge(damaged)
    assert v.code == "legacy_charset", v.text
    assert L.strict_right(encoding, v.details["encoding"]), v.text


def test_the_bundled_big5_sample_is_big5():
    from inspector import resources_access

    v = _judge(resources_access.read_bytes("samples/big5.txt"))
    assert v.code == "legacy_charset", v.text
    assert L.strict_right("big5", v.details["encoding"])
