"""Game records: a deal plus the moves played, as one line of JSON.

``{"deck": ["7H", "AS", …40 codes], "moves": [[0, 0], [0, 1], …]}`` (RULES.md). A record can
be loaded, dumped and replayed; replaying stops at the first illegal move and says which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foursquare.cards import Card, deck_codes, parse_deck
from foursquare.errors import ParseError
from foursquare.game import Game, MoveResult
from foursquare.geometry import Position, parse_position


@dataclass(frozen=True)
class Record:
    deck: tuple[Card, ...]
    moves: tuple[Position, ...] = ()

    @classmethod
    def from_game(cls, game: Game) -> Record:
        return cls(game.deck, tuple(game.moves))

    @classmethod
    def from_json(cls, data: object) -> Record:
        """A record from parsed JSON; raises ``ParseError`` saying what is wrong."""
        if not isinstance(data, dict):
            raise ParseError(f"a record is a JSON object, not {type(data).__name__}")
        if "deck" not in data:
            raise ParseError("a record needs a \"deck\"")
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise ParseError(f"\"moves\" is a list of [row, col] pairs, not {moves!r}")
        parsed_moves = []
        for index, move in enumerate(moves):
            try:
                parsed_moves.append(parse_position(move))
            except ParseError as error:
                raise ParseError(f"move {index}: {error}") from None
        return cls(parse_deck(data["deck"]), tuple(parsed_moves))

    def to_json(self) -> dict[str, list[Any]]:
        return {"deck": deck_codes(self.deck), "moves": [list(move) for move in self.moves]}


@dataclass
class Replay:
    """The outcome of replaying a record."""

    game: Game
    results: list[MoveResult] = field(default_factory=list)
    error: str | None = None  # the message of the first illegal move, if any
    error_index: int | None = None  # its index in the record's moves

    def to_json(self) -> dict[str, object]:
        if self.error is not None:
            return {"error": self.error, "move_index": self.error_index}
        return {
            "results": [result.to_json() for result in self.results],
            "status": self.game.status,
            "score": self.game.score,
        }


def loads_record(text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(f"not valid JSON: {error}") from None
    return Record.from_json(data)


def load_record(path: str | Path) -> Record:
    return loads_record(Path(path).read_text(encoding="utf-8"))


def dumps_record(record: Record) -> str:
    return json.dumps(record.to_json(), separators=(",", ":"))


def replay(record: Record) -> Replay:
    """Play a record's moves in order, stopping at the first illegal one."""
    game = Game(record.deck)
    outcome = Replay(game)
    for index, move in enumerate(record.moves):
        try:
            outcome.results.append(game.play(move))
        except ValueError as error:
            outcome.error, outcome.error_index = str(error), index
            break
    return outcome
