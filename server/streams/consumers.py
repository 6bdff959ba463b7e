"""The account socket, ``/ws/account``: the player's account events (``server.streams``) as
they are stored, across all their matches.

Authenticated as a match's socket is (the handshake's ``Authorization: Bearer`` header, or a
first ``{"type": "auth", "token": ...}`` message within 10 seconds), bounded as every live
socket is (``server.api.sockets``: the frame size, the sockets and handshakes per address, the
same close codes), and counted with the token's HTTP streams (``STREAMS_PER_TOKEN``).
``?after=N`` resumes after event N. Messages: ``{"type": "ready", "last": N, "matches":
[...]}`` (N the player's latest event number; ``matches`` the snapshot of their active matches,
an unnumbered ``match_started`` each), then ``{"type": "events", "events": [...], "last": M}``,
and ``{"type": "pong"}`` to a ``{"type": "ping"}``. Events come with the channel layer's notice
when they follow on from the last sent, else from the table: in order, none twice, none
missing. An idle socket costs the database nothing: every ``STREAM_POLL_SECONDS`` it compares
the player's latest event number in the cache with the last it sent, and reads the table only
when it is behind or the cache cannot say; its token and its player's counter are checked with
every other socket of the process in one query each (``server.api.sweeps``). A player holds at
most ``STREAMS_PER_PLAYER`` streams and account sockets across tokens and processes
(``server.streams.watch``): past that, 4429.
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
from django.db import DatabaseError

from server.api import notices, sockets
from server.players.tokens import access_of, token_sweep
from server.streams import watch
from server.streams.selectors import MAX_AFTER, account_events_after, account_last
from server.streams.services import active_matches, group_of
from server.streams.views import open_streams

logger = logging.getLogger(__name__)


def _in_thread(function):
    return database_sync_to_async(function, thread_sensitive=False)


@_in_thread
def _access(token: str) -> tuple[int, object, int, list[dict]] | None:
    """The token's id, its player, the player's latest event number and then (read after
    it, so that a match started meanwhile is in one or the other, never in neither) the
    snapshot of their active matches."""
    access = access_of(token)
    if access is None:
        return None
    latest = account_last(access.player_id)
    return access.pk, access.player_id, latest, active_matches(access.player_id)


def _in_cache_thread(function):
    # The cache's calls block too (a file, or Redis), and touch no database.
    return sync_to_async(function, thread_sensitive=False)


_events_after = _in_thread(account_events_after)
_latest_known = _in_cache_thread(watch.latest_known)
_latest_remember = _in_cache_thread(watch.latest_remember)
_slot_take = _in_cache_thread(watch.slot_take)
_slot_keep = _in_cache_thread(watch.slot_keep)
_slot_give_back = _in_cache_thread(watch.slot_give_back)


class AccountConsumer(sockets.SturdyConsumer):
    socket_kind = "account"
    player_id = None
    token_id: int | None = None
    counted = False
    streamed = False
    closed = False
    joined = False
    released = False
    tasks: tuple | list = ()
    slot: int | None = None
    holder = ""

    async def connect(self) -> None:
        self.last = 0
        self.tasks = []
        self.pushing = asyncio.Lock()
        if not await self._admit():
            return
        self.after = sockets.query_after(self.scope.get("query_string", b""), MAX_AFTER)
        if self.after is False:
            await self._close(sockets.BAD_MESSAGE)
            return
        await self._token_or_deadline()

    async def _authenticate(self, token: str) -> None:
        try:
            found = await _access(token)
        except DatabaseError:
            logger.warning("account socket refused: the database failed", exc_info=True)
            await self._close(sockets.SERVER_ERROR)
            return
        if found is None:
            await self._close(sockets.BAD_TOKEN)
            return
        token_id, player_id, latest, matches = found
        if not open_streams.open(token_id):
            await self._close(sockets.TOO_MANY)  # the token holds all the streams it may
            return
        self.streamed, self.token_id = True, token_id
        self.holder = uuid.uuid4().hex
        slot = await _slot_take(player_id, self.holder)
        if slot == watch.FULL:
            await self._close(sockets.TOO_MANY)  # the player holds all the streams they may
            return
        self.slot, self.player_id = slot, player_id
        sockets.open_sockets.authenticated(self.address)
        if self.channel_layer is not None:
            try:
                await self.channel_layer.group_add(group_of(player_id), self.channel_name)
                self.joined = True
            except Exception:
                logger.warning("account socket without notices for now", exc_info=True)
        notices.serve_from(asyncio.get_running_loop())
        self.last = latest if self.after is None else min(self.after, latest)
        await _latest_remember(player_id, latest)
        await self._send({"type": "ready", "last": latest, "matches": matches})
        await self._push()
        token_sweep.add(self, token_id, self._token_answer)
        watch.feed_sweep.add(self, player_id, self._feed_answer)
        self.tasks.append(asyncio.create_task(self._tick()))

    async def _token_answer(self, alive: bool | None) -> None:
        if not alive and not self.closed:
            await self._close(sockets.BAD_TOKEN)  # signed out or revoked meanwhile

    async def _feed_answer(self, latest: int | None) -> None:
        if (latest or 0) > self.last and not self.closed:
            await self._push()

    async def account_events(self, message: dict) -> None:
        if not await self._forwarded(message):
            await self._push()

    async def _push(self) -> None:
        async with self.pushing:
            while not self.closed:
                try:
                    events, more = await _events_after(self.player_id, self.last)
                except DatabaseError:
                    logger.warning("account socket closed: the database failed",
                                   exc_info=True)
                    await self._close(sockets.SERVER_ERROR)
                    return
                if events:
                    self.last = events[-1]["number"]
                    await self._send({"type": "events", "events": events, "last": self.last})
                if not more:
                    return

    async def _tick(self) -> None:
        """Every STREAM_POLL_SECONDS, compare the player's latest event number in the cache
        with the last one sent, and read the table only if it is ahead or unknown (a notice
        lost, another process's in the embedded default); keep the player's stream slot alive.
        The token's check and the fallback read of the counter are the process's sweeps'."""
        slot_due = time.monotonic() + watch.SLOT_REFRESH_SECONDS
        while not self.closed:
            await asyncio.sleep(settings.STREAM_POLL_SECONDS)
            try:
                latest = await _latest_known(self.player_id)
                if latest is None or latest > self.last:
                    await self._push()
                if time.monotonic() >= slot_due:
                    slot_due = time.monotonic() + watch.SLOT_REFRESH_SECONDS
                    self.slot = await _slot_keep(self.player_id, self.slot, self.holder)
            except Exception:
                logger.exception("account socket tick failed")

    @property
    def authenticated(self) -> bool:
        return self.player_id is not None

    # --- closing (the rest is server.api.sockets.SturdyConsumer's) ---

    async def _give_back(self) -> None:
        token_sweep.remove(self)
        watch.feed_sweep.remove(self)
        if self.streamed:
            open_streams.closed(self.token_id)
        if self.player_id is not None:
            await _slot_give_back(self.player_id, self.slot, self.holder)
        if self.joined:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group_of(self.player_id),
                                                       self.channel_name)
