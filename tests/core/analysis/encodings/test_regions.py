"""The encoding map and the verdict on the labelled corpus; the map's partition property
on arbitrary bytes; a 1 GiB file mapped from bounded samples and the block index."""

import codecs
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings import mapbuilder as MB
from inspector.core.analysis.encodings.mapbuilder import encoding_map
from inspector.core.analysis.encodings.regions import EncodingMap, Region
from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import ByteSource, FileSource, MemorySource
from tests.core.analysis import corpus as C


def judged(data: bytes, **scan_options):
    src = MemorySource(data)
    return verdict(scan(src, **scan_options), src)


def spans(v):
    return [(r.start, r.end, r.encoding) + ((r.via,) if r.via else ()) for r in v.regions]


@pytest.mark.parametrize("case", C.CASES, ids=lambda c: c.name)
def test_labelled_corpus(case):
    v = judged(case.data)
    assert (v.code, spans(v)) == (case.code, case.regions), v.text


KUHN = Path(__file__).resolve().parents[4].parent / "shared" / "reference" / "UTF-8-test.txt"


@pytest.mark.skipif(not KUHN.exists(), reason="shared/reference/UTF-8-test.txt is not beside the work tree")
def test_kuhn_stress_test_is_utf8_with_problems():
    """Markus Kuhn's decoder test is UTF-8 with deliberate errors (it was "probably
    ISO-8859-2"): its overlongs, surrogates and 5/6-byte forms outweigh the two runs of
    lead bytes in a row."""
    with FileSource(KUHN) as src:
        v = verdict(scan(src), src)
        assert v.code == "problems" and v.text.startswith("UTF-8 with 225 problems")
        assert spans(v) == [(0, src.size, "utf-8")]
    assert v.details["utf8_shaped"] > 10 * max(1, v.details["legacy_shaped"])


def test_truncated_end_says_how_many_bytes_are_missing():
    v = judged("ok 😀".encode()[:-1])
    assert v.code == "truncated_end" and "1 byte missing" in v.text
    assert v.details["missing_bytes"] == 1
    v = judged("Cyrillic Ж and a euro €".encode()[:-2])
    assert v.code == "truncated_end" and "2 bytes missing" in v.text
    # Another error besides: problems.
    assert judged(b"ok \xc0\xaf and \xe2\x82").code == "problems"


def test_word_boundaries_inside_a_line():
    """A legacy stretch that starts and ends inside lines of UTF-8 text is cut at the
    spaces around its first and last words."""
    host = C.DE.encode()
    head = "Grüße aus München, schöne Tage. Then the old system wrote: ".encode()
    legacy = ("Café crème, déjà vu, où êtes-vous? " + C.FR_TYPO
              + "Ça coûte très cher, vraiment très").encode("cp1252")
    tail = " — und dann wieder UTF-8: Grüße!\n".encode()
    data = host + head + legacy + tail + host
    a = len(host) + len(head)
    b = a + len(legacy)
    v = judged(data)
    assert v.code == "mixed"
    assert spans(v) == [(0, a, "utf-8"), (a, b, "cp1252"), (b, len(data), "utf-8")]


def test_line_boundaries_and_ascii_to_the_utf8_side():
    """ASCII lines between UTF-8 and a legacy paragraph go to the UTF-8 side; the
    legacy region starts at the start of the line of its first accented byte."""
    ascii_lines = b"plain line one\nplain line two\n"
    legacy = ("Le café était très bon, déjà froid à midi.\n" * 8).encode("latin-1")
    data = "Grüße\n".encode() + ascii_lines + legacy + ascii_lines + "Grüße\n".encode()
    a = len("Grüße\n".encode()) + len(ascii_lines)
    b = a + len(legacy)
    assert spans(judged(data)) == [(0, a, "utf-8"), (a, b, "cp1252"), (b, len(data), "utf-8")]


def test_a_legacy_file_with_ascii_around_is_one_region():
    data = b"ASCII header line\n" + (C.FR * 2).encode("latin-1") + b"ASCII footer\n"
    v = judged(data)
    assert v.code == "legacy_charset" and spans(v) == [(0, len(data), "cp1252")]
    assert "read the same as ISO-8859-1" in v.text


def test_one_accented_letter_in_ascii_is_a_legacy_file():
    """One Latin-1 letter in ASCII text, and no UTF-8 at all: the file reads exactly in
    Windows-1252 (it was "UTF-8 with 1 problem" before the verdict judged whole files)."""
    data = (C.EN + "Benutzer M\xfcller angemeldet\n" + C.EN).encode("latin-1")
    v = judged(data)
    assert v.code == "legacy_charset" and spans(v) == [(0, len(data), "cp1252")]


def test_random_damage_in_ascii_stays_problems():
    """Random bytes (controls among them) written over ASCII text are damage, not a
    charset: one UTF-8 region with problems."""
    import random

    rng = random.Random(4)
    data = bytearray((C.EN * 30).encode())
    for at in (len(data) // 3, 2 * len(data) // 3):
        data[at:at + 12] = bytes(rng.randrange(256) for _ in range(12))
    v = judged(bytes(data))
    assert v.code == "problems" and spans(v) == [(0, len(data), "utf-8")]


def test_charset_names_are_pythons():
    for case in C.CASES:
        for r in judged(case.data).regions:
            if r.encoding not in ("binary", "mojibake"):
                assert codecs.lookup(r.encoding).name == r.encoding
            if r.encoding == "mojibake":
                assert codecs.lookup(r.via).name == r.via


def test_the_map_is_kept_on_the_verdict_and_answers_offsets():
    case = next(c for c in C.CASES if c.name == "utf8_with_cp1252")
    v = judged(case.data)
    emap = v.regions
    assert isinstance(emap, EncodingMap) and len(emap) == 3 and emap.mixed
    a, b = case.regions[1][:2]
    assert emap.region_at(a).encoding == "cp1252"
    assert emap.region_at(a - 1).encoding == "utf-8"
    assert emap.region_at(b).encoding == "utf-8"
    assert emap.region_at(len(case.data)) is None and emap.region_at(-1) is None
    assert emap.bytes_by_encoding() == {"utf-8": len(case.data) - (b - a), "cp1252": b - a}
    assert emap.to_list()[1] == {"start": a, "end": b, "encoding": "cp1252", "language": "French",
                                 "exact": True, "by": "chardet"}
    assert [r.title() for r in emap] == ["UTF-8", "Windows-1252", "UTF-8"]


def test_region_dicts_and_titles():
    r = Region(0, 10, "mojibake", via="cp1252", by="ftfy")
    assert r.to_dict() == {"start": 0, "end": 10, "encoding": "mojibake", "via": "cp1252",
                           "exact": True, "by": "ftfy"}
    assert r.title() == "mojibake (UTF-8 read as Windows-1252)"
    assert Region(0, 5, "utf-8", ascii=True).title() == "UTF-8 (ASCII)"
    assert Region(0, 5, "iso8859-1").title() == "ISO-8859-1 (Latin-1)"
    assert Region(0, 5, "koi8-r").is_legacy and not Region(0, 5, "utf-16-le").is_legacy
    for region in (r, Region(3, 9, "cp1252", language="French", bom=True, exact=False),
                   Region(0, 2, "utf-8", ascii=True)):
        assert Region.from_dict(region.to_dict()) == region   # a report's regions read back


def test_empty_has_no_regions():
    v = judged(b"")
    assert v.code == "empty" and list(v.regions) == []


def test_a_region_scan_is_mapped_on_its_own_range():
    case = next(c for c in C.CASES if c.name == "utf8_with_cp1252")
    src = MemorySource(case.data)
    a, b = case.regions[1][:2]
    v = verdict(scan(src, start=a, end=b), src)
    assert v.code == "legacy_charset" and spans(v) == [(a, b, "cp1252")]


# ----------------------------------------------------------------------- properties

def assert_partition(emap: EncodingMap, start: int, end: int):
    pos = start
    for r in emap:
        assert r.start == pos and r.end > r.start, emap
        pos = r.end
    assert pos == (end if end > start else start)
    for a, b in zip(emap.regions, emap.regions[1:]):
        assert (a.encoding, a.via) != (b.encoding, b.via), emap


PIECES = [C.EN.encode(), C.FR.encode("latin-1"), C.FR_TYPO.encode("cp1252"),
          C.RU.encode("cp1251"), C.RU.encode("koi8-r"), C.JA.encode("shift_jis"),
          C.MULTI.encode(), C.blob(700), b"\x00" * 300, C.double_encoded(C.FR, "cp1252"),
          b"\xc0\xaf\xed\xa0\x80 ", "😀".encode()[:2], b"\n"]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=3000))
def test_regions_cover_arbitrary_bytes_in_order(data):
    src = MemorySource(data)
    result = scan(src)
    assert_partition(encoding_map(src, result), 0, len(data))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(len(PIECES))), max_size=12),
       st.binary(max_size=40), st.integers(0, 64))
def test_regions_cover_mixtures_in_order(order, noise, cut):
    data = b"".join(PIECES[i] for i in order) + noise
    data = data[:max(0, len(data) - cut)]
    src = MemorySource(data)
    assert_partition(encoding_map(src, scan(src)), 0, len(data))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(range(len(PIECES))), min_size=1, max_size=40),
       st.binary(max_size=40))
def test_regions_cover_mixtures_mapped_from_samples(order, noise):
    """The same property on the sampled path: small blocks and windows, so that even a
    small mixture is mapped from windows, probes and the block index."""
    data = b"".join(PIECES[i] for i in order) * 3 + noise
    small = dict(FULL_LIMIT=1024, WINDOW=2048, MARGIN=256, FULL_RUN=4096, PROBE=512, MAX_RUNS=6)
    with pytest.MonkeyPatch.context() as mp:
        for name, value in small.items():
            mp.setattr(MB, name, value)
        src = MemorySource(data)
        emap = encoding_map(src, scan(src, block_size=1024))
    assert_partition(emap, 0, len(data))


def test_sampled_path_finds_the_same_regions_as_reading_everything():
    """With small blocks and windows, a mixture is mapped from samples; the regions it
    finds are those of the whole read, within the bisection's reach."""
    part = (C.FR_TYPO * 6).encode("cp1252")
    data = (C.MULTI * 6).encode() + part + (C.MULTI * 6).encode()
    a, b = len((C.MULTI * 6).encode()), len((C.MULTI * 6).encode()) + len(part)
    with pytest.MonkeyPatch.context() as mp:
        for name, value in dict(FULL_LIMIT=4096, WINDOW=2048, MARGIN=512, FULL_RUN=2048,
                                PROBE=1024).items():
            mp.setattr(MB, name, value)
        src = MemorySource(data)
        emap = encoding_map(src, scan(src, block_size=1024))
    assert [(r.start, r.end, r.encoding) for r in emap] == [
        (0, a, "utf-8"), (a, b, "cp1252"), (b, len(data), "utf-8")]
    assert emap.bytes_read < len(data)


# ---------------------------------------------------------------------- a 1 GiB file

class CountingSource(ByteSource):
    """A byte source that counts what is read through it."""

    def __init__(self, inner):
        self.inner = inner
        self.size = inner.size
        self.read_bytes = 0
        self.reads = 0

    def read(self, offset, length):
        data = self.inner.read(offset, length)
        self.read_bytes += len(data)
        self.reads += 1
        return data


GiB = 1 << 30
MiB = 1 << 20


@pytest.fixture(scope="module")
def sparse_gib(tmp_path_factory):
    """A sparse 1 GiB file: NULs, with text written at a few places."""
    path = tmp_path_factory.mktemp("sparse") / "big.bin"
    head = (C.MULTI * 20).encode()
    legacy = (C.FR_TYPO * 200).encode("cp1252")
    cyr = (C.RU * 150).encode("koi8-r")
    tail = (C.MULTI * 10).encode()
    with open(path, "wb") as f:
        f.truncate(GiB)
        f.write(head)
        f.seek(256 * MiB)
        f.write(legacy)
        f.seek(700 * MiB + 12345)
        f.write(cyr)
        f.seek(GiB - len(tail))
        f.write(tail)
    layout = [(0, len(head), "utf-8"), (len(head), 256 * MiB, "binary"),
              (256 * MiB, 256 * MiB + len(legacy), "cp1252"),
              (256 * MiB + len(legacy), 700 * MiB + 12345, "binary"),
              (700 * MiB + 12345, 700 * MiB + 12345 + len(cyr), "koi8-r"),
              (700 * MiB + 12345 + len(cyr), GiB - len(tail), "binary"),
              (GiB - len(tail), GiB, "utf-8")]
    return path, layout


@pytest.mark.slow
def test_a_gib_file_is_mapped_from_bounded_samples(sparse_gib):
    path, layout = sparse_gib
    with FileSource(path) as src:
        result = scan(src)
        counting = CountingSource(src)
        emap = encoding_map(counting, result)
        v = verdict(result, CountingSource(src))
    assert [(r.start, r.end, r.encoding) for r in emap] == layout
    assert all(r.exact for r in emap)
    assert counting.read_bytes <= emap.bytes_read
    assert counting.read_bytes < 4 * MiB, counting.read_bytes  # of 1,024 MiB
    assert v.code == "mixed"


def test_many_runs_without_windows_are_labelled_by_their_class():
    """Blocks alternating between Latin-1 and UTF-8, more runs than get windows: every
    part is still named right (at block edges where no window fell, marked inexact)."""
    block = 4096

    def rep(b):
        return (b * (block // len(b) + 1))[:block]

    legacy = rep((C.FR * 2).encode("latin-1"))
    utf8 = rep(C.MULTI.encode())
    data = (legacy + utf8) * 60
    with pytest.MonkeyPatch.context() as mp:
        for name, value in {"FULL_LIMIT": 8192, "WINDOW": 1024, "MARGIN": 256,
                            "FULL_RUN": 2048, "MAX_RUNS": 8}.items():
            mp.setattr(MB, name, value)
        src = MemorySource(data)
        emap = encoding_map(src, scan(src, block_size=block))
    assert_partition(emap, 0, len(data))
    for k in range(120):
        want = "cp1252" if k % 2 == 0 else "utf-8"
        assert emap.region_at(k * block + block // 2).encoding == want, k
    assert not all(r.exact for r in emap) and any(r.exact for r in emap)
    assert emap.bytes_read < len(data) // 4


def test_binary_edges_as_close_as_the_data_allows():
    """A blob of random bytes in an ASCII log: the binary region runs from its first to
    its last byte that is not ASCII text (random printable bytes at its edges cannot be
    told from the log). Text in KOI8-R glued to a blob starts right after it."""
    import random

    rng = random.Random(9)
    blob = bytes(rng.randrange(256) for _ in range(3000))
    log = C.log_lines(200)
    half = log.index("\n", len(log) // 2) + 1
    data = log[:half].encode() + blob + log[half:].encode()
    texty = [i for i, b in enumerate(data) if b >= 0x80 or (b < 0x20 and b not in (9, 10, 13))]
    v = judged(data)
    assert v.code == "mixed"
    assert spans(v) == [(0, texty[0], "utf-8"), (texty[0], texty[-1] + 1, "binary"),
                        (texty[-1] + 1, len(data), "utf-8")]
    glued = C.blob(2000) + (C.RU * 3).encode("koi8-r")
    data = log[:half].encode() + glued
    a, b = half, half + 2000
    assert spans(judged(data)) == [(0, a, "utf-8"), (a, b, "binary"), (b, len(data), "koi8-r")]


@pytest.mark.parametrize("seed", range(40))
def test_random_bytes_are_one_binary_region(seed):
    """Random data has short lines at its edges that hold no control: they are part of
    the data, not regions of text of their own."""
    import random

    rng = random.Random(seed)
    data = rng.randbytes(rng.choice([2000, 20000, 60000]))
    v = judged(data)
    assert v.code == "binary" and spans(v) == [(0, len(data), "binary")]
