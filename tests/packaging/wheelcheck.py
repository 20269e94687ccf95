"""Build the wheel, install it into a fresh virtualenv outside the source tree, and check
from another folder that the installed program works:

1. ``utf8-inspector --version`` answers with the version;
2. ``utf8-inspector scan DEMO`` on the demo sample *of the installed package* exits 1
   with the demo's verdict line;
3. ``utf8-inspector --smoke-test``: the window opens offscreen on the packaged demo,
   stays up, and exits 0.

Also that ``inspector`` and its demo are imported and read from the virtualenv, never
from the checkout. Used by ``.ci/run`` (as a script) and by ``test_packaging.py``::

    python3 tests/packaging/wheelcheck.py [--work DIR]     # exit status 0: all good

The virtualenv gets the wheel and its dependencies from the package index (or pip's
cache); the first run downloads PySide6.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO_VERDICT = ("UTF-8 with 21 problems: 4 overlong, 4 truncated, 4 unexpected continuation, "
                "3 surrogate, 2 invalid byte, 2 legacy long form, 2 out of range")


def version() -> str:
    text = (ROOT / "inspector" / "__init__.py").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise RuntimeError("no __version__ in inspector/__init__.py")


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def build_wheel(out: Path, log=print) -> Path:
    """``pip wheel --no-deps`` of the checkout into ``out``; returns the wheel."""
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-q",
                 "-w", out, ROOT], cwd=out)
    if done.returncode != 0:
        raise RuntimeError(f"building the wheel failed:\n{done.stdout}\n{done.stderr}")
    wheels = sorted(out.glob("utf8_inspector-*.whl"))
    if not wheels:
        raise RuntimeError(f"no wheel in {out}")
    log(f"built {wheels[-1].name} in {time.monotonic() - started:.1f} s")
    return wheels[-1]


def venv_bin(env_dir: Path) -> Path:
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


def make_venv(env_dir: Path, wheel: Path, log=print) -> Path:
    """A fresh virtualenv at ``env_dir`` with ``wheel`` and its dependencies."""
    started = time.monotonic()
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = venv_bin(env_dir) / "python"
    done = _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel],
                cwd=env_dir)
    if done.returncode != 0:
        raise RuntimeError(f"installing the wheel failed:\n{done.stdout}\n{done.stderr}")
    log(f"installed it with its dependencies into {env_dir} in {time.monotonic() - started:.1f} s")
    return env_dir


def smoke_env(env_dir: Path, home: Path) -> dict:
    """The environment the checks run in: the virtualenv first on PATH, nothing of the
    checkout on the import path, Qt offscreen, settings and log in a throwaway home."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PATH"] = os.pathsep.join([str(venv_bin(env_dir)), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(env_dir)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONNOUSERSITE"] = "1"
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        folder = home / name.lower()
        folder.mkdir(parents=True, exist_ok=True)
        env[name] = str(folder)
    return env


def check(env_dir: Path, work: Path, log=print) -> list[str]:
    """Run the three checks from ``work`` (a folder outside the checkout); returns what
    failed (nothing: an empty list)."""
    work.mkdir(parents=True, exist_ok=True)
    env = smoke_env(env_dir, work / "home")
    command = shutil.which("utf8-inspector", path=env["PATH"])
    python = venv_bin(env_dir) / "python"
    failures = []
    if command is None or not Path(command).resolve().is_relative_to(env_dir.resolve()):
        return [f"utf8-inspector is not installed in {env_dir} (found {command})"]

    where = _run([python, "-c", "import inspector; from inspector import resources_access; "
                  "print(inspector.__file__); print(resources_access.resource_path('samples/demo.txt'))"],
                 cwd=work, env=env, timeout=120)
    lines = where.stdout.split("\n")
    if where.returncode != 0 or len(lines) < 2:
        return [f"the installed package cannot be imported: {where.stderr.strip()}"]
    package, demo = Path(lines[0]), Path(lines[1])
    for what, path in (("the package", package), ("the demo sample", demo)):
        if not path.resolve().is_relative_to(env_dir.resolve()):
            failures.append(f"{what} comes from {path}, not from the virtualenv")
    log(f"the package and its demo are read from {demo.parent.parent}")

    done = _run([command, "--version"], cwd=work, env=env, timeout=120)
    expected = f"utf8-inspector {version()}"
    if done.returncode != 0 or done.stdout.strip() != expected:
        failures.append(f"--version: exit {done.returncode}, said {done.stdout.strip()!r} "
                        f"{done.stderr.strip()!r}, expected {expected!r}")
    else:
        log(f"--version: {done.stdout.strip()}")

    done = _run([command, "scan", demo], cwd=work, env=env, timeout=300)
    first = done.stdout.splitlines()[0] if done.stdout else ""
    if done.returncode != 1 or first != f"{demo}: {DEMO_VERDICT}":
        failures.append(f"scan of the packaged demo: exit {done.returncode} (expected 1), "
                        f"first line {first!r}, stderr {done.stderr.strip()!r}")
    else:
        log(f"scan: exit 1, {DEMO_VERDICT}")

    done = _run([command, "--smoke-test"], cwd=work, env=env, timeout=300)
    said = done.stdout.strip().splitlines()
    if done.returncode != 0 or not said or not said[-1].startswith("smoke test: passed"):
        failures.append(f"window smoke test: exit {done.returncode}, said {done.stdout.strip()!r}, "
                        f"stderr {done.stderr.strip()[-2000:]!r}")
    else:
        log(said[-1])
    return failures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--work", type=Path, default=None,
                   help="folder for the wheel, the virtualenv and the checks (default: a "
                        "temporary one, removed at the end)")
    args = p.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="utf8-inspector-wheel-"))
    work = work.resolve()
    if work.is_relative_to(ROOT):
        print(f"wheelcheck: {work} is inside the source tree; choose a folder outside it",
              file=sys.stderr)
        return 2
    try:
        wheel = build_wheel(work / "dist")
        env_dir = make_venv(work / "venv", wheel)
        failures = check(env_dir, work / "elsewhere")
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"wheelcheck: {e}", file=sys.stderr)
        return 1
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(f"wheelcheck: FAILED: {failure}", file=sys.stderr)
    if not failures:
        print("wheelcheck: the installed wheel works")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
