"""A scan and then its verdict, as one cancellable generator: what the window's
background worker runs, so that the verdict (charset-normalizer and ftfy read samples,
up to ~0.2 s) is worked out off the user interface's thread and carried by the result.

The scan knows nothing of verdicts; this module composes the two.
"""

from __future__ import annotations

from inspector.core.analysis import verdict as verdict_module
from inspector.core.scan.scanner import background_scan_steps
from inspector.core.units import kinds as K


def judged_scan_steps(source, dialect: str = K.UTF8, **options):
    """:func:`~inspector.core.scan.scanner.background_scan_steps`, then one more step
    (yielding None) in which the verdict is worked out and set on the finished result."""
    steps = background_scan_steps(source, dialect, **options)
    try:
        while True:
            step = next(steps)
            # Shown as it fills: a result already complete must not be judged there.
            if step is not None and step.result is not None:
                step.result.verdict_pending = True
            yield step
    except StopIteration as stop:
        result = stop.value
    finally:
        steps.close()
    yield None
    try:
        result.verdict = verdict_module.verdict(result, source)
    except Exception:
        # The counts stand without it: whoever shows the result judges it again, and
        # meets the failure there, where it is reported.
        result.verdict = None
    finally:
        result.verdict_pending = False
    return result
