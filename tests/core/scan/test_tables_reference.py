"""The warning tables (built with slices, mapped from the cache file, the Modified UTF-8
copy made on first use) equal those of the reference build below: the tables as they
were built before issue 14 (masks over an int64 array of every code point)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inspector.core.scan import tables as TB
from inspector.core.units import kinds as K

WB = TB.WARNING_BIT


def reference_tables(unassigned: np.ndarray) -> dict:
    cps = np.arange(0x110000, dtype=np.int64)
    bits = np.zeros(0x110000, dtype=np.uint16)
    bits[0xFFFD] |= WB[K.REPLACEMENT_CHAR]
    control = ((cps < 0x20) & (cps != 0x09) & (cps != 0x0A) & (cps != 0x0D)) | ((cps >= 0x7F) & (cps <= 0x9F))
    bits[control] |= TB.B_CONTROL
    nonchar = ((cps >= 0xFDD0) & (cps <= 0xFDEF)) | ((cps & 0xFFFE) == 0xFFFE)
    bits[nonchar] |= WB[K.NONCHARACTER]
    private = (((cps >= 0xE000) & (cps <= 0xF8FF)) | ((cps >= 0xF0000) & (cps <= 0xFFFFD))
               | ((cps >= 0x100000) & (cps <= 0x10FFFD)))
    bits[private] |= WB[K.PRIVATE_USE]
    bits[[0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]] |= WB[K.BIDI_CONTROL]
    bits[[0x200B, 0x200C, 0x200D, 0x2060]] |= WB[K.ZERO_WIDTH]
    bits[0xFEFF] |= TB.B_ZWNBSP
    unassigned = unassigned & ~nonchar
    unassigned[0xD800:0xE000] = False
    bits[unassigned] |= TB.B_UNASSIGNED
    any8 = (bits != 0).view(np.uint8)
    any8_escapes = any8.copy()
    any8_escapes[0xDC80:0xDD00] = 1
    bits_mutf8 = bits.copy()
    bits_mutf8[0] |= TB.B_RAW_NUL
    risk2 = np.zeros((256, 256), dtype=bool)
    any_bits = bits != 0
    risk2[:0x80, :] = any_bits[:0x80, None]
    for lead in range(0xC2, 0xE0):
        risk2[lead, 0x80:0xC0] = any_bits[((lead & 0x1F) << 6):((lead & 0x1F) << 6) + 64]
    blocks64 = any_bits[:0x10000].reshape(1024, 64).any(axis=1)
    for lead in range(0xE0, 0xF0):
        risk2[lead, 0x80:0xC0] = blocks64[(lead & 0x0F) << 6:((lead & 0x0F) << 6) + 64]
    blocks4k = any_bits.reshape(0x110, 4096).any(axis=1)
    for lead in range(0xF0, 0xF5):
        first = (lead & 0x07) << 6
        row = blocks4k[first:min(first + 64, 0x110)]
        risk2[lead, 0x80:0x80 + len(row)] = row
    risk1 = risk2.any(axis=1)
    return {"bits": bits, "any8": any8, "any8_escapes": any8_escapes,
            "flagged_or_escape": any8_escapes.view(bool), "bits_mutf8": bits_mutf8,
            "risk2": risk2.reshape(-1),
            "safe_bytes": bytes(b for b in range(256) if not risk1[b]),
            "risk_map": bytes(1 if risk1[b] else 0 for b in range(256))}


@pytest.fixture(scope="module")
def unassigned():
    return TB.build_unassigned()


@pytest.fixture(scope="module")
def reference(unassigned):
    return reference_tables(unassigned)


def assert_equal_to(t: TB.Tables, ref: dict) -> None:
    for name in ("bits", "any8", "any8_escapes", "flagged_or_escape", "bits_mutf8", "risk2"):
        got, want = getattr(t, name), ref[name]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert np.array_equal(got, want), name
    assert (t.safe_bytes, t.risk_map) == (ref["safe_bytes"], ref["risk_map"])


def test_the_built_tables_equal_the_reference(unassigned, reference):
    before = unassigned.copy()
    assert_equal_to(TB.Tables(unassigned), reference)
    assert np.array_equal(unassigned, before)  # the caller's array is left alone


def test_the_mapped_tables_equal_the_reference(tmp_path, monkeypatch, unassigned, reference,
                                               forgotten_tables):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert TB.map_cached_tables() is None
    t = TB.tables()  # builds, stores, maps the file
    assert (tmp_path / "utf8-inspector" / TB.tables_cache_path().rsplit("/", 1)[1]).stat().st_size \
        == TB.TABLES_FILE_SIZE
    assert not t.bits.flags.writeable and not t.any8_escapes.flags.writeable  # mapped
    assert_equal_to(t, reference)
    assert_equal_to(TB.map_cached_tables(), reference)
    assert TB.tables() is t
    assert t.bits_mutf8 is t.bits_mutf8  # one copy, made once


def test_the_background_steps_map_the_file_too(forgotten_tables, tmp_path, monkeypatch, reference):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(TB, "UNASSIGNED_SLICE", 1 << 18)
    steps = list(TB.tables_steps())
    assert len(steps) == 5  # the unassigned code points, in slices
    assert_equal_to(TB.tables(), reference)
    TB.use_tables(None)
    assert list(TB.tables_steps()) == []  # from the files: nothing to build
    assert not TB.tables().bits.flags.writeable


def test_tables_of_other_definitions_are_built_anew(tmp_path, monkeypatch, reference,
                                                    forgotten_tables):
    """A file that an older version wrote (same layout and Unicode version, other
    definitions of the warnings) is not used."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    TB.tables()
    path = tmp_path / "utf8-inspector" / TB.tables_cache_path().rsplit("/", 1)[1]
    ours = path.read_bytes()
    other = TB.TABLES_HEADER.replace(b"%08x" % TB.TABLES_DEFINITIONS,
                                     b"%08x" % (TB.TABLES_DEFINITIONS ^ 1))
    path.write_bytes(other + ours[len(other):])
    assert TB.map_cached_tables() is None
    TB.use_tables(None)
    assert_equal_to(TB.tables(), reference)
    assert path.read_bytes() == ours


def test_the_definitions_fingerprint_follows_the_code_only():
    def one(a):
        return a | 4

    def same(a):  # other name, other lines: the same code
        return a | 4

    def other(a):
        return a | 8

    assert TB.code_fingerprint(one.__code__) == TB.code_fingerprint(same.__code__)
    assert TB.code_fingerprint(one.__code__) != TB.code_fingerprint(other.__code__)
    code = ("import sys; sys.path.insert(0, {root!r})\n"
            "from inspector.core.scan import tables\n"
            "print(tables.TABLES_DEFINITIONS)\n")
    root = str(Path(TB.__file__).resolve().parents[3])
    runs = {subprocess.run([sys.executable, "-c", code.format(root=root)], capture_output=True,
                           text=True, env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
            for seed in ("1", "2")}
    assert runs == {f"{TB.TABLES_DEFINITIONS}\n"}  # not the run's string hashes


@pytest.mark.parametrize("damage", ["short", "header", "empty"])
def test_a_damaged_tables_file_is_written_anew(tmp_path, monkeypatch, reference, damage,
                                               forgotten_tables):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    TB.tables()
    path = tmp_path / "utf8-inspector" / TB.tables_cache_path().rsplit("/", 1)[1]
    data = path.read_bytes()
    path.write_bytes({"short": data[:-16], "header": b"X" + data[1:], "empty": b""}[damage])
    assert TB.map_cached_tables() is None
    TB.use_tables(None)
    assert_equal_to(TB.tables(), reference)
    assert path.stat().st_size == TB.TABLES_FILE_SIZE


def test_an_unwritable_cache_folder_builds_in_memory(forgotten_tables, monkeypatch, reference):
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/nonexistent")
    t = TB.tables()
    assert t.bits.flags.writeable  # built, not mapped
    assert_equal_to(t, reference)
