"""The Help menu opens the user guide, the unit contract and About, each from its menu
item (triggered through the menu bar's own actions, as a click would)."""

from PySide6.QtWidgets import QApplication, QMenu

from inspector.gui.dialogs.about import AboutDialog
from inspector.gui.dialogs.docs import DocumentDialog


def help_action(window, object_name):
    menu = window.findChild(QMenu, "helpMenu")
    return next(a for a in menu.actions() if a.objectName() == object_name)


def shown(window, kind):
    """The visible dialogs of ``kind`` that this window opened: a dialog another test
    opened on a parent of its own may still be shown, until that parent goes."""
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, kind) and w.isVisible() and w.parentWidget() is window]


def test_help_opens_the_guide_the_contract_and_about(window, qtbot):
    help_action(window, "actionUserGuide").trigger()
    qtbot.waitUntil(lambda: bool(shown(window, DocumentDialog)), timeout=5000)
    dialog = shown(window, DocumentDialog)[0]
    assert dialog.current == "user-guide"
    help_action(window, "actionUnitContract").trigger()
    qtbot.waitUntil(lambda: dialog.current == "utf8-units", timeout=5000)
    assert "truncated" in dialog.browser.toPlainText()
    help_action(window, "actionAbout").trigger()
    qtbot.waitUntil(lambda: bool(shown(window, AboutDialog)), timeout=5000)
    about = shown(window, AboutDialog)[0]
    assert about.objectName() == "aboutDialog"
    for widget in (dialog, about):
        widget.close()
