"""The background scan gives way to the user: between two steps it waits until the user
has been still for a moment (a fake clock, no real waiting)."""

from __future__ import annotations

from inspector.gui.courtesy import UserActivity, courteous


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
    assert clock.now >= activity._last + 0.15


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
    assert next(gen) == 2       # no wait once cancelled; the worker then stops asking
    assert clock.slept == []
    gen.close()
    assert closed == [True]


def test_the_window_marks_navigation_as_activity(opened):
    w = opened(b"abc" * 100)
    w.user_activity._last = float("-inf")
    assert w.user_activity.busy_for() == 0
    w.go_to(50)
    assert w.user_activity.busy_for() > 0
