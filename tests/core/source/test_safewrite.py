"""The write guard and the atomic writer (``inspector.core.source.safewrite``): the
inspected file is refused by name, through a symbolic link and as a hard link; a folder,
a missing folder and a place that cannot be written in are refused; a cancel or an error
leaves the old target as it was and no temporary file; and no other module writes a
file its own way."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from inspector.core.source import safewrite as SW
from inspector.core.source.bytesource import FileSource

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def evidence(tmp_path):
    path = tmp_path / "evidence" / "exhibit.bin"
    path.parent.mkdir()
    path.write_bytes(b"caf\xe9 \xc0\xaf")
    return path


def leftovers(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(SW.PARTIAL_SUFFIX))


# ------------------------------------------------------------------------------ the guard

def test_the_inspected_file_is_refused_by_path_link_and_inode(evidence, tmp_path):
    link = tmp_path / "link.bin"
    link.symlink_to(evidence)
    hard = tmp_path / "hard.bin"
    os.link(evidence, hard)
    link_to_folder = tmp_path / "folder-link"
    link_to_folder.symlink_to(evidence.parent)
    names = [evidence, str(evidence), os.fsencode(evidence), evidence.parent / "." / evidence.name,
             link, hard, link_to_folder / evidence.name]
    with FileSource(evidence) as source:
        for inspected in (evidence, str(evidence), source, [tmp_path / "other", evidence]):
            for name in names:
                with pytest.raises(SW.WriteRefused, match="inspected file"):
                    SW.check_target(name, inspected)
        # Opened through the link, the file itself is refused too.
        with FileSource(link) as through_link:
            with pytest.raises(SW.WriteRefused, match="inspected file"):
                SW.check_target(evidence, through_link)
    assert SW.check_target(tmp_path / "report.json", evidence) == str(tmp_path / "report.json")
    assert SW.check_target(str(tmp_path / "x.csv")) == str(tmp_path / "x.csv")


def test_the_file_opened_is_refused_after_its_path_was_replaced(evidence, tmp_path):
    with FileSource(evidence) as source:
        moved = tmp_path / "moved.bin"
        os.rename(evidence, moved)  # the opened file now lives under another name
        evidence.write_bytes(b"a new file at the old path")
        with pytest.raises(SW.WriteRefused, match="inspected file"):
            SW.check_target(moved, source)
        with pytest.raises(SW.WriteRefused, match="inspected file"):
            SW.check_target(evidence, source)  # and the path it was opened by


def test_a_gone_inspected_file_is_refused_by_its_real_path(evidence, tmp_path):
    alias = tmp_path / "alias"
    alias.symlink_to(evidence.parent)
    with FileSource(evidence) as source:
        os.unlink(evidence)
        with pytest.raises(SW.WriteRefused, match="inspected file"):
            SW.check_target(alias / evidence.name, source)


def test_folders_missing_folders_names_and_existing_files(evidence, tmp_path):
    with pytest.raises(SW.WriteRefused, match="is a folder"):
        SW.check_target(tmp_path, evidence)
    with pytest.raises(SW.WriteRefused, match="does not exist"):
        SW.check_target(tmp_path / "nowhere" / "x.json", evidence)
    with pytest.raises(SW.WriteRefused, match="no file name"):
        SW.check_target("", evidence)
    with pytest.raises(SW.WriteRefused, match="no file name"):
        SW.check_target(None)
    other = tmp_path / "other.txt"
    other.write_bytes(b"keep")
    with pytest.raises(SW.WriteRefused, match="already exists"):
        SW.check_target(other, evidence, overwrite=False)
    assert SW.check_target(other, evidence) == str(other)
    assert issubclass(SW.WriteRefused, ValueError)


def _unwritable_folder(tmp_path) -> str | None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if not os.access(locked, os.W_OK):
        return str(locked)
    for place in ("/proc/sys", "/sys/kernel"):  # root writes anywhere but in these
        if os.path.isdir(place) and not os.access(place, os.W_OK):
            return place
    return None


def test_a_place_that_cannot_be_written_in_is_refused(evidence, tmp_path):
    folder = _unwritable_folder(tmp_path)
    try:
        if folder is None:
            pytest.skip("every folder here can be written in by this user")
        with pytest.raises(SW.WriteRefused, match="cannot be written in"):
            SW.check_target(os.path.join(folder, "report.json"), evidence)
        assert not os.path.exists(os.path.join(folder, "report.json"))
    finally:
        (tmp_path / "locked").chmod(0o755)


# ----------------------------------------------------------------------------- the writer

def test_text_and_bytes_are_written_whole(tmp_path):
    target = tmp_path / "out.txt"
    SW.write_atomic(target, "naïve\nline\r\n")
    assert target.read_bytes() == "naïve\nline\r\n".encode()
    SW.write_atomic(str(target), b"\x00\xff")
    assert target.read_bytes() == b"\x00\xff"
    SW.write_atomic(os.fsencode(tmp_path / "raw.bin"), b"raw")
    assert (tmp_path / "raw.bin").read_bytes() == b"raw"
    assert leftovers(tmp_path) == []


def test_streaming_then_cancelled_leaves_nothing(tmp_path):
    target = tmp_path / "errors.csv"

    def steps():
        with SW.AtomicWriter(target) as out:
            for k in range(1000):
                out.file.write(f"{k},row\n")
                yield k

    gen = steps()
    for k in gen:
        if k == 500:
            assert leftovers(tmp_path)  # a temporary file beside the target, meanwhile
            gen.close()  # the cancel
    assert os.listdir(tmp_path) == []
    # With an old target: the cancel leaves it as it was.
    target.write_text("old")
    gen = steps()
    next(gen)
    gen.close()
    assert target.read_text() == "old" and leftovers(tmp_path) == []
    # Run to its end, the stream replaces it.
    for _ in steps():
        pass
    assert target.read_text().count("\n") == 1000 and leftovers(tmp_path) == []


def test_an_error_leaves_the_old_target_intact(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with SW.AtomicWriter(target) as out:
            out.file.write("half of it")
            raise RuntimeError("disk on fire")
    assert target.read_text() == "old" and leftovers(tmp_path) == []

    def broken(*_a, **_k):
        raise OSError("rename refused")

    monkeypatch.setattr(SW.os, "replace", broken)
    with pytest.raises(OSError, match="rename refused"):
        SW.write_atomic(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_failing_disk_leaves_the_old_target_intact(tmp_path, monkeypatch):
    target = tmp_path / "copy.bin"
    target.write_bytes(b"old")

    def no_room(_fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SW.os, "fsync", no_room)
    with pytest.raises(OSError, match="No space"):
        SW.write_atomic(target, b"new bytes")
    monkeypatch.undo()
    assert target.read_bytes() == b"old" and leftovers(tmp_path) == []


def test_modes_and_fsync(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(SW.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    SW.write_atomic(tmp_path / "usual.txt", "x")
    SW.write_atomic(tmp_path / "private.json", "x", private=True)
    SW.write_atomic(tmp_path / "cache.bin", b"x", fsync=False)
    assert len(synced) == 2
    (tmp_path / "plain.txt").write_text("x")  # made as the process makes any file
    assert stat.S_IMODE(os.stat(tmp_path / "usual.txt").st_mode) \
        == stat.S_IMODE(os.stat(tmp_path / "plain.txt").st_mode)
    assert stat.S_IMODE(os.stat(tmp_path / "private.json").st_mode) == 0o600


# ---------------------------------------------------------------------- every writer

# Where the package may still rename or create files itself, and why.
ALLOWED = {
    ("inspector/core/analysis/findings.py", "os.replace"): "a damaged findings file set aside",
    ("inspector/core/scan/corpus.py", "NamedTemporaryFile"): "standard input spooled, read back",
    ("inspector/gui/runtime/startup.py", "open"): "the log, appended to",
}
WRITES = {
    "mkstemp": r"\bmkstemp\(",
    "os.replace": r"\bos\.(replace|rename)\(",
    "NamedTemporaryFile": r"\bNamedTemporaryFile\(",
    "write_bytes": r"\.write_(bytes|text)\(",
    "open": r"\b(open|fdopen)\([^)]*[\"'][wax]b?\+?[\"']",
    ".partial": r"\.part(ial)?[\"']",
}


def test_no_module_writes_a_file_its_own_way():
    offenders = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "inspector/core/source/safewrite.py":
            continue
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name, pattern in WRITES.items():
                if re.search(pattern, line) and (rel, name) not in ALLOWED:
                    offenders.append(f"{rel}:{line_no}: {line.strip()}")
    assert offenders == []


def test_the_allowed_exceptions_still_exist():
    for (rel, name), why in ALLOWED.items():
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert re.search(WRITES[name], text), (rel, name, why)
