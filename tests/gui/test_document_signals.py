"""One user action, one notification per concern, and none when nothing changed."""

from __future__ import annotations

import pytest

from inspector.core.scan import scanner

SIGNALS = ("sourceChanged", "cursorChanged", "jumpedTo", "selectionChanged", "originChanged",
           "dialectChanged", "anchorChanged", "scanChanged", "findingsChanged",
           "matchesChanged")


@pytest.fixture
def heard(document_of):
    doc = document_of(b"abc \xff caf\xc3\xa9 " * 50, name="signals")
    log: list[str] = []
    for name in SIGNALS:
        getattr(doc, name).connect(lambda *_a, n=name: log.append(n))
    return doc, log


def test_opening_a_file_is_one_signal(heard, write_file):
    doc, log = heard
    doc.set_cursor(10)
    doc.set_origin(3)
    doc.set_scan(scanner.scan(doc.source))
    log.clear()
    doc.open_path(write_file(b"new bytes"))
    assert log == ["sourceChanged"]
    # ... and what came with it starts afresh.
    assert (doc.cursor, doc.selection, doc.origin, doc.anchor, doc.scan) == (0, (0, 0), None, 0, None)


def test_a_dialect_change_is_one_signal(heard):
    doc, log = heard
    doc.set_dialect("cesu-8")
    doc.set_dialect("cesu-8")
    assert log == ["dialectChanged"]


def test_a_shift_move_is_one_signal_per_concern(heard):
    doc, log = heard
    doc.set_cursor(5, extend=True)
    assert sorted(log) == ["cursorChanged", "selectionChanged"]
    log.clear()
    doc.set_cursor(5, extend=True)
    assert log == []


def test_nothing_changed_says_nothing(heard):
    doc, log = heard
    result = scanner.scan(doc.source)
    doc.set_scan(result)
    doc.set_scan(result)
    doc.set_matches([(1, 3)])
    doc.set_matches([(1, 3)])
    doc.set_origin(None)
    doc.set_anchor(0)
    assert log == ["scanChanged", "matchesChanged"]


def test_the_verdict_coming_later_for_the_same_result_is_news(heard):
    from inspector.core.analysis.verdict import verdict

    doc, log = heard
    result = scanner.scan(doc.source)
    doc.set_scan(result)
    judged = verdict(result, doc.source)
    doc.set_scan(result, judged)
    assert log == ["scanChanged", "scanChanged"] and doc.verdict is judged
