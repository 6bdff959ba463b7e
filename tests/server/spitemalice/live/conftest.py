"""The real server for the live tests: gunicorn's uvicorn workers (2) on the test database, with
Redis as cache and channel layer under a prefix of its own (tests/asgi_server.py)."""

from __future__ import annotations

import pytest

from server.players import services as players
from server.spitemalice import services
from tests.server.live import live_server


@pytest.fixture
def table():
    """Ada (seat 0) and Bob (seat 1) in a single-game friend match, and their tokens by seat."""
    ada, ada_token = players.player_create(name="Ada")
    bob, bob_token = players.player_create(name="Bob")
    match = services.match_start_friend(player=ada, opponent=bob, target=1)
    return match, {0: ada_token, 1: bob_token}


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """One server per module. Its sockets check the feed only every 10 minutes, so an event
    reaching one in these tests came through the channel layer's notice; they check their
    token every second."""
    with live_server(tmp_path_factory,
                     env={"FOURSQUARE_LIVE_POLL_SECONDS": "600",
                          "FOURSQUARE_LIVE_TOKEN_CHECK_SECONDS": "1"}) as running:
        yield running
