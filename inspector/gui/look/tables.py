"""The look and behaviour shared by the window's lists (problems, findings, regions,
folder triage): whole rows selected one at a time, read-only, no row numbers; and the
table models' named columns."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView


class NamedColumnsModel(QAbstractTableModel):
    """A table model whose columns are the titles in ``COLUMNS``."""

    COLUMNS: tuple[str, ...] = ()

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None


def read_only_rows(table: QTableView, *, alternating: bool = False, wrap: bool = False) -> None:
    table.verticalHeader().hide()
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(wrap)
    if alternating:
        table.setAlternatingRowColors(True)
