"""A match: games dealt one after another from a match seed, points added up, first to the
target (50 by default) wins. Seats stay fixed; who starts each game follows "Who starts".

Game *i* (0, 1, …) of a match is dealt from
``HMAC-SHA256(key=match seed, msg=b"spite-malice-match/v1" + i.to_bytes(8, "big"))``, 32 bytes.
HMAC is a pseudo-random function of its key, so a finished game's seed, revealed in its
record, tells nothing about the next game's seed without the match seed, which the server
keeps to itself until the match is over.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from spitemalice.errors import IllegalActionError
from spitemalice.game import PLAYING, WON, Game, PlayResult

MATCH_LABEL = b"spite-malice-match/v1"
DEFAULT_TARGET = 50


def game_seed(match_seed: bytes, index: int) -> bytes:
    """The seed of game ``index`` (0 for the first) of the match dealt from ``match_seed``."""
    message = MATCH_LABEL + index.to_bytes(8, "big")
    return hmac.new(bytes(match_seed), message, hashlib.sha256).digest()


class Match:
    """Games between seats 0 and 1 until one has ``target`` points or more.

    ``game`` is the game being played (or the one just finished); ``play()`` plays on it, and
    once it is over and the match is not, ``next_game()`` deals the next one.
    """

    def __init__(self, seed: bytes, target: int = DEFAULT_TARGET) -> None:
        if not isinstance(seed, bytes | bytearray):
            raise TypeError(f"a seed is bytes, not {type(seed).__name__}")
        if target < 1:
            raise ValueError(f"a match's target is at least 1 point, not {target!r}")
        self.seed = bytes(seed)
        self.target = target
        self.games: list[Game] = [Game(game_seed(self.seed, 0))]

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def scores(self) -> list[int]:
        """Both seats' points so far: each won game adds the winner's points; ties add none."""
        scores = [0, 0]
        for game in self.games:
            if game.status == WON:
                scores[game.winner] += game.points  # type: ignore[index,operator]
        return scores

    @property
    def status(self) -> str:
        """``"playing"`` until a seat reaches the target, then ``"won"``."""
        return WON if max(self.scores) >= self.target else PLAYING

    @property
    def winner(self) -> int | None:
        scores = self.scores
        if max(scores) < self.target:
            return None
        return 0 if scores[0] >= self.target else 1

    def play(self, action: Sequence[str]) -> PlayResult:
        """Play ``action`` in the current game (see ``Game.play``)."""
        return self.game.play(action)

    def next_game(self) -> Game:
        """Deal the next game; only once the current one is over and the match is not."""
        if self.game.status == PLAYING:
            raise IllegalActionError(f"game {len(self.games) - 1} of the match is still on")
        if self.status != PLAYING:
            raise IllegalActionError(f"the match is over: seat {self.winner} won")
        self.games.append(Game(game_seed(self.seed, len(self.games))))
        return self.game

    def to_json(self) -> dict[str, object]:
        """The match as a record: its seed, target, and each game's actions."""
        return {
            "seed": self.seed.hex(),
            "target": self.target,
            "games": [[list(action) for action in game.actions] for game in self.games],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """A match replayed from ``to_json()``'s form; ``ValueError`` naming a bad action."""
        match = cls(bytes.fromhex(data["seed"]), int(data.get("target", DEFAULT_TARGET)))
        games: list[list[Sequence[str]]] = data.get("games", [])
        for index, actions in enumerate(games):
            if index:
                match.next_game()
            for action in actions:
                try:
                    match.play(action)
                except ValueError as error:
                    raise type(error)(f"game {index}, {error}") from None
        return match

    def __repr__(self) -> str:
        return (f"<Match {self.status} {self.scores[0]}-{self.scores[1]} of {self.target}, "
                f"game {len(self.games) - 1}>")
