"""The house's rules, read from the source: which package may import which.

- no import cycle among the modules of ``inspector`` (imports inside functions count:
  a lazy import hides a cycle, it does not remove it);
- Qt (PySide6, shiboken6) only inside ``inspector.gui``;
- the core never imports the window or the command line;
- the layers of the core point down: ``source`` <- ``units`` <- ``scan`` <- ``analysis``
  (the units never import the scan, the scan never imports the verdict or any other
  analysis);
- no private name (``_x``) is imported from another module, nor read from one;
- the Unicode database (``unicodedata``, ``unicodedata2``) only through
  ``inspector.core.units.unicode_db``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "inspector"

# Lower layers first: a module may import from its own layer or a lower one.
CORE_LAYERS = ["inspector.core.source", "inspector.core.units", "inspector.core.scan",
               "inspector.core.analysis"]
QT = ("PySide6", "shiboken6")
UNICODE_DATABASES = ("unicodedata", "unicodedata2")
UNICODE_DB = "inspector.core.units.unicode_db"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = all_modules()


def resolve(name: str) -> str | None:
    """The module of ours that importing ``name`` runs, or None for a foreign one."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import in the module."""
    tree = ast.parse(MODULES[module].read_text(), str(MODULES[module]))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[:len(parent) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            names = [a.name for a in node.names]
            # "from pkg import mod" imports the module pkg.mod
            for name in names:
                if f"{base}.{name}" in MODULES:
                    found.append((f"{base}.{name}", [], node.lineno))
            plain = [n for n in names if f"{base}.{n}" not in MODULES]
            if plain or not names:
                found.append((base, plain, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for m in MODULES:
        for target, _names, _line in imports_of(m):
            ours = resolve(target)
            if ours is not None and ours != m:
                edges[m].add(ours)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def layer_of(module: str) -> int | None:
    for i, layer in enumerate(CORE_LAYERS):
        if module == layer or module.startswith(layer + "."):
            return i
    return None


def test_the_contract_sees_the_whole_package():
    assert len(MODULES) > 40
    assert "inspector.core.scan.scanner" in MODULES and "inspector.gui.document" in MODULES


def test_no_import_cycle_inside_inspector():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_qt_is_imported_only_by_the_window():
    offenders = [f"{m}:{line} imports {target}"
                 for m in MODULES if not m.startswith("inspector.gui")
                 for target, _names, line in imports_of(m) if target.split(".")[0] in QT]
    assert offenders == []


def test_the_core_never_imports_the_window_or_the_command_line():
    offenders = [f"{m}:{line} imports {target}"
                 for m in MODULES if m.startswith("inspector.core")
                 for target, _names, line in imports_of(m)
                 if target.startswith(("inspector.gui", "inspector.cli"))]
    assert offenders == []


def test_every_core_module_belongs_to_a_layer():
    loose = [m for m in MODULES if m.startswith("inspector.core.") and layer_of(m) is None]
    assert loose == []


def test_the_core_layers_point_down():
    """The units never import the scan; the scan never imports the verdict."""
    offenders = []
    for m in MODULES:
        mine = layer_of(m)
        if mine is None:
            continue
        for target, _names, line in imports_of(m):
            theirs = layer_of(resolve(target) or "")
            if theirs is not None and theirs > mine:
                offenders.append(f"{m}:{line} imports {target} (a higher layer)")
    assert offenders == []


def test_no_private_name_crosses_a_module_boundary():
    offenders = []
    for m, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        aliases = {}
        for target, names, line in imports_of(m):
            if resolve(target) is None or resolve(target) == m:
                continue
            offenders += [f"{m}:{line} imports {target}.{n}" for n in names
                          if n.startswith("_") and not n.startswith("__")]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) or isinstance(node, ast.Import):
                for a in node.names:
                    full = (f"{node.module}.{a.name}" if isinstance(node, ast.ImportFrom)
                            and node.module else a.name)
                    if full in MODULES and full != m:
                        aliases[a.asname or a.name] = full
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                offenders.append(f"{m}:{node.lineno} reads {aliases[node.value.id]}.{node.attr}")
    assert offenders == []


@pytest.mark.parametrize("folder", sorted({p.parent for p in PACKAGE.rglob("*.py")}),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_folder_is_crowded(folder):
    assert len([p for p in folder.glob("*.py") if p.name != "__init__.py"]) <= 14


def test_only_unicode_db_asks_the_unicode_database():
    """One database answers every question about a character: the standard library's
    is older than ``unicodedata2``'s, and two answers would set the panes apart."""
    offenders = [f"{m}:{line} imports {target}"
                 for m in MODULES if m != UNICODE_DB
                 for target, _names, line in imports_of(m) if target in UNICODE_DATABASES]
    # Imports the syntax tree does not show: importlib, __import__, find_spec by name.
    named = re.compile(r"""["']unicodedata2?["']""")
    for m, path in MODULES.items():
        if m != UNICODE_DB:
            offenders += [f"{m}:{n} names {hit.group()}"
                          for n, text in enumerate(path.read_text().splitlines(), 1)
                          for hit in named.finditer(text)]
    assert offenders == []
    assert any(target in UNICODE_DATABASES for target, _names, _line in imports_of(UNICODE_DB))
