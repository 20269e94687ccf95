"""What each repair policy would do, before anything is written: :func:`preview` shows
what each policy makes of the problem units near an offset (beside Python's own error
handlers), :func:`policy_counts` counts what each policy would change in the whole file.
The policies and the repair itself are in :mod:`inspector.core.analysis.repair`.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit, units_in_range
from inspector.core.analysis.search import Progress
from inspector.core.analysis.repair import (DEFAULT_CHUNK, POLICIES, PYTHON_ERROR_HANDLERS,
                                            RunRewriter, chunks_with_runs, repair_dialect,
                                            resolve_policy, unit_text)


class PreviewItem:
    """One problem unit near the offset: what each policy writes for it (``results``)
    and what Python's decoder gives for its bytes (``python``: errors handler -> text)."""

    __slots__ = ("unit", "raw", "results", "python")

    def __init__(self, unit: Unit, raw: bytes, results: dict[str, str], python: dict[str, str]):
        self.unit = unit
        self.raw = raw
        self.results = results
        self.python = python

    @property
    def offset(self) -> int:
        return self.unit.offset

    @property
    def kind(self) -> str:
        return self.unit.kind

    def __repr__(self):
        return f"PreviewItem({self.unit.offset}, {self.unit.kind}, {self.raw.hex(' ')})"


class Preview:
    """The problems in [start, end) and the text of that whole window under each policy
    (``text``) and under Python's error handlers (``python``)."""

    __slots__ = ("start", "end", "dialect", "items", "text", "python")

    def __init__(self, start, end, dialect, items, text, python):
        self.start = start
        self.end = end
        self.dialect = dialect
        self.items = items
        self.text = text
        self.python = python


def _python_decodings(raw: bytes) -> dict[str, str]:
    return {h: raw.decode("utf-8", h) for h in PYTHON_ERROR_HANDLERS}


def preview(source, offset: int, policies=POLICIES, dialect: str = K.UTF8,
            radius: int = 64) -> Preview:
    """What each policy makes of the problem units within ``radius`` bytes of ``offset``
    (cut from the start of the file, as the repair cuts it)."""
    cut_dialect = repair_dialect(dialect)
    for p in policies:
        resolve_policy(p)
    units = units_in_range(source, offset - radius, offset + radius, None, cut_dialect)
    if not units:
        return Preview(offset, offset, dialect, [], {p: "" for p in policies},
                       {h: "" for h in PYTHON_ERROR_HANDLERS})
    start, end = units[0].offset, units[-1].end
    window = source.read(start, end - start)
    items = []
    texts = {p: [] for p in policies}
    for u in units:
        raw = window[u.offset - start:u.end - start]
        if u.kind == K.VALID:
            # Valid units are kept; a CESU-8 pair or C0 80 becomes its character.
            for p in policies:
                texts[p].append(chr(u.value))
            continue
        results = {p: unit_text(u, raw, p) for p in policies}
        for p in policies:
            texts[p].append(results[p])
        items.append(PreviewItem(u, raw, results, _python_decodings(raw)))
    return Preview(start, end, dialect, items, {p: "".join(t) for p, t in texts.items()},
                   _python_decodings(window))


# ------------------------------------------------------------------------ policy counts

class PolicyCounts:
    """For the whole file: the problem units by kind (the same for every policy), the
    bytes they hold, and the output size each policy would give."""

    def __init__(self, dialect: str, policies):
        self.dialect = dialect
        self.units_by_kind: Counter = Counter()
        self.converted: Counter = Counter()
        self.problem_bytes = 0
        self.replacements = 0
        self.input_size = 0
        self.output_size = {p: 0 for p in policies}

    @property
    def problem_units(self) -> int:
        return sum(self.units_by_kind.values())

    def units_changed(self, policy: str) -> int:
        """Units the policy would rewrite (every problem unit, whichever the policy, plus
        the dialect's conversions)."""
        return self.problem_units + sum(self.converted.values())

    def to_dict(self) -> dict:
        return {
            "dialect": self.dialect,
            "input_size": self.input_size,
            "problem_units": self.problem_units,
            "units_by_kind": dict(self.units_by_kind),
            "converted": dict(self.converted),
            "problem_bytes": self.problem_bytes,
            "replacements": self.replacements,
            "output_size": dict(self.output_size),
        }


def policy_counts(source, dialect: str = K.UTF8, policies=POLICIES,
                  chunk_size: int = DEFAULT_CHUNK) -> Iterator[Progress]:
    """Count, for the whole file, what each policy would change; the returned generator
    yields :class:`Progress` and returns :class:`PolicyCounts`. Stop iterating to
    cancel. Unknown policies or dialects raise ValueError at once."""
    cut_dialect = repair_dialect(dialect)
    policies = tuple(policies)
    maps = [resolve_policy(p) for p in policies]
    counts = PolicyCounts(K.check_dialect(dialect), policies)
    return _counts_gen(source, cut_dialect, policies, maps, max(chunk_size, 64), counts)


def _counts_gen(source, cut_dialect, policies, maps, chunk_size, counts):
    rewriter = RunRewriter(cut_dialect, maps)
    sizes = [0] * len(policies)
    stats: Counter = Counter()
    for pos, view, runs in chunks_with_runs(source, cut_dialect, chunk_size, stats):
        valid_bytes = len(view)
        for a, b in runs:
            valid_bytes -= b - a
            effect = rewriter.effect(bytes(view[a:b]))
            for k, out in enumerate(effect.outputs):
                sizes[k] += len(out)
            for kind, n in effect.kinds:
                counts.units_by_kind[kind] += n
            for name, n in effect.converted:
                counts.converted[name] += n
            counts.problem_bytes += effect.problem_bytes
            counts.replacements += effect.replacements
        for k in range(len(sizes)):
            sizes[k] += valid_bytes
        yield Progress(stats["read"], source.size)
    counts.input_size = stats["read"]
    counts.output_size = dict(zip(policies, sizes))
    return counts
