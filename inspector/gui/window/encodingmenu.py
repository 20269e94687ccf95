"""View > Interpret as: the UTF-8 dialects, "By the encoding map", and every encoding
of text grouped as people look for them (Unicode, Western, Cyrillic, Japanese...), plus
"Other encoding…" for any codec Python knows; and the status bar's offer to read the
file the way its verdict says it is written.

Choosing calls ``window.set_encoding(name)``; the document says what is in use
(``dialectChanged``) and :func:`show_choice` ticks it. Nothing about the file is
remembered: the next file opens in the reading in use, and "By the encoding map" goes
with the file it was made for.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QInputDialog, QPushButton

from inspector.core.analysis.verdict import known_verdict
from inspector.core.units import kinds as K
from inspector.core.units.encodings import codecnames

MAP = codecnames.MAP


# The groups' mnemonics (Alt+letter in the open menu), none taken twice.
_GROUP_TITLES = {"Unicode": "&Unicode", "Western": "&Western",
                 "Central European": "&Central European", "Cyrillic": "C&yrillic",
                 "Greek": "&Greek", "Hebrew": "&Hebrew", "Arabic": "&Arabic",
                 "Turkish": "&Turkish", "Baltic": "&Baltic", "Vietnamese": "&Vietnamese",
                 "Thai": "Tha&i", "Japanese": "&Japanese", "Chinese": "Chi&nese",
                 "Korean": "&Korean", "DOS code pages": "&DOS code pages",
                 "Mac code pages": "Mac code &pages"}


def with_mnemonic(title: str, taken: set[str]) -> str:
    """``title`` with "&" before its first letter or digit no other item of the menu
    took (none left: as it is)."""
    for i, ch in enumerate(title):
        if ch.isalnum() and ch.lower() not in taken:
            taken.add(ch.lower())
            return title[:i] + "&" + title[i:]
    return title


def _action(window, text: str, name: str, value) -> QAction:
    a = QAction(text, window)
    a.setObjectName(name)
    a.setCheckable(True)
    a.setData(value)
    a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    window.addAction(a)
    return a


class EncodingMenu:
    """The "Interpret as" submenu (an entry of ``actions.MENU_BAR``). Kept on the window:
    ``dialect_group``, ``dialect_actions`` (name -> its first action: the UTF-8
    dialects, ``map`` and each codec) and ``encoding_menus`` (group title -> submenu).
    Ctrl+1..5 choose the UTF-8 dialects, as before."""

    def add_to(self, menu, window) -> None:
        group = QActionGroup(window)
        group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        actions: dict[str, QAction] = {}
        sub = menu.addMenu("&Interpret as")
        sub.setObjectName("dialectMenu")

        def add(target, name: str, title: str) -> QAction:
            a = _action(window, title, f"dialect_{name}", name)
            group.addAction(a)
            target.addAction(a)
            actions.setdefault(name, a)
            return a

        for i, name in enumerate(K.DIALECTS, start=1):
            a = add(sub, name, K.DIALECT_TITLES[name])
            a.setShortcut(QKeySequence(f"Ctrl+{i}"))
        sub.addSeparator()
        by_map = add(sub, MAP, "By the encoding &map (each region in its own encoding)")
        sub.addSeparator()
        window.encoding_menus = {}
        for title, names in codecnames.GROUPS:
            g = sub.addMenu(_GROUP_TITLES.get(title, title))
            g.setObjectName("encodingGroup_" + title.replace(" ", ""))
            window.encoding_menus[title] = g
            taken: set[str] = set()
            for name in names:
                add(g, name, with_mnemonic(codecnames.title(name), taken))
        sub.addSeparator()
        other = QAction("&Other encoding…", window)
        other.setObjectName("actionOtherEncoding")
        other.triggered.connect(window.choose_other_encoding)
        sub.addAction(other)

        group.triggered.connect(lambda a: window.set_encoding(a.data()))
        # The map's reading needs the finished scan's map: offered only then.
        sub.aboutToShow.connect(lambda: by_map.setEnabled(has_map(window.document)))
        window.dialect_group = group
        window.dialect_actions = actions
        window.dialect_menu = sub


def has_map(document) -> bool:
    scan = document.scan
    v = known_verdict(scan) if scan is not None and scan.complete else None
    return v is not None and v.regions is not None and len(v.regions) > 0


def show_choice(window, name: str) -> None:
    """Tick the reading in use (none, for a codec the menu does not list)."""
    a = window.dialect_actions.get(name)
    if a is not None:
        a.setChecked(True)
    else:
        checked = window.dialect_group.checkedAction()
        if checked is not None:
            checked.setChecked(False)


def ask_other_encoding(window) -> None:
    """A small window-modal prompt for any codec name (opened, never exec'd)."""
    dialog = QInputDialog(window)
    dialog.setObjectName("otherEncodingDialog")
    dialog.setWindowTitle("Interpret as another encoding")
    dialog.setLabelText("A codec name Python knows (cp1006, mac-farsi, hz, cp424, ...):")
    dialog.setTextValue(window.document.dialect)
    dialog.textValueSelected.connect(window.set_encoding)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    window.other_encoding_dialog = dialog
    dialog.open()


# ------------------------------------------------------------------ the offer

def offered_reading(verdict) -> tuple[str, str] | None:
    """(encoding name, button text) when the verdict says the file is not UTF-8 but in
    an encoding the window can read it in: a legacy charset, UTF-16/32, or a mix."""
    if verdict is None:
        return None
    if verdict.code == "mixed":
        return MAP, "Read by the encoding map"
    regions = verdict.regions
    only = regions[0] if regions is not None and len(regions) == 1 else None
    if verdict.code == "legacy_charset" and verdict.details.get("encoding"):
        name = verdict.details["encoding"]
    elif verdict.code in ("utf16", "utf32") and only is not None:
        name = only.encoding
    else:
        return None
    try:
        name = codecnames.canonical(name)
    except ValueError:
        return None
    # The charset's name without its group ("Windows-1252", not "Windows-1252
    # (Western)"): the status bar is narrow, the tooltip says the rest.
    return name, f"Read as {codecnames.title(name).split(' (')[0]}"


class OfferButton(QPushButton):
    """The status bar's one-click offer: "Read as Windows-1252" when the verdict says so
    ("Read by the encoding map" for a mixed file); hidden while the reading in use is
    already that one, or the verdict says nothing of the kind."""

    def __init__(self, window):
        super().__init__()
        self.setObjectName("encodingOffer")
        self.setFlat(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.window_ = window
        self.offer: str | None = None
        self.clicked.connect(self._take)
        self.hide()

    def refresh(self, *_args) -> None:
        d = self.window_.document
        scan = d.scan
        v = known_verdict(scan) if scan is not None and scan.complete else None
        found = offered_reading(v)
        # "utf-16" (the byte order mark decides) already reads what "utf-16-le" offers.
        if found is None or found[0] == d.dialect or (
                d.dialect in ("utf-16", "utf-32") and found[0].startswith(d.dialect)):
            self.offer = None
            self.hide()
            return
        self.offer, text = found
        self.setText(text)
        # Whole or not at all: the verdict beside it elides instead (a flat button
        # squeezed by a narrow bar showed "d as Windows-1252 (West").
        self.setMinimumWidth(self.sizeHint().width())
        self.setToolTip(f"The verdict: {v.text}.\nClick to read the bytes that way (View > "
                        "Interpret as); nothing about the file is remembered.")
        self.show()

    def _take(self) -> None:
        if self.offer is not None:
            self.window_.set_encoding(self.offer)
