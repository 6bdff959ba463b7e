"""A request's notices on the Redis Pub/Sub layer go in one round trip (one script), and each
group's sockets get exactly what ``group_send`` would have given them, in order: the seats'
events to each seat's group only, the account stream's to its own."""

from __future__ import annotations

import asyncio
import uuid
from unittest import mock

from channels_redis.pubsub import RedisPubSubChannelLayer

from server.api import notices
from tests.asgi_server import TEST_REDIS_URL


async def _published(layer: RedisPubSubChannelLayer, batches: list[tuple]) -> tuple[dict, list]:
    """Each group's messages as a channel subscribed to it received them, and the commands
    sent on the publishing connection."""
    groups = ("sm-match-a-0", "sm-match-a-1", "account-b")
    channels = {group: await layer.new_channel() for group in groups}
    for group, channel in channels.items():
        await layer.group_add(group, channel)
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()
    with mock.patch.object(shard._redis, "execute_command",
                           wraps=shard._redis.execute_command) as sent:
        for notices_of_a_request in batches:
            await notices._send(layer, notices_of_a_request)
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


def test_redis_replies_are_parsed_in_c():
    """hiredis is installed, and redis-py's connections take it: the Python parser cost a
    third more CPU per command (the rate limit's script, each notice, each socket's)."""
    from redis.asyncio.connection import Connection as AsyncConnection
    from redis.connection import Connection
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE
    assert "Hiredis" in type(Connection()._parser).__name__
    assert "Hiredis" in type(AsyncConnection()._parser).__name__
