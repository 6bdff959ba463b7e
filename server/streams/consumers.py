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
when it is behind or the cache cannot say; that number, its stream slot, its token and its
player's counter are each checked with every other socket of the process in one call
(``server.api.sweeps``). A player holds at
most ``STREAMS_PER_PLAYER`` streams and account sockets across tokens and processes
(``server.streams.watch``): past that, 4429.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from django.conf import settings
from django.db import DatabaseError

from server.api import notices, sockets
from server.api.sockets import in_cache_thread, in_thread
from server.api.sweeps import Sweep
from server.players.tokens import access_of
from server.streams import watch
from server.streams.selectors import MAX_AFTER, account_events_after, account_last
from server.streams.services import active_matches, group_of
from server.streams.views import open_streams

logger = logging.getLogger(__name__)


@in_thread
def _access(token: str) -> tuple[int, Any, int, list[dict]] | None:
    """The token's id, its player, the player's latest event number and then (read after
    it, so that a match started meanwhile is in one or the other, never in neither) the
    snapshot of their active matches."""
    access = access_of(token)
    if access is None:
        return None
    latest = account_last(access.player_id)
    return access.pk, access.player_id, latest, active_matches(access.player_id)


_events_after = in_thread(account_events_after)
_latest_remember = in_cache_thread(watch.latest_remember)
_slot_take = in_cache_thread(watch.slot_take)
_slot_give_back = in_cache_thread(watch.slot_give_back)


# The sockets' own periodic checks, made once per process for all of them: the players'
# latest event numbers in the cache every STREAM_POLL_SECONDS (a socket behind reads its
# events), and their stream slots kept alive every SLOT_REFRESH_SECONDS. Made by each socket
# for itself, 300 idle sockets cost the workers 52 ms of CPU a second (docs/OPERATIONS.md).
latest_sweep = Sweep("account latest numbers", lambda: settings.STREAM_POLL_SECONDS,
                     lambda player_ids: watch.latest_known_of(player_ids))
slot_sweep = Sweep("account stream slots", lambda: watch.SLOT_REFRESH_SECONDS,
                   lambda streams: watch.slot_keep_all(streams))


class AccountConsumer(sockets.SturdyConsumer):
    """The account's socket: what the module says. Channels' loop and dispatch less their
    failures, the client's messages, the token and its checks, the groups and the release are
    ``server.api.sockets.SturdyConsumer``'s; this is the account's own work."""

    socket_kind = "account"
    log_name = "account socket"
    # As it is before connect() runs: release() may run after a failure anywhere.
    player_id: Any = None
    streamed = False  # whether the token's count of open streams took it (``open_streams``)
    slot: int | None = None
    holder = ""

    async def connect(self) -> None:
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
            await self._database_failed()
            return
        if found is None:
            await self._close(sockets.BAD_TOKEN)
            return
        token_id, player_id, latest, matches = found
        if not open_streams.open(token_id):
            await self._close(sockets.TOO_MANY)  # the token holds all the streams it may
            return
        self.streamed, self.token_id = True, token_id  # the stream count gives it back
        self.holder = uuid.uuid4().hex
        slot = await _slot_take(player_id, self.holder)
        if isinstance(slot, str):  # watch.FULL: the one string slot_take() gives
            await self._close(sockets.TOO_MANY)  # the player holds all the streams they may
            return
        self.slot, self.player_id = slot, player_id
        sockets.open_sockets.authenticated(self.address)
        self.notice_groups = (group_of(player_id),)
        await self._join()
        notices.serve_from(asyncio.get_running_loop())
        self.last = latest if self.after is None else min(self.after, latest)
        await _latest_remember(player_id, latest)
        await self._send({"type": "ready", "last": latest, "matches": matches})
        await self._push()
        self._watch_token(token_id)
        watch.feed_sweep.add(self, player_id, self._feed_answer)
        latest_sweep.add(self, player_id, self._latest_answer)
        self._keep(slot)

    async def _feed_answer(self, latest: int | None) -> None:
        if (latest or 0) > self.last and not self.closed:
            await self._push()

    async def _latest_answer(self, latest: int | None) -> None:
        """The cache's latest event number of the player (None: it cannot say): read the table
        only if it is ahead of the last one sent, or unknown (a notice lost, another process's
        in the embedded default)."""
        if (latest is None or latest > self.last) and not self.closed:
            await self._push()

    def _keep(self, slot: int | None) -> None:
        """Keep the player's stream ``slot`` alive from now on (``slot_sweep``)."""
        self.slot = slot
        slot_sweep.add(self, watch.Holding(self.player_id, self.holder, slot), self._slot_answer)

    async def _slot_answer(self, slot: int | None) -> None:
        if slot != self.slot and not self.closed:
            self._keep(slot)

    async def account_events(self, message: dict[str, Any]) -> None:
        if not await self._forwarded(message):
            await self._push()

    async def _push(self) -> None:
        async with self.pushing:
            while not self.closed:
                try:
                    events, more = await _events_after(self.player_id, self.last)
                except DatabaseError:
                    await self._database_failed()
                    return
                if events:
                    self.last = events[-1]["number"]
                    await self._send({"type": "events", "events": events, "last": self.last})
                if not more:
                    return

    @property
    def authenticated(self) -> bool:
        return self.player_id is not None

    # --- closing (the rest is server.api.sockets.SturdyConsumer's) ---

    async def _give_back(self) -> None:
        for sweep in (watch.feed_sweep, latest_sweep, slot_sweep):
            sweep.remove(self)
        if self.streamed and self.token_id is not None:
            open_streams.closed(self.token_id)
        if self.player_id is not None:
            await _slot_give_back(self.player_id, self.slot, self.holder)
