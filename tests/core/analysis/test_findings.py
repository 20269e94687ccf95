"""The findings store: one file per content identity, atomic writes, damaged files set
aside, the per-path record, export and import, and the reports' findings."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from inspector.core.analysis import findings as F
from inspector.core.analysis import htmlreport
from inspector.core.source.bytesource import MemorySource

DATA = b"Hello, w\xc3\xb6rld! \xc0\xaf end\n"


def ident(data: bytes = DATA) -> F.Identity:
    return F.Identity(hashlib.sha256(data).hexdigest(), len(data))


def test_identity_checks_its_fields():
    with pytest.raises(F.FindingsError):
        F.Identity("abc", 3)
    with pytest.raises(F.FindingsError):
        F.Identity("0" * 64, -1)
    assert ident().file_name == f"{ident().sha256}-{len(DATA)}.json"


def test_save_and_load_round_trip(tmp_path):
    store = F.FindingStore(tmp_path / "data")
    items = [F.Finding(15, 17, "overlong /"), F.Finding(0, 5, "greeting")]
    store.save(ident(), items, path=str(tmp_path / "evidence.bin"))
    loaded = store.load(ident())
    assert loaded.damaged == ""
    assert [(f.start, f.end, f.note) for f in loaded.findings] == [(0, 5, "greeting"),
                                                                   (15, 17, "overlong /")]
    # no temporary file left behind
    assert sorted(os.listdir(tmp_path / "data")) == sorted([ident().file_name, F.PATHS_FILE])
    assert store.path_record(str(tmp_path / "evidence.bin"))[0] == ident()


def test_missing_folder_and_file_mean_no_findings(tmp_path):
    assert F.FindingStore(tmp_path / "nowhere").load(ident()).findings == []


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b'{"format": "other"}',
                                     json.dumps({"format": F.FORMAT, "version": 1,
                                                 "identity": None,
                                                 "findings": [{"start": 5, "end": 999}]}).encode()])
def test_a_damaged_file_is_set_aside(tmp_path, content):
    store = F.FindingStore(tmp_path)
    (tmp_path / ident().file_name).write_bytes(content)
    loaded = store.load(ident())
    assert loaded.findings == []
    assert ".damaged-" in loaded.damaged and loaded.reason
    assert not (tmp_path / ident().file_name).exists()
    assert open(loaded.damaged, "rb").read() == content


def test_an_unwritable_folder_raises_oserror(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    store = F.FindingStore(blocker / "findings")   # a folder under a regular file
    with pytest.raises(OSError):
        store.save(ident(), [F.Finding(0, 1, "x")])


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    store = F.FindingStore(tmp_path)
    store.save(ident(), [F.Finding(0, 1, "first")])

    def broken(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(F.os, "replace", broken)
    with pytest.raises(OSError):
        store.save(ident(), [F.Finding(0, 2, "second")])
    monkeypatch.undo()
    assert [f.note for f in store.load(ident()).findings] == ["first"]
    assert [n for n in os.listdir(tmp_path) if n.endswith(".partial")] == []


def test_path_record_keeps_earlier_identities(tmp_path):
    store = F.FindingStore(tmp_path)
    path = str(tmp_path / "evidence.bin")
    old, new = ident(), ident(DATA + b"more")
    store.save(old, [F.Finding(0, 5, "old note")], path=path)
    store.save(new, [F.Finding(1, 2, "new note")], path=path)
    assert store.path_record(path) == (new, [old])
    earlier = store.earlier_findings(path, new)
    assert [(i, [f.note for f in fs]) for i, fs in earlier] == [(old, ["old note"])]


def test_merge_by_id_later_edit_wins():
    a = F.Finding(0, 1, "a", created="2024-01-01T00:00:00Z", modified="2024-01-01T00:00:00Z", id="x")
    b = F.Finding(0, 1, "b", created="2024-01-01T00:00:00Z", modified="2024-02-01T00:00:00Z", id="x")
    c = F.Finding(3, 4, "c")
    assert [f.note for f in F.merge([a], [b, c])] == ["b", "c"]
    assert [f.note for f in F.merge([b], [a])] == ["b"]


def test_export_import_round_trip_and_wrong_bytes(tmp_path):
    src = MemorySource(DATA)
    items = [F.Finding(15, 17, 'overlong <"/">'), F.Finding(0, 5, "héllo\nsecond line")]
    out = tmp_path / "export.json"
    F.export_findings(str(out), ident(), items, src)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["findings"][1]["bytes"] == "c0 af"
    back = F.import_findings(str(out), ident())
    assert [(f.start, f.end, f.note, f.id) for f in back] == \
        [(f.start, f.end, f.note, f.id) for f in sorted(items, key=F.sort_key)]
    with pytest.raises(F.FindingsError, match="other bytes"):
        F.import_findings(str(out), ident(b"other"))
    (tmp_path / "bad.json").write_text("[1, 2")
    with pytest.raises(F.FindingsError):
        F.import_findings(str(tmp_path / "bad.json"), ident())


def test_validation_of_ranges_and_notes():
    with pytest.raises(F.FindingsError):
        F.finding_from_dict({"start": 3, "end": 3})
    with pytest.raises(F.FindingsError):
        F.finding_from_dict({"start": "0", "end": 3})
    with pytest.raises(F.FindingsError):
        F.finding_from_dict({"start": 0, "end": 3, "note": 5})
    with pytest.raises(F.FindingsError):
        F.finding_from_dict({"start": 0, "end": 30}, size=20)


def test_reports_list_findings_with_bytes_and_escaped_notes():
    src = MemorySource(DATA)
    entries = F.report_entries([F.Finding(15, 17, "<script>alert('x')</script> & co")], src)
    assert entries[0]["bytes"] == "c0 af" and entries[0]["length"] == 2
    page = htmlreport.render_html({"findings": entries, "path": "x"})
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; co" in page
    assert 'id="findings"' in page and "c0 af" in page


def test_long_findings_are_cut_in_reports():
    data = bytes(range(256)) * 4
    entries = F.report_entries([F.Finding(0, len(data), "all")], MemorySource(data))
    assert entries[0]["bytes_truncated"] is True
    assert len(bytes.fromhex(entries[0]["bytes"])) == F.BYTES_PREVIEW


# ---------------------------------------------------------------- quick identities

def test_quick_identity_reads_only_the_ends(tmp_path):
    from inspector.core.source.bytesource import FileSource

    path = tmp_path / "big.bin"
    data = bytes(range(256)) * (3 * F.QUICK_SPAN // 256) + b"tail"
    path.write_bytes(data)
    with FileSource(str(path)) as src:
        reads = []
        real = src.read_uncached
        src.read_uncached = lambda o, n: reads.append(n) or real(o, n)
        q = F.quick_identity(src)
    assert sum(reads) <= 2 * F.QUICK_SPAN
    assert q.size == len(data) and q.path == str(path)
    assert q.head_sha256 == hashlib.sha256(data[:F.QUICK_SPAN]).hexdigest()
    assert q.tail_sha256 == hashlib.sha256(data[-F.QUICK_SPAN:]).hexdigest()
    assert F.QuickIdentity.from_dict(q.as_dict()) == q
    # The middle is not seen: that is what the whole hash is for.
    data = bytearray(data)
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    os.utime(path, ns=(q.mtime_ns, q.mtime_ns))
    with FileSource(str(path)) as src:
        assert F.quick_identity(src) == q
    assert F.quick_identity(MemorySource(b"abc")) is None


def test_pending_findings_round_trip_and_are_found_by_path(tmp_path):
    store = F.FindingStore(str(tmp_path / "store"))
    q = F.QuickIdentity(str(tmp_path / "f.txt"), 100, 5, "a" * 64, "b" * 64)
    other = F.QuickIdentity(str(tmp_path / "f.txt"), 100, 6, "a" * 64, "b" * 64)
    elsewhere = F.QuickIdentity(str(tmp_path / "g.txt"), 100, 5, "a" * 64, "b" * 64)
    one, two = F.Finding(1, 3, "one"), F.Finding(5, 9, "two")
    store.save_pending(q, [one])
    store.save_pending(other, [two])
    store.save_pending(elsewhere, [two])
    assert [f.id for f in store.load_pending(q).findings] == [one.id]
    found = dict((k, [f.note for f in fs]) for k, fs in store.pending_at(q.path))
    assert found == {q: ["one"], other: ["two"]}
    store.remove_pending(q)
    assert store.load_pending(q).findings == []
    store.save_pending(other, [])   # an empty list removes the file
    assert store.pending_at(q.path) == []


def test_a_damaged_pending_file_is_set_aside(tmp_path):
    store = F.FindingStore(str(tmp_path))
    q = F.QuickIdentity(str(tmp_path / "f.txt"), 10, 5, "a" * 64, "b" * 64)
    (tmp_path / q.file_name).write_text("{not json")
    loaded = store.load_pending(q)
    assert loaded.findings == [] and loaded.damaged and os.path.exists(loaded.damaged)
    store.save_pending(q, [F.Finding(0, 20, "past the end")])
    assert store.load_pending(q).damaged   # a finding past the size is not these bytes'
