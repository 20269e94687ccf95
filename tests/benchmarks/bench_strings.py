"""`utf8-inspector strings` against GNU `strings -n 6` on a disk-image-like file: both as
whole processes, in the same run, several rounds; and peak memory against
`utf8-inspector scan` of the same file.

    python3 tests/benchmarks/bench_strings.py [SIZE_MIB] [--rounds N] [--keep]

The image (512 MiB by default, made once under the temporary folder and reused): 64 KiB
clusters, about 30 % zeros, 30 % random bytes (compressed or encrypted data), 25 % text
files (UTF-8 in a dozen scripts, with lines), 15 % binary records holding short strings
(UTF-8 and UTF-16LE names, paths and messages between random bytes).

The goal (issue 29): the strings process no slower than GNU strings -n 6 (ratio = GNU
time / ours >= 1), and its peak memory no more than a scan's. Times are wall clock and
CPU; the machine is shared, so each round runs both back to back.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEXTS = ["Hello world, plain ASCII text line, with a path C:\\Users\\alice\\Documents\\report.docx",
         "héllo wörld café naïve façade déjà vu", "Привет, как дела? Съешь же ещё этих мягких булок.",
         "Γειά σου κόσμε, καλημέρα σε όλους.", "日本語のテキストです。漢字とかなまじり。",
         "مرحبا بالعالم، هذا نص عربي.", "emoji 😀🎉 and more ✓", "中文文本，测试一下。",
         "שלום עולם, זה טקסט בעברית.", "नमस्ते दुनिया, यह हिन्दी है।", "สวัสดีชาวโลก ภาษาไทย",
         "안녕하세요 세계, 한국어 텍스트입니다.", "Ελληνικά και English mixed ∑ ∞ ≠"]
CLUSTER = 64 << 10

MEASURE = r"""
import resource, subprocess, sys, time
t = time.perf_counter()
with open(sys.argv[1], "wb") as out:
    subprocess.run(sys.argv[2:], stdout=out)  # scan exits 1 when it finds problems
wall = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, r.ru_utime + r.ru_stime, r.ru_maxrss / 1024)
"""


def make_image(path: str, size: int, seed: int = 29) -> None:
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    text_pool = []
    for _ in range(64):
        lines = []
        length = 0
        while length < CLUSTER:
            line = " ".join(rng.choice(TEXTS) for _ in range(rng.randint(1, 4)))
            lines.append(line)
            length += len(line.encode()) + 1
        text_pool.append(("\n".join(lines) + "\n").encode()[:CLUSTER])
    records = [t.encode() for t in TEXTS] + [t.encode("utf-16-le") for t in TEXTS[:6]] + [
        b"/usr/lib/x86_64-linux-gnu/libc.so.6", b"GLIBC_2.34", b"user@example.org",
        "C:\\Windows\\System32\\config\\SYSTEM".encode("utf-16-le")]
    with open(path, "wb") as f:
        done = 0
        while done < size:
            r = rng.random()
            if r < 0.30:
                block = bytes(CLUSTER)
            elif r < 0.60:
                block = nrng.bytes(CLUSTER)
            elif r < 0.85:
                block = rng.choice(text_pool)
            else:
                parts = []
                length = 0
                while length < CLUSTER:
                    parts.append(nrng.bytes(rng.randint(8, 200)))
                    parts.append(rng.choice(records))
                    length += len(parts[-1]) + len(parts[-2])
                block = b"".join(parts)[:CLUSTER]
            block = block[:size - done]
            f.write(block)
            done += len(block)


def measure(cmd: list[str], out: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident MiB of the largest process) of ``cmd``."""
    run = subprocess.run([sys.executable, "-c", MEASURE, out, *cmd], capture_output=True,
                         text=True, cwd=ROOT, check=True)
    wall, cpu, rss = map(float, run.stdout.split())
    return wall, cpu, rss


def main() -> None:
    args = sys.argv[1:]
    rounds = 3
    if "--rounds" in args:
        k = args.index("--rounds")
        rounds = int(args[k + 1])
        del args[k:k + 2]
    keep = "--keep" in args
    args = [a for a in args if a != "--keep"]
    size_mib = int(args[0]) if args else 512
    path = os.path.join(tempfile.gettempdir(), f"bench-strings-{size_mib}m.img")
    if not os.path.exists(path) or os.path.getsize(path) != size_mib << 20:
        t = time.perf_counter()
        make_image(path + ".part", size_mib << 20)
        os.replace(path + ".part", path)
        print(f"made {path} in {time.perf_counter() - t:.1f} s")
    env_python = [sys.executable, "-m", "inspector"]
    ours = env_python + ["strings", "-n", "6", path]
    gnu = ["strings", "-n", "6", path]
    scan = env_python + ["scan", path]
    out_ours = path + ".ours.txt"
    out_gnu = path + ".gnu.txt"
    print(f"file: {size_mib} MiB; {rounds} rounds, each: GNU strings, then ours")
    ratios = []
    for i in range(rounds):
        g = measure(gnu, out_gnu)
        o = measure(ours, out_ours)
        ratios.append(g[0] / o[0])
        print(f"round {i + 1}: GNU strings -n 6 {g[0]:6.2f} s wall {g[1]:6.2f} s CPU {g[2]:7.1f} MiB | "
              f"utf8-inspector strings -n 6 {o[0]:6.2f} s wall {o[1]:6.2f} s CPU {o[2]:7.1f} MiB | "
              f"ratio GNU/ours {g[0] / o[0]:.2f}")
    s = measure(scan, os.devnull)
    print(f"utf8-inspector scan: {s[0]:.2f} s wall, {s[1]:.2f} s CPU, peak {s[2]:.1f} MiB "
          f"(largest process)")
    print(f"ratio GNU time / ours: min {min(ratios):.2f}, median {sorted(ratios)[len(ratios) // 2]:.2f}, "
          f"max {max(ratios):.2f}")
    lines_gnu = sum(1 for _ in open(out_gnu, "rb"))
    lines_ours = sum(1 for _ in open(out_ours, "rb"))
    print(f"lines: GNU {lines_gnu:,}, ours {lines_ours:,}")
    if not keep:
        for p in (out_ours, out_gnu):
            os.unlink(p)


if __name__ == "__main__":
    main()
