"""Findings: byte ranges of a file marked with a note, kept by the file's content.

A :class:`Finding` is a range ``[start, end)`` with a note and the time it was made.
Findings belong to a content identity, the SHA-256 and size of the bytes
(:class:`Identity`), never to a path: a :class:`FindingStore` keeps one JSON file per
identity in a data folder of the user's (never next to the evidence), so a copy of the
file elsewhere shows the same findings. Beside them the store keeps a record of which
identity each path had when findings were last saved for it (``paths.json``): a file
that changed at its path since is told apart, and its old findings are shown as from an
earlier version, never moved onto the new bytes.

The whole SHA-256 of a large file takes a while (it comes with the scan). Findings made
before it is known are saved at once under a :class:`QuickIdentity` (path, size,
modification time, and the SHA-256 of the first and last MiB) in a ``pending-…`` file;
when the whole hash arrives they are confirmed (moved under the :class:`Identity`) if
the bytes are still those the quick identity saw, or else kept apart as findings of an
earlier version. Nothing made is ever dropped for want of a hash.

Writes are atomic (``safewrite``: a temporary file in the same folder, then a rename),
and the store's files are readable by their owner only. A file that
cannot be read as findings is set aside (renamed with a ``.damaged-<time>`` suffix)
and reported, never overwritten. Nothing here knows Qt: the window passes the folder.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import uuid
from dataclasses import dataclass, field

from inspector.core.source.safewrite import write_atomic
from inspector.core.units.ranges import byte_range

FORMAT = "utf8-inspector-findings"
VERSION = 1
PATHS_FILE = "paths.json"
NOTE_LIMIT = 20_000          # characters of one note
BYTES_PREVIEW = 256          # bytes of a finding written into exports and reports
EARLIER_KEPT = 8             # earlier identities remembered per path
QUICK_SPAN = 1 << 20         # bytes hashed at each end for a quick identity
PENDING_PREFIX = "pending-"  # findings files kept under a quick identity

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class FindingsError(Exception):
    """A findings file that cannot be used (bad JSON, a wrong shape, another file's)."""


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Identity:
    """What the bytes are: their SHA-256 (lowercase hex) and size."""
    sha256: str
    size: int

    def __post_init__(self):
        if not isinstance(self.sha256, str) or not _HEX64.match(self.sha256):
            raise FindingsError(f"not a SHA-256: {self.sha256!r}")
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size < 0:
            raise FindingsError(f"not a size: {self.size!r}")

    @property
    def file_name(self) -> str:
        return f"{self.sha256}-{self.size}.json"

    def as_dict(self) -> dict:
        return {"sha256": self.sha256, "size": self.size}

    @classmethod
    def from_dict(cls, d) -> "Identity":
        if not isinstance(d, dict):
            raise FindingsError("the identity is not an object")
        return cls(d.get("sha256"), d.get("size"))


@dataclass(frozen=True)
class QuickIdentity:
    """What the bytes at a path look like before their whole SHA-256 is known: the
    path, size and modification time, and the SHA-256 of the first and last
    :data:`QUICK_SPAN` bytes. Read in a few milliseconds at any size; enough to keep
    findings under at once, not enough to put them on other bytes: the whole hash
    confirms them."""
    path: str
    size: int
    mtime_ns: int
    head_sha256: str
    tail_sha256: str

    @property
    def key(self) -> str:
        import hashlib  # here: OpenSSL's libcrypto loads with the first finding or scan

        text = json.dumps(self.as_dict(), sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:40]

    @property
    def file_name(self) -> str:
        return f"{PENDING_PREFIX}{self.key}.json"

    def as_dict(self) -> dict:
        return {"path": self.path, "size": self.size, "mtime_ns": self.mtime_ns,
                "head_sha256": self.head_sha256, "tail_sha256": self.tail_sha256}

    @classmethod
    def from_dict(cls, d) -> "QuickIdentity":
        if not isinstance(d, dict):
            raise FindingsError("the quick identity is not an object")
        path, size, mtime = d.get("path"), d.get("size"), d.get("mtime_ns")
        head, tail = d.get("head_sha256"), d.get("tail_sha256")
        if not isinstance(path, str) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in (size, mtime)):
            raise FindingsError("the quick identity's path, size or time is malformed")
        if not all(isinstance(h, str) and _HEX64.match(h) for h in (head, tail)):
            raise FindingsError("the quick identity's hashes are malformed")
        return cls(path, size, mtime, head, tail)


def quick_identity(source) -> QuickIdentity | None:
    """The :class:`QuickIdentity` of a file source as it is now (None for bytes that
    have no path: they have nowhere to be found again). Reads at most
    2 × :data:`QUICK_SPAN` bytes, past the source's block cache."""
    import hashlib

    path = source.path
    if path is None:
        return None
    size = source.size
    head = source.read_uncached(0, min(size, QUICK_SPAN))
    tail_at = max(0, size - QUICK_SPAN)
    tail = head[tail_at:] if tail_at < len(head) else source.read_uncached(tail_at, size - tail_at)
    return QuickIdentity(os.path.abspath(os.fsdecode(path)), size, source.mtime_ns,
                         hashlib.sha256(head).hexdigest(), hashlib.sha256(tail).hexdigest())


@dataclass
class Finding:
    """Bytes ``[start, end)`` marked with ``note``; ``created`` and ``modified`` are
    ISO 8601 times (UTC); ``id`` tells findings apart when two lists are merged."""
    start: int
    end: int
    note: str = ""
    created: str = field(default_factory=now_iso)
    modified: str = ""
    id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def length(self) -> int:
        return self.end - self.start

    def as_dict(self) -> dict:
        return {"id": self.id, "start": self.start, "end": self.end, "note": self.note,
                "created": self.created, "modified": self.modified or self.created}


def check_range(start, end, size: int | None = None) -> tuple[int, int]:
    """``(start, end)`` as ints if they make a non-empty range within ``size``."""
    for v in (start, end):
        if not isinstance(v, int) or isinstance(v, bool):
            raise FindingsError(f"an offset is not a whole number: {v!r}")
    if not 0 <= start < end:
        raise FindingsError(f"not a range of bytes: [{start}, {end})")
    if size is not None and end > size:
        raise FindingsError(f"the range {byte_range(start, end, decimal=True)} goes past the "
                             f"end ({size:,} bytes)")
    return start, end


def finding_from_dict(d, size: int | None = None) -> Finding:
    """A finding read from JSON, checked; raises FindingsError."""
    if not isinstance(d, dict):
        raise FindingsError("a finding is not an object")
    start, end = check_range(d.get("start"), d.get("end"), size)
    note = d.get("note", "")
    if not isinstance(note, str):
        raise FindingsError("a note is not text")
    if len(note) > NOTE_LIMIT:
        raise FindingsError(f"a note is longer than {NOTE_LIMIT} characters")
    created = d.get("created") or now_iso()
    modified = d.get("modified") or created
    fid = d.get("id") or uuid.uuid4().hex
    for v in (created, modified, fid):
        if not isinstance(v, str) or len(v) > 100:
            raise FindingsError("a finding's time or id is not short text")
    return Finding(start, end, note, created, modified, fid)


def sort_key(f: Finding):
    return (f.start, f.end, f.created, f.id)


def merge(mine: list[Finding], theirs: list[Finding]) -> list[Finding]:
    """Both lists as one, by id: where both hold a finding, the later modified wins."""
    by_id = {f.id: f for f in mine}
    for f in theirs:
        have = by_id.get(f.id)
        if have is None or (f.modified or f.created) > (have.modified or have.created):
            by_id[f.id] = f
    return sorted(by_id.values(), key=sort_key)


# ---------------------------------------------------------------- documents (JSON)

def to_document(identity: Identity | None, findings: list[Finding], source=None,
                path: str | None = None) -> dict:
    """The JSON object of a findings file or an export. With ``source`` each finding
    carries its first bytes (spaced hex), to check by eye and by program."""
    items = []
    for f in sorted(findings, key=sort_key):
        d = f.as_dict()
        if source is not None:
            d.update(bytes_entry(source, f))
        items.append(d)
    doc = {"format": FORMAT, "version": VERSION,
           "identity": identity.as_dict() if identity is not None else None,
           "findings": items, "saved": now_iso()}
    if path is not None:
        doc["path"] = path
    return doc


def from_document(doc, expect: Identity | None = None) -> tuple[Identity | None, list[Finding]]:
    """Read a findings document; raises FindingsError when it is not one, belongs to
    other bytes than ``expect``, or holds a finding past the end of its bytes."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise FindingsError("not a findings file of UTF-8 Inspector")
    version = doc.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise FindingsError(f"an unknown version of the findings format: {version!r}")
    raw_id = doc.get("identity")
    identity = Identity.from_dict(raw_id) if raw_id is not None else None
    if expect is not None and identity is not None and identity != expect:
        raise FindingsError(
            f"these findings belong to other bytes (SHA-256 {identity.sha256[:12]}…, "
            f"{identity.size:,} bytes), not to this file (SHA-256 {expect.sha256[:12]}…, "
            f"{expect.size:,} bytes)")
    items = doc.get("findings")
    if not isinstance(items, list):
        raise FindingsError("the findings are not a list")
    size = (identity or expect).size if (identity or expect) is not None else None
    return identity, sorted((finding_from_dict(d, size) for d in items), key=sort_key)


def bytes_entry(source, f: Finding, limit: int = BYTES_PREVIEW) -> dict:
    data = source.read(f.start, min(f.length, limit))
    entry = {"length": f.length, "bytes": data.hex(" ")}
    if f.length > limit:
        entry["bytes_truncated"] = True
    return entry


def report_entries(findings: list[Finding], source) -> list[dict]:
    """The findings as the reports list them: range, bytes (spaced hex), note, times."""
    out = []
    for f in sorted(findings, key=sort_key):
        d = {"start": f.start, "end": f.end}
        d.update(bytes_entry(source, f))
        d.update({"note": f.note, "created": f.created, "modified": f.modified or f.created,
                  "id": f.id})
        out.append(d)
    return out


def export_findings(path: str, identity: Identity | None, findings: list[Finding], source=None,
                    shown_path: str | None = None) -> None:
    write_atomic(path, json.dumps(to_document(identity, findings, source, shown_path),
                                  indent=2, ensure_ascii=False) + "\n")


def import_findings(path: str, expect: Identity | None) -> list[Finding]:
    """The findings of an export; raises FindingsError (or OSError) with a reason."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FindingsError(f"not JSON: {e}") from None
    return from_document(doc, expect)[1]


# ---------------------------------------------------------------- the store

@dataclass
class Loaded:
    """What :meth:`FindingStore.load` found: the findings, and the name a damaged file
    was set aside under (or "")."""
    findings: list[Finding]
    damaged: str = ""
    reason: str = ""


class FindingStore:
    """One JSON file per identity in ``folder``, and the per-path record.

    Reading never raises for a missing folder or file (there are no findings yet);
    writing raises OSError when the folder cannot be made or written (the caller keeps
    the findings in memory and says so)."""

    def __init__(self, folder: str):
        self.folder = os.fspath(folder)

    def file_for(self, identity: Identity) -> str:
        return os.path.join(self.folder, identity.file_name)

    def _ensure_folder(self) -> None:
        os.makedirs(self.folder, exist_ok=True)

    def set_aside(self, path: str) -> str:
        """Rename a damaged file out of the way; returns its new name ("" if it could
        not be renamed)."""
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = f"{path}.damaged-{stamp}"
        n = 1
        while os.path.exists(target):
            n += 1
            target = f"{path}.damaged-{stamp}-{n}"
        try:
            os.replace(path, target)
        except OSError:
            return ""
        return target

    def load(self, identity: Identity) -> Loaded:
        path = self.file_for(identity)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            return Loaded([])
        except NotADirectoryError:
            return Loaded([])
        try:
            doc = json.loads(raw.decode("utf-8"))
            _, findings = from_document(doc, identity)
        except (UnicodeDecodeError, json.JSONDecodeError, FindingsError) as e:
            reason = str(e)
            return Loaded([], damaged=self.set_aside(path) or path, reason=reason)
        return Loaded(findings)

    def save(self, identity: Identity, findings: list[Finding], path: str | None = None) -> None:
        """Write the findings of ``identity`` (an empty list removes its file); with
        ``path``, record that the file there has these bytes now."""
        self._ensure_folder()
        target = self.file_for(identity)
        if findings:
            write_atomic(target, json.dumps(to_document(identity, findings), indent=2,
                                            ensure_ascii=False) + "\n", private=True)
        else:
            try:
                os.unlink(target)
            except FileNotFoundError:
                pass
        if path is not None:
            self.record_path(path, identity)

    # -------------------------------------------------------- quick identities
    def _pending_file(self, quick: QuickIdentity) -> str:
        return os.path.join(self.folder, quick.file_name)

    def save_pending(self, quick: QuickIdentity, findings: list[Finding]) -> None:
        """Write the findings made under ``quick`` (an empty list removes its file)."""
        self._ensure_folder()
        target = self._pending_file(quick)
        if not findings:
            try:
                os.unlink(target)
            except FileNotFoundError:
                pass
            return
        doc = to_document(None, findings, path=quick.path)
        doc["quick_identity"] = quick.as_dict()
        write_atomic(target, json.dumps(doc, indent=2, ensure_ascii=False) + "\n", private=True)

    def _read_pending(self, path: str) -> tuple[QuickIdentity, list[Finding]]:
        with open(path, "rb") as f:
            raw = f.read()
        try:
            doc = json.loads(raw.decode("utf-8"))
            quick = QuickIdentity.from_dict(doc.get("quick_identity") if isinstance(doc, dict) else None)
            _, findings = from_document(doc)
        except (UnicodeDecodeError, json.JSONDecodeError, FindingsError) as e:
            raise FindingsError(str(e)) from None
        for f in findings:
            check_range(f.start, f.end, quick.size)
        return quick, findings

    def load_pending(self, quick: QuickIdentity) -> Loaded:
        """The findings saved under ``quick``; a damaged file is set aside."""
        path = self._pending_file(quick)
        try:
            _, findings = self._read_pending(path)
        except (FileNotFoundError, NotADirectoryError):
            return Loaded([])
        except FindingsError as e:
            return Loaded([], damaged=self.set_aside(path) or path, reason=str(e))
        return Loaded(findings)

    def pending_at(self, path: str) -> list[tuple[QuickIdentity, list[Finding]]]:
        """Every set of findings kept under a quick identity of the file at ``path``
        (any size or time: the caller tells the current one from earlier ones)."""
        key = os.path.abspath(os.fsdecode(path))
        try:
            names = sorted(n for n in os.listdir(self.folder)
                           if n.startswith(PENDING_PREFIX) and n.endswith(".json"))
        except OSError:
            return []
        out = []
        for name in names:
            try:
                quick, findings = self._read_pending(os.path.join(self.folder, name))
            except (OSError, FindingsError):
                continue  # a damaged one is set aside when it is loaded as the current
            if quick.path == key and findings:
                out.append((quick, findings))
        return out

    def remove_pending(self, quick: QuickIdentity) -> None:
        try:
            os.unlink(self._pending_file(quick))
        except FileNotFoundError:
            pass

    # -------------------------------------------------------- path -> identity
    def _paths_file(self) -> str:
        return os.path.join(self.folder, PATHS_FILE)

    def read_paths(self) -> dict:
        try:
            with open(self._paths_file(), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def path_record(self, path: str) -> tuple[Identity | None, list[Identity]]:
        """The identity last recorded for ``path`` and the earlier ones (newest first)."""
        entry = self.read_paths().get(os.path.abspath(path))
        if not isinstance(entry, dict):
            return None, []
        try:
            last = Identity.from_dict(entry.get("identity"))
        except FindingsError:
            return None, []
        earlier = []
        for d in entry.get("earlier", []) or []:
            try:
                earlier.append(Identity.from_dict(d))
            except FindingsError:
                continue
        return last, earlier

    def record_path(self, path: str, identity: Identity) -> None:
        """Record that ``path`` holds ``identity``; the identity it had before, if other,
        goes first into its list of earlier ones."""
        self._ensure_folder()
        paths = self.read_paths()
        key = os.path.abspath(path)
        last, earlier = self.path_record(path)
        if last == identity:
            return
        if last is not None:
            earlier = [last] + [e for e in earlier if e != last]
        earlier = [e for e in earlier if e != identity][:EARLIER_KEPT]
        paths[key] = {"identity": identity.as_dict(),
                      "earlier": [e.as_dict() for e in earlier], "recorded": now_iso()}
        write_atomic(self._paths_file(), json.dumps(paths, indent=2, ensure_ascii=False) + "\n",
                     private=True)

    def earlier_findings(self, path: str, identity: Identity) -> list[tuple[Identity, list[Finding]]]:
        """The findings made on other bytes at ``path`` (the file changed since), each
        with the identity they belong to; read only, never moved."""
        last, earlier = self.path_record(path)
        out = []
        for ident in ([last] if last is not None else []) + earlier:
            if ident == identity:
                continue
            loaded = self.load(ident)
            if loaded.findings:
                out.append((ident, loaded.findings))
        return out


def describe(found, limit: int = 400) -> str:
    """The findings at a place as the panes' tooltips add them, one per line."""
    lines = []
    for f in found:
        note = f.note if len(f.note) <= limit else f.note[:limit - 1] + "…"
        lines.append(f"Finding {byte_range(f.start, f.end)}: "
                     f"{note or '(no note)'}")
    return "\n".join(lines)
