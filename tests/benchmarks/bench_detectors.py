"""The verdict against the field's charset detectors on the labelled corpus
(``tests/data/charsets``), in one run (run directly; not collected by pytest).

    python3 tests/benchmarks/bench_detectors.py [--show-failures] [--only SUBSTRING]
    python3 tests/benchmarks/bench_detectors.py --chardet-corpus [--runs N] [--show-failures]

``--chardet-corpus`` scores the tools on chardet 5.2.0's test set instead (real web pages
and texts labelled by folder; fetched with pip once, never committed; skipped without a
network), each run as a whole process, with ranges over ``--runs`` runs, then per file in this
process (the verdict on a finished scan against ``chardet.detect`` on the whole file).

Scored on every file that has one encoding (mixed files are checked for their map by
``tests/core/analysis/test_charset_corpus.py``; here only their verdict code is shown):

* strict: the encoding named is the file's, or a superset counted as the same answer
  (``labelled.SUPERSETS``, chardet's convention);
* lenient: it decodes the file to the same text.

The tools: this project (``utf8-inspector scan DIR --jsonl`` as a whole process; the
encoding named is ``verdict_details.encoding`` for a legacy charset, the region's codec
for UTF-16/32, UTF-8 for the UTF-8 verdicts, the largest region's for ``mixed``),
chardet 7 (``chardet.detect``), charset-normalizer (``from_bytes(...).best()``) and
cchardet (faust-cchardet), each also timed as a whole process over the same folder
(import, walk, read, detect; wall and CPU seconds: on a shared machine the wall time
says mostly how busy the others were), with chardet's own command line ``chardetect``
beside them; and per file in this process, in CPU time, the tools taking turns over
``ROUNDS`` rounds (detect only; for the project: scan + verdict, as ``scan`` does per
file, and the verdict alone on a finished scan, also split into legacy and Unicode
files, and the legacy ones by kind: tiny, short, long, html, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.data.charsets import labelled as L  # noqa: E402

DETECT_LOOP = r"""
import os, sys, json, time
t0 = time.perf_counter()
tool = sys.argv[2]
if tool == 'chardet':
    import chardet
    detect = lambda b: chardet.detect(b)['encoding']
elif tool == 'charset-normalizer':
    from charset_normalizer import from_bytes
    def detect(b):
        best = from_bytes(b).best()
        return best.encoding if best else None
else:
    import cchardet
    detect = lambda b: cchardet.detect(b)['encoding']
out = {}
for dp, dn, fn in os.walk(sys.argv[1]):
    dn.sort()
    for f in sorted(fn):
        p = os.path.join(dp, f)
        with open(p, 'rb') as fh:
            out[p] = detect(fh.read())
json.dump(out, sys.stdout)
"""

TOOLS = ("utf8-inspector", "chardet", "charset-normalizer", "cchardet")


def project_named(report: dict) -> str | None:
    code = report["verdict_code"]
    details = report.get("verdict_details") or {}
    regions = report.get("regions") or []
    if code in ("valid", "valid_bom", "problems", "truncated_end", "mojibake") or code.startswith("dialect_"):
        return "utf-8"
    if code in ("utf16", "utf32"):
        return regions[0]["encoding"] if regions else None
    if code == "legacy_charset":
        return details.get("encoding")
    if code == "mixed" and regions:
        sizes = defaultdict(int)
        for r in regions:
            sizes[r["encoding"]] += r["end"] - r["start"]
        return max(sizes.items(), key=lambda kv: kv[1])[0]
    return None


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed_run(cmd, **kw) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall seconds, CPU seconds of the process and its children, the result). On a
    shared machine the wall time mostly says how busy the others were; CPU time is
    the cost."""
    c0, t0 = _children_cpu(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return time.perf_counter() - t0, _children_cpu() - c0, out


# The project's modules are compiled to bytecode once, as an installed package has
# them (pip compiles on install; PYTHONDONTWRITEBYTECODE would make every run compile
# them again, ~0.1 s), into a cache outside the tree.
PYCACHE = os.path.join(tempfile.gettempdir(), "utf8-inspector-bench-pycache")


def project_env() -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": PYCACHE}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


CPU: dict[str, float] = {}


def run_project(folder: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-c", "import sys; from inspector.cli import main; sys.exit(main())",
           "scan", folder, "--jsonl"]
    subprocess.run(cmd, capture_output=True, cwd=ROOT, env=project_env())  # warm-up, bytecode
    took, CPU["utf8-inspector"], out = timed_run(cmd, cwd=ROOT, env=project_env())
    reports = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            reports[r["path"]] = r
    return took, reports


def run_library(folder: str, tool: str) -> tuple[float, dict]:
    took, CPU[tool], out = timed_run([sys.executable, "-c", DETECT_LOOP, folder, tool])
    out.check_returncode()
    return took, json.loads(out.stdout)


def run_chardetect(folder: str) -> tuple[float, float] | None:
    """chardet's own command line over the same files: (wall, CPU) seconds."""
    exe = shutil.which("chardetect")
    if exe is None:
        return None
    paths = [os.path.join(dp, f) for dp, _, fn in sorted(os.walk(folder)) for f in sorted(fn)]
    took, cpu, out = timed_run([exe, *paths])
    out.check_returncode()
    return took, cpu


def per_file_times(cases) -> dict[str, float]:
    """CPU seconds per file in this process, per (group, tool): the sorted rounds
    (group "": every file; "legacy", "unicode": the verdict and chardet only)."""
    import cchardet
    import chardet
    from charset_normalizer import from_bytes

    from inspector.core.analysis.verdict import verdict
    from inspector.core.scan.scanner import scan
    from inspector.core.source.bytesource import MemorySource

    def ours(b):
        src = MemorySource(b)
        return verdict(scan(src), src)

    scanned = {}
    for c in cases:
        src = MemorySource(c.data)
        scanned[id(c.data)] = (scan(src), src)

    def verdict_only(b):
        return verdict(*scanned[id(b)])

    fns = {"utf8-inspector": ours, "verdict only": verdict_only, "chardet": chardet.detect,
           "charset-normalizer": lambda b: from_bytes(b).best(), "cchardet": cchardet.detect}
    for fn in fns.values():
        fn(cases[0].data)
    # CPU time of this process, the tools taking turns round after round (a busy
    # neighbour then slows them alike); each tool's best round, and the range.
    groups = {"": cases, "legacy": [c for c in cases if not c.encoding.startswith("utf")],
              "unicode": [c for c in cases if c.encoding.startswith("utf")]}
    for c in groups["legacy"]:  # and the legacy files by kind (tiny, short, long, html...)
        kind = getattr(c, "kind", "")
        if kind:
            groups.setdefault("legacy " + kind, []).append(c)
    rounds: dict = defaultdict(list)
    for _ in range(ROUNDS):
        for g, cs in groups.items():
            if not cs:
                continue
            for tool, fn in fns.items():
                if g and tool not in ("verdict only", "chardet"):
                    continue
                t0 = time.process_time()
                for c in cs:
                    fn(c.data)
                rounds[(g, tool)].append((time.process_time() - t0) / len(cs))
    return {key: sorted(v) for key, v in rounds.items()}


ROUNDS = 7

# ------------------------------------------------------------------ chardet's test files
# chardet 5.2.0's source distribution holds its test set: real web pages and texts in ~50
# charsets, in folders named by charset (and language). Their licences are not stated, so
# they are never committed: fetched with pip on demand (a network is needed once; the
# run is skipped without one) into a cache outside the tree.
CHARDET_SDIST = "chardet==5.2.0"
CHARDET_CACHE = os.path.join(tempfile.gettempdir(), "utf8-inspector-chardet-corpus")
_LANGUAGE_SUFFIXES = ("-arabic", "-bulgarian", "-croatian", "-czech", "-greek", "-hebrew",
                      "-hungarian", "-polish", "-romanian", "-russian", "-slovak", "-slovene",
                      "-turkish")
_FOLDER_CODECS = {"ibm855": "cp855", "ibm866": "cp866", "maccyrillic": "mac-cyrillic",
                  "macroman": "mac-roman", "utf-8-sig": "utf-8"}


def chardet_corpus() -> str | None:
    """The folder of chardet 5.2.0's test files (downloaded once), or None."""
    tests = os.path.join(CHARDET_CACHE, "chardet-5.2.0", "tests")
    if os.path.isdir(tests):
        return tests
    import tarfile

    os.makedirs(CHARDET_CACHE, exist_ok=True)
    got = subprocess.run([sys.executable, "-m", "pip", "download", CHARDET_SDIST,
                          "--no-binary", ":all:", "--no-deps", "-d", CHARDET_CACHE],
                         capture_output=True, text=True, timeout=300)
    archives = [f for f in os.listdir(CHARDET_CACHE) if f.endswith(".tar.gz")]
    if got.returncode or not archives:
        return None
    with tarfile.open(os.path.join(CHARDET_CACHE, archives[0])) as tar:
        members = [m for m in tar.getmembers() if "/tests/" in m.name and m.isfile()]
        tar.extractall(CHARDET_CACHE, members=members, filter="data")
    return tests if os.path.isdir(tests) else None


def folder_label(path: str) -> str:
    """The charset of a chardet test file, from its folder's name."""
    name = os.path.basename(os.path.dirname(path)).lower()
    for suffix in _LANGUAGE_SUFFIXES:
        name = name.removesuffix(suffix)
    return _FOLDER_CODECS.get(name, name)


def _family_right(expected: str, detected: str | None) -> bool:
    """Strictly right; a BOM's "UTF-16" (or 32) folder is right for either byte order."""
    if expected in ("utf-16", "utf-32") and detected and detected.startswith(expected):
        return True
    return L.strict_right(expected, detected)


def chardet_corpus_main(runs: int, show_failures: bool) -> int:
    folder = chardet_corpus()
    if folder is None:
        print(f"skipped: cannot fetch {CHARDET_SDIST}'s source distribution (no network?)")
        return 0
    files = sorted(os.path.join(dp, f) for dp, _, fn in os.walk(folder) for f in fn
                   if f != "README.txt")
    print(f"chardet 5.2.0's test files: {len(files)} files, "
          f"{sum(os.path.getsize(f) for f in files):,} bytes; {runs} runs, the tools taking "
          "turns (process: the tool over the folder, import, walk, read, detect)\n")
    named: dict = {}
    times: dict = defaultdict(list)
    for _ in range(runs):
        took, reports = run_project(folder)
        times["utf8-inspector"].append((took, CPU["utf8-inspector"]))
        named["utf8-inspector"] = {os.path.realpath(p): project_named(r) for p, r in reports.items()}
        for tool in TOOLS[1:]:
            took, out = run_library(folder, tool)
            times[tool].append((took, CPU[tool]))
            named[tool] = {os.path.realpath(p): v for p, v in out.items()}
    print(f"{'tool':20} {'strict':>8} {'lenient':>8} {'wall s':>12} {'CPU s':>12} "
          f"{'CPU/file ms':>12} {'CPU vs chardet':>15}")
    chardet_cpu = sorted(c for _, c in times["chardet"])
    for tool in TOOLS:
        strict = lenient = 0
        fails = []
        for f in files:
            det = named[tool].get(os.path.realpath(f))
            exp = folder_label(f)
            s = _family_right(exp, det)
            strict += s
            with open(f, "rb") as fh:
                lenient += s or L.lenient_right(fh.read(), exp, det)
            if not s:
                fails.append((os.path.relpath(f, folder), exp, det))
        walls = sorted(w for w, _ in times[tool])
        cpus = sorted(c for _, c in times[tool])
        ratios = sorted(c / d for (_, c), (_, d) in zip(times[tool], times["chardet"]))
        print(f"{tool:20} {100 * strict / len(files):7.1f}% {100 * lenient / len(files):7.1f}% "
              f"{walls[0]:5.2f}-{walls[-1]:5.2f} {cpus[0]:5.2f}-{cpus[-1]:5.2f} "
              f"{1000 * cpus[len(cpus) // 2] / len(files):12.2f} "
              f"{ratios[0]:6.2f}-{ratios[-1]:5.2f}")
        if show_failures:
            for name, exp, det in fails:
                print(f"    {name:60} want {exp:14} got {det}")
    print(f"\n(chardet's process CPU: {chardet_cpu[0]:.2f}-{chardet_cpu[-1]:.2f} s; "
          "the ratio is per run, the tools run back to back)")
    cases = []
    for f in files:
        with open(f, "rb") as fh:
            cases.append(_File(fh.read(), folder_label(f)))
    per_file = per_file_times(cases)
    v, c = per_file[("", "verdict only")], per_file[("", "chardet")]
    print(f"\nper file in this process, CPU ms, best of {ROUNDS} interleaved rounds (and the worst):"
          f"\n  verdict only {1000 * v[0]:.3f} ({1000 * v[-1]:.3f})   chardet.detect "
          f"{1000 * c[0]:.3f} ({1000 * c[-1]:.3f})   ratio {v[0] / c[0]:.2f}")
    return 0


class _File:
    """A chardet test file as :func:`per_file_times` takes it."""

    def __init__(self, data: bytes, encoding: str):
        self.data = data
        self.encoding = encoding


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--chardet-corpus", action="store_true",
                    help="score on chardet 5.2.0's test files instead (fetched with pip once)")
    ap.add_argument("--runs", type=int, default=3, help="runs with --chardet-corpus")
    args = ap.parse_args()
    if args.chardet_corpus:
        return chardet_corpus_main(args.runs, args.show_failures)
    cases = [c for c in L.cases() if args.only in c.name]
    with tempfile.TemporaryDirectory() as tmp:
        by_path = L.write_tree(tmp, cases)
        took = {}
        named = {}
        took["utf8-inspector"], reports = run_project(tmp)
        named["utf8-inspector"] = {p: project_named(r) for p, r in reports.items()}
        for tool in TOOLS[1:]:
            took[tool], named[tool] = run_library(tmp, tool)
        cli = run_chardetect(tmp)
    scored = [(p, c) for p, c in by_path.items() if c.encoding != "mixed"]
    per_file = per_file_times([c for _, c in scored])
    print(f"{len(by_path)} files ({len(scored)} with one encoding, "
          f"{sum(len(c.data) for c in by_path.values()):,} bytes)\n")
    print("process: the tool over the folder as a whole process, wall and CPU seconds;")
    print(f"per file: CPU ms in this process, best of {ROUNDS} interleaved rounds (and the worst)\n")
    print(f"{'tool':20} {'strict':>8} {'lenient':>8} {'wall':>7} {'CPU':>7} {'per file':>17}")

    def spell(times):
        return f"{1000 * times[0]:6.3f} ({1000 * times[-1]:.3f})"

    failures = {}
    for tool in TOOLS:
        strict = lenient = 0
        fails = []
        for p, c in scored:
            det = named[tool].get(p)
            s = L.strict_right(c.encoding, det)
            if tool == "utf8-inspector":
                s = s and reports[p]["verdict_code"] == c.code
            l_ok = s or L.lenient_right(c.data, c.encoding if c.encoding != "utf-8-sig" else "utf-8", det)
            strict += s
            lenient += l_ok
            if not s:
                fails.append((c, det, l_ok))
        failures[tool] = fails
        n = len(scored)
        print(f"{tool:20} {100 * strict / n:7.1f}% {100 * lenient / n:7.1f}% "
              f"{took[tool]:6.2f}s {CPU[tool]:6.2f}s {spell(per_file[('', tool)])}")
    if cli is not None:
        print(f"{'chardetect (CLI)':20} {'':8} {'':8} {cli[0]:6.2f}s {cli[1]:6.2f}s")
    print(f"{'  verdict only':20} {'':8} {'':8} {'':7} {'':7} {spell(per_file[('', 'verdict only')])}"
          "   (the verdict on a finished scan, as scan --jsonl asks it)")
    kinds = sorted(g for g, tool in per_file if g.startswith("legacy ") and tool == "chardet")
    for g in ("legacy", "unicode", *kinds):
        if ("legacy", "chardet") in per_file and (g, "chardet") in per_file:
            v, c = per_file[(g, "verdict only")], per_file[(g, "chardet")]
            n = sum(1 for _, k in scored
                    if not k.encoding.startswith("utf") and g == "legacy " + k.kind) if g in kinds else 0
            label = f"{g} files" + (f" ({n})" if n else "")
            print(f"  {label:26} verdict only {spell(v)}   chardet {spell(c)}   "
                  f"ratio {v[0] / c[0]:.2f}")
    print("\nstrict failures by charset family (label):")
    fam = defaultdict(lambda: defaultdict(int))
    for tool, fails in failures.items():
        for c, _, _ in fails:
            fam[c.encoding][tool] += 1
    print(f"{'encoding':14}" + "".join(f"{t[:12]:>14}" for t in TOOLS))
    for enc in sorted(fam):
        print(f"{enc:14}" + "".join(f"{fam[enc].get(t, 0):>14}" for t in TOOLS))
    by_kind = defaultdict(lambda: defaultdict(int))
    for tool, fails in failures.items():
        for c, _, _ in fails:
            by_kind[c.kind][tool] += 1
    print("\nstrict failures by kind of file:")
    for kind in sorted(by_kind):
        total = sum(1 for _, c in scored if c.kind == kind)
        print(f"{kind:14}" + "".join(f"{by_kind[kind].get(t, 0):>14}" for t in TOOLS) + f"   of {total}")
    mixed = [(p, c) for p, c in by_path.items() if c.encoding == "mixed"]
    print("\nmixed files, the project's verdict:")
    for p, c in mixed:
        r = reports[p]
        got = [(x["start"], x["end"], x["encoding"]) for x in r["regions"]]
        print(f"  {c.name}: {r['verdict_code']} (want {c.code}); regions {got}; want {c.regions}")
    if args.show_failures:
        for tool in TOOLS:
            print(f"\n{tool} failures:")
            for c, det, l_ok in failures[tool]:
                extra = ""
                if tool == "utf8-inspector":
                    r = reports[os.path.join(tmp, c.name)]
                    extra = f" [{r['verdict_code']}: {r['verdict']}]"
                print(f"  {c.name:40} want {c.encoding:12} got {det}{' (lenient ok)' if l_ok else ''}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
