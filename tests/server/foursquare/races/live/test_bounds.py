"""The race socket's own bounds, on a server of one worker (the counts are per process): a
racer holds at most LIVE_SOCKETS_PER_SEAT sockets on a race (each costs a read whenever the race
changes), refused 4429 past it and let in again once one closed; a socket whose token is
signed out closes 4401."""

from __future__ import annotations

import time

import pytest
from websockets.exceptions import ConnectionClosed

from server.players.models import AccessToken
from tests.server.foursquare.races.live.support import RaceSocket, connect, path, race_create
from tests.server.live import live_server
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

PER_RACER = 2


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    with live_server(tmp_path_factory, needs=None, workers=1,
                     env={"FOURSQUARE_LIVE_SOCKETS_PER_SEAT": str(PER_RACER),
                          "FOURSQUARE_LIVE_POLL_SECONDS": "600",
                          "FOURSQUARE_LIVE_FEED_CHECK_SECONDS": "600",
                          "FOURSQUARE_LIVE_TOKEN_CHECK_SECONDS": "1"},
                     failures=("Traceback", "Exception in ASGI application",
                               "Internal Server Error")) as running:
        yield running


def test_a_racer_holds_a_bounded_number_of_sockets_on_a_race(server, people):
    ada = people[0]
    race = race_create(server, ada.token, players=2)
    held = [connect(server, race["id"], ada.token) for _ in range(PER_RACER)]
    assert RaceSocket(server.ws(path(race["id"]), token=ada.token)).close_code() == 4429
    # Another race of hers is counted apart.
    other = connect(server, race_create(server, ada.token, players=2)["id"], ada.token)
    held.pop().close()
    deadline = time.monotonic() + WAIT_SECONDS
    while True:  # the server takes in the close a moment after the client's close returns
        socket = RaceSocket(server.ws(path(race["id"]), token=ada.token))
        try:
            first = socket.recv()
        except ConnectionClosed as closed:  # refused while the closed one is still counted
            assert closed.rcvd is not None and closed.rcvd.code == 4429
            assert time.monotonic() < deadline, "the closed socket was never let go"
            time.sleep(0.05)
            continue
        assert first["type"] == "ready"
        break
    for client in (*held, other, socket):
        client.close()


def test_a_socket_whose_token_is_signed_out_closes_4401(server, people):
    ada = people[0]
    race = race_create(server, ada.token, players=2)
    socket = connect(server, race["id"], ada.token)
    AccessToken.objects.filter(player_id=ada.id).delete()
    assert socket.close_code() == 4401
