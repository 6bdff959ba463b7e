"""The command line: ``python -m foursquare replay FILE…``, ``python -m foursquare play`` and
``python -m foursquare verify`` (docs/FAIRNESS.md)."""

from __future__ import annotations

import argparse
import hashlib
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from fairness import verify
from foursquare.dealing import deal
from foursquare.errors import ParseError
from foursquare.game import PLAYING, Game
from foursquare.geometry import REACH
from foursquare.records import load_record, replay

EXIT_OK, EXIT_BAD_FILE, EXIT_ILLEGAL_MOVE = 0, 1, 2


def replay_command(paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """One JSON line per file. Exit 1 if a file could not be read, else 2 if a move was illegal."""
    bad_file = illegal_move = False
    for path in paths:
        try:
            record = load_record(path)
        except (OSError, UnicodeDecodeError, ParseError) as error:
            print(f"foursquare replay: {path}: {error}", file=err)
            bad_file = True
            continue
        outcome = replay(record)
        illegal_move |= outcome.error is not None
        print(json.dumps(outcome.to_json(), separators=(",", ":")), file=out)
    return EXIT_BAD_FILE if bad_file else EXIT_ILLEGAL_MOVE if illegal_move else EXIT_OK


# --- Playing in the terminal ---------------------------------------------------------------

FACE_DOWN_MARK = "##"


def render(game: Game) -> str:
    """The table as text: rows and columns −3…3 that hold or may take a card."""
    grid = game.grid()
    legal = set(game.legal_moves())
    shown = set(grid) | legal
    rows = range(min(r for r, _ in shown), max(r for r, _ in shown) + 1)
    cols = range(min(c for _, c in shown), max(c for _, c in shown) + 1)
    lines = ["      " + " ".join(f"{col:>5}" for col in cols)]
    for row in rows:
        cells = []
        for col in cols:
            pile = grid.get((row, col))
            if pile is not None:
                face = str(pile.top) if pile.face_up else FACE_DOWN_MARK
                cells.append(f"{face}x{pile.height}")
            elif (row, col) in legal:
                cells.append("  .  ")
            else:
                cells.append("     ")
        lines.append(f"{row:>5} " + " ".join(cells))
    return "\n".join(lines)


def parse_move_text(text: str) -> tuple[int, int]:
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise ParseError(f"type a row and a column, e.g. '0 1' (got {text!r})")
    try:
        row, col = int(parts[0]), int(parts[1])
    except ValueError:
        raise ParseError(f"row and column are whole numbers from -{REACH} to {REACH} "
                         f"(got {text!r})") from None
    return row, col


def play_command(seed: str | None, read: Callable[[str], str], out: TextIO) -> int:
    seed = seed if seed is not None else secrets.token_hex(8)
    game = Game(deal(hashlib.sha256(seed.encode()).digest()))
    print(f"Foursquare — deal {seed!r}. '##' is a face-down card, '.' a legal cell, "
          "'q' quits.", file=out)
    while game.status == PLAYING:
        print(f"\n{render(game)}\n", file=out)
        print(f"Current card: {game.current}   stock: {game.stock}   "
              f"face down: {game.face_down}/4", file=out)
        print("Legal: " + "  ".join(f"{r},{c}" for r, c in game.legal_moves()), file=out)
        try:
            text = read("Your move (row col)> ").strip()
        except EOFError:
            print("\nGoodbye.", file=out)
            return EXIT_OK
        if text.lower() in {"q", "quit", "exit"}:
            print("Goodbye.", file=out)
            return EXIT_OK
        try:
            result = game.play(parse_move_text(text))
        except ValueError as error:
            print(f"Not played: {error}", file=out)
            continue
        flips = ", ".join(f"{r},{c}" for r, c in result.flipped) or "nothing"
        print(f"Placed {result.card} at {result.at[0]},{result.at[1]}; flipped {flips}.", file=out)
    print(f"\n{render(game)}\n", file=out)
    if game.score is not None:
        print(f"You won with {game.score} cards left in the stock!", file=out)
    else:
        print(f"Game over: lost after {game.moves_played} cards.", file=out)
    return EXIT_OK


# --- Verifying deals (docs/FAIRNESS.md) -------------------------------------------------------

def deck_of_seed(seed: str) -> list[str]:
    return [str(card) for card in deal(bytes.fromhex(seed))]


def check_race_record(record: dict[str, Any], report: verify.Report) -> None:
    """A race (``GET /races/{id}`` once finished): its seeds, and its deck dealt from them."""
    seed = verify.check_seeds("foursquare", record.get("fairness"), report)
    if seed is not None:
        deck = [str(card) for card in deal(seed)]
        report.line("deal", None if deck == record.get("deck") else
                    "the race's deck is not the deal of its seeds")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m foursquare", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay game records, one JSON line each")
    replay_parser.add_argument("files", nargs="+", metavar="FILE")
    play_parser = commands.add_parser("play", help="play a game in the terminal")
    play_parser.add_argument("--seed", help="deal from this text (default: a random deal)")
    verify.add_arguments(commands.add_parser(
        "verify", help="check the fairness log, dailies, or a race's record (docs/FAIRNESS.md)"))
    args = parser.parse_args(argv)
    if args.command == "verify":
        return verify.run(args, game="foursquare", deal_of=deck_of_seed,
                          check_record=check_race_record)
    if args.command == "replay":
        return replay_command(args.files, sys.stdout, sys.stderr)
    return play_command(args.seed, input, sys.stdout)
