"""The race socket's clients for the live tests, and the REST calls that drive a race."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone

from server.foursquare.models import Game, Race
from tests.make_run import call
from tests.server.live import JsonSocket

CARD = re.compile(r"[A2-9T][CDHS]")


def cards_in(value) -> list[str]:
    """Every Foursquare card code anywhere in a JSON value."""
    if isinstance(value, str):
        return [value] if CARD.fullmatch(value) else []
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    return []


class RaceSocket(JsonSocket):
    """A connected client of ``/ws/races/<id>``: every message it got, in order."""


def path(race_id) -> str:
    return f"/ws/races/{race_id}"


def connect(server, race_id, token) -> RaceSocket:
    """A socket past ``ready``."""
    socket = RaceSocket(server.ws(path(race_id), token=token))
    socket.until(lambda message: message["type"] == "ready")
    return socket


def ok(status: int, body: dict, expected: int = 200) -> dict:
    assert status == expected, (status, body)
    return body


def race_create(server, token, players: int = 2, minutes: int = 3) -> dict:
    return ok(*call(server.base, "POST", "/api/v1/races",
                    {"players": players, "minutes": minutes}, token=token), expected=201)


def race_join(server, token, race: dict) -> dict:
    return ok(*call(server.base, "POST", "/api/v1/races/join", {"code": race["code"]},
                    token=token))


def race_get(server, token, race_id) -> dict:
    return ok(*call(server.base, "GET", f"/api/v1/races/{race_id}", token=token))


def race_start(server, token, race_id) -> dict:
    return ok(*call(server.base, "POST", f"/api/v1/races/{race_id}/start", token=token))


def countdown_over(race_id) -> None:
    """The race's countdown ended a moment ago (the games open)."""
    begun = timezone.now() - timedelta(seconds=1)
    Race.objects.filter(pk=race_id).update(starts_at=begun)
    Game.objects.filter(race_id=race_id).update(opens_at=begun)


def race_started(server, tokens: list[str], players: int | None = None) -> dict:
    """A race of ``tokens``' players (the first its host), started, its countdown over."""
    race = race_create(server, tokens[0], players=players or len(tokens))
    for token in tokens[1:]:
        race = race_join(server, token, race)
    if race["status"] == "waiting":
        race = race_start(server, tokens[0], race["id"])
    countdown_over(race["id"])
    return race


def game_of(server, token, game_id) -> dict:
    return ok(*call(server.base, "GET", f"/api/v1/games/{game_id}", token=token))


def move(server, token, game: dict) -> dict:
    """The first legal move of ``game`` (as last seen), over REST: the game after it."""
    row, col = game["legal_moves"][0]
    return ok(*call(server.base, "POST", f"/api/v1/games/{game['id']}/moves",
                    {"row": row, "col": col, "move": game["moves_played"]}, token=token))


def play_out(server, token, game: dict) -> dict:
    """Play ``game`` to its end: the game over."""
    while game["status"] == "playing":
        game = move(server, token, game)
    return game
