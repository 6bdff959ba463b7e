"""Each request observed once: its request id, its line in the log and its metrics.

**The request id.** A proxy in front (HAProxy) names each request in ``X-Request-ID``; the
server keeps a well-formed one (``REQUEST_ID_PATTERN``: 8 to 128 letters, digits and
``._:-``) and makes one of its own for any other (absent, too long, other characters, which a
client could use to forge or break log lines). The id goes back in the response's
``X-Request-ID`` and into every log line written while the request is served (a
``contextvars`` variable, read by ``server.core.logformat``), so a player's requests can be followed
across the app nodes by the ids the proxy logged. A live socket keeps the id of its handshake
in the lines of its whole life.

**The log line.** One line per request on the logger ``foursquare.request`` (INFO): method,
the route's pattern (never the raw path, which holds ids and codes), status, duration, request
id, and the player's and token's ids when the request had them; never a header, a body or a
token. ``FOURSQUARE_LOG_FORMAT`` chooses how every line of the app is written: ``json`` (one
JSON object a line, the default in production) or ``text`` (readable, the default elsewhere,
for `make run`'s console). It replaces gunicorn's access log (gunicorn.conf.py turns that off).

**The metrics.** The same pass counts the request under its route, method and status class,
its duration, and the CPU time its thread spent on it (``server.core.metrics``). Behind a
proxy that stamps ``X-Request-Start`` (HAProxy: ``t=`` and the milliseconds since the epoch
when it received the request), the time from that stamp to the answer as well: what the
duration misses is the wait before this middleware runs (the worker's loop, a free thread, a
core). A stamp that cannot be read, or that puts the receipt in the future or over an hour ago
(clocks apart, a client's forgery without a proxy), is left out rather than counted.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty
from prometheus_client import Counter, Histogram

from server.core import metrics
from server.core.logformat import request_id_var

logger = logging.getLogger("foursquare.request")

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_PATTERN = re.compile(r"[0-9A-Za-z._:-]{8,128}")
# Where a path that answers without DRF (a game's fast path) leaves the ids it found:
# (player id, token id).
IDENTITY_ATTRIBUTE = "_observed_identity"

REQUEST_START_HEADER = "HTTP_X_REQUEST_START"
REQUEST_START_LIMIT_SECONDS = 3600.0
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_STATUS_CLASSES = {1: "1xx", 2: "2xx", 3: "3xx", 4: "4xx", 5: "5xx"}


def request_id_of(given: str | None) -> str:
    """``given`` if it is a well-formed request id, else a new one (32 hex digits)."""
    if given is not None and REQUEST_ID_PATTERN.fullmatch(given):
        return given
    return os.urandom(16).hex()


def request_start_of(stamp: str | None) -> float | None:
    """The Unix time a proxy's ``X-Request-Start`` names: ``t=`` then seconds, milliseconds
    or microseconds since the epoch (told apart by their size, as the stamp's writers use all
    three); None when it is absent or unreadable."""
    if not stamp:
        return None
    try:
        value = float(stamp.strip().removeprefix("t="))
    except ValueError:
        return None
    if value > 1e14:  # microseconds
        return value / 1e6
    if value > 1e11:  # milliseconds
        return value / 1e3
    return value


def identify(request: HttpRequest, *, player_id: Any, token_id: Any) -> None:
    """Name the player and token of a request that DRF did not authenticate (a fast path)."""
    setattr(request, IDENTITY_ATTRIBUTE, (player_id, token_id))


def _identity(request: HttpRequest) -> tuple[Any, Any]:
    """(player id, token id) of the request, as far as something authenticated it; never
    evaluates a lazy user (that could cost a query)."""
    found = request.__dict__.get(IDENTITY_ATTRIBUTE)
    if found is not None:
        return found
    token = request.__dict__.get("auth")  # DRF sets it on the Django request too
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        # django-stubs do not declare LazyObject's _wrapped, the one way to look without
        # evaluating it.
        wrapped = user._wrapped  # type: ignore[attr-defined]
        user = None if wrapped is empty else wrapped
    return getattr(user, "pk", None), getattr(token, "pk", None)


def route_of(request: HttpRequest) -> str:
    """The URL pattern the request matched (``api/v1/games/<uuid:game_id>/moves``): few values,
    whatever the ids; ``static`` for the front end's files, ``unmatched`` for anything else."""
    match = request.resolver_match
    if match is not None:
        return match.route or match.view_name or "unmatched"
    if request.path_info.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"
    return "unmatched"


class RequestObservedMiddleware:
    """Outermost: the request id for the whole request, then its line and its metrics."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        # One child per (route, method, status class): a dict look-up per request instead
        # of the library's label checks under its lock.
        self._children: dict[tuple[str, str, str],
                             tuple[Counter, Histogram, Histogram, Counter]] = {}

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        # This thread's CPU clock (a fraction of a microsecond to read): the request runs on
        # one thread from here to its answer, under gunicorn's threads and server.asgi_http's.
        cpu_started = time.thread_time()
        received = request_start_of(request.META.get(REQUEST_START_HEADER))
        request_id = request_id_of(request.META.get("HTTP_X_REQUEST_ID"))
        # Not reset on the way out: Django logs a 4xx or 5xx after the middleware returned, and
        # that line is this request's too. The thread's next request sets its own.
        request_id_var.set(request_id)
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        response[REQUEST_ID_HEADER] = request_id
        proxied = None if received is None else time.time() - received
        if proxied is not None and not 0.0 <= proxied <= REQUEST_START_LIMIT_SECONDS:
            proxied = None  # clocks apart, or not a proxy's stamp
        self._observe(request, response.status_code, seconds, proxied,
                      cpu=time.thread_time() - cpu_started)
        return response

    def _observe(self, request: HttpRequest, status: int, seconds: float,
                 proxied: float | None, *, cpu: float) -> None:
        route = route_of(request)
        method = request.method if request.method in _METHODS else "other"
        key = (route, method, _STATUS_CLASSES.get(status // 100, "other"))
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (metrics.requests.labels(*key),
                                              metrics.request_duration.labels(route, method),
                                              metrics.proxied_duration.labels(route, method),
                                              metrics.request_cpu.labels(route, method))
        children[0].inc()
        children[1].observe(seconds)
        if proxied is not None:
            children[2].observe(proxied)
        children[3].inc(cpu)
        if logger.isEnabledFor(logging.INFO):
            player_id, token_id = _identity(request)
            logger.info("%s %s %s %.1f ms", method, route, status, seconds * 1000, extra={
                "fields": {"method": method, "route": route, "status": status,
                           "duration_ms": round(seconds * 1000, 3), "player_id": player_id,
                           "token_id": token_id}})
