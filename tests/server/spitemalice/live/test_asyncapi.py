"""Messages received on real sockets (the live server: gunicorn's uvicorn workers, PostgreSQL,
Redis) fit the AsyncAPI document's schema for their type, closed: no undeclared member."""

from __future__ import annotations

import pytest

from tests.make_run import call
from tests.server.api.openapi_json_schema import errors
from tests.server.spitemalice.live.support import Socket
from tests.server.spitemalice.support import greedy

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def _document(server) -> dict:
    status, document = call(server.base, "GET", "/api/asyncapi/")
    assert status == 200, document
    return document


def _schema_of(document: dict, channel: str, message: dict) -> str:
    """The name of the payload schema of ``message``'s type on ``channel``."""
    ref = document["channels"][channel]["messages"][message["type"]]["$ref"]
    declared = document["components"]["messages"][ref.rsplit("/", 1)[-1]]
    return declared["payload"]["schema"]["$ref"].rsplit("/", 1)[-1]


def test_a_match_sockets_messages_fit_the_asyncapi_document(server, table):
    match, tokens = table
    document = _document(server)
    socket = Socket(server.ws(f"/ws/spite-malice/matches/{match.pk}?after=0", token=tokens[0]),
                    after=0)
    socket.until(lambda message: message["type"] == "ready")
    status, view = call(server.base, "GET", f"/api/v1/spite-malice/matches/{match.pk}",
                        token=tokens[0])
    assert status == 200
    seat = view["game"]["turn"]
    if seat != 0:  # the other seat plays, so that seat 0's socket hears of it
        status, view = call(server.base, "GET", f"/api/v1/spite-malice/matches/{match.pk}",
                            token=tokens[seat])
    game = view["game"]
    status, answer = call(server.base, "POST", f"/api/v1/spite-malice/matches/{match.pk}"
                          "/actions", {"action": greedy(game), "game": game["number"],
                                       "actions": game["actions"]}, token=tokens[seat])
    assert status == 200, answer
    socket.through(answer["event"])
    socket.send({"type": "ping"})
    socket.until(lambda message: message["type"] == "pong")
    socket.close()

    types = [message["type"] for message in socket.messages]
    assert {"ready", "events", "presence", "pong"} <= set(types), types
    for message in socket.messages:
        name = _schema_of(document, "spiteMaliceMatch", message)
        assert errors(document, name, message) == [], (name, message)
    kinds = {event["kind"] for message in socket.messages if message["type"] == "events"
             for event in message["events"]}
    assert {"joined", "dealt", "draw"} <= kinds


def test_the_account_sockets_messages_fit_the_asyncapi_document(server, table):
    match, tokens = table
    document = _document(server)
    status, view = call(server.base, "GET", f"/api/v1/spite-malice/matches/{match.pk}",
                        token=tokens[0])
    assert status == 200
    seat = view["game"]["turn"]
    other = 1 - seat
    socket = Socket(server.ws("/ws/account?after=0", token=tokens[other]), after=0)
    socket.until(lambda message: message["type"] == "ready")
    status, view = call(server.base, "GET", f"/api/v1/spite-malice/matches/{match.pk}",
                        token=tokens[seat])
    # The seat to move plays until its turn ends (a discard): the other's turn begins, which
    # its account stream tells it (your_turn).
    while view["game"]["turn"] == seat and view["status"] == "playing":
        game = view["game"]
        status, view = call(server.base, "POST", f"/api/v1/spite-malice/matches/{match.pk}"
                            "/actions", {"action": greedy(game), "game": game["number"],
                                         "actions": game["actions"]}, token=tokens[seat])
        assert status == 200, view
    socket.until(lambda message: message["type"] == "events" and any(
        event["kind"] == "your_turn" for event in message["events"]))
    socket.send({"type": "ping"})
    socket.until(lambda message: message["type"] == "pong")
    socket.close()
    for message in socket.messages:
        name = _schema_of(document, "account", message)
        assert errors(document, name, message) == [], (name, message)
