"""Text runs written out: one record per run (the command line's JSON lines, the dock's
exports) and CSV / JSON files written through :mod:`inspector.core.source.safewrite`
(beside the target, renamed onto it at the end; never the inspected file)."""

from __future__ import annotations

import csv
import json

import numpy as np

from inspector.core.source.safewrite import AtomicWriter, check_target
from inspector.core.analysis.textruns.text import ENCODINGS, decode_run

FIELDS = ("offset", "length", "chars", "text", "encoding", "scripts", "damaged_before",
          "damaged_after")
CSV_COLUMNS = ("offset", "length", "chars", "encoding", "scripts", "damaged_before",
               "damaged_after", "text")
FORMATS = ("csv", "json")
STEP = 20_000  # runs between two progress reports


def record(runs, i: int, text: str, sets) -> dict:
    """Run ``i`` of ``runs`` (a RunBatch) as the JSON object the contract names."""
    return {"offset": int(runs.offset[i]), "length": int(runs.length[i]),
            "chars": int(runs.chars[i]), "text": text,
            "encoding": ENCODINGS[int(runs.encoding[i])],
            "scripts": sets.names(int(runs.script_set[i])),
            "damaged_before": bool(runs.damaged_before[i]),
            "damaged_after": bool(runs.damaged_after[i])}


def export_steps(target, fmt: str, runs, rows: np.ndarray, source, sets, dialect: str):
    """Write the runs ``rows`` (indices into ``runs``) of ``source`` to ``target`` as CSV
    or JSON, yielding the fraction done now and then; returns how many were written.
    Closing the generator (a cancel) leaves ``target`` as it was."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    check_target(target, source)
    total = len(rows)
    with AtomicWriter(target) as writer:
        out = writer.file
        if fmt == "csv":
            w = csv.writer(out, lineterminator="\n")
            w.writerow(CSV_COLUMNS)
        else:
            out.write("[")
        for k, i in enumerate(rows.tolist()):
            raw = source.read(int(runs.offset[i]), int(runs.length[i]))
            rec = record(runs, i, decode_run(raw, ENCODINGS[int(runs.encoding[i])], dialect),
                         sets)
            if fmt == "csv":
                w.writerow([rec["offset"], rec["length"], rec["chars"], rec["encoding"],
                            " ".join(rec["scripts"]), int(rec["damaged_before"]),
                            int(rec["damaged_after"]), rec["text"]])
            else:
                out.write(("\n " if k == 0 else ",\n ") + json.dumps(rec, ensure_ascii=False))
            if k % STEP == STEP - 1:
                yield (k + 1) / max(total, 1)
        if fmt == "json":
            out.write("\n]\n")
    return total
