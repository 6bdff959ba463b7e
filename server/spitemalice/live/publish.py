"""Telling a match's sockets that it has new events: a notice on the channel layer.

``server.spitemalice.services`` calls ``events_stored`` from ``transaction.on_commit``, so a
notice leaves only once its events are in the database. The process that stored them knows
each seat's view of them already (the rows it wrote hold one per seat), so each seat's group
gets its own events with the notice, exactly as the feed gives them to that seat, and a socket
forwards them without reading the database (``server.spitemalice.live.consumers``). No seat's
notice holds the other seat's view. A socket that finds a gap (a notice lost while Redis
restarted, one too big to carry its events, one from the embedded default's other processes,
which its in-memory layer does not reach) reads the feed instead.

Besides the notice, the match's latest event number is kept in the shared cache
(``latest_known``), so a socket's periodic check (every ``LIVE_POLL_SECONDS``) compares a
number rather than querying the database; it reads the feed only when that number is ahead of
it, when the cache cannot say, and every ``LIVE_FEED_CHECK_SECONDS`` whatever it says.

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
from django.core.cache import cache

logger = logging.getLogger(__name__)

# A Redis that hangs must not hold a notice (and the layer's connection, which the process's
# subscriptions share) for long: the sockets' own checks of the feed cover what is dropped.
SEND_SECONDS = 2.0

_lock = threading.Lock()
_server_loop: asyncio.AbstractEventLoop | None = None
_own: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of this module's thread


# More events than this (a long bot turn and a new game's deal) go as a bare notice: the
# sockets read them from the feed, a page at a time.
EVENTS_PER_NOTICE = 100
# The latest event number stays in the cache while the match may still have open sockets.
LATEST_SECONDS = 7 * 86400


def group_of(match_id, seat: int | None = None) -> str:
    """The channel-layer group of a match's sockets (presence), or of one seat's (its
    events)."""
    group = f"sm-match-{uuid.UUID(str(match_id)).hex}"
    return group if seat is None else f"{group}-{seat}"


def events_stored(match_id, events: list, *, latest_kept: bool = False) -> None:
    """Tell each seat's sockets that ``events`` (the ``Event`` rows just stored, in number
    order) are stored, with that seat's view of each, as the feed gives it. ``latest_kept``:
    the caller kept the latest number already (``latest_entry``, with its other cache calls)."""
    if not events:
        return
    first, last = events[0].number, events[-1].number
    if not latest_kept:
        try:
            cache.set(*latest_entry(match_id, last))
        except Exception as error:  # the sockets' reads of the feed cover it
            logger.warning("latest event number not kept: %r", error)
    notices = []
    for seat in (0, 1):
        notice = {"type": "events.stored", "first": first, "last": last}
        if len(events) <= EVENTS_PER_NOTICE:
            notice["events"] = [{"number": event.number, "kind": event.kind,
                                 **getattr(event, f"seat{seat}")} for event in events]
        notices.append((group_of(match_id, seat), notice))
    send(*notices)


def latest_entry(match_id, latest: int) -> tuple[str, int, int]:
    """The cache entry (key, value, seconds) that keeps ``latest`` as the match's latest event
    number: what ``events_stored`` sets, or a fast path sets with its other cache calls."""
    return _latest_key(match_id), latest, LATEST_SECONDS


def _latest_key(match_id) -> str:
    return f"live:latest:{uuid.UUID(str(match_id)).hex}"


def latest_known(match_id) -> int | None:
    """The match's latest event number as its last notice left it in the cache, or None when
    the cache cannot say (no notice since it was emptied, or it failed)."""
    try:
        latest = cache.get(_latest_key(match_id))
    except Exception:
        return None
    return latest if isinstance(latest, int) else None


def latest_remember(match_id, latest: int) -> None:
    """Keep ``latest`` as the match's latest event number unless a notice left one already (a
    socket that read it from the database: its match's checks compare numbers from now on)."""
    try:
        cache.add(_latest_key(match_id), latest, LATEST_SECONDS)
    except Exception as error:
        logger.warning("latest event number not kept: %r", error)


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


async def _send(layer, notices: tuple[tuple[str, dict], ...]) -> None:
    async def send_all() -> None:
        for group, message in notices:
            await layer.group_send(group, message)

    await asyncio.wait_for(send_all(), SEND_SECONDS)


def _report(future) -> None:
    if future.cancelled():
        return
    error = future.exception()
    if error is not None:
        logger.warning("live notice not sent (the sockets' checks of the feed will catch up): "
                       "%r", error)
