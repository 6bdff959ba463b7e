"""The socket of one match, ``/ws/spite-malice/matches/<id>``: the match's events as they are
stored, from the connected player's seat, and who is at the table.

Once authenticated it sends ``ready`` with the seat, the match's latest event number and the
match as the seat sees it (``GET /matches/{id}``'s object, read in one snapshot with that
number): lichess's ``gameFull``. Nothing the seat may not see is in it.

The events pushed are exactly the feed's (``GET .../events``) for this socket's seat, after the
last number it sent: in order, none twice, none missing. They come with the notice that they
were stored (``server.spitemalice.live.publish``: each seat's own, as the feed gives them), and
a socket forwards them as they are when they follow on from the last it sent; otherwise (a
gap, or a notice without its events) it reads them from the feed (``selectors.events_of``), as
it also does every ``LIVE_POLL_SECONDS``, which covers a notice lost and, in the embedded
default, the app's other processes (its in-memory layer reaches only its own). docs/API.md
describes the messages and close codes.

A hostile client gets nothing for its trouble (``server.api.sockets``): a frame bigger than any
the protocol has is refused unread, an address holds a bounded number of sockets and
handshakes, a seat as many sockets as it has presence slots, and a handler that fails for any
reason closes the socket and still gives back everything it held (its tasks, its presence
slot, its group, its count), as a clean close does.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction

from server.api import close_codes, sockets
from server.api.sockets import in_cache_thread, in_thread
from server.api.sweeps import Sweep
from server.core.queries import one_or_none
from server.players.tokens import access_of
from server.spitemalice.live import presence, publish
from server.spitemalice.models import Match
from server.spitemalice.selectors import EVENTS_PER_PAGE, events_of
from server.spitemalice.shapes import match_output

logger = logging.getLogger(__name__)

MAX_AFTER = 10**9  # the feed's own bound on ``after``
# The socket's own close code (the others are server.api.close_codes's): no such match, or not
# a player of it. The AsyncAPI document says so (server.spitemalice.live.asyncapi).
NOT_YOURS = close_codes.NOT_YOURS


@in_thread
def _seat_of(token: str, match_id: uuid.UUID) -> tuple[str, int, int | None, int, int]:
    """("ok" | "bad_token" | "not_yours", seat, bot seat, the match's latest event, the
    token's id)."""
    access = access_of(token)
    if access is None:
        return "bad_token", 0, None, 0, 0
    match = one_or_none(Match.objects.filter(pk=match_id)
                        .values("player0_id", "player1_id", "bot_seat", "event"))
    if match is None:
        return "not_yours", 0, None, 0, 0
    players = match["player0_id"], match["player1_id"]
    if access.player.pk not in players:
        return "not_yours", 0, None, 0, 0
    return ("ok", players.index(access.player.pk), match["bot_seat"], match["event"],
            access.pk)


@in_thread
def _view_of(match_id: uuid.UUID, seat: int, origin: str) -> dict[str, Any]:
    """The match as ``seat`` sees it (``GET /matches/{id}``'s object: its hand, never the other
    seat's), read in one snapshot of the database so that its ``event`` is the number of the
    last event the view includes: the events after it are what the socket sends next."""
    with transaction.atomic():
        if connection.vendor == "postgresql":  # SQLite's transactions are serializable
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        match = Match.objects.select_related("player0", "player1", "invitee").get(pk=match_id)
        return match_output(match, seat, origin=origin)


def _origin(scope: Any) -> str:
    """The handshake's scheme and host, as a request's origin (a waiting match's invitation
    URL is absolute)."""
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{host}" if host else ""


def _latest_events(match_ids: set[uuid.UUID]) -> dict[uuid.UUID, int]:
    """``{match id: its latest event number}``: what ``feed_sweep`` asks for every open
    socket of a process at once."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "event"))


# The fallback read of every open match socket's feed, one query per process every
# LIVE_FEED_CHECK_SECONDS (a notice lost, and the cache's number with it).
feed_sweep = Sweep("match feeds", lambda: max(settings.LIVE_FEED_CHECK_SECONDS,
                                              settings.LIVE_POLL_SECONDS), _latest_events)
# The sockets' own periodic checks, made once per process for all of them: the matches' latest
# event numbers in the cache every LIVE_POLL_SECONDS (a socket behind them reads its feed), and
# the presence slots' heartbeat with who is at each table every HEARTBEAT_SECONDS. Made by each
# socket for itself, 300 idle sockets cost the workers 114 ms of CPU a second in thread hops and
# cache round trips (docs/OPERATIONS.md, "Idle sockets").
latest_sweep = Sweep("match latest numbers", lambda: settings.LIVE_POLL_SECONDS,
                     lambda match_ids: publish.latest_known_of(match_ids))
presence_sweep = Sweep("match presence", lambda: presence.HEARTBEAT_SECONDS,
                       lambda sockets: presence.beat_all(sockets))


@in_thread
def _events_after(match_id: uuid.UUID, seat: int, after: int, latest: int | None
                  ) -> tuple[list[dict], int]:
    """The seat's events after ``after`` as the feed gives them. ``latest``: the match's latest
    event number if a notice told it (one read), else it is read first (a match with nothing
    new then costs that one small read)."""
    if latest is None:
        match = one_or_none(Match.objects.only("id", "event").filter(pk=match_id))
        if match is None or match.event <= after:
            return [], after
    else:
        match = Match(pk=match_id, event=latest)
    return events_of(match, seat, after)


def _query_after(query_string: bytes) -> int | bool | None:
    """``?after=N``: N, None when absent, False when malformed."""
    return sockets.query_after(query_string, MAX_AFTER)


class MatchConsumer(sockets.SturdyConsumer):
    """The match's socket: what the module says. Channels' loop and dispatch less their
    failures, the client's messages, the token and its checks, the groups and the release are
    ``server.api.sockets.SturdyConsumer``'s; this is the match's own work."""

    socket_kind = "spite_malice_match"
    # As it is before connect() runs: release() may run after a failure anywhere.
    seat: int | None = None
    bot_seat: int | None = None
    slot: int | None = None
    seats_sent: list[bool] | None = None

    async def connect(self) -> None:
        self.match_id = uuid.UUID(str(self.scope["url_route"]["kwargs"]["match_id"]))
        self.group = publish.group_of(self.match_id)
        self.socket_id = uuid.uuid4().hex
        if not await self._admit():
            return
        self.after = _query_after(self.scope.get("query_string", b""))
        if self.after is False:
            await self._close(sockets.BAD_MESSAGE)
            return
        await self._token_or_deadline()

    async def _authenticate(self, token: str) -> None:
        try:
            verdict, seat, bot_seat, latest, token_id = await _seat_of(token, self.match_id)
            view = await _view_of(self.match_id, seat, _origin(self.scope)) if (
                verdict == "ok") else None
        except DatabaseError:
            await self._database_failed()
            return
        if view is None:
            await self._close(sockets.BAD_TOKEN if verdict == "bad_token" else NOT_YOURS)
            return
        slot = await in_cache_thread(presence.arrive)(self.match_id, seat, self.socket_id)
        if isinstance(slot, str):  # presence.FULL: the one string arrive() gives
            await self._close(sockets.TOO_MANY)  # the seat holds all the sockets it may
            return
        self.seat, self.bot_seat, self.slot = seat, bot_seat, slot
        self.presence_keys = presence.slot_keys(self.match_id)
        latest = view["event"]  # read with the view: the events after it follow
        await in_cache_thread(publish.latest_remember)(self.match_id, latest)
        sockets.open_sockets.authenticated(self.address)
        # Joined before the cursor is set: a notice sent meanwhile finds the socket listening:
        # the match's group (presence) and the seat's own (its events).
        self.notice_groups = (self.group, publish.group_of(self.match_id, seat))
        await self._join()
        publish.serve_from(asyncio.get_running_loop())
        self.last = latest if self.after is None else min(self.after, latest)
        await self._send({"type": "ready", "seat": seat, "last": latest, "match": view})
        await self._push()
        await self._presence_changed()
        self._watch_token(token_id)
        feed_sweep.add(self, self.match_id, self._feed_answer)
        latest_sweep.add(self, self.match_id, self._latest_answer)
        self._beat_with(seat, slot)

    async def _feed_answer(self, latest: int | None) -> None:
        if latest is not None and latest > self.last and not self.closed:
            await self._push(latest)

    async def _latest_answer(self, latest: int | None) -> None:
        """The cache's latest event number of the match (None: it cannot say): read the feed
        if it is ahead of the last one sent, or unknown."""
        if self.closed:
            return
        if latest is None:
            await self._push()
        elif latest > self.last:
            await self._push(latest)

    def _beat_with(self, seat: int, slot: int | None) -> None:
        """Keep ``slot`` of ``seat`` alive from now on (the presence sweep's heartbeat)."""
        self.slot = slot
        presence_sweep.add(self, presence.Beating(self.match_id, seat, self.socket_id, slot),
                           self._beat_answer)

    async def _beat_answer(self, answer: tuple[int | None, set[str] | None] | None) -> None:
        """The heartbeat's answer: the socket's slot now and the match's taken slots. Joins the
        groups again if the layer lost them, and tells the client who is there if that
        changed (a killed worker's sockets age out)."""
        if answer is None or self.closed:
            return
        slot, taken = answer
        if slot != self.slot and self.seat is not None:
            self._beat_with(self.seat, slot)
        if not self.joined:
            await self._join()
        await self._send_presence(presence.seats_from(self.presence_keys, taken, self.bot_seat))

    # --- client messages: server.api.sockets.SturdyConsumer.receive ---

    # --- the layer's notices ---

    async def events_stored(self, message: dict[str, Any]) -> None:
        # What the feed would give, from the process that stored it: no read, when it follows.
        if not await self._forwarded(message):
            await self._push(message.get("last", 0))

    async def presence_changed(self, message: dict[str, Any]) -> None:
        if self.seat is not None:
            await self._send_presence(message.get("seats"))

    # --- pushing ---

    async def _push(self, latest: int | None = None) -> None:
        """Send the seat's events after the last one sent, page by page (``latest``: the
        number a notice gave)."""
        if self.seat is None:
            return  # not authenticated: nothing to push yet
        async with self.pushing:
            while not self.closed:
                if latest is not None and latest <= self.last:
                    return  # sent meanwhile
                try:
                    events, last = await _events_after(self.match_id, self.seat, self.last,
                                                       latest)
                except DatabaseError:
                    await self._database_failed()
                    return
                if events:
                    await self._send({"type": "events", "events": events, "last": last})
                    self.last = last
                if len(events) < EVENTS_PER_PAGE:
                    return

    async def _send_presence(self, seats: list[bool] | None = None) -> None:
        if seats is None:
            seats = await in_cache_thread(presence.seats_connected)(
                self.match_id, bot_seat=self.bot_seat)
        if seats != self.seats_sent and not self.closed:
            self.seats_sent = seats
            await self._send({"type": "presence", "seats": seats})

    async def _presence_changed(self) -> None:
        """Send this socket the table as it is now, and tell the others."""
        seats = await in_cache_thread(presence.seats_connected)(
            self.match_id, bot_seat=self.bot_seat)
        await self._send_presence(seats)
        publish.send((self.group, {"type": "presence.changed", "seats": seats}))

    @property
    def authenticated(self) -> bool:
        return self.seat is not None

    # --- closing (the rest is server.api.sockets.SturdyConsumer's) ---

    async def _give_back(self) -> None:
        for sweep in (feed_sweep, latest_sweep, presence_sweep):
            sweep.remove(self)
        if self.seat is None:
            return
        await in_cache_thread(presence.leave)(self.match_id, self.seat, self.socket_id,
                                                  self.slot)
        seats = await in_cache_thread(presence.seats_connected)(
            self.match_id, bot_seat=self.bot_seat)
        publish.send((self.group, {"type": "presence.changed", "seats": seats}))
