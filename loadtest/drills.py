"""``make drill``: faults injected in the middle of a load run, then ``make load``'s audit.

    python -m loadtest.drills [worker] [postgres] [redis] [sm-worker] [sm-postgres] [sm-redis]
        [clocks-worker] [clocks-long-job]
        [cluster-node] [cluster-jobs] [cluster-pgbouncer] [cluster-replica] [cluster-redis]
    (all by default; ``DRILLS="sm-worker sm-redis"`` in the environment picks some)

- worker: ``kill -9`` of one gunicorn worker. Its clients lose their connections and send the
  same moves again with the same Idempotency-Key; every move must be stored exactly once.
- postgres: PostgreSQL restarted (``pg_ctlcluster``; this touches every database on the machine,
  so it is kept to one fast restart). Requests must fail fast as 503 problem+json, never a 500
  or a stack trace, and the service must recover by itself.
- redis: the app's Redis stopped and started again. The game must go on (throttling pauses)
  and the log must say so.

The ``sm-`` drills do the same under Spite & Malice's load (``loadtest/sm_locustfile.py``:
friend pairs holding their match's socket, players against the bot) and end with its audit
(``loadtest/verify_sm.py``), which also checks that every seat's sockets delivered the feed in
order, none twice and none skipped, across their reconnections:

- sm-worker: ``kill -9`` of the worker holding the most sockets. Its sockets break and its
  requests in flight get no answer: the clients open their sockets again with ``?after=`` the
  last event they hold, and send their actions again with the same Idempotency-Key.
- sm-postgres: PostgreSQL restarted as above; sockets whose feed read failed are closed (1011)
  and reconnect.
- sm-redis: the app's own Redis (cache, presence, channel layer) stopped for FAULT_AT/2 seconds
  and started again: the sockets fall back to checking the feed, and their notices resume.

The ``clocks-`` drills (``loadtest/clock_drills.py``) stall Spite & Malice seats on their
turn's clock and check that each times out on time, exactly once, its deadline never moved:

- clocks-worker: the jobs' worker stopped, the app processes up.
- clocks-long-job: the worker busy with twelve analyses while a guest plays the bot, whose
  turns must start at once beside them.

The ``cluster-`` drills run on ``make cluster``'s topology, started afresh for each
(``loadtest/cluster_load.py``), through HAProxy, and end with the same audits:

- cluster-node: ``kill -9`` of app node app1 (master and workers) under Spite & Malice's load:
  HAProxy finds it refusing and takes it out, its sockets reconnect to app2 with ``?after=``,
  its requests in flight are sent again with their keys;
- cluster-jobs: ``kill -9`` of one of the two ``run_jobs`` workers under Spite & Malice's load
  (the bot's turns, the clocks): the other carries on;
- cluster-pgbouncer: PgBouncer restarted under Foursquare's load;
- cluster-replica: the replica stopped for FAULT_AT/2 seconds and started again under
  Foursquare's load, whose visitors read the boards from it: they fall back to the primary;
- cluster-redis: the cluster's Redis stopped and started again under Spite & Malice's load;
- cluster-lag: no load; the replica replays DRILL_REPLICA_LAG (3) seconds late, and a player who
  has just finished today's daily reads their result (statistics, standing on the board) at
  once, while a visitor's read of their profile (the replica's) shows it only after the lag
  (``drill_read_your_writes``).

Environment: DRILL_USERS=20 DRILL_SECONDS=30 DRILL_FAULT_AT=10, DRILL_SM_FRIENDS=40
DRILL_SM_BOTS=10 (Spite & Malice's players), DRILL_PG_CLUSTER (default: the one cluster under
/etc/postgresql, "main"), and LOAD_* as for loadtest.run.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from datetime import UTC, datetime

import psutil

from loadtest import clock_drills
from loadtest.run import LoadRun, env, free_port

USERS = int(env("DRILL_USERS", "20"))
SECONDS = int(env("DRILL_SECONDS", "30"))
FAULT_AT = float(env("DRILL_FAULT_AT", "10"))
SM_FRIENDS = env("DRILL_SM_FRIENDS", "40")
SM_BOTS = env("DRILL_SM_BOTS", "10")


def _cluster() -> str:
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    return f"{versions[-1] if versions else '15'} main"


PG_CLUSTER = env("DRILL_PG_CLUSTER", _cluster()).split()
CLUSTER_DRILLS = ["cluster-node", "cluster-jobs", "cluster-pgbouncer", "cluster-replica",
                  "cluster-redis", "cluster-lag"]
ALL = ["worker", "postgres", "redis", "sm-worker", "sm-postgres", "sm-redis",
       *clock_drills.NAMES, *CLUSTER_DRILLS]


def clock(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%H:%M:%S.%f")[:-3]


def _sockets_held(pid: int, port: int) -> int:
    try:
        return sum(1 for c in psutil.Process(pid).net_connections("tcp")
                   if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == port)
    except psutil.Error:
        return 0


def kill_a_worker(load: LoadRun) -> None:
    time.sleep(FAULT_AT)
    workers = load.worker_pids()
    # The worker holding the most connections (sockets and kept-alive HTTP) is the one to lose.
    held = {pid: _sockets_held(pid, load.port) for pid in workers}
    victim = max(workers, key=lambda pid: held[pid])
    load.marks["victim_connections"] = held[victim]
    load.marks["fault"] = time.time()
    os.kill(victim, signal.SIGKILL)
    load.marks["victim"] = victim
    while True:  # gunicorn's master notices and starts a replacement
        replacements = set(load.worker_pids()) - set(workers)
        if replacements:
            load.marks["replaced"] = time.time()
            return
        time.sleep(0.01)


def restart_postgres(load: LoadRun) -> None:
    time.sleep(FAULT_AT)
    load.marks["fault"] = time.time()
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *PG_CLUSTER, "restart"],
                   check=True)
    load.marks["postgres_back"] = time.time()


class OwnRedis:
    """A Redis server of the drill's own, so stopping it disturbs nobody else."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                              capture_output=True, text=True).stdout.strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def stop_and_start_redis(redis: OwnRedis):
    def during(load: LoadRun) -> None:
        time.sleep(FAULT_AT)
        load.marks["fault"] = time.time()
        redis.stop()
        time.sleep(FAULT_AT / 2)
        redis.start()
        load.marks["redis_back"] = time.time()

    return during


def summarise(name: str, load: LoadRun, machine: dict, report: dict) -> dict:
    marks = machine["marks"]
    fault = marks["fault"]
    failures = report["failure_log"]
    statuses: dict[str, int] = {}
    for _, request, status in failures:
        statuses[f"{request} {status}"] = statuses.get(f"{request} {status}", 0) + 1
    move = report["latency"].get("POST /api/v1/games/{id}/moves", {})
    summary = {
        "drill": name,
        "fault_at": clock(fault),
        "players": load.users, "seconds": load.seconds,
        "moves_acknowledged": report["db"]["moves_acknowledged"],
        "moves_stored": report["db"]["moves_stored"],
        "moves_per_second": round(move.get("per_second", 0.0), 1),
        "failed_attempts": statuses,
        "first_failure_after_fault_s": round(failures[0][0] - fault, 3) if failures else None,
        "last_failure_after_fault_s": round(failures[-1][0] - fault, 3) if failures else None,
        "violations": report["violations"],
        "clean": report["ok"],
    }
    for mark in ("replaced", "postgres_back", "redis_back"):
        if mark in marks:
            summary[f"{mark}_after_fault_s"] = round(marks[mark] - fault, 3)
    if name == "postgres" and failures:
        # Recovered: the first answered move after the last failure.
        summary["recovered_after_fault_s"] = round(failures[-1][0] - fault, 3)
    if report["samples"]:
        summary["sample_failure_bodies"] = report["samples"]
    if name == "redis":
        log = (load.workdir / "gunicorn.log").read_text(errors="replace")
        summary["log"] = [line for line in log.splitlines() if "Throttling" in line]
    return summary


def summarise_sm(name: str, load: LoadRun, machine: dict, report: dict) -> dict:
    marks = machine["marks"]
    fault = marks["fault"]
    statuses: dict[str, int] = {}
    for _, request, status in report["failure_log"]:
        statuses[f"{request} {status}"] = statuses.get(f"{request} {status}", 0) + 1
    failures = [when for when, _, _ in report["failure_log"]]
    socket_errors = [entry[0] for entry in report["socket_error_log"]]
    delivery = report["delivery"]
    summary = {
        "drill": name,
        "fault_at": clock(fault),
        "players": load.users, "seconds": load.seconds,
        "actions_acknowledged": report["actions"]["actions_acknowledged"],
        "actions_stored": report["actions"]["actions_stored"],
        "actions_per_second": round(report["actions"]["actions_acknowledged"]
                                    / (report["duration"] or 1), 1),
        "failed_attempts": statuses,
        "first_failure_after_fault_s": round(failures[0] - fault, 3) if failures else None,
        "last_failure_after_fault_s": round(failures[-1] - fault, 3) if failures else None,
        "socket_errors": report["socket_errors"],
        "socket_reconnects": report["reconnects"],
        "first_socket_error_after_fault_s": (round(socket_errors[0] - fault, 3)
                                             if socket_errors else None),
        "last_socket_error_after_fault_s": (round(socket_errors[-1] - fault, 3)
                                            if socket_errors else None),
        "socket_back_after_error_s": report["socket_recovery"],
        "events_delivered": report["sockets"]["events_delivered"],
        "delivery_ms": {key: round(delivery[key], 1) for key in ("p50", "p95", "p99", "max")},
        "delivery_p95_by_5s_window": [
            f"{start - fault:+.0f} s: p95 {p95:.0f} ms over {count}"
            for start, count, p95 in report["delivery_timeline"]],
        "reads_after_a_silent_socket": report["polls"],
        "violations": report["violations"],
        "clean": report["ok"],
    }
    for mark in ("replaced", "postgres_back", "redis_back", "victim_connections"):
        if mark in marks:
            summary[mark if mark == "victim_connections" else f"{mark}_after_fault_s"] = (
                marks[mark] if mark == "victim_connections" else round(marks[mark] - fault, 3))
    if report["samples"]:
        summary["sample_failure_bodies"] = report["samples"]
    summary["log"] = log_digest((load.workdir / "gunicorn.log").read_text(errors="replace"))
    return summary


LOG_LINE = re.compile(r"^\S+ \S+ (WARNING|ERROR|CRITICAL) (\S+): (.*)$")
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Refused|Closed)\b.*$")


def log_digest(log: str, limit: int = 12) -> list[str]:
    """The app's warnings and errors during a drill, each distinct message once with its count
    (numbers and addresses blurred so that repeats of one message count together)."""
    counts: Counter[str] = Counter()
    for line in log.splitlines():
        found = LOG_LINE.match(line)
        if found:
            text = f"{found[1]} {found[2]}: {found[3]}"
        elif EXCEPTION_LINE.match(line):
            text = f"raised {line}"
        else:
            continue
        counts[re.sub(r"\d+(\.\d+)?", "N", text)[:160]] += 1
    return [f"{count} x {text}" for text, count in counts.most_common(limit)]


# --- the cluster's drills (make cluster's topology, loadtest.cluster_load) ---------------------


def kill_a_node(load) -> None:
    """``kill -9`` of a whole app node (its gunicorn master and workers) mid-load: HAProxy
    finds it refusing and sends everything to the other node."""
    time.sleep(FAULT_AT)
    cluster = load.cluster
    load.marks["fault"] = time.time()
    os.killpg(cluster.pids["app1"], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while not _marked_down(cluster, "app1") and time.monotonic() < deadline:
        time.sleep(0.05)
    if _marked_down(cluster, "app1"):
        load.marks["node_out"] = time.time()


def _marked_down(cluster, node: str) -> bool:
    for line in cluster.haproxy("show stat").splitlines():
        fields = line.split(",")
        if len(fields) > 17 and fields[0] == "app" and fields[1] == node:
            return fields[17].startswith("DOWN")
    return False


def kill_a_jobs_worker(load) -> None:
    """``kill -9`` of one of the two ``run_jobs`` workers: the other runs the jobs and the
    clocks; a job the dead one held is claimed again once stale."""
    time.sleep(FAULT_AT)
    load.marks["fault"] = time.time()
    os.killpg(load.cluster.pids["jobs1"], signal.SIGKILL)


def restart_pgbouncer(load) -> None:
    time.sleep(FAULT_AT)
    load.marks["fault"] = time.time()
    load.cluster.restart_pgbouncer()
    load.marks["pgbouncer_back"] = time.time()


def stop_and_start_replica(load) -> None:
    """The replica stopped for FAULT_AT/2 seconds: the boards' reads fall back to the primary."""
    time.sleep(FAULT_AT)
    load.marks["fault"] = time.time()
    load.cluster.stop_postgres("replica")
    time.sleep(FAULT_AT / 2)
    load.cluster.start_postgres("replica")
    load.marks["replica_back"] = time.time()


def stop_and_start_cluster_redis(load) -> None:
    time.sleep(FAULT_AT)
    load.marks["fault"] = time.time()
    load.cluster.stop_part("redis")
    time.sleep(FAULT_AT / 2)
    load.cluster.start_redis()
    load.marks["redis_back"] = time.time()


CLUSTER_FAULTS = {
    "cluster-node": ("spite-malice", kill_a_node),
    "cluster-jobs": ("spite-malice", kill_a_jobs_worker),
    "cluster-pgbouncer": ("foursquare", restart_pgbouncer),
    "cluster-replica": ("foursquare", stop_and_start_replica),
    "cluster-redis": ("spite-malice", stop_and_start_cluster_redis),
}


def drill_cluster(name: str) -> dict:
    from loadtest.cluster_load import ClusterLoadRun

    game, during = CLUSTER_FAULTS[name]
    if game == "spite-malice":
        os.environ["LOAD_SM_FRIENDS"], os.environ["LOAD_SM_BOTS"] = SM_FRIENDS, SM_BOTS
        load = ClusterLoadRun(game=game, seconds=SECONDS, prometheus=False)
    else:
        load = ClusterLoadRun(game=game, users=USERS, seconds=SECONDS, prometheus=False)
    ok = False
    try:
        machine, report = load.play_and_audit(during=during, failures_allowed=True)
        summary = (summarise_sm if game == "spite-malice" else summarise)(
            name, load, machine, report)
        for mark in ("node_out", "pgbouncer_back", "replica_back"):
            if mark in machine["marks"]:
                summary[f"{mark}_after_fault_s"] = round(
                    machine["marks"][mark] - machine["marks"]["fault"], 3)
        summary["cluster"] = machine.get("cluster", {})
        ok = report["ok"]
        return summary
    finally:
        load.cleanup(keep=not ok)


LAG_SECONDS = float(env("DRILL_REPLICA_LAG", "3"))


def _call(host: str, method: str, path: str, body: dict | None = None,
          token: str | None = None) -> tuple[dict, str]:
    """One JSON request through HAProxy: the answer and the node that served it."""
    request = urllib.request.Request(
        host + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read()), response.headers.get("X-Served-By", "?")


def drill_read_your_writes() -> dict:
    """The replica made to lag (``recovery_min_apply_delay`` = DRILL_REPLICA_LAG seconds): a
    player plays today's daily to its end through HAProxy and at once reads their statistics
    and the day's board, which must show the game; a visitor's read of the player's profile
    (the replica's) must not yet, and must within the lag and a few seconds."""
    from cluster.topology import Cluster, Topology

    cluster = Cluster(Topology(replica_delay=f"{LAG_SECONDS:g}s"))
    host = cluster.topology.host
    ok = False
    try:
        cluster.start()
        player, _ = _call(host, "POST", "/api/v1/players", {})
        token, profile = player["token"], f"/api/v1/players/{player['id']}"
        created = time.monotonic()
        while True:  # the replica shows a new player only after the lag (404 until then)
            try:
                _call(host, "GET", profile)
                break
            except urllib.error.HTTPError as error:
                if error.code != 404 or time.monotonic() - created > LAG_SECONDS + 15:
                    raise
                time.sleep(0.1)
        profile_after = time.monotonic() - created
        game, _ = _call(host, "POST", "/api/v1/games", {"mode": "daily"}, token)
        nodes = []
        while game["status"] == "playing":
            row, col = random.choice(game["legal_moves"])
            game, node = _call(host, "POST", f"/api/v1/games/{game['id']}/moves",
                               {"row": row, "col": col, "move": game["moves_played"]}, token)
            nodes.append(node)
        finished = time.monotonic()
        mine, my_node = _call(host, "GET", "/api/v1/players/me/stats", token=token)
        board, board_node = _call(host, "GET", "/api/v1/leaderboard?period=day", token=token)
        visitor, visitor_node = _call(host, "GET", profile)
        caught_up = None
        while time.monotonic() - finished < LAG_SECONDS + 15:
            seen, _ = _call(host, "GET", profile)
            if seen.get("played") == mine.get("played"):
                caught_up = time.monotonic() - finished
                break
            time.sleep(0.1)
        standing = (board.get("standing") or {}).get("status")
        ok = (standing == game["status"] and mine.get("played") == 1
              and visitor.get("played") == 0 and caught_up is not None
              and caught_up >= LAG_SECONDS * 0.5 and profile_after >= LAG_SECONDS * 0.5)
        return {
            "drill": "cluster-lag", "replica_delay_s": LAG_SECONDS,
            "visitor_sees_the_new_player_after_s": round(profile_after, 2),
            "game": f"{game['status']} after {game['moves_played']} moves, served by "
                    f"{dict(Counter(nodes))}",
            "player_reads_own_result": {"played": mine.get("played"), "node": my_node,
                                        "board_standing": standing, "board_node": board_node},
            "visitor_at_once": {"played": visitor.get("played"), "node": visitor_node},
            "visitor_caught_up_after_s": round(caught_up, 2) if caught_up else None,
            "clean": ok,
        }
    finally:
        cluster.stop()


def drill(name: str) -> dict:
    if name in clock_drills.NAMES:
        return clock_drills.drill(name)
    if name == "cluster-lag":
        return drill_read_your_writes()
    if name.startswith("cluster-"):
        return drill_cluster(name)
    return drill_single_node(name)


def drill_single_node(name: str) -> dict:
    """A fault on the single node under load: ``worker``, ``postgres`` or ``redis`` under
    Foursquare's players, the same prefixed ``sm-`` under Spite & Malice's."""
    spite_malice = name.startswith("sm-")
    fault = name.removeprefix("sm-")
    redis = OwnRedis() if fault == "redis" else None
    extra = {}
    if redis is not None:
        redis.start()
        extra["REDIS_URL"] = f"redis://127.0.0.1:{redis.port}/0"
    database = f"foursquare_drill_{name.replace('-', '_')}"
    if spite_malice:
        os.environ["LOAD_SM_FRIENDS"], os.environ["LOAD_SM_BOTS"] = SM_FRIENDS, SM_BOTS
        load = LoadRun(game="spite-malice", seconds=SECONDS, database=database,
                       extra_env=extra)
    else:
        load = LoadRun(users=USERS, seconds=SECONDS, database=database, extra_env=extra)
    during = {"worker": kill_a_worker, "postgres": restart_postgres,
              "redis": stop_and_start_redis(redis) if redis else None}[fault]
    ok = False
    try:
        machine, report = load.play_and_audit(during=during, failures_allowed=True)
        summary = (summarise_sm if spite_malice else summarise)(name, load, machine, report)
        ok = report["ok"]
        return summary
    finally:
        load.cleanup(keep=not ok)
        if redis is not None:
            redis.stop()


def main(argv: list[str]) -> int:
    names = argv or env("DRILLS", " ".join(ALL)).split()
    unknown = set(names) - set(ALL)
    if unknown:
        raise SystemExit(f"unknown drills {sorted(unknown)}: choose from {ALL}")
    results = []
    for name in names:
        sm = name.startswith("sm-") or CLUSTER_FAULTS.get(name, ("",))[0] == "spite-malice"
        players = (f"{SM_FRIENDS} + {SM_BOTS} Spite & Malice" if sm
                   else 1 if name == "cluster-lag" else USERS)
        if name in clock_drills.NAMES:
            print(f"drill {name}: {clock_drills.MATCHES} stalled matches", flush=True)
        else:
            print(f"drill {name}: {players} players for {SECONDS}s, fault at {FAULT_AT:.0f}s",
                  flush=True)
        result = drill(name)
        results.append(result)
        print(json.dumps(result, indent=2), flush=True)
    clean = all(result["clean"] for result in results)
    print("drills: " + ("all clean" if clean else "VIOLATIONS"))
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
