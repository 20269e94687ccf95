"""Cyclic garbage collection at moments the user does not feel.

Python's collector runs whenever enough objects have been allocated, which in this
program means in the middle of a jump or a repaint (a page of units is thousands of
objects), and a pass over the older generations stops the UI thread for tens of
milliseconds. Almost everything here is freed by reference counting; the collector is
only needed for the few reference cycles. So, while the window runs, automatic
collection is off and :class:`IdleCollector` collects from a timer on the UI thread:
young and middle generations once the user has been still for a moment, the whole heap
now and then when still, and during a long burst of activity a young pass whenever
allocations pile up, now and then one generation up (so memory stays bounded even if
the user never pauses).
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

from inspector.gui.runtime.courtesy import UserActivity


class IdleCollector(QObject):
    TICK_MS = 500
    STILL_FOR = 0.5          # seconds without navigation before collecting
    FULL_EVERY = 30.0        # seconds between two whole-heap passes (when still)
    # Pending allocations that force a young pass while busy: a pass costs ~0.6 ms per
    # thousand objects here, and lands inside a jump, so passes are kept short (a page
    # of units is ~5,000 objects; caches fill up to ~100,000).
    YOUNG_LIMIT = 15_000
    # During a burst, every OLDER_EVERY-th forced pass takes the middle generation too,
    # every WHOLE_EVERY-th the whole heap (~25 ms after 600 jumps: startup's objects
    # are frozen, see app.settle_memory).
    OLDER_EVERY = 10
    WHOLE_EVERY = 100

    def __init__(self, activity: UserActivity, parent: QObject | None = None):
        super().__init__(parent)
        self.activity = activity
        self.passes = {0: 0, 1: 0, 2: 0}   # counts by generation (tests, benchmarks)
        self._last_full = time.monotonic()
        self._busy_passes = 0
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(self.TICK_MS)
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def still(self) -> bool:
        return self.activity.busy_for() == 0 and \
            time.monotonic() - self.activity.last >= self.STILL_FOR

    def tick(self) -> None:
        if self.still():
            gc.collect(1)
            self.passes[1] += 1
            if time.monotonic() - self._last_full >= self.FULL_EVERY:
                gc.collect(2)
                self.passes[2] += 1
                self._last_full = time.monotonic()
        elif gc.get_count()[0] >= self.YOUNG_LIMIT:
            # A long burst: young passes, and now and then an older generation (as
            # Python itself would), so that the cycles made during minutes of
            # navigation are freed too.
            self._busy_passes += 1
            generation = 0
            if self._busy_passes % self.OLDER_EVERY == 0:
                generation = 2 if self._busy_passes % self.WHOLE_EVERY == 0 else 1
            gc.collect(generation)
            self.passes[generation] += 1

    def stop(self) -> None:
        """Back to Python's own collection."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()


def install(window) -> IdleCollector:
    """Collect garbage when ``window``'s user is still (its ``user_activity``)."""
    collector = IdleCollector(window.user_activity, window)
    window.gc_collector = collector
    window.destroyed.connect(lambda *_: gc.enable())
    return collector
