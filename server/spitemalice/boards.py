"""Spite & Malice dailies on the shared boards: the game declared to them once (its keys'
prefix, points 1-20, a viewer's status on a day), and a finished daily handed over as the
result the boards count.

A daily's result is the person's: a win scores the bot's pay-off cards left (the game's
points); a loss, a tie or a resignation holds no rank. The bot's own result never counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from server.boards import services
from server.boards.games import BoardGame
from server.boards.games import register as register_game
from server.core.queries import one_or_none
from server.core.sql import db_value, read_row
from server.dailies.calendar import is_playable
from server.spitemalice.models import MAX_POINTS, Match, MatchGame

GAME = "spite-malice"
PREFIX = "spite-malice/"

player_ranked_on = services.player_ranked_on


@dataclass(frozen=True)
class Result:
    """A daily match as the boards read a result."""

    player_id: object
    daily_id: date | None  # a daily match's: the boards refuse a match without one
    ranked: bool
    status: str
    score: int | None
    finished_at: datetime | None


def _result(match: Match) -> Result:
    won = match.is_over and match.winner == 0 and match.reason == Match.Reason.TARGET
    points = None
    if won:
        points = one_or_none(MatchGame.objects.filter(match=match, number=1)
                             .values_list("points", flat=True))
    return Result(player_id=match.player0_id, daily_id=match.daily, ranked=match.ranked,
                  status="won" if won else "lost", score=points, finished_at=match.finished_at)


def daily_start_record(match: Match) -> None:
    services.daily_start_record(game=_result(match), board_game=GAME)


def daily_result_record(match: Match) -> None:
    services.daily_result_record(game=_result(match), board_game=GAME)


# A day board's read of the viewer's daily, hand-written (server.core.sql.read_row): the ORM's
# query costs five times the statement. One daily match a player and date
# (sm_match_one_daily_per_player_and_date).
_DAY_STATUS_SQL = (f'SELECT "status", "winner", "reason" FROM "{Match._meta.db_table}" '
                   'WHERE "player0_id" = %s AND "daily" = %s AND "mode" = %s')


def day_status(viewer, day: date) -> str | None:
    """The viewer's daily of ``day`` as a day board names it, when they hold no win there."""
    match = read_row(Match, _DAY_STATUS_SQL, [db_value(Match, "player0", viewer.pk),
                                              db_value(Match, "daily", day),
                                              Match.Mode.DAILY.value])
    if match is None:
        return None
    status, winner, reason = match
    if status != Match.Status.FINISHED:
        return "playing" if is_playable(day) else "unfinished"
    if reason == Match.Reason.UNFINISHED:
        return "unfinished"
    return "won" if winner == 0 else "lost"


def stats_section(player) -> dict:
    """Spite & Malice's part of a player's statistics, with its rating (a daily whose date
    closed counts as over first)."""
    from server.ratings import selectors as ratings
    from server.spitemalice import selectors, services

    services.dailies_close(player=player)
    return {**selectors.player_stats(player), "rating": ratings.rating_of(player, GAME)}


def register() -> None:
    from server.spitemalice.serializers.outputs import SpiteMaliceStatsOutput

    register_game(BoardGame(name=GAME, prefix=PREFIX, min_score=1, max_score=MAX_POINTS,
                            day_status=day_status, stats=stats_section,
                            stats_output=SpiteMaliceStatsOutput, stats_field="spite_malice",
                            stats_help="Spite & Malice: matches, games, dailies."))
