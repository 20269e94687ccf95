"""normalizer_guess asks charset-normalizer to look for a declared encoding only when the
sample's ASCII holds "coding" or "charset": the answer must be the one it gives when
always asked (its search runs over the ASCII of the sample, case folded)."""

from charset_normalizer import from_bytes
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings import charsets as CS

PIECES = [b"# -*- coding: koi8-r -*-\n", b"<meta charset=\"windows-1251\">", b"ENCODING=cp1253 ",
          b"cod\xe9ing: latin-1 ", b"CharSet = 'iso-8859-7'", b"plain words ", b"\n",
          "Привет, как дела? ".encode("koi8-r"), "Γειά σου κόσμε ".encode("cp1253"),
          "caf\u00e9 d\u00e9j\u00e0 ".encode("latin-1"), b"\x93quoted\x94 ", b"\xff\xfe"]


def best(results):
    results = list(results)
    return [(r.encoding, r.chaos, r.coherence) for r in results]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40))
def test_declared_encoding_search_is_skipped_only_when_it_finds_nothing(parts):
    data = CS.head_lines(b"".join(parts), CS.GUESS_LIMIT)
    words = data.translate(None, bytes(range(0x80, 0x100))).lower()
    if b"coding" in words or b"charset" in words:
        return  # asked: nothing to compare
    assert best(from_bytes(data)) == best(from_bytes(data, preemptive_behaviour=False))


def test_a_declaration_is_still_read():
    text = "Привет мир, как дела? " * 30
    declared = ("# -*- coding: koi8-r -*-\n" + text).encode("koi8-r")
    assert CS.normalizer_guess(declared).encoding == "koi8-r"
    # A high byte inside the word is dropped by charset-normalizer's ASCII decode, and
    # by the check before it.
    hidden = b"# cod\xe9ing: koi8-r\n" + text.encode("koi8-r")
    assert CS.normalizer_guess(hidden).encoding == "koi8-r"
