"""``make load LOAD_TOPOLOGY=cluster`` leaves nothing behind after a clean run (its journals and
the nodes' logs go with the cluster), and keeps them for a look after one that is not."""

from __future__ import annotations

from types import SimpleNamespace

from cluster.topology import Topology
from loadtest.cluster_load import ClusterLoadRun


def stubbed_run(tmp_path) -> tuple[ClusterLoadRun, list[str]]:
    run = ClusterLoadRun(game="foursquare", workdir=tmp_path / "load",
                         topology=Topology(root=tmp_path / "cluster"))
    (run.workdir / "journal").mkdir(parents=True)
    calls: list[str] = []
    run.cluster = SimpleNamespace(stop=lambda: calls.append("stop"), pids={},
                                  postmaster_pid=lambda server: None)
    return run, calls


def test_a_clean_run_deletes_its_folder_with_the_cluster(tmp_path):
    run, calls = stubbed_run(tmp_path)
    run.cleanup(keep=False)
    assert calls == ["stop"] and not run.workdir.exists()


def test_a_run_that_is_not_clean_keeps_its_folder(tmp_path, capsys):
    run, calls = stubbed_run(tmp_path)
    run.cleanup(keep=True)
    assert calls == [] and (run.workdir / "journal").exists()
    assert "make cluster-stop" in capsys.readouterr().out
