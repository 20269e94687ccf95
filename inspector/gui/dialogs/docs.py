"""The documents shipped with the program, in a window of their own (Help menu): the user
guide and the unit contract (``resources/docs/*.md``).

The markdown is rendered by a QTextBrowser. Documents, and the screenshots they show, are
read through :mod:`inspector.resources_access` under URLs of the form
``inspector:/docs/user-guide.md``, so a relative link or image in a document
(``utf8-units.md``, ``../screenshots/main-window.png``) resolves exactly as it does in
the source tree, and Back/Forward work across documents. A screenshot wider than the page
is scaled down smoothly to fit (keeping the screen's pixel density). Links to the web
open in the browser.

For the menu: :func:`show_user_guide`, :func:`show_unit_contract`, or
:func:`show_document` with a name of :data:`DOCUMENTS`.
"""

from __future__ import annotations

import posixpath

from PySide6.QtCore import QUrl, Qt
from PySide6.QtGui import QImage, QKeySequence, QTextDocument
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QPushButton,
                               QStyle, QTextBrowser, QToolButton, QVBoxLayout, QWidget)

from inspector import resources_access

SCHEME = "inspector"
# name: (title, file in the resources)
DOCUMENTS = {
    "user-guide": ("User guide", "docs/user-guide.md"),
    "utf8-units": ("Unit contract", "docs/utf8-units.md"),
}


def document_url(name: str) -> QUrl:
    """The URL the browser shows document ``name`` under."""
    _title, file = DOCUMENTS[name]
    url = QUrl()
    url.setScheme(SCHEME)
    url.setPath("/" + file)
    return url


def _resource_name(url: QUrl) -> str | None:
    """``inspector:/docs/../screenshots/a.png`` -> ``screenshots/a.png`` (None for
    anything that is not one of ours, or that climbs out of the resources)."""
    if url.scheme() != SCHEME:
        return None
    path = posixpath.normpath(url.path())
    if not path.startswith("/") or path.startswith("/.."):
        return None
    return path.lstrip("/") or None


def _document_name(url: QUrl) -> str | None:
    name = _resource_name(url)
    for key, (_title, file) in DOCUMENTS.items():
        if name == file:
            return key
    return None


def _kind(value) -> int:
    return value.value if hasattr(value, "value") else int(value)


class DocumentBrowser(QTextBrowser):
    """A QTextBrowser that reads documents and images from the program's resources."""

    MAX_IMAGE_WIDTH = 860  # logical pixels; wider screenshots are shown at this width

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("documentBrowser")
        self.setOpenExternalLinks(True)  # http(s): the desktop's browser
        self.document().setDocumentMargin(16)
        self.missing: list[str] = []  # what a document asked for and was not found (tests)

    def image_width(self) -> int:
        return max(320, min(self.MAX_IMAGE_WIDTH, self.viewport().width() - 48))

    def fit(self, image: QImage) -> QImage:
        """``image`` no wider than the page: smoothly scaled down to the screen's pixels
        at the page's width, shown at that width."""
        width = self.image_width()
        if image.width() <= width:
            return image
        pixels = int(width * max(1.0, self.devicePixelRatioF()))
        if image.width() > pixels:
            image = image.scaledToWidth(pixels, Qt.TransformationMode.SmoothTransformation)
        image.setDevicePixelRatio(image.width() / width)
        return image

    def loadResource(self, kind, url: QUrl):
        name = _resource_name(url)
        if name is None:
            return super().loadResource(kind, url)
        kind = _kind(kind)
        try:
            data = resources_access.read_bytes(name)
        except (resources_access.ResourceMissing, ValueError):
            self.missing.append(name)
            if kind == _kind(QTextDocument.ResourceType.ImageResource):
                return None
            return f"# Not found\n\n`{name}` is not part of this installation.\n"
        if kind == _kind(QTextDocument.ResourceType.ImageResource):
            image = QImage.fromData(data)
            if image.isNull():
                self.missing.append(name)
                return None
            return self.fit(image)
        return data.decode("utf-8")


class DocumentDialog(QDialog):
    """One window for the documents: a row to switch between them, Back and Forward,
    the browser, Close."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("documentDialog")
        self.setWindowTitle("UTF-8 Inspector documentation")
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.setSizeGripEnabled(True)
        self.resize(960, 760)
        self.browser = DocumentBrowser(self)

        bar = QHBoxLayout()
        style = self.style()
        self.back_button = QToolButton(self)
        self.back_button.setObjectName("docsBack")
        self.back_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack))
        self.back_button.setToolTip("Back (Alt+Left)")
        self.back_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Back))
        self.back_button.clicked.connect(self.browser.backward)
        self.forward_button = QToolButton(self)
        self.forward_button.setObjectName("docsForward")
        self.forward_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward))
        self.forward_button.setToolTip("Forward (Alt+Right)")
        self.forward_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Forward))
        self.forward_button.clicked.connect(self.browser.forward)
        self.browser.backwardAvailable.connect(self.back_button.setEnabled)
        self.browser.forwardAvailable.connect(self.forward_button.setEnabled)
        self.back_button.setEnabled(False)
        self.forward_button.setEnabled(False)
        bar.addWidget(self.back_button)
        bar.addWidget(self.forward_button)
        self.document_buttons: dict[str, QPushButton] = {}
        for name, (title, _file) in DOCUMENTS.items():
            button = QPushButton(title, self)
            button.setObjectName(f"docsShow_{name}")
            button.setCheckable(True)
            button.setAutoDefault(False)
            button.clicked.connect(lambda checked=False, n=name: self.show_document(n))
            bar.addWidget(button)
            self.document_buttons[name] = button
        bar.addStretch(1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.browser.sourceChanged.connect(self._on_source_changed)

    @property
    def current(self) -> str | None:
        """The name of the document shown (None for anything else)."""
        return _document_name(self.browser.source())

    def show_document(self, name: str) -> None:
        if name not in DOCUMENTS:
            raise KeyError(f"no document {name!r}; there are {', '.join(DOCUMENTS)}")
        url = document_url(name)
        if self.browser.source() != url:
            self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)
        else:
            self._on_source_changed(url)

    def _on_source_changed(self, url: QUrl) -> None:
        current = _document_name(url)
        for name, button in self.document_buttons.items():
            button.setChecked(name == current)
        title = DOCUMENTS[current][0] if current else "Documentation"
        self.setWindowTitle(f"{title} — UTF-8 Inspector")


def show_document(parent: QWidget | None, name: str = "user-guide") -> DocumentDialog:
    """Show document ``name`` (``"user-guide"`` or ``"utf8-units"``) in the parent's
    documentation window, made at the first call and reused after; returns it."""
    dialog = parent.findChild(DocumentDialog, "documentDialog") if parent is not None else None
    if dialog is None:
        dialog = DocumentDialog(parent)
    dialog.show_document(name)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def show_user_guide(parent: QWidget | None) -> DocumentDialog:
    """Help > User guide."""
    return show_document(parent, "user-guide")


def show_unit_contract(parent: QWidget | None) -> DocumentDialog:
    """Help > Unit contract."""
    return show_document(parent, "utf8-units")
