"""The real server for the race socket's tests, one for them all: gunicorn's uvicorn workers (2)
on the test database, Redis as cache and channel layer (tests/asgi_server.py). Its sockets read
the race only every 10 minutes on their own, so what reaches one in these tests came with a
notice (or the race's clock: the worker's sweep of races past their time is off, so that a
race the test ends is closed by its socket's clock, as the test says); they check their token
every second."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from server.players import services as players
from tests.server.live import FAILURES, live_server


@pytest.fixture(scope="package")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    with live_server(tmp_path_factory,
                     # No sweep of races past their time either: what closes one in these
                     # tests is its socket's clock, or a read.
                     env={"RACE_SWEEP_SECONDS": "600",
                          "FOURSQUARE_LIVE_POLL_SECONDS": "600",
                          "FOURSQUARE_LIVE_FEED_CHECK_SECONDS": "600",
                          "FOURSQUARE_LIVE_TOKEN_CHECK_SECONDS": "1"},
                     failures=(*FAILURES, "a handler failed")) as running:
        yield running


class Person(NamedTuple):
    id: str
    token: str


@pytest.fixture
def people() -> list[Person]:
    """Four new players (Ada, Bob, Cy and Di): their ids and tokens."""
    made = [players.player_create(name=name) for name in ("Ada", "Bob", "Cy", "Di")]
    return [Person(str(player.pk), token) for player, token in made]
