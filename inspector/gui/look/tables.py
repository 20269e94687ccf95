"""The look and behaviour shared by the window's lists (problems, findings, regions,
folder triage): whole rows selected one at a time, read-only, no row numbers."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView


def read_only_rows(table: QTableView, *, alternating: bool = False, wrap: bool = False) -> None:
    table.verticalHeader().hide()
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(wrap)
    if alternating:
        table.setAlternatingRowColors(True)
