"""File > Save repaired copy: the repair dialog. Choose a policy (one for each problem
unit, or each region converted from its encoding), see what it does near the cursor and
over the whole file, choose a new file, save in the background, read the summary.

As with the exports, the inspected file is never written
(:mod:`inspector.core.source.safewrite` guards the target): the copy goes to a temporary
file beside the target and is renamed into place only when complete, then read back with the
scanner to confirm it is valid UTF-8.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDialog, QDialogButtonBox, QFileDialog,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPlainTextEdit, QProgressBar, QPushButton, QRadioButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from inspector.core.analysis import repair as repair_mod
from inspector.core.analysis import repairpreview
from inspector.core.analysis.encodings import regionrepair
from inspector.core.scan import scanner
from inspector.core.source.bytesource import display_path
from inspector.core.units.ranges import RANGE_HEADER, byte_range
from inspector.gui.dialogs.export import default_directory
from inspector.gui.look import regionlook
from inspector.gui.runtime import workers


def visible_text(text: str, limit: int = 40) -> str:
    """Text as a person can read it in a cell: controls and the lone surrogates of
    ``surrogateescape`` as escapes, nothing as a dash."""
    if text == "":
        return "—"
    out = []
    for ch in text:
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            out.append(f"\\x{cp - 0xDC00:02x}")  # surrogateescape keeps the raw byte here
        elif 0xD800 <= cp <= 0xDFFF:
            out.append(f"\\u{cp:04x}")
        elif cp < 0x20 or 0x7F <= cp <= 0x9F:
            out.append(f"\\x{cp:02x}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


POLICY_SHORT = {"replace": "U+FFFD", "drop": "drop", "cp1252": "Windows-1252",
                "latin1": "Latin-1", regionrepair.REGIONS: "each region from its encoding"}


class RepairDialog(QDialog):
    """File > Save repaired copy: choose a policy, see what it does near the cursor and
    over the whole file, choose a new file, save in the background, read the summary."""

    PREVIEW_RADIUS = 48

    saved = Signal(object)  # the RepairSummary

    def __init__(self, document, parent: QWidget | None = None, target: str | None = None):
        super().__init__(parent)
        self.setObjectName("repairDialog")
        self.setWindowTitle("Save a repaired copy")
        self.document = document
        self.summary = None
        self.check = ""
        self.counts = None
        self._worker: workers.GeneratorWorker | None = None
        self._worker_kind = ""
        self._browsed_overwrite = False
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

        layout = QVBoxLayout(self)
        layout.addWidget(self._build_head())
        layout.addWidget(self._build_policy_box())
        layout.addWidget(self._build_preview_box(mono), 1)
        layout.addWidget(self._build_counts_box())
        self._build_target_rows(layout, target)
        self._build_progress_and_summary(layout, mono)
        layout.addWidget(self._build_buttons())
        self.resize(880, 760)
        self._connect_inputs()

        self.refresh_preview()
        self.count_whole_file()
        document.cursorChanged.connect(lambda _offset: self.refresh_preview())
        document.sourceChanged.connect(self.refresh_preview)

    # ------------------------------------------------------------------ building the dialog
    def _build_head(self) -> QLabel:
        """The sentence at the top: which file, read how, and that it is never changed."""
        document = self.document
        name = display_path(document.path) if document.path else document.source.name
        head = QLabel(f"A new, valid UTF-8 copy of <b>{_html(name)}</b> in which every problem "
                      f"unit (read as {_html(document.dialect)}) is rewritten by the policy "
                      "below. The inspected file is never changed.", self)
        head.setWordWrap(True)
        head.setTextFormat(Qt.TextFormat.RichText)
        return head

    def _build_policy_box(self) -> QGroupBox:
        """The policies for each problem unit, then the region policy and its choice for
        binary regions."""
        policy_box = QGroupBox("Policy for each problem unit", self)
        policy_layout = QVBoxLayout(policy_box)
        self.policy_group = QButtonGroup(self)
        self.policy_buttons: dict[str, QRadioButton] = {}
        policies = repair_mod.POLICIES
        for i, p in enumerate(policies):
            b = QRadioButton(repair_mod.POLICY_TITLES[p], policy_box)
            b.setObjectName(f"policy_{p}")
            self.policy_group.addButton(b, i)
            self.policy_buttons[p] = b
            policy_layout.addWidget(b)
        self.policy_buttons[policies[0]].setChecked(True)
        self._build_region_policy(policy_box, policy_layout, len(policies))
        return policy_box

    def _build_region_policy(self, policy_box: QGroupBox, policy_layout: QVBoxLayout,
                             button_id: int) -> None:
        """The region policy: each region of the encoding map (the finished scan's, see
        regionlook.map_of) from its encoding; binary regions kept or dropped."""
        self.regions_button = QRadioButton(regionrepair.REGIONS_TITLE.capitalize(), policy_box)
        self.regions_button.setObjectName(f"policy_{regionrepair.REGIONS}")
        self.policy_group.addButton(self.regions_button, button_id)
        policy_layout.addWidget(self.regions_button)
        binary_row = QVBoxLayout()
        binary_row.setContentsMargins(24, 0, 0, 0)
        self.binary_group = QButtonGroup(self)
        self.binary_buttons: dict[str, QRadioButton] = {}
        for i, choice in enumerate(regionrepair.BINARY_CHOICES):
            b = QRadioButton(regionrepair.BINARY_TITLES[choice].capitalize(), policy_box)
            b.setObjectName(f"binary_{choice}")
            self.binary_group.addButton(b, i)
            self.binary_buttons[choice] = b
            binary_row.addWidget(b)
        self.binary_buttons[regionrepair.BINARY_CHOICES[0]].setChecked(True)
        policy_layout.addLayout(binary_row)
        emap = self.encoding_map
        if emap is None:
            self.regions_button.setEnabled(False)
            self.regions_button.setToolTip("Once the scan is complete: it works out the "
                                           "encoding map.")
        else:
            self.regions_button.setToolTip(
                f"{len(emap):,} regions: " + ", ".join(
                    f"{regionlook.short_name(r)}" for r in emap.regions[:6])
                + (" …" if len(emap) > 6 else ""))
        self._binary_enabled()

    def _build_preview_box(self, mono) -> QGroupBox:
        """What the policy does near the cursor: a table of the problems there, and the
        window's text as repaired."""
        preview_box = QGroupBox(self)
        self.preview_box = preview_box
        pv = QVBoxLayout(preview_box)
        self.preview_table = QTableWidget(0, 0, preview_box)
        self.preview_table.setObjectName("repairPreview")
        self.preview_table.setFont(mono)
        self.preview_table.verticalHeader().hide()
        self.preview_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.preview_table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.preview_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.preview_table.setMinimumHeight(150)
        pv.addWidget(self.preview_table)
        self.preview_text = QLabel(preview_box)
        self.preview_text.setObjectName("repairPreviewText")
        self.preview_text.setFont(mono)
        self.preview_text.setWordWrap(True)
        self.preview_text.setTextFormat(Qt.TextFormat.RichText)
        self.preview_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pv.addWidget(self.preview_text)
        return preview_box

    def _build_counts_box(self) -> QGroupBox:
        """What each policy does over the whole file (counted in the background)."""
        counts_box = QGroupBox("The whole file", self)
        cl = QVBoxLayout(counts_box)
        self.counts_label = QLabel("Counting…", counts_box)
        self.counts_label.setObjectName("repairCounts")
        self.counts_label.setWordWrap(True)
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        # Word-wrapped labels get one line from the layout unless told otherwise.
        self.counts_label.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        cl.addWidget(self.counts_label)
        return counts_box

    def _build_target_rows(self, layout: QVBoxLayout, target: str | None) -> None:
        """Where the copy goes ("Save as", Browse) and the consent to replace a file."""
        target_row = QHBoxLayout()
        target_row.addWidget(QLabel("Save as:", self))
        self.target_edit = QLineEdit(self)
        self.target_edit.setObjectName("repairTarget")
        self.target_edit.setText(target or self.default_target())
        target_row.addWidget(self.target_edit, 1)
        self.browse_button = QPushButton("Browse…", self)
        self.browse_button.setAutoDefault(False)
        target_row.addWidget(self.browse_button)
        layout.addLayout(target_row)
        self.overwrite = QCheckBox("Replace the target file if it exists (never the inspected "
                                   "file)", self)
        self.overwrite.setObjectName("repairOverwrite")
        layout.addWidget(self.overwrite)

    def _build_progress_and_summary(self, layout: QVBoxLayout, mono) -> None:
        """The progress bar and message of the work running, and the summary once the
        copy is saved (both hidden until then)."""
        progress_row = QHBoxLayout()
        self.progress = QProgressBar(self)
        self.progress.setObjectName("repairProgress")
        self.progress.setRange(0, 1000)
        self.progress.hide()
        progress_row.addWidget(self.progress, 1)
        self.message = QLabel(self)
        self.message.setObjectName("repairMessage")
        self.message.setWordWrap(True)
        layout.addLayout(progress_row)
        layout.addWidget(self.message)
        self.summary_view = QPlainTextEdit(self)
        self.summary_view.setObjectName("repairSummary")
        self.summary_view.setReadOnly(True)
        self.summary_view.setFont(mono)
        self.summary_view.setMaximumHeight(130)
        self.summary_view.hide()
        layout.addWidget(self.summary_view)

    def _build_buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton("Save copy", QDialogButtonBox.ButtonRole.AcceptRole)
        self.save_button.setObjectName("repairSave")
        self.cancel_button = buttons.addButton("Cancel", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button.setObjectName("repairCancel")
        self.cancel_button.setEnabled(False)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        return buttons

    def _connect_inputs(self) -> None:
        self.policy_group.idToggled.connect(lambda _id, on: on and self._policy_changed())
        self.binary_group.idToggled.connect(lambda _id, on: on and self._policy_changed())
        self.save_button.clicked.connect(self.save)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)
        self.browse_button.clicked.connect(self.browse)
        self.target_edit.textEdited.connect(lambda _t: setattr(self, "_browsed_overwrite", False))

    # ------------------------------------------------------------------ choices
    @property
    def encoding_map(self):
        """The finished scan's encoding map (never worked out here), or None."""
        return regionlook.map_of(self.document.scan)

    @property
    def binary(self) -> str:
        for choice, b in self.binary_buttons.items():
            if b.isChecked():
                return choice
        return regionrepair.KEEP_BINARY

    def set_binary(self, choice: str) -> None:
        self.binary_buttons[choice].setChecked(True)

    def _binary_enabled(self) -> None:
        on = self.regions_button.isChecked()
        for b in self.binary_buttons.values():
            b.setEnabled(on)

    @property
    def policy(self) -> str:
        if self.regions_button.isChecked():
            return regionrepair.REGIONS
        for p, b in self.policy_buttons.items():
            if b.isChecked():
                return p
        return "replace"

    def set_policy(self, policy: str) -> None:
        if policy == regionrepair.REGIONS:
            self.regions_button.setChecked(True)
        else:
            self.policy_buttons[policy].setChecked(True)

    def default_target(self) -> str:
        name = self.document.source.name or "repaired"
        p = Path(name)
        return os.path.join(default_directory(), f"{p.stem}.repaired{p.suffix or '.txt'}")

    def browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save the repaired copy as",
                                              self.target_edit.text() or self.default_target())
        if path:
            self.target_edit.setText(path)
            # The file dialog has already asked whether to replace an existing file.
            self._browsed_overwrite = os.path.exists(path)

    def _policy_changed(self) -> None:
        self._binary_enabled()
        self.refresh_preview()
        self._show_counts()

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #b91c1c;" if error else "")

    # ------------------------------------------------------------------ preview
    def refresh_preview(self) -> None:
        if self.policy == regionrepair.REGIONS and self.encoding_map is not None:
            self._refresh_region_preview()
            return
        doc = self.document
        policies = list(self.policy_buttons)
        pv = repairpreview.preview(doc.source, doc.cursor, policies, doc.dialect, self.PREVIEW_RADIUS)
        self.last_preview = pv
        self.preview_box.setTitle(f"Problems near the cursor ({byte_range(pv.start, pv.end)})")
        handlers = list(repair_mod.PYTHON_ERROR_HANDLERS)
        headers = (["Offset", "Bytes", "Kind"] + [POLICY_SHORT.get(p, p) for p in policies]
                   + [f"Python {h}" for h in handlers])
        table = self.preview_table
        table.clear()
        table.clearSpans()   # the last preview's "no problems" row spans the table
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setRowCount(max(len(pv.items), 1))
        chosen = 3 + policies.index(self.policy)
        if not pv.items:
            table.setItem(0, 0, QTableWidgetItem("no problems within "
                                                 f"{self.PREVIEW_RADIUS} bytes of the cursor"))
            table.setSpan(0, 0, 1, len(headers))
        for row, item in enumerate(pv.items):
            cells = ([f"0x{item.offset:X}", item.raw.hex(" ").upper(), item.kind]
                     + [visible_text(item.results[p]) for p in policies]
                     + [visible_text(item.python[h]) for h in handlers])
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if col == chosen:
                    f = cell.font()
                    f.setBold(True)
                    cell.setFont(f)
                table.setItem(row, col, cell)
        header_item = table.horizontalHeaderItem(chosen)
        if header_item is not None:
            header_item.setText("▶ " + header_item.text())
        text = pv.text.get(self.policy, "")
        self.preview_text.setText(
            f"The window with “{POLICY_SHORT.get(self.policy, self.policy)}”: "
            f"{_html(visible_text(text, 160))}<br>"
            f"Python errors='replace': {_html(visible_text(pv.python.get('replace', ''), 160))}")

    def _refresh_region_preview(self) -> None:
        """The region policy near the cursor: one row per region met, its bytes, the
        text they show as UTF-8 now and what the policy makes of them."""
        doc = self.document
        items = regionrepair.preview_regions(doc.source, self.encoding_map, doc.cursor,
                                           self.REGION_RADIUS, self.binary)
        self.last_region_preview = items
        lo = min((i.start for i in items), default=doc.cursor)
        hi = max((i.end for i in items), default=doc.cursor)
        self.preview_box.setTitle(f"Regions near the cursor ({byte_range(lo, hi)})")
        headers = [RANGE_HEADER, "Encoding", "Bytes", "As UTF-8 now", "▶ Converted"]
        table = self.preview_table
        table.clear()
        table.clearSpans()   # the last preview's "no problems" row spans the table
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setRowCount(max(len(items), 1))
        if not items:
            table.setItem(0, 0, QTableWidgetItem("no region at the cursor"))
            table.setSpan(0, 0, 1, len(headers))
        for row, item in enumerate(items):
            span = item.span
            encoding = span.encoding + (f" via {span.via}" if span.via else "")
            raw = item.raw[:8].hex(" ").upper() + (" …" if len(item.raw) > 8 else "")
            cells = [byte_range(item.start, item.end), encoding, raw,
                     visible_text(item.before, 64), visible_text(item.after, 64)]
            tips = ["", "", item.raw.hex(" ").upper(), visible_text(item.before, 2000),
                    visible_text(item.after, 2000)]
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(tips[col])
                if col == len(cells) - 1:
                    f = cell.font()
                    f.setBold(True)
                    cell.setFont(f)
                table.setItem(row, col, cell)
        after = "".join(i.after for i in items)
        self.preview_text.setText(
            f"The window converted: {_html(visible_text(after, 240))}")

    REGION_RADIUS = 160

    # ------------------------------------------------------------------ background work
    def _run(self, kind: str, factory) -> None:
        self.cancel()
        worker = workers.GeneratorWorker(factory, interval=0.05)
        s = worker.signals
        s.progress.connect(self._on_progress)
        s.finished.connect(self._on_finished)
        s.failed.connect(self._on_failed)
        s.cancelled.connect(self._on_cancelled)
        self._worker = worker
        self._worker_kind = kind
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.save_button.setEnabled(kind != "save")
        workers.start(worker)

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def _current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def _end(self) -> str:
        kind = self._worker_kind
        self._worker = None
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.save_button.setEnabled(True)
        return kind

    def _on_progress(self, step) -> None:
        if self._current():
            self.progress.setValue(int(1000 * step.done / step.total) if step.total else 1000)

    def _on_finished(self, value) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts = value
            self._show_counts()
        else:
            value, check = value
            self.summary = value
            self.check = check
            self.summary_view.setPlainText(value.describe() + "\n" + check)
            self.summary_view.show()
            if isinstance(value, regionrepair.RegionRepairSummary):
                regions = sum(n for n, _i, _o in value.by_encoding.values())
                self._say(f"Saved. {regions:,} regions converted from their encodings, "
                          f"{value.problems_fixed:,} problem units in UTF-8 regions repaired.")
            else:
                self._say(f"Saved. {value.problems_fixed:,} problem units repaired with "
                          f"“{POLICY_SHORT.get(self.policy, self.policy)}”.")
            self.saved.emit(value)

    def _on_failed(self, error) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts_label.setText(f"Could not count: {error}")
        else:
            self._say(f"Not saved: {error}", error=True)

    def _on_cancelled(self) -> None:
        if not self._current():
            return
        kind = self._end()
        if kind == "count":
            self.counts_label.setText("Counting was cancelled.")
        else:
            self._say("Cancelled: nothing was written.")

    def cancel(self) -> None:
        worker = self._worker
        if worker is not None:
            kind = self._end()
            worker.cancel()
            if kind == "save":
                self._say("Cancelled: nothing was written.")
            else:
                self.counts_label.setText("Counting was cancelled.")

    def count_whole_file(self) -> None:
        doc = self.document
        source, dialect = doc.source, doc.dialect
        policies = list(self.policy_buttons)
        self.counts_label.setText("Counting what each policy changes in the whole file…")
        self._run("count", lambda: repairpreview.policy_counts(source, dialect, policies))

    def _show_counts(self) -> None:
        emap = self.encoding_map
        if self.policy == regionrepair.REGIONS and emap is not None:
            parts = ", ".join(f"{regionlook.short_name_of(enc)} {n:,} bytes"
                              for enc, n in emap.bytes_by_encoding().items())
            self.counts_label.setText(
                f"{len(emap):,} regions ({parts}). Binary regions: "
                f"{_html(regionrepair.BINARY_TITLES[self.binary])}.")
            return
        c = self.counts
        if c is None:
            return
        if not c.problem_units and not sum(c.converted.values()):
            self.counts_label.setText(f"No problem units in the file ({c.input_size:,} bytes): "
                                      "nothing to rewrite (the summary after saving compares the hashes).")
            return
        kinds = ", ".join(f"{n:,} {k}" for k, n in sorted(c.units_by_kind.items()))
        sizes = "; ".join(
            f"{'▶ ' if p == self.policy else ''}{POLICY_SHORT.get(p, p)}: {size:,} bytes"
            for p, size in c.output_size.items())
        extra = ""
        if c.converted:
            extra = " Also converted: " + ", ".join(f"{n:,} {k.replace('_', ' ')}"
                                                   for k, n in c.converted.items()) + "."
        self.counts_label.setText(
            f"{c.problem_units:,} problem units ({kinds}), {c.problem_bytes:,} bytes, "
            f"{c.replacements:,} U+FFFD with the Unicode practice.{extra}<br>"
            f"Size of the copy ({c.input_size:,} bytes now): {sizes}.")

    def save(self, target: str | None = None) -> None:
        """Save with the chosen policy to ``target`` (default: the path in the box)."""
        doc = self.document
        path = target if isinstance(target, str) else self.target_edit.text().strip()
        overwrite = self.overwrite.isChecked() or self._browsed_overwrite
        try:
            path = repair_mod.check_target(doc.source, path, overwrite)
        except repair_mod.RepairError as e:
            self._say(f"Not saved: {e}", error=True)
            return
        source, dialect, policy = doc.source, doc.dialect, self.policy
        self.summary_view.hide()
        if policy == regionrepair.REGIONS and self.encoding_map is not None:
            emap, binary = self.encoding_map, self.binary
            self._say(f"Saving with “{POLICY_SHORT[policy]}”…")
            self._run("save", lambda: region_repair_and_check_steps(source, path, emap, binary,
                                                                    overwrite))
            return
        self._say(f"Saving with “{POLICY_SHORT.get(policy, policy)}”…")
        self._run("save", lambda: repair_and_check_steps(source, path, policy, dialect,
                                                         overwrite))

    def reject(self) -> None:
        self.cancel()
        super().reject()


def repair_and_check_steps(source, target: str, policy: str, dialect: str, overwrite: bool):
    """Write the repaired copy, then read it back with the scanner to confirm it is
    valid UTF-8. Yields progress (of both passes); returns (summary, check sentence)."""
    from inspector.core.source.bytesource import FileSource

    summary = yield from repair_mod.repair_steps(source, target, policy, dialect,
                                                 overwrite=overwrite)
    copy = FileSource(target)
    try:
        steps = scanner.scan_steps(copy, dialect="utf-8", sha256=False,
                                   workers=workers.SCAN_WORKERS)
        try:
            while True:
                step = next(steps)
                yield step
        except StopIteration as stop:
            result = stop.value
    finally:
        copy.close()
    if result.error_units == 0:
        return summary, "Checked: the copy reads back as valid UTF-8 (0 errors)."
    return summary, (f"WARNING: the copy reads back with {result.error_units:,} UTF-8 "
                     "errors; please report this.")


def region_repair_and_check_steps(source, target: str, regions, binary: str, overwrite: bool):
    """Write the copy with each region converted from its encoding
    (:func:`inspector.core.analysis.encodings.regionrepair.region_repair_steps`), then read
    it back with the scanner. Yields progress; returns (summary, check sentence)."""
    from inspector.core.source.bytesource import FileSource

    summary = yield from regionrepair.region_repair_steps(source, target, regions, binary,
                                                        overwrite=overwrite)
    copy = FileSource(target)
    try:
        result = yield from scanner.scan_steps(copy, dialect="utf-8", sha256=False,
                                               workers=workers.SCAN_WORKERS)
    finally:
        copy.close()
    if result.error_units == 0:
        return summary, "Checked: the copy reads back as valid UTF-8 (0 errors)."
    if binary == regionrepair.KEEP_BINARY and summary.by_encoding.get("binary"):
        return summary, (f"The copy reads back with {result.error_units:,} UTF-8 errors: "
                         "the binary regions kept as they were.")
    return summary, (f"WARNING: the copy reads back with {result.error_units:,} UTF-8 "
                     "errors; please report this.")


def _html(text: str) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
