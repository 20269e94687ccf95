"""Start-up never fails silently: what would make Qt abort is found first and said with
the packages to install; an exception before the event loop is one line on stderr with
the log's path, and exit status 2; ``--smoke-test`` opens the window and quits by
itself."""

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.gui.runtime import startup

ROOT = Path(__file__).resolve().parents[3]
PLUGIN_ERROR = "cannot open shared object file: No such file or directory"


def loader(missing=(), plugin_needs=None):
    """A ctypes.CDLL stand-in: the sonames in ``missing`` are not on the system;
    ``plugin_needs`` is what the xcb plugin itself says it lacks."""
    def load(name):
        base = os.path.basename(name)
        if base in missing:
            raise OSError(f"{base}: {PLUGIN_ERROR}")
        if base == "libqxcb.so" and plugin_needs:
            raise OSError(f"{plugin_needs}: {PLUGIN_ERROR}")
        return object()  # no xcb_connect: the display is not asked
    return load


X11 = {"DISPLAY": ":0"}


def test_a_missing_xcb_library_names_its_packages():
    said = startup.platform_problem(X11, loader({"libxcb-cursor.so.0", "libxkbcommon-x11.so.0"}),
                                    platform="linux")
    assert said.startswith("utf8-inspector: Qt cannot open a window on X11")
    assert "missing libxcb-cursor.so.0: package libxcb-cursor0 (Debian/Ubuntu), xcb-util-cursor (Fedora)" in said
    assert "libxkbcommon-x11-0" in said and "libxkbcommon-x11 (Fedora)" in said
    assert f"sudo apt install {startup.DEBIAN_PACKAGES}" in said
    assert f"sudo dnf install {startup.FEDORA_PACKAGES}" in said
    assert "Could not load the Qt platform plugin" not in said


def test_what_only_the_plugin_knows_it_lacks_is_said_too():
    said = startup.platform_problem(X11, loader(plugin_needs="libxcb-foo.so.7"), platform="linux")
    if startup.platform_plugin_file("xcb") is None:
        pytest.skip("this Qt has no xcb plugin")
    assert "missing libxcb-foo.so.7" in said and startup.DEBIAN_PACKAGES in said


@pytest.mark.parametrize("env", [
    {"QT_QPA_PLATFORM": "offscreen"},
    {"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"},
    {"WAYLAND_DISPLAY": "wayland-0"},
    {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"},
])
def test_other_platforms_are_left_to_qt(env):
    everything_missing = loader({soname for soname, _d, _f in startup.SYSTEM_LIBRARIES})
    assert startup.platform_problem(env, everything_missing, platform="linux") is None


def test_only_linux_is_looked_at():
    assert startup.platform_problem({}, loader({"libxcb.so.1"}), platform="darwin") is None
    assert startup.platform_problem({}, loader({"libxcb.so.1"}), platform="win32") is None


def test_xcb_asked_for_by_name_is_looked_at():
    env = {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}
    assert "libxcb-icccm4" in startup.platform_problem(env, loader({"libxcb-icccm.so.4"}),
                                                      platform="linux")


def test_no_display():
    said = startup.platform_problem({}, loader(), platform="linux")
    assert "no display" in said and "utf8-inspector scan FILE" in said


def test_a_display_nobody_answers():
    if startup.can_connect(":0") is None:
        pytest.skip("libxcb is not on this system")
    said = startup.platform_problem({"DISPLAY": ":87"}, platform="linux")
    assert said is not None and "cannot connect to the X display ':87'" in said


def test_the_window_asks_the_display_only_when_qt_fails(monkeypatch):
    asked = []
    monkeypatch.setattr(startup, "can_connect", lambda display, load=None: asked.append(display))
    assert startup.platform_problem({"DISPLAY": ":5"}, loader(), platform="linux",
                                    connect=False) is None
    assert asked == []  # the window's start: no round trip to the X server
    startup.platform_problem({"DISPLAY": ":5"}, loader(), platform="linux")
    assert asked == [":5"]


def test_the_display_problem_once_qt_has_failed():
    if startup.can_connect(":0") is None:
        pytest.skip("libxcb is not on this system")
    said = startup.display_problem({"DISPLAY": ":87"}, platform="linux")
    assert said is not None and "cannot connect to the X display ':87'" in said
    assert startup.display_problem({"DISPLAY": ":87", "QT_QPA_PLATFORM": "offscreen"},
                                   platform="linux") is None
    assert startup.display_problem({}, platform="linux") is None
    assert startup.display_problem({"DISPLAY": ":87"}, platform="darwin") is None


def test_a_missing_library_in_an_import_error_names_its_packages():
    hint = startup.library_hint(f"libEGL.so.1: {PLUGIN_ERROR}")
    assert "missing libEGL.so.1: package libegl1 (Debian/Ubuntu), mesa-libEGL (Fedora)" in hint
    assert startup.library_hint("No module named 'PySide6'") is None


def test_the_fatal_message_in_our_words():
    qt = ("This application failed to start because no Qt platform plugin could be "
          "initialized. Reinstalling the application may fix this problem.\n\n"
          "Available platform plugins are: minimal, offscreen, xcb.\n")
    said = startup.fatal_message(qt, ['qt.qpa.plugin: Could not find the Qt platform plugin "x"'],
                                 {"QT_QPA_PLATFORM": "x"})
    assert said.startswith("utf8-inspector: Qt could not start its platform plugin (x):")
    assert "Reinstalling" not in said and "may name one of: minimal, offscreen, xcb" in said
    assert "apt install" not in said
    said = startup.fatal_message(qt, [], {})
    assert ("apt install" in said) == sys.platform.startswith("linux")


def test_what_qt_says_while_it_starts_is_kept_and_printed(capsys):
    from PySide6.QtCore import qWarning

    with startup.qt_fatal_guard(exit=lambda code: pytest.fail("not fatal")):
        qWarning("a warning while the application starts")
        assert "a warning" not in capsys.readouterr().err
    assert "a warning while the application starts" in capsys.readouterr().err


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "log" / "utf8-inspector.log"
    path.parent.mkdir()
    monkeypatch.setattr(startup, "log_path", lambda: path)
    return path


def test_an_exception_before_the_event_loop_is_one_line_and_the_log(log, capsys):
    try:
        raise ValueError("the palette is\nbroken")
    except ValueError as e:
        assert startup.failed(e) == 2
    err = capsys.readouterr().err
    assert err == (f"utf8-inspector: could not start the window: ValueError: the palette is "
                   f"broken (details in {log})\n")
    text = log.read_text()
    assert "Traceback" in text and "ValueError: the palette is" in text


def test_run_returns_2_when_the_window_cannot_be_built(log, capsys, monkeypatch):
    from inspector.gui import app
    from inspector.gui.runtime import crashguard

    monkeypatch.setattr(crashguard, "install", lambda: None)  # no global hook in the suite

    def broken(*args, **kwargs):
        raise RuntimeError("no window today")

    monkeypatch.setattr(app, "build_window", broken)
    assert app.run(None) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "RuntimeError: no window today" in err[0] and str(log) in err[0]


def test_run_says_what_qt_would_abort_on(log, capsys, monkeypatch):
    from inspector.gui import app

    monkeypatch.setattr(startup, "platform_problem",
                        lambda connect=True: "utf8-inspector: no display here")
    monkeypatch.setattr(app, "application", lambda: pytest.fail("Qt must not be started"))
    assert app.run(None) == 2
    err = capsys.readouterr().err
    assert err.startswith("utf8-inspector: no display here\n") and str(log) in err
    assert "no display here" in log.read_text()


def test_a_pyside6_that_cannot_load(log, capsys, monkeypatch):
    from inspector.cli.window import main

    class BrokenQt:
        def find_spec(self, name, path=None, target=None):
            if name == "inspector.gui.app":
                raise ImportError(f"libEGL.so.1: {PLUGIN_ERROR}", name="PySide6.QtGui")
            return None

    monkeypatch.delitem(sys.modules, "inspector.gui.app")
    monkeypatch.setattr(sys, "meta_path", [BrokenQt()] + sys.meta_path)
    assert main([]) == 2
    assert gc.isenabled()   # held off for the window's start only
    err = capsys.readouterr().err
    first, rest = err.split("\n", 1)
    assert first.startswith("utf8-inspector: the window needs PySide6, which could not be loaded: "
                            "ImportError: libEGL.so.1")
    assert str(log) in first
    assert "libegl1" in rest and "mesa-libEGL" in rest


# ------------------------------------------------------------ real processes, end to end

def launch(tmp_path, *args, env_changes=None, remove=()):
    env = {k: v for k, v in os.environ.items() if k not in remove}
    env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data"),
                "XDG_CONFIG_HOME": str(tmp_path / "config")})
    env.update(env_changes or {})
    return subprocess.run([sys.executable, "-m", "inspector", *args], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=120)


def test_an_unknown_platform_plugin_exits_2_with_our_message(tmp_path):
    done = launch(tmp_path, env_changes={"QT_QPA_PLATFORM": "no-such-platform"})
    assert done.returncode == 2, (done.returncode, done.stderr)  # not SIGABRT (-6)
    assert done.stderr.startswith("utf8-inspector: Qt could not start its platform plugin "
                                  "(no-such-platform)")
    assert "Reinstalling the application" not in done.stderr
    assert str(tmp_path / "data") in done.stderr  # the log's path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11")
def test_a_display_that_does_not_answer_exits_2(tmp_path):
    done = launch(tmp_path, env_changes={"DISPLAY": ":87"},
                  remove=("QT_QPA_PLATFORM", "WAYLAND_DISPLAY"))
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.startswith("utf8-inspector: ")
    if startup.can_connect(":0") is not None:  # said once Qt has failed to connect
        assert "cannot connect to the X display ':87'" in done.stderr, done.stderr
    assert "(details in " in done.stderr


def test_smoke_test_opens_the_demo_and_quits(tmp_path):
    done = launch(tmp_path, "--smoke-test", env_changes={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("smoke test: passed: the window stayed up")
    assert "demo.txt (1,752 bytes; UTF-8 with 21 problems" in done.stdout


def test_smoke_test_fails_when_the_file_does_not_open(tmp_path):
    done = launch(tmp_path, "--smoke-test", str(tmp_path / "missing.txt"),
                  env_changes={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("smoke test: FAILED") and "no file is open" in done.stdout
