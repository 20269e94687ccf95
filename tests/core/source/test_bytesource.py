"""The read-only byte source: windows, chunks, files that change while open, bad paths.
One interface suite runs against both MemorySource and FileSource."""

import os
import stat
import time

import pytest

from inspector.core.source.bytesource import (ByteSourceError, FileSource, MemorySource,
                                       display_path, open_source)

DATA = bytes(range(256)) * 1100 + b"tail"   # 281,604 bytes: spans several cache blocks


# ------------------------------------------------------- one suite, every byte source

@pytest.fixture(params=["memory", "file"])
def source(request, tmp_path):
    if request.param == "memory":
        yield MemorySource(DATA)
    else:
        path = tmp_path / "data.bin"
        path.write_bytes(DATA)
        src = FileSource(path)
        yield src
        src.close()


def test_size(source):
    assert source.size == len(DATA)


@pytest.mark.parametrize("offset,length", [
    (0, 1), (0, 16), (100, 1000), (65535, 2), (65536, 65536), (60000, 300000),
    (len(DATA) - 4, 4), (len(DATA) - 1, 10), (0, len(DATA)), (123, 0)])
def test_read_window(source, offset, length):
    assert source.read(offset, length) == DATA[offset:offset + length]


@pytest.mark.parametrize("offset,length", [(len(DATA), 10), (len(DATA) + 100, 1), (-1, 5), (5, -3)])
def test_read_outside_is_empty(source, offset, length):
    assert source.read(offset, length) == b""


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 20])
def test_chunks_cover_the_range_in_order(source, chunk):
    if chunk == 1:
        start, end = 1000, 1100
    else:
        start, end = 5, len(DATA)
    pieces = list(source.chunks(start, end, chunk))
    assert b"".join(p for _, p in pieces) == DATA[start:end]
    pos = start
    for off, p in pieces:
        assert off == pos and 0 < len(p) <= chunk
        pos += len(p)


def test_chunks_end_past_size_is_clamped(source):
    assert b"".join(p for _, p in source.chunks(len(DATA) - 10, len(DATA) + 1000)) == DATA[-10:]


def test_check_is_none_when_unchanged(source):
    assert source.check() is None


def test_repeated_reads_are_stable(source):
    first = [source.read(o, 100) for o in range(0, 200000, 9973)]
    second = [source.read(o, 100) for o in range(0, 200000, 9973)]
    assert first == second


# ----------------------------------------------------------- files that change while open

@pytest.fixture
def open_file(tmp_path):
    path = tmp_path / "changing.bin"
    path.write_bytes(DATA)
    src = FileSource(path)
    yield path, src
    src.close()


def test_truncated_to_half_while_open(open_file):
    path, src = open_file
    half = len(DATA) // 2
    src.read(half + 100, 10)           # a block in the cache that will vanish
    os.truncate(path, half)
    change = src.check()
    assert change is not None and change.shrunk and change.new_size == half
    assert "shrank" in change.describe()
    src.invalidate()
    # reads never crash: the current bytes, or short/empty past the new end
    assert src.read(0, 10) == DATA[:10]
    assert src.read(half - 5, 100) == DATA[half - 5:half]
    assert src.read(half + 100, 10) == b""
    assert b"".join(p for _, p in src.chunks()) == DATA[:half]


def test_truncated_to_zero_while_open(open_file):
    path, src = open_file
    os.truncate(path, 0)
    change = src.check()
    assert change.new_size == 0 and "truncated to 0" in change.describe()
    src.invalidate()
    assert src.read(0, 100) == b""
    assert src.read(len(DATA) - 1, 1) == b""
    assert list(src.chunks()) == []


def test_grown_while_open(open_file):
    path, src = open_file
    with open(path, "ab") as f:
        f.write(b"more bytes")
    change = src.check()
    assert change.grew and change.new_size == len(DATA) + 10
    assert "grew" in change.describe()
    # the source keeps its size until reopened; reading within it still works
    assert src.read(len(DATA) - 4, 4) == b"tail"


def test_replaced_file_detected(open_file, tmp_path):
    path, src = open_file
    other = tmp_path / "other.bin"
    other.write_bytes(b"something else")
    os.replace(other, path)
    change = src.check()
    assert change is not None and change.replaced
    assert "replaced" in change.describe()
    # the open descriptor still reads the old file's bytes
    assert src.read(0, 4) == DATA[:4]


def test_deleted_file_counts_as_replaced(open_file):
    path, src = open_file
    os.unlink(path)
    assert src.check().replaced
    assert src.read(0, 3) == DATA[:3]


def test_the_file_is_never_written(tmp_path):
    path = tmp_path / "ro.bin"
    path.write_bytes(DATA)
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = os.stat(path)
    src = FileSource(path)
    src.read(0, 100)
    src.read(200000, 70000)
    list(src.chunks(chunk_size=65536))
    src.check()
    src.close()
    after = os.stat(path)
    assert after.st_mtime_ns == before.st_mtime_ns and after.st_size == before.st_size
    assert path.read_bytes() == DATA


def test_opened_read_only(tmp_path):
    path = tmp_path / "ro.bin"
    path.write_bytes(b"abc")
    src = FileSource(path)
    # Every descriptor of this process that names the file (Linux's /proc says which).
    fds = [fd for fd in os.listdir("/proc/self/fd")
           if os.path.realpath(f"/proc/self/fd/{fd}") == str(path.resolve())]
    assert fds
    for fd in fds:
        with open(f"/proc/self/fdinfo/{fd}") as info:
            flags = next(int(line.split()[1], 8) for line in info if line.startswith("flags:"))
        assert flags & os.O_ACCMODE == os.O_RDONLY
    src.close()


def test_read_after_close_is_a_clear_error(tmp_path):
    path = tmp_path / "c.bin"
    path.write_bytes(b"abc")
    src = FileSource(path)
    src.close()
    with pytest.raises(ByteSourceError) as e:
        src.read(0, 1)
    assert e.value.reason == "closed"


# --------------------------------------------------------------------------- bad paths

def test_missing_file(tmp_path):
    with pytest.raises(ByteSourceError) as e:
        FileSource(tmp_path / "nope.txt")
    assert e.value.reason == "missing" and "no such file" in str(e.value)


def test_directory(tmp_path):
    with pytest.raises(ByteSourceError) as e:
        FileSource(tmp_path)
    assert e.value.reason == "directory" and "directory" in str(e.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode: "
                    "permission errors cannot happen for this user")
def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.bin"
    path.write_bytes(b"x")
    path.chmod(0)
    try:
        with pytest.raises(ByteSourceError) as e:
            FileSource(path)
        assert e.value.reason == "permission"
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.skipif(os.geteuid() != 0, reason="the unprivileged case is test_unreadable_file")
def test_unreadable_file_in_a_child_that_drops_root(tmp_path):
    """Root reads any file, so the permission branch is checked in a forked child that
    gives up root (becomes 'nobody') before opening a mode-0 file; it reports the error's
    reason through a pipe."""
    os.chmod(tmp_path, 0o755)
    for parent in tmp_path.parents:  # pytest's base folder is private to root
        if str(parent) in ("/", "/tmp"):
            break
        os.chmod(parent, os.stat(parent).st_mode | 0o011)
    path = tmp_path / "secret.bin"
    path.write_bytes(b"x")
    path.chmod(0)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            try:
                FileSource(path)
                answer = "opened"
            except ByteSourceError as e:
                answer = f"{e.reason}|{e}"
            os.write(write_end, answer.encode("utf-8", "replace"))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        answer = f.read().decode()
    os.waitpid(pid, 0)
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    reason, _, message = answer.partition("|")
    assert reason == "permission", answer
    assert "permission denied" in message


def test_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    started = time.monotonic()
    with pytest.raises(ByteSourceError) as e:
        FileSource(path)
    assert e.value.reason == "fifo" and "FIFO" in str(e.value)
    # refused before anything is opened; a blocking open would hang forever, not slowly
    assert time.monotonic() - started < 60


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_character_device(device):
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    with pytest.raises(ByteSourceError) as e:
        FileSource(device)
    assert e.value.reason == "chardev" and "character device" in str(e.value)


def test_symlink_loop(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    os.symlink(b, a)
    os.symlink(a, b)
    with pytest.raises(ByteSourceError) as e:
        FileSource(a)
    assert e.value.reason == "loop" and "loop" in str(e.value)


def test_dangling_symlink_is_missing(tmp_path):
    link = tmp_path / "dangling"
    os.symlink(tmp_path / "gone", link)
    with pytest.raises(ByteSourceError) as e:
        FileSource(link)
    assert e.value.reason == "missing"


def test_name_not_valid_utf8_as_bytes_and_surrogateescape(tmp_path):
    raw_name = b"caf\xe9-\xff.bin"
    path_bytes = os.fsencode(tmp_path) + b"/" + raw_name
    with open(path_bytes, "wb") as f:
        f.write(b"hello")
    with FileSource(path_bytes) as src:
        assert src.read(0, 5) == b"hello"
        assert "\\xe9" in src.name and "\\xff" in src.name
    as_text = os.fsdecode(path_bytes)          # what argv gives: surrogateescaped str
    assert "\udce9" in as_text
    with FileSource(as_text) as src:
        assert src.size == 5
    shown = display_path(as_text)
    shown.encode("utf-8")                      # always printable as UTF-8
    assert "\\xe9" in shown


def test_missing_name_not_valid_utf8_message_is_printable(tmp_path):
    path = os.fsencode(tmp_path) + b"/no\xfe"
    with pytest.raises(ByteSourceError) as e:
        FileSource(path)
    str(e.value).encode("utf-8")
    assert "\\xfe" in str(e.value)


def test_newline_in_name(tmp_path):
    path = tmp_path / "two\nlines.txt"
    path.write_bytes(b"ok")
    with FileSource(path) as src:
        assert src.read(0, 2) == b"ok"
        assert "\n" not in src.name and "\\n" in src.name
    assert "\n" not in display_path(path)


def test_empty_file(tmp_path):
    path = tmp_path / "empty"
    path.write_bytes(b"")
    with FileSource(path) as src:
        assert src.size == 0
        assert src.read(0, 10) == b""
        assert list(src.chunks()) == []
        assert src.check() is None


def test_one_byte_file(tmp_path):
    path = tmp_path / "one"
    path.write_bytes(b"\xe2")
    with FileSource(path) as src:
        assert src.size == 1
        assert src.read(0, 10) == b"\xe2"
        assert src.read(1, 1) == b""


def test_sparse_16_gib_file_opens_instantly(tmp_path):
    path = tmp_path / "sparse.img"
    size = 16 << 30
    with open(path, "wb") as f:
        f.write(b"start")
    os.truncate(path, size)
    with open(path, "r+b") as f:
        f.seek(size - 3)
        f.write(b"end")
    with open_source(path) as src:
        assert src.size == size
        assert src.read(size - 3, 3) == b"end"
        assert src.read(size - 10, 100) == b"\0" * 7 + b"end"
        assert src.read(0, 5) == b"start"
        assert src.read(size // 2, 4) == b"\0" * 4
        assert src.read(size, 1) == b""
        pieces = list(src.chunks(size - 100, size, 64))
        assert [o for o, _ in pieces] == [size - 100, size - 36]
