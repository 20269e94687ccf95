"""The unassigned code points cached on disk equal the ones built from the database."""

import numpy as np

from inspector.core.scan import tables as TB


def test_cache_round_trip_equals_the_build(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = TB.build_unassigned()
    assert TB.load_cached_unassigned() is None
    first = TB.cached_unassigned()  # builds and stores
    assert (tmp_path / "utf8-inspector").is_dir()
    again = TB.load_cached_unassigned()
    assert np.array_equal(first, built) and np.array_equal(again, built)
    a, b = TB.Tables(built), TB.Tables()
    for name in ("bits", "any8", "any8_escapes", "bits_mutf8", "risk2"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert (a.safe_bytes, a.risk_map) == (b.safe_bytes, b.risk_map)


def test_a_broken_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = tmp_path / "utf8-inspector"
    path.mkdir()
    (path / TB.cache_path().rsplit("/", 1)[1]).write_bytes(b"short")
    assert np.array_equal(TB.cached_unassigned(), TB.build_unassigned())
    # an unwritable cache folder: built all the same
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/nonexistent")
    assert TB.cached_unassigned().sum() > 0


def _resident_kib(path: str) -> int:
    """The resident size of the mappings of ``path`` in this process (smaps)."""
    total, mine = 0, False
    with open("/proc/self/smaps") as f:
        for line in f:
            first = line.split()[0]
            if "-" in first and all(c in "0123456789abcdef-" for c in first):
                mine = line.rstrip().endswith(path)
            elif mine and line.startswith("Rss:"):
                total += int(line.split()[1])
    return total


def test_the_mapped_tables_pages_can_be_dropped_and_read_again(tmp_path, monkeypatch):
    """After a whole-file scan the window drops the pages of the mapped tables from its
    resident memory: they are the file's, read back when looked at again."""
    import os

    import pytest

    if not os.path.exists("/proc/self/smaps"):
        pytest.skip("no /proc/self/smaps here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = TB.Tables(TB.build_unassigned())
    assert TB.store_tables(built)
    mapped = TB.map_cached_tables()
    before = TB.use_tables(mapped)
    try:
        assert int(mapped.bits.sum(dtype=np.int64)) == int(built.bits.sum(dtype=np.int64))
        path = TB.tables_cache_path()
        touched = _resident_kib(path)
        assert touched > 1000
        assert TB.release_pages()
        assert _resident_kib(path) < touched // 10
        assert np.array_equal(mapped.bits, built.bits)   # read back from the file
    finally:
        TB.use_tables(before)
    TB.use_tables(None)
    try:
        assert not TB.release_pages()   # nothing mapped: nothing to drop
    finally:
        TB.use_tables(before)
