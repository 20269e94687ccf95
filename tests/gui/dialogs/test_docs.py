"""The documents window (Help > User guide, Help > Unit contract): the shipped markdown
with its screenshots, links between the documents, Back and Forward."""

import re

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument

from inspector import resources_access
from inspector.gui.dialogs import docs


@pytest.fixture
def parent(qtbot):
    from PySide6.QtWidgets import QWidget

    w = QWidget()
    qtbot.addWidget(w)
    return w


def images_of(browser) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', browser.document().toHtml())


@pytest.mark.parametrize("name", list(docs.DOCUMENTS))
def test_each_document_shows_whole(parent, qtbot, name):
    dialog = docs.show_document(parent, name)
    qtbot.waitExposed(dialog)
    browser = dialog.browser
    assert dialog.current == name
    assert dialog.windowTitle().startswith(docs.DOCUMENTS[name][0])
    assert dialog.document_buttons[name].isChecked()
    text = browser.toPlainText()
    assert len(text) > 2000 and "Not found" not in text
    for src in images_of(browser):
        url = browser.source().resolved(QUrl(src))
        image = browser.loadResource(QTextDocument.ResourceType.ImageResource, url)
        assert image is not None and not image.isNull(), src
        assert image.width() / image.devicePixelRatio() <= browser.MAX_IMAGE_WIDTH
    assert browser.missing == []


def test_the_guide_shows_a_screenshot_of_each_tool(parent, qtbot):
    dialog = docs.show_user_guide(parent)
    shown = {src.rsplit("/", 1)[-1] for src in images_of(dialog.browser)}
    assert {"main-window.png", "sequence-inspector.png", "problem-list.png", "statistics.png",
            "find-bar.png", "encoder.png", "reference.png", "repair-dialog.png"} <= shown


def test_links_between_documents_and_back(parent, qtbot):
    dialog = docs.show_user_guide(parent)
    assert not dialog.back_button.isEnabled()
    dialog.browser.setSource(dialog.browser.source().resolved(QUrl("utf8-units.md")))
    assert dialog.current == "utf8-units"
    assert "How UTF-8 Inspector cuts bytes into units" in dialog.browser.toPlainText()
    assert dialog.document_buttons["utf8-units"].isChecked()
    assert dialog.back_button.isEnabled()
    dialog.back_button.click()
    assert dialog.current == "user-guide"
    assert dialog.forward_button.isEnabled()


def test_one_window_for_the_documents(parent, qtbot):
    first = docs.show_user_guide(parent)
    second = docs.show_unit_contract(parent)
    assert first is second and second.current == "utf8-units"
    with pytest.raises(KeyError):
        docs.show_document(parent, "no-such-document")


def test_a_missing_file_is_said_not_fatal(parent, qtbot):
    dialog = docs.show_user_guide(parent)
    url = QUrl("inspector:/docs/none.md")
    text = dialog.browser.loadResource(QTextDocument.ResourceType.MarkdownResource, url)
    assert "not part of this installation" in text
    assert dialog.browser.missing == ["docs/none.md"]
    # Nothing outside the resources is ever read.
    for climbing in ("inspector:/../../etc/passwd", "inspector:/docs/../../pyproject.toml"):
        text = dialog.browser.loadResource(QTextDocument.ResourceType.MarkdownResource,
                                           QUrl(climbing))
        assert "not part of this installation" in text


def test_the_documents_are_the_shipped_files():
    for _title, file in docs.DOCUMENTS.values():
        assert file in resources_access.RUNTIME
