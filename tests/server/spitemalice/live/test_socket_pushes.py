"""A socket forwards the events that come with a notice, each seat its own view, without
reading the database; it reads the feed when a notice does not follow on from what it sent.
In-process (asgiref's communicator, the in-memory layer): the notices here name events the
database does not hold, so only the notice can have brought them."""

from __future__ import annotations

import asyncio

import pytest

from server.players import services as players
from server.spitemalice import services
from server.spitemalice.live import publish
from server.spitemalice.models import Event
from tests.server.spitemalice.live.test_socket_failures import Socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    ada, ada_token = players.player_create(name="Ada")
    bob, bob_token = players.player_create(name="Bob")
    match = services.match_start_friend(player=ada, opponent=bob, target=1)
    return match, (ada_token, bob_token)


def unstored(match, number: int) -> Event:
    """An event as a request would have stored it: each seat sees its own draw."""
    return Event(match=match, number=number, kind="draw",
                 seat0={"seat": 0, "count": 1, "cards": ["7D"]},
                 seat1={"seat": 0, "count": 1})


def test_each_seat_gets_its_own_view_from_the_notice(table):
    match, tokens = table

    async def scenario():
        sockets = [Socket(match, token) for token in tokens]
        for socket in sockets:
            await socket.connect()
        last = [(await socket.until_type("ready"))["last"] for socket in sockets]
        assert last[0] == last[1] == match.event
        publish.events_stored(match.pk, [unstored(match, match.event + 1)])
        got = [await socket.until_type("events") for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return got

    ada, bob = asyncio.run(scenario())
    number = match.event + 1
    assert ada == {"type": "events", "last": number, "events": [
        {"number": number, "kind": "draw", "seat": 0, "count": 1, "cards": ["7D"]}]}
    assert bob == {"type": "events", "last": number, "events": [
        {"number": number, "kind": "draw", "seat": 0, "count": 1}]}


def test_a_notice_after_a_gap_is_not_forwarded_but_read_from_the_feed(table):
    match, tokens = table

    async def scenario():
        socket = Socket(match, tokens[0])
        await socket.connect()
        await socket.until_type("ready")
        # Number + 2 first: the one before it has not reached this socket, so it is not
        # forwarded (the feed, which the socket reads instead, holds neither). Then number + 1,
        # which follows on: forwarded.
        publish.events_stored(match.pk, [unstored(match, match.event + 2)])
        publish.events_stored(match.pk, [unstored(match, match.event + 1)])
        message = await socket.until_type("events")
        await socket.disconnect()
        return message

    number = match.event + 1
    assert asyncio.run(scenario()) == {"type": "events", "last": number, "events": [
        {"number": number, "kind": "draw", "seat": 0, "count": 1, "cards": ["7D"]}]}
