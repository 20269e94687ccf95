"""`scan DIR --jsonl` on a tree of 3,000 small files against a CPython loop that decodes
the same files with errors='replace': both as whole processes, in the same run.

    python3 tests/benchmarks/bench_corpus.py [N_FILES] [--jobs N] [--floor]

The tree: files of 1-30 KB in several scripts; ~8 % random bytes (binary), ~12 % with a
few corrupted bytes, ~5 % in a legacy charset, the rest valid UTF-8. The goal (issue 15):
ratio = loop time / scan time >= 0.5. The scan's counts are checked against the loop's
(replacement characters and code points per file must agree).

``--floor`` also times what no report can do without, on 2 processes: walking, reading,
hashing, decoding and printability as the scan does them, and a JSON line of a report's
size per file, with nothing of the contract's analysis (units by length, error kinds,
warnings, first errors, lines, the verdict and its map). The room left between that and
twice the loop is what the analysis may cost.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = ["Hello world, plain ASCII text line. ", "héllo wörld café naïve ",
           "Привет, как дела? Съешь же ещё этих булок. ", "Γειά σου κόσμε, καλημέρα. ",
           "日本語のテキストです。漢字とかな。 ", "مرحبا بالعالم ", "emoji 😀🎉 and more ", "中文文本，测试。"]

LOOP = r"""
import os, sys, json
out = {}
for dp, dn, fn in os.walk(sys.argv[1]):
    dn.sort()
    for f in sorted(fn):
        p = os.path.join(dp, f)
        with open(p, 'rb') as fh:
            t = fh.read().decode('utf-8', 'replace')
        out[p] = (t.count('\ufffd'), len(t))
json.dump(out, sys.stdout)
"""

FLOOR = r"""
import os, sys, json, hashlib
from concurrent.futures import ProcessPoolExecutor

def report(p):
    st = os.stat(p)
    with open(p, 'rb') as fh:
        data = fh.read()
    sha = hashlib.sha256(data).hexdigest()
    try:
        t, valid = data.decode('utf-8'), True
    except UnicodeDecodeError:
        t, valid = data.decode('utf-8', 'replace'), False
    printable = t.replace('\n', '').isprintable()
    return json.dumps({'path': p, 'size': st.st_size, 'mtime_ns': st.st_mtime_ns, 'sha256': sha,
                       'valid': valid, 'code_points': len(t), 'printable': printable,
                       'replacements': t.count('\ufffd'), 'by_kind': dict.fromkeys('abcdefghij', 0),
                       'warnings': dict.fromkeys('abcdefghij', 0), 'pad': '.' * 800},
                      ensure_ascii=False) + '\n'

def task(paths):
    return ''.join(map(report, paths))

if __name__ == '__main__':
    paths = []
    for dp, dn, fn in os.walk(sys.argv[1]):
        dn.sort()
        paths += [os.path.join(dp, f) for f in sorted(fn)]
    with ProcessPoolExecutor(2) as ex:
        for out in ex.map(task, [paths[i:i + 16] for i in range(0, len(paths), 16)]):
            sys.stdout.write(out)
"""


def make_tree(root: str, n: int, seed: int = 15) -> None:
    rng = random.Random(seed)
    for i in range(n):
        d = os.path.join(root, f"d{i % 30:02d}", f"s{i % 7}")
        os.makedirs(d, exist_ok=True)
        size = rng.randint(1000, 30000)
        s, t = rng.choice(SAMPLES), rng.choice(SAMPLES)
        parts, length = [], 0
        while length < size:
            piece = (s if rng.random() < .7 else t) + ("\n" if rng.random() < .2 else "")
            parts.append(piece)
            length += len(piece.encode())
        data = "".join(parts).encode()[:size]
        r = rng.random()
        if r < 0.08:
            data = rng.randbytes(size)
        elif r < 0.20:
            b = bytearray(data)
            for _ in range(rng.randint(1, 5)):
                b[rng.randrange(len(b))] = rng.choice([0xC0, 0xFF, 0x80, 0xE2])
            data = bytes(b)
        elif r < 0.25:
            data = ("façade déjà vu, garçon\n" * (size // 24)).encode("latin-1")
        else:
            data = data.decode("utf-8", "ignore").encode()
        with open(os.path.join(d, f"f{i:05d}.txt"), "wb") as f:
            f.write(data)


CPU = []  # (command, CPU seconds of it and its children): wall time drifts with the load


def timed(cmd) -> tuple[float, bytes]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append((cmd[1], after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
    return wall, run.stdout


def main() -> None:
    args = sys.argv[1:]
    jobs = []
    if "--jobs" in args:
        k = args.index("--jobs")
        jobs = ["--jobs", args[k + 1]]
        del args[k:k + 2]
    floor = "--floor" in args
    if floor:
        args.remove("--floor")
    n = int(args[0]) if args else 3000
    # An installed wheel comes with its bytecode (pip compiles it); a checkout run under
    # PYTHONDONTWRITEBYTECODE would compile every module in every process instead.
    subprocess.run([sys.executable, "-m", "compileall", "-q", "inspector"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        make_tree(tmp, n)
        subprocess.run([sys.executable, "-m", "inspector", "scan", "--jsonl", tmp],
                       capture_output=True, cwd=ROOT)  # warm the page cache and the table cache
        loops, scans, floors = [], [], []
        for _ in range(3):
            t, out = timed([sys.executable, "-c", LOOP, tmp])
            loops.append(t)
            ref = json.loads(out)
            if floor:
                floors.append(timed([sys.executable, "-c", FLOOR, tmp])[0])
            t, out = timed([sys.executable, "-m", "inspector", "scan", "--jsonl", *jobs, tmp])
            scans.append(t)
        reports = [json.loads(x) for x in out.splitlines()]
        assert len(reports) == n == len(ref)
        for r in reports:
            repl, chars = ref[r["path"]]
            assert r["errors"]["replacements"] == repl and r["code_points"] + repl == chars, r["path"]
        loop, scan = min(loops), min(scans)
        print(f"{n} files: decode loop {loop:.2f} s, scan --jsonl {' '.join(jobs)} {scan:.2f} s, "
              f"ratio {loop / scan:.2f} (goal >= 0.5)")
        loop_cpu = min(c for cmd, c in CPU if cmd == "-c")
        scan_cpu = min(c for cmd, c in CPU if cmd == "-m")
        print(f"CPU (user+sys, with children): loop {loop_cpu:.2f} s, scan {scan_cpu:.2f} s, "
              f"ratio {loop_cpu / scan_cpu:.2f}; load {os.getloadavg()[0]:.1f}")
        if floor:
            print(f"floor (read, hash, decode, printable, a JSON line; 2 processes): "
                  f"{min(floors):.2f} s, ratio {loop / min(floors):.2f}")


if __name__ == "__main__":
    main()
