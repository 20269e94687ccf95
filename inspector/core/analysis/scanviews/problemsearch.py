"""The search for the next or previous problem from the cursor (Go > Next/Previous
problem), as a generator a worker runs, and the words the window says about the problem
found.
"""

from __future__ import annotations

from typing import Callable

from inspector.core.scan import navigation
from inspector.core.units.interpretation import interpretation
from inspector.core.units import kinds as K


def problem_search_steps(source, cursor: int, origin, dialect: str, index, forward: bool,
                         cancelled: Callable[[], bool]):
    """A generator (for a worker) that returns the next (previous) problem unit after
    (before) the unit under ``cursor``, or None. ``index``: the scan's block index, which
    lets the search skip clean blocks (None: every byte is cut)."""
    func = navigation.next_problem if forward else navigation.previous_problem
    here = interpretation(dialect).unit_at(source, cursor, origin)
    found = func(source, cursor, dialect, origin, kinds=None, index=index, cancel=cancelled)
    # Whatever the search counts from, the unit under the cursor is not "next".
    if found is not None and here is not None and found.offset == here.offset:
        again = here.end if forward else here.offset - 1
        found = None if again < 0 or again >= source.size else func(
            source, again, dialect, origin, kinds=None, index=index, cancel=cancelled)
    return found
    yield  # pragma: no cover - a generator


def describe_problem(unit) -> str:
    """A note on a problem found: where it is and what (the kind's title, or its
    warnings')."""
    if unit.is_error:
        what = K.title(unit.kind)
    else:
        what = ", ".join(K.title(w) for w in unit.warnings)
    return f"problem at 0x{unit.offset:X}: {what}"
