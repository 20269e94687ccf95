"""The folder triage in a process pool (forkserver or spawn) gives the rows of the
in-thread triage, and leaves no process behind, finished, cancelled or broken."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from inspector.core.analysis import triage as TR

# What may differ between two runs of the same report.
VOLATILE = ("generated",)


def comparable(row: TR.TriageRow) -> tuple:
    r = {k: v for k, v in row.report.items() if k not in VOLATILE}
    if "scan" in r:
        r["scan"] = {k: v for k, v in r["scan"].items() if k != "seconds"}
    return row.relative, row.verdict_code, row.errors, row.first_offset, row.where, r


def descendants() -> set[int]:
    """Every process below this one (read from /proc: pool workers are the
    forkserver's children, not ours)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        parents[int(name)] = int(stat[stat.rindex(b")") + 2:].split()[1])
    found, todo = set(), [os.getpid()]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def settled(baseline: set[int], timeout: float = 5.0) -> set[int]:
    """The processes beyond ``baseline`` once they had ``timeout`` to go."""
    deadline = time.monotonic() + timeout
    while True:
        extra = descendants() - baseline
        if not extra or time.monotonic() > deadline:
            return extra
        time.sleep(0.05)


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc")


@pytest.fixture
def tree(tmp_path):
    top = tmp_path / "case"
    (top / "logs").mkdir(parents=True)
    (top / "a_clean.txt").write_bytes("all fine, café\n".encode() * 20)
    (top / "logs" / "b_bad.log").write_bytes(b"line one\nline two \xc0\xaf here\n")
    (top / "logs" / "c_latin1.txt").write_bytes("caf\xe9 na\xefve\n".encode("latin-1") * 30)
    (top / "logs" / "c_cp1252.txt").write_bytes("\u201cquoted\u201d \u20ac5\n".encode("cp1252") * 10)
    (top / "d_binary.bin").write_bytes(bytes(range(256)) * 40)
    (top / "e_empty.txt").write_bytes(b"")
    (top / "f_truncated.txt").write_bytes("日本語".encode()[:-1])
    (top / "g_utf16.txt").write_bytes("hello, wörld\n".encode("utf-16"))
    for i in range(40):
        (top / "many" / f"{i:03}.txt").parent.mkdir(exist_ok=True)
        (top / "many" / f"{i:03}.txt").write_bytes(f"row {i} \u00e9\n".encode() * (i + 1)
                                                   + (b"\xff" if i % 7 == 0 else b""))
    os.symlink(top / "a_clean.txt", top / "h_link")
    return top


def run(folder, **kw) -> list[TR.TriageRow]:
    steps = TR.triage_steps(folder, **kw)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def test_pool_gives_the_rows_of_the_thread(tree):
    here = run(str(tree))
    pool = TR.TriagePool(workers=2, min_files=0)
    there = run(str(tree), pool=pool)
    assert pool.used and pool.error is None
    assert [comparable(r) for r in there] == [comparable(r) for r in here]
    codes = {r.verdict_code for r in here}
    assert len(codes) >= 4 and TR.SKIPPED in codes
    assert any(r.problem for r in here) and not all(r.problem for r in here)


def test_small_folders_stay_in_the_thread(tree):
    pool = TR.TriagePool(min_files=10_000)
    rows = run(str(tree), pool=pool)
    assert not pool.used and pool.executor is None and len(rows) == 49


def test_a_pool_that_cannot_start_falls_back(tree, monkeypatch):
    from inspector.core.scan import parallel as PS

    def broken(*a, **k):
        raise OSError("no processes here")

    monkeypatch.setattr(PS, "isolated_pool", broken)
    pool = TR.TriagePool(min_files=0)
    rows = run(str(tree), pool=pool)
    assert not pool.used and isinstance(pool.error, OSError)
    assert [comparable(r) for r in rows] == [comparable(r) for r in run(str(tree))]


@needs_proc
def test_no_process_left_after_a_triage_or_a_halt(tree):
    run(str(tree), pool=TR.TriagePool(workers=2, min_files=0))  # the forkserver is up
    baseline = descendants()
    pool = TR.TriagePool(workers=2, min_files=0)
    steps = TR.triage_steps(str(tree), pool=pool)
    next(steps)
    next(steps)  # the pool has started and answered
    assert pool.used and len(descendants() - baseline) >= 1
    pool.halt(by_caller=True)  # from another thread, in the window: quick
    try:  # what was done before the halt comes; then the cancelled batches' error
        for _ in steps:
            pass
    except Exception:  # noqa: BLE001 - CancelledError or BrokenProcessPool
        pass
    assert settled(baseline) == set()
    # A pool that finishes leaves nothing either.
    run(str(tree), pool=TR.TriagePool(workers=2, min_files=0))
    assert settled(baseline) == set()


def hang_ignoring_sigterm(seconds: float) -> None:
    """A child's initializer: it never answers and shrugs off SIGTERM, as a child stuck
    in a script's window may (see ``test_an_unguarded_script``)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(seconds)


@pytest.fixture
def silent_pools(tree, monkeypatch):
    """Pools whose children hang before they answer; the memory of a pool that did not
    answer is forgotten after the test (else every later pool here would stay unused).
    Gives the processes below this one, the forkserver up."""
    from concurrent.futures import ProcessPoolExecutor

    from inspector.core.scan import parallel as PS

    run(str(tree), pool=TR.TriagePool(workers=2, min_files=0))
    baseline = descendants()

    def silent(workers, preload=(), nice=0):
        context = multiprocessing.get_context(PS.isolated_method())
        return ProcessPoolExecutor(workers, mp_context=context, initializer=hang_ignoring_sigterm,
                                   initargs=(60,))

    monkeypatch.setattr(PS, "isolated_pool", silent)
    monkeypatch.setattr(PS, "JOIN_GRACE", 0.5)
    TR.forget_unanswered_pools()
    yield baseline
    TR.forget_unanswered_pools()


@needs_proc
def test_a_pool_that_does_not_answer_falls_back(tree, silent_pools):
    baseline = silent_pools
    here = [comparable(r) for r in run(str(tree))]
    pool = TR.TriagePool(workers=2, min_files=0, answer_seconds=1)
    began = time.monotonic()
    rows = run(str(tree), pool=pool)
    assert time.monotonic() - began < 10  # 1 s, 0.5 s to die after SIGTERM, the triage
    assert not pool.used and pool.unanswered and isinstance(pool.error, TimeoutError)
    assert pool.reason == str(pool.error) == "worker processes did not answer within 1 s"
    assert [comparable(r) for r in rows] == here
    # Nothing left: the child that ignored SIGTERM was killed.
    assert multiprocessing.active_children() == []
    assert settled(baseline, 1.0) == set()

    # A later triage does not wait again.
    later = TR.TriagePool(workers=2, min_files=0, answer_seconds=30)
    began = time.monotonic()
    assert [comparable(r) for r in run(str(tree), pool=later)] == here
    assert time.monotonic() - began < 10
    assert not later.used and later.unanswered and "earlier" in later.reason
    assert settled(baseline, 1.0) == set()


@needs_proc
def test_a_halt_ends_the_wait_for_the_first_answer(tree, silent_pools):
    baseline = silent_pools
    pool = TR.TriagePool(workers=2, min_files=0, answer_seconds=60)
    cancel = threading.Event()
    done = threading.Event()
    threading.Thread(target=lambda: (run(str(tree), pool=pool, cancel=cancel.is_set),
                                     done.set()), daemon=True).start()
    deadline = time.monotonic() + 20
    while not pool.waiting and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.waiting
    time.sleep(0.2)  # the child is there, hanging
    cancel.set()
    began = time.monotonic()
    pool.halt(by_caller=True)  # the window's Cancel
    assert done.wait(10) and time.monotonic() - began < 5
    assert pool.error is None and not pool.reason and not pool.unanswered
    assert not TR.an_earlier_pool_did_not_answer()
    assert multiprocessing.active_children() == []
    assert settled(baseline, 1.0) == set()
