"""The repair policy "convert each region from its encoding": legacy regions decoded in
their charset, mojibake undone, UTF-8 repaired as usual, binary kept or dropped."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings.regionrepair import (
    DROP_BINARY, KEEP_BINARY, convert_regions, preview_regions, region_repair_file,
    region_repair_steps, region_spans,
)
from inspector.core.analysis.repair import CP1252, RepairError
from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import FileSource, MemorySource
from tests.core.analysis import corpus as C


def case(name):
    return next(c for c in C.CASES if c.name == name)


def mapped(data):
    src = MemorySource(data)
    return verdict(scan(src), src).regions


def host_halves():
    lines = (C.EN + C.DE + C.FR + C.EN).splitlines(keepends=True)
    half = len(lines) // 2
    return "".join(lines[:half]), "".join(lines[half:])


@pytest.mark.parametrize("name, text", [
    ("utf8_with_cp1252", C.FR_TYPO),
    ("utf8_with_latin1", C.ES * 2),
    ("utf8_with_cp1251", C.RU * 2),
    ("utf8_with_koi8_r", C.RU * 2),
    ("utf8_with_shift_jis", C.JA * 2),
    ("utf8_with_mojibake", C.FR * 2),
    ("utf8_with_mojibake_cp1251", C.RU * 2),
])
def test_a_part_in_another_encoding_comes_back_as_the_text(name, text):
    before, after = host_halves()
    data = case(name).data
    assert convert_regions(data, mapped(data)).decode("utf-8") == before + text + after


@pytest.mark.parametrize("name, text", [
    ("fr_latin1", C.FR * 3), ("fr_cp1252", C.FR_TYPO * 3), ("pl_cp1250", C.PL * 3),
    ("ru_koi8_r", C.RU * 3), ("el_iso8859_7", C.EL * 3), ("ja_euc_jp", C.JA * 3),
    ("zh_gbk", C.ZH * 3), ("ko_euc_kr", C.KO * 3), ("mojibake_whole", C.FR * 2),
    ("utf-16-le_bom", C.MULTI), ("utf-16-be_nobom", C.MULTI), ("utf-32-le_bom", C.MULTI),
])
def test_whole_files_come_back_as_the_text(name, text):
    data = case(name).data
    assert convert_regions(data, mapped(data)).decode("utf-8") == text


def test_binary_kept_or_dropped():
    c = case("log_with_blob")
    regions = mapped(c.data)
    assert convert_regions(c.data, regions, binary=KEEP_BINARY) == c.data
    (a, b, _), = [r for r in c.regions if r[2] == "binary"]
    assert convert_regions(c.data, regions, binary=DROP_BINARY) == c.data[:a] + c.data[b:]
    with pytest.raises(ValueError):
        convert_regions(c.data, regions, binary="maybe")


def test_utf8_regions_are_repaired_by_the_policy():
    data = "café ".encode() + b"\xc0\xaf and \x93quoted\x94"
    regions = [{"start": 0, "end": len(data), "encoding": "utf-8"}]
    assert convert_regions(data, regions).decode() == "café \ufffd\ufffd and \ufffdquoted\ufffd"
    assert convert_regions(data, regions, utf8_policy=CP1252).decode() == "café À¯ and “quoted”"


def test_regions_as_json_dicts_and_gaps():
    c = case("utf8_with_cp1252")
    regions = json.loads(json.dumps(mapped(c.data).to_list()))
    before, after = host_halves()
    assert convert_regions(c.data, regions).decode() == before + C.FR_TYPO + after
    # Only the legacy region given: the rest is taken as UTF-8.
    only = [r for r in regions if r["encoding"] == "cp1252"]
    assert convert_regions(c.data, only).decode() == before + C.FR_TYPO + after
    spans = region_spans(only, len(c.data))
    assert [(s.start, s.end, s.encoding) for s in spans] == c.regions
    with pytest.raises(ValueError, match="unknown encoding"):
        region_spans([{"start": 0, "end": 3, "encoding": "klingon-8"}], 10)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["utf8_with_shift_jis", "utf8_with_mojibake", "utf8_with_cp1251",
                        "ko_euc_kr", "utf-16-le_bom", "log_with_blob"]),
       st.integers(64, 700))
def test_chunks_do_not_change_the_result(name, chunk):
    data = case(name).data
    regions = mapped(data)
    assert convert_regions(data, regions, chunk_size=chunk) == convert_regions(data, regions)


def test_repair_file_writes_a_new_file_and_tells_what_it_did(tmp_path):
    c = case("utf8_log_with_blob")
    path = tmp_path / "log.txt"
    path.write_bytes(c.data + (C.FR * 2).encode("latin-1"))
    target = tmp_path / "fixed.txt"
    with FileSource(path) as src:
        regions = verdict(scan(src), src).regions
        assert [r.encoding for r in regions] == ["utf-8", "binary", "utf-8", "cp1252"]
        summary = region_repair_file(src, target, regions, binary=DROP_BINARY, chunk_size=4096)
        with pytest.raises(RepairError):
            region_repair_file(src, path, regions)  # never the inspected file
    out = target.read_bytes().decode("utf-8")
    assert out.endswith(C.FR * 2)
    d = summary.to_dict()
    assert d["policy"] == "regions" and d["binary"] == "drop"
    assert d["by_encoding"]["binary"]["regions"] == 1 and d["by_encoding"]["binary"]["bytes_out"] == 0
    assert d["by_encoding"]["cp1252"]["bytes_in"] == len((C.FR * 2).encode("latin-1"))
    assert d["bytes_out"] == len(out.encode()) and d["output_sha256"]
    text = summary.describe()
    assert "1 binary region" in text and "dropped" in text and "cp1252 region" in text


def test_cancel_leaves_nothing(tmp_path):
    c = case("utf8_with_cp1252")
    path = tmp_path / "in.txt"
    path.write_bytes(c.data * 50)
    target = tmp_path / "out.txt"
    with FileSource(path) as src:
        steps = region_repair_steps(src, target, mapped(c.data), chunk_size=1024)
        next(steps)
        steps.close()
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["in.txt"]


def test_preview_shows_each_region_before_and_after():
    c = case("utf8_with_cp1252")
    src = MemorySource(c.data)
    regions = mapped(c.data)
    a = c.regions[1][0]
    items = preview_regions(src, regions, a, radius=200)
    assert [i.span.encoding for i in items] == ["utf-8", "cp1252"]
    legacy = items[1]
    assert legacy.start == a and legacy.after.startswith(C.FR_TYPO[:legacy.end - a][:40])
    assert "\ufffd" in legacy.before and "\ufffd" not in legacy.after


def test_the_summary_says_what_was_written(tmp_path):
    """A region converted changes the bytes: the summary says the copy differs (sizes
    and SHA-256 compared), never that it is identical."""
    data = case("utf8_with_cp1252").data
    path = tmp_path / "mixed.txt"
    path.write_bytes(data)
    with FileSource(str(path)) as src:
        summary = region_repair_file(src, str(tmp_path / "copy.txt"), mapped(data))
    text = summary.describe()
    assert summary.identical is False and summary.bytes_out != summary.bytes_in
    assert "identical" not in text and "Nothing needed repair" not in text
    assert "The copy differs from the original" in text
    assert summary.to_dict()["identical"] is False


def test_an_unchanged_copy_is_called_identical_from_its_hashes(tmp_path):
    data = (C.EN * 3).encode()
    path = tmp_path / "plain.txt"
    path.write_bytes(data)
    with FileSource(str(path)) as src:
        summary = region_repair_file(src, str(tmp_path / "copy.txt"), mapped(data))
    assert (tmp_path / "copy.txt").read_bytes() == data
    assert summary.identical is True
    assert summary.source_sha256 == summary.output_sha256
    assert "identical to the original (same size and SHA-256)" in summary.describe()
