"""The sdist, the wheel and an installed wheel, as a release and a user would have them.

- the sdist holds the package, the resources, the tests, README and pyproject;
- the wheel holds the package with ``resources/`` as ``inspector/resources`` (every
  runtime file and every image the docs show), and nothing of the source tree besides;
- installed into a fresh virtualenv outside the tree, the program works from another
  folder (``wheelcheck.py``: ``--version``, ``scan`` on the packaged demo, the window
  offscreen). CI builds that virtualenv once in ``.ci/run`` and hands it over in
  ``UTF8_INSPECTOR_WHEEL_VENV``; without it the test builds its own (about 20 s with a
  warm pip cache; the first time downloads PySide6).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from inspector import __version__
from inspector import resources_access

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheelcheck  # noqa: E402

ROOT = wheelcheck.ROOT
HAVE_BUILD = importlib.util.find_spec("build") is not None


def doc_targets() -> set[str]:
    """Every file the packaged documents link to or show, as resource names."""
    targets = set()
    for name in resources_access.names("docs", ".md"):
        text = resources_access.read_text(f"docs/{name}")
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target:
                continue
            targets.add(os.path.normpath(os.path.join("docs", target)).replace(os.sep, "/"))
    return targets


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """The sdist and the wheel, as ``python -m build`` makes them (the wheel is built
    from the sdist, so the sdist is known to be complete); without ``build``, only a
    wheel made by pip."""
    out = tmp_path_factory.mktemp("dist")
    if HAVE_BUILD:
        done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                              capture_output=True, text=True, cwd=out)
        assert done.returncode == 0, done.stdout + done.stderr
        sdists = list(out.glob("utf8_inspector-*.tar.gz"))
        assert len(sdists) == 1
        sdist = sdists[0]
    else:
        wheelcheck.build_wheel(out, log=lambda _msg: None)
        sdist = None
    wheels = list(out.glob("utf8_inspector-*.whl"))
    assert len(wheels) == 1
    return sdist, wheels[0]


@pytest.mark.slow
def test_the_wheel_carries_the_resources_as_package_data(dists):
    _sdist, wheel = dists
    assert wheel.name == f"utf8_inspector-{__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in resources_access.RUNTIME:
        assert f"inspector/resources/{name}" in names, name
    for name in sorted(doc_targets()):
        assert f"inspector/resources/{name}" in names, f"the docs show {name}, the wheel lacks it"
    for name in resources_access.names("samples"):
        if not name.endswith(".py"):
            assert f"inspector/resources/samples/{name}" in names
    assert "inspector/resources/__init__.py" in names
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"inspector", f"utf8_inspector-{__version__}.dist-info"}, tops
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert "inspector/resources/samples/make_samples.py" not in names
    meta = zipfile.ZipFile(wheel).read(f"utf8_inspector-{__version__}.dist-info/METADATA").decode()
    assert f"\nVersion: {__version__}\n" in meta
    entry = zipfile.ZipFile(wheel).read(
        f"utf8_inspector-{__version__}.dist-info/entry_points.txt").decode()
    assert "utf8-inspector = inspector.cli:main" in entry


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_BUILD, reason="the sdist is built with 'build' (the test extras)")
def test_the_sdist_holds_package_resources_tests_and_docs(dists):
    sdist, _wheel = dists
    assert sdist.name == f"utf8_inspector-{__version__}.tar.gz"
    top = f"utf8_inspector-{__version__}/"
    names = {n[len(top):] for n in tarfile.open(sdist).getnames() if n.startswith(top)}
    for required in ("pyproject.toml", "README.md", "PKG-INFO", "inspector/__init__.py",
                     "inspector/resources_access.py", "resources/__init__.py",
                     "resources/samples/make_samples.py", "tests/conftest.py",
                     "tests/packaging/wheelcheck.py", "tests/packaging/test_packaging.py"):
        assert required in names, required
    for name in resources_access.RUNTIME:
        assert f"resources/{name}" in names
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "tests", "resources", "inspector"],
                             capture_output=True, text=True)
    if tracked.returncode == 0:  # a git checkout: every tracked file of these is in the sdist
        missing = [n for n in tracked.stdout.split() if n not in names]
        assert not missing, missing
    assert not any(n.startswith((".git/", "build/", "dist/")) or "__pycache__" in n for n in names)


@pytest.mark.slow
def test_the_installed_wheel_works_from_another_folder(dists, tmp_path):
    """The three smoke checks on a wheel installed in a fresh virtualenv (CI's, when it
    made one)."""
    given = os.environ.get("UTF8_INSPECTOR_WHEEL_VENV")
    if given:
        env_dir = Path(given)
    else:
        _sdist, wheel = dists
        env_dir = wheelcheck.make_venv(tmp_path / "venv", wheel, log=lambda _msg: None)
    said = []
    failures = wheelcheck.check(env_dir, tmp_path / "elsewhere", log=said.append)
    assert not failures, "\n".join(failures)
    assert any(line.startswith("smoke test: passed") for line in said)


@pytest.mark.skipif(os.name == "nt", reason="the fake virtualenv's commands are shell scripts")
def test_the_checks_notice_a_wheel_without_its_data(tmp_path):
    """wheelcheck fails a package that reads its demo from the source tree (the bug this
    all started from), without building anything: a fake 'virtualenv' whose
    utf8-inspector runs the checkout."""
    env_dir = tmp_path / "venv"
    scripts = wheelcheck.venv_bin(env_dir)
    scripts.mkdir(parents=True)
    for name, module in (("python", None), ("utf8-inspector", "inspector")):
        run = f'exec {sys.executable} -m {module} "$@"' if module else f'exec {sys.executable} "$@"'
        script = scripts / name
        script.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} {run}\n")
        script.chmod(0o755)
    failures = wheelcheck.check(env_dir, tmp_path / "elsewhere", log=lambda _msg: None)
    assert any("not from the virtualenv" in f for f in failures), failures
