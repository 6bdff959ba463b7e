"""``GET /api/v1/spite-malice/matches/{id}/events?after=N&wait=S``: the events feed held until
an event after N is stored or S seconds pass, then answered as without ``wait``.

This is an ASGI application in front of the one that answers the feed (``server.asgi``
routes the feed's requests that carry ``wait=`` here): it waits on the event loop, so a
held request holds none of the process's few request threads, and then hands the request on
unchanged, so the answer (and every error: a bad ``wait``, a bad token, a match not yours)
is exactly the feed's. While it waits it listens on the seat's channel-layer group, the one
the match's sockets hear its events on (``publish.events_stored``), and reads the match's
latest event number every ``POLL_SECONDS`` besides (a notice lost, the embedded default's
other processes, Redis down). When the server begins to stop (``server.api.stopping``), a
held request is answered at once, as if its seconds had passed. A request it cannot plan for
(no token, a malformed parameter, a match that is not the token's player's, events already
there) is handed on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import uuid
from urllib.parse import parse_qs

from channels.layers import get_channel_layer

from server.api import notices, sockets, stopping
from server.core.queries import one_or_none
from server.spitemalice.live import publish
from server.spitemalice.live.consumers import MAX_AFTER, _seat_of
from server.spitemalice.models import Match

logger = logging.getLogger(__name__)

PATH = re.compile(r"^/api/v1/spite-malice/matches/(?P<id>[0-9a-fA-F-]{32,36})/events$")
MAX_WAIT = 60
POLL_SECONDS = 1.0


def waits(scope) -> bool:
    """Whether an HTTP request is the feed's with a ``wait=`` parameter (to route here)."""
    return (scope.get("method") == "GET" and PATH.match(scope.get("path", "")) is not None
            and b"wait=" in scope.get("query_string", b""))


def _latest_read(match_id) -> int:
    return one_or_none(Match.objects.filter(pk=match_id).values_list("event", flat=True)) or 0


_latest = sockets.in_thread(_latest_read)


def _plan(scope) -> tuple[uuid.UUID, int, int, str] | None:
    """(match id, after, wait seconds, token), or None to hand the request on at once."""
    found = PATH.match(scope["path"])
    if found is None:
        return None
    try:
        match_id = uuid.UUID(found["id"])
    except ValueError:
        return None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    waited, after = query.get("wait", []), query.get("after", ["0"])
    if len(waited) != 1 or len(after) != 1:
        return None
    if not all(value.isascii() and value.isdigit() for value in (waited[0], after[0])):
        return None
    wait, after_number = int(waited[0]), int(after[0])
    if not 1 <= wait <= MAX_WAIT or after_number > MAX_AFTER:
        return None
    token = sockets.bearer_of(scope.get("headers", []))
    if not isinstance(token, str):  # none, or not a Bearer token
        return None
    return match_id, after_number, wait, token


class EventsWait:
    """Hold a feed request with ``wait=`` until it has something to answer, then hand it to
    ``app``."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        plan = _plan(scope)
        if plan is None:
            await self.app(scope, receive, send)
            return
        first = await receive()
        if first["type"] == "http.disconnect":
            return
        replay = [first]

        async def replayed():
            return replay.pop() if replay else await receive()

        if not first.get("more_body"):
            gone = asyncio.ensure_future(receive())  # the client's disconnect, if it comes
            waiting = asyncio.ensure_future(self._wait(*plan))
            # The server's stop answers at once, with the feed as it stands.
            stop = asyncio.ensure_future(stopping.wait())
            try:
                await asyncio.wait({gone, waiting, stop}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                stop.cancel()
                waiting.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await waiting
            if gone.done():
                return  # nobody to answer

            async def after_wait():
                return replay.pop() if replay else await gone
            await self.app(scope, after_wait, send)
            return
        await self.app(scope, replayed, send)

    async def _wait(self, match_id, after: int, wait: int, token: str) -> None:
        try:
            verdict, seat, _, latest, _ = await _seat_of(token, match_id)
        except Exception:
            logger.warning("events wait: the database failed", exc_info=True)
            return
        if verdict != "ok" or latest > after:
            return
        notices.serve_from(asyncio.get_running_loop())
        deadline = time.monotonic() + wait
        layer, channel = get_channel_layer(), None
        group = publish.group_of(match_id, seat)
        try:
            if layer is not None:
                try:
                    channel = await layer.new_channel()
                    await layer.group_add(group, channel)
                except Exception:
                    logger.warning("events wait without notices", exc_info=True)
                    channel = None
            while (left := deadline - time.monotonic()) > 0:
                step = min(left, POLL_SECONDS)
                if layer is not None and channel is not None:
                    with contextlib.suppress(asyncio.TimeoutError):
                        message = await asyncio.wait_for(layer.receive(channel), step)
                        if message.get("last", 0) > after:
                            return
                        continue
                else:
                    await asyncio.sleep(step)
                if await _latest(match_id) > after:
                    return
        finally:
            if layer is not None and channel is not None:
                with contextlib.suppress(Exception):
                    await layer.group_discard(group, channel)
