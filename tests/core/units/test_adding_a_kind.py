"""What adding an error kind takes, proved by doing it: a copy of the program gains a
kind (``overlong_ascii``: the 2-byte overlong forms, split from ``overlong``) by edits
to the source files listed in :data:`NEW_KIND_NEEDS` and to the resources, nothing
else; then the reference decoder, the page cut and the scanner's three paths (the utf-8
byte kernel, the row kernel, the clean text path) cut and count it alike in every
dialect, and the kinds table's own tests pass on the copy.

README's "Adding an error kind" section lists the same files; a test keeps the two
equal. (The views, reports and command line read the kinds table: ``tests/gui/
test_new_kind.py`` shows a kind that lives in the table only reaching each of them.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# The source files a new error kind touches, and what goes in each.
NEW_KIND_NEEDS = {
    "inspector/core/units/kinds.py":
        "its entry in TABLE: name, code, title, words, mark, colour role, sample",
    "inspector/core/units/decoder.py": "its rule in the reference cut (decoder.cut)",
    "inspector/core/scan/kernels/codes.py":
        "its rule in the vectorised cuts: FIRST_KIND (a kind decided by its first byte) "
        "or complete_unit_kinds (by a complete unit's value and length)",
    "inspector/core/units/dialects.py":
        "only if FSS-UTF accepts it: its name in _FSS_ACCEPTS",
}
# And the resources: its colour in every palette, its name in the unit contract.
NEW_KIND_RESOURCES = ("resources/palettes/*.json", "resources/docs/utf8-units.md")


def test_a_new_kind_touches_at_most_four_source_files_and_no_window_module():
    assert len(NEW_KIND_NEEDS) <= 4
    assert all(path.startswith("inspector/core/") for path in NEW_KIND_NEEDS)
    assert all((ROOT / path).is_file() for path in NEW_KIND_NEEDS)


def test_the_readme_lists_the_same_files():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Adding an error kind\n", 1)[1].split("\n#", 1)[0]
    named = re.findall(r"`((?:inspector|resources)/[^`]+)`", section)
    assert [p for p in named if p.startswith("inspector/")] == list(NEW_KIND_NEEDS)
    assert [p for p in named if p.startswith("resources/")] == list(NEW_KIND_RESOURCES)


# ------------------------------------------------------------------ doing it

NAME = "overlong_ascii"


def _edit(path: Path, anchor: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{path}: the anchor {anchor!r} moved"
    path.write_text(text.replace(anchor, replacement), encoding="utf-8")


def add_the_kind(top: Path) -> set[str]:
    """Add ``overlong_ascii`` to the copy at ``top``; returns the files edited."""
    from inspector.core.units import kinds as K

    code = len(K.ERROR_KINDS) + 1   # the next error code: the table's order is the codes'
    kinds = top / "inspector/core/units/kinds.py"
    _edit(kinds, 'INVALID_BYTE = "invalid_byte"\n',
          f'INVALID_BYTE = "invalid_byte"\nOVERLONG_ASCII = "{NAME}"\n')
    # The overlong sample C0 AF becomes the new kind's; overlong keeps a 3-byte one.
    _edit(kinds, 'sample=b"\\xc0\\xaf", has_value=True,',
          'sample=b"\\xe0\\x80\\xaf", has_value=True,')
    _edit(kinds, "    _warning(\n        BOM, code=0,",
          "    _error(\n"
          f"        OVERLONG_ASCII, code={code}, mark=\"A\", light_colour=\"#123456\",\n"
          "        sample=b\"\\xc0\\xaf\", has_value=True,\n"
          "        title=\"overlong ASCII\",\n"
          "        summary=\"an ASCII character written with two bytes\",\n"
          "        explanation=\"an ASCII character in two bytes (C0 or C1 lead)\"),\n"
          "    _warning(\n        BOM, code=0,")
    _edit(top / "inspector/core/units/decoder.py", "            kind = K.OVERLONG\n",
          "            kind = K.OVERLONG_ASCII if L == 2 else K.OVERLONG\n")
    _edit(top / "inspector/core/scan/kernels/codes.py",
          "    kind[value < SMALLEST_VALUE[length]] = C_OVERLONG\n",
          "    kind[value < SMALLEST_VALUE[length]] = C_OVERLONG\n"
          "    kind[(value < SMALLEST_VALUE[length]) & (length == 2)] = "
          "CODE_OF[K.OVERLONG_ASCII]\n")
    for palette in (top / "resources/palettes").glob("*.json"):
        colours = json.loads(palette.read_text(encoding="utf-8"))
        colours[NAME] = "#123456"
        palette.write_text(json.dumps(colours, indent=2), encoding="utf-8")
    last = K.ERROR_KINDS[-1]
    _edit(top / "resources/docs/utf8-units.md", f"`{last}`.\n",
          f"`{last}`, `{NAME}`.\n")
    return {"inspector/core/units/kinds.py", "inspector/core/units/decoder.py",
            "inspector/core/scan/kernels/codes.py"}


CHECK = r'''
import random
from collections import Counter

from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut
from inspector.core.scan import pagecut, scanner
from inspector.core.source.bytesource import MemorySource

NAME = "overlong_ascii"
assert NAME in K.ERROR_KINDS
rnd = random.Random(3)
pieces = [b"plain ", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xc0\x80", b"\xff", b"\x80",
          "é€𝄞".encode(), b"\xed\xa0\xbd\xed\xb8\x80", b"\xe2\x82"]
texts = {
    "sparse": b"text " * 4000 + b"\xc0\xaf" + b" more text " * 3000 + b"\xc1\x81",
    "dense": b"".join(rnd.choice(pieces) for _ in range(30000)),
    "random": bytes(rnd.randrange(256) for _ in range(60000)),
}
for label, data in texts.items():
    for dialect in K.DIALECTS:
        units = cut(data, 0, dialect)
        want = Counter(u.kind for u in units if u.kind != K.VALID)
        assert list(pagecut.cut(data, 0, dialect).units()) == units, (label, dialect)
        for block_size in (4096, 1 << 20):
            result = scanner.scan(MemorySource(data), dialect=dialect, block_size=block_size)
            got = {k: n for k, n in result.errors_by_kind.items() if n}
            assert got == dict(want), (label, dialect, got, dict(want))
        assert want[NAME] > 0, (label, dialect)
print("ok")
'''


@pytest.mark.slow
def test_a_kind_added_in_those_files_is_cut_and_counted_everywhere(tmp_path):
    top = tmp_path / "copy"
    ignore = shutil.ignore_patterns("__pycache__", "screenshots", "*.pyc")
    shutil.copytree(ROOT / "inspector", top / "inspector", ignore=ignore)
    shutil.copytree(ROOT / "resources", top / "resources", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", top / "pyproject.toml")
    edited = add_the_kind(top)
    assert edited <= set(NEW_KIND_NEEDS)
    # Nothing else in the program differs from this checkout.
    for path in (top / "inspector").rglob("*.py"):
        rel = path.relative_to(top).as_posix()
        if rel not in edited:
            assert path.read_bytes() == (ROOT / rel).read_bytes(), rel
    env = dict(os.environ, PYTHONPATH=str(top), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", CHECK], cwd=top, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
    # The kinds table's own tests (entries, samples, palettes, contract) pass on the copy.
    tests = top / "tests"
    tests.mkdir()
    shutil.copy(ROOT / "tests/core/units/test_kind_table.py", tests)
    shutil.copy(ROOT / "tests/core/units/test_interpretation.py", tests)
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                          "-p", "no:cacheprovider", str(tests)], cwd=top, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:]
