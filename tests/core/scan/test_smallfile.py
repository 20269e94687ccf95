"""A whole small file scanned from one read (:func:`inspector.core.scan.cleantext.small_scan`): the
same result as the scanner's for any bytes, every path taken (clean text, valid UTF-8
with warnings, errors counted at byte level), the file read once, and the report made
from it equal to the scanner's."""

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis import batch as BA
from inspector.core.analysis.report import build_report
from inspector.core.scan import cleantext as SF
from inspector.core.scan.results import ScanResult
from inspector.core.scan.scanner import scan
from inspector.core.scan.utf8path import bytelevel_whole
from inspector.core.source import bytesource as BS
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.units import kinds as K

FIELDS = ("units", "errors_by_kind", "warnings_by_kind", "replacements", "error_bytes",
          "binary_bytes", "first_errors", "sha256", "complete", "valid", "size", "start",
          "end", "origin", "short_read", "block_size", "max_errors", "dialect", "scanned")

PARTS = st.sampled_from([b"a", b" ", b"\n", b"\r\n", b"\t", b"\x00", b"\x07", b"\x1b", b"\x7f",
                         "é".encode(), "Ж".encode(), "日".encode(), "😀".encode(),
                         "\u200b".encode(), "\ufeff".encode(), "\ufffd".encode(),
                         "\ufdd0".encode(), "\u0085".encode(), "\U000e0001".encode(),
                         b"\xc0", b"\xc1\xbf", b"\xff", b"\xfe", b"\x80", b"\xbf\xbf",
                         b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5\x80",
                         b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xe0\x80\xaf",
                         b"\xf0\x9f\x98", b"\xf0\x80\x80\x80", b"\xc2", b"\xa4\xa4\xa4"])


def check(data: bytes, max_errors: int = 100):
    small = SF.small_scan(MemorySource(data), max_errors)
    full = scan(MemorySource(data), workers=1, max_errors=max_errors)
    if not data or len(data) > SF.SMALL_LIMIT:
        return small
    assert small is not None
    for name in FIELDS:
        assert getattr(small, name) == getattr(full, name), name
    return small


@settings(max_examples=400, deadline=None)
@given(st.lists(PARTS, max_size=200), st.integers(0, 120))
def test_small_scan_equals_the_scanner(parts, max_errors):
    check(b"".join(parts), max_errors)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_small_scan_on_arbitrary_bytes(data):
    check(data)


def legacy_page(n: int, seed: int = 7) -> bytes:
    """Text in a legacy charset (errors everywhere in UTF-8), lines of mixed length."""
    rng = random.Random(seed)
    words = ["Ďakujem".encode("cp1250"), "日本語".encode("shift_jis"), "Привет".encode("koi8_r"),
             "שלום".encode("cp1255"), b"plain", "ไทย".encode("tis-620"), b"\xe2\x82", b"\xc3\xa9"]
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words) + rng.choice([b" ", b"\n", b", ", b"\r\n"])
    return bytes(out[:n])


def test_every_path_and_size():
    for n in (1, 7, 100, 4096, 70_000, SF.SMALL_LIMIT):
        assert check(legacy_page(n), 100) is not None
        assert check(legacy_page(n), 3) is not None
        assert check(("é\u200b日\n" * n).encode()[:n], 100) is not None
    rng = random.Random(5)
    for n in (70_000, 200_000, SF.SMALL_LIMIT):  # binary data: pieces of the kernel's size
        data = bytes(rng.randrange(256) for _ in range(n))
        assert check(data, 100) is not None
        check_bytelevel(data, 5000)
    assert check(legacy_page(SF.SMALL_LIMIT + 1)) is None  # larger: the scanner's


def test_a_small_file_is_read_once(tmp_path, monkeypatch):
    path = tmp_path / "page.html"
    path.write_bytes(legacy_page(20_000))
    reads = []
    real = BS._pread
    monkeypatch.setattr(BS, "_pread", lambda fd, n, off: reads.append((n, off)) or real(fd, n, off))
    report = BA.report_path(str(path), BA.Options())
    assert report["errors"]["total"] > 100
    assert [r for r in reads if r[0] > 1] == [(20_000, 0)]  # (the 1-byte probe when opened)


def test_report_from_one_read_equals_the_scanner_s(tmp_path):
    for k, data in enumerate([legacy_page(3000), legacy_page(90_000, 2), b"\x00\x01\xff" * 500,
                              "\ufeffBOM and \u200b\n".encode() * 30]):
        path = tmp_path / f"f{k}"
        path.write_bytes(data)
        with FileSource(str(path)) as source:
            full = scan(source, workers=1, lazy_index=False)
            expected = build_report(full, source, str(path), None)
        with FileSource(str(path)) as source:
            small = SF.small_scan(source)
            got = build_report(small, source, str(path), None)
        for report in (expected, got):
            report["generated"] = report["scan"]["seconds"] = None
        assert got == expected
    assert os.path.exists(path)


def test_mostly_ascii_pages_counted_from_their_other_bytes():
    """bytelevel_whole gives the kernel only the bytes >= 80 (and the byte after each run)
    when they are few: the edges of that gathering (a byte order mark, a unit cut by the
    end, runs that touch, controls, warnings of valid units) count as the scanner's."""
    page = b"<html><head><title>x</title></head>\n<body>" + b"plain text, " * 40
    cases = [b"\xef\xbb\xbf" + page + b"caf\xe9 \xe2\x80\x8b ok\xf0\x9f\x98",
             page + b"\xc3\xa9\xc3" + b"a" * 30 + b"\xa4\xa4\xa4\xa4\xa4\xa4\xe2\x82",
             b"\xe9" + page + b"\x00\x01\x1b\x7f" + b"\xc2\x85" + page + b"\xed\xa0\x80",
             b"\xc2\xa0" * 3 + page * 2 + "\ufdd0\u202e".encode() + b"\xff"]
    for data in cases:
        for max_errors in (0, 1, 2, 100):
            assert check(data, max_errors) is not None
            check_bytelevel(data, max_errors)


def check_bytelevel(data: bytes, max_errors: int = 100) -> None:
    """utf8path.bytelevel_whole alone (whatever small_scan would choose) against the
    scanner."""
    result = ScanResult(len(data), K.UTF8, 0, len(data), None, max_errors, None)
    bytelevel_whole(result, data)
    full = scan(MemorySource(data), workers=1, max_errors=max_errors)
    for name in FIELDS[:7]:
        assert getattr(result, name) == getattr(full, name), name


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(PARTS, st.sampled_from([b"plain ascii text ", b"<p>", b"\r\n"])),
                min_size=1, max_size=200), st.integers(0, 120))
def test_bytelevel_whole_equals_the_scanner(parts, max_errors):
    check_bytelevel(b"".join(parts), max_errors)
