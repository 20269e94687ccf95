"""Text runs: the printable stretches of UTF-8 or UTF-16 text in any bytes (what
``strings`` finds), as the unit contract defines them ("Text runs")."""

from inspector.core.analysis.textruns.finder import (ALL, DEFAULT_MIN_CHARS, ENCODINGS, UTF8,
                                                     UTF16BE, UTF16LE, RunBatch, ScriptSets,
                                                     encodings_of, find_runs)
from inspector.core.analysis.textruns.text import decode_run, run_text, texts_utf8

__all__ = ["ALL", "DEFAULT_MIN_CHARS", "ENCODINGS", "UTF8", "UTF16BE", "UTF16LE", "RunBatch",
           "ScriptSets", "decode_run", "encodings_of", "find_runs", "run_text", "texts_utf8"]
