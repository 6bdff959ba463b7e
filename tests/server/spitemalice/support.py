"""Playing Spite & Malice matches through the API in tests."""

from __future__ import annotations

import re

from server.spitemalice.engine import rebuild
from server.spitemalice.models import Match, MatchGame

CARD = re.compile(r"^[A2-9TJQK][CDHS]$")


def start(api, level="easy", target=1) -> dict:
    response = api.post("spite-malice/matches", {"opponent": "bot", "level": level,
                                                 "target": target})
    assert response.status_code == 201, response.content
    return response.json()


def url(match: dict, tail: str = "") -> str:
    return f"spite-malice/matches/{match['id']}{tail}"


def greedy(game: dict) -> list[str]:
    """A simple player: the pay-off top whenever it goes, then any centre play, else the
    first discard."""
    legal = game["legal_actions"]
    for action in legal:
        if action[0] == "P":
            return action
    for action in legal:
        if action[1].startswith("C") and not action[0].startswith("K"):
            return action
    return next(action for action in legal if action[1].startswith("S"))


def act(api, match: dict, action, **extra):
    """Play ``action`` as last seen in ``match``; ``extra`` overrides body fields, and its
    HTTP_* items are headers."""
    game = match["game"]
    headers = {key: value for key, value in extra.items() if key.startswith("HTTP_")}
    body = {"action": action, "game": game["number"], "actions": game["actions"],
            **{key: value for key, value in extra.items() if key not in headers}}
    return api.post(url(match, "/actions"), body, **headers)


def play_out(api, match: dict, policy=greedy, on_response=None, limit=5000) -> dict:
    """Play ``policy`` for your seat until the match is over; ``on_response(match)`` sees
    every answer."""
    for _ in range(limit):
        if match["status"] == "finished":
            return match
        response = act(api, match, policy(match["game"]))
        assert response.status_code == 200, response.content
        match = response.json()
        if on_response is not None:
            on_response(match)
    raise AssertionError("the match did not end")


def engine_of(match_id, number=None):
    match = Match.objects.get(pk=match_id)
    game = MatchGame.objects.get(match=match, number=number or match.game_number)
    return rebuild(game)


def cards_in(value) -> list[str]:
    """Every card code anywhere in a JSON value, once per occurrence."""
    if isinstance(value, str):
        return [value] if CARD.fullmatch(value) else []
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    return []


def daily_won(player, day, points: int, finished_at=None) -> Match:
    """``player``'s Spite & Malice daily of ``day``, started and then recorded as won with
    ``points``, through the boards' hook the finishing transaction calls (a real win takes a
    whole game against the bot)."""
    from django.db import transaction
    from django.utils import timezone

    from server.spitemalice import boards, services

    match, _ = services.match_start_daily(player=player, day=day)
    now = finished_at or timezone.now()
    with transaction.atomic():
        MatchGame.objects.filter(match=match, number=1).update(
            status="won", winner=0, points=points, finished_at=now)
        Match.objects.filter(pk=match.pk).update(status="finished", winner=0, reason="target",
                                                 score0=points, turn=None, finished_at=now)
        match.refresh_from_db()
        boards.daily_result_record(match)
    return match


def match_offering_a_payoff_play(player):
    """A single game against the easy bot, on the first of the deals review-0, review-1, …
    whose first position for seat 0 (``player``'s) offers a pay-off play. Those not taken are
    resigned."""
    from django.db import transaction

    from server.spitemalice import services
    from server.spitemalice.engine import rebuild
    from server.spitemalice.models import Match, MatchGame

    for n in range(200):
        with transaction.atomic():
            match = services._match_create(player=player, mode=Match.Mode.BOT, level="easy",
                                           target=1, seed=f"review-{n}".encode())
            game = MatchGame.objects.get(match=match, number=1)
            engine = rebuild(game)
            if engine.turn == 0 and any(a.source == "P" for a in engine.legal_actions()):
                return match
            services.match_resign(match=Match.objects.select_for_update().get(pk=match.pk),
                                  game=game, player=player)
    raise AssertionError("no deal of the 200 offers a pay-off play at once")
