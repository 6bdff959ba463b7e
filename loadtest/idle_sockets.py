"""What idle live sockets cost the database: ``python -m loadtest.idle_sockets``.

The app as ``make load`` serves it (gunicorn with the ASGI workers, Redis, a ``run_jobs``
worker beside it) on a fresh database; ``IDLE_SOCKETS`` guests (300), each with a match
against the bot. Then, each for ``IDLE_SECONDS`` (30), PostgreSQL's committed transactions on
the database (``pg_stat_database.xact_commit``) are counted per second:

1. the baseline: the service idle, no socket open;
2. every guest holding one account socket (``/ws/account``), idle;
3. every guest holding one socket on their match (``/ws/spite-malice/matches/{id}``), idle.

Each line says the commits a second and what the sockets add to the baseline (issue 36's goal:
at most 3 a second for 300 sockets of either kind), and the CPU the app's processes and Redis
spent a second meanwhile (what an idle socket costs the workers: its checks, its presence).
Every socket must answer ``ready`` and stay open; a socket that is closed fails the run.

Environment: IDLE_SOCKETS=300 IDLE_SECONDS=30 IDLE_SETTLE_SECONDS=10, and LOAD_* as for
loadtest.run (LOAD_WORKERS=3 gunicorn workers).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import psutil
import psycopg
import requests
import websockets

from loadtest.run import LoadRun, cpu_seconds, env

SOCKETS = int(env("IDLE_SOCKETS", "300"))
SECONDS = float(env("IDLE_SECONDS", "30"))
SETTLE = float(env("IDLE_SETTLE_SECONDS", "10"))


def guests(host: str, count: int) -> list[tuple[str, str]]:
    """``count`` guests, each with a match against the bot: (token, match id)."""
    session = requests.Session()
    made = []
    for _ in range(count):
        token = session.post(f"{host}/api/v1/players", json={}, timeout=30).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        match = session.post(f"{host}/api/v1/spite-malice/matches", headers=auth,
                             json={"opponent": "bot", "level": "easy"}, timeout=30)
        if match.status_code != 201:
            raise RuntimeError(f"a bot match was refused: {match.status_code} {match.text}")
        made.append((token, match.json()["id"]))
    return made


def commits(load: LoadRun) -> int:
    with psycopg.connect(f"{load.postgres}/postgres", autocommit=True) as db:
        return db.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = %s",
                          (load.database,)).fetchone()[0]


def redis_servers() -> list[psutil.Process]:
    return [process for process in psutil.process_iter(["name"])
            if (process.info["name"] or "").startswith("redis-server")]


async def measure(load: LoadRun, label: str) -> dict:
    """Over ``SECONDS`` (after ``SETTLE``): commits a second, and the app's and Redis's CPU in
    milliseconds a second."""
    await asyncio.sleep(SETTLE)
    app = load.parties()["gunicorn" if load.server_kind == "gunicorn" else "app"]
    before, started = commits(load), time.monotonic()
    app_before, redis_before = cpu_seconds(app()), cpu_seconds(redis_servers())
    await asyncio.sleep(SECONDS)
    elapsed = time.monotonic() - started
    figures = {"commits_per_second": (commits(load) - before) / elapsed,
               "app_cpu_ms_per_second": (cpu_seconds(app()) - app_before) * 1000 / elapsed,
               "redis_cpu_ms_per_second":
                   (cpu_seconds(redis_servers()) - redis_before) * 1000 / elapsed}
    print(f"{label}: {figures['commits_per_second']:.2f} commits/s; CPU a second: app "
          f"{figures['app_cpu_ms_per_second']:.1f} ms, Redis "
          f"{figures['redis_cpu_ms_per_second']:.1f} ms", flush=True)
    return figures


async def hold(url: str, token: str, closed: list[str], ready: asyncio.Event,
               release: asyncio.Event) -> None:
    async with websockets.connect(url, additional_headers={
            "Authorization": f"Bearer {token}"}, open_timeout=60) as socket:
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "ready":
                break
        ready.set()
        waiting = asyncio.ensure_future(release.wait())
        receiving = asyncio.ensure_future(_drain(socket))
        done, _ = await asyncio.wait({waiting, receiving}, return_when=asyncio.FIRST_COMPLETED)
        if receiving in done:
            closed.append(f"{url}: closed {socket.close_code}")
        receiving.cancel()
        waiting.cancel()


async def _drain(socket) -> None:
    async for _ in socket:  # an idle socket gets no message but presence; it ends if closed
        pass


async def held(load: LoadRun, urls: list[tuple[str, str]], label: str) -> dict:
    closed: list[str] = []
    release = asyncio.Event()
    readies = [asyncio.Event() for _ in urls]
    tasks = []
    for (url, token), ready in zip(urls, readies, strict=True):
        tasks.append(asyncio.create_task(hold(url, token, closed, ready, release)))
        await asyncio.sleep(0.01)  # the handshakes spread over a few seconds, as people come
    await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), 120)
    figures = await measure(load, label)
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    if closed:
        raise RuntimeError(f"{len(closed)} sockets were closed while idle: {closed[:3]}")
    return figures


async def main_async(load: LoadRun) -> dict:
    made = guests(load.host, SOCKETS)
    ws = load.host.replace("http://", "ws://")
    baseline = await measure(load, "baseline, no socket")
    account = await held(load, [(f"{ws}/ws/account", token) for token, _ in made],
                         f"{SOCKETS} idle account sockets")
    match = await held(load, [(f"{ws}/ws/spite-malice/matches/{match_id}", token)
                              for token, match_id in made],
                       f"{SOCKETS} idle match sockets")
    return {"sockets": SOCKETS, "seconds": SECONDS,
            "baseline": {key: round(value, 2) for key, value in baseline.items()},
            "account_sockets_above_baseline": _above(account, baseline),
            "match_sockets_above_baseline": _above(match, baseline)}


def _above(figures: dict, baseline: dict) -> dict:
    """``figures`` less the baseline's, and the app's CPU per socket."""
    above = {key: round(figures[key] - baseline[key], 2) for key in figures}
    above["app_cpu_ms_per_second_per_socket"] = round(
        (figures["app_cpu_ms_per_second"] - baseline["app_cpu_ms_per_second"]) / SOCKETS, 4)
    return above


def main() -> int:
    load = LoadRun(database="foursquare_idle_sockets", background="worker")
    ok = False
    try:
        load.create_database()
        load.start_server()
        load.start_jobs()
        print(f"{load.describe_server()}; {SOCKETS} guests", flush=True)
        result = asyncio.run(main_async(load))
        print(json.dumps(result, indent=2))
        ok = True
        return 0
    finally:
        load.cleanup(keep=not ok)


if __name__ == "__main__":
    sys.exit(main())
