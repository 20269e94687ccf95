"""A scan and then its verdict, as one cancellable generator: what the window's
background worker runs, so that the verdict (chardet and ftfy read samples,
up to ~0.2 s) is worked out off the user interface's thread and handed over with the
result, once, when both are done.

The scan knows nothing of verdicts; this module composes the two. The verdict is never
written onto the result: the result is the scan layer's, the verdict this layer's.
"""

from __future__ import annotations

from typing import NamedTuple

from inspector.core.analysis import verdict as verdict_module
from inspector.core.scan.results import ScanResult
from inspector.core.scan.scanner import background_scan_steps
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation


class JudgedScan(NamedTuple):
    """A finished scan and its verdict (None when judging failed: whoever shows the
    result judges it again, and meets the failure there, where it is reported)."""
    result: ScanResult
    verdict: "verdict_module.Verdict | None"


def judged_scan_steps(source, dialect: str = K.UTF8, known_verdict=None, **options):
    """:func:`~inspector.core.scan.scanner.background_scan_steps`, then one more step
    (yielding None) in which the verdict is worked out; returns a :class:`JudgedScan`.

    The verdict judges the file as UTF-8 (its encoding map, the charset guesses): a scan
    that reads it in another encoding carries ``known_verdict`` (the verdict of the
    file's UTF-8 scan, when the caller has it) instead of judging again."""
    result = yield from background_scan_steps(source, dialect, **options)
    yield None
    if not interpretation(dialect).is_utf8:
        return JudgedScan(result, known_verdict)
    try:
        judged = verdict_module.verdict(result, source)
    except Exception:
        judged = None   # the counts stand without it (see JudgedScan)
    return JudgedScan(result, judged)
