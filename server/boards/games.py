"""The games whose dailies the boards rank, each declared once by data.

A board belongs to one game: its key starts with the game's ``prefix`` (none for Foursquare,
whose keys predate the second game: ``2026-11-29``; ``spite-malice/2026-11-29`` for Spite &
Malice). A game declares the range of its daily scores (the day board's distribution lists
each of them), how to tell a viewer's status on a day board (won, lost, playing, unfinished)
from its own tables, a day board's reference line if it has one, and its section of a
player's statistics. Every board's counters, ranks and pages are the same code for every
game.

Each game registers itself from its app's ``ready()``, as Django's contrib apps register with
the admin: this module, and the boards app, import no game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

FOURSQUARE = "foursquare"


@dataclass(frozen=True)
class BoardGame:
    name: str  # as the API names it: ``game=foursquare``
    prefix: str  # of its boards' keys
    min_score: int
    max_score: int
    # (viewer, day) -> the viewer's status on the day board when they hold no win there:
    # "lost", "playing", "unfinished", or None if they did not start that daily.
    day_status: Callable[[object, date], str | None]
    # day -> the day board's reference line (Foursquare's bot), or None for no line.
    reference: Callable[[date], dict] | None = None
    # player -> the game's section of the player's statistics, shaped as ``stats_output``
    # describes it; ``stats_field`` names the section (None: merged into the top level, as
    # Foursquare's statistics predate the second game's).
    stats: Callable[[object], dict] | None = None
    stats_output: Any = None  # a serializer class, for the schema
    stats_field: str | None = None
    stats_help: str = ""


_GAMES: dict[str, BoardGame] = {}


def register(game: BoardGame) -> None:
    _GAMES[game.name] = game


def board_game(name: str) -> BoardGame:
    """The game called ``name`` (each app registers its own when Django starts)."""
    return _GAMES[name]


def names() -> list[str]:
    """Every game's name, Foursquare first."""
    return sorted(_GAMES, key=lambda name: (name != FOURSQUARE, name))


def game_of_key(key: str) -> BoardGame:
    """The game a board's key belongs to."""
    for game in _GAMES.values():
        if game.prefix and key.startswith(game.prefix):
            return game
    return _GAMES[FOURSQUARE]
