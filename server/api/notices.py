"""Notices on the channel layer, handed to an event loop without waiting for them: what every
live socket and stream of the API is told by, whichever game or app sends them.

Publishing never holds up the request that sends: the notices are handed to an event loop and
sent from there. In a process that serves sockets or streams that is the server's own loop (the
one its consumers and async views run on, which the in-memory layer needs); elsewhere
(``manage.py run_jobs``, a shell) it is one loop in a thread of this module, started on first
use. On the Redis Pub/Sub layer a request's notices (an action's two seats' and its opponent's
account stream's) go in one round trip, a script that publishes each on its group's channel,
where the layer's own ``group_send`` makes one round trip each (``_publish``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from concurrent.futures import Future
from typing import Any

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from server.core import metrics

logger = logging.getLogger(__name__)

# A Redis that hangs must not hold a notice (and the layer's connection, which the process's
# subscriptions share) for long: the sockets' own checks of the feed cover what is dropped.
SEND_SECONDS = 2.0

_sent = metrics.live_notices.labels("sent")
_lost = metrics.live_notices.labels("lost")
_lock = threading.Lock()
_server_loop: asyncio.AbstractEventLoop | None = None
_own: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of this module's thread


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Send this process's notices from ``loop``: the consumers' loop, once one runs here."""
    global _server_loop
    _server_loop = loop


def send(*notices: tuple[str, dict]) -> None:
    """``group_send`` of each ``(group, message)`` without waiting for it, from any thread,
    handed to the loop at once (one wake-up of it for a request's notices); a failure is
    logged."""
    layer = get_channel_layer()
    if layer is None or not notices:
        return
    loop = _loop_for(layer)
    if loop is None:
        return
    try:
        future = asyncio.run_coroutine_threadsafe(_send(layer, notices), loop)
    except RuntimeError:  # the loop closed in between (the worker is stopping)
        _lost.inc(len(notices))
        return
    future.add_done_callback(functools.partial(_report, len(notices)))


def _loop_for(layer: BaseChannelLayer) -> asyncio.AbstractEventLoop | None:
    loop = _server_loop
    if loop is not None and loop.is_running():
        return loop
    if isinstance(layer, InMemoryChannelLayer):
        return None  # it reaches only this process's sockets, and there are none
    return _own_loop()


def _own_loop() -> asyncio.AbstractEventLoop:
    global _own
    with _lock:
        # A thread does not survive a fork: a child process starts its own.
        if _own is None or _own[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="live-publish", daemon=True).start()
            _own = (os.getpid(), loop)
        return _own[1]


async def _send(layer: BaseChannelLayer, notices: tuple[tuple[str, dict], ...]) -> None:
    async def send_all() -> None:
        if isinstance(layer, RedisPubSubChannelLayer):
            await _publish(layer, notices)
            return
        for group, message in notices:
            await layer.group_send(group, message)

    await asyncio.wait_for(send_all(), SEND_SECONDS)


# PUBLISH of each channel (ARGV[2 .. n+1]) with its message (ARGV[n+2 .. 2n+1]), n = ARGV[1].
# The channels are not keys (Pub/Sub ignores the database), so none is declared.
_PUBLISH_ALL = """
local count = tonumber(ARGV[1])
for index = 2, count + 1 do
    redis.call('PUBLISH', ARGV[index], ARGV[index + count])
end
return count
"""


async def _publish(layer: RedisPubSubChannelLayer, notices: tuple[tuple[str, dict], ...],
                   ) -> None:
    """What ``group_send`` of each notice does (its group's channel, its shard's connection,
    the layer's serializer, the shard's lock that its subscriptions share), with one round trip
    per shard instead of one per notice: what a request's notices cost the loop was mostly
    redis-py's work per command. channels-redis is pinned: these are its internals of 4.3."""
    loop_layer = layer._get_layer()
    by_shard: dict[Any, tuple[list[str], list[bytes]]] = {}
    for group, message in notices:
        channel = loop_layer._get_group_channel_name(group)
        channels, messages = by_shard.setdefault(loop_layer._get_shard(channel), ([], []))
        channels.append(channel)
        messages.append(layer.serialize(message))
    for shard, (channels, messages) in by_shard.items():
        async with shard._lock:
            shard._ensure_redis()
            script = _scripts.get(id(shard._redis))
            if script is None or script[0] is not shard._redis:
                script = (shard._redis, shard._redis.register_script(_PUBLISH_ALL))
                _scripts[id(shard._redis)] = script
            # The script's first run on a Redis (or one restarted) loads it: redis-py's
            # Script answers NOSCRIPT so; a connection lost is retried as the pool is told.
            await script[1](args=[len(channels), *channels, *messages])


# {id of a shard's client: (that client, its script)}: a script object per client, made once.
_scripts: dict[int, tuple[Any, Any]] = {}


def _report(count: int, future: Future[None]) -> None:
    if future.cancelled():
        _lost.inc(count)
        return
    error = future.exception()
    if error is None:
        _sent.inc(count)
    else:
        _lost.inc(count)
        logger.warning("live notice not sent (the sockets' checks of the feed will catch up): "
                       "%r", error)
