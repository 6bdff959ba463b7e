"""The rate limiter's moving window, on an injected clock: the same answers on Redis (one
script), on the embedded default's file cache and on a memory cache."""

from __future__ import annotations

import math
import os
import uuid

import pytest
from django.core.cache import cache

from server.api import throttling

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
# A minute that starts on the clock's minute, far from any other test's instants.
MINUTE = 1_800_000_000.0


class Clock:
    """The limiter's clock, moved by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["redis", "file", "memory"])
def shared_cache(request, settings, tmp_path):
    """The cache the limiter counts in: the real Redis (keys under a prefix of this test's), the
    embedded default's file cache, or a memory cache."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "redis": {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                              "LOCATION": REDIS_URL, "KEY_PREFIX": prefix}},
        "file": {"default": {"BACKEND": "diskcache.DjangoCache",
                             "LOCATION": str(tmp_path / "cache")}},
        "memory": {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                               "LOCATION": prefix}},
    }[request.param]
    yield request.param
    cache.clear()


@pytest.fixture
def clock(monkeypatch) -> Clock:
    moved = Clock(MINUTE)
    monkeypatch.setattr(throttling, "clock", moved)
    return moved


@pytest.fixture
def rates(settings):
    def given(**rates: str) -> None:
        settings.THROTTLE_RATES = {**settings.THROTTLE_RATES,
                                   **{key.replace("_", "."): rate for key, rate in rates.items()}}
    return given


def ask(address: str = "198.51.100.7", token: str | None = None) -> float | None:
    return throttling.verdict(scope="sockets", token_id=token, address=address)


def let_in(count: int, clock: Clock, at: float) -> int:
    clock.now = at
    return sum(ask() is None for _ in range(count))


def test_n_at_the_end_of_a_window_and_n_at_the_start_of_the_next_let_in_only_n(
        shared_cache, clock, rates):
    rates(sockets_address="12/min")
    assert let_in(12, clock, MINUTE + 59.9) == 12
    assert let_in(12, clock, MINUTE + 60.1) == 0
    assert let_in(12, clock, MINUTE + 119.8) == 0  # still within a minute of the first twelve
    assert let_in(12, clock, MINUTE + 119.9) == 12  # a minute after them: room for twelve again
    assert let_in(1, clock, MINUTE + 119.9) == 0


def test_handshakes_straddling_a_minute_leave_the_next_one_refused(shared_cache, clock, rates):
    """The socket test that failed: 12 handshakes, some before a minute of the clock turned and
    some after, and the 13th was let in by a fresh fixed window."""
    rates(sockets_address="12/min")
    assert let_in(6, clock, MINUTE - 0.5) == 6
    assert let_in(6, clock, MINUTE + 0.2) == 6
    clock.now = MINUTE + 0.3
    assert ask() == pytest.approx(59.2)  # until the first of them is a minute old


def test_the_wait_is_exact_and_refusals_do_not_lengthen_it(shared_cache, clock, rates):
    rates(sockets_address="3/min")
    for at in (0.0, 10.0, 20.0):
        clock.now = MINUTE + at
        assert ask() is None
    clock.now = MINUTE + 25.0
    assert ask() == pytest.approx(35.0)
    for _ in range(5):  # hammering while refused
        assert ask() == pytest.approx(35.0)
    clock.now = MINUTE + 59.999
    assert ask() == pytest.approx(0.001)
    clock.now = MINUTE + 60.0  # the first request has left the window
    assert ask() is None
    assert ask() == pytest.approx(10.0)  # the next to leave is the one made at 10 s


def test_retry_after_rounds_the_wait_up_to_whole_seconds(shared_cache, clock, rates):
    rates(sockets_address="1/min")
    assert ask() is None
    clock.now = MINUTE + 30.4
    throttle = throttling.RequestRateThrottle()
    throttle.retry_after = ask()
    assert throttle.wait() == math.ceil(60 - 30.4) == 30


def test_a_request_refused_by_one_limit_uses_none_of_the_other(shared_cache, clock, rates):
    rates(sockets_token="2/min", sockets_address="3/min")
    assert ask(token="a") is None
    assert ask(token="a") is None
    assert ask(token="a") is not None  # over the token's limit: not kept under the address
    assert ask(token="b") is None  # so the address still has this one
    assert ask(token="b") is not None  # its third
    assert ask(address="198.51.100.8", token="b") is None  # another address, the token's second


def test_each_address_has_its_own_window(shared_cache, clock, rates):
    rates(sockets_address="2/hour")
    assert [ask("203.0.113.1"), ask("203.0.113.1"), ask("203.0.113.2")] == [None, None, None]
    assert ask("203.0.113.1") == pytest.approx(3600.0)


# --- The RateLimit fields (draft-ietf-httpapi-ratelimit-headers) -------------------------------


def _count(**options) -> throttling.Count:
    return throttling.count_request(scope="sockets", token_id=options.pop("token", None),
                                    address=options.pop("address", "198.51.100.9"), **options)


def test_each_count_says_what_remains_and_when_the_quota_grows(shared_cache, clock, rates):
    rates(sockets_token="3/min", sockets_address="5/min")
    first = _count(token="t1")
    assert first.wait is None
    assert first.limits == (
        throttling.LimitState("sockets.token", quota=3, window=60, remaining=2, reset=60),
        throttling.LimitState("sockets.address", quota=5, window=60, remaining=4, reset=60))
    clock.now += 10.5
    _count(token="t1")
    third = _count(token="t1")
    # Nothing remains per token; the first request leaves the window 49.5 s from now.
    assert [(limit.remaining, limit.reset) for limit in third.limits] == [(0, 50), (2, 50)]
    refused = _count(token="t1")
    assert refused.wait == pytest.approx(49.5)
    assert [(limit.remaining, limit.reset) for limit in refused.limits] == [(0, 50), (2, 50)]
    assert throttling.state_field(refused.limits) == (
        '"sockets.token";r=0;t=50, "sockets.address";r=2;t=50')


def test_an_exempt_request_is_neither_counted_nor_refused(shared_cache, clock, rates):
    rates(sockets_token="1/min", sockets_address="off")
    assert _count(token="t2").wait is None
    exempt = _count(token="t2", exempt=True)
    assert (exempt.wait, exempt.limits) == (None, ())
    assert _count(token="t2").wait == pytest.approx(60)


def test_the_policy_field_lists_the_scope_s_limits(rates):
    rates(sockets_token="300/min", sockets_address="3000/hour")
    assert throttling.policy_field("sockets") == (
        '"sockets.token";q=300;w=60, "sockets.address";q=3000;w=3600')
    rates(sockets_token="off", sockets_address="off")
    assert throttling.policy_field("sockets") is None
