"""The search for the next or previous problem from the cursor (no Qt), with and
without the scan's index, and the note said about a problem found."""

from __future__ import annotations

import pytest

from inspector.core.analysis.scanviews.problemsearch import describe_problem, problem_search_steps
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit

DATA = (b"clean text " * 300 + b"\xc0\xaf" + b" more " * 200 + "\u200b".encode()
        + b" tail " * 300 + b"\xff" + b" end")


def run(steps):
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def problems(data=DATA):
    """The units the search stops at: errors (a warned unit is passed by)."""
    return [u for u in decoder.cut(data) if u.is_error]


@pytest.mark.parametrize("with_index", [False, True])
def test_next_and_previous_step_through_every_problem(with_index):
    source = MemorySource(DATA)
    index = scanner.scan(source, block_size=1024).index if with_index else None
    want = problems()
    assert len(want) == 2

    def search(cursor, forward):
        return run(problem_search_steps(source, cursor, None, K.UTF8, index, forward,
                                        lambda: False))
    assert search(0, True) == want[0]
    # The unit under the cursor is never "next": from each problem the search moves on.
    assert [search(u.offset, True) for u in want] == want[1:] + [None]
    assert [search(u.offset, False) for u in want] == [None] + want[:-1]
    assert search(len(DATA) - 1, False) == want[-1]
    # From inside a problem unit too.
    assert search(want[0].offset + 1, True) == want[1]
    assert search(want[0].end + 5, True) == want[1]  # past the zero-width space


def test_the_search_cuts_in_the_dialect_asked():
    data = b"a" * 100 + b"\xed\xa0\xbd\xed\xb8\x80" + b"b" * 100 + b"\xed\xa0\x80"
    source = MemorySource(data)
    found = run(problem_search_steps(source, 0, None, K.CESU8, None, True, lambda: False))
    assert found.offset == 206 and found.kind == K.SURROGATE  # the pair is valid there
    found = run(problem_search_steps(source, 0, None, K.UTF8, None, True, lambda: False))
    assert found.offset == 100


def test_a_problem_is_described_by_its_kind_or_warnings():
    assert describe_problem(Unit(0x2B4, 2, K.OVERLONG, 0x2F, 2)) == \
        "problem at 0x2B4: overlong form"
    warned = Unit(16, 3, K.VALID, 0x200B, 0, False, (K.ZERO_WIDTH,))
    assert describe_problem(warned) == "problem at 0x10: zero-width character"
