"""Building Spite & Malice positions for tests, and the shared vectors."""

from __future__ import annotations

import json
from pathlib import Path

from spitemalice import Game, Position

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*.json"))


def load_vector(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def position_game(**parts) -> Game:
    """A game in the position described by ``parts`` (``Position.build``'s keywords); the cards
    not placed anywhere make up the stock unless ``stock`` is given. Pay-off piles default to
    one card each, so the game is on."""
    parts.setdefault("payoffs", (["9C"], ["9D"]))
    return Game.from_position(Position.build(**parts))


def snapshot(game: Game) -> tuple:
    """Everything about a game's position and history, for exact comparisons."""
    return game.position(), game.history, game.legal_actions()
