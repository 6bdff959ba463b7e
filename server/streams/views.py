"""The account stream over plain HTTP: ``GET /stream`` (NDJSON, or Server-Sent Events), and
``GET /stream/events`` (one JSON page, for simple pollers).

``/stream`` is an async view: the ASGI application routes it to Django's ASGI handler
(``server.asgi``), so a stream held open for minutes waits on the event loop, not on one of
the process's few request threads. It wakes on the channel layer's notice of the player's
new events (``services.notice_of``), sends them as they are when they follow on from the last
it sent, reads the table otherwise. Every ``STREAM_POLL_SECONDS`` without a notice it
compares the player's latest event number in the cache (``watch``) with the last it sent, and
reads the table only when it is behind or the cache cannot say, or every
``LIVE_FEED_CHECK_SECONDS`` in any case (the embedded default's in-memory layer does not cross
processes; Redis may be down). It sends a keep-alive every ``STREAM_KEEPALIVE_SECONDS`` of
silence and ends after ``STREAM_SECONDS``: the client reconnects with ``after`` (or
``Last-Event-ID``) and misses nothing. A token holds at most ``STREAMS_PER_TOKEN`` open streams
in one process, a player ``STREAMS_PER_PLAYER`` streams and account sockets across tokens and
processes (``watch``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from server.api import notices, stopping
from server.api.problems import (
    InvalidRequest,
    MethodNotAllowed,
    NotAuthenticated,
    Problem,
    Throttled,
    problem_json_response,
)
from server.api.schema import problems, stream_body
from server.api.sockets import in_cache_thread, in_thread, token_alive
from server.api.views import ApiView
from server.players.tokens import access_of
from server.streams import serializers as s
from server.streams import watch
from server.streams.selectors import EVENTS_PER_PAGE, MAX_AFTER, account_events_after
from server.streams.services import active_matches, group_of

logger = logging.getLogger(__name__)
TAG = ["Account stream"]
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
QUERY_PARAMETERS = frozenset({"after"})

AFTER_PARAMETER = OpenApiParameter(
    "after", {"type": "integer", "minimum": 0, "maximum": MAX_AFTER},
    description="The last account event number you hold (default 0: all; for `/stream`, the "
                "`Last-Event-ID` header when `after` is absent).")


class StreamEventsView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = QUERY_PARAMETERS

    @extend_schema(
        tags=TAG, operation_id="stream_events_list",
        summary="Your account's events after a number, as one page",
        description=(
            "Your account events numbered after `after`, oldest first, at most "
            f"{EVENTS_PER_PAGE} at a time: `match_started`, `your_turn`, `invitation_received`, "
            "`invitation_cancelled`, `invitation_declined`, `joined`, `match_over`, across "
            "all your matches. Ask again with `after=last` (while `more` is true, at once)."),
        parameters=[AFTER_PARAMETER],
        responses={200: s.StreamPageOutput, **problems(400, 401)},
    )
    def get(self, request: Request) -> Response:
        query = s.StreamQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        after = query.validated_data["after"] or 0
        events, more = account_events_after(request.user.pk, after)
        return Response({"events": events, "last": events[-1]["number"] if events else after,
                         "more": more})


# --- the stream ---------------------------------------------------------------------------------


class _OpenStreams:
    """The streams open in this process, per token."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[int] = Counter()

    def open(self, token_id: int) -> bool:
        with self._lock:
            if self._open[token_id] >= settings.STREAMS_PER_TOKEN:
                return False
            self._open[token_id] += 1
            return True

    def closed(self, token_id: int) -> None:
        with self._lock:
            self._open[token_id] -= 1
            if self._open[token_id] <= 0:
                del self._open[token_id]

    def count(self, token_id: int) -> int:
        with self._lock:
            return self._open[token_id]


open_streams = _OpenStreams()


def _after_of(request: HttpRequest) -> int:
    """``?after=N``, else ``Last-Event-ID``, else 0; a malformed one is 400 invalid."""
    unknown = sorted(set(request.GET) - QUERY_PARAMETERS)
    errors = [{"field": name, "message": "Unknown query parameter."} for name in unknown]
    values = request.GET.getlist("after")
    field, value = "after", None
    if values:
        value = values[-1]
        if len(values) != 1:
            errors.append({"field": "after", "message": "Give it once."})
    elif "HTTP_LAST_EVENT_ID" in request.META:
        field, value = "Last-Event-ID", request.META["HTTP_LAST_EVENT_ID"].strip()
    if value is not None and not (value.isascii() and value.isdigit()
                                  and int(value) <= MAX_AFTER):
        errors.append({"field": field,
                       "message": f"An event number from 0 to {MAX_AFTER}."})
    if errors:
        raise InvalidRequest("; ".join(f"{e['field']}: {e['message']}" for e in errors),
                             errors=errors)
    return int(value) if value is not None else 0


def _bearer(request: HttpRequest) -> str | None:
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer" or not token or " " in token or not token.isascii():
        return None
    return token


def _access_read(token: str) -> tuple[int, Any] | None:
    access = access_of(token)
    return None if access is None else (access.pk, access.player_id)


# The database's calls and the cache's, run off the loop as the sockets run theirs.
_access = in_thread(_access_read)
_events_after = in_thread(account_events_after)
_active_matches = in_thread(active_matches)
_latest_known = in_cache_thread(watch.latest_known)
_slot_take = in_cache_thread(watch.slot_take)
_slot_keep = in_cache_thread(watch.slot_keep)
_slot_give_back = in_cache_thread(watch.slot_give_back)


def _ndjson(events: list[dict]) -> bytes:
    return b"".join(json.dumps(event, separators=(",", ":")).encode() + b"\n"
                    for event in events)


def _sse(events: list[dict]) -> bytes:
    # An entry of the snapshot (number null) has no ``id``: the client's Last-Event-ID stays.
    return b"".join(
        (f"id: {event['number']}\n" if event["number"] is not None else "").encode()
        + f"event: {event['kind']}\n"
          f"data: {json.dumps(event, separators=(',', ':'))}\n\n".encode() for event in events)


ACCOUNT_EVENT = {"$ref": "#/components/schemas/AccountEvent"}
# A message of the SSE stream, as OpenAPI 3.2 describes one (its ``data`` JSON text whose
# schema is ``contentSchema``: JSON Schema's words, under an extension's name in 3.0).
SSE_ITEM = {
    "type": "object", "required": ["event", "data"],
    "properties": {
        "id": {"type": "string", "pattern": "^[1-9][0-9]*$",
               "description": "The event's number (`Last-Event-ID` resumes after it); "
                              "absent on the snapshot's unnumbered `match_started` entries."},
        "event": {"type": "string", "description": "The event's `kind`."},
        "data": {"type": "string", "x-contentMediaType": "application/json",
                 "x-contentSchema": ACCOUNT_EVENT,
                 "description": "The event object, an `AccountEvent`, as JSON."},
    },
}
_EXAMPLE_EVENT = {"number": 7, "kind": "joined", "created_at": "2026-11-29T12:00:00.000000Z",
                  "game": "spite-malice", "match": "8865bd90-ac99-4adc-a2ff-98e353c5baee",
                  "player": {"id": "0d6f1f8e-5b1c-4a51-9a43-6b8f7c1e2d3a", "name": "Bob",
                             "bot": False}}
NDJSON_EXAMPLE = _ndjson([_EXAMPLE_EVENT]).decode()
SSE_EXAMPLE = _sse([_EXAMPLE_EVENT]).decode()


class StreamView(ApiView):
    """What the OpenAPI schema says of ``stream_view``, which answers the requests (an async
    function view: the schema generator reads only DRF's views)."""

    permission_classes = [IsAuthenticated]
    query_parameters = QUERY_PARAMETERS
    # Its 429 is the bound on a token's open streams, with a Retry-After as a limit's.
    throttle_scope, throttle_reads = "streams", True

    @extend_schema(
        tags=TAG, operation_id="stream_open",
        summary="Your account's events as they happen (NDJSON or Server-Sent Events)",
        description=(
            "A stream of your account events across all your matches: first the snapshot of "
            "your matches being played (one unnumbered `match_started` each, `number` null), "
            "then the events from `after` (or `Last-Event-ID`), oldest first, then each as it "
            "is stored: newline-delimited JSON "
            "(`application/x-ndjson`, one event object a line, an empty line as keep-alive every "
            "20 seconds of silence) by default, or Server-Sent Events with `Accept: "
            "text/event-stream` (`id:` the event's number, `event:` its kind, `data:` the event "
            "object; a `: keep-alive` comment line). The stream ends after 5 minutes (and when "
            "your token is signed out): reconnect with `after` = the last number you got (SSE "
            "clients send `Last-Event-ID` themselves) and nothing is missed or repeated. A token "
            "holds at most 4 streams open at once (429 `throttled` past that)."),
        parameters=[AFTER_PARAMETER, OpenApiParameter(
            "Last-Event-ID", {"type": "integer", "minimum": 0, "maximum": MAX_AFTER},
        OpenApiParameter.HEADER, required=False,
            description="The last event number you hold, when `after` is absent.")],
        responses={
            (200, NDJSON): OpenApiResponse(stream_body(
                "Newline-delimited JSON: one `AccountEvent` object a line; an empty line is a "
                "keep-alive.", ACCOUNT_EVENT), description=(
                "The events, one `AccountEvent` a line (`x-itemSchema`: each line's)."),
                examples=[OpenApiExample("ndjson", media_type=NDJSON, value=NDJSON_EXAMPLE)]),
            (200, SSE): OpenApiResponse(stream_body(
                "Server-Sent Events: each message's `id` the event's number, `event` its kind, "
                "`data` the `AccountEvent` object as JSON; `: keep-alive` comment lines.",
                SSE_ITEM), description=(
                "The events as Server-Sent Events (with `Accept: text/event-stream`; "
                "`x-itemSchema`: each message's fields)."),
                examples=[OpenApiExample("sse", media_type=SSE, value=SSE_EXAMPLE)]),
            **problems(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:  # pragma: no cover - stream_view answers
        raise NotImplementedError


async def stream_view(request: HttpRequest) -> HttpResponseBase:
    try:
        if request.method != "GET":
            raise MethodNotAllowed(f"{request.method} is not allowed at {request.path}; "
                                   "allowed: GET.")
        length = request.META.get("CONTENT_LENGTH") or "0"
        if length != "0" or "HTTP_TRANSFER_ENCODING" in request.META:
            raise InvalidRequest(
                f"{request.method} {request.path} takes no request body; send none.",
                errors=[{"field": "body", "message": "Takes no request body; send none."}])
        after = _after_of(request)
        token = _bearer(request)
        found = await _access(token) if token is not None else None
        if found is None:
            raise NotAuthenticated("Send your token: Authorization: Bearer <token>.")
        token_id, player_id = found
        if not open_streams.open(token_id):
            raise Throttled(f"This token holds {settings.STREAMS_PER_TOKEN} open streams "
                            "already: close one first.")
        holder = uuid.uuid4().hex
        slot = await _slot_take(player_id, holder)
        if isinstance(slot, str):  # watch.FULL: the one string slot_take() gives
            open_streams.closed(token_id)
            raise Throttled(f"You hold {settings.STREAMS_PER_PLAYER} open streams and account "
                            "sockets already, across your tokens: close one first.")
    except Problem as problem:
        response = problem_json_response(problem)
        if isinstance(problem, NotAuthenticated):
            response["WWW-Authenticate"] = 'Bearer realm="api"'
        if isinstance(problem, MethodNotAllowed):
            response["Allow"] = "GET"
        if isinstance(problem, Throttled):
            response["Retry-After"] = str(int(settings.STREAM_POLL_SECONDS) or 1)
        return response
    sse = SSE in request.META.get("HTTP_ACCEPT", "")
    # Served by the threads (a WSGI server, the test client) rather than the event loop, the
    # stream gives what is stored and ends: it must not hold a thread. The ASGI server routes
    # every request of it to the loop (server.asgi).
    once = not isinstance(request, ASGIRequest)
    stream = _stream(player_id, token_id, after, sse, once=once, slot=(slot, holder))
    body: AsyncIterator[bytes] | list[bytes] = stream
    if once:
        # Read whole here, where the view can await it: handed an asynchronous body, a
        # WSGI server's handler would read it whole the same way, and warn for every request.
        body = [chunk async for chunk in stream]
    streaming = StreamingHttpResponse(body, content_type=SSE if sse else NDJSON)
    streaming["Cache-Control"] = "no-cache"
    streaming["X-Accel-Buffering"] = "no"  # a proxy in front passes each event on at once
    return streaming


# The schema generator finds the view it documents here (as it finds a DRF view's class).
# (Set in the function's __dict__: a function's type has no such attributes.)
stream_view.__dict__.update(cls=StreamView, view_class=StreamView, initkwargs={},
                            csrf_exempt=True)  # a bearer token's request, as every API view's


# How long a stream whose token died may take to end by itself before its watch ends it.
WATCH_GRACE_SECONDS = 1.0


async def _token_watch(token_id: int, stream: asyncio.Task, ended: asyncio.Event) -> None:
    """End the stream's ``stream`` task once its token is signed out or revoked, whether or not
    its client reads: the stream checks its token between its writes, and a write to a client
    that reads nothing waits as long as the connection lives."""
    while not ended.is_set():
        await asyncio.sleep(settings.LIVE_TOKEN_CHECK_SECONDS)
        if not await token_alive(token_id):
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(ended.wait(), WATCH_GRACE_SECONDS)
            if not ended.is_set():
                stream.cancel()  # Django's handler takes it as a client gone, and closes
            return


async def _next_notice(layer: BaseChannelLayer | None, channel: str | None, seconds: float,
                       stop: asyncio.Future[None]) -> dict | None:
    """The next notice on ``channel`` within ``seconds``; None when none came, or when ``stop``
    (the server's stop) came first. Without a layer, only waits."""
    if layer is None or channel is None:
        await asyncio.wait({stop}, timeout=seconds)
        return None
    receive: asyncio.Future[Any] = asyncio.ensure_future(layer.receive(channel))
    try:
        await asyncio.wait({receive, stop}, timeout=seconds,
                           return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not receive.done():
            receive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receive
    return None if receive.cancelled() else receive.result()


async def _stream(player_id: watch.PlayerId, token_id: int, after: int, sse: bool, *,
                  once: bool = False, slot: tuple[int | None, str] = (None, "")
                  ) -> AsyncIterator[bytes]:
    """The stream's body: what ``stream_view`` describes. ``slot``: the player's stream slot
    it holds (``watch``), and its holder's name."""
    slot_number, holder = slot
    encode = _sse if sse else _ndjson
    keepalive = b": keep-alive\n\n" if sse else b"\n"
    layer, channel, joined = get_channel_layer(), None, False
    notices.serve_from(asyncio.get_running_loop())
    started = time.monotonic()
    ends = started + settings.STREAM_SECONDS
    token_due = started + settings.LIVE_TOKEN_CHECK_SECONDS
    feed_every = max(settings.LIVE_FEED_CHECK_SECONDS, settings.STREAM_POLL_SECONDS)
    feed_due = started + feed_every
    slot_due = started + watch.SLOT_REFRESH_SECONDS
    ended = asyncio.Event()
    stream = asyncio.current_task()
    token_watch = (None if once or stream is None else
                   asyncio.create_task(_token_watch(token_id, stream, ended)))
    stop = asyncio.ensure_future(stopping.wait())  # the server's stop ends the stream
    try:
        if layer is not None:
            try:
                channel = await layer.new_channel()
                await layer.group_add(group_of(player_id), channel)
                joined = True
            except Exception:
                logger.warning("account stream without notices: the channel layer failed",
                               exc_info=True)
        last, quiet_since = after, time.monotonic()
        yield keepalive if sse else b""  # the headers leave at once
        # The active matches first (joined to the notices already, so a match started
        # meanwhile comes as an event too), then the events after ``after``.
        snapshot = await _active_matches(player_id)
        if snapshot:
            yield encode(snapshot)
        read = True
        while True:
            if read:
                while True:
                    events, more = await _events_after(player_id, last)
                    if events:
                        yield encode(events)
                        last, quiet_since = events[-1]["number"], time.monotonic()
                    if not more:
                        break
            now = time.monotonic()
            if now >= ends or once or stop.done():
                return
            if now >= token_due:
                token_due = now + settings.LIVE_TOKEN_CHECK_SECONDS
                if not await token_alive(token_id):
                    return
            wait = min(ends, quiet_since + settings.STREAM_KEEPALIVE_SECONDS,
                       now + settings.STREAM_POLL_SECONDS, token_due) - now
            message = await _next_notice(layer if joined else None, channel, max(wait, 0.01),
                                         stop)
            if stop.done():
                return  # a clean end, as at STREAM_SECONDS: the client reconnects
            now = time.monotonic()
            read = False
            if message is None:  # a quiet while: is the table ahead of what was sent?
                latest = await _latest_known(player_id)
                read = latest is None or latest > last or now >= feed_due
                if now >= feed_due:
                    feed_due = now + feed_every
            if now >= slot_due:
                slot_due = now + watch.SLOT_REFRESH_SECONDS
                slot_number = await _slot_keep(player_id, slot_number, holder)
            if message is not None and message.get("last", 0) > last:
                told = message.get("events")
                if told is not None and message.get("first") == last + 1:
                    yield encode(told)  # as the table gives them, from the process that
                    last, quiet_since = message["last"], now  # stored them: no read
                else:
                    read = True
            if now - quiet_since >= settings.STREAM_KEEPALIVE_SECONDS:
                yield keepalive
                quiet_since = now
    finally:
        ended.set()
        stop.cancel()
        if token_watch is not None:
            token_watch.cancel()
        open_streams.closed(token_id)
        with contextlib.suppress(Exception):
            await _slot_give_back(player_id, slot_number, holder)
        if joined and layer is not None and channel is not None:
            with contextlib.suppress(Exception):
                await layer.group_discard(group_of(player_id), channel)
