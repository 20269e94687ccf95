"""``utf8-inspector --smoke-test [PATH]``: the window opens, stays up, and quits by itself.

For checking an installation (CI runs it on an installed wheel, offscreen): the window
is built exactly as for a user, the event loop runs, and after a couple of seconds (a
little longer if the background scan is still busy) the window is looked at. One line on
stdout says what was seen; the exit status is 0 when the window is up on the file with
no error, 1 otherwise. Internal errors are written to stderr instead of a dialog, so a
failing run cannot wait for a click.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QTimer

SETTLE_SECONDS = 2.0  # the window stays up at least this long
SCAN_DEADLINE = 20.0  # the scan of a small file finishes well before this


def check(window, path) -> list[str]:
    """What is wrong with the window on ``path`` (nothing: an empty list)."""
    from inspector.gui.runtime import crashguard

    problems = []
    if not window.isVisible():
        problems.append("the window is not shown")
    document = window.document
    if path is None or document.path is None:
        problems.append("no file is open")
    else:
        try:
            expected = os.path.getsize(path)
        except OSError as e:
            problems.append(f"{path}: {e.strerror}")
        else:
            if document.size != expected:
                problems.append(f"the document holds {document.size:,} bytes, the file {expected:,}")
    last_error = window.last_error
    if last_error:
        problems.append(f"the window reported: {last_error}")
    if crashguard.reports:
        problems.append(f"{len(crashguard.reports)} internal error(s), the first: "
                        f"{crashguard.reports[0].strip().splitlines()[-1]}")
    return problems


def _scan_done(window) -> bool:
    return window.scan_life.complete


def arm(app, window, path, settle: float = SETTLE_SECONDS, deadline: float = SCAN_DEADLINE,
        out=print) -> None:
    """Quit ``app``'s event loop once the window has been up for ``settle`` seconds and
    its scan is done (or ``deadline`` has passed), with exit status 0 or 1."""
    os.environ["UTF8_INSPECTOR_NO_CRASH_DIALOG"] = "1"
    started = time.monotonic()

    def look() -> None:
        waited = time.monotonic() - started
        problems = check(window, path)
        if not problems and not _scan_done(window) and waited < deadline:
            QTimer.singleShot(250, look)  # all is well so far; the scan is still busy
            return
        if not problems and not _scan_done(window):
            problems.append(f"the scan did not finish in {deadline:.0f} s")
        if problems:
            out(f"smoke test: FAILED after {waited:.1f} s: " + "; ".join(problems))
            app.exit(1)
            return
        judged = window.document.verdict
        verdict = judged.text if judged is not None else "no verdict"
        out(f"smoke test: passed: the window stayed up {waited:.1f} s on "
            f"{os.path.basename(str(path))} ({window.document.size:,} bytes; {verdict})")
        app.exit(0)

    QTimer.singleShot(int(settle * 1000), look)
