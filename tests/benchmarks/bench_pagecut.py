"""The page cut against the decoder it is tested equal to, on pages of the sizes the
views ask for. Run directly:

    python3 tests/benchmarks/bench_pagecut.py [--repeat 300]

Per page kind (random bytes, printable ASCII, multilingual text, text with 1 % of its
bytes corrupted) and size: the decoder's ``cut``, the page cut's arrays alone, and the
page cut made into the decoder's unit tuples (what the views get). Best of three runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inspector.core.scan import pagecut  # noqa: E402
from inspector.core.units import decoder  # noqa: E402

TEXT = ("The quick brown fox jumps over the lazy dog. Съешь же ещё этих мягких "
        "французских булок. 日本語のテキストです。Ελληνικά. עברית והערבية. "
        "हिन्दी पाठ। 한국어 텍스트. 🙂🎉 Ünïcödé façade naïve.\n").encode()


def pages(size: int) -> dict[str, bytes]:
    rng = random.Random(14)
    text = (TEXT * (size // len(TEXT) + 1))[:size]
    corrupt = bytearray(text)
    for i in rng.sample(range(size), size // 100):
        corrupt[i] = rng.randrange(256)
    ascii_ = (b"The quick brown fox jumps over the lazy dog.\n" * (size // 45 + 1))[:size]
    return {"random bytes": rng.randbytes(size), "printable ASCII": ascii_,
            "multilingual text": text, "1 % corrupted": bytes(corrupt)}


def best(fn, repeat: int) -> float:
    return min(timeit.repeat(fn, number=repeat, repeat=3)) / repeat * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=300)
    args = ap.parse_args()
    print("ms per cut: decoder.cut | pagecut arrays | pagecut as units")
    for size in (300, 1536, 4480):
        for kind, data in pages(size).items():
            a = best(lambda: decoder.cut(data), args.repeat)
            b = best(lambda: pagecut.cut(data), args.repeat)
            c = best(lambda: pagecut.cut(data).units(), args.repeat)
            print(f"  {size:5d} B {kind:>17}: {a:6.3f} | {b:6.3f} | {c:6.3f}  "
                  f"({len(decoder.cut(data))} units)")


if __name__ == "__main__":
    main()
