"""Which charsets chardet is asked about (chardetfilter): the tell-tales that set a
charset aside, and that what is set aside never changes chardet's answer."""

import chardet
from chardet import EncodingEra
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings import chardetfilter as F
from inspector.core.analysis.encodings.legacyguess import _NOT_ASKED, CHARDET_LIMIT


def never(data: bytes) -> tuple:
    return F.not_asked(data)[0]


def test_a_capital_between_small_letters_sets_the_charset_aside():
    mac = b'"Product"="Daniel Blanchard\xd5s Trackpad #1"'  # Mac Roman: D5 is ’
    assert {"iso8859-1", "iso8859-15"} <= set(never(mac))  # BlanchardÕs
    assert "mac-roman" not in never(mac)


def test_quotes_and_dashes_belong_in_words():
    text = "The state—of the art—is ‘good’ and l’été\n".encode("cp1252")
    assert "cp1250" not in never(text)  # (reads them alike)
    assert "iso8859-1" in never(text)  # (reads 80-9F as controls)


def test_cyrillic_glued_to_latin_letters_is_set_aside():
    french = ("Voilà déjà l’été, ça coûte très cher, façade élégante\n" * 3).encode("cp1252")
    assert {"iso8859-5", "koi8-r", "cp1251"} <= set(never(french))


def test_seven_bit_and_unicode_encodings_are_set_aside_only_for_high_bytes():
    assert "utf-16-le" in never("déjà vu".encode("cp1252"))
    assert "utf-8" in never("déjà vu".encode("cp1252"))
    assert "utf-8" not in never("déjà vu".encode("utf-8") + b"\xe9")  # (a cut character: chardet's decode)
    assert "utf-16-le" not in never(b"d\x00\xe9\x00j\x00")  # NULs: chardet may say UTF-16


PIECES = [b"abc ", b"Mot ", b"\xe9", b"\xe0", b"\xd5", b"\x97", b"\xe8\xea", b"\xc0\xc1\xc2 ",
          b"\xd0\xbe", b".\n", b"x\x92s ", b"\xa4 ", b"\xb0"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=4, max_size=60))
def test_what_is_never_asked_never_changes_the_answer(parts):
    """chardet about all but _NOT_ASKED, against chardet without the charsets the filter
    says it would set aside or whose reading is never taken: the same answer, unless
    that answer was one of those (then guess_legacy would take the next)."""
    data = b"".join(parts)
    kwargs = dict(encoding_era=EncodingEra.ALL, compat_names=False, max_bytes=CHARDET_LIMIT)
    full = chardet.detect(data, exclude_encodings=_NOT_ASKED, **kwargs)
    left_out = never(data)
    if full["encoding"] in left_out or full["encoding"] is None:
        return
    kept = chardet.detect(data, exclude_encodings=_NOT_ASKED + left_out, **kwargs)
    assert (kept["encoding"], kept["language"]) == (full["encoding"], full["language"])
