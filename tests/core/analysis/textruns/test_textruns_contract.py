"""The unit contract's "Text runs" section: its examples are the finder's answers."""

import re

import pytest

from inspector import resources_access
from inspector.core.analysis.textruns import ScriptSets, find_runs, run_text
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K

CONTRACT = resources_access.read_text("docs/utf8-units.md")
SECTION = CONTRACT.split("## Text runs\n", 1)[1].split("\n## ", 1)[0]
EXAMPLES = [[c.strip() for c in line.strip("|").split("|")] for line in SECTION.splitlines()
            if line.startswith("| `") and re.match(r"\| `[0-9A-F]{2}[ `]", line)]


def runs_of(data: bytes):
    source = MemorySource(data)
    out = []
    for batch in find_runs(source, script_sets=ScriptSets()):
        for i in range(len(batch)):
            off, length = int(batch.offset[i]), int(batch.length[i])
            out.append((run_text(source, off, length, "utf-8"), off, length, int(batch.chars[i]),
                        bool(batch.damaged_before[i]), bool(batch.damaged_after[i])))
    return out


def test_the_examples_are_there():
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("row", EXAMPLES, ids=lambda r: r[0])
def test_each_example(row):
    data = bytes.fromhex(row[0].strip("`"))
    runs = runs_of(data)
    if row[1].startswith("none"):
        assert runs == []
        return
    m = re.match(r"`(.+)` at (\d+), (\d+) bytes, (\d+) chars(, damaged before and after)?", row[1])
    text, off, length, chars, damaged = m.groups()
    assert runs == [(text, int(off), int(length), int(chars), bool(damaged), bool(damaged))]


def test_the_dialect_table_names_every_other_dialect():
    names = {line.split("|")[1].strip().strip("`") for line in SECTION.splitlines()
             if line.startswith("| `") and "-" in line.split("|")[1]}
    assert names == set(K.DIALECTS) - {K.UTF8}
