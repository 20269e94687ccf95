"""Clean UTF-8 text counted without numpy (:mod:`inspector.core.scan.cleantext`): the
same result as the scanner's whenever it answers, an answer for ordinary text, and every
character that carries a warning sends the file to the scanner."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis import batch as BA
from inspector.core.scan import cleantext as CT
from inspector.core.scan import tables as TB
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import FileSource, MemorySource

ROOT = Path(__file__).resolve().parents[3]
FIELDS = ("units", "errors_by_kind", "warnings_by_kind", "replacements", "error_bytes",
          "binary_bytes", "first_errors", "sha256", "complete", "valid", "size", "start",
          "end", "origin", "short_read", "block_size", "max_errors", "dialect")

CHARS = st.sampled_from(["a", " ", "\n", "\t", "\r", "\x00", "\x07", "\x0c", "\x7f", "\x85",
                         "é", "Ж", "\u00a0", "\u00ad", "\u200b", "\u202e", "\u2066", "\u061c",
                         "\ufeff", "\ufffd", "\ufdd0", "\uffff", "\ue000", "\u0378", "日", "😀",
                         "\U000e0001", "\U0010fffe", "\U000f0000", "\U0003ffff", "\u2028"])


def check(data: bytes, max_errors: int = 100):
    clean = CT.clean_scan(MemorySource(data), max_errors)
    full = scan(MemorySource(data), workers=1, max_errors=max_errors)
    if clean is None:
        assert not data or not full.valid or full.warning_units or not CT.PRINTABLE_IS_TRUSTED \
            or not data.decode().replace("\t", "").replace("\n", "").replace("\r", "").isprintable()
        return None
    for name in FIELDS:
        assert getattr(clean, name) == getattr(full, name), name
    assert np.array_equal(clean.index.units, full.index.units)
    return clean


@settings(max_examples=400, deadline=None)
@given(st.lists(CHARS, max_size=60).map("".join))
def test_clean_scan_equals_the_scanner(text):
    check(text.encode())


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=80))
def test_clean_scan_on_arbitrary_bytes(data):
    check(data)


# Every kind of error unit, and bytes that end a unit early or join the next.
ERRORS = [b"\xc0", b"\xc1\xbf", b"\xff", b"\xfe", b"\x80", b"\xbf\xbf", b"\xe2\x82",
          b"\xe2", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80",
          b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xe0\x80\xaf",
          b"\xf0\x9f\x98", b"\xf0\x80\x80\x80", b"\xc2"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(CHARS.map(str.encode), st.sampled_from(ERRORS)), max_size=60),
       st.integers(0, 5))
def test_text_with_a_few_errors_equals_the_scanner(parts, max_errors):
    check(b"".join(parts), max_errors)


def test_text_with_a_few_errors_is_counted_here():
    line = "Grüße, café, Съешь же ещё этих булок, 日本語 😀\n"
    text = line.encode() * 40
    # Between characters (an error inside one can make an unassigned character, a warning).
    spots = [0, len(line[:5].encode()), len(line.encode()) * 17 + 9, len(text)]
    for error in ERRORS:
        for at in spots:
            assert check(text[:at] + error + text[at:]) is not None, (error, at)
    many = b"".join(text[:40] + b"\xff" for _ in range(CT.SPARSE_LIMIT + 1))
    assert CT.clean_scan(MemorySource(many)) is None  # too many errors: the scanner's


def test_ordinary_text_is_clean():
    for text in ["hello world\n", "Grüße, café, naïve\r\n", "Съешь же ещё этих булок\n",
                 "日本語のテキスト\t😀🎉\n" * 500]:
        assert check(text.encode()) is not None, text


def test_every_warning_character_is_not_printable():
    """The premise of the shortcut, checked over the whole code space against the
    scanner's warning table (U+FFFD is looked for on its own)."""
    if not CT.PRINTABLE_IS_TRUSTED:
        return
    flagged = np.flatnonzero(TB.tables().bits != 0)
    printable = [cp for cp in flagged.tolist()
                 if cp != 0xFFFD and not 0xD800 <= cp < 0xE000 and chr(cp).isprintable()]
    assert printable == []


def strip(report):
    report = dict(report, generated=None)
    report["scan"] = dict(report["scan"], seconds=None)
    return report


def test_report_of_a_clean_file_equals_the_full_report(tmp_path):
    texts = ["plain ascii\n", "café au lait\n" * 50, "Привет, Рад, СССР\n" * 40,
             "emoji 😀 and 日本\n" * 100, "x" * 3000 + "é" * 800,
             "caf\udce9 au lait\n" * 20, "text cut short 😀"[:-1] + "\udcf0\udc9f",
             "ok\udcc0\udcaf and \udced\udca0\udc80 surrogate\n" * 3]
    for options in (BA.Options(), BA.Options(explain=True, max_errors=2)):
        for k, text in enumerate(texts):
            path = tmp_path / f"f{k}.txt"
            path.write_bytes(text.encode("utf-8", "surrogateescape"))
            with FileSource(str(path)) as source:
                assert CT.clean_scan(source) is not None
                full = BA.report_source(source, str(path), options)
            assert strip(BA.report_path(str(path), options)) == strip(full)


def test_scan_of_a_clean_file_imports_no_numpy(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("one line of text, café\n", encoding="utf-8")
    code = ("import sys\nfrom inspector.cli import main\n"
            f"status = main(['scan', '--json', {str(path)!r}])\n"
            "print('numpy' in sys.modules, status, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stderr.strip().splitlines()[-1] == "False 0", proc.stderr
    assert '"verdict_code": "valid"' in proc.stdout
