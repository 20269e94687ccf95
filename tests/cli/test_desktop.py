"""``--install-desktop`` / ``--uninstall-desktop``: the desktop entry and the icon in the
user's XDG data folder (here a temporary one), valid for desktop-file-validate."""

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import desktop, main
from inspector import resources_access

ROOT = Path(__file__).resolve().parents[2]
VALIDATE = shutil.which("desktop-file-validate")


def entry_fields(path: Path) -> dict:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def validate(path: Path) -> None:
    done = subprocess.run([VALIDATE, str(path)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


@pytest.fixture
def xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_packaged_entry():
    fields = entry_fields(resources_access.resource_path(resources_access.DESKTOP_ENTRY))
    assert fields["Type"] == "Application" and fields["Name"] == "UTF-8 Inspector"
    assert fields["Icon"] == "utf8-inspector"
    assert fields["Exec"].endswith(" %f")
    mimes = fields["MimeType"].split(";")
    assert "text/plain" in mimes and "application/octet-stream" in mimes


@pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate (desktop-file-utils) is not installed")
def test_the_packaged_entry_validates():
    validate(resources_access.resource_path(resources_access.DESKTOP_ENTRY))


def test_install_and_uninstall_in_the_xdg_data_folder(xdg, capsys):
    assert main(["--install-desktop"]) == 0
    entry = xdg / "applications" / "utf8-inspector.desktop"
    icon = xdg / "icons" / "hicolor" / "scalable" / "apps" / "utf8-inspector.svg"
    assert entry.is_file() and icon.is_file()
    assert icon.read_bytes() == resources_access.read_bytes(resources_access.ICON)
    out = capsys.readouterr().out
    assert str(entry) in out and str(icon) in out
    fields = entry_fields(entry)
    command = fields["Exec"].rsplit(" %f", 1)[0]
    # Run from pytest: this interpreter with -m inspector (an installed script is taken
    # as itself, see below).
    assert command == f"{sys.executable} -m inspector" or os.access(command, os.X_OK)
    assert fields[desktop.MARKER] == "true"
    if VALIDATE:
        validate(entry)
    assert main(["--install-desktop"]) == 0  # again: the same files, no error
    assert main(["--uninstall-desktop"]) == 0
    assert not entry.exists() and not icon.exists()
    assert main(["--uninstall-desktop"]) == 0
    assert "nothing to remove" in capsys.readouterr().out


def test_uninstall_leaves_an_entry_that_is_not_ours(xdg):
    entry = xdg / "applications" / "utf8-inspector.desktop"
    entry.parent.mkdir(parents=True)
    entry.write_text("[Desktop Entry]\nType=Application\nName=Someone else's\nExec=true\n")
    assert desktop.uninstall(refresh=False) == []
    assert entry.exists()


def test_exec_points_at_the_installed_command(tmp_path):
    script = tmp_path / "bin dir" / "utf8-inspector"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert desktop.launch_command(str(script), "/usr/bin/python3") == [str(script)]
    assert desktop.launch_command("/somewhere/inspector/__main__.py", "/opt/py/bin/python3") == [
        "/opt/py/bin/python3", "-m", "inspector"]
    text = desktop.render_entry([str(script)])
    assert f'Exec="{tmp_path}/bin dir/utf8-inspector" %f' in text


@pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate (desktop-file-utils) is not installed")
def test_an_entry_with_awkward_paths_validates(tmp_path):
    for command in (["/opt/My Apps/utf8-inspector"], ["/x/100%/python3", "-m", "inspector"],
                    ['/a"b/$c/utf8-inspector']):
        env = {"XDG_DATA_HOME": str(tmp_path / "data")}
        entry, _icon = desktop.install(env, command=command, refresh=False)
        validate(entry)


def test_install_needs_no_qt(tmp_path):
    """The option works where PySide6 cannot load (a server, a broken Qt)."""
    blocker = ("import sys\n"
               "class BlockQt:\n"
               "    def find_spec(self, name, path=None, target=None):\n"
               "        if name.split('.')[0] in ('PySide6', 'shiboken6'):\n"
               "            raise ImportError(name + ' is blocked')\n"
               "sys.meta_path.insert(0, BlockQt())\n"
               "from inspector.cli import main\n"
               "sys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", blocker, "--install-desktop"], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "applications" / "utf8-inspector.desktop").is_file()
