"""Every byte source has the whole interface of :class:`ByteSource`, so callers use it
plainly; and what each caller used to find out by probing (``getattr(source, ...)``)
still comes out the same: a file's path, stat and uncached reads, a spool's slice path,
nothing of the kind for bytes in memory."""

from __future__ import annotations

import ast
import io
import os
from pathlib import Path

import pytest

from inspector.core.analysis import repair, report, search
from inspector.core.analysis.encodings import regionrepair
from inspector.core.scan import parallel, scanner
from inspector.core.scan.corpus import STDIN, SpooledInput
from inspector.core.source.bytesource import ByteSource, FileSource, MemorySource

DATA = "añ€😀 text\n".encode() * 40_000 + b"\xc0\xaf end\n"   # > 256 KiB: read_chunk's uncached size
PACKAGE = Path(__file__).resolve().parents[3] / "inspector"

SOURCE_CLASSES = [MemorySource, FileSource, SpooledInput]

# Classes of the package with a ``read(self, offset, length)`` that are not byte sources:
# they stand for one (a protocol) or hand reads on to the one they hold.
NOT_SOURCES = {
    "ByteSource": "the interface itself",
    "DocumentLike": "a protocol: what the text layout needs of the document",
    "SourceModel": "a Qt-free document: holds a source",
    "Document": "the window's document: holds a source",
    "Source": "a protocol: what the decoder needs of a source",
    "RegionSource": "a region of the source it holds, read as a stream of its own",
    "_Offset": "bytes in memory placed at a file offset: hands reads on to its source",
}


def make(cls, tmp_path):
    if cls is MemorySource:
        return MemorySource(DATA)
    if cls is FileSource:
        path = tmp_path / "data.txt"
        path.write_bytes(DATA)
        return FileSource(path)
    return SpooledInput(io.BytesIO(DATA), chunk=4096)


@pytest.fixture(params=SOURCE_CLASSES, ids=lambda c: c.__name__)
def source(request, tmp_path):
    src = make(request.param, tmp_path)
    yield src
    src.close()


def test_every_class_with_a_read_method_is_a_byte_source_in_this_suite():
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(f, ast.FunctionDef) and f.name == "read"
                    and [a.arg for a in f.args.args][:2] == ["self", "offset"]
                    for f in node.body):
                found.add(node.name)
    assert found - set(NOT_SOURCES) == {c.__name__ for c in SOURCE_CLASSES}
    assert all(issubclass(c, ByteSource) for c in SOURCE_CLASSES)


def test_the_whole_interface_is_there(source):
    for method in ("read", "read_uncached", "chunks", "check", "invalidate", "close",
                   "__enter__", "__exit__"):
        assert callable(getattr(source, method)), method
    assert source.size == len(DATA) and isinstance(source.name, str) and source.name
    assert source.read(5, 10) == source.read_uncached(5, 10) == DATA[5:15]
    assert b"".join(p for _, p in source.chunks(3, 5000, 777)) == DATA[3:5000]
    assert source.check() is None
    source.invalidate()
    assert source.read(0, 4) == DATA[:4]
    for attr in ("path", "slice_path", "stat_result", "mtime_ns"):
        getattr(source, attr)  # an attribute, never an AttributeError


def test_what_each_source_says_about_its_file(source, tmp_path):
    st = source.stat_result
    if isinstance(source, MemorySource):
        assert (source.path, source.slice_path, st, source.mtime_ns) == (None, None, None, None)
    elif isinstance(source, FileSource):
        path = str(tmp_path / "data.txt")
        assert source.path == source.slice_path == path
        now = os.stat(path)
        assert (st.st_dev, st.st_ino) == (now.st_dev, now.st_ino)
        assert source.mtime_ns == now.st_mtime_ns
    else:
        # Standard input: named "-", read by workers from the spool, no file's time.
        assert source.path == source.name == STDIN
        assert Path(source.slice_path).read_bytes() == DATA
        assert st is None and source.mtime_ns is None


# ------------------------------------------------------------------ the former probes

class CountingMemory(MemorySource):
    """Bytes in memory that count the reads going through ``read``."""

    def __init__(self, data):
        super().__init__(data)
        self.reads = 0

    def read(self, offset, length):
        self.reads += 1
        return super().read(offset, length)


def test_an_uncached_read_of_bytes_in_memory_is_a_plain_read():
    # Before, callers fell back to ``read`` for sources without ``read_uncached``: an
    # overridden ``read`` must still see every read.
    src = CountingMemory(DATA)
    assert src.read_uncached(10, 20) == DATA[10:30] and src.reads == 1
    assert scanner.scan(src).size == len(DATA) and src.reads > 1


def test_a_file_is_scanned_and_searched_past_its_block_cache(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(DATA)
    with FileSource(path) as src:
        scanner.scan(src)
        assert search.read_chunk(src, 0, len(DATA)) == DATA
        assert src.cached_blocks == 0  # every read went around the cache
        with open(path, "ab") as f:
            f.write(b"grown")
        # An uncached read sees the grown file; the search clips to the size opened.
        assert search.read_chunk(src, len(DATA) - 300_000, 400_000) == DATA[-300_000:]


def test_slices_are_for_files_and_spools_only(source):
    big = parallel.MIN_PARALLEL_BYTES
    assert parallel.usable(source, 2, big, "utf-8") == (source.slice_path is not None)
    assert (source.slice_path is None) == isinstance(source, MemorySource)


def test_the_report_takes_the_time_and_name_from_the_source(source):
    result = scanner.scan(source)
    rep = report.build_report(result, source, None, None)
    if isinstance(source, FileSource):
        assert rep["mtime_ns"] == source.stat_result.st_mtime_ns
    else:
        assert rep["mtime"] is None and rep["mtime_ns"] is None
    assert rep["path"] == source.name


def test_a_repair_names_the_source_and_refuses_to_overwrite_it(source, tmp_path):
    target = tmp_path / "repaired.txt"
    summary = repair.repair_file(source, target)
    assert summary.source_path == source.path
    assert target.read_bytes() == DATA.replace(b"\xc0\xaf", "\ufffd\ufffd".encode())
    regions = regionrepair.region_repair_file(source, tmp_path / "regions.txt", [])
    assert regions.source_path == source.path
    if isinstance(source, FileSource):
        with pytest.raises(repair.RepairError, match="inspected file"):
            repair.check_target(source, source.path, overwrite=True)
        link = tmp_path / "hard-link.txt"
        os.link(source.path, link)
        with pytest.raises(repair.RepairError):
            repair.check_target(source, link, overwrite=True)
    else:
        # Nothing on disk is the source: an existing file may be replaced when asked.
        assert repair.check_target(source, target, overwrite=True) == str(target)
