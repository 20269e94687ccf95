"""Windows of a stream for the any-dialect path: read afresh, cut at safe unit
boundaries, analysed by the row kernel (``kernels.rows``).
"""

from __future__ import annotations

from typing import Callable, Iterator


from inspector.core.scan.readings.codecwindows import codec_windows, is_other_reading
from inspector.core.scan.kernels import rows as RK
from inspector.core.units.interpretation import interpretation
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import chunk_end, safe_end, safe_start

DEFAULT_CHUNK = 1 << 20
DENSE_WINDOW = 128 * 1024  # windows full of errors are cut smaller: their arrays are per unit
DENSE_STREAK = 8  # after a dense window, this many more go straight to the dense path
RETRY_LIMIT = 256  # errors allowed when the C decoder is tried again after a dense streak
LOOKAHEAD = 16


def iter_windows(source, lo: int, hi: int, seg_start: int, seg_end: int, dialect: str, *,
                 origin: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                 want_warnings: bool = True, hasher=None, dense_window: int = DENSE_WINDOW,
                 on_read: Callable[[int], None] | None = None, sync=None) -> Iterator[RK.Window]:
    """Windows that together hold every unit starting in [lo, hi) of the stream
    [seg_start, seg_end) (and perhaps a few units just outside, which callers filter).

    ``hasher`` is fed every byte of [lo, hi) in order when ``lo`` is the stream start.
    ``dialect`` may name or be another interpretation: its own cut makes the windows
    (:mod:`inspector.core.scan.readings.codecwindows`), which notes its ``sync`` points.
    """
    hi = min(hi, seg_end)
    if lo >= hi:
        return
    if is_other_reading(dialect):
        reading = interpretation(dialect)
        if not reading.is_utf8:
            yield from codec_windows(source, lo, hi, reading, origin=origin,
                                     chunk_size=chunk_size, hasher=hasher, on_read=on_read,
                                     sync=sync)
            return
        dialect = reading.name
    read = source.read_uncached
    pos = lo if lo <= seg_start else safe_start(source, lo, origin, dialect)
    # Where reading stops: the stream's end, or a little past hi, so the last unit that
    # starts before hi is whole.
    read_end = seg_end if hi >= seg_end else min(seg_end, hi + LOOKAHEAD)
    pairs = dialect in K.PAIR_DIALECTS
    dense_left = 0
    retrying = False
    chunk_size = max(64, chunk_size)
    while pos < hi:
        want = dense_window if dense_left else chunk_size
        length = min(want + LOOKAHEAD, read_end - pos)
        # Each window is read afresh from its first byte (the few bytes after the last
        # window's stop are read twice), so nothing is copied to join pieces.
        buf = read(pos, length)
        if not buf:
            return  # the file ended sooner than it said
        short = len(buf) < length
        if pos + len(buf) >= read_end or short:
            if read_end >= seg_end or short:
                stop, stream_ends = len(buf), True
            else:
                stop, stream_ends = safe_end(buf, hi - pos, pairs), False
        else:
            stop, stream_ends = chunk_end(buf, min(want, len(buf) - 8), pairs), False
        final = stream_ends and stop == len(buf)
        window = RK.analyse(buf, pos, stop, final, dialect, dense=dense_left > 0,
                            want_warnings=want_warnings, dense_max=dense_window,
                            dense_limit=RETRY_LIMIT if retrying else None)
        retrying = False
        if window is None:  # full of errors: cut a smaller window
            dense_left = DENSE_STREAK
            if len(buf) > dense_window + 8:
                stop = chunk_end(buf, dense_window, pairs)
            final = stream_ends and stop == len(buf)
            window = RK.analyse(buf, pos, stop, final, dialect, dense=True,
                                want_warnings=want_warnings)
        elif window.mode == "dense":
            dense_left -= 1
            retrying = dense_left == 0
        else:
            dense_left = 0
        if hasher is not None:
            hasher.update(memoryview(buf)[:stop])
        if on_read is not None:
            on_read(stop)
        yield window
        pos += stop
        if short and stop == len(buf):
            return

