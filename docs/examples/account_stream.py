"""Reading the account stream (``GET /api/v1/stream``; docs/API.md, "The account stream") with
the client generated from the API's OpenAPI document, typed as its models.

The generated call (``account_stream.stream_open``) reads a body whole before it returns, and
this one lasts up to 5 minutes: the schema declares it as ``application/x-ndjson`` and
``text/event-stream`` with each item's schema (``x-itemSchema``), which no generator turns
into an iterator yet. So this helper reads it line by line on the generated client's own httpx
client (its base URL and token) and parses each line into the generated event classes, through
the page model's own union (``StreamPageOutput``: one event per kind, told apart by ``kind``).

    from account_stream import follow
    for event in follow(client, after=0):      # every event after 0, reconnecting as needed
        if isinstance(event, YourTurnEvent):
            ...

Copy it beside your bot; the tests run it against the real server and check it with the
generated package under ``mypy --strict``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import TypeAlias

import httpx
from foursquare_client import AuthenticatedClient
from foursquare_client.models import (
    InvitationCancelledEvent,
    InvitationDeclinedEvent,
    InvitationReceivedEvent,
    JoinedEvent,
    MatchOverEvent,
    MatchStartedEvent,
    Problem,
    StreamPageOutput,
    YourTurnEvent,
)

AccountEvent: TypeAlias = (
    InvitationCancelledEvent | InvitationDeclinedEvent | InvitationReceivedEvent | JoinedEvent
    | MatchOverEvent | MatchStartedEvent | YourTurnEvent)
PATH = "/api/v1/stream"
# The server sends a keep-alive (an empty line) after 20 s of silence: a minute without a byte
# is a connection lost.
TIMEOUT = httpx.Timeout(30.0, read=60.0)


class StreamRefused(Exception):
    """The server refused the stream: ``status`` and its ``problem`` (problem+json)."""

    def __init__(self, status: int, problem: Problem | None, retry_after: float | None) -> None:
        super().__init__(f"{status}: {problem.detail if problem else 'no problem body'}")
        self.status, self.problem, self.retry_after = status, problem, retry_after


def parse(line: str) -> AccountEvent:
    """One NDJSON line as its kind's generated model."""
    data = json.loads(line)
    page = StreamPageOutput.from_dict({"events": [data], "last": data["number"] or 0,
                                       "more": False})
    return page.events[0]


def events(client: AuthenticatedClient, after: int = 0) -> Iterator[AccountEvent]:
    """The events after ``after`` on one connection: first the snapshot of the matches being
    played (a ``MatchStartedEvent`` each, its ``number`` None), then the stored ones, then each
    as it is stored, until the server ends the stream (after 5 minutes). Closing the iterator
    closes the connection."""
    with client.get_httpx_client().stream(
            "GET", PATH, params={"after": after}, timeout=TIMEOUT,
            headers={"Accept": "application/x-ndjson"}) as response:
        if response.status_code != 200:
            response.read()
            problem = (Problem.from_dict(response.json()) if response.headers.get(
                "content-type", "").startswith("application/problem+json") else None)
            retry = response.headers.get("Retry-After")
            raise StreamRefused(response.status_code, problem,
                                float(retry) if retry and retry.isdigit() else None)
        for line in response.iter_lines():
            if line:  # an empty line is a keep-alive
                yield parse(line)


def follow(client: AuthenticatedClient, after: int = 0, *,
           pause_seconds: float = 1.0) -> Iterator[AccountEvent]:
    """Every event after ``after``, for as long as you read: when a stream ends (its 5
    minutes, a restart, a dropped connection) the next one resumes after the last number read,
    so nothing is missed or repeated. Each connection begins with the snapshot of the matches
    being played (unnumbered ``MatchStartedEvent``s): a match may come again there, so key
    what you hold by its ``match``. Too many streams open (429) waits its ``Retry-After``; any
    other refusal is raised."""
    last = after
    while True:
        try:
            for event in events(client, last):
                if isinstance(event.number, int):
                    last = event.number
                yield event
        except httpx.TransportError:
            pass
        except StreamRefused as refused:
            if refused.status != 429:
                raise
            time.sleep(refused.retry_after or pause_seconds)
        time.sleep(pause_seconds)
