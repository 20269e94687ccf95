"""Write ``inspector/core/units/scriptdata.py``: the Unicode Script property of every code
point, as a compact table of ranges, from the ``regex`` module's Unicode data.

Run by hand when the Unicode version moves (``pip install regex`` first):

    python3 tests/tools/make_script_table.py

Why a generated table and not ``regex`` at run time: building the 0x110000 table with
``regex`` takes about 0.65 s per process (a search per script over every code point) and
makes ``regex`` a dependency; the generated ranges (about 1,700) load and expand in about
a millisecond, with nothing to install. ``unicodedata2`` has no Script property.
"""

from __future__ import annotations

import base64
import sys
import zlib
from pathlib import Path

import numpy as np
import regex
import regex._regex as regex_data
import unicodedata2

OUT = Path(__file__).resolve().parents[2] / "inspector" / "core" / "units" / "scriptdata.py"

# Long names whose words the characters' names do not spell (Scripts.txt's names).
SPELLED = {
    "CANADIANABORIGINAL": "Canadian_Aboriginal", "NKO": "Nko", "PHAGSPA": "Phags_Pa",
    "SIGNWRITING": "SignWriting", "NEWTAILUE": "New_Tai_Lue", "TAITHAM": "Tai_Tham",
    "KATAKANAORHIRAGANA": "Katakana_Or_Hiragana", "SORASOMPENG": "Sora_Sompeng",
    "NYIAKENGPUACHUEHMONG": "Nyiakeng_Puachue_Hmong", "PAHAWHHMONG": "Pahawh_Hmong",
    "MIAO": "Miao", "HANIFIROHINGYA": "Hanifi_Rohingya", "MENDEKIKAKUI": "Mende_Kikakui",
    "COPTIC": "Coptic", "INHERITED": "Inherited", "COMMON": "Common", "UNKNOWN": "Unknown",
    "HAN": "Han", "BRAILLE": "Braille", "KHITANSMALLSCRIPT": "Khitan_Small_Script",
    "CYPROMINOAN": "Cypro_Minoan", "TULUTIGALARI": "Tulu_Tigalari",
    "OLCHIKI": "Ol_Chiki", "MEETEIMAYEK": "Meetei_Mayek", "KAYAHLI": "Kayah_Li",
    "OLONAL": "Ol_Onal", "BERIAERFE": "Beria_Erfe", "TOLONGSIKI": "Tolong_Siki",
    "TAIYO": "Tai_Yo", "TAILE": "Tai_Le", "TAIVIET": "Tai_Viet", "LINEARA": "Linear_A",
    "LINEARB": "Linear_B", "NAGMUNDARI": "Nag_Mundari", "GURUNGKHEMA": "Gurung_Khema",
    "KIRATRAI": "Kirat_Rai", "DIVESAKURU": "Dives_Akuru", "ZANABAZARSQUARE": "Zanabazar_Square",
    "MASARAMGONDI": "Masaram_Gondi", "GUNJALAGONDI": "Gunjala_Gondi", "PAUCINHAU": "Pau_Cin_Hau",
    "WARANGCITI": "Warang_Citi", "SYLOTINAGRI": "Syloti_Nagri", "BASSAVAH": "Bassa_Vah",
    "CAUCASIANALBANIAN": "Caucasian_Albanian", "OLDUYGHUR": "Old_Uyghur",
    "MEROITICHIEROGLYPHS": "Meroitic_Hieroglyphs", "EGYPTIANHIEROGLYPHS": "Egyptian_Hieroglyphs",
    "ANATOLIANHIEROGLYPHS": "Anatolian_Hieroglyphs",
}


def names_and_ids() -> dict[int, str]:
    """Script id (the regex module's) -> Unicode long name."""
    values = regex_data.get_properties()["SCRIPT"][1]
    by_id: dict[int, list[str]] = {}
    for name, i in values.items():
        by_id.setdefault(i, []).append(name)
    out = {}
    for i, names in by_id.items():
        long = names[0]  # the long name comes first, then the ISO 15924 code
        out[i] = SPELLED.get(long) or _spelled_from_character_names(long)
    return out


def _spelled_from_character_names(long: str) -> str:
    """The long name with its words, as the names of its characters spell them."""
    pattern = regex.compile(r"\p{Script=%s}" % long)
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000 or not pattern.match(chr(cp)):
            continue
        words = unicodedata2.name(chr(cp), "").split()
        for k in range(1, len(words) + 1):
            if "".join(words[:k]).replace("-", "") == long:
                return "_".join(w.capitalize() for w in words[:k])
    if len(long) <= 4:
        return long.capitalize()
    sys.exit(f"no spelling for {long}: add it to SPELLED")


def script_ids() -> np.ndarray:
    values = regex_data.get_properties()["SCRIPT"][1]
    table = np.zeros(0x110000, dtype=np.uint8)
    cps = np.array([c for c in range(0x110000) if not 0xD800 <= c < 0xE000])
    text = "".join(map(chr, cps.tolist()))
    for i in sorted(set(values.values())):
        if i == 0:
            continue
        name = next(n for n, j in values.items() if j == i)
        for m in regex.finditer(r"\p{Script=%s}+" % name, text):
            table[cps[m.start()]:cps[m.end() - 1] + 1] = i
    return table


def main() -> None:
    names = names_and_ids()
    table = script_ids()
    # Renumber: Unknown 0, Common 1, Inherited 2, then the others by name.
    order = ["Unknown", "Common", "Inherited"] + sorted(
        n for n in names.values() if n not in ("Unknown", "Common", "Inherited"))
    renumber = np.zeros(256, dtype=np.uint8)
    for i, n in names.items():
        renumber[i] = order.index(n)
    table = renumber[table]
    starts = np.flatnonzero(np.diff(table.astype(np.int16))) + 1
    starts = np.concatenate(([0], starts)).astype(np.uint32)
    ids = table[starts]
    blob = zlib.compress(starts.astype("<u4").tobytes() + ids.tobytes(), 9)
    text = base64.b85encode(blob).decode()
    lines = [text[i:i + 88] for i in range(0, len(text), 88)]
    unicode_version = getattr(regex_data, "UNICODE_VERSION", None) or "the regex module's"
    body = "\n".join(f'    "{line}"' for line in lines)
    names_text = "\n".join(f"    {n!r}," for n in order)
    OUT.write_text(f'''"""The Unicode Script property of every code point (generated by
``tests/tools/make_script_table.py`` from the ``regex`` module {regex.__version__}; do not edit).

``RANGES``: zlib-compressed, base85: {len(starts)} little-endian uint32 range starts, then
one byte per range, the index of its script in ``NAMES`` (Unknown for code points
outside every script). Read through :mod:`inspector.core.units.unicode_db`.
"""

NAMES = (
{names_text}
)

N_RANGES = {len(starts)}

RANGES = (
{body}
)
''')
    print(f"{OUT}: {len(starts)} ranges, {len(order)} scripts, {len(text)} characters")


if __name__ == "__main__":
    main()
