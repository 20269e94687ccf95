"""The kinds table (``inspector.core.units.kinds.TABLE``) is complete and agrees with the
decoder, the palettes and the unit contract: a kind is added there once, and these tests
say what else it needs."""

from __future__ import annotations

import json
import random
import re

import pytest

from inspector import resources_access
from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut
from inspector.core.units.interpretation import interpretation

CONTRACT = resources_access.read_text("docs/utf8-units.md")
PALETTES = [name.removesuffix(".json") for name in resources_access.names("palettes", ".json")]
FILL_ROLES = ("error_fill", "warning_fill")  # the boxes of errors and of warned units


def kinds_the_decoder_produces() -> set[str]:
    """Every kind and warning the decoder gives, in every dialect, on random bytes, every
    sample of the table, and the few warnings random bytes hardly reach."""
    rnd = random.Random(7)
    pieces = [bytes(rnd.randrange(256) for _ in range(4000)),
              "A\u00e9\u20ac\U0001d11e\ufeff\ufdd0\ufffd\x01\ue000\u202e\u200b\u0378".encode(),
              b"\xef\xbb\xbfA\x00 \xed\xa0\xbd\xed\xb8\x80",
              *(k.sample for k in K.TABLE)]
    found = set()
    for dialect in K.DIALECTS:
        for data in pieces:
            for u in cut(data, 0, dialect, final=True):
                found.add(u.kind)
                found.update(u.warnings)
    # The kinds of the other interpretations, from their samples.
    for info in K.TABLE:
        if info.sample_encoding != K.UTF8:
            for u in interpretation(info.sample_encoding).cut(info.sample):
                found.add(u.kind)
    return found


def test_every_kind_the_decoder_produces_has_an_entry():
    produced = kinds_the_decoder_produces()
    assert produced <= set(K.KINDS)
    assert set(K.KINDS) <= produced  # and the table holds no kind the decoder never gives


@pytest.mark.parametrize("info", K.TABLE, ids=lambda k: k.name)
def test_every_entry_has_every_field(info):
    assert info.family in (K.FAMILY_VALID, K.FAMILY_ERROR, K.FAMILY_WARNING)
    for text in (info.title, info.summary, info.explanation):
        assert text.strip() == text and text and not text.endswith("."), text
    assert info.sample
    if info.family == K.FAMILY_VALID:
        assert info.mark == "" and info.role is None and info.has_value
        return
    assert len(info.mark) == 1
    assert info.role and info.light_colour.startswith("#")


def test_the_names_by_family_follow_the_codes():
    assert [k.name for k in K.TABLE if k.family == K.FAMILY_VALID] == [K.VALID]
    assert K.KINDS[K.VALID].code == 0
    assert [K.KINDS[k].code for k in K.ERROR_KINDS] == list(range(1, len(K.ERROR_KINDS) + 1))
    assert [K.KINDS[w].code for w in K.WARNING_KINDS] == list(range(len(K.WARNING_KINDS)))
    # The table lists them in that order too (the spec's), and a kind's code names it.
    assert [k.name for k in K.TABLE] == [K.VALID, *K.ERROR_KINDS, *K.WARNING_KINDS]
    assert all(K.ALL_KINDS[K.KINDS[name].code] == name for name in K.ALL_KINDS)
    assert len(K.KINDS) == len(K.TABLE)


def test_each_error_has_its_own_mark_and_every_warning_the_warnings_one():
    marks = [K.KINDS[k].mark for k in K.ERROR_KINDS]
    assert len(set(marks)) == len(marks) and K.WARNING_MARK not in marks
    assert {K.KINDS[w].mark for w in K.WARNING_KINDS} == {K.WARNING_MARK}
    assert {K.KINDS[w].role for w in K.WARNING_KINDS} == {K.WARNING_ROLE}
    assert all(K.KINDS[k].role == k for k in K.ERROR_KINDS)


@pytest.mark.parametrize("name", K.ALL_KINDS)
def test_a_sample_is_one_unit_of_its_kind(name):
    info = K.KINDS[name]
    units = interpretation(info.sample_encoding).cut(info.sample, 0, final=True)
    assert [(u.kind, u.length) for u in units] == [(name, len(info.sample))]
    assert (units[0].value is not None) == info.has_value


@pytest.mark.parametrize("name", K.WARNING_KINDS)
def test_a_warnings_sample_carries_it(name):
    sample = K.KINDS[name].sample
    carried = {w for dialect in K.DIALECTS for data in (sample, b" " + sample)
               for u in cut(data, 0, dialect, final=True) for w in u.warnings}
    assert name in carried


@pytest.mark.parametrize("theme", PALETTES)
def test_every_palette_has_every_role(theme):
    palette = json.loads(resources_access.read_text(f"palettes/{theme}.json"))
    roles = {k.role for k in K.TABLE if k.role} | set(FILL_ROLES)
    assert roles <= set(palette), roles - set(palette)


def test_the_light_colours_are_the_light_palettes():
    light = json.loads(resources_access.read_text("palettes/light.json"))
    assert PALETTES and "light" in PALETTES
    for info in K.TABLE:
        if info.role:
            assert info.light_colour == light[info.role], info.name


def test_the_contract_names_exactly_the_tables_kinds():
    section = CONTRACT.split("## Kind names\n", 1)[1].split("\n## ", 1)[0]
    errors = section.split("Errors:", 1)[1].split(".", 1)[0]
    assert re.findall(r"`([a-z_]+)`", errors) == list(K.ERROR_KINDS)
    assert "Valid units are `valid`" in section
    warnings = CONTRACT.split("## Warnings (valid, but worth a look)\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip().strip("`") for line in warnings.splitlines()
            if line.startswith("| `")]
    assert rows == list(K.WARNING_KINDS)


def test_a_title_of_a_kind_the_table_does_not_know_is_its_name():
    assert K.title(K.OVERLONG) == "overlong form"
    assert K.title("from_a_newer_version") == "from_a_newer_version"
