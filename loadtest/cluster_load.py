"""``make load LOAD_TOPOLOGY=cluster``: the same loads and audits, played through HAProxy in front
of ``make cluster``'s topology (cluster/topology.py), started afresh for each load with the
load's rate limits and stopped after its audit.

Besides each game's report it prints, per app node, the CPU per move or action and the
requests and sockets HAProxy gave it; the primary's, the replica's, PgBouncer's, HAProxy's and
Redis's CPU; the replica's share of the reads (statements that read, counted by
``pg_stat_statements`` on each server); and PgBouncer's pools (``SHOW POOLS``, sampled every
half second: the most clients active and waiting, the most server connections in use, the
longest wait). The cluster's Prometheus scrapes both nodes throughout; after the load the
report prints its queries over the load's window (p95 of a move's or action's latency and
requests/s per node, moves or actions stored, rate-limit refusals, the job queue's depth) beside
locust's figures, and checks that they agree (loadtest/prometheus_check.py says within what,
and why): a disagreement fails the run as the audit's violations do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field

from cluster.topology import Cluster, Topology
from loadtest import prometheus_check
from loadtest.run import LOAD_RATES, LoadRun, tree

# Statements that read: SELECT or WITH, writing nothing.
_READS = ("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d "
          "ON d.oid = s.dbid WHERE d.datname = current_database() "
          "AND query ~* '^\\s*(select|with)\\M' AND query !~* '\\m(insert|update|delete)\\M'")


@dataclass
class ClusterLoadRun(LoadRun):
    topology: Topology = field(default_factory=Topology)
    cluster: Cluster | None = None
    pools: dict[str, float] = field(default_factory=dict)
    reads_before: dict[str, int] = field(default_factory=dict)
    window_start: float = 0.0  # the load's start (Unix time), for Prometheus's queries
    # Ask Prometheus after the load (the drills do not: a node they kill has no scrape after).
    prometheus: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        self.database = self.topology.database
        self.port = self.topology.port
        self.workers, self.threads = self.topology.node_workers, self.topology.node_threads
        self.redis_url = self.topology.redis_url()
        self.cluster = Cluster(self.topology)

    def describe_server(self) -> str:
        t = self.topology
        split = (": requests to app2, sockets to app1, 255 to 1 (CLUSTER_SPLIT)"
                 if t.split else "")
        return (f"HAProxy over {len(t.node_ports)} nodes of gunicorn {t.node_workers} x "
                f"server.worker.Worker ({t.node_threads} threads), {t.jobs_workers} jobs "
                f"workers, PgBouncer (transaction mode), a primary and its streaming "
                f"replica{split}")

    @property
    def database_url(self) -> str:  # the audit reads the primary itself
        return self.topology.primary_url()

    @property
    def host(self) -> str:
        return self.topology.host

    # --- the topology instead of one server ---

    def create_database(self) -> None:
        """``start_server`` makes the whole cluster, its database fresh and migrated."""

    def start_server(self) -> None:
        """The cluster, its coming dailies prepared before any node or jobs worker starts (as
        one server's load prepares them), its nodes without access logs (as one server's)."""
        self.topology.access_logs = False
        self.cluster.start(extra_env={**LOAD_RATES, "DJANGO_LOG_LEVEL": "WARNING",
                                      # as one server's load: no levels' games in its CPU
                                      "SPITE_MALICE_LEVELS_PLAY": "false",
                                      **self.extra_env},
                           after_migrate=self.prepare_dailies)

    def read_server_figures(self) -> dict:
        """The cluster's own Prometheus reports its nodes' times (``loadtest.prometheus_check``)."""
        return {}

    def read_route_cpu(self) -> dict | None:
        """Per node, in the cluster's own Prometheus, as the times."""
        return None

    def start_jobs(self) -> None:
        """The cluster's two jobs workers are up with it."""

    def stop_server(self) -> None:
        """Stop the front and the app tier; the databases stay up for the audit."""
        for name in ("haproxy", *self.topology.node_names(), "jobs1", "jobs2"):
            self.cluster.stop_part(name)
        # The nodes' logs as one, where the drills' digests look for the app's log.
        with open(self.workdir / "gunicorn.log", "w") as log:
            for name in self.topology.node_names():
                path = self.topology.logs / f"{name}.log"
                if path.exists():
                    log.write(path.read_text(errors="replace"))

    def cleanup(self, keep: bool) -> None:
        if keep:  # the parts stopped, their logs and data kept for a look
            for name in list(self.cluster.pids):
                self.cluster.stop_part(name)
            for server in ("replica", "primary"):
                if self.cluster.postmaster_pid(server):
                    self.cluster.stop_postgres(server)
            print(f"cluster kept in {self.topology.root}: `make cluster-stop` deletes it")
        else:
            self.cluster.stop()
            # The journals and the nodes' logs, as one server's load removes them.
            shutil.rmtree(self.workdir, ignore_errors=True)

    def worker_pids(self) -> list[int]:
        return [child.pid for name in self.topology.node_names()
                for child in tree(self.cluster.pids[name])[1:]]

    def node_of(self, pid: int) -> str:
        for name in self.topology.node_names():
            if pid in [process.pid for process in tree(self.cluster.pids[name])]:
                return name
        return "?"

    def parties(self) -> dict:
        cluster = self.cluster

        def pids(*names: str):
            return lambda: [p for name in names if name in cluster.pids
                            for p in tree(cluster.pids[name])]

        def postgres(server: str):
            return lambda: tree(cluster.postmaster_pid(server) or 0)

        return {**{name: pids(name) for name in self.topology.node_names()},
                "jobs": pids("jobs1", "jobs2"), "primary": postgres("primary"),
                "replica": postgres("replica"), "pgbouncer": pids("pgbouncer"),
                "haproxy": pids("haproxy"), "redis": pids("redis"),
                "prometheus": pids("prometheus")}

    def backend_meter(self):
        return None  # the primary and the replica are this load's alone: their whole trees

    # --- the cluster's own figures ---

    def reads(self) -> dict[str, int]:
        counts = {}
        for server in ("primary", "replica"):
            try:
                counts[server] = int(self.cluster.sql(server, _READS)[0][0])
            except (subprocess.CalledProcessError, IndexError, ValueError):
                counts[server] = 0  # stopped by a drill
        return counts

    def measure_start(self) -> None:
        self.reads_before = self.reads()
        self.pools = {}
        self.window_start = time.time()

    def measure_sample(self) -> None:
        try:
            rows = self.cluster.pgbouncer("SHOW POOLS")
        except (subprocess.CalledProcessError, OSError):
            return  # restarted by a drill
        for row in rows:
            if row.get("database") != self.topology.database:
                continue
            for column in ("cl_active", "cl_waiting", "sv_active", "sv_idle", "maxwait"):
                value = float(row.get(column) or 0)
                self.pools[column] = max(self.pools.get(column, 0.0), value)

    def prometheus_figures(self, end: float) -> dict:
        """Prometheus's queries over the load's window (``prometheus_check.collect``), or
        ``{"error": why}`` when it cannot be asked."""
        if not self.prometheus:
            return {"error": "not asked"}
        prometheus = prometheus_check.Prometheus(self.topology.prometheus_url)
        try:
            return prometheus_check.collect(prometheus, prometheus_check.unit_of(self.game),
                                            self.window_start, end)
        except (OSError, RuntimeError, ValueError, KeyError) as error:
            return {"error": f"{type(error).__name__}: {error}"}

    def measure_end(self) -> dict:
        end = time.time()
        after = self.reads()
        reads = {server: after[server] - self.reads_before.get(server, 0) for server in after}
        nodes: dict[str, dict[str, int]] = {}
        try:
            stat = self.cluster.haproxy("show stat")
        except OSError:
            stat = ""
        lines = stat.lstrip("# ").splitlines()
        header = lines[0].split(",") if lines else []
        for line in lines[1:]:
            row = dict(zip(header, line.split(","), strict=False))
            if row.get("svname") in self.topology.node_names():
                node = nodes.setdefault(row["svname"], {})
                kind = "sockets" if row["pxname"] == "sockets" else "requests"
                node[kind] = int(row.get("stot") or 0)
                node[f"{kind} 5xx"] = int(row.get("hrsp_5xx") or 0)
        return {"cluster": {"reads": reads, "pools": dict(self.pools), "nodes": nodes,
                            "prometheus": self.prometheus_figures(end)}}

    def print_topology(self, report: dict, machine: dict) -> bool:
        figures = machine.get("cluster", {})
        units, unit = acknowledged(report)
        cpu = machine["cpu_seconds"]
        print(f"-- the cluster ({os.cpu_count()} cores shared by every part)")
        for name in self.topology.node_names():
            node = figures.get("nodes", {}).get(name, {})
            per = f"{cpu.get(name, 0.0) * 1000 / units:.1f} ms CPU per {unit}" if units else ""
            print(f"node {name}: {per}; {node.get('requests', 0)} requests, "
                  f"{node.get('sockets', 0)} sockets (HAProxy's count, 5xx: "
                  f"{node.get('requests 5xx', 0)})")
        if units:
            print(f"per {unit}, ms CPU: " + ", ".join(
                f"{name} {cpu.get(name, 0.0) * 1000 / units:.2f}"
                for name in ("primary", "replica", "pgbouncer", "haproxy", "redis", "jobs",
                             "prometheus")))
        reads = figures.get("reads", {})
        total = sum(reads.values())
        if total:
            print(f"reads (statements): primary {reads['primary']}, replica {reads['replica']}: "
                  f"the replica's share {reads['replica'] / total:.1%}")
        pools = figures.get("pools", {})
        if pools:
            print("PgBouncer's pool at its fullest: " + ", ".join(
                f"{name} {value:.0f}" for name, value in pools.items()))
        return self.print_prometheus(figures.get("prometheus") or {"error": "not asked"},
                                     units)

    def print_prometheus(self, figures: dict, acknowledged_units: int) -> bool:
        """Prometheus's figures beside locust's, and whether they agree."""
        if "error" in figures:
            print(f"-- Prometheus: could not be asked ({figures['error']}): DISAGREE")
            return False
        unit = prometheus_check.unit_of(self.game)
        checks = prometheus_check.compare(
            figures, prometheus_check.LocustSide.of(self.journals()), unit, acknowledged_units)
        for line in prometheus_check.report_lines(figures, checks, unit):
            print(line)
        agree = all(check.ok for check in checks)
        print("Prometheus and locust: " + ("agree" if agree else "DISAGREE (see above)"))
        return agree


def acknowledged(report: dict) -> tuple[int, str]:
    """The run's units of work: moves (Foursquare, races) or actions (Spite & Malice)."""
    if "actions" in report:
        return report["actions"]["actions_acknowledged"], "action"
    moves = report.get("db") or report.get("moves") or {}
    return moves.get("moves_acknowledged", 0), "move"
