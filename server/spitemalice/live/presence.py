"""Who is at the table now: a seat is connected while at least one socket of it is open.

Each open socket holds one of a few slot keys of its seat in the shared cache (Redis in
production, the embedded default's file cache otherwise: every process of the app sees the
same keys), taken with the cache's atomic ``add`` and kept alive by a heartbeat. A slot lives
``TTL_SECONDS`` past its socket's last heartbeat, so the sockets of a worker that was killed
without closing them age out by themselves. The slots are also the bound on one seat's open
sockets (``LIVE_SOCKETS_PER_SEAT``): a socket that finds every slot of its seat taken is
refused (``arrive`` answers ``FULL``), so one token cannot hold hundreds of sockets on a match.

The cache failing (Redis down) never fails a socket or a request: presence then shows people
as away, and the log says so.
"""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.core.cache import cache

from server.spitemalice.models import Match

logger = logging.getLogger(__name__)

FULL = "full"
TTL_SECONDS = 20
HEARTBEAT_SECONDS = 5  # well inside TTL_SECONDS: a slow beat or two does not show a seat away

_ASK = object()


def _key(match_id, seat: int, slot: int) -> str:
    return f"live:presence:{uuid.UUID(str(match_id)).hex}:{seat}:{slot}"


def _slots() -> range:
    return range(settings.LIVE_SOCKETS_PER_SEAT)


def arrive(match_id, seat: int, socket_id: str) -> int | str | None:
    """Take a free slot of ``seat`` for the socket ``socket_id``: its number, ``FULL`` when
    every slot is taken, or None when the cache failed (the socket is served, unbounded, and
    tries again at each heartbeat)."""
    try:
        for slot in _slots():
            if cache.add(_key(match_id, seat, slot), socket_id, TTL_SECONDS):
                return slot
    except Exception as error:  # any cache failure: presence pauses, sockets go on
        logger.warning("presence not recorded: %r", error)
        return None
    return FULL


def heartbeat(match_id, seat: int, socket_id: str, slot: int | None) -> int | None:
    """Keep the socket's slot alive (or take one, if it has none or lost it); the slot."""
    if slot is not None:
        key = _key(match_id, seat, slot)
        try:
            if cache.get(key) == socket_id and cache.touch(key, TTL_SECONDS):
                return slot
        except Exception as error:
            logger.warning("presence not refreshed: %r", error)
            return slot
    # A socket admitted while the cache was down, or whose slot expired: it keeps its place
    # at the table even when every slot is taken meanwhile.
    arrived = arrive(match_id, seat, socket_id)
    return None if isinstance(arrived, str) else arrived  # FULL, the one string it gives


def leave(match_id, seat: int, socket_id: str, slot: int | None) -> None:
    """Give the socket's slot back."""
    if slot is None:
        return
    key = _key(match_id, seat, slot)
    try:
        if cache.get(key) == socket_id:
            cache.delete(key)
    except Exception as error:
        logger.warning("presence not cleared: %r", error)


def seats_connected(match, bot_seat=_ASK) -> list[bool]:
    """``[seat 0 connected, seat 1 connected]`` for a match (a ``Match``, or its id): a seat
    with an open socket, or the bot's seat, which is always there."""
    if isinstance(match, Match):
        match_id, bot_seat = match.pk, match.bot_seat
    else:
        match_id = match
        if bot_seat is _ASK:
            bot_seat = (Match.objects.filter(pk=match_id).values_list("bot_seat", flat=True)
                        .first())
    keys = slot_keys(match_id)
    try:
        found = set(cache.get_many(list(keys)))
    except Exception as error:
        logger.warning("presence unknown: %r", error)
        found = set()
    return seats_from(keys, found, bot_seat)


def slot_keys(match_id) -> dict[str, int]:
    """Every presence slot's key of a match, with its seat: what ``seats_from`` is given the
    taken ones of (a fast path looks them up with its other cache calls)."""
    return {_key(match_id, seat, slot): seat for seat in (0, 1) for slot in _slots()}


def seats_from(keys: dict[str, int], found: set[str] | None, bot_seat) -> list[bool]:
    """``[seat 0 connected, seat 1 connected]`` from the slot keys found taken (None: the
    cache could not say, so nobody but the bot shows)."""
    seats = [False, False]
    for key in found or ():
        seats[keys[key]] = True
    if bot_seat is not None:
        seats[bot_seat] = True
    return seats
