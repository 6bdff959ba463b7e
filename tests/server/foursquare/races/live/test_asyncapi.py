"""Messages received on a real race socket (the live server: gunicorn's uvicorn workers,
PostgreSQL, Redis) fit the AsyncAPI document's schema for their type, closed: no undeclared
member; a board too, once its receiver may watch."""

from __future__ import annotations

import pytest

from tests.make_run import call
from tests.server.api.openapi_json_schema import errors
from tests.server.foursquare.races.live.support import (
    connect,
    game_of,
    move,
    play_out,
    race_get,
    race_started,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def _schema_of(document: dict, message: dict) -> str:
    ref = document["channels"]["race"]["messages"][message["type"]]["$ref"]
    declared = document["components"]["messages"][ref.rsplit("/", 1)[-1]]
    return declared["payload"]["schema"]["$ref"].rsplit("/", 1)[-1]


def test_a_race_sockets_messages_fit_the_asyncapi_document(server, people):
    ada, bob = people[:2]
    status, document = call(server.base, "GET", "/api/asyncapi/")
    assert status == 200, document
    race = race_started(server, [ada.token, bob.token], players=3)  # started by its host
    socket = connect(server, race["id"], ada.token)
    games = {person: game_of(server, person.token,
                             race_get(server, person.token, race["id"])["game"])
             for person in (ada, bob)}
    move(server, bob.token, games[bob])
    socket.until(lambda m: m["type"] == "progress" and m["player"] == bob.id)
    play_out(server, ada.token, games[ada])
    socket.until(lambda m: m["type"] == "race" and "board" in m["race"]["racers"][1])
    move(server, bob.token, game_of(server, bob.token, games[bob]["id"]))
    socket.until(lambda m: m["type"] == "progress" and m["player"] == bob.id and "board" in m)
    socket.send({"type": "ping"})
    socket.until(lambda m: m["type"] == "pong")
    socket.close()

    assert {m["type"] for m in socket.messages} == {"ready", "race", "progress", "pong"}
    for message in socket.messages:
        name = _schema_of(document, message)
        assert errors(document, name, message) == [], (name, message)
