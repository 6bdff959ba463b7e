"""Request limits per token and per client address, counted in the shared cache.

A view opts in by naming a ``throttle_scope``; its unsafe requests (POST, PATCH, DELETE), and its
reads too if it sets ``throttle_reads`` (a read that costs real work, like a hint), are then
counted once under ``<scope>.token`` (the bearer token the request carries) and once under
``<scope>.address`` (the client's IP address), with the limits of ``settings.THROTTLE_RATES``,
both in one round trip to Redis. Over a limit the answer is ``429 throttled`` with
``Retry-After``.

Each limit is a **moving window** (a sliding log): "N per period" lets a request in when fewer
than N were let in during the period just before it, at any instant, not in windows aligned to
the clock. A fixed window lets a client make N requests at the end of one window and N more at
the start of the next, twice the limit in a moment, and a test whose requests straddled a
minute saw its last one let in. The log keeps the instants of the requests let in (at most N
per key, each dropped once it is a period old); a refused request is not kept, so hammering does
not push the wait further, and the request is kept under both its keys or under neither. The
wait (``Retry-After``) is exact: the time until the oldest request that must leave the window
does. A token bucket (GCRA) would need less memory, but it lets N in at once and N - 1 more
within the same period, which is not "N per period"; docs/SECURITY.md has the measurements.

Each answer of a limited route says where its client stands, in the IETF's RateLimit fields
(draft-ietf-httpapi-ratelimit-headers): ``RateLimit-Policy`` lists the route's limits (``q``
requests in any ``w`` seconds, one policy per token and per address, named
``<scope>.token`` and ``<scope>.address``), and ``RateLimit`` each one's ``r`` (requests
remaining now) and ``t`` (seconds until the quota grows again: when the oldest request counted
leaves the window; the wait of ``Retry-After`` once nothing remains). A view may exempt a
request (``throttle_exempt``): it is neither counted nor refused, and carries the policy only.

The counts live in Django's cache: Redis when ``REDIS_URL`` is set, so every worker and every app
server shares them (one Lua script, atomic in Redis); the embedded default's file cache
(diskcache) holds the same log under a transaction that its processes share. When the cache
cannot be reached the request goes through unthrottled: a game that stops because its rate
limiter is down would be worse than a burst of unlimited requests. The log says when
throttling stops and when it resumes.
"""

from __future__ import annotations

import bisect
import contextlib
import enum
import functools
import logging
import math
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from diskcache import DjangoCache
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from redis.commands.core import Script
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from server.core import metrics

if TYPE_CHECKING:  # DRF's views import this module (DEFAULT_THROTTLE_CLASSES)
    from rest_framework.request import Request
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
            "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_OFF = {"", "off", "none", "0"}

# The limiter's clock, in seconds since the epoch. Tests put a clock of their own here; every app
# server's clock is assumed to agree within a few milliseconds (NTP), as the logs' are.
clock: Callable[[], float] = time.time


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


@dataclass(frozen=True)
class Window:
    """One limit to count a request against: at most ``limit`` requests under ``key`` in any
    ``period_ms`` milliseconds."""

    key: str
    period_ms: int
    limit: int


# One script, one command and one round trip for every cache call of a request, atomic in
# Redis. Each window's sorted set holds the instants (as scores, in milliseconds) of the requests
# it let in: those a period old or older are dropped; a window holding `limit` or more is over,
# and its wait is the time until enough of them leave. The keys to read are looked up (whether
# each exists). When no window is over, the request is added to every window (its set expiring
# a period after it) and the keys to write are set with their expiry. KEYS: the windows, the
# reads, the writes; ARGV: the number of windows and of reads, now (ms), the request's member
# (unique), then (period ms, limit) per window, then (value, expiry s) per write. It answers the
# waits, which reads exist, and each window's count and oldest instant (-1: none) after the
# request (for the RateLimit fields). All keys live on one Redis (no cluster), as every key of
# the service does.
_SCRIPT = """
local windows, reads = tonumber(ARGV[1]), tonumber(ARGV[2])
local now, member = tonumber(ARGV[3]), ARGV[4]
local waits, over = {}, false
for i = 1, windows do
    local period, limit = tonumber(ARGV[3 + 2 * i]), tonumber(ARGV[4 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - period)
    local held = redis.call('ZCARD', KEYS[i])
    waits[i] = 0
    if held >= limit then
        over = true
        local leaving = redis.call('ZRANGE', KEYS[i], held - limit, held - limit, 'WITHSCORES')
        waits[i] = tonumber(leaving[2]) + period - now
    end
end
local found = {}
for j = 1, reads do found[j] = redis.call('EXISTS', KEYS[windows + j]) end
if not over then
    for i = 1, windows do
        redis.call('ZADD', KEYS[i], now, member)
        redis.call('PEXPIRE', KEYS[i], ARGV[3 + 2 * i])
    end
    local base = 4 + 2 * windows
    for k = windows + reads + 1, #KEYS do
        local at = base + 2 * (k - windows - reads) - 1
        redis.call('SET', KEYS[k], ARGV[at], 'EX', ARGV[at + 1])
    end
end
local helds, oldests = {}, {}
for i = 1, windows do
    helds[i] = redis.call('ZCARD', KEYS[i])
    local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    oldests[i] = first[2] and tonumber(first[2]) or -1
end
return {waits, found, helds, oldests}
"""
_scripts: weakref.WeakKeyDictionary[RedisCache, Script] = weakref.WeakKeyDictionary()


def _script(backend: RedisCache, key: str) -> Script:
    """The script, bound to the redis-py client of the Redis cache and kept (Django's own
    backend builds a new client for every call, which cost a third of a move's CPU; the
    service's, ``server.core.redis_cache``, keeps one per pool). The client is thread-safe (it
    shares one connection pool) and reached through Django's private but stable (since 4.0)
    ``_cache``. The script runs by its hash once Redis has seen it."""
    script = _scripts.get(backend)
    if script is None:
        # The stubs leave out the backend's private client (its ``_cache``).
        client = backend._cache.get_client(key, write=True)  # type: ignore[attr-defined]
        script = _scripts[backend] = client.register_script(_SCRIPT)
    return script


# What a count answers: each window's wait (ms, 0 when not over), the reads found, and each
# window's (requests held, the oldest one's instant in ms or -1) once the request is counted.
_Answer = tuple[list[int], set[str], list[tuple[int, int]]]


def _run_on_redis(backend: RedisCache, windows: Sequence[Window], reads: Sequence[str],
                  writes: Sequence[tuple[str, int, int]], now_ms: int) -> _Answer:
    # Our keys are short ASCII: make_key, without the per-character check for memcached.
    names = [backend.make_key(window.key) for window in windows]
    names += [backend.make_key(key) for key in reads]
    names += [backend.make_key(key) for key, _, _ in writes]
    arguments: list[int | str] = [len(windows), len(reads), now_ms, secrets.token_hex(8)]
    for window in windows:
        arguments += [window.period_ms, window.limit]
    for _, value, expiry in writes:  # an int as Django's Redis serializer stores one
        arguments += [value, expiry]
    waits, found, helds, oldests = _script(backend, names[0])(keys=names, args=arguments)
    return (waits, {key for key, there in zip(reads, found, strict=True) if there},
            list(zip(helds, oldests, strict=True)))


_process_lock = threading.Lock()


@contextlib.contextmanager
def _exclusive(backend: BaseCache) -> Iterator[None]:
    """No other count of this cache in between: the embedded default's file cache is shared by
    the processes of one machine, so its transaction (a SQLite write lock on every shard) keeps
    them out; any other cache is this process's own (a memory cache), so a lock will do."""
    if isinstance(backend, DjangoCache):
        with backend._cache.transact():
            yield
    else:
        with _process_lock:
            yield


def _run_elsewhere(backend: BaseCache, windows: Sequence[Window], reads: Sequence[str],
                   writes: Sequence[tuple[str, int, int]], now_ms: int) -> _Answer:
    """The script's work on a cache without scripts, with the same answers: each window is a
    sorted tuple of the instants it let in."""
    with _exclusive(backend):
        logs = []
        waits = []
        for window in windows:
            log = backend.get(window.key) or ()
            log = log[bisect.bisect_right(log, now_ms - window.period_ms):]
            logs.append(log)
            over = len(log) >= window.limit
            waits.append(log[len(log) - window.limit] + window.period_ms - now_ms if over else 0)
        found = set(backend.get_many(reads)) if reads else set()
        if not any(waits):
            logs = [(*log, now_ms) for log in logs]
            for window, log in zip(windows, logs, strict=True):
                backend.set(window.key, log, math.ceil(window.period_ms / 1000))
            for key, value, expiry in writes:
                backend.set(key, value, expiry)
    return waits, found, [(len(log), log[0] if log else -1) for log in logs]


def windows_of(*, scope: str, token_id: str | None, address: str | None) -> list[Window]:
    """The limits a request of ``scope`` counts against: its token's and its address's, each
    where a rate is set and the request has one."""
    windows = []
    for kind, identity in (("token", token_id), ("address", address)):
        rate = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{kind}", "off"))
        if rate is None or identity is None:
            continue
        limit, period = rate
        windows.append(Window(f"throttle:{scope}:{kind}:{identity}", period * 1000, limit))
    return windows


@dataclass(frozen=True)
class LimitState:
    """Where a client stands against one limit once its request is counted: the policy's
    ``name`` (``<scope>.<token|address>``), its ``quota`` of requests in any ``window``
    seconds, the requests ``remaining`` now and the seconds until the quota grows again
    (``reset``)."""

    name: str
    quota: int
    window: int
    remaining: int
    reset: int


@dataclass(frozen=True)
class Count:
    """A request counted: the seconds to wait if it is over a limit (else None), the keys of
    the reads found (None: the cache could not be reached), and each limit's state."""

    wait: float | None
    found: set[str] | None
    limits: tuple[LimitState, ...] = ()


def policies(scope: str) -> list[tuple[str, int, int]]:
    """The limits of ``scope``: (policy name, quota, window in seconds), per token then per
    address, where a rate is set."""
    found = []
    for kind in ("token", "address"):
        rate = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{kind}", "off"))
        if rate is not None:
            found.append((f"{scope}.{kind}", *rate))
    return found


def _states(windows: Sequence[Window], waits: Sequence[int],
            held: Sequence[tuple[int, int]], now_ms: int) -> tuple[LimitState, ...]:
    states = []
    for window, wait, (count, oldest) in zip(windows, waits, held, strict=True):
        _, scope, kind, _ = window.key.split(":", 3)
        reset_ms = wait if wait > 0 else (oldest + window.period_ms - now_ms
                                          if oldest >= 0 else 0)
        states.append(LimitState(
            name=f"{scope}.{kind}", quota=window.limit, window=window.period_ms // 1000,
            remaining=max(0, window.limit - count), reset=max(0, math.ceil(reset_ms / 1000))))
    return tuple(states)


def count_request(*, scope: str, token_id: str | None, address: str | None,
                  reads: Sequence[str] = (), writes: Sequence[tuple[str, int, int]] = (),
                  exempt: bool = False) -> Count:
    """Count one request of ``scope`` for the token and the address (not when ``exempt``) and,
    in the same round trip to the cache, a fast path's other calls: which of the keys
    ``reads`` exist, and, if the request is within its limits, ``writes`` set (each
    ``(key, int value, expiry in seconds)``). When the cache cannot be reached the request goes
    through unthrottled, nothing is written, and no limit's state is known."""
    windows = [] if exempt else windows_of(scope=scope, token_id=token_id, address=address)
    if not windows and not reads and not writes:
        return Count(None, set())
    now_ms = math.floor(clock() * 1000)
    backend = caches["default"]
    try:
        if isinstance(backend, RedisCache):
            waits, found, held = _run_on_redis(backend, windows, reads, writes, now_ms)
        else:
            waits, found, held = _run_elsewhere(backend, windows, reads, writes, now_ms)
    except Exception as error:  # noqa: BLE001 - any cache failure: serve unthrottled
        cache_health.failed(error)
        return Count(None, None)
    cache_health.worked()
    wait_ms = max(waits, default=0)
    return Count(wait_ms / 1000 if wait_ms > 0 else None, found,
                 _states(windows, waits, held, now_ms))


def _name(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def policy_field(scope: str) -> str | None:
    """``RateLimit-Policy`` of a route limited under ``scope``: ``"moves.token";q=300;w=60,
    "moves.address";q=3000;w=60`` (None: no limit is set)."""
    listed = [f"{_name(name)};q={quota};w={window}" for name, quota, window in policies(scope)]
    return ", ".join(listed) or None


def state_field(limits: Sequence[LimitState]) -> str | None:
    """``RateLimit`` of a counted request: each limit's remaining requests and reset."""
    listed = [f"{_name(limit.name)};r={limit.remaining};t={limit.reset}" for limit in limits]
    return ", ".join(listed) or None


# Where a counted request keeps its limits' states (the Django request, which both a DRF view
# and a fast path answer from), for the answer's RateLimit field.
STATE_ATTRIBUTE = "_rate_limit_states"


def _django_request(request: Request | HttpRequest) -> HttpRequest:
    return getattr(request, "_request", request)  # DRF's Request wraps Django's


def remember(request: Request | HttpRequest, count: Count) -> None:
    setattr(_django_request(request), STATE_ATTRIBUTE, count.limits)


def fields_apply(scope: str, request: Request | HttpRequest,
                 response: HttpResponseBase) -> None:
    """The RateLimit fields of ``response`` to a request of a route limited under ``scope``."""
    policy = policy_field(scope)
    if policy is None:
        return
    response["RateLimit-Policy"] = policy
    state = state_field(getattr(_django_request(request), STATE_ATTRIBUTE, ()))
    if state is not None:
        response["RateLimit"] = state


def verdict(*, scope: str, token_id: str | None, address: str | None) -> float | None:
    """Count one request of ``scope`` for the token and the address; the seconds to wait if
    either is over its limit, else None."""
    return verdict_with(scope=scope, token_id=token_id, address=address)[0]


def verdict_with(*, scope: str, token_id: str | None, address: str | None,
                 reads: Sequence[str] = (), writes: Sequence[tuple[str, int, int]] = ()
                 ) -> tuple[float | None, set[str] | None]:
    """``count_request``'s verdict and the keys found (None when the cache could not be
    reached)."""
    counted = count_request(scope=scope, token_id=token_id, address=address, reads=reads,
                            writes=writes)
    return counted.wait, counted.found


# Where a request's verdict is kept once reached (by the move fast path, which may then hand
# the request to the full view): a request is counted once, whichever code answers it.
VERDICT_ATTRIBUTE = "_throttle_verdict"


class _Verdict(enum.Enum):
    NONE_YET = "none yet"  # a sentinel the checker can narrow away


def client_address(request: Request | HttpRequest) -> str | None:
    """The client's address as every limit counts it: ``trusted_address`` of the request's
    peer and X-Forwarded-For. Read from META, not ``request.headers``, which DRF's
    ``get_ident`` builds from every header of the request for the one it wants."""
    meta = request.META
    return trusted_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def trusted_address(peer: str | None, forwarded: str | None) -> str | None:
    """The client's address behind ``NUM_PROXIES`` proxies that each append to
    X-Forwarded-For: the entry the last of them appended, or the peer itself without proxies,
    without the header or with an empty entry (as DRF's ``get_ident`` reads it)."""
    proxies = api_settings.NUM_PROXIES
    if not proxies or forwarded is None:
        return peer or None
    addresses = forwarded.split(",")
    return addresses[-min(proxies, len(addresses))].strip() or peer or None


def counts(view: APIView, method: str) -> bool:
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

    def allow_request(self, request: Request, view: APIView) -> bool:
        scope = getattr(view, "throttle_scope", None)  # a DRF convention APIView leaves out
        if scope is None or not counts(view, request.method or ""):
            return True
        reached = getattr(request, VERDICT_ATTRIBUTE, _Verdict.NONE_YET)
        if reached is _Verdict.NONE_YET:
            exempt = getattr(view, "throttle_exempt", None)
            if exempt is not None and exempt(request):
                return True
            token = request.auth
            counted = count_request(
                scope=scope,
                token_id=str(token.pk) if token is not None and hasattr(token, "pk") else None,
                address=client_address(request),
            )
            remember(request, counted)
            reached = counted.wait
        self.retry_after = reached
        if reached is not None:  # answered 429 here, whichever path reached the verdict
            metrics.rate_limit_refusals.labels(scope).inc()
        return reached is None

    def wait(self) -> float | None:
        return math.ceil(self.retry_after) if self.retry_after is not None else None
