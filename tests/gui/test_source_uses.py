"""What the window's code used to probe byte sources for (``getattr(source, ...)``) comes
out as before now that it asks plainly: the document's path, forgetting cached reads,
an export's inspected path, a byte-class search reading past the cache."""

from __future__ import annotations

import json

from inspector.core.analysis.exportjobs import JSON, export_steps
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.gui.dialogs.reference import (CLASS_OF_BYTE, class_mask, find_class_steps,
                                             run_to_end)
from inspector.gui.document import Document

DATA = b"plain text " * 2000 + "é".encode()


def test_the_document_path_is_the_sources(write_file):
    doc = Document()
    assert doc.path is None  # bytes in memory
    path = write_file(DATA, "data.txt")
    doc.open_path(path)
    assert doc.path == str(path)
    doc.set_source(MemorySource(b"pasted"))
    assert doc.path is None


def test_invalidate_forgets_a_files_cached_blocks_and_is_harmless_in_memory(document_of,
                                                                            write_file):
    doc = document_of(b"pasted")
    doc.invalidate()
    assert doc.read(0, 6) == b"pasted"
    doc.open_path(write_file(DATA, "data.txt"))
    doc.read(0, 10)
    assert doc.source.cached_blocks == 1
    doc.invalidate()
    assert doc.source.cached_blocks == 0
    doc.source.close()


def test_an_export_names_the_file_or_the_bytes(tmp_path, write_file):
    path = write_file(DATA, "data.txt")
    for source, shown in ((FileSource(path), str(path)), (MemorySource(DATA), "<memory>")):
        target = tmp_path / "report.json"
        run_to_end(export_steps(JSON, source, "utf-8", None, str(target)))
        assert json.loads(target.read_text())["path"] == shown
        source.close()


def test_a_byte_class_search_reads_past_the_cache(write_file):
    mask = class_mask(CLASS_OF_BYTE[0xC3])
    with FileSource(write_file(DATA, "data.txt")) as src:
        assert run_to_end(find_class_steps(src, mask, 0, chunk=4096)) == len(DATA) - 2
        assert src.cached_blocks == 0
