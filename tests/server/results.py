"""Daily results for the boards' tests, made quickly.

``daily_result`` starts and finishes a daily game through the boards' own hooks, with the
score and finish time a test asks for, ranked as the service would rank it.
``WINNING_RECORD`` is a real deal with a winning line, for games that must be won through the
API; ``game_before_last_move`` sets a daily game up one move from its end.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.utils import timezone

from foursquare import Game as EngineGame
from server.boards import services as boards
from server.dailies import calendar
from server.foursquare import dailies
from server.foursquare.models import Daily, Deal, Game

WINNING_DECK = (
    "6D 3C 9C 4S 7H 9S 9D 6S 7C AS 3S 7D 9H 3D TH 6H TS AD AC 2S 5D 2H 6C 8C 2C 2D 8S TC 5C 5H "
    "4C AH 3H TD 5S 8H 8D 4H 4D 7S"
)
WINNING_MOVES = [
    [0, 0], [0, 0], [0, 0], [0, 0], [-1, 0], [-1, 0], [-2, 0], [-3, 0], [-3, 0], [-3, -1],
    [-3, -1], [-3, -2], [-2, 0], [-3, -3], [-2, -3], [-2, -3], [-2, -3], [-2, -3], [-2, -2],
    [-2, -2], [-3, -1], [-2, -2], [-2, -2], [-1, 0], [-2, -1], [-2, -1], [-1, 0], [-1, -3],
    [-1, -3], [-3, -3], [-2, 0], [-2, -1], [-2, -1], [-1, -3], [-1, -1], [0, -3], [0, -2],
    [0, -3], [0, -1], [-1, -2],
]  # wins with the 40th card: score 0


def daily_result(player, day: date, score: int | None = None, *, status: str | None = None,
                 finished_at: datetime | None = None) -> Game:
    """A daily game of ``player`` on ``day``: won with ``score``, or ``status`` "lost" or
    "playing" when no score is given."""
    status = status or ("won" if score is not None else "lost")
    daily = dailies.daily_get_or_create(day)
    game = Game.objects.create(player=player, mode="daily", daily=daily, deal=daily.deal,
                               ranked=boards.player_ranked_on(player, day))
    boards.daily_start_record(game=game)
    if status != "playing":
        game.status, game.score = status, score
        game.moves_played = 40 - score if score is not None else 40
        game.finished_at = finished_at or timezone.now()
        game.save()
        boards.daily_result_record(game=game)
    return game


def at(seconds: int) -> datetime:
    """A finish time ``seconds`` after a fixed instant, to order ties."""
    return datetime(2026, 11, 29, 12, 0, tzinfo=UTC) + timedelta(seconds=seconds)


def another_day_of_its_week(day: date) -> date:
    """A date of ``day``'s ISO week other than ``day``: its Monday, or the Tuesday when
    ``day`` is that Monday (two results a week apart would otherwise fall on one date)."""
    monday = day - timedelta(days=day.weekday())
    return monday if monday != day else monday + timedelta(days=1)


def winning_daily(day: date | None = None) -> Daily:
    """The daily of ``day`` (default today), dealt with ``WINNING_DECK``."""
    day = day or calendar.utc_today()
    deal = Deal.objects.create(cards=WINNING_DECK)
    return Daily.objects.create(date=day, number=calendar.daily_number(day), deal=deal)


def game_before_last_move(game_id) -> Game:
    """Replay all but the last winning move on the stored game (as if played already)."""
    moves = WINNING_MOVES[:-1]
    Game.objects.filter(pk=game_id).update(move_list=moves, moves_played=len(moves))
    return Game.objects.get(pk=game_id)


def losing_last_move() -> list[int]:
    """A legal last move that loses the winning deal."""
    engine = EngineGame(WINNING_DECK.split())
    for move in WINNING_MOVES[:-1]:
        engine.play(tuple(move))
    for move in engine.legal_moves():
        engine.play(move)
        lost = engine.status == "lost"
        engine.undo()
        if lost:
            return list(move)
    raise AssertionError("every last move wins")
