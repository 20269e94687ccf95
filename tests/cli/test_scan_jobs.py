"""`scan --jobs N` over a tree (files in tasks, a large file in slices, on one
executor) gives the reports of `--jobs 1`; the tasks run on any start method."""

import json
import random

import pytest

from inspector.cli import scan as S
from inspector.core.analysis import batch as BA
from inspector.core.scan import corpus as CO
from inspector.core.scan import parallel as PS

# What may differ between two runs of the same scan.
VOLATILE = ("generated",)


def comparable(report: dict) -> dict:
    r = {k: v for k, v in report.items() if k not in VOLATILE}
    if "scan" in r:
        r["scan"] = {k: v for k, v in r["scan"].items() if k != "seconds"}
    return r


def make_tree(root, n=40, seed=7, big=0):
    rng = random.Random(seed)
    words = ["plain ", "café ", "Привет ", "日本語 ", "😀 ", "\t", "\n", "\x01", "\u200b"]
    for i in range(n):
        d = root / f"d{i % 3}"
        d.mkdir(exist_ok=True)
        data = "".join(rng.choice(words) for _ in range(rng.randint(0, 400))).encode()
        if i % 5 == 1:
            b = bytearray(data or b"x")
            b[rng.randrange(len(b))] = 0xFF
            data = bytes(b)
        elif i % 7 == 2:
            data = rng.randbytes(rng.randint(1, 3000))
        (d / f"f{i:03d}.txt").write_bytes(data)
    if big:
        piece = "Ünïcödé text 😀\n".encode() * 1000 + b"\xc3(\xff\n"
        (root / "big.txt").write_bytes(piece * (big // len(piece) + 1))


def run_jsonl(capsys, args):
    status = S.main(["--jsonl", *args])
    return status, [comparable(json.loads(x)) for x in capsys.readouterr().out.splitlines()]


@pytest.fixture
def slices(monkeypatch):
    """Large files from 256 KiB on, in slices of 64 KiB."""
    monkeypatch.setattr(PS, "MIN_PARALLEL_BYTES", 256 << 10)
    monkeypatch.setattr(PS, "TASK_BYTES", 64 << 10)
    monkeypatch.setattr(BA, "BATCH_FILES", 3)


def test_jobs_2_equals_jobs_1(tmp_path, capsys, slices, monkeypatch):
    make_tree(tmp_path, big=600 << 10)
    one = run_jsonl(capsys, ["--jobs", "1", str(tmp_path)])
    cut = []
    real = PS.segment
    monkeypatch.setattr(PS, "segment", lambda *a: cut.append(a[-1]) or real(*a))
    two = run_jsonl(capsys, ["--jobs", "2", str(tmp_path)])
    assert len(cut) == 1 and cut[0] is not None  # the big file: slices on the run's pool
    assert one == two
    assert len(one[1]) == 41 and one[0] == 1
    big = [r for r in one[1] if r["path"].endswith("big.txt")][0]
    assert big["errors"]["total"] > 20 and big["sha256"]


def test_pool_only_when_it_pays(tmp_path, capsys, monkeypatch):
    make_tree(tmp_path, n=3)
    pools, tasks = [], []
    real = PS.process_pool

    def recording(jobs, *rest):
        pool = real(jobs, *rest)
        submit = pool.submit
        pool.submit = lambda fn, paths, *a: tasks.append(paths) or submit(fn, paths, *a)
        pools.append(jobs)
        return pool

    monkeypatch.setattr(PS, "process_pool", recording)
    here = run_jsonl(capsys, [str(tmp_path)])
    assert pools == []  # a few small files: a pool would cost more than it saves
    assert run_jsonl(capsys, ["--jobs", "1", str(tmp_path)]) == here and pools == []
    assert run_jsonl(capsys, ["--jobs", "2", str(tmp_path)]) == here and pools == [2]
    assert sum(len(paths) for paths in tasks) == 3  # the small files ran on the pool


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_tasks_run_on_any_start_method(tmp_path, slices, method):
    """Nothing inherited: files and slices run in interpreters started afresh."""
    make_tree(tmp_path, n=8, big=300 << 10)
    entries = list(CO.walk([str(tmp_path)]))
    options = BA.Options()
    here = [comparable(r) for _, r in BA.reports(entries, options)]
    with PS.process_pool(2, method) as pool:
        def run_here(e):
            return BA.report_path(e.path, options, 1, executor=pool)
        there = [comparable(r) for _, r in BA.reports(
            entries, options, pool, lambda e: e.size >= PS.MIN_PARALLEL_BYTES, run_here=run_here)]
    assert here == there


def test_stdin_in_slices(tmp_path, slices, monkeypatch):
    data = ("été 😀\n".encode() * 50000) + b"\xff"
    with CO.SpooledInput(__import__("io").BytesIO(data)) as src:
        one = BA.report_source(src, CO.STDIN, BA.Options(), workers=1)
        two = BA.report_source(src, CO.STDIN, BA.Options(), workers=2)
    assert comparable(one) == comparable(two) and one["errors"]["total"] == 1


def test_a_finished_run_waits_for_its_workers(tmp_path, monkeypatch, capsys):
    """shutdown(wait=False) at the end of a whole run let the interpreter's exit hook
    write to the pool's closed pipe now and then (``OSError: Bad file descriptor``)."""
    make_tree(tmp_path, n=12)
    calls = []
    made = PS.process_pool

    def recording(jobs, *rest):
        executor = made(jobs, *rest)
        real = executor.shutdown

        def shutdown(wait=True, cancel_futures=False):
            calls.append((wait, cancel_futures))
            real(wait=wait, cancel_futures=cancel_futures)
        executor.shutdown = shutdown
        return executor

    monkeypatch.setattr(PS, "process_pool", recording)
    S.main(["--jsonl", "--jobs", "2", str(tmp_path)])
    assert calls == [(True, False)]
    assert len(capsys.readouterr().out.splitlines()) == 12
