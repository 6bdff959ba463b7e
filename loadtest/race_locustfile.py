"""Foursquare races under load: teams of virtual players racing one deal, each holding the
race's socket and playing their own game through the ordinary move endpoint.

- A **team** is LOAD_RACE_SIZE virtual players, all in this one process (one clock for the
  delivery latency). Its first player is the host: it creates each race (``POST /api/v1/races
  {"players", "minutes"}``) and hands the race's code to the others, who join it by code
  (``POST /races/join``). Every racer holds ``/ws/races/<id>`` (``Authorization`` header on the
  handshake) from its create or join until the race finished. Every other race is created with
  exactly the team's seats, so the last join starts it (a race that fills starts itself); the
  others have one seat more than the team (up to 8) and the host starts them
  (``POST /races/<id>/start``) once the team has joined, so both ways of starting are played.
- Each racer learns of the start from its socket (the ``race`` message, with its own ``game``
  and ``starts_at``), waits for the countdown, reads its game once (``GET /games/<id>``) and
  plays it to its end: each move a random one of the last answer's ``legal_moves``, sent with
  ``move`` and an ``Idempotency-Key`` and sent again with the same key and body when no answer
  (or a 502-504) comes, at LOAD_RACE_PACE moves a second. When its game is over it keeps its
  socket (watching) until the race finished; then the host creates the next race, for the run's
  duration. A socket silent for LOAD_RACE_POLL_SECONDS is backed by a read of the race, as the
  browser falls back to polling; a socket that breaks is opened again.

The journal (``race-journal-<pid>.json`` in ``LOAD_OUTPUT_DIR``) holds every acknowledged move,
every REST answer and every socket message each racer received, with the time it was received,
for ``loadtest.verify_races``: the progress delivery latency is the time from the mover
receiving its move's answer to each other racer's socket receiving that move's progress.

Environment: LOAD_RACES=25 LOAD_RACE_SIZE=4 (teams, and racers in each: 2-8),
LOAD_RACE_MINUTES=3, LOAD_RACE_PACE=2 (moves a second each racer aims at; 0: flat out),
LOAD_RACE_POLL_SECONDS=5, LOAD_RETRY_SECONDS=30.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from datetime import datetime

import gevent
from gevent.queue import Empty, Queue
from locust import FastHttpUser, constant, events, task

from loadtest.held_socket import HeldSocket, SocketJournal, keep_collections_short, send

RACES = int(os.environ.get("LOAD_RACES", "25"))
SIZE = int(os.environ.get("LOAD_RACE_SIZE", "4"))
MINUTES = int(os.environ.get("LOAD_RACE_MINUTES", "3"))
PACE = float(os.environ.get("LOAD_RACE_PACE", "2"))
POLL_SECONDS = float(os.environ.get("LOAD_RACE_POLL_SECONDS", "5"))
START_MARGIN_SECONDS = 0.02  # moves from starts_at: the first is sent just after it
if not 2 <= SIZE <= 8 or RACES < 1:
    raise SystemExit(f"LOAD_RACES is 1 or more and LOAD_RACE_SIZE 2-8, not {RACES}, {SIZE}")

API = "/api/v1"
MOVE = f"POST {API}/games/{{id}}/moves"
RUNNING = ("countdown", "playing")
OVER = ("finished", "cancelled")


class Journal(SocketJournal):
    """What this process saw; written out when the run stops."""

    prefix = "race-journal"

    def __init__(self) -> None:
        super().__init__()
        # race, player, game, number, row, col, when answered, placed after, status after
        self.acks: list[tuple] = []
        self.answers: list[tuple] = []  # what, race, player, when received, the body
        # messages: race, player, connection, when received, the message
        # socket_error_log: when, kind, detail, race, player
        self.races: dict[str, dict] = {}  # race -> {"seats", "start": "host" | "full"}
        self.teams = 0


journal = Journal()


@events.test_start.add_listener
def _short_collections(environment, **_kwargs) -> None:
    keep_collections_short()


@events.quitting.add_listener
def _write_journal(environment, **_kwargs) -> None:
    journal.dump()


def instant(text: str | None) -> float | None:
    """An ISO 8601 instant of the API as seconds since 1970."""
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class RaceSocket(HeldSocket):
    """The race's socket: every message journaled, the race it carries kept by the racer;
    ``changed`` is set when a message came (or the socket broke)."""

    def __init__(self, racer: Racer, race_id: str) -> None:
        self.racer = racer
        self.race_id = race_id
        super().__init__(racer, journal)

    def url(self) -> str:
        return f"{self._base()}/ws/races/{self.race_id}"

    def key(self) -> tuple:
        return (self.race_id, self.racer.player_id)

    def receive(self, message: dict) -> None:
        if message.get("type") in ("ready", "race") and isinstance(message.get("race"), dict):
            self.racer.saw_race(message["race"])
        self.changed.set()  # the socket is alive: no read of the race needed


class Team:
    """LOAD_RACE_SIZE racers of this process: the host creates each race, the others join it
    by the code it hands them."""

    forming: Team | None = None

    def __init__(self) -> None:
        self.members: list[Racer] = []
        self.rounds = 0
        journal.teams += 1

    @classmethod
    def enlist(cls, racer: Racer) -> Team:
        if cls.forming is None or len(cls.forming.members) >= SIZE:
            cls.forming = Team()
        cls.forming.members.append(racer)
        return cls.forming

    @property
    def full(self) -> bool:
        return len(self.members) >= SIZE


class Racer(FastHttpUser):
    fixed_count = RACES * SIZE
    wait_time = constant(0)
    connection_timeout = 5.0
    network_timeout = 10.0

    def on_start(self) -> None:
        body = self._send("POST", f"{API}/players", f"POST {API}/players", None, {})
        self.token = body["token"]
        self.player_id = str(body["id"])
        self.auth = {"Authorization": f"Bearer {self.token}"}
        self.codes: Queue = Queue()  # a guest's: the codes of the races its host made
        self.race: dict | None = None  # the latest race object this racer got
        self.game: dict | None = None  # its own game in the race, as last answered
        self.socket: RaceSocket | None = None
        self.team = Team.enlist(self)
        self.is_host = self.team.members[0] is self

    def on_stop(self) -> None:
        if self.socket is not None:
            self.socket.close()

    def _send(self, method: str, path: str, name: str, race_id: str | None, body: dict | None,
              key: str | None = None, what: str | None = None,
              ok: tuple[int, ...] = (200, 201)) -> dict:
        """One request, retried with the same key (if any) until it is answered; its answer
        journaled under ``what`` (the race's id ``race_id``) when given."""
        answer = send(self, journal, method, path, name, body, key=key, ok=ok, gives_up=MOVE)
        if what is not None:
            journal.answers.append((what, race_id or answer.get("id"), self.player_id, time.time(),
                                    answer))
        return answer

    # --- the race ---

    def saw_race(self, race: dict) -> None:
        """Keep the latest race object (from the socket or an answer) of the race held."""
        if self.race is not None and race.get("id") == self.race["id"]:
            self.race = race

    def _hold(self, race: dict) -> None:
        """Take ``race`` as the one raced now, and its socket."""
        if self.socket is not None:
            self.socket.close()
        self.race, self.game = race, None
        self.socket = RaceSocket(self, race["id"])

    def _leave_race(self) -> None:
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        self.race, self.game = None, None

    def _read_race(self, what: str = "read") -> None:
        race_id = self.race["id"]
        race = self._send("GET", f"{API}/races/{race_id}", f"GET {API}/races/{{id}}", race_id,
                          None, what=what)
        self.saw_race(race)

    def _wait_for_news(self) -> None:
        """Until the socket says something, or is silent too long: then read the race."""
        socket = self.socket
        if socket.changed.wait(timeout=POLL_SECONDS):
            socket.changed.clear()
        else:
            journal.polls += 1
            self._read_race("poll")

    @task
    def step(self) -> None:
        try:
            self._step()
        except RuntimeError:
            gevent.sleep(0.5)  # a refused request (journaled): not again at once
            raise

    def _step(self) -> None:
        race = self.race
        if race is None or race["status"] in OVER:
            self._leave_race()
            self._next_race()
        elif race["status"] == "waiting":
            if self.is_host and self._team_seated(race) and race["players"] > SIZE:
                self._start()
            else:
                self._wait_for_news()
        elif race["status"] in RUNNING and race.get("game") and (
                self.game is None or self.game["status"] == "playing"):
            self._play()
        else:  # over, or watching the others until the race finished
            self._wait_for_news()

    def _team_seated(self, race: dict) -> bool:
        return len(race["racers"]) >= len(self.team.members)

    def _next_race(self) -> None:
        if not self.is_host:
            try:
                code = self.codes.get(timeout=2)
            except Empty:
                return
            race = self._send("POST", f"{API}/races/join", f"POST {API}/races/join", None,
                              {"code": code}, key=str(uuid.uuid4()), what="join")
            self._hold(race)
            return
        if not self.team.full:
            gevent.sleep(0.5)  # the team is still signing up
            return
        self.team.rounds += 1
        # Every other race fills (and so starts itself); the others keep a seat free and the
        # host starts them.
        host_starts = self.team.rounds % 2 == 0 and SIZE < 8
        seats = SIZE + 1 if host_starts else SIZE
        race = self._send("POST", f"{API}/races", f"POST {API}/races", None,
                          {"players": seats, "minutes": MINUTES}, key=str(uuid.uuid4()),
                          what="create")
        journal.races[race["id"]] = {"seats": seats, "start": "host" if host_starts else "full"}
        self._hold(race)
        for member in self.team.members[1:]:
            member.codes.put(race["code"])

    def _start(self) -> None:
        race_id = self.race["id"]
        race = self._send("POST", f"{API}/races/{race_id}/start", f"POST {API}/races/{{id}}/start",
                          race_id, None, key=str(uuid.uuid4()), what="start")
        self.saw_race(race)

    def _play(self) -> None:
        race = self.race
        starts_at = instant(race["starts_at"])
        wait = (starts_at or 0) + START_MARGIN_SECONDS - time.time()
        if wait > 0:
            gevent.sleep(wait)
        if self.game is None:
            self.game = self._send("GET", f"{API}/games/{race['game']}", f"GET {API}/games/{{id}}",
                                   race["id"], None, what="game")
            return
        game = self.game
        row, col = random.choice(game["legal_moves"])
        number = game["moves_played"]
        started = time.monotonic()
        try:
            answer = self._send("POST", f"{API}/games/{game['id']}/moves", MOVE, race["id"],
                                {"row": row, "col": col, "move": number},
                                key=str(uuid.uuid4()), what="move")
        except RuntimeError:
            self.game = None  # refused (out of time, say): read the game again
            raise
        answered = time.time()
        journal.acks.append((race["id"], self.player_id, game["id"], number, row, col, answered,
                             answer["moves_played"], answer["status"]))
        self.game = answer
        if PACE > 0 and answer["status"] == "playing":
            gevent.sleep(max(0.0, 1 / PACE - (time.monotonic() - started)))
