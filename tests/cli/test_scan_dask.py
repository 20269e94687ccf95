"""`scan --dask ADDRESS`: the same tasks (files, and slices of a large file) on a Dask
cluster of worker processes give the reports of a local scan."""

import json

import pytest

from inspector.cli import scan as S
from inspector.core.analysis import batch as BA
from inspector.core.scan import parallel as PS

from test_scan_jobs import comparable, make_tree

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as c:
        yield c


def test_dask_equals_local(tmp_path, capsys, monkeypatch, cluster):
    monkeypatch.setattr(PS, "MIN_PARALLEL_BYTES", 256 << 10)
    monkeypatch.setattr(PS, "TASK_BYTES", 64 << 10)
    monkeypatch.setattr(BA, "BATCH_FILES", 4)
    make_tree(tmp_path, n=30, big=500 << 10)
    assert S.main(["--jsonl", "--jobs", "1", str(tmp_path)]) == 1
    local = [comparable(json.loads(x)) for x in capsys.readouterr().out.splitlines()]
    cut = []
    real = PS.segment
    monkeypatch.setattr(PS, "segment", lambda *a: cut.append(type(a[-1]).__name__) or real(*a))
    assert S.main(["--jsonl", "--dask", cluster.scheduler_address, str(tmp_path)]) == 1
    remote = [comparable(json.loads(x)) for x in capsys.readouterr().out.splitlines()]
    assert cut == ["_ClusterExecutor"]  # the large file went to the cluster in slices
    assert remote == local and len(local) == 31


def test_without_distributed_says_how_to_install(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    (tmp_path / "a.txt").write_bytes(b"a\n")
    assert S.main(["--dask", "tcp://127.0.0.1:1", str(tmp_path)]) == 2
    assert "pip install 'utf8-inspector[cluster]'" in capsys.readouterr().err
