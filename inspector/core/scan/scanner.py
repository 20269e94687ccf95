"""The whole-file scanner: exact counts, an index, progress, cancellation.

The results are identical to cutting the scanned stream with
:func:`inspector.core.units.decoder.cut` (a test compares them), but the hot path has no
per-byte Python loop: see :mod:`inspector.core.scan.kernels.rows` and
:mod:`inspector.core.scan.kernels.bytelevel`.

A region [start, end) is scanned as its own stream (a unit cut by ``end`` is truncated,
continuation bytes right after ``start`` are strays), the way the decoder cuts from an
origin. With ``origin`` X inside the region, the bytes before X and from X on are two
streams, as in :func:`inspector.core.units.decoder.units_in_range`.

``units`` counts valid units by byte length: keys 1–4, plus 5 and 6 for the dialects that
have longer valid units (FSS-UTF's 5- and 6-byte forms; a CESU-8 / Modified UTF-8
surrogate pair is one valid 6-byte unit, under key 6).
"""


from __future__ import annotations

import time
from typing import Callable


from inspector.core.scan import tables as TB
from inspector.core.scan import parallel as parallelscan
from inspector.core.units import kinds as K
from inspector.core.units.interpretation import interpretation
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.scan.results import DEFAULT_BLOCK, ScanCancelled, ScanProgress, ScanResult, segments
from inspector.core.scan.tally import add_window
from inspector.core.scan.utf8path import QUICK_LIMIT, TEXT_WINDOW, fast_segment, quick_whole
from inspector.core.scan.windows import DEFAULT_CHUNK, DENSE_WINDOW, iter_windows

# ----------------------------------------------------------------------------- scans

def scan_steps(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
               max_errors: int = 100, block_size: int | None = DEFAULT_BLOCK,
               chunk_size: int | None = None, origin: int | None = None,
               sha256: bool = True, dense_window: int = DENSE_WINDOW,
               workers: int | None = 1, *, lazy_index: bool = False,
               executor=None):
    """Scan ``source`` as a generator: yields :class:`ScanProgress` after every window
    (``chunk_size`` bytes; by default 2 MiB in the utf-8 dialect, otherwise ~1 MiB of
    clean data or 128 KiB of dense errors) and returns the final :class:`ScanResult`.
    Stopping the iteration cancels the scan.

    A large utf-8 scan of a file runs as slices on ``executor`` (a
    ``concurrent.futures`` executor: a process pool, a Dask cluster's), else on a pool
    of ``workers`` processes started for it (None: one per core; see
    :mod:`inspector.core.scan.parallel`). The default, 1 and no executor, keeps it in
    this process: starting processes is the caller's choice (the command line's
    ``--jobs``), never the default (the window scans in one worker thread).

    ``lazy_index``: the caller may never look at the block index (a report of many
    files). A whole small file that decodes strictly is then counted at once (see
    :func:`inspector.core.scan.utf8path.quick_whole`) and its index made only if
    ``result.index`` is asked for."""
    reading = interpretation(dialect)
    # A UTF-8 dialect is named; another encoding is carried as its interpretation (the
    # windows are its own cut), and the result names it.
    dialect = reading.name if reading.is_utf8 else reading
    by_kernels = reading.scanned_by_kernels
    other_reading = not reading.is_utf8
    size = source.size
    end = size if end is None else max(0, min(end, size))
    start = max(0, min(start, end))
    index = BlockIndex(start, end, block_size, dialect, origin)
    result = ScanResult(size, reading.name, start, end, index, max_errors, origin)
    result.reading = dialect
    if reading.keeps_sync_points and start == 0:
        from inspector.core.units.encodings.syncpoints import SyncPoints

        result.sync_points = SyncPoints()
    # SHA-256 inline: hashlib runs at ~1.5 GB/s here, and in a second thread (it releases
    # the GIL) it came out slower, the two cores being shared with the counting.
    hasher = None
    if sha256 and start == 0 and end == size:
        # Imported here: hashlib loads OpenSSL's libcrypto (3.3 MiB resident), which
        # the window need not have before its first scan.
        import hashlib

        hasher = hashlib.sha256()
    began = time.perf_counter()
    total = end - start
    if (lazy_index and by_kernels and start == 0 and end == size and origin is None
            and 0 < size <= QUICK_LIMIT):
        data = source.read(0, size)
        if len(data) == size and quick_whole(result, data):
            if hasher is not None:
                hasher.update(data)
                result.sha256 = hasher.hexdigest()
            result.defer_index(lambda: index_of(data, dialect, block_size), index.block_size)
            result.scanned = total
            result.complete = True
            result.seconds = time.perf_counter() - began
            yield ScanProgress(total, total, result)
            return result
    if workers is None:
        workers = parallelscan.default_workers()
    for seg_start, seg_end in segments(start, end, origin):
        if by_kernels:
            if parallelscan.usable(source, workers, seg_end - seg_start, dialect, executor):
                pieces = parallelscan.segment(result, index, source, seg_start, seg_end,
                                              workers, hasher, executor)
            else:
                pieces = fast_segment(result, index, source, seg_start, seg_end,
                                       chunk_size or TEXT_WINDOW, hasher)
            try:
                for done in pieces:
                    index._advance(done)
                    result.scanned = done - start
                    yield ScanProgress(result.scanned, total, result)
            finally:
                pieces.close()  # a cancelled parallel scan stops its children now
        else:
            for window in iter_windows(source, seg_start, seg_end, seg_start, seg_end, dialect,
                                       origin=origin, chunk_size=chunk_size or DEFAULT_CHUNK,
                                       hasher=hasher, dense_window=dense_window,
                                       sync=result.sync_points):
                add_window(result, index, window, seg_start)
                if other_reading:
                    index.add_lf_units(window.rows)   # every unit is a row
                else:
                    index.add_lf(window.data, window.base, window.stop)
                window.data = None
                done = window.base + window.stop
                index._advance(done)
                result.scanned = done - start
                yield ScanProgress(result.scanned, total, result)
        if index.done < seg_end:
            result.short_read = True
            index._advance(seg_end)
    result.scanned = total
    index._advance(end)
    if hasher is not None and not result.short_read:
        result.sha256 = hasher.hexdigest()
    result.complete = True
    result.seconds = time.perf_counter() - began
    return result


def index_of(data: bytes, dialect: str, block_size: int | None) -> BlockIndex:
    """The block index of a whole stream held in memory, by the full scan."""
    from inspector.core.source.bytesource import MemorySource

    return scan(MemorySource(data), dialect, block_size=block_size, max_errors=0,
                sha256=False, workers=1).index


BACKGROUND_WINDOW = 256 << 10


def background_scan_steps(source, dialect: str = K.UTF8, **options):
    """:func:`scan_steps` for a worker thread that shares the interpreter with a user
    interface: the lookup tables are built first in steps of a few milliseconds (those
    steps yield None), and the windows are small (256 KiB: a step of text takes about a
    millisecond, one of random bytes a few), because the interface waits for the
    interpreter while a step runs."""
    yield from TB.tables_steps()
    options.setdefault("chunk_size", BACKGROUND_WINDOW)
    return (yield from scan_steps(source, dialect, **options))


def scan(source, dialect: str = K.UTF8, start: int = 0, end: int | None = None,
         progress: Callable[[int, int], None] | None = None,
         cancel: Callable[[], bool] | None = None, **options) -> ScanResult:
    """Scan to the end; ``progress(done, total)`` is called after every window and
    ``cancel()`` checked as often: when it returns True, :class:`ScanCancelled` is
    raised."""
    steps = scan_steps(source, dialect, start, end, **options)
    while True:
        if cancel is not None and cancel():
            steps.close()
            raise ScanCancelled("scan cancelled")
        try:
            step = next(steps)
        except StopIteration as stop:
            return stop.value
        if progress is not None:
            progress(step.done, step.total)
