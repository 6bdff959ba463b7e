"""The race socket where no notice reaches it: the embedded default (no Redis; each app
process's in-memory layer reaches its own sockets only). Moves stored by this test's own
process tell no socket, so what arrives came from the socket's own reads of the race, every
``LIVE_POLL_SECONDS``: the others' progress still as counts only, the race when it changes."""

from __future__ import annotations

import pytest
from django.db import transaction

from server.foursquare import services
from server.foursquare.races import services as races
from server.players.models import Player
from tests.asgi_server import asgi_server, database_url
from tests.server.foursquare.races.live.support import (
    cards_in,
    connect,
    game_of,
    race_create,
    race_get,
    race_started,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    with asgi_server(database_url=database_url(), redis_url=None,
                     log_dir=tmp_path_factory.mktemp("asgi"),
                     env={"FOURSQUARE_LIVE_POLL_SECONDS": "0.2"}) as running:
        yield running
    log = running.log()
    for failure in ("Exception in ASGI application", "Internal Server Error", "tick failed",
                    "a handler failed"):
        assert failure not in log, log


def move_here(person, game: dict) -> None:
    """``game``'s first legal move, stored by this process (which tells no socket)."""
    row, col = game["legal_moves"][0]
    with transaction.atomic():
        locked = services.game_lock(player=Player.objects.get(pk=person.id),
                                    game_id=game["id"])
        services.move_play(game=locked, row=row, col=col, expected_move=game["moves_played"])


@pytest.mark.long
def test_moves_and_changes_reach_a_socket_by_its_reads(server, people):
    ada, bob, cy = people[:3]
    waiting = race_create(server, ada.token, players=3)
    host = connect(server, waiting["id"], ada.token)
    with transaction.atomic():
        races.race_join(race=races.race_lock_by_code(waiting["code"]),
                        player=Player.objects.get(pk=bob.id))
    joined = host.until(lambda m: m["type"] == "race")["race"]
    assert [racer["player"]["id"] for racer in joined["racers"]] == [ada.id, bob.id]
    host.close()

    race = race_started(server, [ada.token, cy.token])
    socket = connect(server, race["id"], ada.token)
    game = game_of(server, cy.token, race_get(server, cy.token, race["id"])["game"])
    move_here(cy, game)
    seen = socket.until(lambda m: m["type"] == "progress" and m["player"] == cy.id)
    assert seen["progress"]["placed"] == 1 and "board" not in seen
    assert cards_in(socket.messages) == []
    socket.close()
