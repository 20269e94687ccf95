"""A page in the middle of a long double-byte run without one ASCII byte, in the window
(real keys: Go to offset): before the scan has read the file, the page is read afresh
at the 16 KiB mark and the status bar says it may be misaligned; once the scan's sync
points arrive, the panes cut it again, exactly as Python decodes the whole file."""

from __future__ import annotations

import pytest

from tests.gui.window.test_window_lines import _goto

MARK = 3 * (16 << 10)      # a multiple of 16 KiB in the middle of the 100 KiB run


def go_to(window, qtbot, text: str) -> None:
    dialog = _goto(window, qtbot, text)   # Ctrl+G, the offset typed, Return
    qtbot.waitUntil(lambda: not dialog.isVisible())


def text_pane_units(window):
    """(offset, length, value) of every unit the text pane shows, and its text."""
    view = window.text_view
    view.repaint()
    cells = [c for line in view.visible_lines() for c in line.cells]
    return [(c.unit.offset, c.unit.length, c.unit.value) for c in cells], \
        "".join(c.text for c in cells)


def reference(data, text, offsets, start, end):
    ends = offsets[1:] + [len(data)]
    return [(o, e - o, ord(ch)) for o, e, ch in zip(offsets, ends, text)
            if e > start and o < end and ch != "\ufffd"]


@pytest.mark.parametrize("codec", ["gbk", "big5", "shift_jis"])
def test_a_page_mid_run_is_misaligned_until_the_scan_then_exact(window, opened, qtbot,
                                                                double_byte_run, codec):
    data, text, offsets = double_byte_run(codec)
    window.scan_life.auto_start = False          # the scan starts when the test says
    w = opened(data, f"run-{codec}.txt")
    d = w.document
    with qtbot.waitSignal(d.dialectChanged, timeout=5000):
        d.set_encoding(codec)
    go_to(w, qtbot, f"0x{MARK:X}")
    assert d.cursor == MARK
    shown, _ = text_pane_units(w)
    assert shown and all(o >= MARK - (16 << 10) for o, _, _ in shown)
    want = reference(data, text, offsets, shown[0][0], shown[-1][0] + shown[-1][1])
    # Read afresh at the mark: a byte off (every unit really starts at an odd offset).
    assert shown != want
    assert w.status_fields.alignment.isVisibleTo(w)
    assert not d.page_exact(MARK, MARK + 4096)

    with qtbot.waitSignal(d.cutChanged, timeout=20000):
        w.scan_life.start()
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20000)
    shown, shown_text = text_pane_units(w)
    start, end = shown[0][0], shown[-1][0] + shown[-1][1]
    assert shown == reference(data, text, offsets, start, end)
    assert shown_text == data[start:end].decode(codec)
    unit = d.unit_at(MARK)
    assert (unit.offset, unit.length) == (MARK - 1, 2)
    assert unit.value == ord(data[MARK - 1:MARK + 1].decode(codec))
    # The status bar and the sequence inspector show the unit as now cut.
    assert f"U+{unit.value:04X}" in w.status_fields.unit.text()
    assert w.inspector_dock.unit is not None and w.inspector_dock.unit.offset == MARK - 1
    hex_range = w.hex_view.visible_range()
    page = d.page_cut(*hex_range)
    assert [(int(o), int(n), int(v)) for o, n, v in zip(page.offset, page.length, page.value)] \
        == reference(data, text, offsets, *hex_range)
    assert not w.status_fields.alignment.isVisibleTo(w)
    assert w.scan_life.complete and d.scan.error_units == (1 if codec != "shift_jis" else 0)


def test_the_document_cuts_again_only_when_the_points_reach_its_pages(document_of, qtbot,
                                                                      double_byte_run):
    """cutChanged while a page the views hold is cut otherwise; not for points far from
    every cached page (the scan's progress, every tenth of a second, costs no relayout)."""
    from inspector.core.scan.scanner import scan_steps

    data, text, offsets = double_byte_run("gbk")
    d = document_of(data)
    d.set_encoding("gbk")
    d.units(MARK, MARK + 64)
    assert not d.page_exact(MARK, MARK + 64)
    snapshots = [p.snapshot().result for p in scan_steps(d.source, "gbk", chunk_size=8192)]
    counts = [s.sync_points.count for s in snapshots]
    fired = []
    d.cutChanged.connect(lambda: fired.append(d.scan.sync_points.count))
    for s in snapshots:
        d.set_scan(s)
    # Fired once: when the points first reached the cells the page's cut looks at.
    assert len(fired) == 1 and 1 <= fired[0] <= MARK // (16 << 10) + 2 < counts[-1]
    got = [(u.offset, u.length, u.value) for u in d.units(MARK, MARK + 64)]
    assert got == reference(data, text, offsets, MARK, MARK + 64)
    assert d.page_exact(MARK, MARK + 64)
