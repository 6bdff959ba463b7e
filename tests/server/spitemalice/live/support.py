"""A socket client for the live tests that checks every message's numbering as it reads."""

from __future__ import annotations

import json
import time

from websockets.exceptions import ConnectionClosed

from tests.make_run import call
from tests.serving import WAIT_SECONDS


class Socket:
    """A connected ``websockets`` client; ``after`` is the ``?after`` it asked for. Every
    ``events`` message must continue exactly where the last one ended."""

    def __init__(self, ws, after: int | None = None) -> None:
        self.ws = ws
        self.after = after
        self.cursor: int | None = after
        self.messages: list[dict] = []
        self.events: list[dict] = []
        self.ready: dict | None = None
        self.presence: list[bool] | None = None

    def recv(self, timeout: float = WAIT_SECONDS) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        kind = message["type"]
        if kind == "ready":
            assert self.ready is None, "ready twice"
            self.ready = message
            if self.cursor is None:
                self.cursor = message["last"]
        elif kind == "events":
            assert self.ready is not None, "events before ready"
            numbers = [event["number"] for event in message["events"]]
            assert numbers == list(range(self.cursor + 1, self.cursor + 1 + len(numbers))), (
                f"after {self.cursor} came {numbers}")
            assert numbers and message["last"] == numbers[-1]
            self.cursor = message["last"]
            self.events += message["events"]
        elif kind == "presence":
            self.presence = message["seats"]
        return message

    def until(self, predicate, timeout: float = WAIT_SECONDS) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def through(self, number: int, timeout: float = WAIT_SECONDS) -> None:
        """Read until the events up to ``number`` are in."""
        if self.cursor is not None and self.cursor >= number:
            return
        self.until(lambda _: self.cursor is not None and self.cursor >= number, timeout)

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

    def close_code(self, timeout: float = WAIT_SECONDS) -> int:
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


def feed(base: str, match_id, token: str, after: int = 0) -> list[dict]:
    """Every event of the REST feed after ``after``, page by page."""
    events = []
    while True:
        status, page = call(base, "GET", f"/api/v1/spite-malice/matches/{match_id}/events"
                                         f"?after={after}", token=token)
        assert status == 200, page
        events += page["events"]
        if not page["events"]:
            return events
        after = page["last"]
