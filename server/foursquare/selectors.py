"""Reads on games."""

from __future__ import annotations

from django.db.models import QuerySet

from server.foursquare.models import Game, GameAnalysis
from server.foursquare.problems import ChallengeNotFound, GameNotFound


def games_of(player) -> QuerySet[Game]:
    return Game.objects.filter(player=player).select_related("deal", "daily", "race")


def game_of(player, game_id) -> Game:
    """The player's own game; any other game, or none, is a 404 (never a 403 that leaks it)."""
    game = games_of(player).filter(pk=game_id).first()
    if game is None:
        raise GameNotFound()
    return game


def analysis_of(game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game).first()


def challenge_of(game_id) -> Game:
    """A finished practice or archive game, as its challenge link names it; any other game (a
    daily, one still being played, or none) is a 404, so a link shows no result it cannot
    back."""
    game = (Game.objects.filter(pk=game_id, mode__in=[Game.Mode.PRACTICE, Game.Mode.ARCHIVE],
                                status__in=[Game.Status.WON, Game.Status.LOST])
            .select_related("player").first())
    if game is None:
        raise ChallengeNotFound()
    return game
