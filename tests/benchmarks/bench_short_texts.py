"""The verdict against the detectors on short texts (run directly; not collected by pytest).

    python3 tests/benchmarks/bench_short_texts.py [--seed N] [--show-failures] [--keep DIR]

Short files are where the shape of the errors says least: a Shift_JIS line of 90 bytes,
a Czech sentence in Windows-1250 with two accented letters. The texts are cut from chardet
5.2.0's test files (real web pages and texts labelled by folder, fetched with pip once,
never committed; see ``bench_detectors.py --chardet-corpus``): each file is decoded in its
label, its markup stripped, a slice of 60 to 2,500 characters taken where it holds letters
above ASCII, and written back in the label. The same text is also written in the code pages
people met it in before Unicode, when it encodes there (Greek in DOS 737 and 869, Hebrew in
DOS 862 and ISO-8859-8, Czech in DOS 852 and ISO-8859-2, Cyrillic in DOS 866/855, KOI8-R,
ISO-8859-5 and Mac Cyrillic, Western in ISO-8859-15, DOS 850/437 and Mac Roman, Turkish
in ISO-8859-9 and DOS 857, Arabic in ISO-8859-6 and DOS 864, Japanese in EUC-JP, CP932 and
ISO-2022-JP, Korean in CP949, ISO-2022-KR and Johab, Chinese in GBK, GB18030 and HZ, Big5
in Big5-HKSCS). Files of 34 B to 3.7 KB are kept.

Scored as ``bench_detectors.py`` scores (strict: the label or a superset named; lenient:
decodes to the same text) for this project (``scan DIR --jsonl``), chardet and
charset-normalizer, with the project's strict failures counted by (label, answer).
"""

from __future__ import annotations

import argparse
import codecs
import html
import os
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_detectors as BD  # noqa: E402
from tests.data.charsets import labelled as L  # noqa: E402

SIZES = (60, 150, 400, 1000, 2500)  # characters in a slice
SMALLEST, LARGEST = 34, 3700  # bytes a file may have
ALSO_IN = {
    "iso-8859-7": ("cp737", "cp869"), "windows-1255": ("cp862", "iso-8859-8"),
    "windows-1250": ("cp852", "iso-8859-2"),
    "windows-1251": ("cp866", "koi8-r", "iso-8859-5", "cp855", "mac-cyrillic"),
    "windows-1252": ("iso-8859-15", "cp850", "cp437", "mac-roman"),
    "iso-8859-1": ("windows-1252", "iso-8859-15"), "windows-1254": ("iso-8859-9", "cp857"),
    "windows-1256": ("iso-8859-6", "cp864"), "shift_jis": ("euc_jp", "cp932", "iso2022_jp"),
    "euc-kr": ("cp949", "iso2022_kr", "johab"), "gb2312": ("gbk", "gb18030", "hz"),
    "big5": ("big5hkscs",)}


def plain_text(data: bytes, codec: str) -> str | None:
    """The file's text without markup, or None when it does not decode in its label."""
    try:
        text = data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    return re.sub(r"\n\s*\n+", "\n", text).strip()


def make_short_texts(corpus: str, out: str, seed: int) -> int:
    rng = random.Random(seed)
    n = 0
    for folder, _, names in sorted(os.walk(corpus)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            label = BD.folder_label(path)
            if name == "README.txt" or label.startswith(("utf", "ascii")):
                continue
            try:
                codecs.lookup(label)
            except LookupError:
                continue  # EUC-TW: Python has no codec
            with open(path, "rb") as f:
                text = plain_text(f.read(), label)
            if not text or text.isascii():
                continue
            for codec in (label, *ALSO_IN.get(label, ())):
                size = rng.choice(SIZES)
                start = rng.randrange(max(1, len(text) - size))
                try:
                    data = text[start:start + size].encode(codec)
                except UnicodeEncodeError:
                    continue
                if SMALLEST <= len(data) <= LARGEST and not data.isascii():
                    os.makedirs(os.path.join(out, codec), exist_ok=True)
                    with open(os.path.join(out, codec, f"{n}.txt"), "wb") as f:
                        f.write(data)
                    n += 1
    return n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--keep", help="write the short texts to this folder and keep them")
    args = ap.parse_args()
    corpus = BD.chardet_corpus()
    if corpus is None:
        print(f"skipped: cannot fetch {BD.CHARDET_SDIST}'s source distribution (no network?)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or tmp
        count = make_short_texts(corpus, out, args.seed)
        files = sorted(os.path.join(dp, f) for dp, _, fn in os.walk(out) for f in fn)
        sizes = sorted(os.path.getsize(f) for f in files)
        print(f"{count} short texts in {len(os.listdir(out))} charsets, "
              f"{sizes[0]}-{sizes[-1]} bytes (median {sizes[len(sizes) // 2]}), seed {args.seed}\n")
        _, reports = BD.run_project(out)
        named = {"utf8-inspector": {os.path.realpath(p): BD.project_named(r)
                                    for p, r in reports.items()}}
        for tool in ("chardet", "charset-normalizer"):
            _, found = BD.run_library(out, tool)
            named[tool] = {os.path.realpath(p): v for p, v in found.items()}
        print(f"{'tool':20} {'strict':>8} {'lenient':>8}")
        for tool, answers in named.items():
            strict = lenient = 0
            fails = Counter()
            for f in files:
                label = os.path.basename(os.path.dirname(f))
                answer = answers.get(os.path.realpath(f))
                right = BD._family_right(label, answer)
                with open(f, "rb") as fh:
                    data = fh.read()
                strict += right
                lenient += right or L.lenient_right(data, label, answer)
                if not right:
                    fails[(label, answer)] += 1
            print(f"{tool:20} {100 * strict / len(files):7.1f}% {100 * lenient / len(files):7.1f}%")
            if tool == "utf8-inspector" or args.show_failures:
                for (label, answer), k in fails.most_common():
                    print(f"    {k:3} {label:14} named {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
