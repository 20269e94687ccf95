"""Labels that cost less than QLabel where the window uses many of them or a narrow
one: ``SteadyLabel`` remembers its size hints, ``ElidedLabel`` shows what fits."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel


class SteadyLabel(QLabel):
    """A label that remembers its size hints per text. The dock's layout asks its
    word-wrapped labels for their size some 80 times a cursor move, and a wrapped label
    lays its text out afresh for each question: 7-8 ms of every move between two
    problems. A change of font or style forgets them; the rest a size depends on (word
    wrap, margins, indent, width limits) must be set before the label is first asked."""

    CACHED = 64

    def __init__(self, *args):
        super().__init__(*args)
        self._sizes: dict = {}

    def _remembered(self, question, answer):
        key = (question, self.text())
        size = self._sizes.get(key)
        if size is None:
            if len(self._sizes) >= self.CACHED:
                self._sizes.clear()
            size = self._sizes[key] = answer()
        return size

    def heightForWidth(self, width: int) -> int:
        return self._remembered(width, lambda: super(SteadyLabel, self).heightForWidth(width))

    def sizeHint(self) -> QSize:
        return self._remembered("size", lambda: super(SteadyLabel, self).sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._remembered("minimum", lambda: super(SteadyLabel, self).minimumSizeHint())

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._sizes.clear()
        super().changeEvent(event)


class HoverSelectable:
    """For a QLabel whose text the mouse can select: made selectable when the mouse
    comes over it. A selectable label keeps its text in a QTextDocument, built afresh and
    laid out three times (for its size hints) at each new text: ~0.07 ms a label, and a
    cursor move sets ten of the inspector's facts and three status-bar fields. Only the
    mouse selects, so the label is selectable whenever it could be selected."""

    SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse

    def enterEvent(self, event) -> None:
        if not self.textInteractionFlags() & self.SELECTABLE:
            self.setTextInteractionFlags(self.SELECTABLE)
        super().enterEvent(event)

    def setText(self, text: str) -> None:
        # A new text drops any selection anyway: away from the mouse, the label can go
        # back to plain text.
        if self.textInteractionFlags() and not self.underMouse():
            self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        super().setText(text)


class HoverSelectableLabel(HoverSelectable, SteadyLabel):
    """A steady label the mouse can select (see :class:`HoverSelectable`)."""


class ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as fits, ending in "…" when cut
    (a long verdict in a narrow status bar was cut mid-word); ``text()`` and the
    tooltip keep all of it. It asks for its whole width and can be squeezed to a few
    characters."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("x" * 12)),
                     hint.height())

    def paintEvent(self, event) -> None:
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             rect.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()), text)
        painter.end()

    def shown_text(self) -> str:
        """What is on screen (the text, or its start and "…")."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())
