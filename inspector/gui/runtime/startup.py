"""Start-up never fails silently.

Three things can stop the window before its event loop runs, and each ends with a
message a person can act on, written to stderr, and exit status 2:

- Qt's X11 platform plugin (``xcb``) cannot load because system libraries are missing,
  or there is no display to connect to. Qt would print "Could not load the Qt platform
  plugin" and *abort* the process, so :func:`platform_problem` looks first, before the
  QApplication exists: it loads the libraries the plugin needs (``ctypes``) and says
  which packages to install, and says when DISPLAY is not set.
- Anything Qt still finds fatal while it creates the application (a display that does
  not answer, another platform plugin that fails): :func:`qt_fatal_guard` catches Qt's
  fatal message, says what happened in our words (for the display, after connecting to
  it the way Qt would, ``xcb_connect``: :func:`display_problem`), and exits 2 instead
  of aborting.
- Any exception on the way (PySide6 cannot be imported, a window that fails to build):
  :func:`failed` writes the traceback to the log and prints one line with the log's path.

Qt-free at import: PySide6 is imported only inside the functions that need it, so the
command line can report a PySide6 that does not load.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime
import os
import re
import sys
import traceback
from pathlib import Path

EXIT_STARTUP = 2
PROGRAM = "utf8-inspector"

# What Qt's X11 platform needs, in one line per distribution (the README's set-up
# section lists the same).
DEBIAN_PACKAGES = ("libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 "
                   "libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxkbcommon-x11-0 "
                   "libegl1 libgl1 libfontconfig1 libdbus-1-3")
FEDORA_PACKAGES = ("xcb-util-cursor xcb-util-wm xcb-util-keysyms xcb-util-image "
                   "xcb-util-renderutil libxkbcommon-x11 mesa-libEGL mesa-libGL fontconfig "
                   "dbus-libs")
INSTALL_HINT = (f"  Debian/Ubuntu: sudo apt install {DEBIAN_PACKAGES}\n"
                f"  Fedora:        sudo dnf install {FEDORA_PACKAGES}")

# The shared libraries Qt's xcb plugin (libqxcb.so, libQt6XcbQpa.so) and QtGui load
# from the system, with the package that carries each: (soname, Debian/Ubuntu, Fedora).
SYSTEM_LIBRARIES = (
    ("libxcb.so.1", "libxcb1", "libxcb"),
    ("libxcb-cursor.so.0", "libxcb-cursor0", "xcb-util-cursor"),
    ("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1", "xcb-util-keysyms"),
    ("libxcb-image.so.0", "libxcb-image0", "xcb-util-image"),
    ("libxcb-render-util.so.0", "libxcb-render-util0", "xcb-util-renderutil"),
    ("libxcb-util.so.1", "libxcb-util1", "xcb-util"),
    ("libxcb-shape.so.0", "libxcb-shape0", "libxcb"),
    ("libxcb-randr.so.0", "libxcb-randr0", "libxcb"),
    ("libxcb-render.so.0", "libxcb-render0", "libxcb"),
    ("libxcb-shm.so.0", "libxcb-shm0", "libxcb"),
    ("libxcb-sync.so.1", "libxcb-sync1", "libxcb"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0", "libxcb"),
    ("libxcb-xkb.so.1", "libxcb-xkb1", "libxcb"),
    ("libX11-xcb.so.1", "libx11-xcb1", "libX11-xcb"),
    ("libX11.so.6", "libx11-6", "libX11"),
    ("libxkbcommon.so.0", "libxkbcommon0", "libxkbcommon"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),
    ("libEGL.so.1", "libegl1", "mesa-libEGL"),
    ("libGL.so.1", "libgl1", "mesa-libGL"),
    ("libfontconfig.so.1", "libfontconfig1", "fontconfig"),
    ("libdbus-1.so.3", "libdbus-1-3", "dbus-libs"),
)
_PACKAGES_OF = {soname: (deb, fedora) for soname, deb, fedora in SYSTEM_LIBRARIES}
_SONAME = re.compile(r"(lib[A-Za-z0-9_+.-]+?\.so(?:\.\d+)*)")


# ------------------------------------------------------------------------ messages

def _say(text: str) -> None:
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
    sys.stderr.flush()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def log_path() -> Path:
    """The log the window writes (``crashguard.log_path``), also when Qt is not there."""
    try:
        from PySide6.QtCore import QCoreApplication

        from inspector.gui.runtime import crashguard
        from inspector.gui.window.settings import APPLICATION, ORGANIZATION

        if QCoreApplication.instance() is None or not QCoreApplication.organizationName():
            # The names the application will have, so the folder is the same one.
            QCoreApplication.setOrganizationName(ORGANIZATION)
            QCoreApplication.setApplicationName(APPLICATION)
        return crashguard.log_path()
    except Exception:  # PySide6 or the window's modules cannot load: Qt's folder by hand
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        folder = Path(base) / PROGRAM / PROGRAM
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path(os.environ.get("TMPDIR", "/tmp"))
        return folder / f"{PROGRAM}.log"


def write_log(text: str) -> Path | None:
    """Append ``text`` to the log with a time stamp; returns the log's path (None when
    it cannot be written: the message on stderr then says so)."""
    path = log_path()
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{stamp} ERROR start-up: {text.rstrip()}\n")
    except OSError:
        return None
    return path


def _where(path: Path | None) -> str:
    return f"details in {path}" if path is not None else "the log could not be written"


def failed(exc: BaseException, what: str = "could not start the window") -> int:
    """An exception before the event loop: the traceback goes to the log, one line to
    stderr. Returns the exit status (2)."""
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    path = write_log(f"{what}\n{details}")
    _say(f"{PROGRAM}: {what}: {type(exc).__name__}: {_one_line(exc)} ({_where(path)})")
    hint = library_hint(str(exc))
    if hint:
        _say(hint)
    return EXIT_STARTUP


def refuse(message: str) -> int:
    """A start-up problem found before Qt could abort: said, logged, exit status 2."""
    path = write_log(message)
    _say(f"{message}\n  ({_where(path)})")
    return EXIT_STARTUP


def library_hint(text: str) -> str | None:
    """For an error that names a missing shared library (``libEGL.so.1: cannot open
    shared object file``), the packages that bring it."""
    if "cannot open shared object" not in text and "No such file" not in text:
        return None
    found = _SONAME.search(text)
    if not found:
        return None
    return _packages_text([found.group(1)])


def _packages_text(missing: list[str]) -> str:
    lines = []
    for soname in missing:
        deb, fedora = _PACKAGES_OF.get(soname, (None, None))
        if deb:
            lines.append(f"  missing {soname}: package {deb} (Debian/Ubuntu), {fedora} (Fedora)")
        else:
            lines.append(f"  missing {soname}")
    lines.append("  What Qt's X11 platform needs, in one line:")
    lines.append(INSTALL_HINT)
    return "\n".join(lines)


# ------------------------------------------------------------------- before Qt starts

def requested_platforms(env) -> list[str]:
    """The platform plugins ``QT_QPA_PLATFORM`` asks for, in order (``xcb``,
    ``offscreen``, ``wayland``...; arguments after ``:`` dropped)."""
    spec = env.get("QT_QPA_PLATFORM", "")
    return [p.split(":", 1)[0].strip() for p in spec.split(";") if p.strip()]


def platform_plugin_file(name: str) -> Path | None:
    """The file of Qt's platform plugin ``name`` (``xcb``), None when this Qt has none."""
    try:
        from PySide6.QtCore import QLibraryInfo

        folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
    except Exception:
        return None
    path = Path(folder) / "platforms" / f"libq{name}.so"
    return path if path.is_file() else None


def missing_libraries(load=None) -> list[str]:
    """The sonames Qt's xcb plugin needs that cannot be loaded. Each known library is
    tried; when all load, the plugin itself is loaded, which names anything else it
    lacks."""
    load = ctypes.CDLL if load is None else load
    missing = []
    for soname, _deb, _fedora in SYSTEM_LIBRARIES:
        try:
            load(soname)
        except OSError:
            missing.append(soname)
    if missing:
        return missing
    plugin = platform_plugin_file("xcb")
    if plugin is not None:
        try:
            load(str(plugin))
        except OSError as e:
            found = _SONAME.search(str(e).replace(str(plugin), ""))
            missing.append(found.group(1) if found else _one_line(e))
    return missing


def can_connect(display: str, load=None) -> bool | None:
    """Whether an X server answers at ``display`` (as Qt would connect: ``xcb_connect``,
    which reads the same XAUTHORITY). None when libxcb itself cannot load."""
    load = ctypes.CDLL if load is None else load
    try:
        xcb = load("libxcb.so.1")
        connect, has_error, disconnect = (xcb.xcb_connect, xcb.xcb_connection_has_error,
                                          xcb.xcb_disconnect)
    except (OSError, AttributeError):
        return None
    connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    connect.restype = ctypes.c_void_p
    has_error.argtypes = [ctypes.c_void_p]
    has_error.restype = ctypes.c_int
    disconnect.argtypes = [ctypes.c_void_p]
    disconnect.restype = None
    conn = connect(os.fsencode(display), None)
    if not conn:
        return False
    try:
        return has_error(conn) == 0
    finally:
        disconnect(conn)  # also right for the error object xcb_connect hands back


def platform_problem(env=None, load=None, platform: str | None = None,
                     connect: bool = True) -> str | None:
    """What would make Qt abort at start-up on this machine, said for a person, or None.

    Only the X11 platform (``xcb``) on Linux is looked at: there Qt aborts when a system
    library is missing or no display answers. Another platform asked for by
    ``QT_QPA_PLATFORM`` (``offscreen``, ``wayland``...), or a Wayland session, is left to
    Qt, with :func:`qt_fatal_guard` as the safety net. With ``connect`` false the display
    is not asked (a round trip to the X server, ~20-25 ms of every start here): the
    window's start asks only if Qt fails (:func:`display_problem`)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    requested = requested_platforms(env)
    if requested and requested[0] != "xcb":
        return None
    wayland = bool(env.get("WAYLAND_DISPLAY"))
    if not requested and wayland and (env.get("XDG_SESSION_TYPE") == "wayland" or not env.get("DISPLAY")):
        return None  # Qt takes its Wayland plugin
    display = env.get("DISPLAY", "")
    if not display:
        return (f"{PROGRAM}: there is no display to open the window on (DISPLAY is not set).\n"
                "  Run it in a desktop session, or use the command line, which needs none: "
                f"'{PROGRAM} scan FILE', '{PROGRAM} units FILE'.")
    missing = missing_libraries(load)
    if missing:
        return (f"{PROGRAM}: Qt cannot open a window on X11 (the xcb platform plugin): "
                "system libraries are missing.\n" + _packages_text(missing))
    if connect and can_connect(display, load) is False:
        return _no_display_answers(display)
    return None


def _no_display_answers(display: str) -> str:
    return (f"{PROGRAM}: cannot connect to the X display {display!r}: no X server "
            "answers there, or it refuses this user.\n"
            "  Check DISPLAY (and XAUTHORITY), or use the command line, which needs "
            f"no display: '{PROGRAM} scan FILE'.")


def display_problem(env=None, load=None, platform: str | None = None) -> str | None:
    """That the X display does not answer, said for a person, or None (also when the
    xcb platform is not the one Qt starts). Asked once Qt has failed to start."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    requested = requested_platforms(env)
    display = env.get("DISPLAY", "")
    if not platform.startswith("linux") or (requested and requested[0] != "xcb") or not display:
        return None
    return _no_display_answers(display) if can_connect(display, load) is False else None


# ------------------------------------------------------------ while Qt creates the app

def fatal_message(message: str, earlier: list[str], env) -> str:
    """Qt's fatal ``message`` at start (and what it said ``earlier``) in our words: the
    platform asked for, what failed, how to install the X11 libraries, which plugins
    there are."""
    requested = requested_platforms(env)
    first = message.strip().split("\n\n")[0].split(". ")[0].rstrip(".")
    said = _one_line("; ".join(piece.strip().rstrip(".") for piece in earlier + [first]))
    available = re.search(r"Available platform plugins are: ([^\n]*)", message)
    text = [f"{PROGRAM}: Qt could not start its platform plugin "
            f"({'; '.join(requested) or 'the default one'}): {said}."]
    if sys.platform.startswith("linux") and (not requested or requested[0] == "xcb"):
        text.append("  On X11 this usually means missing system libraries:")
        text.append(INSTALL_HINT)
    if available:
        text.append(f"  QT_QPA_PLATFORM may name one of: {available.group(1).rstrip('.')}")
    return "\n".join(text)


@contextlib.contextmanager
def qt_fatal_guard(env=None, exit=os._exit):
    """Around the creation of the QApplication: a fatal message from Qt (which would
    abort the process) becomes our message and exit status 2; what Qt says on the way
    is kept and printed afterwards, as Qt would have."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    env = os.environ if env is None else env
    held: list[str] = []

    def handler(kind, context, message):
        if kind == QtMsgType.QtFatalMsg:
            refuse(display_problem(env) or fatal_message(message, held, env))
            exit(EXIT_STARTUP)
            return
        category = getattr(context, "category", None)
        held.append(f"{category}: {message}" if category and category != "default" else message)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
        for line in held:
            _say(line)
