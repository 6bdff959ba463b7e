"""The cluster on one machine (``make cluster``): every part a deployment scaled past one
machine runs, on loopback ports, out of Debian's packages.

- HAProxy on ``CLUSTER_PORT`` (8480) in front: round robin, no sticky sessions, WebSocket
  upgrades on ``/ws/``, ``/healthz`` checked every second (``cluster/haproxy.cfg``);
- two app nodes, gunicorn on 8481 and 8482 (``CLUSTER_NODE_WORKERS`` workers each, jobs off);
- two ``manage.py run_jobs`` workers;
- PgBouncer on 6442 in transaction mode in front of the primary (``cluster/pgbouncer.ini``);
- a PostgreSQL primary of its own on 5442 and a streaming replica on 5443 made from it with
  ``pg_basebackup`` (Debian's PostgreSQL binaries; ``CLUSTER_REPLICA_DELAY`` sets the replica's
  ``recovery_min_apply_delay``, e.g. ``3s``, to watch it lag);
- Redis on 6392, shared by the nodes and the workers;
- Prometheus on 9490 (Debian's ``prometheus``), scraping both nodes' ``/metrics`` every 5 s
  with the cluster's metrics token (``cluster/prometheus.yml``'s settings, the loopback
  targets), its data in the cluster's folder.

``CLUSTER_SPLIT=1`` sends 255 of every 256 requests to app2 and as many sockets to app1
(HAProxy's weights), so that nearly every event a socket delivers was stored by the other node.

The primary is a cluster of its own rather than the machine's 5432 one: streaming from that one
would need a replication entry in its pg_hba.conf, would replay every other database on it into
the replica, and the drills stop and start parts that the machine's other users share.

Everything lives under ``CLUSTER_DIR`` (default ``$TMPDIR/foursquare-cluster``): the data
folders, the sockets, the pid files and ``logs/``, one log per part. ``stop`` stops every part
and deletes the folder: nothing is left behind. The app connects through PgBouncer
(``DATABASE_URL``) and reads the boards from the replica (``DATABASE_REPLICA_URL``); the
migrations and the jobs workers use the primary directly (the workers ``LISTEN`` for new jobs,
which a transaction-mode pooler cannot carry).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
PACKAGES = {"haproxy": "haproxy", "pgbouncer": "pgbouncer", "redis-server": "redis-server",
            "pg_basebackup": "postgresql-15", "prometheus": "prometheus"}
WAIT_SECONDS = 60.0


def _env(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def pg_bin(name: str) -> str:
    """A PostgreSQL server binary (initdb, pg_ctl): Debian keeps them out of PATH."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for folder in versions:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install Debian's postgresql package")
    return found


def install_missing() -> None:
    """Install from Debian's packages the parts this machine lacks (apt-get update once)."""
    missing = sorted({package for command, package in PACKAGES.items()
                      if shutil.which(command) is None and not _in_sbin(command)})
    if not missing:
        return
    if os.geteuid() != 0:
        raise SystemExit(f"missing {', '.join(missing)}: apt-get install them (as root)")
    print(f"cluster: installing {', '.join(missing)} from Debian's packages", flush=True)
    subprocess.run(["apt-get", "update"], check=True)
    subprocess.run(["apt-get", "install", "-y", *missing], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    # Debian's packages start their own services where an init system runs: this cluster runs
    # its own copies on its own ports, and leaves those alone.


def _in_sbin(command: str) -> bool:
    return any(Path(folder, command).exists() for folder in ("/usr/sbin", "/sbin"))


def _which(command: str) -> str:
    for folder in ("/usr/sbin", "/sbin"):
        if Path(folder, command).exists():
            return str(Path(folder, command))
    return shutil.which(command) or command


@dataclass
class Topology:
    """Where each part listens and keeps its files; ``CLUSTER_*`` overrides."""

    root: Path = field(default_factory=lambda: Path(_env(
        "CLUSTER_DIR", str(Path(tempfile.gettempdir()) / "foursquare-cluster"))))
    port: int = int(_env("CLUSTER_PORT", "8480"))
    node_ports: tuple[int, ...] = (int(_env("CLUSTER_NODE1_PORT", "8481")),
                                   int(_env("CLUSTER_NODE2_PORT", "8482")))
    pgbouncer_port: int = int(_env("CLUSTER_PGBOUNCER_PORT", "6442"))
    primary_port: int = int(_env("CLUSTER_PRIMARY_PORT", "5442"))
    replica_port: int = int(_env("CLUSTER_REPLICA_PORT", "5443"))
    redis_port: int = int(_env("CLUSTER_REDIS_PORT", "6392"))
    prometheus_port: int = int(_env("CLUSTER_PROMETHEUS_PORT", "9490"))
    database: str = _env("CLUSTER_DATABASE", "foursquare_cluster")
    node_workers: int = int(_env("CLUSTER_NODE_WORKERS", "2"))
    node_threads: int = int(_env("CLUSTER_NODE_THREADS", "2"))
    jobs_workers: int = 2
    replica_delay: str = _env("CLUSTER_REPLICA_DELAY", "")
    # Requests to app2 and sockets to app1 (255 to 1), so that nearly every event a socket
    # delivers was stored by the other node: the load's delivery figures are across nodes.
    split: bool = _env("CLUSTER_SPLIT", "0") not in ("0", "false")
    # Each node's access log (logs/<node>-access.log), a line a request: what an operator reads
    # first. The load leaves it out, as a single server's load does: it cost the workers 3% of
    # their time (py-spy, docs/OPERATIONS.md).
    access_logs: bool = True

    # --- places ---

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def primary_data(self) -> Path:
        return self.root / "primary"

    @property
    def replica_data(self) -> Path:
        return self.root / "replica"

    @property
    def prometheus_data(self) -> Path:
        return self.root / "prometheus"

    @property
    def metrics_token_file(self) -> Path:
        """The nodes' metrics token, for Prometheus's ``credentials_file``."""
        return self.run / "metrics-token"

    @property
    def prometheus_url(self) -> str:
        return f"http://127.0.0.1:{self.prometheus_port}"

    @property
    def state_file(self) -> Path:
        return self.run / "state.json"

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def node_names(self) -> list[str]:
        return [f"app{number}" for number in range(1, len(self.node_ports) + 1)]

    # --- URLs ---

    def primary_url(self, database: str | None = None) -> str:
        return f"postgres://postgres@127.0.0.1:{self.primary_port}/{database or self.database}"

    def pooled_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{self.database}"

    def replica_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.replica_port}/{self.database}"

    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # --- the app's environment ---

    def secrets(self) -> dict[str, str]:
        """The secrets every node and worker shares (a production deployment's own), made once
        per cluster and kept in its folder."""
        path = self.run / "secrets.json"
        if not path.exists():
            path.write_text(json.dumps({
                name: secrets.token_urlsafe(50)
                for name in ("DJANGO_SECRET_KEY", "FOURSQUARE_DAILY_SECRET",
                             "SPITE_MALICE_DAILY_SECRET", "FOURSQUARE_METRICS_TOKEN")}))
            path.chmod(0o600)
        return json.loads(path.read_text())

    def app_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """An app node's environment: the pooler for writes, the replica for the boards."""
        return {
            **os.environ, **self.secrets(),
            "DATABASE_URL": self.pooled_url(),
            "DATABASE_PREPARED_STATEMENTS": "false",
            "DATABASE_REPLICA_URL": self.replica_url(),
            "REDIS_URL": self.redis_url(),
            "REDIS_KEY_PREFIX": "cluster",
            "FOURSQUARE_BACKGROUND": "off",
            "FOURSQUARE_DATA_DIR": str(self.root / "data"),
            # HAProxy appends the client's address to X-Forwarded-For.
            "DJANGO_NUM_PROXIES": "1",
            "GUNICORN_WORKERS": str(self.node_workers),
            "GUNICORN_THREADS": str(self.node_threads),
            **(extra or {}),
        }

    def prometheus_config(self, interval: str = "5s") -> dict:
        """Prometheus's configuration for this cluster: ``cluster/prometheus.yml``'s (the compose
        profile's) job, scraping each node at its loopback port with a ``node`` label (app1,
        app2) and the token from ``metrics_token_file``. Written as JSON, which is YAML."""
        return {
            "global": {"scrape_interval": interval, "evaluation_interval": interval},
            "scrape_configs": [{
                "job_name": "foursquare",
                "metrics_path": "/metrics",
                "authorization": {"type": "Bearer",
                                  "credentials_file": str(self.metrics_token_file)},
                "static_configs": [
                    {"targets": [f"127.0.0.1:{port}"], "labels": {"node": name}}
                    for name, port in zip(self.node_names(), self.node_ports, strict=True)],
            }],
        }

    def jobs_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """A jobs worker's: the primary directly (it LISTENs), no replica."""
        env = self.app_env(extra)
        env.pop("DATABASE_REPLICA_URL")
        env.update(DATABASE_URL=self.primary_url(), DATABASE_PREPARED_STATEMENTS="true")
        return env


# --- processes ---------------------------------------------------------------------------------

def _as_postgres() -> list[str]:
    """PostgreSQL and PgBouncer refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _give_to_postgres(*paths: Path) -> None:
    if os.geteuid() == 0:
        for path in paths:
            shutil.chown(path, "postgres", "postgres")


def _port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _wait(what: str, ready: Callable[[], bool], log: Path | None = None,
          seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            where = f": see {log}" if log else ""
            raise RuntimeError(f"{what} did not come up within {seconds:.0f} s{where}")
        time.sleep(0.1)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


class Cluster:
    """Starts, stops and finds the parts of a ``Topology``. The pids of what it started are
    kept in ``run/state.json``, so ``make cluster-stop`` (another process) stops them."""

    def __init__(self, topology: Topology | None = None) -> None:
        self.topology = topology or Topology()
        self.pids: dict[str, int] = {}
        if self.topology.state_file.exists():
            self.pids = json.loads(self.topology.state_file.read_text())["pids"]

    def _save(self) -> None:
        self.topology.state_file.write_text(json.dumps({"pids": self.pids}))

    def _spawn(self, name: str, command: list[str], env: dict[str, str] | None = None,
               cwd: Path = REPO) -> int:
        log = open(self.topology.logs / f"{name}.log", "ab")  # noqa: SIM115 - the child's
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=log,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        self.pids[name] = process.pid
        self._save()
        return process.pid

    # --- the whole ---

    def start(self, extra_env: dict[str, str] | None = None,
              after_migrate: Callable[[], None] | None = None) -> None:
        """Every part, from nothing; a fresh database. ``extra_env`` goes to the nodes and
        workers (the load's rate limits); ``after_migrate`` runs once the database is migrated,
        before any node or jobs worker starts (the load prepares the coming dailies there)."""
        t = self.topology
        if t.state_file.exists() or t.root.exists():
            self.stop()
        busy = [port for port in (t.port, *t.node_ports, t.pgbouncer_port, t.primary_port,
                                  t.replica_port, t.redis_port, t.prometheus_port)
                if _port_open(port)]
        if busy:
            raise SystemExit(f"ports {busy} are taken: stop what listens there, or set "
                             "CLUSTER_* ports (cluster/topology.py)")
        install_missing()
        for folder in (t.root, t.logs, t.run, t.root / "data"):
            folder.mkdir(parents=True, exist_ok=True)
        t.root.chmod(0o755)
        _give_to_postgres(t.root, t.logs, t.run)
        started = time.monotonic()
        self.start_redis()
        self.start_primary()
        self.start_replica()
        self.start_pgbouncer()
        self.migrate(extra_env)
        if after_migrate is not None:
            after_migrate()
        for name in t.node_names():
            self.start_node(name, extra_env)
        for number in range(1, t.jobs_workers + 1):
            self.start_jobs(f"jobs{number}", extra_env)
        self.start_haproxy()
        for name, port in zip(t.node_names(), t.node_ports, strict=True):
            _wait(f"node {name}", lambda port=port: _healthy(f"http://127.0.0.1:{port}/healthz"),
                  t.logs / f"{name}.log")
        _wait("HAProxy", lambda: _healthy(f"{t.host}/healthz"), t.logs / "haproxy.log")
        self.start_prometheus()
        print(f"cluster: up in {time.monotonic() - started:.1f} s on {t.host} "
              f"(logs in {t.logs})", flush=True)

    def stop(self) -> None:
        """Every part, then the folder: nothing left behind."""
        t = self.topology
        for name in [*sorted(self.pids, key=_stop_order)]:
            if name in ("primary", "replica"):
                continue
            self.stop_part(name)
        for data in (t.replica_data, t.primary_data):
            if (data / "postmaster.pid").exists():
                self.pg_ctl(data, "stop", "-m", "fast")
        self.pids.clear()
        shutil.rmtree(t.root, ignore_errors=True)

    def stop_part(self, name: str, sig: int = signal.SIGTERM, wait: float = 30.0) -> None:
        """Stop one process part (its whole session) and wait for it to go."""
        pid = self.pids.get(name)
        if pid is None:
            return
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            pass
        else:
            deadline = time.monotonic() + wait
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _alive(pid):
                os.killpg(pid, signal.SIGKILL)
                while _alive(pid):
                    time.sleep(0.05)
        self.pids.pop(name, None)
        if self.topology.run.exists():
            self._save()

    # --- parts ---

    def start_redis(self) -> None:
        t = self.topology
        self._spawn("redis", [_which("redis-server"), "--bind", "127.0.0.1", "--port",
                              str(t.redis_port), "--save", "", "--appendonly", "no",
                              "--dir", str(t.run)])
        _wait("Redis", lambda: _port_open(t.redis_port), t.logs / "redis.log")

    def pg_ctl(self, data: Path, *args: str) -> None:
        subprocess.run([*_as_postgres(), pg_bin("pg_ctl"), "-D", str(data), "-w", *args],
                       check=True, stdout=subprocess.DEVNULL)

    def _pg_log(self, name: str) -> Path:
        log = self.topology.logs / f"{name}.log"
        log.touch()
        _give_to_postgres(log)
        return log

    def start_primary(self) -> None:
        t = self.topology
        subprocess.run([*_as_postgres(), pg_bin("initdb"), "-D", str(t.primary_data),
                        "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                        "--locale=C.UTF-8"], check=True, stdout=subprocess.DEVNULL)
        with open(t.primary_data / "postgresql.conf", "a") as conf:
            conf.write("\n# make cluster (cluster/topology.py)\n"
                       f"port = {t.primary_port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{t.run}'\n"
                       "wal_level = replica\nmax_wal_senders = 5\nhot_standby = on\n"
                       # PgBouncer lends connections per transaction: no session SET from Django.
                       "timezone = 'UTC'\nmax_connections = 100\nshared_buffers = 64MB\n"
                       # The load's report counts each server's reads (the replica's share).
                       "shared_preload_libraries = 'pg_stat_statements'\n")
        with open(t.primary_data / "pg_hba.conf", "a") as hba:
            hba.write("host replication all 127.0.0.1/32 trust\n")
        self.start_postgres("primary")
        subprocess.run([*_as_postgres(), pg_bin("createdb"), "-h", "127.0.0.1", "-p",
                        str(t.primary_port), "-U", "postgres", t.database], check=True)
        self.sql("primary", "CREATE EXTENSION pg_stat_statements")

    def sql(self, server: str, query: str) -> list[list[str]]:
        """A query on the primary or the replica (psql, as the postgres user), as rows."""
        t = self.topology
        port = t.primary_port if server == "primary" else t.replica_port
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                              "-d", t.database, "-AtX", "-F", "\t", "-c", query],
                             capture_output=True, text=True, check=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]

    def start_postgres(self, name: str) -> None:
        data = self.topology.primary_data if name == "primary" else self.topology.replica_data
        self.pg_ctl(data, "-l", str(self._pg_log(name)), "start")

    def stop_postgres(self, name: str) -> None:
        data = self.topology.primary_data if name == "primary" else self.topology.replica_data
        self.pg_ctl(data, "stop", "-m", "fast")

    def start_replica(self) -> None:
        t = self.topology
        subprocess.run([*_as_postgres(), pg_bin("pg_basebackup"), "-h", "127.0.0.1", "-p",
                        str(t.primary_port), "-U", "postgres", "-D", str(t.replica_data),
                        "-R", "-X", "stream", "-c", "fast"], check=True)
        with open(t.replica_data / "postgresql.conf", "a") as conf:
            conf.write(f"\n# the replica\nport = {t.replica_port}\nhot_standby_feedback = on\n")
            if t.replica_delay:
                conf.write(f"recovery_min_apply_delay = '{t.replica_delay}'\n")
        self.start_postgres("replica")

    def start_pgbouncer(self) -> None:
        t = self.topology
        (t.run / "userlist.txt").write_text('"postgres" ""\n')
        ini = string.Template((HERE / "pgbouncer.ini").read_text()).substitute(
            database=t.database, primary_port=t.primary_port, port=t.pgbouncer_port,
            run=t.run, logs=t.logs)
        (t.run / "pgbouncer.ini").write_text(ini)
        log = self._pg_log("pgbouncer")
        _give_to_postgres(t.run / "userlist.txt", t.run / "pgbouncer.ini", log)
        self._spawn("pgbouncer", [*_as_postgres(), _which("pgbouncer"),
                                  str(t.run / "pgbouncer.ini")])
        _wait("PgBouncer", lambda: _port_open(t.pgbouncer_port), log)

    def restart_pgbouncer(self) -> None:
        self.stop_part("pgbouncer")
        self.start_pgbouncer()

    def migrate(self, extra_env: dict[str, str] | None = None) -> None:
        env = self.topology.jobs_env(extra_env)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=REPO, env=env, check=True)

    def start_node(self, name: str, extra_env: dict[str, str] | None = None) -> None:
        t = self.topology
        port = t.node_ports[t.node_names().index(name)]
        gunicorn = str(Path(sys.executable).parent / "gunicorn")
        access = (["--access-logfile", str(t.logs / f"{name}-access.log")] if t.access_logs
                  else [])
        self._spawn(name, [gunicorn, "--bind", f"127.0.0.1:{port}", *access],
                    env=t.app_env(extra_env))

    def start_jobs(self, name: str, extra_env: dict[str, str] | None = None) -> None:
        self._spawn(name, [sys.executable, "manage.py", "run_jobs"],
                    env=self.topology.jobs_env(extra_env))

    def start_haproxy(self) -> None:
        t = self.topology
        app = dict(zip(["APP1", "APP2"],
                       (f"127.0.0.1:{port}" for port in t.node_ports), strict=True))
        # Not 0 for the other node: a weight of 0 takes no traffic even when the only other
        # server is down (a busy node's checks time out), and HAProxy answers 503 meanwhile.
        weights = ({"APP1_HTTP_WEIGHT": "1", "APP2_HTTP_WEIGHT": "255",
                    "APP1_SOCKET_WEIGHT": "255", "APP2_SOCKET_WEIGHT": "1"} if t.split else {})
        self._spawn("haproxy", [_which("haproxy"), "-db", "-f", str(HERE / "haproxy.cfg")],
                    env={**os.environ, **app, **weights, "FRONT_BIND": f"127.0.0.1:{t.port}",
                         "STATS_SOCKET": str(t.run / "haproxy.sock")})

    def start_prometheus(self) -> None:
        """Prometheus scraping both nodes, its data (the TSDB) under the cluster's folder, so
        ``stop`` deletes it with the rest. Ready once ``/-/ready`` answers 200."""
        t = self.topology
        t.metrics_token_file.write_text(self.topology.secrets()["FOURSQUARE_METRICS_TOKEN"])
        t.metrics_token_file.chmod(0o600)
        config = t.run / "prometheus.yml"
        config.write_text(json.dumps(t.prometheus_config(), indent=2))
        self._spawn("prometheus", [
            _which("prometheus"), f"--config.file={config}",
            f"--storage.tsdb.path={t.prometheus_data}",
            f"--web.listen-address=127.0.0.1:{t.prometheus_port}",
            # A load's window is minutes: a day is plenty, and nothing outlives the cluster.
            "--storage.tsdb.retention.time=1d"])
        _wait("Prometheus", lambda: _healthy(f"{t.prometheus_url}/-/ready"),
              t.logs / "prometheus.log")

    # --- looking in ---

    def postmaster_pid(self, name: str) -> int | None:
        data = self.topology.primary_data if name == "primary" else self.topology.replica_data
        try:
            return int((data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def haproxy(self, command: str) -> str:
        """A command on HAProxy's stats socket (``show stat``, ``disable server app/app1``)."""
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(str(self.topology.run / "haproxy.sock"))
            conn.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def pgbouncer(self, command: str) -> list[dict[str, str]]:
        """A command on PgBouncer's admin console (``SHOW POOLS``), as rows."""
        t = self.topology
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(t.pgbouncer_port), "-U",
                              "postgres", "-d", "pgbouncer", "--csv", "-c", command],
                             capture_output=True, text=True, check=True).stdout
        lines = out.strip().splitlines()
        header = lines[0].split(",") if lines else []
        return [dict(zip(header, line.split(","), strict=False)) for line in lines[1:]]

    def status(self) -> dict[str, bool]:
        parts = {name: _alive(pid) for name, pid in self.pids.items()}
        for name in ("primary", "replica"):
            pid = self.postmaster_pid(name)
            parts[name] = pid is not None and _alive(pid)
        return parts


def _stop_order(name: str) -> int:
    """The front first, the stores last: nothing writes to a store that is gone."""
    order = ["prometheus", "haproxy", "app", "jobs", "pgbouncer", "redis"]
    return next((i for i, prefix in enumerate(order) if name.startswith(prefix)), len(order))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie of ours is gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
