"""Each Linux-only call has a working fallback (only Linux runs here, so the other
systems are played by taking the call away): pread, O_NOATIME, /proc, fork,
sched_getaffinity, fchmod. (malloc_trim's fallback is in tests/gui/runtime.)"""

import multiprocessing
import os
import stat
import sys

import pytest

from inspector.core.analysis import repair
from inspector.core.scan import parallel
from inspector.core.source import safewrite
from inspector.core.source.bytesource import FileSource

DATA = bytes(range(256)) * 300 + "€ end".encode()


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "sample.bin"
    path.write_bytes(DATA)
    return path


def test_reads_without_pread_are_the_same(sample, monkeypatch):
    with FileSource(sample) as src:
        expected = [src.read(0, 10), src.read(70_000, 5000), src.read_uncached(100, 1 << 20),
                    src.read(len(DATA) - 3, 100)]
    monkeypatch.delattr(os, "pread")
    with FileSource(sample) as src:
        got = [src.read(0, 10), src.read(70_000, 5000), src.read_uncached(100, 1 << 20),
               src.read(len(DATA) - 3, 100)]
    assert got == expected
    assert got[3] == DATA[-3:]


def test_opens_without_o_noatime(sample, monkeypatch):
    monkeypatch.delattr(os, "O_NOATIME", raising=False)
    with FileSource(sample) as src:
        assert src.read(0, 4) == DATA[:4]


def test_repair_without_fchmod_and_without_proc(sample, tmp_path, monkeypatch):
    def no_proc(*args, **kwargs):
        raise FileNotFoundError("/proc/self/status")

    monkeypatch.setattr(safewrite, "open", no_proc, raising=False)
    safewrite.write_atomic(tmp_path / "usual.txt", "x")  # no /proc to read the umask from
    assert stat.S_IMODE(os.stat(tmp_path / "usual.txt").st_mode) == 0o644  # the usual 022
    monkeypatch.delattr(os, "fchmod", raising=False)
    target = tmp_path / "copy.txt"
    with FileSource(sample) as src:
        summary = repair.repair_file(src, target)
    assert target.read_bytes() == DATA.decode("utf-8", "replace").encode()
    assert summary.bytes_in == len(DATA)


def test_parallel_scan_without_fork_or_off_linux(sample, monkeypatch):
    with FileSource(sample) as src:
        monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
        assert parallel.usable(src, 2, len(DATA), "utf-8")  # (Linux's fork: tests/core/scan)
        monkeypatch.setattr(sys, "platform", "darwin")
        assert parallel.usable(src, 2, len(DATA), "utf-8")  # the tasks need no fork
        assert parallel.start_method() in ("forkserver", "spawn")
        monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
        assert parallel.start_method() == "spawn"


def test_cores_without_sched_getaffinity(monkeypatch):
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert parallel.default_workers() == max(1, os.cpu_count() or 1)
