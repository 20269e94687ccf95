"""Background work that gives way to the user.

On a two-core machine a whole-file scan in a pool thread competes with the UI thread for
the CPU and for Python's GIL, and every step the user takes (a jump, a key held down, a
scroll) would run at half speed while it lasts. :class:`UserActivity` remembers when the
user last moved; :func:`courteous` runs a core generator step by step and, between two
steps, waits until the user has been still for a moment. A step is 256 KiB of
scanning (about a millisecond), so the scan steps aside within one step and goes on at
full speed as soon as the user pauses. Painting a pane counts as activity too (a resize,
an expose, a scroll), so a paint does not wait for the GIL behind a scan step either.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Generator

from PySide6.QtCore import QEvent, QObject


class UserActivity:
    """When the user last navigated (thread-safe enough: one float written by the UI
    thread, read by workers)."""

    def __init__(self, quiet: float = 0.15, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.quiet = quiet          # seconds of stillness before background work resumes
        self._last = float("-inf")
        self._clock = clock
        self._sleep = sleep

    def touch(self, *_args) -> None:
        self._last = self._clock()

    def forget(self) -> None:
        """Forget the last move: the user counts as still from now on."""
        self._last = float("-inf")

    @property
    def last(self) -> float:
        """When the user last moved (the clock's time; minus infinity if never)."""
        return self._last

    def busy_for(self) -> float:
        """Seconds left before the user counts as still (0 when still already)."""
        return max(0.0, self._last + self.quiet - self._clock())

    def wait_until_still(self, cancelled: Callable[[], bool] = lambda: False,
                         longest: float = 60.0) -> None:
        """Sleep (releasing the GIL) while the user is busy, but never more than
        ``longest`` seconds in all, so that endless activity slows the work and does not
        stop it. A minute: a step forced while the user is busy is felt, and nobody
        navigates without a pause for that long."""
        give_up = self._clock() + longest
        while not cancelled():
            left = self.busy_for()
            if left <= 0 or self._clock() >= give_up:
                return
            self._sleep(min(left, 0.05))


def courteous(steps: Generator[Any, None, Any], activity: UserActivity,
              cancelled: Callable[[], bool] = lambda: False) -> Generator[Any, None, Any]:
    """``steps`` (a core job's generator), pausing between its steps while the user is
    busy; returns what it returns."""
    try:
        while True:
            activity.wait_until_still(cancelled)
            if cancelled():
                # Not one more step: the wait ends at once on a cancel, and a step
                # taken then (the first builds the scanner's tables) ran while the
                # user was busy with the file that replaced this one.
                return None
            try:
                value = next(steps)
            except StopIteration as stop:
                return stop.value
            yield value
    finally:
        steps.close()


class PaintsAsActivity(QObject):
    """An event filter: every paint of the watched widgets (the panes' viewports) is
    activity. The panes repaint only for the user and the window (never for the scan's
    progress), so the scan does not stall itself."""

    def __init__(self, activity: UserActivity, widgets, parent: QObject | None = None):
        super().__init__(parent)
        self.activity = activity
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.activity.touch()
        return False
