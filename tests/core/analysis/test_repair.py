"""Save a repaired copy: each policy, dialects, refusal of the inspected file, cancel,
preview and whole-file counts."""

import hashlib
import os
import random

import pytest

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.units.decoder import cut
from inspector.core.analysis.repair import (
    CP1252, DROP, LATIN1, POLICIES, REPLACE, RepairError, repair_bytes, repair_file,
    repair_steps, run,
)
from inspector.core.analysis.repairpreview import policy_counts, preview
from inspector.core.analysis.search import Progress

PIECES = [b"abc", "€".encode(), "é".encode(), "😀".encode(), b"\xc0\xaf", b"\xe0\x80\xaf",
          b"\xed\xa0\x80", b"\xed\xa0\xbd\xed\xb8\x80", b"\xc0\x80", b"\xff", b"\x80", b"\x93",
          b"\xe1\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xef\xbb\xbf", b"\x00",
          "\ufffd".encode(), b"\xf0\x9f"]
DAMAGED = b"caf\xe9 \xc0\xae\xc0\xae\xc0\xaf \x93quoted\x94 \xed\xa0\x80 \xf0\x9f \xe2\x82\xac ok"


def random_data(rng, n):
    return b"".join(rng.choice(PIECES) for _ in range(n))


def assert_valid_utf8(data: bytes):
    data.decode("utf-8")  # strict
    assert all(u.kind == K.VALID for u in cut(data))


@pytest.fixture
def damaged_file(tmp_path):
    path = tmp_path / "damaged.txt"
    path.write_bytes(DAMAGED)
    return path


# ----------------------------------------------------------------------------- policies

def test_replace_and_drop_equal_python():
    rng = random.Random(11)
    for _ in range(200):
        data = random_data(rng, rng.randint(0, 60))
        assert repair_bytes(data, REPLACE) == data.decode("utf-8", "replace").encode()
        assert repair_bytes(data, DROP) == data.decode("utf-8", "ignore").encode()


def test_legacy_policies():
    data = b"caf\xe9 \x93x\x94 \x81\x8d"
    assert repair_bytes(data, LATIN1).decode() == "café \x93x\x94 \x81\x8d"
    # cp1252 reads 93/94 as curly quotes; its five undefined bytes fall back to Latin-1.
    assert repair_bytes(data, CP1252).decode() == "café \u201cx\u201d \x81\x8d"
    assert repair_bytes(b"\xc0\xaf", CP1252).decode() == "À¯"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("dialect", K.DIALECTS)
def test_every_policy_and_dialect_gives_valid_utf8(policy, dialect):
    rng = random.Random(hash((policy, dialect)) & 0xFFFF)
    for _ in range(30):
        out = repair_bytes(random_data(rng, 40), policy, dialect)
        assert_valid_utf8(out)


def test_valid_units_and_warnings_are_kept():
    data = "\ufeffBOM, \ufffd, \x07, \u202e, \u200b, 😀 €".encode()
    for policy in POLICIES:
        assert repair_bytes(data, policy) == data


def test_dialect_conversions():
    pair = b"\xed\xa0\xbd\xed\xb8\x80"
    assert repair_bytes(pair, REPLACE, K.CESU8) == "😀".encode()
    assert repair_bytes(pair, REPLACE, K.UTF8) == ("\ufffd" * 6).encode()
    assert repair_bytes(b"a\xc0\x80b\x00", REPLACE, K.MUTF8) == b"a\x00b\x00"
    assert repair_bytes(b"\xc0\x80", REPLACE, K.CESU8) == "\ufffd\ufffd".encode()
    # A lone surrogate is valid WTF-8 but has no UTF-8 spelling: it is a problem.
    assert repair_bytes(b"\xed\xa0\x80", DROP, K.WTF8) == b""
    assert repair_bytes(b"\xf8\x88\x80\x80\x80", REPLACE, K.FSS_UTF) == ("\ufffd" * 5).encode()


def test_policy_per_kind():
    data = b"\xc0\xaf\x93"
    out = repair_bytes(data, {K.OVERLONG: DROP, K.UNEXPECTED_CONTINUATION: CP1252})
    assert out.decode() == "\u201c"
    with pytest.raises(ValueError):
        repair_bytes(data, {"valid": DROP})
    with pytest.raises(ValueError):
        repair_bytes(data, "guess")


# ------------------------------------------------------------------------- files

@pytest.mark.parametrize("policy", POLICIES)
def test_repair_file_each_policy(tmp_path, damaged_file, policy):
    before = damaged_file.read_bytes()
    stat_before = os.stat(damaged_file)
    target = tmp_path / f"fixed-{policy}.txt"
    with FileSource(damaged_file) as src:
        summary = repair_file(src, target, policy)
    out = target.read_bytes()
    assert_valid_utf8(out)
    assert out == repair_bytes(before, policy)
    assert damaged_file.read_bytes() == before  # the original, byte for byte
    assert os.stat(damaged_file).st_mtime_ns == stat_before.st_mtime_ns
    assert summary.bytes_in == len(before) and summary.bytes_out == len(out)
    assert summary.source_sha256 == hashlib.sha256(before).hexdigest()
    assert summary.output_sha256 == hashlib.sha256(out).hexdigest()
    assert summary.changed_by_kind == {"unexpected_continuation": 2, "truncated": 2,
                                       "overlong": 3, "surrogate": 1}
    assert summary.replacements_written == (out.decode().count("\ufffd") if policy == REPLACE else 0)
    assert [p for p in os.listdir(tmp_path) if p.endswith(".partial")] == []
    assert "SHA-256" in summary.describe()
    assert summary.to_dict()["units_changed"] == 8


def test_chunked_file_repair_equals_in_memory(tmp_path):
    rng = random.Random(2)
    data = random_data(rng, 3000)
    path = tmp_path / "r.bin"
    path.write_bytes(data)
    for dialect in K.DIALECTS:
        for chunk in (64, 100, 4096):
            target = tmp_path / f"out-{dialect}-{chunk}"
            with FileSource(path) as src:
                repair_file(src, target, CP1252, dialect, chunk_size=chunk)
            assert target.read_bytes() == repair_bytes(data, CP1252, dialect)


def test_decode_pieces_inside_a_chunk(monkeypatch):
    """Runs split by the decoder's piece boundaries are joined again, pairs kept whole."""
    import inspector.core.analysis.repair as repair_module
    rng = random.Random(9)
    data = random_data(rng, 2000)
    expected = {d: repair_bytes(data, REPLACE, d) for d in K.DIALECTS}
    monkeypatch.setattr(repair_module, "DECODE_PIECE", 37)
    for dialect in K.DIALECTS:
        out = run(policy_counts(MemorySource(data), dialect, chunk_size=1000))
        assert out.output_size[REPLACE] == len(expected[dialect])
        runs = repair_module.runs_in_chunk(memoryview(data), dialect in K.PAIR_UNIT_DIALECTS)
        assert all(a < b for a, b in runs)
        assert all(runs[k][1] < runs[k + 1][0] for k in range(len(runs) - 1))


def test_refuses_the_inspected_file(tmp_path, damaged_file):
    link = tmp_path / "link.txt"
    link.symlink_to(damaged_file)
    hard = tmp_path / "hard.txt"
    os.link(damaged_file, hard)
    before = damaged_file.read_bytes()
    with FileSource(damaged_file) as src:
        for target in (damaged_file, str(damaged_file), link, hard,
                       tmp_path / "." / "damaged.txt"):
            with pytest.raises(RepairError, match="inspected file"):
                run(repair_steps(src, target, REPLACE, overwrite=True))
    # Opened through the link, the real file is refused too.
    with FileSource(link) as src:
        with pytest.raises(RepairError, match="inspected file"):
            repair_file(src, damaged_file, overwrite=True)
    assert damaged_file.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["damaged.txt", "hard.txt", "link.txt"]


def test_refusal_comes_before_any_work(tmp_path, damaged_file):
    """A dialog learns of a refused target when it asks, before a worker starts."""
    with FileSource(damaged_file) as src:
        with pytest.raises(RepairError):
            repair_steps(src, damaged_file, overwrite=True)
        with pytest.raises(ValueError):
            repair_steps(src, tmp_path / "x", "guess")
        with pytest.raises(ValueError):
            policy_counts(src, "utf-9")
        steps = repair_steps(src, tmp_path / "never.txt")
        steps.close()  # cancelled before it started: nothing is created
    assert not (tmp_path / "never.txt").exists()
    assert [p for p in os.listdir(tmp_path) if p.endswith(".partial")] == []


def test_modules_do_not_import_qt():
    import subprocess
    import sys
    code = ("import sys; sys.modules['PySide6'] = None\n"
            "import inspector.core.analysis.search, inspector.core.analysis.copyformats, "
            "inspector.core.analysis.repair, inspector.core.analysis.htmlreport, "
            "inspector.core.analysis.repairpreview, "
            "inspector.core.analysis.encodings.regionrepair\n"
            "assert not any(m.startswith('PySide6.') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))


def test_other_refusals(tmp_path, damaged_file):
    other = tmp_path / "other.txt"
    other.write_bytes(b"keep")
    with FileSource(damaged_file) as src:
        with pytest.raises(RepairError, match="already exists"):
            repair_file(src, other)
        assert other.read_bytes() == b"keep"
        repair_file(src, other, overwrite=True)
        assert other.read_bytes() == repair_bytes(DAMAGED)
        with pytest.raises(RepairError, match="folder"):
            repair_file(src, tmp_path)
        with pytest.raises(RepairError, match="does not exist"):
            repair_file(src, tmp_path / "missing" / "x.txt")
        with pytest.raises(RepairError):
            repair_file(src, "")


def test_cancel_leaves_nothing(tmp_path):
    data = b"\xc0\xaf" * 50000
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    target = tmp_path / "out.bin"
    with FileSource(path) as src:
        steps = repair_steps(src, target, REPLACE, chunk_size=4096)
        first = next(steps)
        assert isinstance(first, Progress) and 0 < first.done < first.total
        steps.close()
    assert sorted(os.listdir(tmp_path)) == ["big.bin"]


def test_source_changed_while_read(tmp_path):
    path = tmp_path / "moving.bin"
    path.write_bytes(b"a\xff" * 10000)
    target = tmp_path / "out.bin"
    with FileSource(path) as src:
        steps = repair_steps(src, target, REPLACE, chunk_size=1024)
        next(steps)
        with open(path, "ab") as f:
            f.write(b"more")
        os.utime(path, ns=(1, 1))
        with pytest.raises(RepairError, match="changed"):
            run(steps)
    assert sorted(os.listdir(tmp_path)) == ["moving.bin"]


def test_memory_source_and_progress(tmp_path):
    data = b"ok \xff\xfe ok" * 1000
    seen = []
    summary = run(repair_steps(MemorySource(data), tmp_path / "m.txt", DROP, chunk_size=1000),
                  seen.append)
    assert seen[-1].done == seen[-1].total == len(data)
    assert (tmp_path / "m.txt").read_bytes() == b"ok  ok" * 1000
    assert summary.changed_by_kind == {"invalid_byte": 2000}


# ------------------------------------------------------------------- preview and counts

def test_preview_near_offset():
    src = MemorySource(DAMAGED)
    pv = preview(src, DAMAGED.index(b"\x93"), radius=8)
    kinds = [item.kind for item in pv.items]
    assert "unexpected_continuation" in kinds
    item = next(i for i in pv.items if i.raw == b"\x93")
    assert item.results == {REPLACE: "\ufffd", DROP: "", CP1252: "\u201c", LATIN1: "\x93"}
    assert item.python == {"replace": "\ufffd", "surrogateescape": "\udc93", "ignore": ""}
    window = DAMAGED[pv.start:pv.end]
    assert pv.python["replace"] == window.decode("utf-8", "replace")
    assert pv.text[REPLACE] == window.decode("utf-8", "replace")
    assert pv.text[DROP] == window.decode("utf-8", "ignore")
    assert preview(MemorySource(b""), 0).items == []


def test_preview_dialect():
    data = b"x\xed\xa0\xbd\xed\xb8\x80\xc0\x80y"
    pv = preview(MemorySource(data), 3, dialect=K.MUTF8)
    assert pv.items == [] and pv.text[REPLACE] == "x😀\x00y"


def test_policy_counts_match_repairs(tmp_path):
    rng = random.Random(4)
    data = random_data(rng, 2000)
    src = MemorySource(data)
    for dialect in (K.UTF8, K.CESU8, K.MUTF8):
        steps = policy_counts(src, dialect, chunk_size=512)
        progress = []
        counts = run(steps, progress.append)
        assert progress[-1].done == len(data)
        for policy in POLICIES:
            assert counts.output_size[policy] == len(repair_bytes(data, policy, dialect))
        expected = {}
        for u in cut(data, 0, dialect if dialect != K.UTF8 else K.UTF8):
            if u.kind != K.VALID:
                expected[u.kind] = expected.get(u.kind, 0) + 1
        assert dict(counts.units_by_kind) == expected
        assert counts.input_size == len(data)
    assert run(policy_counts(src)).replacements == data.decode("utf-8", "replace").count("\ufffd") \
        - data.count("\ufffd".encode())
