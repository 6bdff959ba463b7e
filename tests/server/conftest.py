"""Fixtures that build on each other: api → player → game."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from server.dailies import calendar
from server.players import services as players
from server.players.models import Player
from tests.asgi_server import TEST_REDIS_URL


class Api:
    """A JSON client for /api/v1 that can act as one player."""

    def __init__(self, token: str | None = None) -> None:
        self.client = APIClient()
        self.token = token
        if token:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def _url(self, path: str) -> str:
        return path if path.startswith(("/", "http")) else f"/api/v1/{path}"

    def get(self, path: str, params=None, **kwargs):
        return self.client.get(self._url(path), params, **kwargs)

    def post(self, path: str, data=None, **kwargs):
        return self.client.post(self._url(path), data, format="json", **kwargs)

    def patch(self, path: str, data=None, **kwargs):
        return self.client.patch(self._url(path), data, format="json", **kwargs)

    def delete(self, path: str, **kwargs):
        return self.client.delete(self._url(path), **kwargs)

    def raw(self, method: str, path: str, body: bytes | str, content_type="application/json",
            **kwargs):
        return getattr(self.client, method)(self._url(path), body, content_type=content_type,
                                            **kwargs)


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings):
    """Each test starts with nothing counted against the rate limits, in a memory cache of its
    own (never a Redis that REDIS_URL may name)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "tests"}}
    cache.clear()


@pytest.fixture(scope="session")
def _test_database_made(request, django_db_setup) -> bool:
    """Whether pytest-django made a test database for this run: only when a collected test
    asks for one (marked ``django_db``, or using ``db``, ``transactional_db`` or
    ``live_server``, as its own setup decides). Otherwise the connection still names the
    database in ``DATABASE_URL``, which is no test's to write to (and may not be migrated)."""
    return any(item.get_closest_marker("django_db") is not None
               or {"db", "transactional_db", "live_server"} & set(getattr(item, "fixturenames", ()))
               for item in request.session.items)


@pytest.fixture(autouse=True)
def _no_stale_sign_of_life(_test_database_made, django_db_blocker) -> None:
    """Each test starts as if no process of the service had ever beaten (server.jobs.liveness),
    as it does alone. Without it, a last sign of life that an earlier test left committed in
    the database (a real server's or a clock thread's beat, on the real or a test's clock) can
    read as an outage of the whole service, and a sweep moves every running deadline on by it:
    a clocks test failed so in a full run, in the process that had run the liveness tests."""
    from server.jobs import background
    from server.jobs.models import Heartbeat, Liveness

    background.clocks_stop()  # a clock thread an earlier test left running would beat too
    if not _test_database_made:
        return
    with django_db_blocker.unblock():
        Liveness.objects.all().delete()
        # A real server's beats, committed after its file's last flush, outlive it.
        Heartbeat.objects.all().delete()


@pytest.fixture(autouse=True)
def _bot_replies_in_the_request(settings) -> None:
    """The house bot's whole reply is played within the request that made it, however slow the
    machine: ``SPITE_MALICE_BOT_SECONDS`` is a wall-clock budget, and on a loaded machine a turn
    over the default 2 s was left to the background, where no worker runs in these tests, so a
    test playing on met the bot's turn and nothing to play (``test_a_full_game_shows_each_seat_
    only_what_it_may_see`` failed so at a load of 8). A test of the background path sets the
    budget to 0 itself, and gets it every time."""
    settings.SPITE_MALICE_BOT_SECONDS = 3600.0


class DailiesClock:
    """The dailies' clock of one test (``server.dailies.calendar.clock``): it stands still at
    ``now`` until the test moves it, so every date decision of the test and of the server it
    calls (today's daily, which dates are playable, archived or closed, a board's day or week)
    reads one instant, however long the test takes and wherever the wall clock stands."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def set(self, now: datetime) -> None:
        self.now = now

    @property
    def today(self) -> date:
        return self.now.astimezone(UTC).date()


def held_instant(wall: datetime) -> datetime:
    """Where a test's dailies' clock stands: 11:00 UTC on the wall clock's UTC date, an hour
    from the nearest date boundary (UTC+14's midnight at 10:00 UTC, UTC-12's at 12:00 UTC,
    UTC's own at 00:00), the hour when yesterday's, today's and tomorrow's dailies are all
    being played somewhere. The date stays the wall clock's, because accounts and games carry
    real timestamps that the trust rules compare with the dailies' dates."""
    return wall.astimezone(UTC).replace(hour=11, minute=0, second=0, microsecond=0)


def chosen_instant() -> datetime | None:
    """``TEST_DAILIES_CLOCK`` (an ISO 8601 instant), where a run holds every test's dailies'
    clock instead: at a boundary, to check that no test depends on where it stands."""
    chosen = os.environ.get("TEST_DAILIES_CLOCK", "").strip()
    if not chosen:
        return None
    return datetime.fromisoformat(chosen.replace("Z", "+00:00")).astimezone(UTC)


@pytest.fixture(autouse=True)
def dailies_clock(monkeypatch) -> DailiesClock:
    """Every server test's dailies' clock, held still (``DailiesClock``, ``held_instant``,
    ``chosen_instant``).
    A test that needs another instant (a date closing) moves it with ``dailies_clock.set``;
    a test that needs today's date reads ``dailies_clock.today`` (or ``calendar.utc_today()``,
    the same). The wall clock (``timezone.now``) still runs for everything else: turn clocks,
    races, jobs, tokens. The servers that tests start in a subprocess keep the real calendar;
    those tests take no date from this one."""
    clock = DailiesClock(chosen_instant() or held_instant(timezone.now()))
    monkeypatch.setattr(calendar, "clock", clock)
    return clock


@pytest.fixture(params=["redis", "memory"])
def shared_cache(request, settings):
    """The shared cache, on the real Redis (keys under a prefix of this test's) or in memory:
    each test that takes it runs on both."""
    prefix = f"test-{uuid.uuid4().hex}"
    if request.param == "redis":
        settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                       "LOCATION": TEST_REDIS_URL, "KEY_PREFIX": prefix}}
    else:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                       "LOCATION": prefix}}
    yield request.param
    cache.clear()


@pytest.fixture
def api() -> Api:
    """An anonymous client."""
    return Api()


@pytest.fixture
def make_player(db):
    def make(name: str | None = None):
        player, token = players.player_create(name=name)
        return player, Api(token)

    return make


def trust(player: Player, *, days: int = 30) -> Player:
    """``player``, made trusted on the global boards: claimed, and created ``days`` ago (so
    before today's daily). Returns it reloaded."""
    since = timezone.now() - timedelta(days=days)
    Player.objects.filter(pk=player.pk).update(
        username=player.username or f"user-{player.pk.hex[:12]}",
        username_key=player.username_key or f"user-{player.pk.hex[:12]}", claimed_at=since,
        created_at=since)
    player.refresh_from_db()
    return player


@pytest.fixture
def make_trusted_player(db):
    """Like ``make_player``, but the account is trusted: its dailies rank on the global
    boards."""
    def make(name: str | None = None):
        player, token = players.player_create(name=name)
        return trust(player), Api(token)

    return make


@pytest.fixture
def player_api(make_player) -> Api:
    """A client signed in as a fresh guest."""
    return make_player()[1]


@pytest.fixture
def practice_game(player_api) -> dict:
    response = player_api.post("games", {"mode": "practice"})
    assert response.status_code == 201, response.content
    return response.json()


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["title"] and body["detail"] and body["type"].endswith(code)
    return body


def headers_but_request_id(response) -> dict[str, str]:
    """Every header of ``response`` but ``X-Request-ID``, which names each request apart, and
    ``RateLimit``, where each request left its client (its remaining count and a reset in
    seconds of the wall clock): what two answers that must match byte for byte share."""
    return {name: value for name, value in response.headers.items()
            if name.lower() not in ("x-request-id", "ratelimit")}
