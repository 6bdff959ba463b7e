"""``make load LOAD_TOPOLOGY=cluster`` leaves nothing behind after a clean run (its journals and
the nodes' logs go with the cluster), and keeps them for a look after one that is not."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

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


def test_the_load_starts_the_cluster_with_its_dailies_prepared_and_no_access_logs(tmp_path):
    """Without the dailies prepared before the nodes start, the cluster's jobs workers would
    solve the next nine days during the play, as one server's load once did."""
    run, _ = stubbed_run(tmp_path)
    started: list[dict] = []
    run.cluster.start = lambda **given: started.append(given)
    run.start_server()

    assert len(started) == 1 and started[0]["after_migrate"] == run.prepare_dailies
    assert run.topology.access_logs is False


@pytest.mark.parametrize("access_logs", [True, False])
def test_a_node_keeps_its_access_log_unless_the_topology_says_not(tmp_path, access_logs):
    from cluster.topology import Cluster

    topology = Topology(root=tmp_path / "cluster", access_logs=access_logs)
    for folder in (topology.root, topology.logs, topology.run):
        folder.mkdir(parents=True, exist_ok=True)  # as Cluster.start makes them
    cluster = Cluster(topology)
    spawned: list[list[str]] = []
    cluster._spawn = lambda name, command, env=None: spawned.append(command)
    cluster.start_node(topology.node_names()[0])
    assert ("--access-logfile" in spawned[0]) is access_logs
