"""Reads that may lag, served by a read replica (``DATABASE_REPLICA_URL``), and the rest on the
primary.

A view opts in (``ApiView.reads_replica``: the boards, profiles, statistics, league boards and
ratings boards); everything else reads the primary, and so does any read made inside a write
(an atomic block other than a test's own). Within an opted-in request ``ReplicaRouter`` sends
the ORM's reads to the ``replica`` alias unless one of these holds, when they go to the primary:

- **Read your own writes.** A request that changed something (POST, PUT, PATCH, DELETE answered
  below 400) pins its bearer token to the primary for ``DATABASE_REPLICA_PIN_SECONDS`` (10):
  the pin is a key in the shared cache (Redis), so it holds on every node. A player who has
  just finished a daily reads their rank and result from the primary however far the replica
  lags; everyone else's board may be that far behind. Without the cache (Redis down) nothing
  can be known about a token, so every opted-in read goes to the primary until it is back.
- **The replica is down.** A read that fails on the replica marks it down in this process for
  ``DATABASE_REPLICA_RETRY_SECONDS`` (5) and the view runs again on the primary: the client
  gets its answer, never an error, and the primary carries the boards meanwhile. The first
  read after that tries the replica again.

Writes always go to the primary; both aliases hold the same tables, so relations between
objects read from either are allowed, and migrations run on the primary only.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.models import Model
from django.http import HttpRequest
from django.http.response import HttpResponseBase

logger = logging.getLogger(__name__)

REPLICA = "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PIN_PREFIX = "replica-pin:"

# Whether this request's reads may go to the replica (set by the view once it knows who asks).
_allowed: contextvars.ContextVar[bool] = contextvars.ContextVar("replica_allowed", default=False)
# Whether a read of this request went to the replica (so a database error may be the replica's).
_used: contextvars.ContextVar[bool] = contextvars.ContextVar("replica_used", default=False)

_down_until = 0.0
_pins_unknown_until = 0.0
_lock = threading.Lock()


def configured() -> bool:
    return REPLICA in connections.settings


def _pin_key(authorization: str) -> str | None:
    if not authorization.startswith("Bearer "):
        return None
    return _PIN_PREFIX + hashlib.sha256(authorization.encode()).hexdigest()[:32]


def pin(authorization: str) -> None:
    """Pin a token's reads to the primary: it has just written."""
    global _pins_unknown_until
    key = _pin_key(authorization)
    if key is None:
        return
    try:
        cache.set(key, 1, timeout=settings.DATABASE_REPLICA_PIN_SECONDS)
    except Exception:  # Redis down: this process cannot tell who wrote, so nobody reads a replica
        now = time.monotonic()
        if now >= _pins_unknown_until:  # once an outage, not once a write
            logger.warning("Replica reads: the cache is unreachable, so reads stay on the "
                           "primary until %s s after it answers again",
                           settings.DATABASE_REPLICA_PIN_SECONDS)
        _pins_unknown_until = now + settings.DATABASE_REPLICA_PIN_SECONDS


def pinned(authorization: str) -> bool:
    """Whether this token wrote within the pin's seconds (or that cannot be known)."""
    if time.monotonic() < _pins_unknown_until:
        return True
    key = _pin_key(authorization)
    if key is None:
        return False  # no token, no writes of its own to see
    try:
        return cache.get(key) is not None
    except Exception:
        return True


def replica_usable() -> bool:
    return configured() and time.monotonic() >= _down_until


def mark_down(error: BaseException) -> None:
    """The replica failed a read: the primary serves this process's reads for a while. (Its
    broken connection is closed as the request ends, like any unusable one.)"""
    global _down_until
    with _lock:
        _down_until = time.monotonic() + settings.DATABASE_REPLICA_RETRY_SECONDS
    logger.warning("Replica reads: the replica failed (%s); reading from the primary for %s s",
                   str(error).strip().splitlines()[0] if str(error).strip() else type(error),
                   settings.DATABASE_REPLICA_RETRY_SECONDS)


def request_start(method: str, authorization: str) -> None:
    """Decide for the request now running whether its reads may go to the replica."""
    _used.set(False)
    _allowed.set(method in SAFE_METHODS and replica_usable() and not pinned(authorization))


def request_on_primary() -> None:
    """The rest of the request reads the primary."""
    _allowed.set(False)


def request_end() -> None:
    _allowed.set(False)
    _used.set(False)


def request_used_replica() -> bool:
    return _used.get()


def in_write() -> bool:
    """Inside an atomic block of the primary's: its reads must see its own writes. A test's
    wrapping transaction (Django's TestCase) is not a write."""
    default = connections["default"]
    return any(not getattr(block, "_from_testcase", False) for block in default.atomic_blocks)


class ReplicaRouter:
    """``DATABASE_ROUTERS``: reads of an opted-in request to the replica, all else to the
    primary (``None``: Django's default)."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        if not _allowed.get() or in_write():
            return None
        _used.set(True)
        return REPLICA

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        return "default"

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool:
        return True  # the replica is a copy of the primary

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None,
                      **hints: Any) -> bool | None:
        return False if db == REPLICA else None


class ReadYourWritesMiddleware:
    """Pins a token to the primary after a request of it changed something (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (request.method not in SAFE_METHODS and response.status_code < 400
                and configured()):
            pin(request.META.get("HTTP_AUTHORIZATION", ""))
        return response


def replica_lag_seconds() -> float | None:
    """How far the replica's replay is behind what it has received (0 when caught up), in
    seconds, or None without a reachable replica: for the operator's gauge."""
    if not configured():
        return None
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(
                "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
                "ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) END")
            (lag,) = cursor.fetchone()
    except Exception:
        return None
    return float(lag) if lag is not None else None
