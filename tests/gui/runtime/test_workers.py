"""Workers let go of what they ran, and give freed memory back when they end.

The endurance benchmark (tests/benchmarks/bench_endurance.py) found every started
worker kept alive for good (QThreadPool took the QRunnable wrapper and never released
it), each holding its generator's closure; these tests pin down the fix without timing.
"""

from __future__ import annotations

import gc
import sys
import threading
import weakref

import pytest

from inspector.gui.runtime import workers


class Payload:
    """Stands for what a job's closure captures (a scan's block index)."""


def _run(worker: workers.GeneratorWorker, qtbot) -> None:
    with qtbot.waitSignal(worker.signals.done, timeout=10_000):
        workers.start(worker)
    assert worker.wait(10)


def test_ended_workers_are_released(qtbot):
    refs = []
    for _ in range(5):
        def steps():
            yield 1
            return 2

        w = workers.GeneratorWorker(steps, interval=0)
        _run(w, qtbot)
        refs.append(weakref.ref(w))
        del w
    # start() forgets the workers that have ended; run one more to prune the list.
    last = workers.GeneratorWorker(lambda: iter(()))
    _run(last, qtbot)
    workers.pool().waitForDone(10_000)
    # The workers' last signals are queued to this thread: once delivered, nothing holds them.
    qtbot.waitUntil(lambda: gc.collect() >= 0 and [r() for r in refs] == [None] * 5)


def _job_capturing(payload: Payload, holder: list):
    def steps():
        # The closure refers to the worker too (as MainWindow's searches do): a cycle.
        assert holder[0].is_cancelled() is False
        yield payload
        return None

    return steps


def test_what_the_job_captured_goes_when_it_ends_even_if_the_worker_stays(qtbot):
    payload = Payload()
    ref = weakref.ref(payload)
    holder: list = []
    w = workers.GeneratorWorker(_job_capturing(payload, holder), interval=0)
    holder.append(w)
    del payload
    assert ref() is not None  # the factory's closure holds it
    _run(w, qtbot)
    workers.pool().waitForDone(10_000)
    # Still referenced (holder, and the test), yet the factory and generator are gone.
    qtbot.waitUntil(lambda: ref() is None)
    assert holder[0] is w


def test_a_worker_runs_once():
    w = workers.GeneratorWorker(lambda: iter([1]))
    w.run()
    assert w.is_finished
    failures = []
    w.signals.failed.connect(failures.append)
    w.run()  # a second run reports a failure rather than running a stale factory
    assert "already run" in w.traceback
    assert len(failures) == 1


@pytest.mark.parametrize("how", ["finished", "failed", "cancelled"])
def test_a_worker_that_ends_gives_memory_back(qtbot, monkeypatch, how):
    workers.pool().waitForDone(10_000)   # earlier tests' workers end (and trim) first
    calls = []
    monkeypatch.setattr(workers, "malloc_trim", lambda pad: calls.append(pad) or 1)
    gate = threading.Event()

    def steps():
        if how == "cancelled":
            while True:
                gate.wait(0.01)
                yield 1
        yield 1
        if how == "failed":
            raise RuntimeError("boom")
        return "ok"

    w = workers.GeneratorWorker(steps, interval=0)
    seen = []
    getattr(w.signals, how).connect(lambda *a: seen.append(how))
    with qtbot.waitSignal(w.signals.done, timeout=10_000):
        workers.start(w)
        if how == "cancelled":
            w.cancel()
    assert seen == [how]
    assert calls == [0]  # malloc_trim(0): every arena, no padding kept


def test_a_worker_can_keep_its_memory(qtbot, monkeypatch):
    # Other workers of earlier tests may still end and trim meanwhile: only this
    # worker's own thread must not.
    trimmed_on, ran_on = [], []
    monkeypatch.setattr(workers, "malloc_trim",
                        lambda pad: trimmed_on.append(threading.get_ident()) or 1)

    def steps():
        ran_on.append(threading.get_ident())
        yield from (1, 2)

    w = workers.GeneratorWorker(steps, release_memory=False)
    _run(w, qtbot)
    assert ran_on and ran_on[0] not in trimmed_on


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_release_memory_reaches_the_c_library():
    if workers.malloc_trim is None:
        pytest.skip("not glibc")
    before = workers.trim_count
    assert workers.release_memory() is True
    assert workers.trim_count == before + 1


def test_release_memory_is_a_no_op_without_the_c_library(monkeypatch):
    monkeypatch.setattr(workers, "malloc_trim", None)
    assert workers.release_memory() is False


def test_exit_hook_stops_running_workers(qtbot):
    gate = threading.Event()
    started = threading.Event()

    def endless():
        while True:
            started.set()
            gate.wait(0.01)
            yield 1

    w = workers.GeneratorWorker(endless)
    workers.start(w)
    assert started.wait(10)
    workers.stop_running_workers(timeout=10)
    assert w.is_finished and w.is_cancelled()
    qtbot.wait(10)   # a negative check: its queued signals arrive without harm


def test_progress_is_published_in_the_workers_thread(qtbot):
    """``publish`` makes what progress carries, in the pool thread, for reported steps
    only; the return value is handed over as it is."""
    made_in = []

    def publish(step):
        made_in.append(threading.current_thread() is threading.main_thread())
        return ("copy of", step)

    def steps():
        yield 1
        yield 2
        return "done"

    worker = workers.GeneratorWorker(steps, interval=0, publish=publish)
    seen = []
    worker.signals.progress.connect(seen.append)
    with qtbot.waitSignal(worker.signals.finished, timeout=5000) as finished:
        workers.start(worker)
    assert seen == [("copy of", 1), ("copy of", 2)] and finished.args == ["done"]
    assert made_in == [False, False]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_mmap_threshold_can_be_fixed():
    if workers.malloc_trim is None:
        pytest.skip("not glibc")
    assert workers.fix_mmap_threshold() is True
