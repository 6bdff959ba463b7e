"""Request limits per token and per client address, counted in the shared cache.

A view opts in by naming a ``throttle_scope``; its unsafe requests (POST, PATCH, DELETE) are then
counted in fixed windows, once under ``<scope>.token`` (the bearer token the request carries) and
once under ``<scope>.address`` (the client's IP address), with the limits of
``settings.THROTTLE_RATES``. Over a limit the answer is ``429 throttled`` with ``Retry-After``.

The counts live in Django's cache: Redis when ``REDIS_URL`` is set, so every worker and every app
server shares them. When the cache cannot be reached the request goes through unthrottled: a game
that stops because its rate limiter is down would be worse than a burst of unlimited requests.
The log says when throttling stops and when it resumes.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import ClassVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
            "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_OFF = {"", "off", "none", "0"}


def parse_rate(rate: str) -> tuple[int, int] | None:
    """``"240/min"`` -> ``(240, 60)``; ``"off"`` -> ``None``."""
    text = rate.strip().lower()
    if text in _OFF:
        return None
    count, _, period = text.partition("/")
    try:
        limit, seconds = int(count), _PERIODS[period.strip()]
    except (ValueError, KeyError):
        raise ValueError(f"A rate is N/s, N/min, N/hour, N/day or 'off', not {rate!r}") from None
    return (limit, seconds) if limit > 0 else None


class CacheHealth:
    """Whether the last cache call worked; logs each change once, not once per request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_since: float | None = None

    def failed(self, error: Exception) -> None:
        with self._lock:
            if self.down_since is not None:
                return
            self.down_since = time.monotonic()
        logger.warning("Throttling is off: the cache cannot be reached (%s: %s); requests go "
                       "through unlimited until it is back", type(error).__name__, error)

    def worked(self) -> None:
        if self.down_since is None:
            return
        with self._lock:
            down_since, self.down_since = self.down_since, None
        if down_since is not None:
            logger.warning("Throttling resumed: the cache answers again after %.1f s",
                           time.monotonic() - down_since)


cache_health = CacheHealth()


def _count(key: str, timeout: int) -> int:
    """Add one to the counter at ``key`` and return it (created with ``timeout`` if new)."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        # One round trip instead of the three of incr-or-add through the cache API. Django's
        # client is reached through its (stable since 4.0, but private) ``_cache``.
        full_key = backend.make_and_validate_key(key)
        pipeline = backend._cache.get_client(full_key, write=True).pipeline(transaction=False)
        pipeline.incr(full_key)
        pipeline.expire(full_key, timeout, nx=True)
        return pipeline.execute()[0]
    try:
        return cache.incr(key)
    except ValueError:  # no counter yet: this is the window's first request
        if cache.add(key, 1, timeout):
            return 1
        return cache.incr(key)


class _ScopedRateThrottle(BaseThrottle):
    kind: ClassVar[str]

    def __init__(self) -> None:
        self.retry_after: float | None = None

    def identity(self, request) -> str | None:
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None or request.method in SAFE_METHODS:
            return True
        rate = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{self.kind}", "off"))
        identity = self.identity(request)
        if rate is None or identity is None:
            return True
        limit, period = rate
        now = time.time()
        window = int(now // period)
        key = f"throttle:{scope}:{self.kind}:{identity}:{window}"
        try:
            count = _count(key, period + 1)
        except Exception as error:  # noqa: BLE001 - any cache failure: serve unthrottled
            cache_health.failed(error)
            return True
        cache_health.worked()
        if count <= limit:
            return True
        self.retry_after = (window + 1) * period - now
        return False

    def wait(self) -> float | None:
        return math.ceil(self.retry_after) if self.retry_after is not None else None


class TokenRateThrottle(_ScopedRateThrottle):
    """Counts per bearer token: one player's device."""

    kind = "token"

    def identity(self, request) -> str | None:
        token = request.auth
        return str(token.pk) if token is not None and hasattr(token, "pk") else None


class AddressRateThrottle(_ScopedRateThrottle):
    """Counts per client IP address (``NUM_PROXIES`` decides how X-Forwarded-For is read)."""

    kind = "address"

    def identity(self, request) -> str | None:
        return self.get_ident(request) or None
