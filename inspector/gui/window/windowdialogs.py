"""The dialogs the window opens from its menus: the encoder and the UTF-8 reference
(made once and raised again), the legend, About, the user guide and the unit contract, the repaired copy, and the exporter
behind File > Export. Functions of the window (its methods of the same names call them);
each dialog is kept on the window (``window.encoder_dialog``...).

The dialogs' modules are imported when a dialog is first opened: the first window needs
none of them, and with the exporter come the reports, repair and verdict (issue 14:
start-up).
"""

from __future__ import annotations

from PySide6.QtCore import Qt



def show_legend(window) -> None:
    from inspector.gui.dialogs.legend import LegendDialog

    window.legend_dialog = LegendDialog(window)
    window.legend_dialog.open()


def show_encoder(window) -> None:
    if window.encoder_dialog is None:
        from inspector.gui.dialogs.encoder import EncoderDialog

        window.encoder_dialog = EncoderDialog(window.document, window)
        window.encoder_dialog.findRequested.connect(window.find_pattern)
    window.encoder_dialog.show()
    window.encoder_dialog.raise_()
    window.encoder_dialog.activateWindow()


def show_reference(window) -> None:
    if window.reference_dialog is None:
        from inspector.gui.dialogs.reference import ReferenceDialog

        window.reference_dialog = ReferenceDialog(window.document, window)
    window.reference_dialog.show()
    window.reference_dialog.raise_()
    window.reference_dialog.activateWindow()


def show_about(window) -> None:
    from inspector.gui.dialogs import about  # loaded when first asked for

    about.show_about(window)


def show_user_guide(window) -> None:
    from inspector.gui.dialogs import docs

    docs.show_user_guide(window)


def show_unit_contract(window) -> None:
    from inspector.gui.dialogs import docs

    docs.show_unit_contract(window)


def exporter(window):
    """The window's exporter (``window.exporter``), made on first use; its outcome goes
    to the status bar."""
    made = getattr(window, "exporter", None)
    if made is None:
        from inspector.gui.dialogs import export as exportdialogs

        made = window.exporter = exportdialogs.Exporter(window.document, window)
        made.findings = window.findings.report_entries
        made.done.connect(lambda outcome, message: window.show_message(
            message.splitlines()[0] if message else outcome))
    return made


def show_repair(window, target: str | None = None):
    if window.document.path is None and not window.document.size:
        window.show_error("Save a repaired copy", "Open a file first.")
        return None
    if window.repair_dialog is not None:
        window.repair_dialog.close()
    from inspector.gui.dialogs import repair as repairdialog

    window.repair_dialog = repairdialog.RepairDialog(window.document, window, target)
    window.repair_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    window.repair_dialog.open()
    return window.repair_dialog
