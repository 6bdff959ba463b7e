"""Foursquare's dailies on the boards (``games``): scores 0-24, statuses from its games."""

from __future__ import annotations

from datetime import date

from server.boards.games import FOURSQUARE, BoardGame, register
from server.boards.models import MAX_SCORE


def _day_status(viewer, day: date) -> str | None:
    from server.games.dailies import is_playable
    from server.games.models import Game

    status = (Game.objects.filter(player=viewer, daily_id=day, mode=Game.Mode.DAILY)
              .values_list("status", flat=True).first())
    if status == Game.Status.PLAYING and not is_playable(day):
        return Game.Status.UNFINISHED  # over, though the worker may not have marked it yet
    return status


register(BoardGame(name=FOURSQUARE, prefix="", min_score=0, max_score=MAX_SCORE,
                   day_status=_day_status))
