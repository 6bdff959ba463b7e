"""The daily rush: every virtual player creates a guest, plays today's daily to the end, then
practice games, at LOAD_PACE moves a second (or as fast as the server answers; LOAD_THINK=1-3:
thinking 1 to 3 s before each move, loadtest.think). After each
game it reads the day's board as itself (its own rank: read your own writes) and as a visitor
without a token (LOAD_BOARD_READS=0: neither); behind ``make cluster`` the visitor's read is the
replica's, the player's the primary's (it has just written).

Every move carries ``move`` (the number it expects) and an ``Idempotency-Key``. A move that gets
no answer (the connection broke, a worker died) or a 503 is sent again with the same key and
body until it is answered: the server must apply it once. Each acknowledged move, each position
a response showed and each request's time are written, per process, to ``LOAD_OUTPUT_DIR`` for
``loadtest.verify`` to check against the database afterwards.

Run by ``python -m loadtest.run`` (``make load``); it can also be pointed at a server by hand:
``locust -f loadtest/locustfile.py --headless -u 50 -r 50 -t 60s --host http://127.0.0.1:8000``.
"""

from __future__ import annotations

import os
import random
import time
import uuid

from locust import FastHttpUser, between, constant, constant_throughput, events, task

from loadtest.held_socket import Journal as BaseJournal
from loadtest.held_socket import keep_collections_short, send
from loadtest.think import think_range

HEALTH_EVERY = int(os.environ.get("LOAD_HEALTH_EVERY", "10"))  # one /healthz per N moves
# Moves per second each player aims at (50 players x 10 = the 500 moves/s of a daily rush);
# 0 plays flat out, which measures the most the server can take rather than its latency.
PACE = float(os.environ.get("LOAD_PACE", "10"))
# LOAD_THINK=1-3: a pause of 1 to 3 s before each move instead (loadtest.think).
THINK = think_range()

BOARD_READS = os.environ.get("LOAD_BOARD_READS", "1").strip() not in ("", "0")

MOVE = "POST /api/v1/games/{id}/moves"


class Journal(BaseJournal):
    """What this process saw; written out when the run stops."""

    prefix = "journal"
    sample_no_answer = False  # a status 0 has no body to keep

    def __init__(self) -> None:
        super().__init__()
        self.acks: list[tuple[str, int, int, int]] = []  # game, number, row, col
        self.views: list[tuple[str, int, str, list[str]]] = []  # game, moves, status, cards
        self.face_down_leaks = 0
        self.games = 0

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


journal = Journal()


@events.test_start.add_listener
def _short_collections(environment, **_kwargs) -> None:
    keep_collections_short()


@events.quitting.add_listener
def _write_journal(environment, **_kwargs) -> None:
    journal.dump()


class DailyPlayer(FastHttpUser):
    wait_time = (between(*THINK) if THINK else constant_throughput(PACE) if PACE > 0
                 else constant(0))
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
        return send(self, journal, method, path, name, body, key=key, gives_up=MOVE)

    @task
    def play_a_move(self) -> None:
        game = self.game
        if game["status"] != "playing":
            if BOARD_READS:
                self._boards()
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

    def _boards(self) -> None:
        """Today's board, read as this player and as a visitor."""
        path = "/api/v1/leaderboard?period=day"
        self._send("GET", path, "GET /api/v1/leaderboard (player)", None)
        started = time.time()
        with self.client.get(path, name="GET /api/v1/leaderboard (visitor)",
                             catch_response=True) as response:
            if response.status_code == 200:
                journal.answered("GET /api/v1/leaderboard (visitor)", started,
                                 (time.time() - started) * 1000)
            else:
                journal.failed("GET /api/v1/leaderboard (visitor)", time.time(),
                               response.status_code, response.text or "")
                response.failure(str(response.status_code))

    def _health(self) -> None:
        started = time.time()
        with self.client.get("/healthz", name="GET /healthz", catch_response=True) as response:
            if response.status_code == 200:
                journal.answered("GET /healthz", started, (time.time() - started) * 1000)
            else:
                journal.failed("GET /healthz", time.time(), response.status_code,
                               response.text or "")
                response.failure(str(response.status_code))
