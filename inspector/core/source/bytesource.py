"""Read-only byte sources.

A :class:`FileSource` reads with ``os.pread`` on a descriptor opened ``O_RDONLY`` (and
``O_NOATIME`` where the system allows): a read past a shrunken end is just short, where
a plain ``mmap`` would die with SIGBUS. Opening costs one ``stat``, whatever the size,
and reading a window costs the window. Nothing here ever writes.

A :class:`MemorySource` holds bytes in memory and has the same interface, for tests,
previews and data pasted in.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections import OrderedDict
from typing import Iterator

DEFAULT_CHUNK = 1 << 20


def _seek_read(fd: int, length: int, offset: int) -> bytes:
    """``os.pread`` where the system has none (Windows): a seek and reads on the same
    descriptor. Every caller holds the source's lock, so no other read moves the
    position in between."""
    os.lseek(fd, offset, os.SEEK_SET)
    parts, left = [], length
    while left > 0:
        data = os.read(fd, left)
        if not data:
            break
        parts.append(data)
        left -= len(data)
    return b"".join(parts)


def _pread(fd: int, length: int, offset: int) -> bytes:
    """``os.pread``, or ``_seek_read`` where the system has none (looked up at each read,
    so that a test can take ``os.pread`` away as another system would not have it)."""
    pread = getattr(os, "pread", None)
    return pread(fd, length, offset) if pread is not None else _seek_read(fd, length, offset)


class ByteSourceError(Exception):
    """A path that cannot be inspected, with a message a person can act on."""

    def __init__(self, message: str, path: str | bytes | None = None, reason: str = "io"):
        super().__init__(message)
        self.path = path
        self.reason = reason  # a short machine word: missing, directory, permission, fifo, ...


def display_path(path: str | bytes | os.PathLike) -> str:
    """A path as text that is always printable: bytes that are not UTF-8 are shown as
    ``\\xNN`` escapes, control characters (a newline in a name) as escapes too."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        raw = path
    else:
        raw = os.fsencode(path)
    text = raw.decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


class SourceChange:
    """What changed in the file since it was opened (or last acknowledged)."""

    __slots__ = ("old_size", "new_size", "replaced", "modified")

    def __init__(self, old_size: int, new_size: int, replaced: bool, modified: bool):
        self.old_size = old_size
        self.new_size = new_size
        self.replaced = replaced
        self.modified = modified

    @property
    def shrunk(self) -> bool:
        return self.new_size < self.old_size

    @property
    def grew(self) -> bool:
        return self.new_size > self.old_size

    def describe(self) -> str:
        if self.replaced:
            return "the file was replaced by another file"
        if self.new_size == 0 and self.old_size:
            return f"the file was truncated to 0 bytes (it had {self.old_size:,})"
        if self.shrunk:
            return f"the file shrank from {self.old_size:,} to {self.new_size:,} bytes"
        if self.grew:
            return f"the file grew from {self.old_size:,} to {self.new_size:,} bytes"
        return "the file's contents were modified"

    def __repr__(self):
        return f"SourceChange({self.describe()})"


class ByteSource:
    """The whole interface of a byte source, with defaults that suit bytes in memory:
    callers use every part of it plainly, never asking whether a source has it.

    A source that has a file behind it says so through ``path``, ``slice_path`` and
    ``stat_result``; one with a cache overrides ``read_uncached``, ``invalidate`` and
    ``cached_blocks``;
    one that can change under it, ``check``."""

    size: int = 0
    name: str = ""
    # The path the bytes were opened from, as given (reopened on reload, named in
    # reports, refused as a repair's target); None for bytes in memory.
    path: str | bytes | None = None
    # A path another process may open to read the same bytes (the scan's worker
    # processes); None when there is none.
    slice_path: str | bytes | None = None
    # The file's status when it was opened (its identity and time); None without one.
    stat_result: os.stat_result | None = None

    @property
    def mtime_ns(self) -> int | None:
        """The modification time when opened, in nanoseconds; None without a file."""
        st = self.stat_result
        return None if st is None else st.st_mtime_ns

    def read(self, offset: int, length: int) -> bytes:  # pragma: no cover - interface
        raise NotImplementedError

    def read_uncached(self, offset: int, length: int) -> bytes:
        """A large sequential read that bypasses any cache (a scan's chunks, a search):
        it would only evict what the views keep there. Where the source can grow, it may
        return bytes past ``size``. Without a cache it is :meth:`read`."""
        return self.read(offset, length)

    def read_whole(self, limit: int) -> bytes | None:
        """All the bytes when the source holds at most ``limit`` of them (a short read if
        it shrank since), else None. A file keeps what it read: every later read of it
        is served from those bytes (a report reads a small file's bytes for the scan,
        the verdict and the first errors; one read instead of a dozen)."""
        return self.read(0, self.size) if self.size <= limit else None

    def chunks(self, start: int = 0, end: int | None = None,
               chunk_size: int = DEFAULT_CHUNK) -> Iterator[tuple[int, bytes]]:
        """Sequential ``(offset, bytes)`` pieces of [start, end), read uncached; stops
        early and quietly if the data turns out shorter than expected (a file truncated
        while read)."""
        end = self.size if end is None else min(end, self.size)
        pos = max(0, start)
        while pos < end:
            data = self.read_uncached(pos, min(chunk_size, end - pos))
            if not data:
                return
            yield pos, data
            pos += len(data)

    def check(self) -> SourceChange | None:
        """Compare with what the source was when opened; None when unchanged."""
        return None

    def invalidate(self) -> None:
        """Forget cached reads (after a change is noticed); nothing to forget here."""

    @property
    def cached_blocks(self) -> int:
        """How many blocks the read cache holds now; none without a cache."""
        return 0

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class MemorySource(ByteSource):
    def __init__(self, data: bytes, name: str = "<memory>"):
        self._data = bytes(data)
        self.size = len(self._data)
        self.name = name

    def read(self, offset: int, length: int) -> bytes:
        if offset < 0 or length <= 0 or offset >= self.size:
            return b""
        return self._data[offset:offset + length]


def _describe_mode(mode: int) -> str | None:
    """Why a file of this type cannot be inspected, or None if it can."""
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode):
        return "chardev"
    if stat.S_ISSOCK(mode):
        return "socket"
    return None


_TYPE_MESSAGES = {
    "directory": "is a directory, not a file; choose a file inside it",
    "fifo": "is a FIFO (named pipe): it has no fixed bytes to inspect, and reading it "
            "would wait for a writer; save its output to a file and open that",
    "chardev": "is a character device (a stream such as a terminal or /dev/zero), not a "
               "file with a fixed size; copy the bytes you want to a file and open that",
    "socket": "is a socket, not a file",
}


class FileSource(ByteSource):
    """A file opened read-only, read with ``pread``.

    Regular files and block devices (disk images) can be opened; directories, FIFOs,
    character devices and sockets are refused with a specific message before anything
    is opened, so a FIFO can never block the program.
    """

    BLOCK = 64 * 1024
    CACHE_BLOCKS = 64  # 4 MiB of recently read blocks: paints re-read the same rows

    def __init__(self, path: str | bytes | os.PathLike):
        self.path = os.fspath(path)
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise ByteSourceError(f"{display_path(self.path)}: no such file", self.path,
                                  "missing") from None
        except PermissionError:
            raise ByteSourceError(f"{display_path(self.path)}: permission denied (cannot reach the file)",
                                  self.path, "permission") from None
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise ByteSourceError(f"{display_path(self.path)}: a symbolic link loop (too many levels of "
                                      "symbolic links)", self.path, "loop") from None
            if e.errno == errno.ENAMETOOLONG:
                raise ByteSourceError(f"{display_path(self.path)}: the name is too long", self.path, "name") from None
            raise ByteSourceError(f"{display_path(self.path)}: {e.strerror or e}", self.path, "io") from None
        kind = _describe_mode(st.st_mode)
        if kind:
            raise ByteSourceError(f"{display_path(self.path)} {_TYPE_MESSAGES[kind]}", self.path, kind)
        flags = (os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))  # O_BINARY: Windows would translate CR LF
        fd = None
        noatime = getattr(os, "O_NOATIME", 0)
        if noatime:
            try:
                fd = os.open(self.path, flags | noatime)
            except OSError:
                fd = None  # O_NOATIME needs ownership; fall back to a plain read-only open
        if fd is None:
            try:
                fd = os.open(self.path, flags)
            except PermissionError:
                raise ByteSourceError(f"{display_path(self.path)}: permission denied (the file is not readable)",
                                      self.path, "permission") from None
            except OSError as e:
                raise ByteSourceError(f"{display_path(self.path)}: {e.strerror or e}", self.path, "io") from None
        self._fd = fd
        self._lock = threading.Lock()
        st = os.fstat(fd)
        kind = _describe_mode(st.st_mode)
        if kind:  # the path was swapped between stat and open
            os.close(fd)
            raise ByteSourceError(f"{display_path(self.path)} {_TYPE_MESSAGES[kind]}", self.path, kind)
        self._stat = st
        self.is_block_device = stat.S_ISBLK(st.st_mode)
        self.size = self._current_size(st)
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._whole: bytes | None = None  # see read_whole
        # Probe one byte so an unreadable file fails now, not in the middle of a paint.
        if self.size:
            try:
                _pread(fd, 1, 0)
            except OSError as e:
                os.close(fd)
                raise ByteSourceError(f"{display_path(self.path)}: cannot read: {e.strerror or e}", self.path,
                                      "io") from None

    @property
    def name(self) -> str:
        """The file's name as text that is always printable (made when asked: a scan of
        many files never asks)."""
        return display_path(os.path.basename(self.path) or self.path)

    def _current_size(self, st: os.stat_result) -> int:
        if stat.S_ISBLK(st.st_mode):
            return os.lseek(self._fd, 0, os.SEEK_END)
        return st.st_size

    @property
    def stat_result(self) -> os.stat_result:
        return self._stat

    @property
    def slice_path(self) -> str | bytes:
        """Worker processes open the file itself."""
        return self.path

    def _block(self, index: int) -> bytes:
        block = self._cache.get(index)
        if block is not None:
            self._cache.move_to_end(index)
            return block
        try:
            block = _pread(self._fd, self.BLOCK, index * self.BLOCK)
        except OSError as e:
            raise ByteSourceError(f"{display_path(self.path)}: read failed at offset "
                                  f"{index * self.BLOCK:,}: {e.strerror or e}", self.path, "io") from None
        self._cache[index] = block
        if len(self._cache) > self.CACHE_BLOCKS:
            self._cache.popitem(last=False)
        return block

    def read(self, offset: int, length: int) -> bytes:
        """Up to ``length`` bytes at ``offset``; fewer (or none) past the end, including an
        end that moved since the file was opened. Small reads go through a block cache."""
        if offset < 0 or length <= 0 or offset >= self.size:
            return b""
        length = min(length, self.size - offset)
        if self._whole is not None:
            return self._whole[offset:offset + length]
        with self._lock:
            if self._fd is None:
                raise ByteSourceError(f"{display_path(self.path)}: the file is closed",
                                      self.path, "closed")
            if length > 4 * self.BLOCK:
                try:
                    return _pread(self._fd, length, offset)
                except OSError as e:
                    raise ByteSourceError(f"{display_path(self.path)}: read failed at offset "
                                          f"{offset:,}: {e.strerror or e}", self.path, "io") from None
            first, last = offset // self.BLOCK, (offset + length - 1) // self.BLOCK
            parts = []
            for index in range(first, last + 1):
                block = self._block(index)
                parts.append(block)
                if len(block) < self.BLOCK:
                    break  # the file ends (perhaps sooner than it did)
            data = parts[0] if len(parts) == 1 else b"".join(parts)
            skip = offset - first * self.BLOCK
            return data[skip:skip + length]

    def read_uncached(self, offset: int, length: int) -> bytes:
        """A large sequential read that bypasses the cache (the scanner's chunks)."""
        if offset < 0 or length <= 0:
            return b""
        if self._whole is not None:
            return self._whole[offset:offset + length]
        with self._lock:
            if self._fd is None:
                raise ByteSourceError(f"{display_path(self.path)}: the file is closed",
                                      self.path, "closed")
            try:
                return _pread(self._fd, length, offset)
            except OSError as e:
                raise ByteSourceError(f"{display_path(self.path)}: read failed at offset "
                                      f"{offset:,}: {e.strerror or e}", self.path, "io") from None

    def read_whole(self, limit: int) -> bytes | None:
        if self._whole is not None:
            return self._whole
        if self.size > limit:
            return None
        data = self.read_uncached(0, self.size)
        if len(data) == self.size:  # a file that changed meanwhile is read as before
            self._whole = data
        return data

    def check(self) -> SourceChange | None:
        """Notice a file that shrank, grew, was modified or was replaced since opening."""
        if self._fd is None:
            return None
        try:
            now = os.fstat(self._fd)
        except OSError:
            return SourceChange(self.size, 0, True, True)
        replaced = False
        try:
            at_path = os.stat(self.path)
            replaced = (at_path.st_ino, at_path.st_dev) != (now.st_ino, now.st_dev)
        except OSError:
            replaced = True  # deleted or moved away: what the path names is gone
        new_size = self._current_size(now)
        modified = now.st_mtime_ns != self._stat.st_mtime_ns
        if replaced or new_size != self.size or modified:
            return SourceChange(self.size, new_size, replaced, modified)
        return None

    def invalidate(self) -> None:
        """Forget cached blocks (after a change is noticed)."""
        with self._lock:
            self._cache.clear()
            self._whole = None

    @property
    def cached_blocks(self) -> int:
        return len(self._cache)

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
                self._cache.clear()
                self._whole = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def open_source(path: str | bytes | os.PathLike) -> FileSource:
    """Open a file for inspection (read-only); raises :class:`ByteSourceError`."""
    return FileSource(path)
