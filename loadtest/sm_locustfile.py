"""Spite & Malice under load: pairs of people in friend matches, each holding the match's
WebSocket, and players against the house bot.

- A **friend pair** is two virtual players in this process. The host creates a friend match
  (``POST /spite-malice/matches {"opponent": "friend"}``) and hands the invitation's code to its
  partner, who joins it (``POST /matches/join``). Both hold ``/ws/spite-malice/matches/<id>``
  (``Authorization`` header on the handshake) and play their turns over REST; a player learns
  that its turn has come from its socket (the other seat's discard, a new deal, the end) and
  then reads the match once. A socket that breaks is opened again with ``?after=<last event
  held>``; when no event comes for LOAD_SM_POLL_SECONDS the player reads the match anyway, as
  the browser falls back to polling.
- A **bot player** plays single games against the ``easy`` bot (whose reply comes in the same
  answer), holding its socket too, as the browser does.

Every action is one of the answer's ``legal_actions`` (a pay-off play first, mostly a centre
play, else a discard), sent with ``game``, ``actions`` and an ``Idempotency-Key``, and sent again
with the same key and body when no answer (or a 502-504) comes. The journal (written per process
to ``LOAD_OUTPUT_DIR`` as ``sm-journal-<pid>.json``) holds every acknowledged action, every
answer and every socket message with the time it was received, for ``loadtest.verify_sm``: the
event delivery latency is the time from the actor receiving its action's answer to the opponent's
socket receiving that answer's last event, both on this process's clock.

Environment: LOAD_SM_FRIENDS=80 (an even number of players in friend matches) LOAD_SM_BOTS=20,
LOAD_SM_PACE=8 (actions a second a player aims at during its turn; 0: flat out),
LOAD_SM_THINK=1-3 (instead: a pause of 1 to 3 s before each action, loadtest.think),
LOAD_SM_TARGET=1 (points a match is played to: 1, one game), LOAD_SM_TURN_SECONDS=86400,
LOAD_SM_BOT_SOCKETS=1, LOAD_SM_POLL_SECONDS=5, LOAD_SM_BOT_LEVEL=easy (the level the players
against the bot choose; the report prints the bot's CPU a turn, loadtest.bot_times).
"""

from __future__ import annotations

import os
import random
import time
import uuid

import gevent
from gevent.queue import Empty, Queue
from locust import FastHttpUser, constant, events, task

from loadtest.held_socket import (
    HeldSocket,
    SocketJournal,
    keep_collections_short,
    send,
    watch_lag,
)
from loadtest.think import think_range
from server.spitemalice.action_bench import choose

FRIENDS = int(os.environ.get("LOAD_SM_FRIENDS", "80"))
BOTS = int(os.environ.get("LOAD_SM_BOTS", "20"))
# The level the players against the bot choose: easy, as most people's first games are; expert
# puts its searches (in the background job) under the load, for their CPU a turn.
BOT_LEVEL = os.environ.get("LOAD_SM_BOT_LEVEL", "easy")
PACE = float(os.environ.get("LOAD_SM_PACE", "8"))
THINK = think_range("LOAD_SM_THINK")
TARGET = int(os.environ.get("LOAD_SM_TARGET", "1"))
TURN_SECONDS = int(os.environ.get("LOAD_SM_TURN_SECONDS", "86400"))
BOT_SOCKETS = os.environ.get("LOAD_SM_BOT_SOCKETS", "1") not in ("", "0")
POLL_SECONDS = float(os.environ.get("LOAD_SM_POLL_SECONDS", "5"))
PLAYS = random.Random()  # the players' choices among their legal actions (``choose``)

API = "/api/v1/spite-malice"
ACTION = f"POST {API}/matches/{{id}}/actions"
READ = f"GET {API}/matches/{{id}}"
# Events after which the seat to act may have changed: the player reads the match again.
TURN_EVENTS = {"dealt", "discard", "game_over", "match_over", "joined", "resigned", "timeout",
               "cancelled", "aborted"}


class Journal(SocketJournal):
    """What this process saw; written out when the run stops."""

    prefix = "sm-journal"

    def __init__(self) -> None:
        super().__init__()
        # match, game, number, seat, source, target, event after the answer, when answered
        self.acks: list[tuple[str, int, int, int, str, str, int, float]] = []
        self.answers: list[tuple[str, dict]] = []  # (what asked, the match as answered)
        # messages: match, seat, connection, when received, the message
        # socket_error_log: when, kind, detail, match, seat
        self.tables = 0  # turns taken from the table their draw event carried, without a read
        self.matches: dict[str, str] = {}  # match -> "friend" or "bot"


journal = Journal()


@events.quitting.add_listener
def _write_journal(environment, **_kwargs) -> None:
    journal.dump()


@events.test_start.add_listener
def _watch_lag(environment, **_kwargs) -> None:
    keep_collections_short()
    watch_lag(journal)




class MatchSocket(HeldSocket):
    """The match's WebSocket, opened again from the last event held when it breaks;
    ``changed`` is set when an event that may change the turn arrives (or the socket broke)."""

    def __init__(self, player: SpiteMalicePlayer, match_id: str, seat: int) -> None:
        self.player = player
        self.match_id = match_id
        self.seat = seat
        self.last = 0  # the last event number received in order
        self.kinds: list[str] = []
        # (number, table) of the latest draw that began this seat's turn: what to act on.
        self.table: tuple[int, dict] | None = None
        super().__init__(player, journal)

    def url(self) -> str:
        return f"{self._base()}/ws/spite-malice/matches/{self.match_id}?after={self.last}"

    def key(self) -> tuple:
        return (self.match_id, self.seat)

    def receive(self, message: dict) -> None:
        if message.get("type") != "events":
            return
        for event in message["events"]:
            if event["number"] == self.last + 1:
                self.last = event["number"]
            if "table" in event:
                self.table = (event["number"], event["table"])
            if event["kind"] in TURN_EVENTS and not (
                    event["kind"] == "discard" and event.get("seat") == self.seat):
                self.changed.set()


class SpiteMalicePlayer(FastHttpUser):
    """What both kinds of player share: a guest account, requests retried with their key,
    actions chosen from the answer and journaled."""

    abstract = True
    wait_time = constant(0)
    connection_timeout = 5.0
    network_timeout = 10.0

    def on_start(self) -> None:
        body = self._send("POST", "/api/v1/players", "POST /api/v1/players", {})
        self.token = body["token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}
        self.match: dict | None = None
        self.socket: MatchSocket | None = None

    def on_stop(self) -> None:
        if self.socket is not None:
            self.socket.close()

    def _send(self, method: str, path: str, name: str, body: dict | None,
              key: str | None = None, ok: tuple[int, ...] = (200, 201)) -> dict:
        """One request, retried with the same key (if any) until it is answered."""
        return send(self, journal, method, path, name, body, key=key, ok=ok, gives_up=ACTION)

    # --- the match ---

    def _hold(self, match: dict) -> None:
        """Take ``match`` as the one being played, and its socket."""
        if self.socket is not None and self.socket.match_id != match["id"]:
            self.socket.close()
            self.socket = None
        self.match = match
        if self.socket is None and self.wants_socket:
            self.socket = MatchSocket(self, match["id"], match["you"])

    def _read(self, what: str = READ) -> None:
        match = self._send("GET", f"{API}/matches/{self.match['id']}", READ, None)
        journal.answers.append((what, match))
        self.match = match

    def _my_turn(self) -> bool:
        match = self.match
        return (match is not None and match["status"] == "playing" and match["game"] is not None
                and bool(match["game"]["legal_actions"]))

    def _act(self) -> None:
        match, game = self.match, self.match["game"]
        action = choose(game["legal_actions"], PLAYS)
        body = {"action": action, "game": game["number"], "actions": game["actions"]}
        if THINK:
            gevent.sleep(random.uniform(*THINK))
        started = time.monotonic()
        answer = self._send("POST", f"{API}/matches/{match['id']}/actions", ACTION, body,
                            key=str(uuid.uuid4()))
        answered = time.time()
        journal.acks.append((match["id"], game["number"], game["actions"], match["you"],
                             action[0], action[1], answer["event"], answered))
        journal.answers.append(("action", answer))
        self.match = answer
        if PACE > 0 and not THINK:
            gevent.sleep(max(0.0, 1 / PACE - (time.monotonic() - started)))

    def _take_table(self, socket: MatchSocket) -> bool:
        """Take the turn the socket's latest event began, from the table that event carries,
        as the browser does: no read. False when the latest event is no such draw."""
        if socket.table is None or socket.table[0] != socket.last:
            return False
        number, table = socket.table
        if number <= self.match["event"]:
            return False
        self.match = {**self.match, **table, "event": number}
        journal.answers.append(("table", self.match))
        journal.tables += 1
        return True

    def _wait_for_turn(self) -> None:
        """Until an event says the turn may have changed (or the socket is silent too long):
        then read the match."""
        socket = self.socket
        if socket is None:
            gevent.sleep(0.2)
            self._read()
            return
        if socket.changed.wait(timeout=POLL_SECONDS):
            socket.changed.clear()
            if not self._take_table(socket):
                self._read()
        else:
            journal.polls += 1
            self._read("poll")


class FriendPlayer(SpiteMalicePlayer):
    """One of a pair: the host (seat 0) creates each match, the guest (seat 1) joins it."""

    fixed_count = FRIENDS
    wants_socket = True
    lonely: list[FriendPlayer] = []  # a host waiting for its partner

    def on_start(self) -> None:
        super().on_start()
        self.codes: Queue = Queue()  # the guest's: invitation codes from its host
        if FriendPlayer.lonely:
            self.host = FriendPlayer.lonely.pop()
            self.host.guest = self
        else:
            self.host = None
            self.guest: FriendPlayer | None = None
            FriendPlayer.lonely.append(self)

    @task
    def step(self) -> None:
        if self.match is None or self.match["status"] in ("finished", "cancelled", "aborted"):
            self._next_match()
        elif self._my_turn():
            self._act()
        else:
            self._wait_for_turn()

    def _next_match(self) -> None:
        if self.host is None:  # the host: a new invitation for the partner
            if getattr(self, "guest", None) is None:
                gevent.sleep(0.5)  # no partner yet
                return
            match = self._send("POST", f"{API}/matches", f"POST {API}/matches (friend)",
                               {"opponent": "friend", "turn_seconds": TURN_SECONDS,
                                "target": TARGET}, key=str(uuid.uuid4()))
            journal.matches[match["id"]] = "friend"
            journal.answers.append(("create", match))
            self._hold(match)
            self.guest.codes.put(match["invite"]["code"])
            return
        try:
            code = self.codes.get(timeout=2)
        except Empty:
            return
        match = self._send("POST", f"{API}/matches/join", f"POST {API}/matches/join",
                           {"code": code}, key=str(uuid.uuid4()))
        journal.answers.append(("join", match))
        self._hold(match)


class BotPlayer(SpiteMalicePlayer):
    """Single games against the bot at LOAD_SM_BOT_LEVEL (easy), one after another."""

    fixed_count = BOTS
    wants_socket = BOT_SOCKETS

    @task
    def step(self) -> None:
        if self.match is None or self.match["status"] == "finished":
            match = self._send("POST", f"{API}/matches", f"POST {API}/matches (bot)",
                               {"opponent": "bot", "level": BOT_LEVEL, "target": 1},
                               key=str(uuid.uuid4()))
            journal.matches[match["id"]] = "bot"
            journal.answers.append(("create", match))
            self._hold(match)
        elif self._my_turn():
            self._act()
        else:  # the bot's turn went on in the background: its events come over the socket
            self._wait_for_turn()
