"""What the tests of the API's sockets share, whichever socket: the real server they talk to
(tests/asgi_server.py) and a client reading its JSON messages."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager

import pytest
from websockets.exceptions import ConnectionClosed

from tests.asgi_server import TEST_REDIS_URL, asgi_server, database_url, redis_reachable
from tests.serving import WAIT_SECONDS

# What must not appear in a server's log once its tests are done.
FAILURES = ("Exception in ASGI application", "Internal Server Error", "tick failed")


@contextmanager
def live_server(tmp_path_factory, *, env: dict, needs: str | None = "the live tests",
                failures=FAILURES, **options):
    """The real server on the test database, Redis as cache and channel layer, with ``env``
    (and ``asgi_server``'s ``options``); fails first, saying so, when ``needs`` Redis and it
    is away. Once it stopped, none of ``failures`` is in its log (a refused hostile request is
    logged by Django with its traceback, as under any server: that is not a failure)."""
    if needs is not None:
        problem = redis_reachable()
        if problem:
            pytest.fail(f"{needs} need Redis: {problem}")
    with asgi_server(database_url=database_url(), redis_url=TEST_REDIS_URL,
                     log_dir=tmp_path_factory.mktemp("asgi"), env=env, **options) as running:
        yield running
    log = running.log()
    for failure in failures:
        assert failure not in log, log


class JsonSocket:
    """A connected ``websockets`` client: every message it got, in order. A subclass checks
    each as it arrives in ``seen``."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.messages: list[dict] = []

    def seen(self, message: dict) -> None:
        """Called with each message read, once it is in ``messages``."""

    def recv(self, timeout: float = WAIT_SECONDS) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        self.seen(message)
        return message

    def until(self, predicate, timeout: float = WAIT_SECONDS) -> dict:
        """Read until a message satisfies ``predicate``: that message."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def quiet(self, seconds: float) -> list[dict]:
        """Whatever arrives in ``seconds``."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.recv(timeout=left))
            except TimeoutError:
                break
        return got

    def close_code(self, timeout: float = WAIT_SECONDS) -> int | None:
        """Read until the server closes the socket; its close code."""
        try:
            while True:
                self.recv(timeout=timeout)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()
