"""What every live socket of the API owes the server, whichever game it serves: a client's
address read as the HTTP limits read it, a bound on how many sockets one address holds open
(and how many of them before they authenticate), a rate of handshakes per address, and a bound
on a message's size checked before it is parsed. docs/API.md lists the close codes, and
docs/SECURITY.md why each bound is there.

The open sockets are counted per app process, in memory: a process that dies takes its counts
with it, so nothing can leak a count that no socket holds any more, and a deployment's bound is
the per-process one times its processes. The handshakes are counted in the shared cache, as the
HTTP limits are (``server.api.throttling``): over the rate a handshake is refused, and with the
cache down none is.

``SturdyConsumer`` is the base the three sockets (a Spite & Malice match's, a Foursquare race's,
the account's) subclass: Channels' consumer less its failures, the client's side of the protocol
(``auth``, ``ping``), the admission and the token's deadline, the channel-layer groups its
notices come on, the token's check while it is open (``token_sweep``: closed 4401 once the
token is gone) and the release of all it held. A subclass keeps its game's work: who may
connect, what it sends. ``in_thread`` and ``in_cache_thread`` run their blocking calls; the
close codes are ``server.api.close_codes``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, ParamSpec, TypeVar
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import BaseChannelLayer, get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings

from server.api import throttling
from server.api.close_codes import (
    AUTH_SECONDS,
    BAD_MESSAGE,
    BAD_TOKEN,
    SERVER_ERROR,
    TOKEN_MAX_LENGTH,
    TOO_MANY,
)
from server.core import metrics
from server.core.logformat import request_id_var
from server.core.requestlog import request_id_of
from server.players.tokens import token_sweep, tokens_alive

logger = logging.getLogger(__name__)

__all__ = ["AUTH_SECONDS", "BAD_MESSAGE", "BAD_TOKEN", "SERVER_ERROR", "TOKEN_MAX_LENGTH",
           "TOO_MANY"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_thread(function: Callable[_P, _R]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """``function`` (it reads or writes the database) as a coroutine run in the thread pool,
    not on the one thread that ``thread_sensitive`` work shares: a hundred sockets reading at
    once (a race's all read at its start and its end) should not queue behind each other.
    Channels' wrapper closes its thread's old database connections before and after, as a
    request's end does."""
    return database_sync_to_async(function, thread_sensitive=False)


def in_cache_thread(function: Callable[_P, _R]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """``function`` (it calls the shared cache: a file, or Redis) as a coroutine run in the
    thread pool: the cache's calls block too, and touch no database."""
    return sync_to_async(function, thread_sensitive=False)


@in_thread
def token_alive(token_id: int) -> bool:
    """Whether the token is still alive (not signed out or revoked, its player active): what
    ``token_sweep`` asks for every open socket of a process at once, for one token."""
    return token_id in tokens_alive({token_id})


def query_after(query_string: bytes, maximum: int) -> int | bool | None:
    """``?after=N``: N, None when absent, False when malformed or over ``maximum``."""
    values = parse_qs(query_string.decode("latin-1"), keep_blank_values=True).get("after")
    if values is None:
        return None
    value = values[-1]
    if len(values) != 1 or not value.isascii() or not value.isdigit() or int(value) > maximum:
        return False
    return int(value)


def token_shaped(token: object) -> bool:
    """A token is short printable ASCII: anything else (a lone surrogate, a megabyte) is refused
    as a bad token before it reaches the database."""
    return (isinstance(token, str) and 0 < len(token) <= TOKEN_MAX_LENGTH and token.isascii()
            and token.isprintable())


def bearer_of(headers: Iterable[tuple[bytes, bytes]]) -> str | bool | None:
    """The handshake's ``Authorization: Bearer <token>``: the token, None when absent, False
    when it is not a Bearer token."""
    for name, value in headers:
        if name.lower() == b"authorization":
            parts = value.split()
            if len(parts) != 2 or parts[0].lower() != b"bearer" or not parts[1].isascii():
                return False
            token = parts[1].decode("ascii")
            return token if token_shaped(token) else False
    return None


class SturdyConsumer(AsyncWebsocketConsumer):
    """Channels' consumer less its two failures, for every live socket of the API: a channel
    layer that cannot make the socket's channel (Redis down) no longer fails the handshake with
    a 500 (the socket is served without notices, from its checks of the database), and any
    handler's failure closes the socket (1011) and gives back what it held (``_close``,
    ``_release``), never a dropped connection whose tasks go on. What every socket shares
    besides: the client's messages (``receive``), the admission (``_admit``), the token or its
    deadline (``_token_or_deadline``), the groups its notices come on (``_join``), the token's
    check while it is open (``_watch_token``) and the release (``_release``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The socket's own tasks (its checks, its deadline), cancelled when it is released.
        self.tasks: list[asyncio.Task[None]] = []
        self.pushing = asyncio.Lock()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope = scope
        # The socket's whole life logs under the id of its handshake (server.core.requestlog).
        request_id_var.set(request_id_of(_header(scope, b"x-request-id")))
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            try:
                self.channel_name = await self.channel_layer.new_channel()
                sources.append(functools.partial(self.channel_layer.receive,
                                                 self.channel_name))
            except Exception:
                logger.warning("live socket without notices: the channel layer failed",
                               exc_info=True)
                self.channel_layer = None
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch(sources, self.dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            # Channels' own dispatch first runs close_old_connections on its one
            # thread-sensitive thread for every message (every notice, every frame): a thread
            # hop per message, a sixth of a worker's CPU under load, for nothing here, since
            # every database call of these consumers runs through database_sync_to_async,
            # which closes the old connections of its own thread before and after.
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            logger.exception("live socket closed: a handler failed")
            await self._close(SERVER_ERROR)
            await self._release()
            raise StopConsumer() from None

    # Which socket this is, as the metrics name it (``sockets_open``): a subclass names itself;
    # and as the log names it.
    socket_kind = "socket"
    log_name = "live socket"
    # As it is before connect() runs (release() may run after a failure anywhere): its client's
    # address, whether the address's count of open sockets took it (``open_sockets.open``),
    # the token it got in with, the channel-layer groups its notices come on (``_join``; not
    # Channels' own ``groups``, which it joins on connect, before the socket knows which).
    closed = False
    released = False
    counted = False
    address: str | None = None
    token_id: int | None = None
    notice_groups: tuple[str, ...] = ()
    # None when the socket has no layer (Redis down): it is served from its reads.
    channel_layer: BaseChannelLayer | None  # type: ignore[assignment]
    joined = False

    @property
    def authenticated(self) -> bool:
        """Whether the socket got past its token (a subclass says how it knows)."""
        raise NotImplementedError

    last = 0  # the number of the last event sent
    pushing: asyncio.Lock  # held while events are sent, so none goes twice or out of order

    async def receive(self, text_data: str | None = None,
                      bytes_data: bytes | None = None) -> None:
        """The client's side of every socket: ``auth`` first (unless the handshake carried a
        token), then ``ping``; anything else closes the socket (4400, or 4401 before auth)."""
        if self.closed:
            return
        # Bounded before it is parsed: a deeply nested array is a RecursionError to json.
        if text_data is None or bytes_data is not None or message_too_big(text_data, bytes_data):
            await self._close(BAD_MESSAGE)
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if not self.authenticated:
            if kind == "auth" and token_shaped(message.get("token")):
                await self._authenticate(message["token"])
            else:
                await self._close(BAD_TOKEN if kind is not None else BAD_MESSAGE)
        elif kind == "ping":
            await self._send({"type": "pong"})
        elif kind != "auth":  # a second auth changes nothing
            await self._close(BAD_MESSAGE)

    async def _admit(self) -> bool:
        """Count the socket under its address, accept it and count its handshake: False, the
        socket closed with 4429, past either bound."""
        self.address = address_of(self.scope)
        # Counted before anything else, so that every way out (release) can uncount it.
        self.counted = open_sockets.open(self.address)
        if self.counted:
            metrics.sockets_open.labels(self.socket_kind).inc()
        await self.accept()
        if not self.counted:
            metrics.rate_limit_refusals.labels("sockets.open").inc()
            await self._close(TOO_MANY)
            return False
        if not await sync_to_async(handshake_allowed, thread_sensitive=False)(self.address):
            metrics.rate_limit_refusals.labels("sockets").inc()
            await self._close(TOO_MANY)
            return False
        return True

    async def _token_or_deadline(self) -> None:
        """Authenticate with the handshake's ``Authorization: Bearer`` token, or give the
        client AUTH_SECONDS to send ``auth``."""
        token = bearer_of(self.scope.get("headers", []))
        if token is False:
            await self._close(BAD_TOKEN)
        elif isinstance(token, str):
            await self._authenticate(token)
        else:
            self.tasks.append(asyncio.create_task(self._auth_deadline()))

    async def _auth_deadline(self) -> None:
        await asyncio.sleep(AUTH_SECONDS)
        if not self.authenticated and not self.closed:
            await self._close(BAD_TOKEN)

    async def _authenticate(self, token: str) -> None:
        raise NotImplementedError

    async def _join(self) -> None:
        """Join the socket's ``notice_groups`` on its channel layer. Without a layer, or with
        its layer down, the socket goes on without notices (its reads of the database serve
        it), and ``joined`` stays False for it to try again."""
        if self.channel_layer is None:
            return
        try:
            for group in self.notice_groups:
                await self.channel_layer.group_add(group, self.channel_name)
            self.joined = True
        except Exception:  # the layer is down: the socket's own reads serve until it is back
            logger.warning("%s without notices for now", self.log_name, exc_info=True)

    def _watch_token(self, token_id: int) -> None:
        """Check the socket's token with every other socket's of the process (``token_sweep``,
        every ``LIVE_TOKEN_CHECK_SECONDS``) until it is released: closed 4401 once the token
        is signed out or revoked, or its player deactivated."""
        self.token_id = token_id
        token_sweep.add(self, token_id, self._token_answer)

    async def _token_answer(self, alive: bool | None) -> None:
        if not alive and not self.closed:
            await self._close(BAD_TOKEN)  # signed out or revoked meanwhile

    async def _forwarded(self, message: dict[str, Any]) -> bool:
        """Handle a notice of stored events (``first``, ``last`` and, when they fit, the
        ``events`` themselves, as the feed gives them, or the ``frame`` that sends them,
        encoded once by the publisher): send them on without reading the database when they
        follow the last one sent. False when the feed must be read."""
        latest = message.get("last", 0)
        if not self.authenticated or latest <= self.last:
            return True
        frame, events = message.get("frame"), message.get("events")
        if frame is not None or events is not None:
            async with self.pushing:
                if message.get("first") == self.last + 1 and not self.closed:
                    if isinstance(frame, str):
                        await self._send_text(frame)
                    else:
                        await self._send({"type": "events", "events": events, "last": latest})
                    self.last = latest
                    return True
        return False

    async def _send(self, message: dict[str, Any]) -> None:
        await self._send_text(json.dumps(message, separators=(",", ":")))

    async def _send_text(self, text: str) -> None:
        try:
            await self.send(text_data=text)
        except OSError:
            # The client went between the check and the send (uvicorn's ClientDisconnected is
            # an OSError): nothing is left to tell it, and the disconnect that follows cleans
            # up. Not an error worth a traceback in the log: sockets drop all the time.
            self.closed = True

    async def _database_failed(self) -> None:
        """What every socket does when the database fails under one of its reads (the token's
        lookup, the events or the state it sends): a warning, not a traceback of a bug, and the
        socket closed 1011; the client reconnects, and its cursor catches it up. Called in the
        ``except DatabaseError`` of that read."""
        logger.warning("%s %s: the database failed", self.log_name,
                       "closed" if self.authenticated else "refused", exc_info=True)
        await self._close(SERVER_ERROR)

    async def _close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            # The client may have gone first (uvicorn's ClientDisconnected, an OSError): then
            # there is nothing left to close, and the disconnect that follows cleans up.
            with contextlib.suppress(OSError):
                await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        await self._release()

    async def _release(self) -> None:
        """Give back everything the socket held, once, however it ended: its count, its token's
        check, its tasks (cancelled and awaited), its groups, then what the subclass holds
        (``_give_back``)."""
        self.closed = True
        if self.released:
            return
        self.released = True
        if self.counted:
            open_sockets.closed(self.address, authenticated=self.authenticated)
            metrics.sockets_open.labels(self.socket_kind).dec()
        token_sweep.remove(self)
        current = asyncio.current_task()
        for task in self.tasks:
            if task is not current:
                task.cancel()
        for task in self.tasks:
            if task is not current:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.joined and self.channel_layer is not None:
            self.joined = False
            with contextlib.suppress(Exception):
                for group in self.notice_groups:
                    await self.channel_layer.group_discard(group, self.channel_name)
        await self._give_back()

    async def _give_back(self) -> None:
        """What the subclass holds besides (presence, stream counts)."""


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def address_of(scope: Any) -> str | None:
    """The client's address of an ASGI connection, as ``throttling.client_address`` reads a
    request's: the peer, or the entry of ``X-Forwarded-For`` that ``NUM_PROXIES`` trusts."""
    peer = (scope.get("client") or (None,))[0]
    forwarded = None
    for name, value in scope.get("headers", []):
        if name.lower() == b"x-forwarded-for":
            forwarded = value.decode("latin-1")
    return throttling.trusted_address(peer, forwarded)


def handshake_allowed(address: str | None) -> bool:
    """Count one handshake from ``address``; False when it is over ``sockets.address``."""
    return throttling.verdict(scope="sockets", token_id=None, address=address) is None


def message_too_big(text: str | None, data: bytes | None) -> bool:
    """A frame bigger than ``LIVE_MAX_MESSAGE_BYTES``, measured before anything parses it (a
    character of text is at least one byte, at most four)."""
    size = len(data) if data is not None else len(text or "")
    return size > settings.LIVE_MAX_MESSAGE_BYTES


class OpenSockets:
    """The sockets open in this process, per address: all of them, and those not yet
    authenticated."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._waiting: Counter[str] = Counter()

    def open(self, address: str | None) -> bool:
        """Count a new, unauthenticated socket from ``address``; False (nothing counted) when
        the address holds its share already."""
        key = address or "?"
        with self._lock:
            if (self._open[key] >= settings.LIVE_SOCKETS_PER_ADDRESS
                    or self._waiting[key] >= settings.LIVE_UNAUTHENTICATED_PER_ADDRESS):
                return False
            self._open[key] += 1
            self._waiting[key] += 1
            return True

    def authenticated(self, address: str | None) -> None:
        self._forget(self._waiting, address)

    def closed(self, address: str | None, *, authenticated: bool) -> None:
        self._forget(self._open, address)
        if not authenticated:
            self._forget(self._waiting, address)

    def _forget(self, counter: Counter[str], address: str | None) -> None:
        key = address or "?"
        with self._lock:
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def count(self, address: str | None) -> tuple[int, int]:
        """(open, of them unauthenticated) for ``address``: for tests and the curious."""
        key = address or "?"
        with self._lock:
            return self._open[key], self._waiting[key]


open_sockets = OpenSockets()
