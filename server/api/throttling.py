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


# One script, one command and one round trip for every cache call of a request, atomic in
# Redis: each counter is incremented (and given its expiry when the increment created it); the
# keys to read are looked up (whether each exists); and, when no counter is over its limit, the
# keys to write are set with their expiry. KEYS: the counters, the reads, the writes; ARGV: the
# number of counters and of reads, then (expiry, limit) per counter, then (value, expiry) per
# write. All keys live on one Redis (no cluster), as every key of the service does.
_SCRIPT = """
local counters, reads = tonumber(ARGV[1]), tonumber(ARGV[2])
local counts, over = {}, false
for i = 1, counters do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('EXPIRE', KEYS[i], ARGV[1 + 2 * i]) end
    if counts[i] > tonumber(ARGV[2 + 2 * i]) then over = true end
end
local found = {}
for j = 1, reads do found[j] = redis.call('EXISTS', KEYS[counters + j]) end
if not over then
    local base = 2 + 2 * counters
    for k = counters + reads + 1, #KEYS do
        local at = base + 2 * (k - counters - reads) - 1
        redis.call('SET', KEYS[k], ARGV[at], 'EX', ARGV[at + 1])
    end
end
return {counts, found}
"""
_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _script(backend: RedisCache, key: str):
    """The script, bound to the redis-py client of the Redis cache and kept (Django's own
    backend builds a new client for every call, which cost a third of a move's CPU; the
    service's, ``server.core.redis_cache``, keeps one per pool). The client is thread-safe (it
    shares one connection pool) and reached through Django's private but stable (since 4.0)
    ``_cache``. The script runs by its hash once Redis has seen it."""
    script = _scripts.get(backend)
    if script is None:
        client = backend._cache.get_client(key, write=True)
        script = _scripts[backend] = client.register_script(_SCRIPT)
    return script


def _run(counters: list[tuple[str, int, int]], reads: list[str],
         writes: list[tuple[str, int, int]]) -> tuple[list[int], set[str]]:
    """Count each ``(key, expiry, limit)`` counter; which of ``reads`` exist; and, unless a
    count is over its limit, set each ``(key, value, expiry)`` of ``writes``."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        # Our keys are short ASCII: make_key, without the per-character check for memcached.
        names = [backend.make_key(key) for key, *_ in (*counters, *writes)]
        names[len(counters):len(counters)] = [backend.make_key(key) for key in reads]
        arguments = [len(counters), len(reads)]
        for _, expiry, limit in counters:
            arguments += [expiry, limit]
        for _, value, expiry in writes:  # an int as Django's Redis serializer stores one
            arguments += [value, expiry]
        counts, found = _script(backend, names[0])(keys=names, args=arguments)
        return counts, {key for key, there in zip(reads, found, strict=True) if there}
    counts = []
    for key, expiry, _ in counters:
        try:
            counts.append(cache.incr(key))
        except ValueError:  # no counter yet: this is the window's first request
            counts.append(1 if cache.add(key, 1, expiry) else cache.incr(key))
    found = set(cache.get_many(reads)) if reads else set()
    if all(count <= limit for count, (_, _, limit) in zip(counts, counters, strict=True)):
        for key, value, expiry in writes:
            cache.set(key, value, expiry)
    return counts, found


def verdict(*, scope: str, token_id: str | None, address: str | None) -> float | None:
    """Count one request of ``scope`` for the token and the address; the seconds to wait if
    either is over its limit, else None."""
    return verdict_with(scope=scope, token_id=token_id, address=address)[0]


def verdict_with(*, scope: str, token_id: str | None, address: str | None,
                 reads: list[str] = (), writes: list[tuple[str, int, int]] = ()
                 ) -> tuple[float | None, set[str] | None]:
    """``verdict`` and, in the same round trip to the cache, a fast path's other calls: which
    of the keys ``reads`` exist, and, if the request is within its limits, ``writes`` set (each
    ``(key, int value, expiry in seconds)``). The verdict and the keys found; None for the keys
    when the cache could not be reached (the request then goes through unthrottled and nothing
    is written)."""
    now = time.time()
    counters = []  # (key, expiry, limit), and the end of each one's window
    ends = []
    for kind, identity in (("token", token_id), ("address", address)):
        rate = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{kind}", "off"))
        if rate is None or identity is None:
            continue
        limit, period = rate
        window = int(now // period)
        counters.append((f"throttle:{scope}:{kind}:{identity}:{window}", period + 1, limit))
        ends.append((window + 1) * period)
    if not counters and not reads and not writes:
        return None, set()
    try:
        counts, found = _run(counters, list(reads), list(writes))
    except Exception as error:  # noqa: BLE001 - any cache failure: serve unthrottled
        cache_health.failed(error)
        return None, None
    cache_health.worked()
    waits = [end - now for (_, _, limit), end, count in zip(counters, ends, counts, strict=True)
             if count > limit]
    return (max(waits) if waits else None), found


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
