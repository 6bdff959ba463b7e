"""``throttling.verdict_with``: a request's rate limit and a fast path's other cache calls in
one round trip, the same on Redis (one script) as on any other cache (several calls)."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches

from server.api import throttling


@pytest.fixture(autouse=True)
def _two_moves_a_minute(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "2/min",
                               "moves.address": "off"}


def ask(**calls):
    return throttling.verdict_with(scope="moves", token_id="t1", address="10.0.0.1", **calls)


def test_within_the_limit_the_reads_are_answered_and_the_writes_made(shared_cache):
    cache.set("here", "socket-a", 60)
    verdict, found = ask(reads=["here", "absent"], writes=[("latest", 41, 600)])
    assert verdict is None
    assert found == {"here"}
    assert cache.get("latest") == 41  # as Django's own cache reads an int it stored
    if shared_cache == "redis":  # with its expiry, as cache.set would give it
        backend = caches["default"]
        assert 0 < backend._cache.get_client().ttl(backend.make_key("latest")) <= 600


def test_over_the_limit_nothing_is_written_and_the_wait_is_said(shared_cache):
    assert ask()[0] is None
    assert ask(writes=[("latest", 7, 600)])[0] is None
    verdict, found = ask(reads=["latest"], writes=[("latest", 8, 600)])
    assert verdict is not None and 0 < verdict <= 60
    assert found == {"latest"}  # read before the refused write
    assert cache.get("latest") == 7


def test_a_cache_that_cannot_be_reached_lets_the_request_through_and_says_nothing(settings):
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2}}}
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "2/min"}
    assert ask(reads=["here"], writes=[("latest", 1, 60)]) == (None, None)
