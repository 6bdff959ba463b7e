"""Foursquare on the shared boards: its dailies declared to them once (scores 0-24, a viewer's
status on a day, the bot's reference line on a day board) and its section of a player's
statistics, registered when Django starts (``FoursquareConfig.ready``). Its keys have no
prefix: they predate the second game (``2026-11-29``)."""

from __future__ import annotations

from datetime import date

from server.boards.games import FOURSQUARE, BoardGame, register
from server.boards.models import MAX_SCORE
from server.boards.selectors import day_ranks
from server.boards.streaks import streaks
from server.core.sql import db_value, read_row
from server.dailies.calendar import current_dates, daily_number, is_playable
from server.foursquare import services
from server.foursquare.analysis import BOT_NAME
from server.foursquare.models import Daily, Game, Race, Racer

RECENT_RESULTS = 10

# A day board's two reads of this game's tables, on every day board a viewer or visitor opens:
# hand-written (server.core.sql.read_row), the ORM's query costing five times the statement.
# A player holds one daily game a date (game_one_daily_per_player_and_date).
_DAY_STATUS_SQL = (f'SELECT "status" FROM "{Game._meta.db_table}" '
                   'WHERE "player_id" = %s AND "daily_id" = %s AND "mode" = %s')
_REFERENCE_SQL = f'SELECT "bot_status", "bot_score" FROM "{Daily._meta.db_table}" WHERE "date" = %s'


def _day_status(viewer, day: date) -> str | None:
    row = read_row(Game, _DAY_STATUS_SQL, [db_value(Game, "player", viewer.pk),
                                           db_value(Game, "daily", day), Game.Mode.DAILY.value])
    status = row[0] if row is not None else None
    if status == Game.Status.PLAYING and not is_playable(day):
        return Game.Status.UNFINISHED  # over, though the worker may not have marked it yet
    return status


def player_stats(player) -> dict:
    """A player's dailies: counts, streaks, scores of the wins and the latest results."""
    games = list(Game.objects.filter(player=player, mode=Game.Mode.DAILY)
                 .values_list("daily__number", "daily_id", "status", "score", "finished_at",
                              "ranked")
                 .order_by("-daily__number"))
    first_open = daily_number(current_dates()[0])
    streak = streaks([(number, status) for number, _, status, _, _, _ in games],
                     first_open=first_open)
    won = [score for _, _, status, score, _, _ in games
           if status == Game.Status.WON and score is not None]  # a won game has its score
    distribution = dict.fromkeys(range(MAX_SCORE + 1), 0)
    for score in won:
        distribution[score] += 1
    recent = games[:RECENT_RESULTS]
    ranks = day_ranks([(day, score) for _, day, status, score, _, ranked in recent
                       if status == Game.Status.WON and ranked and score is not None])
    return {
        "races": race_stats(player),
        "played": len(games),
        "won": len(won),
        "win_percent": round(100 * len(won) / len(games)) if games else None,
        "current_win_streak": streak.current_win,
        "longest_win_streak": streak.longest_win,
        "current_played_streak": streak.current_played,
        "longest_played_streak": streak.longest_played,
        "distribution": distribution,
        "recent": [
            {"date": day, "number": number, "status": status, "score": score,
             "rank": ranks.get(day), "finished_at": finished_at, "ranked": ranked}
            for number, day, status, score, finished_at, ranked in recent
        ],
    }


def race_stats(player) -> dict:
    """A player's finished races: how many, how many won (first place), the best place."""
    places = [place for place in Racer.objects.filter(
        player=player, race__status=Race.Status.FINISHED, place__isnull=False,
    ).values_list("place", flat=True) if place is not None]  # (the filter's, for the checker)
    return {"played": len(places), "won": places.count(1),
            "best": min(places) if places else None}


def stats_section(player) -> dict:
    """Foursquare's part of a player's statistics, as the API shows it (a daily whose date
    closed counts as over first)."""
    from server.foursquare.serializers import stats_output

    services.dailies_close(player=player)
    return stats_output(player_stats(player))


def daily_reference(day: date) -> dict:
    """The bot's result on a daily: the day board's reference line, never an entry."""
    result = read_row(Daily, _REFERENCE_SQL, [db_value(Daily, "date", day)])
    status, score = result if result is not None else ("", None)
    return {"name": BOT_NAME, "status": status or None, "score": score}


def register_boards() -> None:
    from server.foursquare.serializers import FoursquareStatsOutput

    register(BoardGame(name=FOURSQUARE, prefix="", min_score=0, max_score=MAX_SCORE,
                       day_status=_day_status, reference=daily_reference,
                       stats=stats_section, stats_output=FoursquareStatsOutput,
                       stats_field=None))
