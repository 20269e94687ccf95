"""Characters newer than the interpreter's Unicode database (14 on Python 3.11): the text
pane, the inspector and the explanations answer about them as ``unicode_db`` does, never
as the standard library's ``unicodedata`` would (it calls them unassigned)."""

from __future__ import annotations

import unicodedata

import pytest
from PySide6.QtCore import Qt

from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder, kinds as K, unicode_db
from inspector.gui.docks.inspectordock import SequenceInspector, explanation_for
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textlayout import SourceModel, TextLayout
from inspector.gui.panes.textview import TextView

SHAKING_FACE = 0x1FAE8   # Unicode 15, So, wide
SAKTA = 0x10EFD          # ARABIC SMALL LOW WORD SAKTA, Unicode 15, a combining mark
KAWI_A = 0x11F04         # KAWI LETTER A, Unicode 15, a letter
TRIGRAM = 0x2630         # TRIGRAM FOR HEAVEN: narrow in Unicode 14, wide since 16

pytestmark = pytest.mark.skipif(
    tuple(int(p) for p in unicode_db.UNICODE_VERSION.split(".")) < (16,),
    reason="the program's Unicode database is not newer than 16 (no unicodedata2)")


def test_the_standard_library_would_answer_otherwise():
    """What makes the tests below worth having on this interpreter."""
    if unicodedata.unidata_version >= "15":
        pytest.skip("the interpreter's own database already knows these characters")
    for cp in (SHAKING_FACE, SAKTA, KAWI_A):
        assert unicodedata.category(chr(cp)) == "Cn" and not chr(cp).isprintable()
    assert unicodedata.east_asian_width(chr(TRIGRAM)) == "N"
    assert unicode_db.category(SHAKING_FACE) == "So" and not unicode_db.is_unassigned(SHAKING_FACE)


def cells_of(text: str) -> list[TL.Cell]:
    layout = TextLayout(SourceModel(MemorySource(text.encode())), wrap_width=80)
    return layout.line_at(0).cells


def test_the_text_layout_draws_them_as_characters_of_their_width():
    face, mark, trigram = (cells_of(f"a{chr(cp)}b")[1] for cp in (SHAKING_FACE, SAKTA, TRIGRAM))
    assert (face.text, face.mode, face.width) == (chr(SHAKING_FACE), TL.TEXT, 2)
    assert not face.unit.warnings  # not unassigned
    # A combining mark on a dotted circle: the circle's column, the mark's none.
    assert (mark.text, mark.mode, mark.width) == ("\u25CC" + chr(SAKTA), TL.TEXT, 1)
    assert (trigram.text, trigram.mode, trigram.width) == (chr(TRIGRAM), TL.TEXT, 2)
    assert TL.column_width(chr(SAKTA)) == 0 and TL.column_width(chr(TRIGRAM)) == 2
    assert style.glyph_for(face.unit) == (chr(SHAKING_FACE), style.GLYPH)


def test_the_text_pane_shows_the_character_not_a_code_point_box(widget_on):
    doc, view = widget_on(TextView, f"a{chr(SHAKING_FACE)}b".encode(), 400, 200)
    cell = view.text_layout.line_at(0).cells[1]
    # The font decides between the glyph and a "U+1FAE8" box; never "unassigned".
    if view.text_layout.metrics.can_draw(SHAKING_FACE):
        assert (cell.text, cell.mode) == (chr(SHAKING_FACE), TL.TEXT)
    else:
        assert (cell.text, cell.mode) == ("U+1FAE8", TL.BOX)
    assert not cell.unit.warnings


def test_double_click_selects_a_word_with_a_newer_letter(widget_on, qtbot):
    data = f"x {'ab' + chr(KAWI_A) + 'cd'} y".encode()
    doc, view = widget_on(TextView, data, 400, 200)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton,
                      pos=view.point_for_offset(2).toPoint())
    assert doc.selection == (2, len(data) - 2)


def test_the_inspector_names_the_character_without_a_warning(widget_on):
    doc, dock = widget_on(SequenceInspector, f"a{chr(SHAKING_FACE)}b".encode())
    doc.set_cursor(1)
    assert dock.unit.kind == K.VALID and dock.unit.value == SHAKING_FACE
    facts = dict(dock.facts)
    assert facts["Name"] == "SHAKING FACE" and facts["Category"] == "So"
    assert "Warnings" not in facts
    assert "SHAKING FACE" in dock.heading.text() and chr(SHAKING_FACE) in dock.heading.text()


def test_an_explanation_quotes_the_character_as_printable():
    # U+1FAE8 in five bytes (overlong even by 1993 rules): the explanation shows the
    # character itself, as it does any printable one.
    v = SHAKING_FACE
    raw = bytes([0xF8 | (v >> 24), 0x80 | (v >> 18) & 0x3F, 0x80 | (v >> 12) & 0x3F,
                 0x80 | (v >> 6) & 0x3F, 0x80 | v & 0x3F])
    unit = decoder.cut(raw, dialect=K.FSS_UTF)[0]
    assert unit.kind == K.OVERLONG and unit.value == v
    assert f"\"{chr(v)}\" U+1FAE8" in explanation_for(unit, raw, K.FSS_UTF)
