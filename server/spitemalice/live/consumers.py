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
import contextlib
import logging
import time
import uuid

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from server.api import sockets
from server.api.sweeps import Sweep
from server.players.tokens import access_of, token_sweep
from server.spitemalice.engine import match_output
from server.spitemalice.live import presence, publish
from server.spitemalice.models import Match
from server.spitemalice.selectors import EVENTS_PER_PAGE, events_of

logger = logging.getLogger(__name__)

AUTH_SECONDS = sockets.AUTH_SECONDS
MAX_AFTER = 10**9  # the feed's own bound on ``after``

BAD_MESSAGE = sockets.BAD_MESSAGE  # too big, not text, not JSON, not an object, an unknown
#                                    type, or a bad ``after``
TOO_MANY = sockets.TOO_MANY  # this address's sockets or handshakes, or this seat's sockets
BAD_TOKEN = 4401  # no token in time, or a token that is unknown or revoked
NOT_YOURS = 4403  # no such match, or not a player of it
SERVER_ERROR = 1011  # the database failed: reconnect with ``after`` and catch up
# The longest token the API hands out is 43 characters; anything else is not one.
TOKEN_MAX_LENGTH = 200


def _in_thread(function):
    # The reads run in the thread pool, not the one thread that ``thread_sensitive`` work
    # shares: a hundred sockets reading at once should not queue behind each other.
    return database_sync_to_async(function, thread_sensitive=False)


@_in_thread
def _seat_of(token: str, match_id) -> tuple[str, int | None, int | None, int, int | None]:
    """("ok" | "bad_token" | "not_yours", seat, bot seat, the match's latest event, the
    token's id)."""
    access = access_of(token)
    if access is None:
        return "bad_token", None, None, 0, None
    match = (Match.objects.filter(pk=match_id)
             .values("player0_id", "player1_id", "bot_seat", "event").first())
    players = (match or {}).get("player0_id"), (match or {}).get("player1_id")
    if match is None or access.player.pk not in players:
        return "not_yours", None, None, 0, None
    return ("ok", players.index(access.player.pk), match["bot_seat"], match["event"],
            access.pk)


@_in_thread
def _view_of(match_id, seat: int, origin: str) -> dict:
    """The match as ``seat`` sees it (``GET /matches/{id}``'s object: its hand, never the other
    seat's), read in one snapshot of the database so that its ``event`` is the number of the
    last event the view includes: the events after it are what the socket sends next."""
    with transaction.atomic():
        if connection.vendor == "postgresql":  # SQLite's transactions are serializable
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        match = Match.objects.select_related("player0", "player1", "invitee").get(pk=match_id)
        return match_output(match, seat, origin=origin)


def _origin(scope) -> str:
    """The handshake's scheme and host, as a request's origin (a waiting match's invitation
    URL is absolute)."""
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{host}" if host else ""


def _latest_events(match_ids: set) -> dict:
    """``{match id: its latest event number}``: what ``feed_sweep`` asks for every open
    socket of a process at once."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "event"))


# The fallback read of every open match socket's feed, one query per process every
# LIVE_FEED_CHECK_SECONDS (a notice lost, and the cache's number with it).
feed_sweep = Sweep("match feeds", lambda: max(settings.LIVE_FEED_CHECK_SECONDS,
                                              settings.LIVE_POLL_SECONDS), _latest_events)


@_in_thread
def _events_after(match_id, seat: int, after: int, latest: int | None
                  ) -> tuple[list[dict], int]:
    """The seat's events after ``after`` as the feed gives them. ``latest``: the match's latest
    event number if a notice told it (one read), else it is read first (a match with nothing
    new then costs that one small read)."""
    if latest is None:
        match = Match.objects.only("id", "event").filter(pk=match_id).first()
        if match is None or match.event <= after:
            return [], after
    else:
        match = Match(pk=match_id, event=latest)
    return events_of(match, seat, after)


def _in_thread_presence(function):
    # The cache's calls block too (a file, or Redis), and touch no database.
    return sync_to_async(function, thread_sensitive=False)


def _query_after(query_string: bytes) -> int | bool | None:
    """``?after=N``: N, None when absent, False when malformed."""
    return sockets.query_after(query_string, MAX_AFTER)


class MatchConsumer(sockets.SturdyConsumer):
    socket_kind = "spite_malice_match"
    # What a socket holds, as it is before connect() runs: release() may run after a failure
    # anywhere.
    seat: int | None = None
    counted = False
    closed = False
    joined = False
    released = False
    tasks: tuple | list = ()

    # Channels' loop and dispatch, less their failures: server.api.sockets.SturdyConsumer.

    async def connect(self) -> None:
        self.match_id = uuid.UUID(str(self.scope["url_route"]["kwargs"]["match_id"]))
        self.group = publish.group_of(self.match_id)
        self.socket_id = uuid.uuid4().hex
        self.seat: int | None = None
        self.bot_seat: int | None = None
        self.last = 0
        self.slot: int | None = None
        self.token_id: int | None = None
        self.seats_sent: list[bool] | None = None
        self.joined = False
        self.closed = False
        self.tasks: list[asyncio.Task] = []
        self.pushing = asyncio.Lock()
        self.released = False
        if not await self._admit():
            return
        self.after = _query_after(self.scope.get("query_string", b""))
        if self.after is False:
            await self._close(BAD_MESSAGE)
            return
        await self._token_or_deadline()

    async def _authenticate(self, token: str) -> None:
        try:
            verdict, seat, bot_seat, latest, self.token_id = await _seat_of(token,
                                                                            self.match_id)
            view = await _view_of(self.match_id, seat, _origin(self.scope)) if (
                verdict == "ok") else None
        except DatabaseError:
            logger.warning("live socket refused: the database failed", exc_info=True)
            await self._close(SERVER_ERROR)
            return
        if verdict != "ok":
            await self._close(BAD_TOKEN if verdict == "bad_token" else NOT_YOURS)
            return
        slot = await _in_thread_presence(presence.arrive)(self.match_id, seat, self.socket_id)
        if slot == presence.FULL:
            await self._close(TOO_MANY)  # the seat holds all the sockets it may
            return
        self.seat, self.bot_seat, self.slot = seat, bot_seat, slot
        latest = view["event"]  # read with the view: the events after it follow
        await _in_thread_presence(publish.latest_remember)(self.match_id, latest)
        sockets.open_sockets.authenticated(self.address)
        # Joined before the cursor is set: a notice sent meanwhile finds the socket listening.
        await self._join()
        publish.serve_from(asyncio.get_running_loop())
        self.last = latest if self.after is None else min(self.after, latest)
        await self._send({"type": "ready", "seat": seat, "last": latest, "match": view})
        await self._push()
        await self._presence_changed()
        token_sweep.add(self, self.token_id, self._token_answer)
        feed_sweep.add(self, self.match_id, self._feed_answer)
        self.tasks.append(asyncio.create_task(self._tick()))

    async def _token_answer(self, alive: bool | None) -> None:
        if not alive and not self.closed:
            await self._close(BAD_TOKEN)  # signed out or revoked meanwhile

    async def _feed_answer(self, latest: int | None) -> None:
        if latest is not None and latest > self.last and not self.closed:
            await self._push(latest)

    async def _join(self) -> None:
        if self.channel_layer is None:
            return  # none for this socket: the feed checks serve it
        try:
            # The match's group (presence) and the seat's own (its events).
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.channel_layer.group_add(publish.group_of(self.match_id, self.seat),
                                               self.channel_name)
            self.joined = True
        except Exception:  # the layer is down: the feed checks serve until it is back
            logger.warning("live socket without notices for now", exc_info=True)

    # --- client messages: server.api.sockets.SturdyConsumer.receive ---

    # --- the layer's notices ---

    async def events_stored(self, message: dict) -> None:
        # What the feed would give, from the process that stored it: no read, when it follows.
        if not await self._forwarded(message):
            await self._push(message.get("last", 0))

    async def presence_changed(self, message: dict) -> None:
        if self.seat is not None:
            await self._send_presence(message.get("seats"))

    # --- pushing ---

    async def _push(self, latest: int | None = None) -> None:
        """Send the seat's events after the last one sent, page by page (``latest``: the
        number a notice gave)."""
        async with self.pushing:
            while not self.closed:
                if latest is not None and latest <= self.last:
                    return  # sent meanwhile
                try:
                    events, last = await _events_after(self.match_id, self.seat, self.last,
                                                       latest)
                except DatabaseError:
                    logger.warning("live socket closed: the database failed", exc_info=True)
                    await self._close(SERVER_ERROR)
                    return
                if events:
                    await self._send({"type": "events", "events": events, "last": last})
                    self.last = last
                if len(events) < EVENTS_PER_PAGE:
                    return

    async def _send_presence(self, seats: list[bool] | None = None) -> None:
        if seats is None:
            seats = await _in_thread_presence(presence.seats_connected)(
                self.match_id, bot_seat=self.bot_seat)
        if seats != self.seats_sent and not self.closed:
            self.seats_sent = seats
            await self._send({"type": "presence", "seats": seats})

    async def _presence_changed(self) -> None:
        """Send this socket the table as it is now, and tell the others."""
        seats = await _in_thread_presence(presence.seats_connected)(
            self.match_id, bot_seat=self.bot_seat)
        await self._send_presence(seats)
        publish.send((self.group, {"type": "presence.changed", "seats": seats}))

    async def _tick(self) -> None:
        """Every LIVE_POLL_SECONDS, compare the match's latest event number in the cache with
        the last one sent, and read the feed if it is ahead or unknown; keep the presence slot
        alive and look at who is there (a killed worker's sockets age out) every heartbeat.
        The token's check (closed once it is gone, every LIVE_TOKEN_CHECK_SECONDS) and the
        fallback read of the feed (every LIVE_FEED_CHECK_SECONDS) are the process's sweeps',
        one query each for all its sockets."""
        now = time.monotonic()
        poll_due = now + settings.LIVE_POLL_SECONDS
        beat_due = now + presence.HEARTBEAT_SECONDS
        while not self.closed:
            await asyncio.sleep(max(0.0, min(poll_due, beat_due) - time.monotonic()))
            try:
                now = time.monotonic()
                if now >= poll_due:
                    poll_due = now + settings.LIVE_POLL_SECONDS
                    latest = await _in_thread_presence(publish.latest_known)(self.match_id)
                    if latest is None:
                        await self._push()
                    elif latest > self.last:
                        await self._push(latest)
                if now >= beat_due:
                    beat_due = now + presence.HEARTBEAT_SECONDS
                    if not self.joined:
                        await self._join()
                    self.slot = await _in_thread_presence(presence.heartbeat)(
                        self.match_id, self.seat, self.socket_id, self.slot)
                    await self._send_presence()
            except Exception:  # one bad tick must not end the socket's checks
                logger.exception("live socket tick failed")

    @property
    def authenticated(self) -> bool:
        return self.seat is not None

    # --- closing (the rest is server.api.sockets.SturdyConsumer's) ---

    async def _give_back(self) -> None:
        token_sweep.remove(self)
        feed_sweep.remove(self)
        if self.seat is None:
            return
        if self.joined:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(self.group, self.channel_name)
                await self.channel_layer.group_discard(
                    publish.group_of(self.match_id, self.seat), self.channel_name)
        await _in_thread_presence(presence.leave)(self.match_id, self.seat, self.socket_id,
                                                  self.slot)
        seats = await _in_thread_presence(presence.seats_connected)(
            self.match_id, bot_seat=self.bot_seat)
        publish.send((self.group, {"type": "presence.changed", "seats": seats}))
