"""What keeps an idle account socket or stream off the database, and bounds a player's.

**The latest event number.** Whenever a player's account events are told to their streams
(``latest_keep``, at the notice), the player's latest event number is kept in the shared cache
(Redis in production; the embedded default's file cache, which every process of one machine
shares). An idle socket or stream compares it with the last number it sent every
``STREAM_POLL_SECONDS`` (the sockets of a process all at once, ``latest_known_of``) and reads
the table only when it is behind, or when the cache cannot say
(emptied, or failing). As a fallback for a number kept out of order, ``feed_sweep`` reads the
counters of every open socket's player in one query per process every
``LIVE_FEED_CHECK_SECONDS``.

**A player's streams.** A player holds at most ``STREAMS_PER_PLAYER`` account streams and
sockets at once, across all their tokens and every process: each holds one of that many slot
keys in the shared cache, taken with the cache's atomic ``add`` and kept alive while it is open
(``SLOT_SECONDS``, refreshed every ``SLOT_REFRESH_SECONDS``: a process's sockets all at once,
``slot_keep_all``), so those of a process that died age out by themselves. With the cache
failing, streams are served unbounded (and the log says so).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache, caches

from server.api.sweeps import Sweep, numbers_cached
from server.core.redis_cache import RedisCache
from server.streams.models import AccountCounter

logger = logging.getLogger(__name__)

LATEST_SECONDS = 7 * 86400
SLOT_SECONDS = 90
SLOT_REFRESH_SECONDS = 30
FULL = "full"
NOTICE_TYPE = "account.events"
# A player's id as the streams get it: the primary key, or its text (a notice's group's).
PlayerId = uuid.UUID | str


def _hex(player_id: PlayerId) -> str:
    return uuid.UUID(str(player_id)).hex


def _latest_key(group: str) -> str:
    return f"stream:latest:{group}"


def latest_keep(notices: Iterable[tuple[str, dict]]) -> None:
    """Keep each player's latest event number of ``notices`` (their streams' ``(group,
    message)``; others are passed over) in the cache, never lowering one kept already: one
    round trip to Redis (``RedisCache.keep_highest``)."""
    highest: dict[str, int] = {}
    for group, message in notices:
        if message.get("type") == NOTICE_TYPE:
            key = _latest_key(group)
            highest[key] = max(message["last"], highest.get(key, message["last"]))
    if not highest:
        return
    try:
        backend = caches["default"]
        if isinstance(backend, RedisCache):
            backend.keep_highest(highest, LATEST_SECONDS)
            return
        kept = backend.get_many(list(highest))  # the embedded default's file cache
        backend.set_many({key: last for key, last in highest.items()
                          if not isinstance(kept.get(key), int) or kept[key] < last},
                         LATEST_SECONDS)
    except Exception as error:  # the streams' reads of the table cover it
        logger.warning("latest account event number not kept: %r", error)


def latest_known(player_id: PlayerId) -> int | None:
    """The player's latest event number as the cache has it, or None when it cannot say."""
    from server.streams.services import group_of

    try:
        latest = cache.get(_latest_key(group_of(player_id)))
    except Exception:
        return None
    return latest if isinstance(latest, int) else None


def latest_known_of(player_ids: set[PlayerId]) -> dict[PlayerId, int]:
    """``latest_known`` for many players in one cache call: ``{player id: latest event
    number}`` for those the cache can say, none when it failed."""
    from server.streams.services import group_of

    return numbers_cached({_latest_key(group_of(player_id)): player_id
                           for player_id in player_ids})


def latest_remember(player_id: PlayerId, latest: int) -> None:
    """Keep ``latest``, read from the database, unless a notice kept one already."""
    from server.streams.services import group_of

    try:
        cache.add(_latest_key(group_of(player_id)), latest, LATEST_SECONDS)
    except Exception as error:
        logger.warning("latest account event number not kept: %r", error)


def counters_of(player_ids: set[PlayerId]) -> dict[uuid.UUID, int]:
    """``{player id: latest event number}`` of players with any event."""
    return dict(AccountCounter.objects.filter(player_id__in=player_ids)
                .values_list("player_id", "last"))


# The fallback read of every open account socket's feed, one query per process.
feed_sweep = Sweep("account feeds", lambda: settings.LIVE_FEED_CHECK_SECONDS, counters_of)


# --- a player's slots ---------------------------------------------------------------------------


def _slot_key(player_id: PlayerId, slot: int) -> str:
    return f"stream:slot:{_hex(player_id)}:{slot}"


def slot_take(player_id: PlayerId, holder: str) -> int | str | None:
    """A free slot of the player's for the stream ``holder``: its number, ``FULL`` when the
    player holds ``STREAMS_PER_PLAYER`` already, or None when the cache failed (served)."""
    try:
        for slot in range(settings.STREAMS_PER_PLAYER):
            if cache.add(_slot_key(player_id, slot), holder, SLOT_SECONDS):
                return slot
    except Exception as error:
        logger.warning("stream not counted against its player's bound: %r", error)
        return None
    return FULL


def slot_keep(player_id: PlayerId, slot: int | None, holder: str) -> int | None:
    """Keep the stream's slot alive (or take one, if it had none: the cache was down)."""
    try:
        if slot is None:
            taken = slot_take(player_id, holder)
            return taken if isinstance(taken, int) else None
        cache.set(_slot_key(player_id, slot), holder, SLOT_SECONDS)
        return slot
    except Exception as error:
        logger.warning("stream slot not kept: %r", error)
        return slot


class Holding(NamedTuple):
    """A stream whose slot ``slot_keep_all`` keeps alive: its player, holder and slot (None:
    it holds none yet)."""
    player_id: PlayerId
    holder: str
    slot: int | None


def slot_keep_all(streams: Iterable[Holding]) -> dict[Holding, int | None]:
    """``slot_keep`` for many streams: one write of every slot held, whatever their number;
    only a stream without a slot (the cache was down when it came) takes one on its own."""
    streams = list(streams)
    try:
        cache.set_many({_slot_key(stream.player_id, stream.slot): stream.holder
                        for stream in streams if stream.slot is not None}, SLOT_SECONDS)
    except Exception as error:  # as slot_keep(): each stream keeps the slot it had
        logger.warning("stream slots not kept: %r", error)
    return {stream: stream.slot if stream.slot is not None
            else slot_keep(stream.player_id, None, stream.holder) for stream in streams}


def slot_give_back(player_id: PlayerId, slot: int | None, holder: str) -> None:
    if slot is None:
        return
    try:
        key = _slot_key(player_id, slot)
        if cache.get(key) == holder:
            cache.delete(key)
    except Exception as error:
        logger.warning("stream slot not given back (it expires): %r", error)
