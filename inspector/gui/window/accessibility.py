"""What a screen reader announces for the parts of the window. The panes paint
themselves, so without these names they are anonymous rectangles."""

from __future__ import annotations

# (the part, by its path from the window, its accessible name, its description)
DESCRIPTIONS = (
    ("hex_view", "Hex view",
     "The bytes of the file in rows, each unit boxed; problems carry a mark letter. Arrows "
     "move by unit, Alt+arrows by byte, Shift selects, Tab goes to the text pane."),
    ("text_view", "Decoded text",
     "The file as a UTF-8 decoder reads it; each problem is shown as flagged replacement "
     "characters. In step with the hex view."),
    ("overview", "Overview of the whole file",
     "Where the problems, the multibyte text and the binary-looking data are; click to go "
     "there."),
    ("find_bar", "Find bar",
     "Find hex bytes, text or code points; F3 next, Shift+F3 previous, Escape closes."),
    ("lazy_docks.sequenceInspector.current", "Sequence inspector",
     "Everything the decoder knows about the unit at the cursor."),
    ("lazy_docks.statistics.current", "Statistics",
     "The verdict and the counts of units, errors and warnings of the whole file."),
    ("lazy_docks.errorList.current", "Problem list",
     "Every problem unit of the file; Enter goes to the selected one."),
    ("file_watch.banner", "File changed on disk",
     "The inspected file changed since it was opened; Reload or Dismiss."),
    ("status_fields.cursor", "Cursor offset", "The cursor's offset in hex and decimal."),
    ("status_fields.selection", "Selection length", "How many bytes are selected."),
    ("status_fields.unit", "Unit at the cursor",
     "The code point and name, or the problem, at the cursor."),
    ("status_fields.note", "Message", "The last message: searches, copies, the file's state."),
    ("status_fields.resync", "Resynchronization", "How many bytes decoding from the origin loses."),
    ("status_fields.dialect", "Dialect", "How the bytes are interpreted."),
    ("status_fields.size", "File size", "The size of the file in bytes."),
    ("status_fields.verdict", "Verdict", "The whole-file verdict of the scan."),
    ("status_fields.read_only", "Read-only", "The file is never written to."),
    ("status_fields.progress", "Scan progress", "How much of the file has been scanned."),
    ("status_fields.cancel_button", "Cancel the scan", "Stop the background scan."),
)


# Parts the window builds when first asked for: described then (describe_part).
BUILT_LATER = ("find_bar",)


def describe_part(window, path: str) -> None:
    """Give the part of ``window`` at ``path`` (a path of DESCRIPTIONS) its name and
    description."""
    for where, name, description in DESCRIPTIONS:
        if where == path:
            widget = window
            for part in path.split("."):  # a dock built when first shown: its shell, for now
                widget = widget[part] if isinstance(widget, dict) else getattr(widget, part)
            widget.setAccessibleName(name)
            widget.setAccessibleDescription(description)


def describe_for_accessibility(window) -> None:
    """Give each part of ``window`` listed in DESCRIPTIONS its name and description
    (those in BUILT_LATER when they are built)."""
    for path, _name, _description in DESCRIPTIONS:
        if path not in BUILT_LATER:
            describe_part(window, path)
