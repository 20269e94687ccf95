"""The window's cheap answers about lines: through a scan's block index, never by
reading a big file from its start."""

import pytest

from inspector.core.scan import lines as L
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource


class Counting(MemorySource):
    """A source that tells how many bytes were read."""

    def __init__(self, data):
        super().__init__(data)
        self.bytes_read = 0

    def read(self, offset, length):
        out = super().read(offset, length)
        self.bytes_read += len(out)
        return out

    read_uncached = read


DATA = b"".join(b"line %d \xc0\xaf x\n" % i for i in range(40_000))


def test_locate_line_and_line_of_offset_with_an_index():
    src = Counting(DATA)
    index = scan(src).index
    assert index.n_blocks > 4
    for line in (1, 2, 777, 39_999, 40_000):
        src.bytes_read = 0
        off = L.locate_line(src, line, index, direct_limit=0)
        assert off == L.offset_of_line(MemorySource(DATA), line)
        assert src.bytes_read <= index.block_size
        assert L.line_of_offset(src, off + 3, index, direct_limit=0) == line
        start = L.line_start_indexed(src, off + 3, index)
        assert start == off
    assert L.locate_line(src, 40_001, index, direct_limit=0) == len(DATA)  # after the last LF
    assert L.locate_line(src, 40_002, index, direct_limit=0) is None


def test_not_reached_without_an_index():
    src = MemorySource(DATA)
    with pytest.raises(L.NotReached):
        L.locate_line(src, 500, None, direct_limit=10)
    assert L.line_of_offset(src, 5000, None, direct_limit=10) is None
    assert L.line_of_offset(src, 5000, None) == 1 + DATA[:5000].count(b"\n")


def test_partial_index_answers_within_its_finished_blocks():
    src = MemorySource(DATA)
    index = scan(src).index
    full_done = index.done
    index.done = index.start + 2 * index.block_size   # as if the scan were there
    try:
        known = int(index.lf[:2].sum())
        assert L.locate_line(src, known, index, direct_limit=0) == L.offset_of_line(src, known)
        with pytest.raises(L.NotReached) as e:
            L.locate_line(src, known + 2, index, direct_limit=0)
        assert e.value.lines == known
    finally:
        index.done = full_done


def test_offset_of_column():
    src = MemorySource(b"ab\ncd\xc0\xafef\n\nxyz")
    assert L.offset_of_column(src, 3, 1) == (3, 1)
    assert L.offset_of_column(src, 3, 3) == (5, 3)
    assert L.offset_of_column(src, 3, 4) == (5, 3)   # the overlong's second U+FFFD
    assert L.offset_of_column(src, 3, 5) == (7, 5)
    assert L.offset_of_column(src, 3, 50) == (9, 7)  # past the line: its LF
