"""The three kinds of board and the key that names each one.

A daily game counts on three boards at once: its date's (``"2026-11-29"``), its ISO week's
(``"2026-W48"``) and all time (``"all"``). The week is the daily's, not the finish time's: a
daily finished after midnight still counts for the day and the week it was dealt for.

Each period has two boards. The one named by the plain key counts every player's dailies: a
league's board reads it, among its members. The *ranked* one (the key with ``RANKED_SUFFIX``,
``"2026-11-29:ranked"``) counts only the dailies that were ranked when they started, those of
trusted accounts (``services.player_ranked_on``): the global boards read it.

Each game's boards are its own: a key starts with the game's prefix (``games``), none for
Foursquare (``"2026-11-29"``), ``"spite-malice/"`` for Spite & Malice
(``"spite-malice/2026-11-29:ranked"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from django.conf import settings

from server.boards.games import FOURSQUARE, board_game


class Period(StrEnum):
    DAY = "day"
    WEEK = "week"
    ALL = "all"


ALL_KEY = "all"
RANKED_SUFFIX = ":ranked"


def day_key(day: date) -> str:
    return day.isoformat()


def week_key(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def keys_of_daily(day: date, game: str = FOURSQUARE) -> tuple[str, str, str]:
    """The boards every daily game of ``day`` counts on: its day, week and all time."""
    prefix = board_game(game).prefix
    return prefix + day_key(day), prefix + week_key(day), prefix + ALL_KEY


def ranked_key(key: str) -> str:
    """The ranked board of the period that ``key`` names."""
    return key + RANKED_SUFFIX


def keys_of_game(day: date, ranked: bool, game: str = FOURSQUARE) -> tuple[str, ...]:
    """The boards a daily game of ``day`` counts on: the three of ``keys_of_daily``, and
    their ranked boards too if the game is ranked."""
    keys = keys_of_daily(day, game)
    return keys + tuple(ranked_key(key) for key in keys) if ranked else keys


@dataclass(frozen=True)
class BoardRef:
    """One board as a request names it: its period, the date asked for and the game."""

    period: Period
    day: date
    game: str = FOURSQUARE

    @property
    def key(self) -> str:
        prefix = board_game(self.game).prefix
        if self.period is Period.DAY:
            return prefix + day_key(self.day)
        if self.period is Period.WEEK:
            return prefix + week_key(self.day)
        return prefix + ALL_KEY

    @property
    def ranked_key(self) -> str:
        """The key of the period's ranked board, the one the global boards show."""
        return ranked_key(self.key)

    @property
    def start(self) -> date:
        if self.period is Period.DAY:
            return self.day
        if self.period is Period.WEEK:
            return self.day - timedelta(days=self.day.weekday())
        return settings.FOURSQUARE_LAUNCH_DATE

    @property
    def end(self) -> date | None:
        """The last date of the period; ``None`` for all time, which has not ended."""
        if self.period is Period.DAY:
            return self.day
        if self.period is Period.WEEK:
            return self.start + timedelta(days=6)
        return None
