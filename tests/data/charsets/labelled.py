"""A labelled corpus of natural text in many languages and charsets, for the verdict and
the encoding map (``tests/core/analysis/test_charset_corpus.py``) and for the detector
benchmark (``tests/benchmarks/bench_detectors.py``).

The texts are stored once, as UTF-8 (``texts/*.txt``: prose written for this project,
one topic per language); ``manifest.json`` says which files are made of them: per file
its language, the encoding it is written in, the verdict code it must get and its parts
(a text, or some of its lines, in an encoding, with the region label the map must give
it), plus how it is cut (``max_bytes``), wrapped (an HTML page, with or without a
declared charset) or damaged (random bytes, fixed seed). The bytes are made here, at
test time, not committed: every byte follows from a text, a codec of CPython and a
seed, so the corpus stays readable and diffable in the repository and one edit of a
text changes every file made of it.

What a charset cannot spell is written the way people wrote it in that charset (curly
quotes as straight ones in ISO-8859-x and DOS code pages, the euro sign as "EUR" in
Latin-1, accents dropped in DOS Greek); Vietnamese in Windows-1258 is written with
combining tone marks, as that code page does.

Strict and lenient, as in the benchmark: strict is right when the encoding named is the
file's or a superset of it that the field counts as the same answer (Windows-1252 for
ISO-8859-1, Windows-932 for Shift JIS, GB18030 for GBK...: :data:`SUPERSETS`, chardet's
``evaluation.SUPERSETS``); lenient when it decodes the bytes to the same text (a base
letter or ¤/€ apart).
"""

from __future__ import annotations

import codecs
import json
import os
import random
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
TEXTS = os.path.join(HERE, "texts")
MANIFEST = os.path.join(HERE, "manifest.json")

# Characters a charset may lack, as text in that charset wrote them.
_FALLBACK = {"«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'",
             "—": "-", "–": "-", "…": "...", "€": "EUR", "₪": 'ש"ח', "־": "-", "œ": "oe",
             "Œ": "OE", "ș": "ş", "ț": "ţ", "Ș": "Ş", "Ț": "Ţ"}

# A detected encoding counts as right for an expected one (strict) when it is the same
# or one of these supersets (chardet's evaluation.SUPERSETS, by codec name).
SUPERSETS = {
    "ascii": {"utf-8", "cp1252"},
    "tis-620": {"iso8859-11", "cp874"},
    "iso8859-11": {"cp874"},
    "gb2312": {"gb18030", "gbk"},
    "gbk": {"gb18030"},
    "big5": {"big5hkscs", "cp950"},
    "shift_jis": {"cp932", "shift_jis_2004"},
    "euc_jp": {"euc_jis_2004"},
    "euc_kr": {"cp949"},
    "iso8859-1": {"cp1252"},
    "iso8859-2": {"cp1250"},
    "iso8859-5": {"cp1251"},
    "iso8859-6": {"cp1256"},
    "iso8859-7": {"cp1253"},
    "iso8859-8": {"cp1255"},
    "iso8859-9": {"cp1254"},
    "iso8859-13": {"cp1257"},
    "iso2022_jp": {"iso2022_jp_2", "iso2022_jp_ext", "iso2022_jp_2004", "iso2022_jp_1"},
}


def codec(name: str | None) -> str | None:
    if not name:
        return None
    key = name.strip().lower()
    # chardet's and cchardet's spellings that CPython does not know
    key = {"ascii": "ascii", "windows-874": "cp874", "x-mac-cyrillic": "mac-cyrillic",
           "utf-8-sig": "utf-8", "ibm855": "cp855", "ibm866": "cp866",
           "maccyrillic": "mac-cyrillic", "iso-2022-jp": "iso2022_jp",
           "iso-2022-kr": "iso2022_kr", "euc-tw": "euc-tw"}.get(key, key)
    try:
        return codecs.lookup(key).name
    except LookupError:
        return key


def strict_right(expected: str, detected: str | None) -> bool:
    exp, det = codec(expected), codec(detected)
    if det is None:
        return False
    if exp == det:
        return True
    if exp in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"):
        return det == exp or det in (exp.rsplit("-", 1)[0],)
    return det in {codec(s) for s in SUPERSETS.get(exp, ())}


def _same_char(a: str, b: str) -> bool:
    if a == b or {a, b} == {"¤", "€"}:
        return True
    strip = lambda c: "".join(x for x in unicodedata.normalize("NFKD", c)
                              if not unicodedata.combining(x))
    return strip(a) == strip(b)


def lenient_right(data: bytes, expected: str, detected: str | None) -> bool:
    if strict_right(expected, detected):
        return True
    if detected is None:
        return False
    try:
        want = data.decode(codec(expected))
        got = data.decode(codec(detected))
    except (UnicodeError, LookupError):
        return False
    if want == got:
        return True
    return len(want) == len(got) and all(_same_char(a, b) for a, b in zip(want, got))


def load_text(name: str) -> str:
    with open(os.path.join(TEXTS, name + ".txt"), encoding="utf-8") as f:
        return f.read()


_TONES = "\u0300\u0301\u0303\u0309\u0323"  # the combining marks Windows-1258 has


def _cp1258(text: str) -> bytes:
    """Vietnamese as Windows-1258 writes it: the letters it has (â ê ô ơ ư ă đ) precomposed,
    tone marks as combining characters after them."""
    out = bytearray()
    for ch in unicodedata.normalize("NFC", text):
        try:
            out += ch.encode("cp1258")
            continue
        except UnicodeEncodeError:
            pass
        parts = unicodedata.normalize("NFD", ch)
        tones = "".join(c for c in parts if c in _TONES)
        rest = unicodedata.normalize("NFC", "".join(c for c in parts if c not in _TONES))
        out += (rest + tones).encode("cp1258")
    return bytes(out)


def fit(text: str, encoding: str) -> str:
    """``text`` with what ``encoding`` cannot spell written as its users wrote it."""
    if encoding.startswith("utf") or encoding == "cp1258":
        return text
    out = []
    for ch in text:
        try:
            ch.encode(encoding)
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        alt = _FALLBACK.get(ch)
        if alt is not None:
            try:
                alt.encode(encoding)
                out.append(alt)
                continue
            except UnicodeEncodeError:
                pass
        base = "".join(x for x in unicodedata.normalize("NFD", ch) if not unicodedata.combining(x))
        base.encode(encoding)  # raises: the text does not fit the charset
        out.append(base)
    return "".join(out)


def encode(text: str, encoding: str) -> bytes:
    if encoding == "cp1258":
        return _cp1258(text)
    return fit(text, encoding).encode(encoding)


def _cut(text: str, encoding: str, max_bytes: int) -> str:
    """The first lines of ``text`` whose encoded form fits in ``max_bytes``; when not even
    the first does, the first line cut after the last whole word that fits."""
    lines = text.splitlines(keepends=True)
    out = ""
    for line in lines:
        if len(encode(out + line, encoding)) > max_bytes:
            break
        out += line
    if out:
        return out
    words = lines[0].split(" ")
    out = words[0]
    room = max_bytes - 1  # the newline after
    for w in words[1:]:
        if len(encode(out + " " + w, encoding)) > room:
            break
        out += " " + w
    while len(encode(out, encoding)) > room:  # a script without spaces: cut characters
        out = out[:-1]
    return out + "\n"


_HTML_HEAD = """<!DOCTYPE html>
<html lang="{lang}">
<head>
{meta}<title>{title}</title>
<link rel="stylesheet" href="/static/css/site.css">
<script src="/static/js/menu.js" defer></script>
</head>
<body>
<header class="top"><nav><ul>
<li><a href="/">Home</a></li><li><a href="/news/">News</a></li><li><a href="/about/">About</a></li>
<li><a href="/contact/">Contact</a></li></ul></nav></header>
<main id="content"><article>
<h1>{title}</h1>
"""
_HTML_TAIL = """</article></main>
<footer><p>&copy; 2024 Example Media &middot; <a href="/privacy/">Privacy</a> &middot;
<a href="/rss.xml">RSS</a></p></footer>
</body>
</html>
"""


def _html(text: str, lang: str, declared: str | None) -> tuple[str, str, str]:
    """(head, body, tail) of a web page around ``text``: its first line as the title,
    its lines as paragraphs."""
    lines = [l for l in text.splitlines() if l.strip()]
    meta = f'<meta charset="{declared}">\n' if declared else ""
    head = _HTML_HEAD.format(lang=lang, meta=meta, title=lines[0])
    body = "".join(f"<p>{l}</p>\n" for l in lines[1:])
    return head, body, _HTML_TAIL


class Case:
    """A labelled file: ``regions`` as (start, end, label) tuples, label a codec name
    (``utf-8`` for ASCII and UTF-8), ``binary`` or ``mojibake``."""

    def __init__(self, entry: dict, data: bytes, regions: list[tuple]):
        self.name = entry["file"]
        self.language = entry.get("language", "")
        self.encoding = entry["encoding"]
        self.code = entry["code"]
        self.kind = entry.get("kind", "")
        self.entry = entry
        self.data = data
        self.regions = regions

    def __repr__(self):
        return f"Case({self.name}, {len(self.data)} B)"


def _damage(data: bytes, spec: dict) -> bytes:
    """Random bytes written over ``data``: ``runs`` of ``length`` bytes each, at random
    places (not at the edges), from ``seed``."""
    rng = random.Random(spec["seed"])
    out = bytearray(data)
    for _ in range(spec.get("runs", 1)):
        at = rng.randrange(len(out) // 10, len(out) * 9 // 10)
        for k in range(spec.get("length", 1)):
            out[at + k] = rng.randrange(0x80 if spec.get("high") else 0, 256)
    return bytes(out)


def build(entry: dict) -> Case:
    pieces: list[tuple[bytes, str]] = []
    for part in entry["parts"]:
        text = load_text(part["text"])
        if "lines" in part:
            a, b = part["lines"]
            text = "".join(text.splitlines(keepends=True)[a:b])
        enc = part["encoding"]
        if "max_bytes" in part:
            text = _cut(text, enc, part["max_bytes"])
        label = part.get("region", codec(enc) if not enc.startswith("utf-8") else "utf-8")
        if part.get("double_encoded"):
            # UTF-8 read in a single-byte charset and written as UTF-8 again
            raw = text.encode("utf-8").decode(part["double_encoded"], "replace").encode("utf-8")
            pieces.append((raw, label))
            continue
        if part.get("html"):
            declared = part.get("declared")
            head, body, tail = _html(text, entry.get("language", "en"), declared)
            for t, lab in ((head, "utf-8"), (body, label), (tail, "utf-8")):
                pieces.append((encode(t, enc) if enc not in ("utf-16-le", "utf-16-be") else t.encode(enc), lab))
            continue
        raw = encode(text, enc)
        if part.get("bom"):
            raw = "\ufeff".encode(enc) + raw
        pieces.append((raw, label))
    data = b"".join(p for p, _ in pieces)
    if "damage" in entry:
        data = _damage(data, entry["damage"])
    regions: list[list] = []
    pos = 0
    for raw, label in pieces:
        if regions and regions[-1][2] == label:
            regions[-1][1] = pos + len(raw)
        else:
            regions.append([pos, pos + len(raw), label])
        pos += len(raw)
    if entry["encoding"] != "mixed":  # one encoding: one region (ASCII markup included)
        whole = "utf-8" if entry["encoding"] in ("ascii", "utf-8-sig") else codec(entry["encoding"])
        regions = [[0, len(data), whole]]
    return Case(entry, data, [tuple(r) for r in regions])


def manifest() -> list[dict]:
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)["files"]


def cases() -> list[Case]:
    return [build(e) for e in manifest()]


def write_tree(folder: str, selected: list[Case] | None = None) -> dict[str, Case]:
    """Write the corpus into ``folder`` (one file per case); returns path -> case."""
    os.makedirs(folder, exist_ok=True)
    out = {}
    for case in selected if selected is not None else cases():
        path = os.path.join(folder, case.name)
        with open(path, "wb") as f:
            f.write(case.data)
        out[path] = case
    return out
