"""What the load's players share: the journal's common part, a request retried with its key
until it is answered, and a held WebSocket that journals its messages and opens again when it
breaks. Each locustfile keeps only its own game's parts (its URLs, its messages, its counts)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import time
from collections import defaultdict

import gevent
import websocket
from gevent.event import Event as Flag

RETRY_FOR_SECONDS = float(os.environ.get("LOAD_RETRY_SECONDS", "30"))
OUTPUT_DIR = os.environ.get("LOAD_OUTPUT_DIR", "")


class Journal:
    """What this process saw; written out (``<prefix>-<pid>.json``) when the run stops."""

    prefix = "journal"
    sample_no_answer = True  # keep a sample body for status 0 (no answer) too

    def __init__(self) -> None:
        # name -> (start time, ms) of each answered request
        self.times: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.first: float | None = None
        self.last: float = 0.0
        self.failures: dict[str, int] = defaultdict(int)  # "name status" -> attempts that failed
        self.failure_log: list[tuple[float, str, int]] = []  # when, name, status (first 10,000)
        self.samples: dict[str, str] = {}  # status -> the first body answered with it
        self.gave_up = 0  # requests never answered within RETRY_FOR_SECONDS
        self.lags: list[tuple[float, float]] = []  # when, ms: the process's own lag (watch_lag)

    def answered(self, name: str, started: float, elapsed_ms: float) -> None:
        self.times[name].append((started, elapsed_ms))
        self.first = started if self.first is None else min(self.first, started)
        self.last = max(self.last, started + elapsed_ms / 1000)

    def failed(self, name: str, when: float, status: int, body: str = "") -> None:
        self.failures[f"{name} {status}"] += 1
        if (status or self.sample_no_answer) and str(status) not in self.samples:
            self.samples[str(status)] = body[:600]
        if len(self.failure_log) < 10_000:
            self.failure_log.append((when, name, status))

    def dump(self) -> None:
        if not OUTPUT_DIR or self.first is None:
            return
        path = os.path.join(OUTPUT_DIR, f"{self.prefix}-{os.getpid()}.json")
        with open(path, "w") as out:
            json.dump(vars(self), out)


LAG_PROBE_SECONDS = 0.05


def watch_lag(journal: Journal) -> None:
    """Journal how late this process's greenlets run: every 50 ms, how much longer than asked
    a sleep took. A player's request is timed on the same loop, so a busy load generator (its
    core taken, its greenlets queued behind each other) adds this to the latencies it reports;
    the report prints it beside them."""
    def probe() -> None:
        while True:
            started = time.monotonic()
            gevent.sleep(LAG_PROBE_SECONDS)
            late = time.monotonic() - started - LAG_PROBE_SECONDS
            journal.lags.append((time.time(), late * 1000))

    gevent.spawn(probe)


FREEZE_SECONDS = 1.0


def keep_collections_short() -> None:
    """Move everything the process holds into Python's permanent generation every second
    (``gc.freeze``), so that its collections look only at what is new. The journal keeps every
    answer and socket message until the run ends; as it grew, each full collection walked all of
    it and froze the process (its players' requests, its sockets' reads) for 158, 221, 274,
    then 354 ms, ten seconds apart, in a 90-second paced run: most of the actions' tail that
    the report blamed on the server (docs/OPERATIONS.md, "The paced mix's tail")."""
    def freeze() -> None:
        while True:
            gevent.sleep(FREEZE_SECONDS)
            gc.freeze()

    gevent.spawn(freeze)


class SocketJournal(Journal):
    """The journal of players that hold sockets: their messages, errors and connections."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[tuple] = []  # the socket's key, connection, when received, message
        self.socket_errors: dict[str, int] = defaultdict(int)  # kind -> count
        self.socket_error_log: list[tuple] = []  # when, kind, detail, then the socket's key
        self.connections = 0
        self.reconnects = 0
        self.polls = 0  # reads because a socket was silent for its poll seconds

    def socket_error(self, kind: str, detail: str, *key) -> None:
        self.socket_errors[kind] += 1
        if len(self.socket_error_log) < 10_000:
            self.socket_error_log.append((time.time(), kind, detail[:300], *key))


def send(user, journal: Journal, method: str, path: str, name: str, body: dict | None,
         key: str | None = None, ok: tuple[int, ...] = (200, 201),
         gives_up: str | None = None) -> dict:
    """One request of the locust ``user``, retried with the same key (if any) until it is
    answered; a request named ``gives_up`` that never is counts in ``journal.gave_up``."""
    headers = {**getattr(user, "auth", {}), "Content-Type": "application/json"}
    if key is not None:
        headers["Idempotency-Key"] = key
    data = json.dumps(body) if body is not None else None
    deadline = time.monotonic() + RETRY_FOR_SECONDS
    while True:
        started = time.time()
        # As a load balancer stamps it: the server times the answer from here too
        # (foursquare_request_proxied_duration_seconds), so the report can tell the way to
        # Django's middleware from the view's own time (loadtest.server_times).
        headers["X-Request-Start"] = f"t={int(started * 1e6)}"
        with user.client.request(method, path, data=data, headers=headers, name=name,
                                 catch_response=True) as response:
            elapsed_ms = (time.time() - started) * 1000
            status = response.status_code
            if status in ok:
                journal.answered(name, started, elapsed_ms)
                return response.json()
            # No answer at all: what the client saw instead (refused, reset, timed out).
            journal.failed(name, time.time(), status,
                           response.text or repr(getattr(response, "error", None) or ""))
            response.failure(f"{status}")
        # 0: no answer at all (connection refused or reset, a worker killed); 502-504: the
        # service said it is briefly unavailable. Both are safe to retry with the same key.
        retryable = status == 0 or 502 <= status <= 504
        if not retryable or time.monotonic() > deadline:
            if name == gives_up:
                journal.gave_up += 1
            raise RuntimeError(f"{name}: {status} {(response.text or '')[:200]}")
        gevent.sleep(0.05 + random.random() * 0.1)


class ClosedByServer(Exception):
    """The server closed the socket (its close code in the message)."""


class HeldSocket:
    """A WebSocket held by a greenlet that reads it, journals every message and opens it again
    when it breaks, until ``close``. A subclass names its ``url``, the ``key`` its messages
    and errors are journaled under, and what it does with a message (``receive``); ``changed``
    is set when the socket breaks (the player reads over REST while it is away)."""

    def __init__(self, user, journal: SocketJournal) -> None:
        self.user = user
        self.journal = journal
        self.changed = Flag()
        self.closing = False
        self.ws: websocket.WebSocket | None = None
        self.reader = gevent.spawn(self._hold)

    def url(self) -> str:
        raise NotImplementedError

    def key(self) -> tuple:
        raise NotImplementedError

    def receive(self, message: dict) -> None:
        raise NotImplementedError

    def _base(self) -> str:
        host = self.user.environment.host or self.user.host
        return host.replace("http://", "ws://").replace("https://", "wss://")

    def _hold(self) -> None:
        journal = self.journal
        connection = 0
        while not self.closing:
            connection += 1
            journal.connections += 1
            if connection > 1:
                journal.reconnects += 1
            try:
                self.ws = websocket.create_connection(
                    self.url(), timeout=10, header=[f"Authorization: Bearer {self.user.token}"])
                self.ws.settimeout(None)
                while not self.closing:
                    opcode, data = self.ws.recv_data(control_frame=True)
                    received = time.time()
                    if opcode == websocket.ABNF.OPCODE_TEXT:
                        message = json.loads(data)
                        journal.messages.append((*self.key(), connection, received, message))
                        self.receive(message)
                    elif opcode == websocket.ABNF.OPCODE_CLOSE:
                        code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                        raise ClosedByServer(f"close {code}")
            except Exception as error:  # noqa: BLE001 - every failure is journaled and retried
                if self.closing:
                    break
                if isinstance(error, ClosedByServer):
                    kind = str(error)
                elif isinstance(error, websocket.WebSocketBadStatusException):
                    kind = f"handshake refused {error.status_code}"
                else:
                    kind = type(error).__name__
                held = "first connection" if connection == 1 else "a reconnection"
                journal.socket_error(f"{kind} ({held})", str(error), *self.key())
                self.changed.set()
                gevent.sleep(0.2 + random.random() * 0.3)
            finally:
                self._shut()

    def _shut(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):  # it is being thrown away
                self.ws.close(timeout=1)
            self.ws = None

    def close(self) -> None:
        self.closing = True
        self._shut()
        self.reader.kill(block=False)
