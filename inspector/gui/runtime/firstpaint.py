"""Work that waits for the panes' next paint: what a look does not need comes after it.

:class:`AfterPaint` calls ``then()`` once every one of some widgets has painted (one
zero-delay timer later, so that the frame is on the screen first), or after
``patience_ms`` if they never paint (a minimized or covered window). The window uses it
at start-up (its docks, built after the panes' first paint; then settling memory,
priming the sequence inspector) and for each file opened
(its whole-file scan starts after the file's first look: measured at start-up, the
scan's thread took the interpreter from the first paint for 20-40 ms on 2 cores).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer


class AfterPaint(QObject):
    """Calls ``then()`` once each widget of ``ports`` has painted (or after
    ``patience_ms``). ``cancel()`` forgets it."""

    def __init__(self, ports, then, parent: QObject | None = None,
                 patience_ms: int = 3000):
        super().__init__(parent)
        self.then = then
        self.ports = set(ports)
        for port in self.ports:
            port.installEventFilter(self)
        # No widget to wait for: at once (after a zero timer, as after a paint).
        QTimer.singleShot(patience_ms if self.ports else 0, self, self.fire)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and obj in self.ports:
            self.ports.discard(obj)
            obj.removeEventFilter(self)
            if not self.ports:
                QTimer.singleShot(0, self, self.fire)  # once this paint is on the screen
        return False

    def cancel(self) -> None:
        self.then = None
        self.fire()

    def fire(self) -> None:
        then, self.then = self.then, None
        for port in self.ports:
            port.removeEventFilter(self)
        self.ports = set()
        if then is not None:
            then()
