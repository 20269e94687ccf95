"""The scan on several processes equals the scan in one: every count, the first errors
and every array of the index, with task edges falling inside every kind of unit."""

import multiprocessing
import os
import random
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from inspector.core.units import kinds as K
from inspector.core.scan import parallel as parallelscan
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.scan.scanner import scan, scan_steps

ARRAYS = ("units", "errors", "warnings", "replacements", "error_bytes", "binary", "first_problem")

# Sequences of every kind the spec names, valid and not, that a task edge can cut.
PIECES = [b"a", b"\n", b"\x00", b"\x07", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
          b"\x80", b"\xbf\xbf", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80",
          b"\xed\xa0\x80\xed\xb0\x80", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf4\x90\x80\x80",
          b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xfe", b"\xff",
          b"\xef\xbb\xbf", b"\xe2\x80\xae", b"\xef\xbf\xbe"]


@pytest.fixture
def small_tasks(monkeypatch):
    """Tasks of one 64-byte block, parallel from the first byte: every edge is tested."""
    monkeypatch.setattr(parallelscan, "TASK_BYTES", 64)
    monkeypatch.setattr(parallelscan, "MIN_PARALLEL_BYTES", 0)


def same(a, b) -> None:
    assert a.to_dict() == b.to_dict()
    assert a.first_errors == b.first_errors
    assert a.short_read == b.short_read
    for name in ARRAYS:
        assert np.array_equal(getattr(a.index, name), getattr(b.index, name)), name


def both(path, **kw):
    kw.setdefault("block_size", 64)
    with FileSource(path) as src:
        return scan(src, workers=1, **kw), scan(src, workers=2, **kw)


def write(tmp_path, data: bytes, name="data.bin"):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_usable_only_for_large_utf8_scans_of_files(tmp_path):
    path = write(tmp_path, b"x")
    big = parallelscan.MIN_PARALLEL_BYTES
    with FileSource(path) as src:
        assert parallelscan.usable(src, 2, big, K.UTF8)
        assert not parallelscan.usable(src, 1, big, K.UTF8)
        assert parallelscan.usable(src, 1, big, K.UTF8, executor=object())
        assert not parallelscan.usable(src, 2, big - 1, K.UTF8)
        assert not parallelscan.usable(src, 2, big, K.CESU8)
    assert not parallelscan.usable(MemorySource(b"x"), 2, big, K.UTF8)
    # A second thread in the process: forking would be unsafe, another start method it is.
    if parallelscan.single_threaded():   # native threads too (OpenBLAS's, Qt's)
        assert parallelscan.start_method() == "fork"
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert parallelscan.start_method() in ("forkserver", "spawn")
        with FileSource(path) as src:
            assert parallelscan.usable(src, 2, big, K.UTF8)
    finally:
        stop.set()
        t.join()


def test_every_kind_across_every_task_edge(tmp_path, small_tasks):
    # Each piece placed so that it starts at each of the 6 bytes before a block edge.
    parts = []
    for piece in PIECES:
        for shift in range(1, 7):
            pad = (64 - shift - sum(map(len, parts))) % 64
            parts.append(b"." * pad + piece)
    data = b"".join(parts) + b"\xe2\x82"  # ends in a truncated unit at the stream's end
    a, b = both(write(tmp_path, data), max_errors=10_000)
    same(a, b)
    assert a.error_units > 50


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES), max_size=400), st.integers(0, 2**32 - 1))
def test_random_mixes_equal_one_process(tmp_path, small_tasks, pieces, seed):
    data = b"".join(pieces)
    rng = random.Random(seed)
    start = rng.randrange(len(data) + 1)
    end = rng.randrange(start, len(data) + 1)
    origin = rng.randrange(len(data) + 1) if data and rng.random() < 0.5 else None
    path = write(tmp_path, data)
    for kw in ({}, {"start": start, "end": end}, {"origin": origin}):
        a, b = both(path, max_errors=rng.choice([0, 3, 1000]), **kw)
        same(a, b)


def test_random_bytes_and_sha256(tmp_path, monkeypatch):
    monkeypatch.setattr(parallelscan, "TASK_BYTES", 1 << 16)
    monkeypatch.setattr(parallelscan, "MIN_PARALLEL_BYTES", 0)
    data = os.urandom(3 << 20)
    threads = threading.active_count()
    a, b = both(write(tmp_path, data), block_size=None)
    same(a, b)
    assert threading.active_count() == threads  # the pool's threads are gone too
    import hashlib

    assert b.sha256 == hashlib.sha256(data).hexdigest()


def test_progress_is_in_order_and_reaches_the_end(tmp_path, small_tasks):
    data = "é".encode() * 2000
    with FileSource(write(tmp_path, data)) as src:
        steps = scan_steps(src, workers=2, block_size=64)
        done = []
        try:
            while True:
                done.append(next(steps).done)
        except StopIteration as stop:
            result = stop.value
    assert done == sorted(done) and done[-1] == len(data)
    assert len(done) > 10  # one step per task
    assert result.complete and result.valid


def test_closing_the_scan_stops_the_children(tmp_path, small_tasks):
    with FileSource(write(tmp_path, b"a" * 100_000)) as src:
        steps = scan_steps(src, workers=2, block_size=64)
        next(steps)
        assert multiprocessing.active_children()
        steps.close()
    assert not multiprocessing.active_children()


def test_one_process_unless_the_caller_asks(tmp_path, monkeypatch):
    """Starting processes is the caller's choice: the default scan stays in this
    process, ``workers=None`` means one per core, and small files never use slices."""
    calls = []
    real = parallelscan.segment
    monkeypatch.setattr(parallelscan, "segment", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(parallelscan, "TASK_BYTES", 1 << 16)
    path = write(tmp_path, b"x" * (300 << 10))
    with FileSource(path) as src:
        scan(src, workers=None)  # below MIN_PARALLEL_BYTES
        assert calls == []
        monkeypatch.setattr(parallelscan, "MIN_PARALLEL_BYTES", 0)
        monkeypatch.setattr(parallelscan, "default_workers", lambda: 2)
        scan(src)  # the default: this process only
        assert calls == []
        scan(src, workers=None)  # one per core, asked for
        assert calls == [1]


def test_the_core_looks_up_no_qt_state():
    """Whoever starts work says what it may start: nothing in the core asks whether a
    Qt application runs (a pytest-qt application living through the run made the
    command line's tests depend on their order)."""
    import pathlib

    core = pathlib.Path(parallelscan.__file__).parents[1]
    for path in core.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in ("QCoreApplication", "PySide6", "QApplication"):
            assert word not in text, (path, word)


def test_a_process_with_native_threads_is_not_forked():
    """A thread Python does not know of (Qt's, a library's) rules the fork out."""
    import threading

    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert not parallelscan.single_threaded()
        assert parallelscan.start_method() != "fork"
    finally:
        stop.set()
        t.join()


def test_file_shrunk_after_opening_is_a_short_read(tmp_path, small_tasks):
    path = write(tmp_path, "ü".encode() * 5000)
    with FileSource(path) as src:
        os.truncate(path, 3001)  # mid-unit
        one = scan(src, workers=1, block_size=64)
        many = scan(src, workers=2, block_size=64)
    assert one.short_read and many.short_read
    same(one, many)


def test_unreadable_task_is_a_clear_error(tmp_path, small_tasks, monkeypatch):
    from inspector.core.source.bytesource import ByteSourceError

    real_pread = os.pread

    def failing_in_tasks(fd, length, offset):
        if threading.current_thread() is not threading.main_thread():
            raise OSError(5, "Input/output error")
        return real_pread(fd, length, offset)

    monkeypatch.setattr(os, "pread", failing_in_tasks)
    # The tasks on threads of this process: their reads fail (this thread's do not),
    # whatever start method a process pool would use.
    from concurrent.futures import ThreadPoolExecutor

    with FileSource(write(tmp_path, b"a" * 1000)) as src, ThreadPoolExecutor(2) as ex:
        with pytest.raises(ByteSourceError, match="Input/output error"):
            scan(src, workers=1, block_size=64, executor=ex)
