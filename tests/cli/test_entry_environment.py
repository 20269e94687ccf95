"""The command line's entry sets up the process before numpy is imported: OpenBLAS
gets one thread (nothing here does linear algebra; each thread it starts costs every
worker process CPU), unless the user chose a number."""

import os
import subprocess
import sys

import pytest

PROBE = """
import os, sys
from inspector.cli import main
main(["--version"])
import numpy
print(os.environ["OPENBLAS_NUM_THREADS"], len(os.listdir("/proc/self/task")))
"""


def run_probe(**env_changes) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env.update(env_changes)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         env=env, check=True).stdout
    return out.splitlines()[-1].split()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads counted in /proc")
def test_numpy_starts_no_blas_threads_under_the_command_line():
    setting, threads = run_probe()
    assert setting == "1"
    assert threads == "1"


def test_the_users_setting_wins():
    setting, _ = run_probe(OPENBLAS_NUM_THREADS="2")
    assert setting == "2"
