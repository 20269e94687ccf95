"""Garbage collection while the window runs: off during navigation, done when the user
is still, forced young passes if allocations pile up during a long burst."""

from __future__ import annotations

import gc

import pytest

from inspector.gui.runtime import gcpolicy


@pytest.fixture
def ticked_by_hand(monkeypatch):
    """The collectors made in the test tick only when the test calls ``tick()``."""
    monkeypatch.setattr(gcpolicy.IdleCollector, "TICK_MS", 2**31 - 1)


def test_collects_when_still_and_only_young_passes_while_busy(opened, ticked_by_hand):
    w = opened(b"abc" * 100)
    collector = gcpolicy.install(w)
    try:
        assert not gc.isenabled()
        w.user_activity.forget()
        assert collector.still()
        collector.FULL_EVERY = 0
        collector.tick()
        assert collector.passes[1] == 1 and collector.passes[2] == 1

        w.go_to(10)                       # the user moves: busy
        assert not collector.still()
        collector.YOUNG_LIMIT = 10**9
        collector.tick()
        assert collector.passes == {0: 0, 1: 1, 2: 1}
        collector.YOUNG_LIMIT = 1
        junk = [[] for _ in range(100)]   # allocations pending for the collector
        collector.tick()
        assert collector.passes[0] == 1
        burst = collector.WHOLE_EVERY
        for _ in range(burst - 1):         # a long burst: older generations too
            junk.append([[] for _ in range(5)])
            collector.tick()
        older = burst // collector.OLDER_EVERY
        assert collector.passes[0] == burst - older
        assert collector.passes[1] == 1 + older - 1 and collector.passes[2] == 1 + 1
        del junk
    finally:
        collector.stop()
    assert gc.isenabled()


def test_a_cycle_made_during_activity_is_freed_at_the_next_still_tick(opened, ticked_by_hand):
    import weakref

    w = opened(b"xyz" * 10)
    collector = gcpolicy.install(w)
    try:

        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        del a, b
        assert alive() is not None        # automatic collection is off
        w.user_activity.forget()
        collector.tick()
        assert alive() is None
    finally:
        collector.stop()
