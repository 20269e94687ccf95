"""A charset the file declares, taken when its bytes agree (encodings/declared.py)."""

from inspector.core.analysis.encodings.declared import codec_of_label, declared_label, declared_reading
from inspector.core.analysis.verdict import verdict
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource

CZECH = "Příliš žluťoučký kůň úpěl ďábelské ódy. Šťastný Řehoř už čeká na nádraží.\n" * 8
FRENCH = "Le coeur a ses raisons que la raison ne connaît point ; déjà, à côté, été, très élevé.\n" * 8


def judged(data: bytes):
    src = MemorySource(data)
    return verdict(scan(src), src)


def page(charset: str, body: str, encoding: str) -> bytes:
    head = f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={charset}">'
    return (head + "</head><body>\n").encode("ascii") + body.encode(encoding) + b"</body></html>\n"


def test_labels_are_found_where_files_declare_them():
    assert declared_label(b'<?xml version="1.0" encoding="ISO-8859-2"?><a/>') == b"ISO-8859-2"
    assert declared_label(b'<head><meta charset="windows-1251"></head>') == b"windows-1251"
    assert declared_label(b'<meta http-equiv="content-type" content="text/html;charset=euc-kr">') == b"euc-kr"
    assert declared_label(b"#!/usr/bin/python\n# -*- coding: latin-1 -*-\n") == b"latin-1"
    assert declared_label(b'<!-- <meta charset="koi8-r"> --><p>x</p>') is None  # in a comment
    assert declared_label(b'<meta name="description" content="about charset=x">') is None
    assert declared_label(b"plain text, no declaration\n") is None
    assert codec_of_label(b"ks_c_5601-1987") == "cp949"
    assert codec_of_label(b"ISO-8859-1") == "iso8859-1"
    assert codec_of_label(b"no-such-charset") is None


def test_a_declared_charset_that_the_bytes_agree_with_is_the_verdict():
    v = judged(page("windows-1250", CZECH, "cp1250"))
    assert (v.code, v.details["encoding"], v.details["by"]) == ("legacy_charset", "cp1250", "declared")
    assert "(declared)" in v.text
    assert [(r.encoding, r.by) for r in v.regions] == [("cp1250", "declared")]


def test_bytes_80_9f_make_an_iso_declaration_its_windows_page():
    body = "“Quoted” – and a euro: 5 €, déjà vu.\n" * 5
    v = judged(page("iso-8859-1", body, "cp1252"))
    assert (v.details["encoding"], v.details["by"]) == ("cp1252", "declared")


def test_a_declaration_the_bytes_contradict_is_not_taken():
    # French in Latin-1 declared as KOI8-R: Cyrillic letters glued to Latin ones.
    v = judged(page("koi8-r", FRENCH, "latin-1"))
    assert v.details.get("by") != "declared"
    assert declared_reading(page("koi8-r", FRENCH, "latin-1")) is None
    # Declared Shift JIS, but the bytes do not decode in it.
    assert declared_reading(page("shift_jis", CZECH, "cp1250")) is None


def test_a_utf8_declaration_says_nothing_about_damage():
    data = page("utf-8", FRENCH, "utf-8")
    damaged = data[:200] + b"\xff\xfe\x80" + data[200:]
    v = judged(damaged)
    assert v.code == "problems"
    assert [r.encoding for r in v.regions] == ["utf-8"]


def test_a_declared_file_with_a_utf8_part_is_still_mapped():
    data = page("windows-1252", FRENCH, "cp1252") + ("Ein Übergang, schön und größer. " * 20 + "\n").encode("utf-8") * 4
    v = judged(data)
    assert v.code == "mixed"
    assert {r.encoding for r in v.regions} == {"cp1252", "utf-8"}
