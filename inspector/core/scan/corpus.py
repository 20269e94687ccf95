"""Many files: the paths of a tree, in a stable order, and standard input as a file.

:func:`walk` turns the paths a person typed into entries: a file is itself, a directory
is walked recursively in sorted order (names compared as bytes, so the order is the
same on every machine), ``-`` is standard input. In a directory only regular files are
taken; symbolic links are not followed unless asked; FIFOs, sockets and devices are
reported as skipped with the reason and never opened (a FIFO would wait for a writer).

Standard input is spooled, in 1 MiB chunks, to an anonymous temporary file (unlinked at
once: it vanishes when closed), and scanned from there like any file: the scanner and the
verdict read at random offsets, and memory stays flat however much arrives.
"""

from __future__ import annotations

import fnmatch
import os
import stat
import sys
import tempfile
from typing import Iterable, Iterator

from inspector.core.source.bytesource import ByteSource

STDIN = "-"
SPOOL_CHUNK = 1 << 20


class Entry:
    """One thing to report: ``kind`` is ``file`` (``path`` to scan), ``stdin``,
    ``skipped`` (``reason``: a short word; ``message``: why) or ``error`` (a directory
    that cannot be listed: ``message``)."""

    __slots__ = ("path", "kind", "reason", "message", "size")

    def __init__(self, path, kind: str, reason: str | None = None, message: str | None = None,
                 size: int = 0):
        self.path = path
        self.kind = kind
        self.reason = reason
        self.message = message
        self.size = size

    def __repr__(self):
        return f"Entry({self.path!r}, {self.kind!r}, {self.reason!r})"


_SPECIAL = {
    stat.S_IFIFO: ("fifo", "a FIFO (named pipe): never opened, reading it would wait for a writer"),
    stat.S_IFSOCK: ("socket", "a socket, not a file"),
    stat.S_IFCHR: ("chardev", "a character device, not a file"),
    stat.S_IFBLK: ("blockdev", "a block device: scan it on its own, by its path"),
}


def _matches(patterns, rel: str, name: str) -> bool:
    return any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(name, p) for p in patterns)


def walk(paths: Iterable, include: Iterable[str] = (), exclude: Iterable[str] = (),
         follow_links: bool = False) -> Iterator[Entry]:
    """Entries for ``paths`` in order. A path named on its own is always an entry (the
    scanner says what is wrong with it); ``include`` / ``exclude`` (shell globs, matched
    against the path below the walked directory and against the bare name) choose among
    the files found in directories, and ``exclude`` also prunes directories."""
    include = tuple(include)
    exclude = tuple(exclude)
    for path in paths:
        if path == STDIN:
            yield Entry(STDIN, "stdin")
            continue
        try:
            is_dir = os.path.isdir(path)
        except OSError:
            is_dir = False
        if not is_dir:
            try:
                size = os.stat(path).st_size
            except OSError:
                size = 0
            yield Entry(path, "file", size=size)
            continue
        seen = set()
        if follow_links:
            try:
                st = os.stat(path)
                seen.add((st.st_dev, st.st_ino))
            except OSError:
                pass
        yield from _walk_dir(path, "", include, exclude, follow_links, seen)


def _walk_dir(top, rel: str, include, exclude, follow_links: bool, seen: set) -> Iterator[Entry]:
    try:
        with os.scandir(top) as it:
            items = sorted(it, key=lambda e: os.fsencode(e.name))
    except OSError as e:
        yield Entry(top, "error", "unlistable", f"cannot list the directory: {e.strerror or e}")
        return
    for item in items:
        path = item.path
        sub = f"{rel}{item.name}"
        if exclude and _matches(exclude, sub, item.name):
            continue
        try:
            if item.is_symlink() and not follow_links:
                if include and not _matches(include, sub, item.name):
                    continue
                yield Entry(path, "skipped", "symlink",
                            "a symbolic link: not followed (--follow-links follows links)")
                continue
            st = item.stat(follow_symlinks=follow_links)
        except OSError as e:
            yield Entry(path, "error", "unreadable", e.strerror or str(e))
            continue
        mode = st.st_mode
        if stat.S_ISDIR(mode):
            below = seen
            if follow_links:
                key = (st.st_dev, st.st_ino)
                if key in seen:
                    yield Entry(path, "skipped", "loop",
                                "a link back to a directory that holds it (a link loop)")
                    continue
                below = seen | {key}  # the directories above: a loop, not a second path
            yield from _walk_dir(path, sub + "/", include, exclude, follow_links, below)
            continue
        if include and not _matches(include, sub, item.name):
            continue
        if stat.S_ISREG(mode):
            yield Entry(path, "file", size=st.st_size)
        else:
            reason, message = _SPECIAL.get(stat.S_IFMT(mode), ("special", "not a regular file"))
            yield Entry(path, "skipped", reason, message)


class SpooledInput(ByteSource):
    """Standard input (or any binary stream) copied to an anonymous temporary file, in
    chunks, never held whole; a byte source named ``-`` whose ``slice_path`` is the
    spool's name, for the processes that scan slices of it. No ``stat_result``:
    standard input is no file, and nothing changes the spool."""

    path = STDIN
    name = STDIN

    def __init__(self, stream=None, chunk: int = SPOOL_CHUNK):
        stream = sys.stdin.buffer if stream is None else stream
        self._file = tempfile.NamedTemporaryFile(prefix="utf8-inspector-stdin-")
        self._fd = self._file.fileno()
        self.slice_path = self._file.name
        read = getattr(stream, "read1", None) or stream.read
        size = 0
        while True:
            data = read(chunk)
            if not data:
                break
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
            size += len(data)
        self.size = size

    def read(self, offset: int, length: int) -> bytes:
        if offset < 0 or length <= 0 or offset >= self.size:
            return b""
        return os.pread(self._fd, min(length, self.size - offset), offset)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            self._fd = None
