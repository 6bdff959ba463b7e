"""Publishing a process's notices on the Redis Pub/Sub channel layer from one thread of its own.

A request hands its notices over (``Publisher.put``: a queue's put, no wait) and this thread
sends them, each drained batch in one round trip per shard (a script that publishes each
notice on its group's channel), on a synchronous redis-py client of its own. A Redis that hangs
holds this thread, never a request: while it does, at most ``WAITING_MAX`` requests' notices
wait, and later ones are dropped and counted lost (the sockets' own checks of the feed catch
up). Notices leave in the order they were handed over.

Measured in one process (3,000 requests' notices, an action's three each): 250–337 µs of CPU
a request when they were handed to an event loop and sent by redis-py's asyncio client,
150–178 µs handed to this thread (docs/OPERATIONS.md, "A sixteenth machine"). What a
subscriber receives is what ``group_send`` would have sent: the group's channel and the
layer's serializer, taken from channels-redis's own classes (pinned: these are its internals
of 4.3).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer

from server.core import metrics

logger = logging.getLogger(__name__)

# PUBLISH of each channel (ARGV[2 .. n+1]) with its message (ARGV[n+2 .. 2n+1]), n = ARGV[1].
# The channels are not keys (Pub/Sub ignores the database), so none is declared.
PUBLISH_ALL = """
local count = tonumber(ARGV[1])
for index = 2, count + 1 do
    redis.call('PUBLISH', ARGV[index], ARGV[index + count])
end
return count
"""

# How long one round trip may take before its notices are given up (and the client's
# connection dropped): a Redis that hangs must not hold the notices behind them for long.
SEND_SECONDS = 2.0
# Requests whose notices may wait for the thread; more are dropped while Redis hangs.
WAITING_MAX = 1000
# Requests' notices sent in one round trip at most, when many wait.
BATCH_MAX = 100

_sent = metrics.live_notices.labels("sent")
_lost = metrics.live_notices.labels("lost")

Notice = tuple[str, dict]


class Publisher:
    """One process's thread that publishes on ``layer``'s Redis servers (its shards)."""

    def __init__(self, layer: RedisPubSubChannelLayer) -> None:
        self.layer = layer
        # The layer's own naming and sharding, from a loop layer that never connects.
        self._naming = RedisPubSubLoopLayer(*layer._args, **layer._kwargs)
        self._clients: list[Any] = [_client(shard.host) for shard in self._naming._shards]
        self._scripts = [client.register_script(PUBLISH_ALL) for client in self._clients]
        self._queue: queue.SimpleQueue[tuple[Notice, ...]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="live-publish", daemon=True)
        self._thread.start()

    def put(self, notices: tuple[Notice, ...]) -> None:
        """Hand a request's notices to the thread, or count them lost if too many wait."""
        if self._queue.qsize() >= WAITING_MAX:
            _lost.inc(len(notices))
            logger.warning("live notices dropped: %d requests' notices wait for Redis "
                           "(the sockets' checks of the feed will catch up)", WAITING_MAX)
            return
        self._queue.put(notices)

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < BATCH_MAX:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self.publish([notice for notices in batch for notice in notices])

    def publish(self, notices: list[Notice]) -> None:
        """Send ``notices`` in order, one round trip per shard; a failure is counted and
        logged, never raised (the thread goes on with the next)."""
        by_shard: dict[int, tuple[list[str], list[bytes]]] = {}
        try:
            for group, message in notices:
                channel = self._naming._get_group_channel_name(group)
                shard = self._naming._shards.index(self._naming._get_shard(channel))
                channels, messages = by_shard.setdefault(shard, ([], []))
                channels.append(channel)
                messages.append(self.layer.serialize(message))
        except Exception as error:  # noqa: BLE001 - the thread outlives any failure
            _lost.inc(len(notices))
            logger.warning("live notices not sent: %r", error)
            return
        for shard, (channels, messages) in by_shard.items():
            try:
                # The script's first run on a Redis (or one restarted) loads it: redis-py's
                # Script answers NOSCRIPT so.
                self._scripts[shard](args=[len(channels), *channels, *messages])
            except Exception as error:  # noqa: BLE001 - the thread outlives any failure
                _lost.inc(len(channels))
                logger.warning("live notices not sent (the sockets' checks of the feed will "
                               "catch up): %r", error)
            else:
                _sent.inc(len(channels))


def _client(host: dict) -> redis.Redis:
    """A synchronous client for one of the layer's hosts (as channels-redis decodes them), its
    waits bounded by ``SEND_SECONDS``, with the host's own options (the settings'
    ``retry_on_error``: a command on a connection Redis closed is sent again on a new one)."""
    options = {key: value for key, value in host.items() if key != "address"}
    options.setdefault("socket_timeout", SEND_SECONDS)
    options.setdefault("socket_connect_timeout", SEND_SECONDS)
    if "address" in host:
        return redis.Redis.from_url(host["address"], **options)
    return redis.Redis(**options)


_lock = threading.Lock()
_publishers: dict[int, tuple[int, Publisher]] = {}  # id of a layer: (pid, its publisher)


def publisher_of(layer: RedisPubSubChannelLayer) -> Publisher:
    """This process's publisher for ``layer``, started on first use (a thread does not survive
    a fork: a child process starts its own)."""
    with _lock:
        found = _publishers.get(id(layer))
        if found is None or found[0] != os.getpid() or found[1].layer is not layer:
            found = (os.getpid(), Publisher(layer))
            _publishers[id(layer)] = found
        return found[1]
