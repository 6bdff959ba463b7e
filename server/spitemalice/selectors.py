"""Reads on Spite & Malice matches: a player's matches, one match, its events, a game."""

from __future__ import annotations

from django.db.models import Case, IntegerField, Q, Value, When

from server.spitemalice.models import Event, Match, MatchGame
from server.spitemalice.problems import GameNotFound, MatchNotFound

EVENTS_PER_PAGE = 1000


def matches_of(player):
    """The player's matches, those waiting for their action first, then the latest first."""
    yours = Q(player0=player) | Q(player1=player)
    waiting = (Q(player0=player, turn=0) | Q(player1=player, turn=1)) & Q(
        status=Match.Status.PLAYING)
    return (Match.objects.filter(yours).select_related("player0", "player1")
            .annotate(waiting=Case(When(waiting, then=Value(1)), default=Value(0),
                                   output_field=IntegerField()))
            .order_by("-waiting", "-updated_at", "-id"))


def match_of(player, match_id) -> Match:
    match = (Match.objects.select_related("player0", "player1").filter(pk=match_id)
             .filter(Q(player0=player) | Q(player1=player)).first())
    if match is None:
        raise MatchNotFound()
    return match


def current_game(match: Match) -> MatchGame:
    return MatchGame.objects.get(match=match, number=match.game_number)


def game_of(match: Match, number: int) -> MatchGame:
    game = MatchGame.objects.filter(match=match, number=number).first()
    if game is None:
        raise GameNotFound(f"The match has no game {number}: it has played "
                           f"{match.game_number}.")
    return game


def events_of(match: Match, seat: int, after: int) -> tuple[list[dict], int]:
    """The events after number ``after`` as ``seat`` sees them (at most EVENTS_PER_PAGE), and
    the number to ask after next time."""
    rows = (Event.objects.filter(match=match, number__gt=after).order_by("number")
            .values_list("number", "kind", f"seat{seat}")[:EVENTS_PER_PAGE])
    events = [{"number": number, "kind": kind, **seen} for number, kind, seen in rows]
    last = events[-1]["number"] if events else min(after, match.event)
    return events, last


def daily_match_of(player, day):
    return (Match.objects.select_related("player0", "player1")
            .filter(player0=player, mode=Match.Mode.DAILY, daily=day).first())
