"""A user's script that opens the window without an ``if __name__ == "__main__":`` guard:
the triage's worker processes run the script again (multiprocessing's main-module
fix-up) and open windows of their own instead of answering. The triage must still come
to an end, in its thread, and say why; nothing of the script may be left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = '''\
import multiprocessing
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

import inspector
from inspector.core.analysis import triage as TR
from inspector.gui.window.mainwindow import MainWindow

TR.POOL_ANSWER_SECONDS = float(sys.argv[2])
app = QApplication([])
w = MainWindow()
w.resize(1000, 700)
w.triage_dock.pool_min_files = 5
w.files.open_folder(sys.argv[1])
w.show()


def report(how):
    dock = w.triage_dock
    print("MODULE", inspector.__file__)
    print("END", how)
    print("STATUS", dock.status.text())
    print("ROWS", len(dock.model.rows))
    print("USED", bool(dock.pool and dock.pool.used), flush=True)
    w.shutdown()
    app.exit(0 if how == "filled" else 3)


# The test's end, in the first process only (a child runs this file too, while it
# starts: its name is already the child's). Like the user, it reads the status and
# closes the window; a child keeps its window open.
if multiprocessing.current_process().name == "MainProcess":
    w.triage_dock.filled.connect(lambda: QTimer.singleShot(50, lambda: report("filled")))
    QTimer.singleShot(60_000, lambda: report("deadline"))
app.exec()
'''


def live_in_group(pgid: int) -> list[int]:
    """The processes of a process group that still run (zombies left to whoever reaps
    them)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != b"Z":
            found.append(int(name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="processes read from /proc")
def test_an_unguarded_script_gets_every_row(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    for i in range(12):
        (folder / f"{i:02}.txt").write_bytes(f"line {i} café\n".encode() + (b"\xff" if i % 4 == 0 else b""))
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, str(script), str(folder), "2"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=90)
        deadline = time.monotonic() + 10
        while live_in_group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = live_in_group(proc.pid)
    finally:
        try:  # whatever is left of the script, its forkserver and its children
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert proc.returncode == 0, out + err
    assert lines["MODULE"].startswith(str(ROOT))
    assert lines["END"] == "filled"
    assert lines["ROWS"] == "12" and lines["USED"] == "False"
    assert lines["STATUS"].startswith("12 files, 3 with problems in ")
    assert lines["STATUS"].endswith(
        " — worker processes did not answer within 2 s; scanned without them")
    assert left == []
