"""Request limits per token and per client address, counted in the shared cache.

A view opts in by naming a ``throttle_scope``; its unsafe requests (POST, PATCH, DELETE), and its
reads too if it sets ``throttle_reads`` (a read that costs real work, like a hint), are then
counted in fixed windows, once under ``<scope>.token`` (the bearer token the request carries) and
once under ``<scope>.address`` (the client's IP address), with the limits of
``settings.THROTTLE_RATES``, both in one round trip to Redis. Over a limit the answer is
``429 throttled`` with ``Retry-After``.

The counts live in Django's cache: Redis when ``REDIS_URL`` is set, so every worker and every app
server shares them. When the cache cannot be reached the request goes through unthrottled: a game
that stops because its rate limiter is down would be worse than a burst of unlimited requests.
The log says when throttling stops and when it resumes.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
import weakref

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
            "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_OFF = {"", "off", "none", "0"}


@functools.lru_cache(maxsize=64)
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


# Each counter is incremented, and given its expiry when the increment created it, in one
# script: one command and one round trip for every counter of a request, atomic in Redis.
_COUNT_SCRIPT = """
local counts = {}
for i, key in ipairs(KEYS) do
    counts[i] = redis.call('INCR', key)
    if counts[i] == 1 then redis.call('EXPIRE', key, ARGV[i]) end
end
return counts
"""
_count_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _count_script(backend: RedisCache, key: str):
    """The counting script, bound to the redis-py client of the Redis cache and kept (Django's
    own backend builds a new client for every call, which cost a third of a move's CPU; the
    service's, ``server.core.redis_cache``, keeps one per pool). The client is thread-safe (it
    shares one connection pool) and reached through Django's private but stable (since 4.0)
    ``_cache``. The script runs by its hash once Redis has seen it."""
    script = _count_scripts.get(backend)
    if script is None:
        client = backend._cache.get_client(key, write=True)
        script = _count_scripts[backend] = client.register_script(_COUNT_SCRIPT)
    return script


def _count(keys: list[tuple[str, int]]) -> list[int]:
    """Add one to each counter (created with its timeout if new) and return the new counts."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        # Our keys are short ASCII: make_key, without the per-character check for memcached.
        full_keys = [backend.make_key(key) for key, _ in keys]
        return _count_script(backend, full_keys[0])(
            keys=full_keys, args=[timeout for _, timeout in keys])
    counts = []
    for key, timeout in keys:
        try:
            counts.append(cache.incr(key))
        except ValueError:  # no counter yet: this is the window's first request
            counts.append(1 if cache.add(key, 1, timeout) else cache.incr(key))
    return counts


def verdict(*, scope: str, token_id: str | None, address: str | None) -> float | None:
    """Count one request of ``scope`` for the token and the address; the seconds to wait if
    either is over its limit, else None."""
    now = time.time()
    counters = []  # (key, limit, period, end of the window)
    for kind, identity in (("token", token_id), ("address", address)):
        rate = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{kind}", "off"))
        if rate is None or identity is None:
            continue
        limit, period = rate
        window = int(now // period)
        counters.append((f"throttle:{scope}:{kind}:{identity}:{window}", limit, period,
                         (window + 1) * period))
    if not counters:
        return None
    try:
        counts = _count([(key, period + 1) for key, _, period, _ in counters])
    except Exception as error:  # noqa: BLE001 - any cache failure: serve unthrottled
        cache_health.failed(error)
        return None
    cache_health.worked()
    waits = [end - now for (_, limit, _, end), count in zip(counters, counts, strict=True)
             if count > limit]
    return max(waits) if waits else None


# Where a request's verdict is kept once reached (by the move fast path, which may then hand
# the request to the full view): a request is counted once, whichever code answers it.
VERDICT_ATTRIBUTE = "_throttle_verdict"
_NO_VERDICT = object()


def client_address(request) -> str | None:
    """The client's address as every limit counts it (``NUM_PROXIES`` decides how
    X-Forwarded-For is read)."""
    return BaseThrottle().get_ident(request) or None


def counts(view, method: str) -> bool:
    """Whether ``view``'s requests with ``method`` are counted against a limit (and can be
    answered 429)."""
    if getattr(view, "throttle_scope", None) is None:
        return False
    return method.upper() not in SAFE_METHODS or getattr(view, "throttle_reads", False)


class RequestRateThrottle(BaseThrottle):
    """Counts a request once per bearer token and once per client address (``NUM_PROXIES``
    decides how X-Forwarded-For is read), each against its limit; over either is refused."""

    def __init__(self) -> None:
        self.retry_after: float | None = None

    def allow_request(self, request, view) -> bool:
        if not counts(view, request.method):
            return True
        scope = view.throttle_scope
        reached = getattr(request, VERDICT_ATTRIBUTE, _NO_VERDICT)
        if reached is _NO_VERDICT:
            token = request.auth
            reached = verdict(
                scope=scope,
                token_id=str(token.pk) if token is not None and hasattr(token, "pk") else None,
                address=client_address(request),
            )
        self.retry_after = reached
        return reached is None

    def wait(self) -> float | None:
        return math.ceil(self.retry_after) if self.retry_after is not None else None
