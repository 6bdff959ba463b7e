"""Helpers of the races' tests: racers, a race started and opened, moves, and the clock moved
by writing the race's times into the past (never by sleeping)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from server.foursquare.models import Game, Race

RACES = "races"


def url(race: dict | str, action: str = "") -> str:
    race_id = race["id"] if isinstance(race, dict) else race
    return f"races/{race_id}" + (f"/{action}" if action else "")


def create(api, players: int = 2, minutes: int = 3, **extra) -> dict:
    response = api.post(RACES, {"players": players, "minutes": minutes, **extra})
    assert response.status_code == 201, response.content
    return response.json()


def join(api, race: dict) -> dict:
    response = api.post("races/join", {"code": race["code"]})
    assert response.status_code == 200, response.content
    return response.json()


def start(api, race: dict) -> dict:
    response = api.post(url(race, "start"))
    assert response.status_code == 200, response.content
    return response.json()


def shift(race_id, seconds: float) -> None:
    """Move the race's clock: its times (and its games') ``seconds`` earlier, as if that much
    time had passed."""
    delta = timedelta(seconds=seconds)
    race = Race.objects.get(pk=race_id)
    Race.objects.filter(pk=race_id).update(
        started_at=race.started_at - delta, starts_at=race.starts_at - delta,
        ends_at=race.ends_at - delta)
    for game in Game.objects.filter(race_id=race_id):
        Game.objects.filter(pk=game.pk).update(
            opens_at=game.opens_at - delta, closes_at=game.closes_at - delta,
            created_at=game.created_at - delta)


def open_now(race_id) -> None:
    """End the countdown: the race's ``starts_at`` is a moment ago."""
    race = Race.objects.get(pk=race_id)
    shift(race_id, (race.starts_at - timezone.now()).total_seconds() + 0.001)


def time_up(race_id) -> None:
    """The race's ``ends_at`` has passed."""
    race = Race.objects.get(pk=race_id)
    shift(race_id, (race.ends_at - timezone.now()).total_seconds() + 1)


def raced(host, *others, players: int | None = None, minutes: int = 3) -> dict:
    """A race of ``host`` and ``others`` (APIs), started and open for moves."""
    race = create(host, players=players or 1 + len(others) or 2, minutes=minutes)
    for other in others:
        race = join(other, race)
    if race["status"] == "waiting":
        race = start(host, race)
    open_now(race["id"])
    return host.get(url(race)).json()


def game_of(api, race: dict) -> dict:
    """The caller's own game of ``race``."""
    own = api.get(url(race)).json()["game"]
    response = api.get(f"games/{own}")
    assert response.status_code == 200, response.content
    return response.json()


def move(api, game: dict, choose=None):
    """Play one move of ``game`` (the first legal one, or ``choose(game)``; before the race's
    start, when no move shows, the corner); the response."""
    row, col = (choose or (lambda g: (g["legal_moves"] or [[0, 0]])[0]))(game)
    return api.post(f"games/{game['id']}/moves", {"row": row, "col": col,
                                                  "move": game["moves_played"]})


def play_out(api, game: dict, choose=None) -> list:
    """Play ``game`` to its end; every response."""
    responses = []
    while game["status"] == "playing":
        response = move(api, game, choose)
        assert response.status_code == 200, response.content
        responses.append(response)
        game = response.json()
    return responses


def play_moves(api, game: dict, count: int) -> dict:
    for _ in range(count):
        if game["status"] != "playing":
            break
        response = move(api, game)
        assert response.status_code == 200, response.content
        game = response.json()
    return game


def fixed_deal(monkeypatch, seed: bytes = b"race" * 8) -> None:
    """Every race started deals the deck of ``seed`` (in place of the one its server seed and
    client seeds give): the tests play a known deal, the same each run."""
    from server.foursquare import fairness
    from server.foursquare.races import services

    def known(race, players) -> bytes:
        fairness.race_deal_seed(race, players)  # the seeds kept in seat order, as ever
        return seed

    monkeypatch.setattr(services, "_deal_seed", known)
