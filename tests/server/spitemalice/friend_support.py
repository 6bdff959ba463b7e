"""Two people in a Spite & Malice match through the API: inviting, joining, taking turns."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from server.spitemalice.models import Match
from tests.server.spitemalice.support import act, greedy, url

MATCHES = "spite-malice/matches"


def invite(api, turn_seconds=86400, target=50, **extra) -> dict:
    response = api.post(MATCHES, {"opponent": "friend", "turn_seconds": turn_seconds,
                                  "target": target, **extra})
    assert response.status_code == 201, response.content
    return response.json()


def join(api, code: str):
    return api.post(f"{MATCHES}/join", {"code": code})


def pair(make_player, turn_seconds=86400, target=50, names=("Ada", "Bob"),
         first_turns=False):
    """Ada invites, Bob joins: ({seat: api}, the match as each seat sees it). With
    ``first_turns``, both seats have played their first turns (a rated match: the first
    ``RATED_MIN_TURNS`` each): the match can no longer be aborted, so leaving it loses it."""
    _, ada = make_player(names[0])
    _, bob = make_player(names[1])
    match = invite(ada, turn_seconds=turn_seconds, target=target)
    response = join(bob, match["invite"]["code"])
    assert response.status_code == 200, response.content
    apis = {0: ada, 1: bob}
    views = {seat: apis[seat].get(url(match)).json() for seat in (0, 1)}
    if first_turns:
        views = past_aborting(apis, views)
        assert views[0]["abortable"] is False and views[0]["status"] == "playing"
    return apis, views


def past_aborting(apis: dict, views: dict) -> dict:
    """Turns played until leaving the match would lose it rather than abort it."""
    while views[0]["abortable"] and views[0]["status"] == "playing":
        views = take_turn(apis, views)
    return views


def whose_turn(views: dict) -> int:
    return views[0]["game"]["turn"]


def take_turn(apis: dict, views: dict) -> dict:
    """The seat to play plays greedily until its turn ends (a discard): both seats' views."""
    seat = whose_turn(views)
    view = views[seat]
    while view["status"] == "playing" and view["game"]["turn"] == seat:
        response = act(apis[seat], view, greedy(view["game"]))
        assert response.status_code == 200, response.content
        view = response.json()
    return {seat: view, 1 - seat: apis[1 - seat].get(url(view)).json()}


def overdue(match_id, seconds=1) -> None:
    """Let the current turn's deadline pass (as if ``seconds`` had gone by past it)."""
    Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=seconds))


def aged(match_id, days=7) -> None:
    """Make the match ``days`` days (and a second) old."""
    Match.objects.filter(pk=match_id).update(
        created_at=timezone.now() - timedelta(days=days, seconds=1))


def kinds(api, match: dict, after=0) -> list[str]:
    feed = api.get(url(match, "/events"), {"after": after}).json()
    return [event["kind"] for event in feed["events"]]


def first_turns_play(match: Match) -> Match:
    """Both seats of ``match`` (started between people) play their first turn greedily through
    the service, so that leaving the match now loses it rather than aborts it. Reloaded."""
    from django.db import transaction

    from server.spitemalice import services
    from server.spitemalice.shapes import match_output

    while True:
        with transaction.atomic():
            locked, game = services.match_lock(player=match.player0, match_id=match.pk)
            if not locked.is_abortable(game):
                break
            seat = locked.turn
            view = match_output(locked, seat, game)
            services.action_play(match=locked, game=game,
                                 player=(locked.player0, locked.player1)[seat],
                                 action=greedy(view["game"]), expected_game=None,
                                 expected_actions=None)
    match.refresh_from_db()
    return match


def friend_match(player, opponent, *, target: int, **options) -> Match:
    """A match between two people, seated and past both first turns (the service's shortcut)."""
    from server.spitemalice import services

    return first_turns_play(services.match_start_friend(player=player, opponent=opponent,
                                                        target=target, **options))
