"""A socket forwards the events that come with a notice, each seat its own view, without
reading the database; it reads the feed when a notice does not follow on from what it sent.
In-process (asgiref's communicator, the in-memory layer): the notices here name events the
database does not hold, so only the notice can have brought them."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.utils import timezone

from server.spitemalice.live import consumers, publish
from server.spitemalice.models import Event
from tests.server.spitemalice.live.test_socket_failures import Socket
from tests.serving import WAIT_SECONDS

pytestmark = pytest.mark.django_db(transaction=True)


def unstored(match, number: int) -> Event:
    """An event as a request would have stored it: each seat sees its own draw."""
    return Event(match=match, number=number, kind="draw",
                 seat0={"seat": 0, "count": 1, "cards": ["7D"]},
                 seat1={"seat": 0, "count": 1}, created_at=timezone.now())


def test_each_seat_gets_its_own_view_from_the_notice(table):
    match, tokens = table

    async def scenario():
        sockets = [Socket(match, tokens[seat]) for seat in (0, 1)]
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


def stored_quietly(match, number: int) -> None:
    """An event stored with no notice (as the embedded default's other process would)."""
    unstored(match, number).save()
    type(match).objects.filter(pk=match.pk).update(event=number)


def test_the_periodic_check_reads_the_feed_when_the_cache_is_ahead(table, settings):
    settings.LIVE_POLL_SECONDS = 0.05
    settings.LIVE_FEED_CHECK_SECONDS = 600  # so only the cache's number can send it reading
    match, tokens = table

    async def scenario():
        socket = Socket(match, tokens[0])
        await socket.connect()
        await socket.until_type("ready")
        number = match.event + 1
        await sync_to_async(stored_quietly)(match, number)
        cache.set(publish._latest_key(match.pk), number)
        message = await socket.until_type("events")
        await socket.disconnect()
        return message

    assert [event["number"] for event in asyncio.run(scenario())["events"]] == [match.event + 1]


def test_the_periodic_check_reads_the_feed_now_and_then_whatever_the_cache_says(table, settings):
    settings.LIVE_POLL_SECONDS = 0.05
    settings.LIVE_FEED_CHECK_SECONDS = 0.2
    match, tokens = table

    async def scenario():
        socket = Socket(match, tokens[0])
        await socket.connect()
        await socket.until_type("ready")
        assert publish.latest_known(match.pk) == match.event  # kept when the socket arrived
        await sync_to_async(stored_quietly)(match, match.event + 1)  # the cache: match.event
        message = await socket.until_type("events")
        await socket.disconnect()
        return message

    assert [event["number"] for event in asyncio.run(scenario())["events"]] == [match.event + 1]


def test_an_idle_sockets_checks_compare_a_number_and_read_nothing(table, settings,
                                                                  monkeypatch):
    settings.LIVE_POLL_SECONDS = 0.02
    settings.LIVE_FEED_CHECK_SECONDS = 600
    match, tokens = table
    checks, reads = [], []
    known, read = publish.latest_known_of, consumers._events_after

    def counted_check(match_ids):
        checks.append(match_ids)
        return known(match_ids)

    async def counted_read(*args):
        reads.append(args)
        return await read(*args)

    monkeypatch.setattr(publish, "latest_known_of", counted_check)
    monkeypatch.setattr(consumers, "_events_after", counted_read)

    async def scenario():
        socket = Socket(match, tokens[0])
        await socket.connect()
        await socket.until_type("ready")
        await socket.until_type("presence")  # sent after the catch-up, which may read
        reads.clear()

        async def ten_checks():
            while len(checks) < 10:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(ten_checks(), WAIT_SECONDS)
        await socket.disconnect()

    asyncio.run(scenario())
    assert len(checks) >= 10 and reads == []
    assert {match.pk} in checks  # the process's one check covers this socket's match


def test_a_notices_frame_is_the_message_the_socket_would_have_encoded_byte_for_byte(table):
    """The publisher encodes each seat's frame once, from the views encoded for the database;
    it is the text the socket's own encoding of the same message gives, whatever the views
    hold (nested tables, text beyond ASCII, nothing at all)."""
    import json

    match, _tokens = table
    table_view = {"game": {"number": 1, "hand": ["7D", "KS"], "centre": [{"size": 0,
                                                                          "top": None}]},
                  "deadline": None, "your_turn": True}
    events = [
        Event(match=match, number=7, kind="draw", seat0={"seat": 0, "count": 2,
                                                         "cards": ["7D", "KS"],
                                                         "table": table_view},
              seat1={"seat": 0, "count": 2}),
        Event(match=match, number=8, kind="joined", seat0={"player": {"name": "Zoë 𝄞"}},
              seat1={"player": {"name": "Zoë 𝄞"}}),
        Event(match=match, number=9, kind="turn", seat0={}, seat1={}),
    ]
    for seat in (0, 1):
        expected = json.dumps({"type": "events", "events": [
            {"number": event.number, "kind": event.kind, **getattr(event, f"seat{seat}")}
            for event in events], "last": 9}, separators=(",", ":"))
        assert publish.events_frame(events, seat, 9) == expected
    assert "7D" not in publish.events_frame(events, 1, 9)  # the other seat's view only
