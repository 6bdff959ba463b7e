"""What each game tells the log about its dailies, registered from its app's ``ready()``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True)
class DailyDeal:
    """A date's deal as the game serves it."""

    attempt: int
    seed: str  # hex, 64 digits
    deck: list[str]  # the deal as served, in the game's card notation
    first_played_at: datetime | None  # the first game of it started, if any


@dataclass(frozen=True)
class FairGame:
    name: str
    # The deals of these dates that are dealt (one query for a page).
    dailies: Callable[[Iterable[date]], dict[date, DailyDeal]]


_games: dict[str, FairGame] = {}


def register(game: FairGame) -> None:
    _games[game.name] = game


def game_of(name: str) -> FairGame | None:
    return _games.get(name)


def names() -> list[str]:
    return sorted(_games)
