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
