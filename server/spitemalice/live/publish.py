"""Telling a match's sockets that it has new events: a notice on the channel layer.

``server.spitemalice.services`` calls ``events_stored`` from ``transaction.on_commit``, so a
notice leaves only once its events are in the database; each socket then reads its own seat's
view of them from the feed (``server.spitemalice.live.consumers``). The notice carries a
number and no
event: no seat's payload ever crosses the layer, and a notice lost (Redis restarting) only
delays, since every socket also checks the feed every ``LIVE_POLL_SECONDS``.

Publishing never holds up the request that stored the events: the notice is handed to an event
loop and sent from there. In a process that serves sockets that is the server's own loop (the
one its consumers run on, which the in-memory layer needs); elsewhere (``manage.py run_jobs``,
a shell) it is one loop in a thread of this module, started on first use.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid

from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

# A Redis that hangs must not hold a notice (and the layer's connection, which the process's
# subscriptions share) for long: the sockets' own checks of the feed cover what is dropped.
SEND_SECONDS = 2.0

_lock = threading.Lock()
_server_loop: asyncio.AbstractEventLoop | None = None
_own: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of this module's thread


def group_of(match_id) -> str:
    """The channel-layer group of a match's sockets."""
    return f"sm-match-{uuid.UUID(str(match_id)).hex}"


def events_stored(match_id, last_event: int) -> None:
    """Tell the match's sockets that its events up to ``last_event`` are stored."""
    send(group_of(match_id), {"type": "events.stored", "last": last_event})


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Send this process's notices from ``loop``: the consumers' loop, once one runs here."""
    global _server_loop
    _server_loop = loop


def send(group: str, message: dict) -> None:
    """``group_send`` without waiting for it, from any thread; a failure is logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _loop_for(layer)
    if loop is None:
        return
    try:
        future = asyncio.run_coroutine_threadsafe(_send(layer, group, message), loop)
    except RuntimeError:  # the loop closed in between (the worker is stopping)
        return
    future.add_done_callback(_report)


def _loop_for(layer) -> asyncio.AbstractEventLoop | None:
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


async def _send(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), SEND_SECONDS)


def _report(future) -> None:
    if future.cancelled():
        return
    error = future.exception()
    if error is not None:
        logger.warning("live notice not sent (the sockets' checks of the feed will catch up): "
                       "%r", error)
