"""A page in every encoding against a page in UTF-8, in the same run. Run directly:

    python3 tests/benchmarks/bench_encodings.py [--repeat 50] [--size-gib 16] [--peer TREE] [--cpu]

What a view does for a page: ``cuts_in_range`` of a 4 KiB page at a random offset of
the file (the look back for a unit start included), as arrays. Two files:

- a sparse file of ``--size-gib`` GiB (made with ``truncate``, never written: all NUL
  bytes) with a 64 KiB stretch of text in the encoding every 1 GiB, paged at random
  offsets across the whole file and inside the stretches;
- 1 MiB of text in the encoding (its own text: Japanese in Shift_JIS, Chinese in Big5,
  Cyrillic in KOI8-R...), held in memory, with 1 % of its bytes corrupted, paged at
  random offsets.

Nothing decodes the file up to the page: a 16 GiB file pages as fast as a small one.
Prints milliseconds per page (best of three) and the ratio to UTF-8 on the same bytes'
kind of page. Also the first page of each encoding in this process (it pays the
multi-byte codec's probing once): shown as "first". The state-carrying encodings
(ISO-2022-*, HZ) are each measured, their text encoded as one stream (ISO-2022-KR names
its double-byte set once, at the start). ``--peer TREE`` measures the same pages with
another checkout of the program (say the main branch) in a subprocess of the same run,
and prints its figures beside this tree's: a before/after. ``--cpu`` times the process's
CPU (user and system) instead of the wall clock: on a machine other work keeps busy,
what a page costs, not how long it waited.

``--first`` measures instead what a user choosing View > Interpret as > Shift_JIS waits
for: the first 4 KiB page of 1 MiB of text in each multi-byte encoding, in a fresh
process (the program and numpy imported, a page cut as UTF-8 first as the window does,
the codec never used yet), best of
``--fresh`` processes; ``--peer TREE`` does the same with another checkout of the
program (say the main branch) in the same run, for a before/after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# --tree PATH: the program imported from another checkout (what --peer runs).
TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else str(ROOT)
sys.path.insert(0, TREE)

from inspector.core.scan import pagecut  # noqa: E402
from inspector.core.source.bytesource import FileSource, MemorySource  # noqa: E402

PAGE = 4096
TEXTS = {
    "utf-8": "The quick brown fox. Съешь ещё. 日本語のテキスト。中文。한국어. 🙂 façade\n",
    "cp1252": "Le café est prêt. À bientôt, façade, “naïve” œuvre – 5 €\n",
    "koi8-r": "Съешь же ещё этих мягких французских булок, да выпей чаю.\n",
    "shift_jis": "日本語のテキストです。半角ｶﾀｶﾅ ABC 漢字かな交じり文。\n",
    "euc_jp": "日本語のテキストです。漢字かな交じり文。\n",
    "iso2022_jp": "日本語のテキストです。漢字かな交じり文。\n",
    "iso2022_jp_1": "日本語のテキストです。丂丄丅 漢字かな交じり文。\n",
    "iso2022_jp_2": "日本語のテキスト。한국어 텍스트. Αλφα 中文\n",
    "iso2022_jp_3": "日本語のテキストです。𠀋 漢字かな交じり文。\n",
    "iso2022_jp_2004": "日本語のテキストです。𠀋 漢字かな交じり文。\n",
    "iso2022_jp_ext": "日本語のテキストです。ｶﾀｶﾅ 漢字かな交じり文。\n",
    "iso2022_kr": "한국어 텍스트입니다. 안녕하세요.\n",
    "hz": "中文文本，简体中文。ABC ~ 123\n",
    "gb18030": "中文文本，简体中文。😀 €\n",
    "gbk": "中文文本，简体中文。\n",
    "big5": "中文文本，繁體中文。\n",
    "euc_kr": "한국어 텍스트입니다. 안녕하세요.\n",
    "utf-16-le": "Hello UTF-16 wörld 😀 日本\n",
    "utf-32-be": "Hello UTF-32 wörld 😀 日本\n",
}


def text_bytes(encoding: str, size: int, rng: random.Random, corrupt: float) -> bytes:
    text = TEXTS[encoding]
    # The whole text encoded at once: a state-carrying encoder writes its file header
    # (ISO-2022-KR's designation) once, as a real file has it.
    data = bytearray((text * (size // len(text) + 1)).encode(encoding)[:size])
    for i in rng.sample(range(size), int(size * corrupt)):
        data[i] = rng.randrange(256)
    return bytes(data)


TIMER = time.process_time if "--cpu" in sys.argv else time.perf_counter


def best(fn, repeat: int) -> float:
    return min(timeit.repeat(fn, number=repeat, repeat=3, timer=TIMER)) / repeat * 1000


def page_time(source, encoding: str, offsets: list[int], repeat: int) -> float:
    it = iter(offsets * (repeat * 3 + 3))
    return best(lambda: pagecut.cuts_in_range(source, (o := next(it)), o + PAGE, None, encoding),
                repeat)


def sparse_file(folder: str, size: int, encoding: str) -> str:
    path = os.path.join(folder, f"sparse-{encoding}.bin")
    with open(path, "wb") as f:
        f.truncate(size)
        stretch = text_bytes(encoding, 64 << 10, random.Random(3), 0.0)
        for gib in range(0, size >> 30):
            f.seek((gib << 30) + (1 << 29))
            f.write(stretch)
    return path


MULTI_BYTE = {"shift_jis": "日本語のテキストです。漢字かな交じり文。\n",
              "cp932": "日本語のテキストです。①②③ 漢字かな交じり文。\n",
              "euc_jp": "日本語のテキストです。漢字かな交じり文。\n",
              "iso2022_jp": "日本語のテキストです。漢字かな交じり文。\n",
              "gb18030": "中文文本，简体中文。😀 €\n", "gbk": "中文文本，简体中文。\n",
              "gb2312": "中文文本，简体中文。\n", "big5": "中文文本，繁體中文。\n",
              "big5hkscs": "中文文本，繁體中文。\n", "euc_kr": "한국어 텍스트입니다.\n",
              "cp949": "한국어 텍스트입니다.\n", "johab": "한국어 텍스트입니다.\n"}

# Run in a fresh process: the first page and the next one, in ms.
_FRESH = """
import sys, time
sys.path.insert(0, sys.argv[1])
from inspector.core.scan import pagecut
from inspector.core.source.bytesource import MemorySource
codec, text = sys.argv[2], sys.argv[3]
one = text.encode(codec)
source = MemorySource((one * ((1 << 20) // len(one) + 1))[:1 << 20])
pagecut.cuts_in_range(source, 0, 4096, None, "utf-8")   # the window showed it as UTF-8
t0 = time.perf_counter()
pagecut.cuts_in_range(source, 500000, 500000 + 4096, None, codec)
t1 = time.perf_counter()
pagecut.cuts_in_range(source, 700000, 700000 + 4096, None, codec)
t2 = time.perf_counter()
print((t1 - t0) * 1000, (t2 - t1) * 1000)
"""


def fresh_first_page(tree: str, codec: str, runs: int) -> tuple[float, float]:
    """The best of ``runs`` fresh processes: (first page, second page) in ms."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _FRESH, tree, codec, MULTI_BYTE[codec]],
                             capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONPATH": tree})
        times.append(tuple(float(x) for x in out.stdout.split()))
    return min(t[0] for t in times), min(t[1] for t in times)


def first_pages(args) -> None:
    trees = [("this", str(ROOT))] + ([("peer", args.peer)] if args.peer else [])
    print(f"ms for the first 4 KiB page after choosing the encoding, in a fresh process "
          f"(best of {args.fresh}); 'next': the page after it")
    print(f"{'encoding':>12} " + " ".join(f"{name + ' first':>11} {'next':>6}"
                                          for name, _ in trees))
    for codec in MULTI_BYTE:
        row = [fresh_first_page(tree, codec, args.fresh) for _, tree in trees]
        print(f"{codec:>12} " + " ".join(f"{a:11.1f} {b:6.2f}" for a, b in row))


def measure(encoding: str, args) -> dict:
    """The page times of ``encoding`` (ms): the first page in this process, a page
    anywhere in the sparse file, one in its stretches of text, one of the 1 MiB of
    corrupted text. The offsets depend on the encoding alone (any tree, any --only)."""
    rng = random.Random(encoding)
    size = args.size_gib << 30
    with tempfile.TemporaryDirectory() as folder:
        path = sparse_file(folder, size, encoding)
        with FileSource(path) as source:
            t0 = time.perf_counter()
            pagecut.cuts_in_range(source, 1 << 29, (1 << 29) + PAGE, None, encoding)
            first = (time.perf_counter() - t0) * 1000
            anywhere = [rng.randrange(size - PAGE) for _ in range(64)]
            stretch = [(rng.randrange(args.size_gib) << 30) + (1 << 29)
                       + rng.randrange((64 << 10) - PAGE) for _ in range(64)]
            a = page_time(source, encoding, anywhere, args.repeat)
            b = page_time(source, encoding, stretch, args.repeat)
        os.unlink(path)
    mem = MemorySource(text_bytes(encoding, 1 << 20, rng, 0.01))
    c = page_time(mem, encoding, [rng.randrange((1 << 20) - PAGE) for _ in range(64)],
                  args.repeat)
    return {"first": first, "a": a, "b": b, "c": c}


def peer_measure(encoding: str, args) -> dict:
    """:func:`measure` with the program of ``args.peer``, in a subprocess."""
    out = subprocess.run([sys.executable, __file__, "--tree", args.peer, "--json",
                          "--only", encoding, "--repeat", str(args.repeat),
                          *(["--cpu"] if args.cpu else []),
                          "--size-gib", str(args.size_gib)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)[encoding]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--cpu", action="store_true", help="time the process's CPU, not the wall")
    ap.add_argument("--size-gib", type=int, default=16)
    ap.add_argument("--first", action="store_true",
                    help="the first page after choosing each multi-byte encoding, fresh process")
    ap.add_argument("--fresh", type=int, default=3, help="fresh processes per encoding")
    ap.add_argument("--peer", help="another checkout to measure in, same run")
    ap.add_argument("--tree", help="import the program from this checkout")
    ap.add_argument("--only", help="these encodings (comma-separated; utf-8 is always measured)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.first:
        first_pages(args)
        return
    encodings = list(TEXTS) if not args.only else \
        ["utf-8"] + [e for e in args.only.split(",") if e != "utf-8"]
    if args.json:
        print(json.dumps({e: measure(e, args) for e in encodings}))
        return
    print(f"ms per {PAGE}-byte page (best of 3, {args.repeat} pages at random offsets"
          + (", CPU time)" if args.cpu else ")")
          + (f"; 'peer': {args.peer}, measured in the same run" if args.peer else ""))
    columns = (("a", "sparse 16G"), ("b", "in stretch"), ("c", "1MiB 1% bad"))
    print(f"{'encoding':>15} {'first':>7} | " + " | ".join(
        (f"{'peer':>7} {'x':>5} " if args.peer else "") + f"{title:>11} {'x utf-8':>7}"
        for _, title in columns))
    base, peer_base = {}, {}
    for encoding in encodings:
        peer = peer_measure(encoding, args) if args.peer else None
        row = measure(encoding, args)
        if encoding == "utf-8":
            base, peer_base = row, peer
        cells = []
        for key, _ in columns:
            cell = f"{row[key]:11.3f} {row[key] / base[key]:7.1f}"
            if peer:
                cell = f"{peer[key]:7.3f} {peer[key] / peer_base[key]:5.1f} " + cell
            cells.append(cell)
        print(f"{encoding:>15} {row['first']:7.2f} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
