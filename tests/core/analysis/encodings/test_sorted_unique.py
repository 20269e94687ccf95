"""stretches.sorted_unique equals np.unique, and a verdict never loads numpy.ma (which
numpy 2's np.unique imports: ~1 MiB for the window's lifetime)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from inspector.core.analysis.encodings.stretches import sorted_unique

ROOT = Path(__file__).resolve().parents[4]


@given(st.lists(st.integers(-5, 2**40), max_size=60))
def test_equals_np_unique(values):
    a = np.array(values, dtype=np.int64)
    got, want = sorted_unique(a), np.unique(a)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_verdict_does_not_load_numpy_ma(tmp_path):
    # Long lines and a run of NULs: both ways a cell is cut (where np.unique was).
    path = tmp_path / "padded.bin"
    path.write_bytes("héllo wörld ".encode() * 1000 + b"\0" * 5000 + "naïve\n".encode() * 100)
    code = ("import sys\n"
            "from inspector.core.analysis import verdict\n"
            "from inspector.core.scan.scanner import scan\n"
            "from inspector.core.source.bytesource import FileSource\n"
            f"src = FileSource({str(path)!r})\n"
            "verdict.verdict(scan(src), src)\n"
            "print('numpy.ma' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "False"
