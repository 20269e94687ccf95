"""The core and the Qt-free command line work with PySide6 unavailable: every module is
imported in a fresh interpreter where a meta-path finder refuses PySide6 and shiboken6,
and the ``units`` command runs there."""

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = """
import sys

class BlockQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6"):
            raise ImportError(f"{name} is blocked: the core must not import Qt")
        return None

sys.meta_path.insert(0, BlockQt())
"""


def core_modules():
    import inspector.core

    names = ["inspector", "inspector.core", "inspector.cli"]
    for info in pkgutil.walk_packages(inspector.core.__path__, "inspector.core."):
        names.append(info.name)
    for cli in ("inspector.cli.units", "inspector.cli.scan"):
        if (ROOT / (cli.replace(".", "/") + ".py")).exists():
            names.append(cli)
    return names


def run_blocked(code: str, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", BLOCKER + code, *args], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)


def test_the_blocker_blocks():
    done = run_blocked("import PySide6")
    assert done.returncode != 0 and "blocked" in done.stderr


@pytest.mark.parametrize("module", core_modules())
def test_module_imports_without_qt(module):
    done = run_blocked(f"import importlib; importlib.import_module({module!r});"
                       "assert not any(m.split('.')[0] in ('PySide6', 'shiboken6') for m in sys.modules)")
    assert done.returncode == 0, done.stderr


def test_the_command_line_modules_are_core_modules():
    assert {"inspector.cli.scan", "inspector.cli.units"} <= set(core_modules())


def test_units_command_runs_without_qt(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes("a€\xff".encode() + b"\xc0\xaf")
    done = run_blocked("from inspector.cli import main; sys.exit(main(['units', sys.argv[1], '--json']))",
                       str(path))
    assert done.returncode == 1, done.stderr
    assert '"overlong"' in done.stdout
