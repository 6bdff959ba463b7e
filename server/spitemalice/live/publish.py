"""Telling a match's sockets that it has new events: a notice on the channel layer.

``server.spitemalice.services`` calls ``events_stored`` from ``transaction.on_commit``, so a
notice leaves only once its events are in the database. The process that stored them knows
each seat's view of them already (the rows it wrote hold one per seat), so each seat's group
gets its own events with the notice, exactly as the feed gives them to that seat, as the socket
message that sends them (``frame``: encoded once, from the views' text the store encoded), and a
socket forwards it without reading the database or encoding anything
(``server.spitemalice.live.consumers``). No seat's
notice holds the other seat's view. A socket that finds a gap (a notice lost while Redis
restarted, one too big to carry its events, one from the embedded default's other processes,
which its in-memory layer does not reach) reads the feed instead.

Besides the notice, the match's latest event number is kept in the shared cache
(``latest_known``), so a socket's periodic check (every ``LIVE_POLL_SECONDS``, one cache call
for all of a process's sockets: ``latest_known_of``) compares a number rather than querying
the database; it reads the feed only when that number is ahead of
it, when the cache cannot say, and every ``LIVE_FEED_CHECK_SECONDS`` whatever it says.

Publishing never holds up the request that stored the events: the notices are handed over and
sent by the process's publishing thread (``server.api.notices``, which the account stream
shares).
"""

from __future__ import annotations

import json
import logging
import uuid

from django.core.cache import cache

from server.api.notices import send, serve_from  # noqa: F401 - the consumers' hand-over
from server.api.sweeps import numbers_cached
from server.streams.watch import latest_keep

logger = logging.getLogger(__name__)


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


def events_stored(match_id, events: list, *, latest_kept: bool = False,
                  also: tuple = ()) -> None:
    """Tell each seat's sockets that ``events`` (the ``Event`` rows just stored, in number
    order) are stored, with that seat's view of each, as the feed gives it. ``latest_kept``:
    the caller kept the latest number already (``latest_entry``, with its other cache calls).
    ``also``: more ``(group, message)`` notices (the players' account streams'), sent in the
    same hand-over."""
    latest_keep(also)  # the account streams' latest numbers, for their idle checks
    if not events:
        send(*also)
        return
    first, last = events[0].number, events[-1].number
    if not latest_kept:
        try:
            cache.set(*latest_entry(match_id, last))
        except Exception as error:  # the sockets' reads of the feed cover it
            logger.warning("latest event number not kept: %r", error)
    notices = []
    for seat in (0, 1):
        notice: dict = {"type": "events.stored", "first": first, "last": last}
        if len(events) <= EVENTS_PER_NOTICE:
            notice["frame"] = events_frame(events, seat, last)
        notices.append((group_of(match_id, seat), notice))
    send(*notices, *also)


COMPACT = (",", ":")  # the sockets' frames are JSON without spaces (SturdyConsumer._send)


def seat_texts(event) -> tuple[str, str]:
    """Each seat's view of ``event`` (an ``Event`` row) as compact JSON text, encoded once for
    all who need it: the statement that stores the row (``statements.action_store``) and the
    frame each seat's sockets are sent (``events_frame``)."""
    texts = getattr(event, "_seat_texts", None)
    if texts is None:
        texts = (json.dumps(event.seat0, separators=COMPACT),
                 json.dumps(event.seat1, separators=COMPACT))
        setattr(event, "_seat_texts", texts)  # noqa: B010 - a model has no slot for it
    return texts


def events_frame(events: list, seat: int, last: int) -> str:
    """The socket message ``{"type": "events", "events": [...], "last": last}`` that tells
    ``seat`` of ``events``, as the text ``SturdyConsumer._send`` would encode it, byte for byte,
    built from each event's view encoded once (``seat_texts``): the sockets forward it as it
    is, and nothing is encoded again per socket or packed as a nested message for the
    layer."""
    entries = []
    for event in events:
        view = getattr(event, f"seat{seat}")
        if "number" in view or "kind" in view:  # never so; the merge would reorder them
            entries.append(json.dumps({"number": event.number, "kind": event.kind, **view},
                                      separators=COMPACT))
            continue
        text = seat_texts(event)[seat]
        entries.append(f'{{"number":{int(event.number)},"kind":{json.dumps(event.kind)}'
                       + ("}" if text == "{}" else "," + text[1:]))
    return f'{{"type":"events","events":[{",".join(entries)}],"last":{int(last)}}}'


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


def latest_known_of(match_ids: set) -> dict:
    """``latest_known`` for many matches in one cache call (``latest_sweep``'s): ``{match id:
    its latest event number}`` for those the cache can say, none when it failed."""
    return numbers_cached({_latest_key(match_id): match_id for match_id in match_ids})


def latest_remember(match_id, latest: int) -> None:
    """Keep ``latest`` as the match's latest event number unless a notice left one already (a
    socket that read it from the database: its match's checks compare numbers from now on)."""
    try:
        cache.add(_latest_key(match_id), latest, LATEST_SECONDS)
    except Exception as error:
        logger.warning("latest event number not kept: %r", error)
