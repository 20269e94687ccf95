"""The window's background scan: the scan in short steps, then its verdict."""


from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K


def test_background_scan_builds_the_tables_in_steps_and_equals_the_scan(monkeypatch, tmp_path,
                                                                        forgotten_tables):
    import numpy as np


    from inspector.core.scan import tables as KR
    from inspector.core.scan.scanner import BACKGROUND_WINDOW

    built = KR.tables()
    KR.use_tables(None)  # as in a process that never scanned (the fixture puts them back)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # and had no cached table: steps
    data = ("naïve ☕ \U0001F600 \u0378 \x00 ".encode() + b"\xc0\xaf\xff") * 40_000
    assert len(data) > 3 * BACKGROUND_WINDOW
    steps = judged_scan_steps(MemorySource(data))
    values = []
    try:
        while True:
            values.append(next(steps))
    except StopIteration as stop:
        result, judged = stop.value
    n_tables = -(-0x110000 // KR.UNASSIGNED_SLICE)
    assert values[:n_tables] == [None] * n_tables  # the tables, a slice a step
    assert all(v is not None for v in values[n_tables:-1])
    assert values[-1] is None  # then the verdict, a step of its own
    assert len(values) - n_tables >= 5  # small windows: several steps for ~1 MiB
    assert judged is not None and judged.code == "problems"
    assert np.array_equal(KR.tables().bits, built.bits)
    assert result.to_dict() == scan(MemorySource(data)).to_dict()
    assert result.warnings_by_kind[K.UNASSIGNED] == 40_000


def test_background_scan_keeps_its_counts_when_the_verdict_fails(monkeypatch):
    from inspector.core.analysis import verdict as verdict_module

    def broken(result, source):
        raise RuntimeError("charset detection broke")

    monkeypatch.setattr(verdict_module, "verdict", broken)
    steps = judged_scan_steps(MemorySource(b"abc \xff"))
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        result, judged = stop.value
    assert result.complete and result.error_units == 1
    assert judged is None
