"""The guard in front of ftfy never hides mojibake ftfy would find."""

import ftfy
from hypothesis import given, settings, strategies as st

from inspector.core.analysis.encodings.mojibake import CHARSETS, could_be_mojibake

WORDS = ["café", "naïve", "Привет", "καλημέρα", "日本語", "żółć", "€100", "“quoted”", "ß", "ñandú",
         "Ärger", "hello", "a\u00a0b", "😀", "Ω", "ø"]


def ftfy_fixes_utf8(text: str) -> bool:
    fixed, steps = ftfy.fix_and_explain(text)
    return fixed != text and any(op == "decode" and "utf-8" in arg for op, arg in steps)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), st.sampled_from(CHARSETS + ("none",)))
def test_guard_is_necessary(words, enc):
    text = " ".join(words)
    if enc != "none":
        text = text.encode("utf-8").decode(enc, "ignore")
    if ftfy_fixes_utf8(text):
        assert could_be_mojibake(text)


def test_plain_text_in_many_scripts_skips_ftfy():
    for w in ["Привет, как дела?", "καλημέρα κόσμε", "日本語のテキスト", "hello world", "café crème"]:
        assert not could_be_mojibake(w), w
    assert could_be_mojibake("cafÃ© crÃ¨me")
