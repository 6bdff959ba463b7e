"""The socket of one race, ``/ws/races/<id>``: the race as its racers (and invitees) see it,
and every racer's progress as they move.

Authenticated and bounded as every live socket of the API (``server.api.sockets``: the
handshake's Bearer token or a first ``auth`` message within 10 s, the frame size, the sockets
and handshakes per address, the close codes); only a racer or an invitee of the race gets in
(else 4403). Messages: ``ready`` with the race (``selectors.race_output`` for this player), a
``race`` message each time the race itself changes (a notice of ``live.race_changed``: the
socket reads it again), ``progress`` for each move of any racer (``live.progress_published``'s
notice, forwarded without a read), ``pong``.

Nothing names a card of another racer's game before this player may watch: all racers share one
deal. The notice carries the mover's board, and the socket passes it on only once its player's
own game is over (known from its own progress notices and its reads of the race) or the race
finished; a read of the race is ``race_output``'s, which shows the boards by the same rule.
When the player's own game ends the socket sends the race once more, now with the others'
boards.

The socket also keeps the race's clock (``clock.RaceClock``): at ``starts_at`` it sends the
race, its status now ``playing`` (nothing else changes then: no read), and at ``ends_at`` it
closes a race still running (``services.race_close_if_due``, lazy and idempotent) and sends it.
Where no channel layer serves it (Redis down, or the embedded default's in-memory layer, which
reaches only its own process) it reads the race every ``LIVE_POLL_SECONDS`` and sends what
changed (Redis is asked whether it answers that often: the cache's server, the layer's too);
with notices, every ``LIVE_FEED_CHECK_SECONDS`` in case one was lost, and once they reach it
again after an outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import Counter
from typing import Any

from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from server.api import close_codes, notices, sockets
from server.api.sockets import in_cache_thread, in_thread
from server.core.queries import one_or_none
from server.foursquare.models import Race
from server.foursquare.races import live
from server.foursquare.races.clock import RaceClock
from server.foursquare.races.problems import RaceNotFound
from server.foursquare.races.selectors import race_for, race_output, race_visible_to
from server.foursquare.races.services import race_close_if_due
from server.players.models import Player
from server.players.tokens import access_of

logger = logging.getLogger(__name__)

# The socket's own close code (the others are server.api.close_codes's): no such race, or
# neither a racer nor an invitee of it. The AsyncAPI document says so (races.asyncapi).
NOT_YOURS = close_codes.NOT_YOURS
_CHECK_KEY = "live:races:check"  # read only, to see whether Redis answers


# The sockets open in this process per (race, player): at most LIVE_SOCKETS_PER_SEAT, as a
# match's seat (each costs a read of the race whenever it changes). Touched on the event loop
# only.
_held: Counter[tuple[uuid.UUID, str]] = Counter()


@in_thread
def _viewer_of(token: str, race_id: uuid.UUID) -> tuple[str, Player | None, int]:
    """("ok" | "bad_token" | "not_yours", the player, the token's id)."""
    access = access_of(token)
    if access is None:
        return "bad_token", None, 0
    player = access.player
    race = one_or_none(Race.objects.filter(pk=race_id))
    # A racer or an invitee (the code's visitors see the race over REST, not live).
    member = race is not None and race_visible_to(race, player)
    return ("ok" if member else "not_yours"), player, access.pk


@in_thread
def _race_read(race_id: uuid.UUID, viewer: Player | None, *,
               close: bool = False) -> dict[str, Any] | None:
    """The race as ``viewer`` sees it, None once they may not (it is gone, or they left it);
    ``close``: first close it if it is due (its end passed)."""
    if close:
        race_close_if_due(race_id)
    try:
        return race_output(race_for(viewer, race_id), viewer)
    except RaceNotFound:
        return None


@in_cache_thread
def _redis_answers() -> bool:
    """Whether the cache answers: with Redis, the channel layer's server too."""
    try:
        cache.get(_CHECK_KEY)
    except Exception:
        return False
    return True


def _racer_of(race: dict[str, Any], player_id: str | None) -> dict[str, Any] | None:
    for racer in race.get("racers", ()):
        if racer["player"]["id"] == player_id:
            return racer
    return None


def _order(progress: dict[str, Any]) -> tuple[int, bool]:
    """A game's progress only grows: cards placed, then over."""
    return progress["placed"], progress["status"] != "playing"


def _race_level(race: dict[str, Any]) -> dict[str, Any]:
    """The race less its racers' progress and boards: what a ``race`` message is sent for."""
    return {**race, "racers": [{key: value for key, value in racer.items()
                                if key not in ("progress", "board")}
                               for racer in race.get("racers", ())]}


class RaceConsumer(sockets.SturdyConsumer):
    """The race's socket: what the module says. Channels' loop and dispatch less their
    failures, the client's messages, the token and its checks, the groups and the release are
    ``server.api.sockets.SturdyConsumer``'s; this is the race's own work. ``pushing`` is held
    by each read or send of the race: one at a time, in order."""

    socket_kind = "race"
    log_name = "race socket"
    # As it is before connect() runs: release() may run after a failure anywhere.
    player: Player | None = None
    player_id: str | None = None
    holding: tuple[uuid.UUID, str] | None = None  # the (race, player) counted in ``_held``

    async def connect(self) -> None:
        self.race_id = uuid.UUID(str(self.scope["url_route"]["kwargs"]["race_id"]))
        self.notice_groups = (live.group_of(self.race_id),)
        self.race: dict[str, Any] | None = None  # the race as last sent
        self.known: dict[str, dict[str, Any]] = {}  # each racer's progress as last sent
        self.watching = False  # whether this player may see the others' boards
        self.clock = RaceClock()
        self.rearm = asyncio.Event()  # set when a read changed the race: the clock looks again
        if await self._admit():
            await self._token_or_deadline()

    async def _authenticate(self, token: str) -> None:
        try:
            verdict, player, token_id = await _viewer_of(token, self.race_id)
        except DatabaseError:
            await self._database_failed()
            return
        if verdict != "ok" or player is None:
            await self._close(sockets.BAD_TOKEN if verdict == "bad_token" else NOT_YOURS)
            return
        holding = (self.race_id, str(player.pk))
        if _held[holding] >= settings.LIVE_SOCKETS_PER_SEAT:
            await self._close(sockets.TOO_MANY)  # this racer holds all the sockets they may
            return
        _held[holding] += 1
        self.holding = holding
        self.player, self.player_id = player, str(player.pk)
        sockets.open_sockets.authenticated(self.address)
        # Joined before the race is read: a notice sent meanwhile finds the socket listening,
        # and one the read already holds is not sent twice (``known``).
        await self._join()
        notices.serve_from(asyncio.get_running_loop())
        await self._refresh(ready=True)
        self._watch_token(token_id)
        self.tasks.append(asyncio.create_task(self._tick()))

    @property
    def authenticated(self) -> bool:
        return self.player_id is not None

    # --- the layer's notices ---

    async def race_progress(self, message: dict[str, Any]) -> None:
        if not self.authenticated or self.closed:
            return
        player, progress = message["player"], message["progress"]
        async with self.pushing:
            if not self._newer(player, progress):
                return  # the race read held it already, or a later one came first
            became_watcher = (player == self.player_id and progress["status"] != "playing"
                              and not self.watching)
            self.watching = self.watching or became_watcher
            await self._send_progress(player, progress, message.get("board"))
        if became_watcher:
            await self._refresh()  # the race, now with the others' boards

    async def race_changed(self, message: dict[str, Any]) -> None:
        if self.authenticated and not self.closed:
            await self._refresh()

    # --- sending ---

    def _newer(self, player: str, progress: dict[str, Any]) -> bool:
        known = self.known.get(player)
        return known is None or (progress != known and _order(progress) >= _order(known))

    async def _send_progress(self, player: str, progress: dict[str, Any], board: Any) -> None:
        self.known[player] = progress
        message = {"type": "progress", "player": player, "progress": progress}
        # The one place a board leaves: only to a player who may watch.
        if board is not None and self.watching:
            message["board"] = board
        await self._send(message)

    async def _refresh(self, *, ready: bool = False, poll: bool = False,
                       close: bool = False) -> None:
        """Read the race and send it: ``ready``, else a ``race`` message if it differs from
        the last sent. ``poll`` (a read no notice asked for): a ``race`` message only if the
        race itself changed, else a ``progress`` message for each racer whose progress moved
        on since the last sent (the only way moves reach a socket no notice reaches).
        ``close``: first close the race if its time is up."""
        async with self.pushing:
            if self.closed:
                return
            try:
                race = await _race_read(self.race_id, self.player, close=close)
            except DatabaseError:
                await self._database_failed()
                return
            if race is None:
                await self._close(NOT_YOURS)  # the race is gone, or they left it
                return
            mine = _racer_of(race, self.player_id)
            self.watching = self.watching or race["status"] == "finished" or (
                mine is not None and mine["progress"]["status"] != "playing")
            if ready:
                await self._send({"type": "ready", "race": race})
            elif self.race is None or (_race_level(race) != _race_level(self.race) if poll
                                       else race != self.race):
                await self._send({"type": "race", "race": race})
            else:
                for racer in race["racers"]:
                    player = racer["player"]["id"]
                    if self._newer(player, racer["progress"]):
                        await self._send_progress(player, racer["progress"],
                                                  racer.get("board"))
            if self.race is None or race["status"] != self.race["status"]:
                self.rearm.set()  # the clock looks at it again
            self.race = race
            if ready or poll:
                # What the read showed is sent: a notice of it after this is not. (A race
                # message leaves them be: each move still gets its progress message.)
                for racer in race["racers"]:
                    player = racer["player"]["id"]
                    if self._newer(player, racer["progress"]):
                        self.known[player] = racer["progress"]

    # --- the clock, the checks ---

    async def _countdown_over(self) -> None:
        """At ``starts_at`` the race turns ``playing``, and nothing else of it changes then
        (anything else comes with its own notice): the race as last sent, playing, without a
        read (a race's sockets would otherwise all read it at that instant)."""
        async with self.pushing:
            if self.race is None or not self.clock.countdown_over(self.race) or self.closed:
                return  # moved on meanwhile, or early: the clock tries again
            self.race = {**self.race, "status": "playing"}
            await self._send({"type": "race", "race": self.race})

    async def _notices_reach(self) -> bool:
        """Whether notices reach this socket: it joined the race's group on a layer shared by
        the app's processes, and that layer's Redis answers (the cache's, the same server)."""
        if not self.joined or isinstance(self.channel_layer, InMemoryChannelLayer):
            return False
        return await _redis_answers()

    async def _tick(self) -> None:
        """The race's clock (``clock.RaceClock``, looked at again whenever the race read
        changes); every LIVE_POLL_SECONDS a read of the race where no notice reaches the socket
        (and once more when they reach it again), else every LIVE_FEED_CHECK_SECONDS. The
        token's check is the process's sweep's (``_watch_token``)."""
        now = time.monotonic()
        poll_due = now + settings.LIVE_POLL_SECONDS
        read_due = now + max(settings.LIVE_FEED_CHECK_SECONDS, settings.LIVE_POLL_SECONDS)
        cut_off = False  # whether the last check found no notice reaching the socket
        while not self.closed:
            delay, closing = self.clock.due(self.race)
            # The clock's wall-time delay as a deadline of the loop's clock, as the polls'.
            clock_due = None if delay is None else time.monotonic() + delay
            wake = min(poll_due, clock_due if clock_due is not None else poll_due)
            self.rearm.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.rearm.wait(), max(0.0, wake - time.monotonic()))
            try:
                now = time.monotonic()
                if clock_due is not None and now >= clock_due:
                    self.clock.fired(self.race)
                    if closing:
                        await self._refresh(close=True)
                    else:
                        await self._countdown_over()
                if now >= poll_due:
                    poll_due = now + settings.LIVE_POLL_SECONDS
                    if not self.joined:
                        await self._join()
                    reached = await self._notices_reach()
                    if not reached or cut_off or now >= read_due:
                        read_due = now + max(settings.LIVE_FEED_CHECK_SECONDS,
                                             settings.LIVE_POLL_SECONDS)
                        await self._refresh(poll=True)
                    cut_off = not reached
            except Exception:  # one bad tick must not end the socket's checks
                logger.exception("race socket tick failed")

    # --- closing (the rest is server.api.sockets.SturdyConsumer's) ---

    async def _give_back(self) -> None:
        if self.holding is not None:
            _held[self.holding] -= 1
            if _held[self.holding] <= 0:
                del _held[self.holding]
            self.holding = None
