"""Writing files, never the inspected one: the guard every chosen target passes, and the
one way every file is written.

The inspector opens the file it inspects read-only and never writes it. A target that a
person chooses (an export, a report, a repaired copy, exported findings, a folder's
triage table, the command line's CSV) is checked by :func:`check_target` before any
work starts: the inspected file is refused by its path, through a symbolic link and as a
hard link (the same device and inode), also when the file at its path was replaced since
it was opened.

Every file the program writes (those, and its own: the findings store, the tables
caches, the desktop entry) goes through :class:`AtomicWriter`: the bytes go to a
temporary file beside the target, are flushed to the disk and renamed onto it, so a
reader sees the old file or the new one, never half of one, and an error or a cancel
leaves the old target as it was and no temporary file behind.
"""

from __future__ import annotations

import os
import tempfile

from inspector.core.source.bytesource import ByteSource, display_path

PARTIAL_SUFFIX = ".partial"  # the temporary file: ``.NAME.XXXXXXXX.partial`` beside NAME


class WriteRefused(ValueError):
    """A target the inspector will not write, with a message a person can act on."""


# ------------------------------------------------------------------------------ the guard

def _identities(inspected) -> tuple[set[tuple[int, int]], set[bytes]]:
    """The (device, inode) pairs of the inspected file(s) (``inspected``: a path, a byte
    source, None, or a list of those): the file a source opened and the file at each
    path now; and the real paths of those paths where no file is any more."""
    ids: set[tuple[int, int]] = set()
    gone: set[bytes] = set()
    items = inspected if isinstance(inspected, (list, tuple)) else [inspected]
    for item in items:
        if item is None:
            continue
        if isinstance(item, ByteSource):
            opened = item.stat_result
            if opened is not None:
                ids.add((opened.st_dev, opened.st_ino))
            path = item.path
            if path is None:
                continue
        else:
            path = item
        try:
            now = os.stat(path)
        except FileNotFoundError:
            gone.add(os.path.realpath(os.fsencode(path)))
            continue
        except OSError:
            continue
        ids.add((now.st_dev, now.st_ino))
    return ids, gone


def check_target(target, inspected=None, overwrite: bool = True):
    """``target`` (a str or bytes path, as given), or WriteRefused when writing there is
    refused: no name; the inspected file (``inspected``: its path, its byte source, or a
    list of them) by name, through a symbolic link or as a hard link, which is the same
    device and inode (or, when no file is at the inspected path any more, the same real
    path); a folder; in a folder that does not exist or cannot be written in; an existing
    file while ``overwrite`` is False."""
    if target is None or os.fspath(target) in ("", b""):
        raise WriteRefused("no file name was given")
    target = os.fspath(target)
    shown = display_path(target)
    absolute = os.path.abspath(os.fsencode(target))
    if os.path.isdir(absolute):
        raise WriteRefused(f"{shown} is a folder; choose a file name")
    folder = os.path.dirname(absolute)
    if not os.path.isdir(folder):
        raise WriteRefused(f"the folder {display_path(folder)} does not exist")
    try:
        st = os.stat(absolute)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise WriteRefused(f"{shown}: {e.strerror or e}") from None
    ids, gone = _identities(inspected)
    if ((st is not None and (st.st_dev, st.st_ino) in ids)
            or (st is None and gone and os.path.realpath(absolute) in gone)):
        raise WriteRefused(f"{shown} is the inspected file (or a link to it); the inspector "
                           "never writes over the file it inspects. Choose another name.")
    if not os.access(folder, os.W_OK):
        raise WriteRefused(f"the folder {display_path(folder)} cannot be written in")
    if st is not None and not overwrite:
        raise WriteRefused(f"{shown} already exists; choose another name or allow overwriting")
    return target


# ----------------------------------------------------------------------------- the writer

def _umask() -> int:
    """The process's umask, read without changing it (``os.umask`` can only be read by
    setting it, which would race with other threads): Linux's ``/proc``; elsewhere the
    usual 022."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


class AtomicWriter:
    """A new file written beside ``target`` under a temporary name and renamed onto it by
    :meth:`commit`. :meth:`discard`, an exception inside ``with`` or a cancel (a
    generator closed while it writes) removes the temporary file and leaves the old
    target as it was; leaving ``with`` normally commits.

    ``file`` is a text file (UTF-8, newlines written as given) or, with ``binary``, a
    binary one (``buffering`` as ``open`` takes it). The new file gets the mode a new
    file usually gets (0666 less the umask), or 0600 when ``private``. ``fsync`` makes
    the bytes reach the disk before the rename (a cache that is checked when read and
    rebuilt when damaged can do without).
    """

    def __init__(self, target, *, binary: bool = False, buffering: int = -1,
                 fsync: bool = True, private: bool = False):
        self.target = os.fspath(target)
        self.fsync = fsync
        folder, name = os.path.split(os.path.abspath(self.target))
        if isinstance(name, bytes):
            prefix, suffix = b"." + name + b".", os.fsencode(PARTIAL_SUFFIX)
        else:
            prefix, suffix = f".{name}.", PARTIAL_SUFFIX
        fd, self.temp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
        try:
            if not private and hasattr(os, "fchmod"):  # mkstemp made it 0600
                os.fchmod(fd, 0o666 & ~_umask())
            if binary:
                self.file = os.fdopen(fd, "wb", buffering=buffering)
            else:
                self.file = os.fdopen(fd, "w", buffering=buffering, encoding="utf-8",
                                      newline="")
        except BaseException:
            os.close(fd)
            os.unlink(self.temp)
            raise

    def close(self) -> None:
        """Flush and close the temporary file (and, with ``fsync``, put its bytes on the
        disk): what remains is the rename."""
        if self.file.closed:
            return
        self.file.flush()
        if self.fsync:
            os.fsync(self.file.fileno())
        self.file.close()

    def commit(self) -> None:
        """Close the temporary file and rename it onto the target."""
        try:
            self.close()
            os.replace(self.temp, self.target)
        except BaseException:
            self.discard()
            raise
        self.temp = None

    def discard(self) -> None:
        """Remove the temporary file; the target stays as it was."""
        try:
            self.file.close()
        except OSError:
            pass
        finally:
            if self.temp is not None:
                try:
                    os.unlink(self.temp)
                except OSError:
                    pass
                self.temp = None

    def __enter__(self) -> "AtomicWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self.commit()
        else:
            self.discard()
        return False


def write_atomic(target, data: str | bytes, *, fsync: bool = True, private: bool = False) -> None:
    """``data`` (text, written as UTF-8, or bytes) into ``target`` through
    :class:`AtomicWriter`."""
    with AtomicWriter(target, binary=isinstance(data, bytes), fsync=fsync,
                      private=private) as writer:
        writer.file.write(data)
