"""Who is at the table now: a seat is connected while at least one socket of it is open.

Each open socket holds one of a few slot keys of its seat in the shared cache (Redis in
production, the embedded default's file cache otherwise: every process of the app sees the
same keys), taken with the cache's atomic ``add`` and kept alive by a heartbeat: every
``HEARTBEAT_SECONDS``, one pass for all of a process's sockets (``beat_all``: a few cache calls,
however many sockets). A slot lives ``TTL_SECONDS`` past its socket's last heartbeat, so the
sockets of a worker that was killed without closing them age out by themselves. The slots are
also the bound on one seat's open sockets (``LIVE_SOCKETS_PER_SEAT``): a socket that finds
every slot of its seat taken is refused (``arrive`` answers ``FULL``), so one token cannot hold
hundreds of sockets on a match.

The cache failing (Redis down) never fails a socket or a request: presence then shows people
as away, and the log says so.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache

from server.core.queries import one_or_none
from server.spitemalice.models import Match

logger = logging.getLogger(__name__)

FULL = "full"
TTL_SECONDS = 20
HEARTBEAT_SECONDS = 5  # well inside TTL_SECONDS: a slow beat or two does not show a seat away

_ASK = object()


def _match_prefix(match_id) -> str:
    return f"live:presence:{uuid.UUID(str(match_id)).hex}"


def _key(match_id, seat: int, slot: int) -> str:
    return f"{_match_prefix(match_id)}:{seat}:{slot}"


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


class Beating(NamedTuple):
    """A socket whose slot ``beat_all`` keeps alive: its match, seat, id and slot (None: it
    holds none yet)."""
    match_id: uuid.UUID
    seat: int
    socket_id: str
    slot: int | None


def beat_all(sockets: Iterable[Beating]) -> dict[Beating, tuple[int | None, set[str] | None]]:
    """``heartbeat`` for many sockets at once, and who is at their tables: for each socket its
    slot now and the taken slot keys of its match (None when the cache could not say), for
    ``seats_from``. One read of the slots held, one round of touches, one read of every table's
    slots, whatever the number of sockets; only a socket that lost its slot (or never had one)
    takes one on its own, as ``heartbeat`` does."""
    sockets = list(sockets)
    held = {socket: _key(socket.match_id, socket.seat, socket.slot)
            for socket in sockets if socket.slot is not None}
    try:
        holders = cache.get_many(list(held.values()))
        kept = _touch_all([key for socket, key in held.items()
                           if holders.get(key) == socket.socket_id])
    except Exception as error:  # as heartbeat(): each socket keeps the slot it had
        logger.warning("presence not refreshed: %r", error)
        kept = set(held.values())
    slots: dict[Beating, int | None] = {}
    for socket in sockets:
        if socket in held and held[socket] in kept:
            slots[socket] = socket.slot
        else:
            arrived = arrive(socket.match_id, socket.seat, socket.socket_id)
            slots[socket] = None if isinstance(arrived, str) else arrived  # FULL
    tables = {socket.match_id: slot_keys(socket.match_id) for socket in sockets}
    try:
        taken: set[str] | None = set(cache.get_many(
            [key for keys in tables.values() for key in keys]))
    except Exception as error:
        logger.warning("presence unknown: %r", error)
        taken = None
    return {socket: (slots[socket],
                     None if taken is None else taken & tables[socket.match_id].keys())
            for socket in sockets}


def _touch_all(keys: list[str]) -> set[str]:
    """Renew each key's ``TTL_SECONDS``: the keys that were still there. One round trip with
    the Redis cache (``touch_many``); one call a key with the embedded default's."""
    touch_many = getattr(cache, "touch_many", None)
    if touch_many is not None:
        return touch_many(keys, TTL_SECONDS)
    return {key for key in keys if cache.touch(key, TTL_SECONDS)}


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
            bot_seat = one_or_none(Match.objects.filter(pk=match_id)
                                   .values_list("bot_seat", flat=True))
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
    # The match's part of the key made once (each action's answer asks for all of them).
    prefix = _match_prefix(match_id)
    return {f"{prefix}:{seat}:{slot}": seat for seat in (0, 1) for slot in _slots()}


def seats_from(keys: dict[str, int], found: set[str] | None, bot_seat) -> list[bool]:
    """``[seat 0 connected, seat 1 connected]`` from the slot keys found taken (None: the
    cache could not say, so nobody but the bot shows)."""
    seats = [False, False]
    for key in found or ():
        seats[keys[key]] = True
    if bot_seat is not None:
        seats[bot_seat] = True
    return seats
