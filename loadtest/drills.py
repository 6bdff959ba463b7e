"""``make drill``: faults injected in the middle of a load run, then ``make load``'s audit.

    python -m loadtest.drills [worker] [postgres] [redis]    (all three by default)

- worker: ``kill -9`` of one gunicorn worker. Its clients lose their connections and send the
  same moves again with the same Idempotency-Key; every move must be stored exactly once.
- postgres: PostgreSQL restarted (``pg_ctlcluster``; this touches every database on the machine,
  so it is kept to one fast restart). Requests must fail fast as 503 problem+json, never a 500
  or a stack trace, and the service must recover by itself.
- redis: the app's Redis stopped and started again. The game must go on (throttling pauses)
  and the log must say so.

Environment: DRILL_USERS=20 DRILL_SECONDS=30 DRILL_FAULT_AT=10, and LOAD_* as for loadtest.run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime

from loadtest.run import LoadRun, env, free_port

USERS = int(env("DRILL_USERS", "20"))
SECONDS = int(env("DRILL_SECONDS", "30"))
FAULT_AT = float(env("DRILL_FAULT_AT", "10"))
PG_CLUSTER = env("DRILL_PG_CLUSTER", "15 main").split()


def clock(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%H:%M:%S.%f")[:-3]


def kill_a_worker(load: LoadRun) -> None:
    time.sleep(FAULT_AT)
    workers = load.worker_pids()
    victim = workers[0]
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


def drill(name: str) -> dict:
    redis = OwnRedis() if name == "redis" else None
    extra = {}
    if redis is not None:
        redis.start()
        extra["REDIS_URL"] = f"redis://127.0.0.1:{redis.port}/0"
    load = LoadRun(users=USERS, seconds=SECONDS, database=f"foursquare_drill_{name}",
                   extra_env=extra)
    during = {"worker": kill_a_worker, "postgres": restart_postgres,
              "redis": stop_and_start_redis(redis) if redis else None}[name]
    ok = False
    try:
        machine, report = load.play_and_audit(during=during, failures_allowed=True)
        summary = summarise(name, load, machine, report)
        ok = report["ok"]
        return summary
    finally:
        load.cleanup(keep=not ok)
        if redis is not None:
            redis.stop()


def main(argv: list[str]) -> int:
    names = argv or ["worker", "postgres", "redis"]
    results = []
    for name in names:
        print(f"drill {name}: {USERS} players for {SECONDS}s, fault at {FAULT_AT:.0f}s",
              flush=True)
        result = drill(name)
        results.append(result)
        print(json.dumps(result, indent=2), flush=True)
    clean = all(result["clean"] for result in results)
    print("drills: " + ("all clean" if clean else "VIOLATIONS"))
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
