"""The dialogs the window opens from its menus: the encoder and the UTF-8 reference
(made once and raised again), the legend, About, the user guide and the unit contract,
the repaired copy, and the exporter behind File > Export. Each dialog is kept here
(``dialogs.encoder_dialog``...), made when first opened.

The dialogs' modules are imported when a dialog is first opened: the first window needs
none of them, and with the exporter come the reports, repair and verdict (issue 14:
start-up).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt


class WindowDialogs(QObject):
    """The menus' dialogs of one window (``parent``: their parent widget).

    ``find_pattern``: what the encoder's "find in file" calls; ``finding_entries``: the
    findings a report lists; ``show_error`` and ``show_message``: the window's message
    box and status bar note."""

    def __init__(self, document, find_pattern, finding_entries, show_error, show_message,
                 parent):
        super().__init__(parent)
        self.document = document
        self.find_pattern = find_pattern
        self.finding_entries = finding_entries
        self.show_error = show_error
        self.show_message = show_message
        self.legend_dialog = None
        self.encoder_dialog = None
        self.reference_dialog = None
        self.repair_dialog = None
        self._exporter = None

    def show_legend(self) -> None:
        from inspector.gui.dialogs.legend import LegendDialog

        self.legend_dialog = LegendDialog(self.parent())
        self.legend_dialog.open()

    def show_encoder(self) -> None:
        if self.encoder_dialog is None:
            from inspector.gui.dialogs.encoder import EncoderDialog

            self.encoder_dialog = EncoderDialog(self.document, self.parent())
            self.encoder_dialog.findRequested.connect(self.find_pattern)
        self.encoder_dialog.show()
        self.encoder_dialog.raise_()
        self.encoder_dialog.activateWindow()

    def show_reference(self) -> None:
        if self.reference_dialog is None:
            from inspector.gui.dialogs.reference import ReferenceDialog

            self.reference_dialog = ReferenceDialog(self.document, self.parent())
        self.reference_dialog.show()
        self.reference_dialog.raise_()
        self.reference_dialog.activateWindow()

    def show_about(self) -> None:
        from inspector.gui.dialogs import about  # loaded when first asked for

        about.show_about(self.parent())

    def show_user_guide(self) -> None:
        from inspector.gui.dialogs import docs

        docs.show_user_guide(self.parent())

    def show_unit_contract(self) -> None:
        from inspector.gui.dialogs import docs

        docs.show_unit_contract(self.parent())

    @property
    def exporter_if_made(self):
        """The exporter if File > Export was used, else None (nothing is made)."""
        return self._exporter

    @property
    def exporter(self):
        """The window's exporter, made on first use; its outcome goes to the status bar."""
        if self._exporter is None:
            from inspector.gui.dialogs import export as exportdialogs

            made = self._exporter = exportdialogs.Exporter(self.document, self.parent())
            made.findings = self.finding_entries
            made.done.connect(lambda outcome, message: self.show_message(
                message.splitlines()[0] if message else outcome))
        return self._exporter

    def export(self, kind: str, path=None):
        """File > Export (``kind`` "json", "csv" or "html"); asks for a path unless given."""
        return self.exporter.export(kind, path)

    def show_repair(self, target: str | None = None):
        if self.document.path is None and not self.document.size:
            self.show_error("Save a repaired copy", "Open a file first.")
            return None
        if self.repair_dialog is not None:
            self.repair_dialog.close()
        from inspector.gui.dialogs import repair as repairdialog

        self.repair_dialog = repairdialog.RepairDialog(self.document, self.parent(), target)
        self.repair_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.repair_dialog.open()
        return self.repair_dialog
