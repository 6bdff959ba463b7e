"""A request's notices on the Redis Pub/Sub layer go in one round trip (one script) from the
process's publishing thread, and each group's sockets get exactly what ``group_send`` would
have given them, in order: the seats' events to each seat's group only, the account stream's
to its own. A Redis that hangs holds that thread, never the request."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from unittest import mock

from channels_redis.pubsub import RedisPubSubChannelLayer

from server.api import notices, publisher
from tests.asgi_server import TEST_REDIS_URL


async def _published(layer: RedisPubSubChannelLayer, batches: list[tuple]) -> tuple[dict, list]:
    """Each group's messages as a channel subscribed to it received them, and the commands
    sent on the publishing connection."""
    groups = ("sm-match-a-0", "sm-match-a-1", "account-b")
    channels = {group: await layer.new_channel() for group in groups}
    for group, channel in channels.items():
        await layer.group_add(group, channel)
    sending = publisher.Publisher(layer)
    client = sending._clients[0]
    with mock.patch.object(client, "execute_command", wraps=client.execute_command) as sent:
        for notices_of_a_request in batches:
            sending.publish(list(notices_of_a_request))
    counts = {group: sum(1 for batch in batches for named, _ in batch if named == group)
              for group in groups}
    # Each group's messages in the order they came (a group's channel holds its queue).
    received = {group: [await asyncio.wait_for(layer.receive(channels[group]), 5)
                        for _ in range(counts[group])] for group in groups}
    await layer.flush()
    return received, [call.args[0] for call in sent.call_args_list]


def test_a_requests_notices_go_in_one_round_trip_each_to_its_own_group():
    layer = RedisPubSubChannelLayer(hosts=[TEST_REDIS_URL], prefix=f"test-{uuid.uuid4().hex}.")
    seat0 = {"type": "events.stored", "first": 5, "last": 6,
             "events": [{"number": 5, "kind": "play"}, {"number": 6, "kind": "draw"}]}
    seat1 = {**seat0, "events": [{"number": 5, "kind": "play"}, {"number": 6, "kind": "drew"}]}
    account = {"type": "account.events", "first": 3, "last": 3}
    later = {"type": "events.stored", "first": 7, "last": 7, "events": []}
    received, commands = asyncio.run(_published(layer, [
        (("sm-match-a-0", seat0), ("sm-match-a-1", seat1), ("account-b", account)),
        (("sm-match-a-0", later),),
    ]))
    assert received == {"sm-match-a-0": [seat0, later], "sm-match-a-1": [seat1],
                        "account-b": [account]}
    # One script a request (its first run on this Redis may load it first).
    assert commands in (["EVALSHA", "EVALSHA"], ["EVALSHA", "SCRIPT LOAD", "EVALSHA", "EVALSHA"])


def test_a_request_hands_its_notices_to_the_thread_in_the_order_given(monkeypatch):
    layer = RedisPubSubChannelLayer(hosts=[TEST_REDIS_URL], prefix=f"test-{uuid.uuid4().hex}.")
    monkeypatch.setattr(notices, "get_channel_layer", lambda: layer)
    handed: list = []
    monkeypatch.setattr(publisher.Publisher, "put", lambda self, given: handed.append(given))
    first = (("sm-match-a-0", {"type": "events.stored"}), ("account-b", {"type": "x"}))
    notices.send(*first)
    notices.send(("sm-match-a-1", {"type": "events.stored"}))
    assert handed == [first, (("sm-match-a-1", {"type": "events.stored"}),)]
    assert publisher.publisher_of(layer) is publisher.publisher_of(layer)  # one a process


def _count(outcome: str) -> float:
    return publisher.metrics.live_notices.labels(outcome)._value.get()


def test_a_redis_that_hangs_holds_the_thread_and_later_notices_are_dropped(monkeypatch):
    """A server that takes the connection and does not answer: the thread waits on its first
    batch, at most ``WAITING_MAX`` requests' notices wait behind it, later ones are counted
    lost at once; once the server is gone every notice is counted lost, none sent."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    monkeypatch.setattr(publisher, "SEND_SECONDS", 60.0)  # the test ends the wait itself
    monkeypatch.setattr(publisher, "WAITING_MAX", 2)
    layer = RedisPubSubChannelLayer(hosts=[f"redis://127.0.0.1:{silent.getsockname()[1]}/0"],
                                    prefix=f"test-{uuid.uuid4().hex}.")
    sent, lost = _count("sent"), _count("lost")
    sending = publisher.Publisher(layer)
    request = (("sm-match-a-0", {"type": "events.stored"}), ("account-b", {"type": "x"}))
    sending.put(request)
    held, _ = silent.accept()  # the thread's connection: it is waiting for the answer now
    held.settimeout(5)
    assert held.recv(1024)  # the script's call arrived, and is never answered
    sending.put(request)
    sending.put(request)  # two requests wait: the most allowed
    assert _count("lost") == lost
    sending.put(request)  # a third is dropped at once
    assert _count("lost") == lost + 2
    silent.close()  # no server any more: the thread's next connections are refused
    held.close()  # and the one it waits on ends
    deadline = time.monotonic() + 30
    while _count("lost") < lost + 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _count("lost") == lost + 8 and _count("sent") == sent


def test_redis_replies_are_parsed_in_c():
    """hiredis is installed, and redis-py's connections take it: the Python parser cost a
    third more CPU per command (the rate limit's script, each notice, each socket's)."""
    from redis.asyncio.connection import Connection as AsyncConnection
    from redis.connection import Connection
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE
    assert "Hiredis" in type(Connection()._parser).__name__
    assert "Hiredis" in type(AsyncConnection()._parser).__name__
