"""Fixtures that build on each other: api → player → game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from server.players import services as players
from server.players.models import Player


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
    """Every header of ``response`` but ``X-Request-ID``, which names each request apart: what
    two answers that must match byte for byte share."""
    return {name: value for name, value in response.headers.items()
            if name.lower() != "x-request-id"}
