"""Building positions for engine tests from decks and records."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from foursquare import ALL_CARDS, Card, Game

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*.json"))


def load_vector(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def deck_starting_with(*codes: str) -> list[Card]:
    """A full deck whose first cards are ``codes``, the rest in canonical order."""
    head = [Card.parse(code) for code in codes]
    return head + [card for card in ALL_CARDS if card not in head]


def game_after(codes: Iterable[str], moves: Iterable[tuple[int, int]]) -> Game:
    """A game whose first cards are ``codes``, after playing ``moves``."""
    game = Game(deck_starting_with(*codes))
    for move in moves:
        game.play(move)
    return game
