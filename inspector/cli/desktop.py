"""``utf8-inspector --install-desktop`` / ``--uninstall-desktop``: the program in the
desktop's launcher and in its "Open With" menus (Linux and other XDG desktops).

Installing writes two files into the user's XDG data folder (``$XDG_DATA_HOME``, by
default ``~/.local/share``), nothing system-wide and nothing that needs root:

- ``applications/utf8-inspector.desktop``: the packaged entry, with ``Exec=`` pointing
  at the command that is running now (the installed ``utf8-inspector``, or this Python
  with ``-m inspector``), so the launcher starts this installation;
- ``icons/hicolor/scalable/apps/utf8-inspector.svg``: the icon.

Then the desktop's caches are refreshed when their tools are there
(``update-desktop-database``, ``gtk-update-icon-cache``). Uninstalling removes the two
files, and only ours. Qt-free.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from inspector import resources_access
from inspector.core.source.safewrite import write_atomic

EXIT_OK, EXIT_ERROR = 0, 2
ENTRY_NAME = "utf8-inspector.desktop"
ICON_NAME = "utf8-inspector.svg"
MARKER = "X-UTF8-Inspector-Installed"  # marks an entry this command wrote


def data_home(env=None) -> Path:
    env = os.environ if env is None else env
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(os.path.expanduser("~")) / ".local" / "share"


def entry_path(env=None) -> Path:
    return data_home(env) / "applications" / ENTRY_NAME


def icon_path(env=None) -> Path:
    return data_home(env) / "icons" / "hicolor" / "scalable" / "apps" / ICON_NAME


def _quote(arg: str) -> str:
    """One argument of an ``Exec=`` line as the Desktop Entry spec asks: quoted when it
    holds a reserved character (with ``"`$\\`` escaped inside), ``%`` doubled, and then
    the value's own escaping of backslashes."""
    arg = arg.replace("%", "%%")
    if arg and not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`'):
        return arg
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{escaped}"'.replace("\\", "\\\\")


def launch_command(argv0: str | None = None, executable: str | None = None) -> list[str]:
    """How the desktop should start this installation: the ``utf8-inspector`` script
    that is running (an absolute path, so another installation on PATH is not taken),
    or this interpreter with ``-m inspector``."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    script = Path(argv0)
    if script.name == "utf8-inspector":
        found = script if script.is_absolute() or os.sep in argv0 else shutil.which(argv0)
        if found and os.access(found, os.X_OK):
            return [str(Path(found).absolute())]
    return [str(Path(executable).absolute()), "-m", "inspector"]


def render_entry(command: list[str]) -> str:
    """The packaged desktop entry with ``Exec=`` set to ``command`` and the marker."""
    lines = []
    for line in resources_access.read_text(resources_access.DESKTOP_ENTRY).splitlines():
        if line.startswith("Exec="):
            # The field code (%f: one file) the packaged entry ends with stays.
            codes = [w for w in line[len("Exec="):].split() if w.startswith("%")]
            line = "Exec=" + " ".join([_quote(a) for a in command] + codes)
        lines.append(line)
    lines.append(f"{MARKER}=true")
    return "\n".join(lines) + "\n"


def _refresh_caches(home: Path) -> None:
    """Let the launcher and "Open With" see the change now (quietly: the tools are
    optional, and the desktop notices on its own sooner or later)."""
    for tool, folder in (("update-desktop-database", home / "applications"),
                         ("gtk-update-icon-cache", home / "icons" / "hicolor")):
        exe = shutil.which(tool)
        if exe is None or not folder.is_dir():
            continue
        args = [exe, "-q", str(folder)]
        if tool == "gtk-update-icon-cache":
            if not (folder / "index.theme").is_file():
                continue  # the user's hicolor folder seldom has one; nothing to cache then
            args = [exe, "-q", "-t", str(folder)]
        try:
            subprocess.run(args, check=False, timeout=30,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            pass


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def install(env=None, command: list[str] | None = None, refresh: bool = True) -> list[Path]:
    """Write the desktop entry and the icon; returns their paths."""
    command = launch_command() if command is None else command
    entry, icon = entry_path(env), icon_path(env)
    _write(entry, render_entry(command).encode("utf-8"))
    _write(icon, resources_access.read_bytes(resources_access.ICON))
    if refresh:
        _refresh_caches(data_home(env))
    return [entry, icon]


def _ours(entry: Path) -> bool:
    try:
        text = entry.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return f"{MARKER}=true" in text


def uninstall(env=None, refresh: bool = True) -> list[Path]:
    """Remove what :func:`install` wrote (an entry without our marker, written by
    someone else, stays); returns the paths removed."""
    removed = []
    entry, icon = entry_path(env), icon_path(env)
    if entry.exists() and _ours(entry):
        entry.unlink()
        removed.append(entry)
        if icon.exists():
            icon.unlink()
            removed.append(icon)
    elif (not entry.exists() and icon.exists()
          and icon.read_bytes() == resources_access.read_bytes(resources_access.ICON)):
        icon.unlink()
        removed.append(icon)
    if refresh and removed:
        _refresh_caches(data_home(env))
    return removed


def main(remove: bool = False) -> int:
    if sys.platform in ("win32", "darwin"):
        print("utf8-inspector: desktop entries are for Linux (XDG) desktops; on this "
              "system start the program with 'utf8-inspector'", file=sys.stderr)
        return EXIT_ERROR
    try:
        if remove:
            removed = uninstall()
            if removed:
                for path in removed:
                    print(f"removed {path}")
            else:
                print(f"nothing to remove: no desktop entry of ours at {entry_path()}")
            return EXIT_OK
        for path in install():
            print(f"wrote {path}")
        print("UTF-8 Inspector is in the launcher and in 'Open With' for text and other files.")
        return EXIT_OK
    except (OSError, resources_access.ResourceMissing) as e:
        print(f"utf8-inspector: {e}", file=sys.stderr)
        return EXIT_ERROR
