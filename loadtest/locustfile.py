"""The daily rush: every virtual player creates a guest, plays today's daily to the end, then
practice games, at LOAD_PACE moves a second (or as fast as the server answers).

Every move carries ``move`` (the number it expects) and an ``Idempotency-Key``. A move that gets
no answer (the connection broke, a worker died) or a 503 is sent again with the same key and
body until it is answered: the server must apply it once. Each acknowledged move, each position
a response showed and each request's time are written, per process, to ``LOAD_OUTPUT_DIR`` for
``loadtest.verify`` to check against the database afterwards.

Run by ``python -m loadtest.run`` (``make load``); it can also be pointed at a server by hand:
``locust -f loadtest/locustfile.py --headless -u 50 -r 50 -t 60s --host http://127.0.0.1:8000``.
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from collections import defaultdict

import gevent
from locust import FastHttpUser, constant, constant_throughput, events, task

HEALTH_EVERY = int(os.environ.get("LOAD_HEALTH_EVERY", "10"))  # one /healthz per N moves
# Moves per second each player aims at (50 players x 10 = the 500 moves/s of a daily rush);
# 0 plays flat out, which measures the most the server can take rather than its latency.
PACE = float(os.environ.get("LOAD_PACE", "10"))
RETRY_FOR_SECONDS = float(os.environ.get("LOAD_RETRY_SECONDS", "30"))
OUTPUT_DIR = os.environ.get("LOAD_OUTPUT_DIR", "")

MOVE = "POST /api/v1/games/{id}/moves"


class Journal:
    """What this process saw; written out when the run stops."""

    def __init__(self) -> None:
        self.acks: list[tuple[str, int, int, int]] = []  # game, number, row, col
        self.views: list[tuple[str, int, str, list[str]]] = []  # game, moves, status, cards
        # name -> (start time, ms) of each answered request
        self.times: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.first: float | None = None
        self.last: float = 0.0
        self.failures: dict[str, int] = defaultdict(int)  # "name status" -> attempts that failed
        self.failure_log: list[tuple[float, str, int]] = []  # when, name, status (first 10,000)
        self.samples: dict[str, str] = {}  # status -> the first body answered with it
        self.gave_up = 0  # moves never answered within RETRY_FOR_SECONDS
        self.face_down_leaks = 0
        self.games = 0

    def answered(self, name: str, started: float, elapsed_ms: float) -> None:
        self.times[name].append((started, elapsed_ms))
        self.first = started if self.first is None else min(self.first, started)
        self.last = max(self.last, started + elapsed_ms / 1000)

    def failed(self, name: str, when: float, status: int, body: str = "") -> None:
        self.failures[f"{name} {status}"] += 1
        if status and str(status) not in self.samples:
            self.samples[str(status)] = body[:600]
        if len(self.failure_log) < 10_000:
            self.failure_log.append((when, name, status))

    def position(self, game: dict) -> None:
        cards = [game["current_card"]] if game["current_card"] else []
        for cell in game["grid"]:
            if cell["face_up"]:
                cards.append(cell["card"])
            elif cell["card"] is not None:
                self.face_down_leaks += 1
        if game["last_move"]:
            cards.append(game["last_move"]["card"])
        self.views.append((game["id"], game["moves_played"], game["status"], cards))

    def dump(self) -> None:
        if not OUTPUT_DIR or self.first is None:
            return
        path = os.path.join(OUTPUT_DIR, f"journal-{os.getpid()}.json")
        with open(path, "w") as out:
            json.dump({key: value for key, value in vars(self).items()}, out)


journal = Journal()


@events.quitting.add_listener
def _write_journal(environment, **_kwargs) -> None:
    journal.dump()


class DailyPlayer(FastHttpUser):
    wait_time = constant_throughput(PACE) if PACE > 0 else constant(0)
    # Connections are kept alive, as a browser's are; gunicorn's sync workers close them.
    connection_timeout = 5.0
    network_timeout = 10.0

    def on_start(self) -> None:
        body = self._send("POST", "/api/v1/players", "POST /api/v1/players", {})
        self.auth = {"Authorization": f"Bearer {body['token']}"}
        self.moves_since_health = 0
        self.game = self._start("daily")

    def _start(self, mode: str) -> dict:
        journal.games += 1
        game = self._send("POST", "/api/v1/games", f"POST /api/v1/games ({mode})",
                          {"mode": mode}, key=str(uuid.uuid4()))
        journal.position(game)
        return game

    def _send(self, method: str, path: str, name: str, body: dict,
              key: str | None = None) -> dict:
        """One request, retried with the same key (if any) until it is answered."""
        headers = {**getattr(self, "auth", {}), "Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + RETRY_FOR_SECONDS
        while True:
            started = time.time()
            with self.client.request(method, path, data=json.dumps(body), headers=headers,
                                     name=name, catch_response=True) as response:
                elapsed_ms = (time.time() - started) * 1000
                status = response.status_code
                if status in (200, 201):
                    journal.answered(name, started, elapsed_ms)
                    return response.json()
                journal.failed(name, time.time(), status, response.text or "")
                response.failure(f"{status}")
            # 0: no answer at all (connection refused or reset, a worker killed); 502-504: the
            # service said it is briefly unavailable. Both are safe to retry with the same key.
            retryable = status == 0 or 502 <= status <= 504
            if not retryable or time.monotonic() > deadline:
                if key is not None and path.endswith("/moves"):
                    journal.gave_up += 1
                raise RuntimeError(f"{name}: {status} {(response.text or '')[:200]}")
            gevent.sleep(0.05 + random.random() * 0.1)

    @task
    def play_a_move(self) -> None:
        game = self.game
        if game["status"] != "playing":
            self.game = self._start("practice")
            return
        row, col = random.choice(game["legal_moves"])
        number = game["moves_played"]
        answer = self._send(
            "POST", f"/api/v1/games/{game['id']}/moves", MOVE,
            {"row": row, "col": col, "move": number}, key=str(uuid.uuid4()),
        )
        journal.acks.append((game["id"], number, row, col))
        journal.position(answer)
        self.game = answer
        self.moves_since_health += 1
        if self.moves_since_health >= HEALTH_EVERY:
            self.moves_since_health = 0
            self._health()

    def _health(self) -> None:
        started = time.time()
        with self.client.get("/healthz", name="GET /healthz", catch_response=True) as response:
            if response.status_code == 200:
                journal.answered("GET /healthz", started, (time.time() - started) * 1000)
            else:
                journal.failed("GET /healthz", time.time(), response.status_code,
                               response.text or "")
                response.failure(str(response.status_code))
