"""Notices on the channel layer, handed over without waiting for them: what every live socket
and stream of the API is told by, whichever game or app sends them.

Publishing never holds up the request that sends. On the Redis Pub/Sub layer (every deployment
with ``REDIS_URL``) a request's notices (an action's two seats' and its opponent's account
stream's) go to the process's publishing thread, which sends them in one round trip, a script
that publishes each on its group's channel (``server.api.publisher``). On any other layer they
are handed to an event loop and sent from there by ``group_send``: in a process that serves
sockets or streams, the server's own loop (the one its consumers and async views run on, which
the in-memory layer of the embedded default needs); elsewhere (``manage.py run_jobs``, a
shell) one loop in a thread of this module, started on first use.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from concurrent.futures import Future

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from server.api.publisher import SEND_SECONDS, publisher_of
from server.core import metrics

logger = logging.getLogger(__name__)

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
    if isinstance(layer, RedisPubSubChannelLayer):
        publisher_of(layer).put(notices)
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
        for group, message in notices:
            await layer.group_send(group, message)

    await asyncio.wait_for(send_all(), SEND_SECONDS)


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
