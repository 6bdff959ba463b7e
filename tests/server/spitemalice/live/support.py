"""A socket client for the live tests that checks every message's numbering as it reads."""

from __future__ import annotations

from tests.make_run import call
from tests.server.live import JsonSocket
from tests.serving import WAIT_SECONDS


class Socket(JsonSocket):
    """A connected ``websockets`` client; ``after`` is the ``?after`` it asked for. Every
    ``events`` message must continue exactly where the last one ended."""

    def __init__(self, ws, after: int | None = None) -> None:
        super().__init__(ws)
        self.after = after
        self.cursor: int | None = after
        self.events: list[dict] = []
        self.ready: dict | None = None
        self.presence: list[bool] | None = None

    def seen(self, message: dict) -> None:
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

    def through(self, number: int, timeout: float = WAIT_SECONDS) -> None:
        """Read until the events up to ``number`` are in."""
        if self.cursor is not None and self.cursor >= number:
            return
        self.until(lambda _: self.cursor is not None and self.cursor >= number, timeout)


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
