"""Where CPython's UTF-8 decoder meets errors: one error handler that records them, for
every path that lets C find the errors (the scanner's windows, the small-file count,
the repair).

CPython's decoder calls its error handler once per maximal subpart. Joined where they
touch, the subparts make runs of whole error units of the utf-8 dialect: a valid unit
never produces a subpart, and an error unit of the contract only ever adds
continuation bytes, which CPython flags on their own. Each run is then cut into units
by whoever asked.
"""

from __future__ import annotations

import codecs
import threading

_HANDLER = "utf8inspector.record-error-runs"


class _TooMany(Exception):
    pass


_recording = threading.local()  # the runs and the calls left of the decode in this thread


def _record(error: UnicodeDecodeError):
    state = _recording
    state.left -= 1
    if state.left < 0:
        raise _TooMany
    runs = state.runs
    start, end = error.start, error.end
    if runs and runs[-1] == start:
        runs[-1] = end  # touching subparts belong to the same run of error units
    else:
        runs.append(start)
        runs.append(end)
    return "", end  # the text keeps only the valid characters


codecs.register_error(_HANDLER, _record)


def error_runs(data, limit: int | None = None) -> tuple[list[int], str] | None:
    """Decode ``data`` (which ends at a unit boundary, or where the stream ends) with
    CPython's C decoder: the runs of bytes that are not valid UTF-8, as a flat list
    ``[start, end, start, end, ...]`` (empty when every byte is valid), and the text of
    the valid characters. None when there are more than ``limit`` maximal subparts (the
    caller then has a faster way for data dense with errors)."""
    _recording.runs = runs = []
    _recording.left = len(data) if limit is None else limit  # at most one per byte
    try:
        text = codecs.utf_8_decode(data, _HANDLER, True)[0]
    except _TooMany:
        return None
    finally:
        _recording.runs = None
    return runs, text
