"""What every write's fast path shares: the requests it may answer, their token and body, and
answers DRF would render byte for byte.

A game's fast path (``server.foursquare.fastmove``, ``server.spitemalice.fastaction``) answers
the requests that succeed in a couple of prepared statements, without DRF, and returns None
for everything else so the full view answers exactly as it always does. This module decides
the part of "could succeed" that does not depend on the game: a plain JSON request with a
bearer token, a valid ``Idempotency-Key`` if any, a body the full view would parse the same
way, and a token whose player is active and within the rate limit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from server.api import idempotency, parsers, throttling
from server.api.models import IdempotencyRecord
from server.core import requestlog
from server.players.models import AccessToken, Player
from server.players.tokens import last_use_due

if TYPE_CHECKING:
    from rest_framework.views import APIView

    _ViewBase = APIView
else:
    _ViewBase = object  # a mixin: the view's own base class comes after it

_ACCEPTED = frozenset({None, "*/*", "application/json"})
_CONTENT_TYPES = frozenset({"application/json", "application/json; charset=utf-8",
                            "application/json;charset=utf-8"})
RENDERER = JSONRenderer()


def token_find_sql(*, columns: str = "", joins: str = "") -> str:
    """A fast path's first statement: the token's row (its id, its player's id, its last use,
    whether its player is active) and the answer stored for the request's key (hash, status
    and body: NULLs when none), then the path's own ``columns`` from its ``joins``.

    Its parameters: the key, those of ``joins``, then the token's hash."""
    return (
        'SELECT t."id", t."player_id", t."last_used_at", p."is_active", '
        f'r."request_hash", r."response_status", r."response_body"{columns} '
        f'FROM "{AccessToken._meta.db_table}" t '
        f'JOIN "{Player._meta.db_table}" p ON p."id" = t."player_id" '
        f'LEFT JOIN "{IdempotencyRecord._meta.db_table}" r '
        f'ON r."player_id" = t."player_id" AND r."key" = %s {joins}'
        'WHERE t."key_hash" = %s'
    )


class Request:
    """What a fast path reads from a request it may answer: the token's text, the key (or
    None) and the parsed body."""

    __slots__ = ("body", "key", "token")

    def __init__(self, token: str, key: str | None, body: Any) -> None:
        self.token, self.key, self.body = token, key, body


def plain_request(request: HttpRequest) -> Request | None:
    """The request's token, key and body if the full view would read them as this path does
    (no query, JSON in and out, no content encoding, a bearer token, a valid key, a body that
    parses), else None."""
    meta = request.META
    if (meta.get("QUERY_STRING") or meta.get("HTTP_ACCEPT") not in _ACCEPTED
            or meta.get("CONTENT_TYPE", "").lower() not in _CONTENT_TYPES
            or meta.get("HTTP_CONTENT_ENCODING")):  # the full view says 415
        return None
    token = _bearer_token(meta.get("HTTP_AUTHORIZATION", ""))
    key = meta.get("HTTP_IDEMPOTENCY_KEY")
    if token is None or (key is not None and not idempotency.valid_key(key)):
        return None
    body = _json_body(request)
    if body is _UNREADABLE:
        return None
    return Request(token, key, body)


def token_usable(*, last_used_at: datetime | None, active: bool) -> bool:
    """Whether the token's request may go on here before the rate limit is asked: its player
    active, its last use recent (a due write of it is the full view's)."""
    return active and not last_use_due(last_used_at)


def token_admitted(request: HttpRequest, *, scope: str, token_id: object, player_id: object,
                   last_used_at: datetime | None, active: bool) -> bool:
    """Whether the token's request may go on here: usable (``token_usable``), and the rate
    limit not reached (``within_limits``)."""
    if not token_usable(last_used_at=last_used_at, active=active):
        return False
    return within_limits(request, scope=scope, token_id=token_id, player_id=player_id)[0]


def within_limits(request: HttpRequest, *, scope: str, token_id: object, player_id: object,
                  reads: Sequence[str] = (), writes: Sequence[tuple[str, int, int]] = (),
                  exempt: bool = False) -> tuple[bool, set[str] | None]:
    """Whether the request is within the rate limit, and the keys of ``reads`` found, with
    ``writes`` made if it is, all in one round trip to the cache
    (``throttling.count_request``; an ``exempt`` request is not counted). The limit's verdict,
    reached once, travels with the request should the full view answer it after all, and so do
    the limits' states for the answer's RateLimit field; the request's log line names the
    player and token."""
    requestlog.identify(request, player_id=player_id, token_id=token_id)
    counted = throttling.count_request(
        scope=scope, token_id=str(token_id), address=throttling.client_address(request),
        reads=reads, writes=writes, exempt=exempt)
    setattr(request, throttling.VERDICT_ATTRIBUTE, counted.wait)
    throttling.remember(request, counted)
    return counted.wait is None, counted.found


def stored_answer(stored_hash: str, status: int, body: str, request_hash: str,
                  allow: str) -> HttpResponse | None:
    """The stored answer to a retry with the same key and body; None (the full view says 422)
    for a key used with another request."""
    if stored_hash != request_hash:
        return None
    return json_response(status, RENDERER.render(json.loads(body)), allow=allow)


def store_guarded(store: Callable[[], bool]) -> bool:
    """``store()``'s verdict; False when the database refused it (the key or a number stored
    meanwhile by a racing request), so the full view answers instead."""
    # Inside a transaction (a test's), a refused statement must not spoil the rest of it.
    guard = transaction.atomic() if connection.in_atomic_block else nullcontext()
    try:
        with guard:
            return store()
    except IntegrityError:
        return False


def json_response(status: int, content: bytes, *, allow: str) -> HttpResponse:
    """What DRF's ``Response(body, status)`` from the full view becomes, byte for byte:
    ``content`` is the body rendered by DRF's own JSON renderer."""
    response = HttpResponse(content, status=status, content_type="application/json")
    response["Allow"] = allow
    return response


def _bearer_token(header: str) -> str | None:
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or " " in token or not token.isascii():
        return None
    return token


_UNREADABLE = object()


def _json_body(request: HttpRequest) -> Any:
    """The body as the full view's parser reads it, or ``_UNREADABLE``."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        return _UNREADABLE
    try:
        return parsers.loads(request.body.decode("utf-8"))  # the full view's reading of JSON
    except (ValueError, RecursionError):  # ValueError covers UnicodeDecodeError
        return _UNREADABLE


def integer_bounds(serializer_class: type[serializers.Serializer[Any]],
                   name: str) -> tuple[int | None, int | None]:
    """A serializer's integer field's (min_value, max_value): a fast path checks the bounds
    its full view's serializer sets, not a copy of them."""
    field = serializer_class().fields[name]
    if not isinstance(field, serializers.IntegerField):
        raise TypeError(f"{serializer_class.__name__}.{name} is not an integer field")
    return field.min_value, field.max_value


class FastPathView(_ViewBase):
    """A write view whose POSTs go to a game's fast path first: ``fast_response(request,
    object_id, scope=...)`` answers the request or returns None, and then the view itself
    (DRF, the full path) answers as it always does. ``fast_object`` names the URL keyword of
    the object written to (None for a view that creates one: ``object_id`` is then None)."""

    fast_object: str | None
    throttle_scope: str  # the view's

    @staticmethod
    def fast_response(request: HttpRequest, object_id: Any, /, *,
                      scope: str) -> HttpResponse | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST":
            object_id = kwargs[self.fast_object] if self.fast_object is not None else None
            response = self.fast_response(request, object_id, scope=self.throttle_scope)
            if response is not None:
                throttling.fields_apply(self.throttle_scope, request, response)
                return response
        return super().dispatch(request, *args, **kwargs)
