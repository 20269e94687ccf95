"""Clean UTF-8 (no errors, no controls, no double-encoding pairs) is mapped without
cutting it into cells; the map must be the one the cells give."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings.mapbuilder import encoding_map
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource

# Text pieces that reach every branch near the shortcut: ASCII, Latin, Cyrillic, CJK,
# emoji, a BOM, the double-encoding pairs (Ã© ÐŸ...), controls, NULs, errors.
PIECES = ["plain words ", "\n", "\t", "café ", "Привет ", "日本語 ", "😀", "\ufeff",
          "Ã©", "Ã\u00a9", "Съешь ", "Рад ", "Ру", "СССР", "x" * 300, "é" * 500, "x" * 1023, "Ã¨Ã", "Ð\u00a0Ð", "Ð¡Ñ", "Ã‰", "\u200b", "\x00", "\x07", "\x7f"]
RAW = [b"\xff", b"\xc3", b"\x80", b"\xe2\x82"]


def maps(data: bytes):
    src = MemorySource(data)
    result = scan(src)
    quick = encoding_map(src, result)
    cells = encoding_map(src, result, clean_shortcut=False)
    return [r.to_dict() for r in quick], [r.to_dict() for r in cells], quick, cells


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES).map(str.encode), st.sampled_from(RAW)),
                max_size=60))
def test_shortcut_map_equals_the_cells_map(parts):
    quick_regions, cell_regions, quick, cells = maps(b"".join(parts))
    assert quick_regions == cell_regions
    assert (quick.shaped, quick.legacy) == (cells.shaped, cells.legacy)


def test_shortcut_cases():
    for text in ["hello\n", "café\n" * 100, "\ufeffBOM then text", "日本語" * 1000]:
        quick_regions, cell_regions, _, _ = maps(text.encode())
        assert quick_regions == cell_regions and len(quick_regions) == 1
    # A double-encoded paragraph still goes to the cells (and ftfy).
    moji = ("Ce texte est déjà là, garçon, à côté de l'été.\n" * 20).encode().decode("cp1252").encode()
    quick_regions, cell_regions, _, _ = maps(moji)
    assert quick_regions == cell_regions and quick_regions[0]["encoding"] == "mojibake"


CLEAN = [p for p in PIECES if p not in ("\x00", "\x07", "\x7f")]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.sampled_from(CLEAN).map(str.encode), max_size=80))
def test_shortcut_map_equals_the_cells_map_on_clean_text(parts):
    """Only clean pieces: most examples take the shortcut or its line-by-line check."""
    quick_regions, cell_regions, quick, cells = maps(b"".join(parts))
    assert quick_regions == cell_regions
