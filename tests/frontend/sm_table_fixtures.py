"""Record whole Spite & Malice matches as the server tells them to each seat, for the browser
table model's property test (``tests/frontend/sm-table-sync.test.mjs``).

Each match is played through the server's own code - ``server.spitemalice.engine.Log`` writes
the events (each seat's copy, a turn's ``table`` included) and ``services.advance`` carries
the match on (games over, the next deal, the match's end) - on match and game rows that are
never saved, so no database is needed. After every request (one action, or the join's first
deal) a step records what each seat's feed gained and that seat's match as ``GET
/matches/{id}`` would show it then (``shapes.game_view``: the seat's ``player_view``).

Inputs: games of the shared vectors (``tests/spitemalice/vectors/``, the repository's copy of
``../shared/spite-malice-vectors/``, each replayed as a
single-game match) and fresh matches whose actions the house bot chooses for both seats.
Everything is deterministic: the same command writes the same file.

    .venv/bin/python tests/frontend/sm_table_fixtures.py OUT.json [--vectors DIR] [--fresh N]

``make test-js`` runs it before ``node --test``; the node test runs it itself when its file
is missing (docs/TESTING.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")

import django  # noqa: E402

django.setup()

from server.spitemalice.engine import Log, rebuild  # noqa: E402
from server.spitemalice.models import Match, MatchGame  # noqa: E402
from server.spitemalice.services import advance  # noqa: E402
from server.spitemalice.shapes import game_view  # noqa: E402
from spitemalice import Game, game_seed, player_view, unseen_cards  # noqa: E402
from spitemalice.bot import bot_turn  # noqa: E402

# The shared vectors, as the repository holds them.
VECTORS = ROOT / "tests" / "spitemalice" / "vectors"
# A handful of vector games: a win, ties, long and short ones (their order is the file names').
VECTOR_GAMES = 4
VECTOR_LONGEST = 300  # actions: the longest games add time, not cases
FRESH_MATCHES = 2
FRESH_TARGET = 10  # several games, so deals between games are covered


def seat_events(log: Log, seat: int) -> list[dict[str, Any]]:
    """The events ``log`` stored, as ``seat``'s feed gives them (``selectors.events_page``)."""
    return [{"number": event.number, "kind": event.kind, **getattr(event, f"seat{seat}")}
            for event in log.events]


def seat_match(match: Match, game: MatchGame, engine: Game, seat: int) -> dict[str, Any]:
    """The fields of ``shapes.match_output`` the table shows, as ``seat`` reads them now."""
    return {
        "you": seat,
        "status": match.status,
        "target": match.target,
        "winner": match.winner,
        "reason": match.reason or None,
        "event": match.event,
        "seats": [{"seat": other, "score": match.scores[other]} for other in (0, 1)],
        "game": game_view(game, engine, seat, match_over=match.is_over),
    }


class Recorder:
    """One match between two people (no clock), played request by request."""

    def __init__(self, name: str, *, target: int, match_seed: bytes,
                 first_game_seed: bytes | None = None) -> None:
        self.name = name
        self.match = Match(mode=Match.Mode.FRIEND, target=target, seed=match_seed.hex(),
                           status=Match.Status.PLAYING, bot_seat=None, turn_seconds=None)
        seed = first_game_seed or game_seed(match_seed, 0)
        self.game = MatchGame(match=self.match, number=1, seed=seed.hex())
        self.steps: list[dict[str, Any]] = []
        engine = Game(seed)
        log = Log(self.match, by=0)
        log.dealt(engine, 1)
        self.game = advance(match=self.match, game=self.game, engine=engine, log=log,
                            new_games=[])
        self._record(None, log)

    @property
    def playing(self) -> bool:
        return self.match.status == Match.Status.PLAYING

    def engine(self) -> Game:
        return rebuild(self.game)

    def play(self, action: list[str]) -> None:
        engine = self.engine()
        seat = self.match.turn
        log = Log(self.match, by=seat)
        log.play(engine, action, self.game.number)
        self.game = advance(match=self.match, game=self.game, engine=engine, log=log,
                            new_games=[])
        self._record(action, log)

    def _record(self, action: list[str] | None, log: Log) -> None:
        engine = self.engine()
        self.steps.append({
            "action": action,
            "events": [seat_events(log, seat) for seat in (0, 1)],
            "views": [seat_match(self.match, self.game, engine, seat) for seat in (0, 1)],
        })

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "target": self.match.target, "steps": self.steps}


def vector_match(path: Path) -> Recorder | None:
    data = json.loads(path.read_text(encoding="utf-8"))
    if "final" not in data or len(data["actions"]) > VECTOR_LONGEST:
        return None  # a vector of a refused record, not a game; or a long one
    seed = bytes.fromhex(data["seed"])
    recorder = Recorder(path.stem, target=1, match_seed=hashlib.sha256(seed).digest(),
                        first_game_seed=seed)
    for action in data["actions"]:
        if not recorder.playing:
            break
        recorder.play(list(action))
    return recorder


def fresh_match(index: int) -> Recorder:
    seed = hashlib.sha256(f"sm-table-fixture-{index}".encode()).digest()
    recorder = Recorder(f"fresh-{index}", target=FRESH_TARGET, match_seed=seed)
    while recorder.playing:
        engine = recorder.engine()
        seat = engine.turn
        view = player_view(engine, seat, since=engine.actions_played)
        for action in bot_turn(view, unseen_cards(view), "easy", seed):
            recorder.play(list(action))
            if not recorder.playing or recorder.match.turn != seat:
                break
    return recorder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--vectors", type=Path, default=VECTORS)
    parser.add_argument("--games", type=int, default=VECTOR_GAMES,
                        help="how many vector games (default %(default)s)")
    parser.add_argument("--fresh", type=int, default=FRESH_MATCHES,
                        help="how many fresh matches (default %(default)s)")
    args = parser.parse_args(argv)
    matches = []
    for path in sorted(args.vectors.glob("*.json")):
        if len(matches) >= args.games:
            break
        recorder = vector_match(path)
        if recorder is not None:
            matches.append(recorder.to_json())
    matches += [fresh_match(index).to_json() for index in range(args.fresh)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"matches": matches}, separators=(",", ":")),
                        encoding="utf-8")


if __name__ == "__main__":
    main()
