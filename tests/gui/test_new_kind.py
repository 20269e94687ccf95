"""A kind added to the kinds table and nowhere else is shown by the legend, the problem
list, the HTML report and the hex view's tooltip: they all read the table, so a new kind
needs no edit of theirs. (What it does need, four core files at most, is listed and
proved by ``tests/core/units/test_adding_a_kind.py``.)"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from inspector.core.analysis.htmlreport import render_html
from inspector.core.analysis.scanviews import problemrows
from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit
from inspector.core.units.unitinfo import describe, explain, short_explanation
from inspector.gui.dialogs.legend import LegendDialog
from inspector.gui.docks import problemlist
from inspector.gui.look import style
from inspector.gui.panes.hexinput import describe_unit
from inspector.gui.panes.hexview import HexView

INVENTED = K.KindInfo(
    name="invented", family=K.FAMILY_ERROR, code=len(K.ALL_KINDS),
    title="invented problem", summary="a kind the tests add at run time",
    explanation="a kind that lives in the table only, to show that every view takes it",
    mark="Z", role="invented", light_colour="#123456", sample=b"\xc0\xaf", has_value=False)


def _names(collection) -> set:
    return {getattr(item, "name", item) for item in collection}


@pytest.fixture
def invented(monkeypatch):
    """The kinds module with one more error kind, as an entry in its table would give."""
    listing = [name for name, value in vars(K).items()
               if isinstance(value, (tuple, dict, frozenset)) and K.OVERLONG in _names(value)]
    monkeypatch.setattr(K, "TABLE", K.TABLE + (INVENTED,))
    monkeypatch.setattr(K, "KINDS", {**K.KINDS, INVENTED.name: INVENTED})
    monkeypatch.setattr(K, "ERROR_KINDS", K.ERROR_KINDS + (INVENTED.name,))
    monkeypatch.setattr(K, "ALL_KINDS", K.ALL_KINDS + (INVENTED.name,))
    # Its sample is UTF-8: a kind of the UTF-8 dialects.
    monkeypatch.setattr(K, "UTF8_ERROR_KINDS", K.UTF8_ERROR_KINDS + (INVENTED.name,))
    # Every collection of the module that names the error kinds now names this one too:
    # nothing derived from the table was left out above.
    assert all(INVENTED.name in _names(getattr(K, name)) for name in listing), listing
    return Unit(0, 2, INVENTED.name, None, 2)


def test_the_legend_lists_it_with_its_mark(invented, qtbot):
    dialog = LegendDialog()
    qtbot.addWidget(dialog)
    words = [label.text() for label in dialog.findChildren(QLabel)]
    assert "invented problem   (mark Z)" in words
    assert style.mark_of(INVENTED.name) == "Z"
    # A palette without the role draws it in the text colour.
    pal = style.Palette("light")
    assert pal.color(INVENTED.name) == pal.color("text")


def test_the_problem_list_offers_and_explains_it(widget_on, invented):
    assert INVENTED.name in problemrows.kinds_for(problemrows.SHOW_ERRORS, None)
    doc, dock = widget_on(problemlist.ProblemListDock, b"\xc0\xaf", show=False, name="invented")
    dock.set_filter(problemrows.SHOW_ERRORS)
    combo = [dock.kind_combo.itemText(i) for i in range(dock.kind_combo.count())]
    assert "invented: invented problem" in combo
    line = short_explanation(invented, b"\xc0\xaf")
    assert line == "invented problem: a kind the tests add at run time"
    assert problemrows.kind_text(invented) == "invented"
    assert style.mark_for(invented) == "Z"


def test_the_html_report_explains_and_colours_it(invented):
    report = {"path": "x", "errors": {"total": 3, "by_kind": {"invented": 3}},
              "first_errors": [{"offset": 0, "length": 2, "kind": "invented", "bytes": "c0 af",
                                "replacements": 2}]}
    overview = [{"start": 0, "end": 2, "errors_by_kind": {"invented": 3}, "warnings": 0,
                 "multibyte": 0, "binary": 0}]
    html = render_html(report, overview=overview)
    assert html.count(INVENTED.explanation) == 2  # the errors table and the first problems
    assert html.count("#123456") >= 3  # its swatch, the overview's bars and legend


def test_the_hex_views_tooltip_describes_it(widget_on, invented, monkeypatch):
    doc, view = widget_on(HexView, b"\xc0\xaf", show=False, name="invented")
    monkeypatch.setattr(doc, "unit_at", lambda offset: invented)
    tip = view.tooltip_for(0)
    assert "invented problem: a kind the tests add at run time" in tip
    assert "C0 AF" in tip
    assert "problem: invented problem: a kind the tests add at run time" in describe_unit(
        invented, b"\xc0\xaf")
    info = describe(invented, b"\xc0\xaf")
    assert info.kind_title == "invented problem"
    assert "A kind that lives in the table only, to show that every view takes it." in info.details
    assert explain(invented, b"\xc0\xaf") == "invented problem: a kind the tests add at run time"
