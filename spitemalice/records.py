"""Game records: the seed plus the actions played, as one line of JSON.

``{"seed": "<hex>", "actions": [["P", "C0"], ["7H", "S3"], …]}`` (SPITE_MALICE.md). A record
can be loaded, dumped and replayed; replaying stops at the first illegal action and says which.

A record is malformed (``ParseError``) only if it is not an object with a hex ``seed`` and a
list of ``actions``. An action that is not a well-formed ``[source, target]`` pair is kept as
written and rejected when replayed, like an illegal one, so its index is reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from spitemalice.actions import Action
from spitemalice.errors import ParseError
from spitemalice.game import Game, PlayResult


@dataclass(frozen=True)
class Record:
    seed: bytes
    actions: tuple[object, ...] = ()  # Actions, or what was written where one is malformed

    @classmethod
    def from_game(cls, game: Game) -> Record:
        return cls(game.seed, tuple(game.actions))

    @classmethod
    def from_json(cls, data: object) -> Record:
        """A record from parsed JSON; raises ``ParseError`` saying what is wrong."""
        if not isinstance(data, dict):
            raise ParseError(f"a record is a JSON object, not {type(data).__name__}")
        if "seed" not in data:
            raise ParseError('a record needs a "seed"')
        seed = data["seed"]
        try:
            seed_bytes = bytes.fromhex(seed) if isinstance(seed, str) else None
        except ValueError:
            seed_bytes = None
        if seed_bytes is None:
            raise ParseError(f'"seed" is a string of hex digits, not {seed!r}')
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise ParseError(f'"actions" is a list of [source, target] pairs, not {actions!r}')
        return cls(seed_bytes, tuple(_action_or_raw(action) for action in actions))

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed.hex(),
            "actions": [list(action) if isinstance(action, tuple) else action
                        for action in self.actions],
        }


def _action_or_raw(value: object) -> object:
    try:
        return Action.parse(value)
    except ParseError:
        return value


@dataclass
class Replay:
    """The outcome of replaying a record."""

    game: Game
    results: list[dict[str, object]] = field(default_factory=list)  # the "expect" entries
    error: str | None = None  # the message of the first illegal action, if any
    error_index: int | None = None  # its index in the record's actions

    def to_json(self) -> dict[str, object]:
        if self.error is not None:
            return {"error": self.error, "action_index": self.error_index}
        return {
            "results": self.results,
            "status": self.game.status,
            "winner": self.game.winner,
            "points": self.game.points,
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


def replay(record: Record, *, upto: int | None = None) -> Replay:
    """Play a record's actions in order (the first ``upto`` of them if given), stopping at the
    first illegal one; each result is the vectors' ``expect`` entry for that action."""
    game = Game(record.seed)
    outcome = Replay(game)
    actions = record.actions if upto is None else record.actions[:upto]
    for index, action in enumerate(actions):
        try:
            result: PlayResult = game.play(action)  # type: ignore[arg-type]
        except ValueError as error:
            outcome.error, outcome.error_index = str(error), index
            break
        outcome.results.append(result.to_json(game.state_json()))
    return outcome
