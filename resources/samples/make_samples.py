#!/usr/bin/env python3
"""Write the sample files and SAMPLES.md, which says what lies at which offset.

Deterministic: running it again gives the same bytes. Every labelled item is checked
against the decoder as the files are written (its kind and warnings at its offset), so
SAMPLES.md cannot drift from what the inspector shows.

    python3 resources/samples/make_samples.py           # write them
    python3 resources/samples/make_samples.py --check   # only say whether they are current
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from inspector.core.units import kinds as K  # noqa: E402
from inspector.core.units.interpretation import interpretation  # noqa: E402
from inspector.core.units.unicode_db import UNICODE_VERSION, is_unassigned  # noqa: E402

# An unassigned code point under the Unicode version the inspector uses (checked below).
UNASSIGNED_CP = 0x0378


def cesu8(text: str) -> bytes:
    """CESU-8: every supplementary character as two 3-byte surrogates."""
    out = bytearray()
    for ch in text:
        cp = ord(ch)
        if cp >= 0x10000:
            v = cp - 0x10000
            for half in (0xD800 | (v >> 10), 0xDC00 | (v & 0x3FF)):
                out += chr(half).encode("utf-8", "surrogatepass")
        else:
            out += ch.encode("utf-8")
    return bytes(out)


def mutf8(text: str) -> bytes:
    """Java's Modified UTF-8: as CESU-8, and NUL as C0 80."""
    return cesu8(text).replace(b"\x00", b"\xc0\x80")


class Builder:
    """Collects bytes and the labelled items that lie at known offsets."""

    def __init__(self, dialect: str = K.UTF8):
        self.data = bytearray()
        self.items: list[tuple[int, bytes, str, str, tuple[str, ...]]] = []
        self.dialect = dialect

    def text(self, s: str | bytes) -> None:
        codec = "utf-8" if self.dialect in K.DIALECTS else self.dialect
        self.data += s.encode(codec) if isinstance(s, str) else s

    def item(self, raw: bytes, kind: str, label: str, warnings: tuple[str, ...] = ()) -> None:
        """Bytes that form one unit of ``kind`` (checked later) with a description."""
        self.items.append((len(self.data), raw, kind, label, warnings))
        self.data += raw

    def line(self, label: str, raw: bytes, kind: str, what: str,
             warnings: tuple[str, ...] = (), after: str = " end\n") -> None:
        self.text(f"{label}: [")
        self.item(raw, kind, what, warnings)
        self.text("]" + after)

    def check(self, name: str) -> None:
        """Every item is one unit of the stated kind and warnings at its offset."""
        units = {u.offset: u for u in interpretation(self.dialect).cut(bytes(self.data), 0)}
        for offset, raw, kind, label, warnings in self.items:
            u = units.get(offset)
            if u is None or u.kind != kind or u.length != len(raw) or not set(warnings) <= set(u.warnings):
                raise SystemExit(f"{name}: item {label!r} at {offset}: expected one {kind} unit "
                                 f"of {len(raw)} bytes with {warnings}, the decoder says {u}")


def build_demo() -> Builder:
    b = Builder()
    b.item(b"\xef\xbb\xbf", K.VALID, "byte order mark at offset 0", (K.BOM,))
    b.text("UTF-8 Inspector demo: every kind of unit, every warning, several scripts.\n")
    b.text("Latin: Voix ambiguë d'un cœur qui au zéphyr préfère les jattes de kiwis. Ça coûte 5 €.\n")
    b.text("Greek: Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.\n")
    b.text("Cyrillic: Съешь же ещё этих мягких французских булок.\n")
    b.text("CJK: 日本語のテキスト、中文文本、한국어 텍스트.\n")
    b.text("Emoji: 😀 🎉 👍🏽 (a skin tone modifier) 👩‍💻 (a ZWJ sequence)\n")
    b.text("Flag: ")
    b.item("🇫".encode(), K.VALID, "regional indicator F (first half of the French flag)")
    b.item("🇷".encode(), K.VALID, "regional indicator R (second half of the French flag)")
    b.text(" (two regional indicators)\n")
    b.text("Combining: e")
    b.item("\u0301".encode(), K.VALID, "U+0301 COMBINING ACUTE ACCENT after a plain e")
    b.text(" vs é; a\u0308 o\u0308 (decomposed umlauts)\n")
    b.text("Supplementary CJK: 𠮷 (U+20BB7), Gothic: 𐍈 (U+10348)\n")
    b.text("\n-- Errors (each between [ and ]) --\n")
    b.line("Overlong / in 2 bytes", b"\xc0\xaf", K.OVERLONG, 'overlong "/" C0 AF')
    b.line("Overlong / in 3 bytes", b"\xe0\x80\xaf", K.OVERLONG, 'overlong "/" E0 80 AF')
    b.line("Overlong . in 2 bytes", b"\xc0\xae", K.OVERLONG, 'overlong "." C0 AE')
    b.line("Overlong NUL", b"\xc0\x80", K.OVERLONG, "overlong NUL C0 80 (Modified UTF-8's NUL)")
    b.line("Encoded surrogate", b"\xed\xa0\x80", K.SURROGATE, "lone high surrogate U+D800")
    b.text("CESU-8 pair for U+1F600: [")
    b.item(b"\xed\xa0\xbd", K.SURROGATE, "CESU-8 high half U+D83D (one valid unit in cesu-8)")
    b.item(b"\xed\xb8\x80", K.SURROGATE, "CESU-8 low half U+DE00")
    b.text("] end\n")
    b.line("Above U+10FFFF", b"\xf4\x90\x80\x80", K.OUT_OF_RANGE, "U+110000 (F4 90 80 80)")
    b.line("Lead F5", b"\xf5\x80\x80\x80", K.OUT_OF_RANGE, "F5 80 80 80 = U+140000")
    b.line("5-byte 1993 form", b"\xf8\x88\x80\x80\x80", K.LEGACY_LONG_FORM, "5-byte form of U+200000")
    b.line("6-byte 1993 form", b"\xfc\x84\x80\x80\x80\x80", K.LEGACY_LONG_FORM, "6-byte form of U+4000000")
    b.line("Truncated mid-line", b"\xe2\x82", K.TRUNCATED, "E2 82: 3-byte euro sign missing its last byte")
    b.line("Truncated 4-byte", b"\xf0\x9f\x98", K.TRUNCATED, "F0 9F 98: emoji missing its last byte")
    b.text("Latin-1 text: [caf")
    b.item(b"\xe9", K.TRUNCATED, "Latin-1 \u00e9 (E9) before a space: a 1-byte truncated unit")
    b.text(" au lait] end\n")
    b.line("Stray continuation", b"\x80", K.UNEXPECTED_CONTINUATION, "stray 80")
    b.text("Three strays: [")
    for i, raw in enumerate((b"\xbf", b"\xa9", b"\x8f")):
        b.item(raw, K.UNEXPECTED_CONTINUATION, f"stray continuation {raw.hex().upper()} ({i + 1} of 3)")
    b.text("] end\n")
    b.line("Invalid byte FE", b"\xfe", K.INVALID_BYTE, "FE")
    b.line("Invalid byte FF", b"\xff", K.INVALID_BYTE, "FF")
    b.text("\n-- Warnings (valid, but worth a look) --\n")
    b.line("ZWNBSP mid-file", "\ufeff".encode(), K.VALID, "U+FEFF away from offset 0", (K.ZWNBSP,))
    b.line("Noncharacter U+FDD0", "\ufdd0".encode(), K.VALID, "U+FDD0", (K.NONCHARACTER,))
    b.line("Noncharacter U+FFFF", "\uffff".encode(), K.VALID, "U+FFFF", (K.NONCHARACTER,))
    b.line("Noncharacter U+10FFFF", "\U0010ffff".encode(), K.VALID, "U+10FFFF", (K.NONCHARACTER,))
    b.line("Replacement char", "\ufffd".encode(), K.VALID, "U+FFFD already in the data", (K.REPLACEMENT_CHAR,))
    b.line("C0 control (BEL)", b"\x07", K.VALID, "U+0007 BELL", (K.CONTROL,))
    b.line("C0 control (ESC)", b"\x1b", K.VALID, "U+001B ESCAPE", (K.CONTROL,))
    b.line("C1 control (NEL)", "\x85".encode(), K.VALID, "U+0085 NEXT LINE as C2 85", (K.CONTROL,))
    b.line("Raw NUL", b"\x00", K.VALID, "a raw 00 byte (raw_nul in mutf-8)", (K.CONTROL,))
    b.line("Private use", "\ue000".encode(), K.VALID, "U+E000", (K.PRIVATE_USE,))
    b.line("Private use plane 16", "\U00100000".encode(), K.VALID, "U+100000", (K.PRIVATE_USE,))
    b.text("Bidi override: [")
    b.item("\u202e".encode(), K.VALID, "U+202E RIGHT-TO-LEFT OVERRIDE", (K.BIDI_CONTROL,))
    b.text("abc")
    b.item("\u202c".encode(), K.VALID, "U+202C POP DIRECTIONAL FORMATTING", (K.BIDI_CONTROL,))
    b.text("] end\n")
    b.line("Bidi isolate", "\u2067".encode(), K.VALID, "U+2067 RIGHT-TO-LEFT ISOLATE", (K.BIDI_CONTROL,))
    b.line("Arabic letter mark", "\u061c".encode(), K.VALID, "U+061C ARABIC LETTER MARK", (K.BIDI_CONTROL,))
    b.line("Zero width space", "\u200b".encode(), K.VALID, "U+200B", (K.ZERO_WIDTH,))
    b.line("Zero width joiner", "\u200d".encode(), K.VALID, "U+200D", (K.ZERO_WIDTH,))
    b.line("Word joiner", "\u2060".encode(), K.VALID, "U+2060", (K.ZERO_WIDTH,))
    b.line("Unassigned", chr(UNASSIGNED_CP).encode(), K.VALID,
           f"U+{UNASSIGNED_CP:04X}, unassigned in Unicode {UNICODE_VERSION}", (K.UNASSIGNED,))
    b.text("\nThe file ends with a truncated sequence (E2 82, no final byte): ")
    b.item(b"\xe2\x82", K.TRUNCATED, "truncated at the very end of the file")
    return b


def build_cesu8() -> Builder:
    b = Builder(K.CESU8)
    b.text(cesu8("CESU-8 sample: supplementary characters as surrogate pairs.\n"))
    b.text(cesu8("Grinning face: "))
    b.item(cesu8("😀"), K.VALID, "U+1F600 as ED A0 BD ED B8 80 (surrogate errors in utf-8)")
    b.text(cesu8("\nGothic: "))
    b.item(cesu8("𐍈"), K.VALID, "U+10348 as ED A0 80 ED BD 88")
    b.text(cesu8("\nCJK Extension B: "))
    b.item(cesu8("𠮷"), K.VALID, "U+20BB7 as ED A1 82 ED BE B7")
    b.text(cesu8("\nBMP text is as in UTF-8: café, 日本語, €.\n"))
    return b


def build_mutf8() -> Builder:
    b = Builder(K.MUTF8)
    b.text(mutf8("Modified UTF-8 (Java): NUL is C0 80, supplementary characters are pairs.\n"))
    b.text(mutf8("NUL here: ["))
    b.item(b"\xc0\x80", K.VALID, "NUL as C0 80 (overlong in utf-8)")
    b.text(mutf8("]\nEmoji: "))
    b.item(mutf8("🎉"), K.VALID, "U+1F389 as a surrogate pair")
    b.text(mutf8("\nTwo NULs: "))
    b.item(b"\xc0\x80", K.VALID, "NUL as C0 80")
    b.item(b"\xc0\x80", K.VALID, "NUL as C0 80")
    b.text(mutf8("\nA raw 00 byte, which Modified UTF-8 never writes: ["))
    b.item(b"\x00", K.VALID, "raw NUL: the raw_nul warning in mutf-8", (K.CONTROL, K.RAW_NUL))
    b.text(mutf8("]\nÅngström, 日本\n"))
    return b


def build_bom() -> Builder:
    b = Builder()
    b.item(b"\xef\xbb\xbf", K.VALID, "byte order mark", (K.BOM,))
    b.text("A UTF-8 file that starts with a byte order mark (EF BB BF), as Windows Notepad "
           "used to write.\nNaïve café, 1 € = 100 ¢.\n")
    return b


def build_latin1() -> Builder:
    b = Builder()
    b.text("Legacy Latin-1 text, not UTF-8: caf")
    b.item(b"\xe9", K.TRUNCATED, "E9 (Latin-1 \u00e9) before a space: truncated")
    b.text(" cr")
    b.item(b"\xe8", K.TRUNCATED, "E8 (Latin-1 \u00e8) before 'm': truncated")
    b.text("me br")
    b.item(b"\xfb", K.TRUNCATED, "FB (Latin-1 \u00fb): a 5-byte lead, truncated")
    b.text("l")
    b.item(b"\xe9", K.TRUNCATED, "E9")
    b.text("e, ")
    b.item(b"\xa9", K.UNEXPECTED_CONTINUATION, "A9 (Latin-1 \u00a9): a stray continuation")
    b.text(" 2024, 10 ")
    b.item(b"\xb0", K.UNEXPECTED_CONTINUATION, "B0 (Latin-1 \u00b0)")
    b.text("C, ")
    b.item(b"\xbd", K.UNEXPECTED_CONTINUATION, "BD (Latin-1 \u00bd)")
    b.text(" cup, na")
    b.item(b"\xef", K.TRUNCATED, "EF (Latin-1 \u00ef) before 'v': a 3-byte lead, truncated")
    b.text("ve\n")
    return b


def build_mojibake() -> Builder:
    """UTF-8 text decoded as Windows-1252 and encoded to UTF-8 again: valid, but wrong."""
    b = Builder()
    b.text("Double-encoded UTF-8 (valid bytes, wrong text; ftfy can undo it):\n")
    original = "café, naïve, “quotes”, 5 €, Ærøskøbing"
    doubled = original.encode("utf-8").decode("cp1252", "replace").encode("utf-8")
    b.text(doubled)
    b.text("\nOriginal: " + original + "\n")
    return b


def build_mixed() -> Builder:
    """A file that changes encoding part of the way through: UTF-8 text, a paragraph in
    Windows-1252, a double-encoded paragraph, a small binary blob, UTF-8 again. The
    encoding map cuts it into those regions (View: the overview's band, the statistics
    dock's list of regions; File > Save repaired copy converts each from its encoding)."""
    import random

    b = Builder()
    b.text("Notes from the shared drive, gathered into one file over the years.\n"
           "This part is UTF-8: naïve café, 10 °C, 5 €, Ærøskøbing, Żółw, Ελλάδα, 東京.\n"
           "The next paragraph was pasted from an old Windows editor (Windows-1252).\n")
    b.text(("Le matin, la brume couvrait encore les collines quand Hélène ouvrit la fenêtre.\n"
            "Elle prépara du café, coupa quelques tranches de pain et regarda les élèves "
            "traverser la place à vélo.\n"
            "À midi, son frère arriva de la gare avec un panier de pêches et du cidre très frais.\n"
            "Ils passèrent l’après-midi à discuter de leurs études et du prix des légumes.\n"
            "Le soir, le ciel se teinta d’orange ; on entendait les cloches de l’église.\n"
            "« Tu as déjà vu le théâtre rénové ? » demanda-t-il… Elle répondit – avec cœur – "
            "que non.\n").encode("cp1252"))
    b.text("Back in UTF-8. The next paragraph went through a Windows-1252 decoder once too "
           "often (double-encoded):\n")
    doubled = ("Après le dîner, on joua aux cartes près de la cheminée ; "
               "le grand-père raconta ses voyages.\n"
               "Ils passèrent l’après-midi à parler des élections et du prix des légumes.\n")
    b.text(doubled.encode("utf-8").decode("cp1252").encode("utf-8"))
    b.text("Then a small binary attachment that was appended by mistake:\n")
    rng = random.Random(16)
    b.text(b"\x01\x00\x00\x00" + bytes(rng.randrange(256) for _ in range(184)) + b"\x00\x02")
    b.text("\nAnd the end of the notes, in UTF-8 again: schöne Grüße, до свидания, 再见.\n"
           "The morning train was late again, so we waited on the platform with our coffee.\n"
           "A few pigeons walked between the benches looking for crumbs while the clock "
           "ticked on.\n"
           "When the train finally arrived, it was crowded, and we stood all the way to the "
           "city.\n"
           "Am Wochenende fuhren wir mit dem Zug nach München, um die Großeltern zu besuchen.\n"
           "Вчера вечером мы с друзьями пошли к реке, чтобы посмотреть на закат солнца.\n"
           "Χθες το βράδυ πήγαμε με φίλους στη θάλασσα για να δούμε το ηλιοβασίλεμα.\n"
           "昨日の夕方、友達と一緒に川へ行って夕日を眺めました。\n")
    return b


def build_big5() -> Builder:
    """Traditional Chinese in Big5, one line of it missing a byte: read as Big5 (View >
    Interpret as > Chinese > Big5) the line after the loss is misread, every byte pair
    still a character, until a pair Big5 has no character for drops one byte and the
    reading is back in step; Decode from here in the middle of a character shows the
    same, where UTF-8 would lose at most 3 bytes."""
    b = Builder("big5")
    b.text("Big5 text (Traditional Chinese). Read it as Big5: View > Interpret as > Chinese.\n")
    line = "今天氣很我們到公園散看見孩草玩都心中文體的歷書文化"
    b.text(line + "\n")
    b.text("The next line lost the first byte of its second character:\n")
    raw = line.encode("big5")
    damaged = raw[:2] + raw[3:]
    units = interpretation("big5").cut(damaged)
    bad = next(u.offset for u in units if u.kind != K.VALID)
    b.text(damaged[:bad])
    b.item(damaged[bad:bad + 1], K.UNDECODABLE, "where the misreading ends: a pair Big5 has "
           "no character for, one byte dropped, back in step after it")
    b.text(damaged[bad + 1:] + b"\n")
    b.text(line + "\n")
    return b


SAMPLES = (
    ("demo.txt", build_demo, "The demo the window opens by default: text in several scripts, then "
     "one labelled line per error kind and per warning (the labelled bytes sit between "
     "`[` and `]`). Dialect utf-8."),
    ("cesu8.txt", build_cesu8, "CESU-8 text: supplementary characters as pairs of 3-byte "
     "surrogates. Valid in the cesu-8 and mutf-8 dialects; each half is a `surrogate` "
     "error in utf-8. Offsets checked in the cesu-8 dialect."),
    ("mutf8.bin", build_mutf8, "Java's Modified UTF-8: NUL written as C0 80, supplementary "
     "characters as surrogate pairs, and one raw 00 byte (a `raw_nul` warning). Offsets "
     "checked in the mutf-8 dialect."),
    ("bom.txt", build_bom, "UTF-8 with a byte order mark at offset 0."),
    ("latin1.txt", build_latin1, "Legacy ISO-8859-1 text read as UTF-8: accented letters "
     "become truncated units or stray continuation bytes."),
    ("mojibake.txt", build_mojibake, "Double-encoded UTF-8 (mojibake): every byte is valid "
     "UTF-8, the text is wrong. No labelled items: the point is that it is valid."),
    ("mixed.txt", build_mixed, "A file that changes encoding part of the way through: "
     "UTF-8 text, a paragraph in Windows-1252, a double-encoded paragraph (UTF-8 read as "
     "Windows-1252 and written as UTF-8 again), a 190-byte binary blob, then UTF-8 again. "
     "The verdict is `mixed`; the encoding map cuts it into those regions (the overview's "
     "band, the statistics dock's list, the repair policy \"convert each region from its "
     "encoding\"). No labelled items: see the map."),
    ("big5.txt", build_big5, "Traditional Chinese in Big5, a line of it missing one byte: "
     "read as Big5 (View > Interpret as > Chinese > Big5), that line is misread from the "
     "loss on, because in Big5, unlike UTF-8, a trail byte can lead a character too: the "
     "reading falls back in step only at a pair Big5 has no character for, or at an "
     "ASCII byte. Decode from here "
     "(Ctrl+R) at the second byte of any Chinese character shows the same misreading and "
     "where it falls back in step; UTF-8 would lose at most 3 bytes. Offsets checked in "
     "Big5."),
)


def main(argv: list[str] | None = None) -> int:
    """Write the samples, or with ``--check`` only compare them with what is on disk
    (exit status 1 and the names of stale files when they differ)."""
    argv = sys.argv[1:] if argv is None else argv
    check_only = "--check" in argv
    outputs: dict[str, bytes] = {}
    md = ["# Sample files", "",
          "Written by `make_samples.py` (run it again to regenerate; the output is "
          "deterministic). Each labelled item below is checked against the decoder when the "
          "files are written, so the offsets are exact. Offsets are decimal and hex; bytes are "
          f"hex. Unicode database: {UNICODE_VERSION}.", ""]
    if not is_unassigned(UNASSIGNED_CP):
        raise SystemExit(f"U+{UNASSIGNED_CP:04X} is assigned in Unicode {UNICODE_VERSION}: pick another")
    for filename, build, blurb in SAMPLES:
        b = build()
        b.check(filename)
        data = bytes(b.data)
        outputs[filename] = data
        units = interpretation(b.dialect).cut(data, 0)
        errors = sum(1 for u in units if u.is_error)
        md += [f"## {filename}", "", blurb, "",
               f"{len(data):,} bytes, {len(units):,} units in {b.dialect}, {errors} errors, "
               f"{sum(u.replacements for u in units)} U+FFFD from a conforming decoder.", ""]
        if b.items:
            md += ["| offset | hex | bytes | kind | warnings | what |", "|---:|---:|---|---|---|---|"]
            for offset, raw, kind, label, warnings in b.items:
                u = next(u for u in units if u.offset == offset)
                shown = ", ".join(u.warnings) or "-"
                md.append(f"| {offset} | 0x{offset:X} | {raw.hex(' ').upper()} | {kind} | "
                          f"{shown} | {label} |")
            md.append("")
    outputs["SAMPLES.md"] = "\n".join(md).encode("utf-8")
    if check_only:
        stale = [n for n, data in outputs.items()
                 if not (HERE / n).exists() or (HERE / n).read_bytes() != data]
        if stale:
            print(f"stale samples (run make_samples.py): {', '.join(stale)}", file=sys.stderr)
            return 1
        return 0
    for filename, data in outputs.items():
        (HERE / filename).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
