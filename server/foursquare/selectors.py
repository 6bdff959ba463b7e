"""Reads on games."""

from __future__ import annotations

from datetime import date
from uuid import UUID

from django.db.models import QuerySet

from server.core.queries import one_or_none
from server.foursquare import services
from server.foursquare.models import Game, GameAnalysis
from server.foursquare.problems import ChallengeNotFound, GameNotFound
from server.foursquare.races import services as race_services
from server.players.models import Player


def _games(player: Player) -> QuerySet[Game]:
    return Game.objects.filter(player=player).select_related("deal", "daily", "race")


def games_of(player: Player) -> QuerySet[Game]:
    """The player's games, with what the clocks say applied first: their dailies whose date
    closed end ``unfinished``, and so do their races whose time is up."""
    services.dailies_close(player=player)
    race_services.player_races_close_due(player)
    return _games(player)


def game_of(player: Player, game_id: UUID | str) -> Game:
    """The player's own game; any other game, or none, is a 404 (never a 403 that leaks it).
    What the clocks say is applied first (``settle``), so every read shows it as it stands."""
    game = _game_read(player, game_id)
    if settle(game):
        game = _game_read(player, game_id)
    return game


def _game_read(player: Player, game_id: UUID | str) -> Game:
    game = one_or_none(_games(player).filter(pk=game_id))
    if game is None:
        raise GameNotFound()
    return game


def settle(game: Game) -> bool:
    """Apply what the clocks say to ``game`` as just read: a daily whose date closed ends
    ``unfinished``, a race whose time is up finishes. Whether anything changed (read it
    again then); no query when nothing is due."""
    return services.daily_close_if_due(game) or race_services.game_race_close_if_due(game)


def daily_game_of(player: Player, day: date) -> Game | None:
    """The player's game of the daily of ``day``, if they started it (``settle``d)."""
    game = _daily_game_read(player, day)
    if game is not None and settle(game):
        game = _daily_game_read(player, day)
    return game


def _daily_game_read(player: Player, day: date) -> Game | None:
    return one_or_none(Game.objects.filter(player=player, daily_id=day, mode=Game.Mode.DAILY)
                       .select_related("deal", "daily"))


def analysis_of(game: Game) -> GameAnalysis | None:
    return one_or_none(GameAnalysis.objects.filter(game=game))


def challenge_of(game_id: UUID | str) -> Game:
    """A finished practice or archive game, as its challenge link names it; any other game (a
    daily, one still being played, or none) is a 404, so a link shows no result it cannot
    back."""
    game = one_or_none(
        Game.objects.filter(pk=game_id, mode__in=[Game.Mode.PRACTICE, Game.Mode.ARCHIVE],
                            status__in=[Game.Status.WON, Game.Status.LOST])
        .select_related("player"))
    if game is None:
        raise ChallengeNotFound()
    return game
