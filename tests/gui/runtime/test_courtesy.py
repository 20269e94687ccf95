"""The background scan gives way to the user: between two steps it waits until the user
has been still for a moment (a fake clock, no real waiting)."""

from __future__ import annotations

import os

from inspector.gui.runtime.courtesy import UserActivity, courteous


class FakeClock:
    def __init__(self):
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def job(log):
    for i in range(3):
        log.append(i)
        yield i
    return "done"


def drain(gen):
    values = []
    while True:
        try:
            values.append(next(gen))
        except StopIteration as stop:
            return values, stop.value


def test_a_still_user_costs_nothing():
    clock = FakeClock()
    activity = UserActivity(0.15, clock, clock.sleep)
    assert drain(courteous(job([]), activity)) == ([0, 1, 2], "done")
    assert clock.slept == []


def test_steps_wait_until_the_user_is_still():
    clock = FakeClock()
    activity = UserActivity(0.15, clock, clock.sleep)
    log = []
    gen = courteous(job(log), activity)
    assert next(gen) == 0
    activity.touch()          # the user moves
    clock.now += 0.05
    assert next(gen) == 1     # ran only after the quiet period
    assert abs(sum(clock.slept) - 0.10) < 1e-9
    assert clock.now >= activity.last + 0.15


def test_endless_activity_slows_the_work_but_does_not_stop_it():
    clock = FakeClock()

    class Restless(UserActivity):
        def busy_for(self):
            return self.quiet   # always busy

    activity = Restless(0.15, clock, clock.sleep)
    values, result = drain(courteous(job([]), activity))
    assert (values, result) == ([0, 1, 2], "done")
    # About a minute of waiting before each of the four calls (three steps and the
    # return).
    assert 4 * 59.9 < sum(clock.slept) < 4 * 60.1


def test_cancel_ends_the_wait_and_closes_the_job():
    clock = FakeClock()
    activity = UserActivity(10.0, clock, clock.sleep)
    closed = []

    def steps():
        try:
            yield 1
            yield 2
        finally:
            closed.append(True)

    cancel = []
    gen = courteous(steps(), activity, lambda: bool(cancel))
    assert next(gen) == 1
    activity.touch()
    cancel.append(True)
    # No wait once cancelled, and not one more step: a cancelled scan's next step (the
    # first builds the scanner's tables) once ran while the user was busy with the
    # file that replaced it.
    assert drain(gen) == ([], None)
    assert clock.slept == []
    assert closed == [True]


def test_the_window_marks_navigation_as_activity(opened):
    w = opened(b"abc" * 100)
    w.user_activity.forget()
    assert w.user_activity.busy_for() == 0
    w.go_to(50)
    assert w.user_activity.busy_for() > 0


def test_opening_and_painting_are_activity_too(opened, write_file, qtbot):
    w = opened(b"abc" * 100)
    activity = w.user_activity
    for pane in (w.hex_view, w.text_view):
        activity.forget()
        pane.viewport().repaint()
        assert activity.busy_for() > 0, pane.objectName()
    activity.forget()
    w.status_fields.verdict.repaint()  # the scan's own progress repaints never stall it
    assert activity.busy_for() == 0
    assert w.files.open_file(write_file(b"xyz" * 10, "other.bin"))
    assert activity.busy_for() > 0


def test_the_window_scans_in_short_steps(opened, qtbot, monkeypatch):
    """The window's scan is the background form: tables built in steps, small windows."""
    from inspector.core.analysis import judgedscan

    calls = []
    real = judgedscan.background_scan_steps
    monkeypatch.setattr(judgedscan, "background_scan_steps",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    w = opened(b"abc" * 100)
    qtbot.waitUntil(lambda: w.document.scan is not None and w.document.scan.complete, timeout=10_000)
    assert calls


def test_a_qt_application_never_forks_a_scan(qapp):
    """Qt's own threads are seen as threads: a pool started from the window's process
    would not fork it."""
    from inspector.core.scan import parallel as parallelscan

    if os.path.isdir("/proc/self/task") and len(os.listdir("/proc/self/task")) > 1:
        assert parallelscan.start_method() != "fork"


def test_the_window_scans_in_one_process(opened, qtbot, monkeypatch):
    """The window passes its policy in: its scan asks for no process."""
    from inspector.core.analysis import judgedscan

    asked = []
    real = judgedscan.background_scan_steps
    monkeypatch.setattr(judgedscan, "background_scan_steps",
                        lambda *a, **k: asked.append(k.get("workers")) or real(*a, **k))
    w = opened(b"abc" * 100)
    qtbot.waitUntil(lambda: w.document.scan is not None and w.document.scan.complete, timeout=10_000)
    assert asked and all(n == 1 for n in asked)


def test_the_verdict_is_worked_out_off_the_ui_thread(opened, qtbot, monkeypatch):
    """charset-normalizer and ftfy take up to ~0.2 s: the scan's worker asks them."""
    import threading

    from inspector.core.analysis import verdict as verdict_module

    threads = []
    real = verdict_module.verdict

    def spy(result, source):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(result, source)

    monkeypatch.setattr(verdict_module, "verdict", spy)
    w = opened(("Ça va très bien, merci! " * 400).encode("latin-1"))
    w.statistics_dock.show()

    def judged():
        v = w.document.verdict
        return v is not None and w.status_fields.verdict.text() == v.text
    qtbot.waitUntil(judged, timeout=10_000)
    assert w.document.verdict.code == "legacy_charset"
    assert threads and not any(threads)
