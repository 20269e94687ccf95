"""The window's findings: what the user marked on the open file, kept by its content.

:class:`WindowFindings` (``window.findings``) holds the findings of the open bytes and
keeps them in a :class:`~inspector.core.analysis.findings.FindingStore` in the user's
application-data folder (``QStandardPaths.AppDataLocation``), never next to the
evidence. The store is keyed by the bytes' SHA-256 and size, which the background scan
computes. Until it is known, findings are saved at once under the file's quick identity
(path, size, time, the first and last MiB: read when the file opens), so closing,
reloading or cancelling the scan loses nothing; the whole hash then confirms them (they
move under it), or, if the bytes are no longer those, sets them apart as ``earlier``.
Findings made on other bytes at the same path (the file changed since) are offered as
``earlier`` (read only), never put on the new bytes. A damaged store file is set aside
and a folder that cannot be written is reported: the findings then stay in memory, the
window asks before anything would drop them, and it keeps working.

For tests and scripts: ``add(start, end, note)`` and ``items()``.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QStandardPaths, Signal

from inspector.core.analysis import findings as F
from inspector.core.source.bytesource import ByteSourceError, display_path
from inspector.core.units.ranges import byte_range

DATA_FOLDER_ENV = "UTF8_INSPECTOR_DATA"   # another data folder (tests, portable use)


def default_folder() -> str:
    """Where findings are kept: ``$UTF8_INSPECTOR_DATA/findings`` if set, else the
    application-data folder's ``findings``."""
    base = os.environ.get(DATA_FOLDER_ENV) or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation)
    return os.path.join(base, "findings")


PENDING_TEXT = ("the file's SHA-256 is not known yet: findings are saved under a provisional "
                "fingerprint (path, size, time, first and last MiB) and confirmed when it is")


class WindowFindings(QObject):
    """The findings of one document. ``changed`` follows every change of the list, the
    identity, the earlier findings or the storage state; ``problem`` is the last
    storage trouble in words ("" if none)."""

    changed = Signal()
    message = Signal(str)   # a one-line note for the status bar

    def __init__(self, document, folder: str | None = None, show_error=None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.store = F.FindingStore(folder or default_folder())
        self.show_error = show_error or (lambda title, text: None)
        self.identity: F.Identity | None = None      # the bytes' SHA-256 and size
        self.quick: F.QuickIdentity | None = None    # what they looked like when opened
        self.earlier: list[tuple[F.Identity | F.QuickIdentity, list[F.Finding]]] = []
        self.problem = ""
        self.saved = True          # the list shown is on disk (under either identity)
        self.released = False      # the user let the unsaved ones go (or exported them)
        self._items: list[F.Finding] = []
        document.sourceChanged.connect(self._on_source)

    # ------------------------------------------------------------------ state
    @property
    def folder(self) -> str:
        return self.store.folder

    @property
    def pending(self) -> bool:
        """A file is open whose fingerprint is not known yet."""
        return self.identity is None and (self.document.path is not None or self.document.size > 0)

    @property
    def unsaved(self) -> int:
        """How many findings live only in memory (the store could not be written, or
        the bytes have no path): what closing or reloading would lose."""
        return 0 if self.saved or self.released else len(self._items)

    def let_go(self) -> None:
        """The user chose to lose the unsaved findings (or exported them): closing or
        reloading no longer asks, until the list changes again."""
        self.released = True

    def status_text(self) -> str:
        """What the dock says above its list."""
        parts = []
        if self.pending:
            parts.append(PENDING_TEXT)
        if self.unsaved:
            parts.append(f"{self.unsaved} finding(s) kept in memory only: export them to keep them")
        if self.problem:
            parts.append(self.problem)
        return "\n".join(parts)

    def items(self) -> list[F.Finding]:
        """The findings on the open bytes, by offset."""
        return list(self._items)

    def _publish(self) -> None:
        self.released = False   # a changed list is asked about again
        self.document.set_findings(self._items)
        self.changed.emit()

    # ------------------------------------------------------------------ the file
    def _current_quick(self) -> F.QuickIdentity | None:
        if self.document.path is None:
            return None
        try:
            return F.quick_identity(self.document.source)
        except (OSError, ByteSourceError):
            return None

    def _on_source(self) -> None:
        self.identity = None
        self.earlier = []
        self._items = []
        self.problem = ""
        self.saved = True
        self.quick = None
        path = self.document.path
        # Findings saved before an earlier session knew the whole hash: shown at once on
        # these bytes if they still look the same, apart if not. The quick identity is
        # read only when there are some (or when the first finding is made).
        try:
            pending = self.store.pending_at(os.fsdecode(path)) if path is not None else []
        except OSError:
            pending = []
        if pending:
            self.quick = self._current_quick()
            loaded = F.Loaded([])
            if self.quick is not None:
                try:
                    loaded = self.store.load_pending(self.quick)
                except OSError as e:
                    self._storage_trouble(f"The findings could not be read from "
                                          f"{display_path(self.folder)}: {e}")
            self._report_damaged(loaded)
            self._items = loaded.findings
            self.earlier = [(q, fs) for q, fs in pending if q != self.quick]
        self._publish()

    def on_scan(self, result) -> None:
        """A whole-file scan finished: its SHA-256 names the bytes' findings; those
        kept under the quick identity are confirmed, or set apart if the file changed."""
        if result is None or not getattr(result, "complete", False):
            return
        sha = getattr(result, "sha256", None)
        if not sha or result.size != self.document.size:
            return
        try:
            identity = F.Identity(sha, result.size)
        except F.FindingsError:
            return
        if identity == self.identity:
            return
        self.identity = identity
        waiting = self._items
        quick = self.quick
        # The provisional findings belong to these bytes only if the file still looks
        # as it did when they were made (same size, time, first and last MiB).
        confirmed = quick is None or self._current_quick() == quick
        loaded = F.Loaded([])
        try:
            loaded = self.store.load(identity)
        except OSError as e:
            self._storage_trouble(f"The findings could not be read from "
                                  f"{display_path(self.folder)}: {e}")
        self._report_damaged(loaded)
        earlier = [(q, fs) for q, fs in self.earlier if q != quick]
        if confirmed:
            self._items = F.merge(loaded.findings, waiting)
        else:
            self._items = loaded.findings
            if waiting:
                earlier.append((quick, waiting))
        path = self.document.path
        if path is not None:
            try:
                earlier += self.store.earlier_findings(os.fsdecode(path), identity)
            except OSError:
                pass
        self.earlier = earlier
        if confirmed and waiting:
            self._save()
        if self.saved and confirmed and quick is not None:
            try:
                self.store.remove_pending(quick)  # now under the whole hash
            except OSError:
                pass
        if self.earlier:
            n = sum(len(fs) for _, fs in self.earlier)
            self.message.emit(f"{n} finding(s) are from an earlier version of this file: "
                              "shown apart, not on these bytes")
        self._publish()

    def _report_damaged(self, loaded: F.Loaded) -> None:
        if loaded.damaged:
            self._storage_trouble(
                f"The findings file of these bytes was damaged ({loaded.reason}); it was "
                f"set aside as {display_path(loaded.damaged)} and a new one is started.",
                title="Damaged findings file")

    # ------------------------------------------------------------------ changes
    def add(self, start: int, end: int, note: str = "") -> F.Finding:
        """Mark bytes [start, end) with ``note``; saved at once (under the quick
        identity until the whole hash is known)."""
        start, end = F.check_range(int(start), int(end), self.document.size)
        f = F.Finding(start, end, str(note))
        self._items = sorted(self._items + [f], key=F.sort_key)
        self._save()
        self._publish()
        return f

    def _find(self, which) -> F.Finding:
        if isinstance(which, F.Finding):
            which = which.id
        for f in self._items:
            if f.id == which:
                return f
        raise KeyError(which)

    def set_note(self, which, note: str) -> None:
        f = self._find(which)
        f.note = str(note)
        f.modified = F.now_iso()
        self._save()
        self._publish()

    def remove(self, which) -> None:
        f = self._find(which)
        self._items = [g for g in self._items if g.id != f.id]
        self._save()
        self._publish()

    def next_after(self, offset: int, forward: bool = True) -> F.Finding | None:
        """The first finding starting after ``offset`` (before it, going back)."""
        if forward:
            return next((f for f in self._items if f.start > offset), None)
        return next((f for f in reversed(self._items) if f.start < offset), None)

    # ------------------------------------------------------------------ storage
    def _save(self) -> None:
        """Write the list under the whole hash if known, else under the quick identity;
        bytes without a path keep their findings in memory (``unsaved`` counts them)."""
        path = self.document.path
        try:
            if self.identity is not None:
                self.store.save(self.identity, self._items,
                                os.fsdecode(path) if path is not None else None)
            elif self.document.path is not None and (self.quick is not None or self._items):
                if self.quick is None:
                    self.quick = self._current_quick()
                if self.quick is None:
                    raise OSError("the file cannot be read for its fingerprint")
                self.store.save_pending(self.quick, self._items)
            else:
                self.saved = not self._items
                return
        except OSError as e:
            self.saved = False
            self._storage_trouble(
                f"The findings cannot be saved in {display_path(self.folder)} ({e.strerror or e}); "
                "they are kept in memory while the file is open: export them to keep them.",
                title="Findings not saved")
            return
        self.saved = True
        if self.problem.startswith("The findings cannot be saved"):
            self.problem = ""

    def _storage_trouble(self, text: str, title: str = "Findings") -> None:
        first = text != self.problem
        self.problem = text
        self.message.emit(text.split(";")[0])
        if first:
            self.show_error(title, text)

    def report_entries(self) -> list[dict]:
        """The findings as the JSON and HTML reports list them (with their bytes)."""
        return F.report_entries(self._items, self.document.source)

    # ------------------------------------------------------------------ export, import
    def export_to(self, path: str) -> int:
        """Write the findings (with their bytes) as JSON; returns how many."""
        doc = self.document
        shown = display_path(doc.path) if doc.path is not None else None
        F.export_findings(os.fspath(path), self.identity, self._items, doc.source, shown)
        return len(self._items)

    def import_from(self, path: str) -> int:
        """Add the findings of an export of these same bytes; returns how many are new.
        Raises FindingsError (other bytes, not a findings file) or OSError."""
        if self.identity is None:
            raise F.FindingsError("the file's fingerprint is not ready yet: import when "
                                  "the scan has finished")
        found = F.import_findings(os.fspath(path), self.identity)
        known = {f.id for f in self._items}
        self._items = F.merge(self._items, found)
        self._save()
        self._publish()
        return sum(1 for f in found if f.id not in known)


# ---------------------------------------------------------------------- the window's part

def marked_range(document, offset: int | None = None) -> tuple[int, int] | None:
    """What "Add finding" marks: the selection (when ``offset`` is None or inside it),
    else the unit at ``offset`` (or at the cursor)."""
    d = document
    if not d.size:
        return None
    start, end = d.selection
    if d.has_selection and (offset is None or start <= offset < end):
        return start, end
    unit = d.unit_at(d.cursor if offset is None else offset)
    if unit is None:
        return None
    return unit.offset, unit.end


def _start_folder() -> str:
    from inspector.gui.dialogs.export import default_directory

    return default_directory()


class FindingActions(QObject):
    """What the user does with the findings from the window: mark (Ctrl+D, a pane's
    context menu), edit a note, step through them (F2), export and import, and the
    question before findings would be lost. Messages go out through the findings'
    ``message``, errors through their ``show_error``; ``parent`` (the window) is the
    dialogs' parent."""

    def __init__(self, findings: WindowFindings, parent):
        super().__init__(parent)
        self.findings = findings
        self.document = findings.document
        self.note_dialog = None   # made when first asked for

    def _say(self, text: str) -> None:
        self.findings.message.emit(text)

    # ------------------------------------------------------------------ marking
    def add(self) -> None:
        """Ctrl+D: mark the selection (or the unit at the cursor), asking for a note."""
        self.add_at(None)

    def add_at(self, offset) -> None:
        marked = marked_range(self.document, offset)
        if marked is not None:
            self.ask_note(*marked)

    def edit(self, finding) -> None:
        self.ask_note(finding.start, finding.end, finding)

    def ask_note(self, start: int, end: int, finding=None) -> None:
        """Open the note dialog for bytes [start, end) (a new finding, or ``finding``'s)."""
        from inspector.gui.dialogs.findingnote import FindingNoteDialog

        dialog = self.note_dialog
        if dialog is None:
            dialog = self.note_dialog = FindingNoteDialog(self.parent())
            dialog.noteChosen.connect(self._note_chosen)
        data = self.document.read(start, min(end - start, 64))
        dialog.prepare(start, end, data, finding.note if finding is not None else "", finding)
        dialog.open()

    def _note_chosen(self, start, end, note: str, finding) -> None:
        findings = self.findings
        try:
            if finding is not None:
                findings.set_note(finding, note)
                self._say(f"note of the finding at 0x{start:X} changed")
            else:
                findings.add(start, end, note)
                self._say(f"finding added: {byte_range(start, end)}")
        except (F.FindingsError, KeyError) as e:
            self._say(f"no finding added: {e}")

    # ------------------------------------------------------------------ moving
    def go_to_next(self, forward: bool = True) -> None:
        """F2 / Shift+F2: select the next (previous) finding after (before) the cursor."""
        d = self.document
        f = self.findings.next_after(d.cursor, forward)
        if f is None:
            self._say("no further finding" if forward else "no earlier finding")
            return
        d.set_selection(f.start, f.end, reveal=True)
        self._say(f"finding at 0x{f.start:X}: {f.note or '(no note)'}"[:200])

    # ------------------------------------------------------------------ losing them
    def may_drop(self, doing: str, then) -> bool:
        """Whether ``doing`` ("Closing the window", "Opening another file"…) may go on
        now: True when no finding would be lost. Else the user is asked (a
        window-modal box, not a nested event loop: nothing else waits on it) and False
        is returned; the default answer (Cancel, also Escape) keeps the findings and
        does nothing. "Export…" writes them and, if that worked, calls ``then()``;
        "Discard" lets them go and calls ``then()``."""
        from PySide6.QtWidgets import QMessageBox

        findings = self.findings
        n = findings.unsaved
        if not n:
            return True
        box = QMessageBox(self.parent())
        box.setObjectName("unsavedFindingsBox")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Findings not saved")
        box.setText(f"{n} finding(s) on this file are not saved: {doing.lower()} would lose them.")
        box.setInformativeText(findings.problem or
                               "These bytes have no file to keep findings under.")
        export = box.addButton("Export…", QMessageBox.ButtonRole.AcceptRole)
        export.setObjectName("exportFindings")
        discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
        discard.setObjectName("discardFindings")
        keep = box.addButton(QMessageBox.StandardButton.Cancel)
        keep.setObjectName("keepFindings")
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)

        def answered(_result) -> None:
            clicked = box.clickedButton()
            box.deleteLater()
            if clicked is discard or (clicked is export and self.export()):
                findings.let_go()
                then()

        box.finished.connect(answered)
        box.open()
        return False

    # ------------------------------------------------------------------ files
    def export(self, path: str | None = None) -> bool:
        """Write the findings as JSON (asks for a path unless given; never the evidence)."""
        from PySide6.QtWidgets import QFileDialog

        from inspector.core.source.safewrite import check_target

        w = self.findings
        if not w.items():
            self._say("no findings to export")
            return False
        source = self.document.source
        if path is None:
            name = os.path.splitext(os.path.basename(source.name or "file"))[0]
            path, _ = QFileDialog.getSaveFileName(
                self.parent(), "Export findings",
                os.path.join(_start_folder(), f"{name}-findings.json"), "JSON files (*.json)")
            if not path:
                return False
        try:
            target = check_target(path, source)
            n = w.export_to(target)
        except (ValueError, OSError) as e:
            w.show_error("Export findings", f"The findings were not exported: {e}")
            return False
        self._say(f"{n} finding(s) exported to {display_path(target)}")
        return True

    def import_file(self, path: str | None = None) -> bool:
        """Add the findings of a JSON export of these same bytes."""
        from PySide6.QtWidgets import QFileDialog

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.parent(), "Import findings",
                                                  _start_folder(),
                                                  "JSON files (*.json);;All files (*)")
            if not path:
                return False
        try:
            n = self.findings.import_from(path)
        except (F.FindingsError, OSError) as e:
            self.findings.show_error("Import findings", f"The findings were not imported: {e}")
            return False
        self._say(f"{n} new finding(s) imported from {display_path(path)}")
        return True
