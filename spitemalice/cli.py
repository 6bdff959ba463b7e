"""The command line: ``python -m spitemalice replay FILE…``, ``python -m spitemalice show`` and
``python -m spitemalice play`` (against the house bot, in ``terminal``), and
``python -m spitemalice verify`` (docs/FAIRNESS.md)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, TextIO

from fairness import verify
from spitemalice import terminal
from spitemalice.cards import KING, RANK_CODES
from spitemalice.dealing import deal
from spitemalice.errors import ParseError
from spitemalice.game import PLAYING, Game
from spitemalice.match import game_seed
from spitemalice.records import Record, load_record, replay

EXIT_OK, EXIT_BAD_FILE, EXIT_ILLEGAL_ACTION = 0, 1, 2


def _read(command: str, path: str, err: TextIO) -> Record | None:
    try:
        return load_record(path)
    except (OSError, UnicodeDecodeError, ParseError) as error:
        print(f"spitemalice {command}: {path}: {error}", file=err)
        return None


def replay_command(paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """One JSON line per file. Exit 1 if a file could not be read, else 2 if an action was
    illegal, else 0."""
    bad_file = illegal_action = False
    for path in paths:
        record = _read("replay", path, err)
        if record is None:
            bad_file = True
            continue
        outcome = replay(record)
        illegal_action |= outcome.error is not None
        print(json.dumps(outcome.to_json(), separators=(",", ":")), file=out)
    return EXIT_BAD_FILE if bad_file else EXIT_ILLEGAL_ACTION if illegal_action else EXIT_OK


# --- Drawing the table ---------------------------------------------------------------------

def _rank_code(rank: int) -> str:
    return RANK_CODES[rank - 1]


def _stack_text(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def render(game: Game) -> str:
    """The table as a person would see it: both players' pay-off tops and sizes and their side
    stacks spread (bottom to top), the centre stacks (a King marked with the rank it counts
    as), the stock, and the hand and legal actions of the player to move (both hands once the
    game is over)."""
    lines = []
    to_move = game.turn
    if game.status == PLAYING:
        lines.append(f"Turn {game.turn_number}, player {to_move} to move; "
                     f"{len(game.actions)} actions played")
    else:
        outcome = (f"player {game.winner} won {game.points} points" if game.winner is not None
                   else "tied")
        lines.append(f"Game over after {len(game.actions)} actions: {outcome}")
    last = game.last_result
    if last is not None:
        counted = f" as {_rank_code(last.counts_as)}" if last.counts_as else ""
        done = ", completing the stack" if last.completed else ""
        lines.append(f"Last: player {last.player} played {last.action} "
                     f"({last.card}{counted}{done})")
    lines.append("")
    for player in (1 - (to_move or 0), to_move or 0):
        marker = ">" if player == to_move else " "
        top = game.payoff_top(player)
        held = len(game.hand(player))
        lines.append(f"{marker} Player {player}  pay-off {top or '--'} "
                     f"({game.payoff_size(player)} left)  holding {held} "
                     f"card{'' if held == 1 else 's'}")
        sides = "   ".join(f"S{i}: {_stack_text(stack)}"
                           for i, stack in enumerate(game.side_stacks(player)))
        lines.append(f"    sides  {sides}")
        if player == 1 - (to_move or 0):
            lines.append("")
            lines.extend(_centre_lines(game))
            lines.append("")
    if to_move is not None:
        lines.append(f"    hand   {_stack_text(game.hand(to_move))}")
        legal = "  ".join(str(action) for action in game.legal_actions())
        lines += textwrap.wrap(legal, width=96, initial_indent="    legal  ",
                               subsequent_indent="           ", break_on_hyphens=False)
    else:  # the game is over and its deal public: both hands
        for player in (0, 1):
            lines.append(f"    player {player}'s hand: {_stack_text(game.hand(player))}")
    return "\n".join(lines)


def _centre_lines(game: Game) -> list[str]:
    lines = []
    for i, stack in enumerate(game.centre_stacks()):
        cards = [f"{card}={_rank_code(height)}" if card.rank == KING else str(card)
                 for height, card in enumerate(stack, start=1)]
        lines.append(f"  Centre C{i}: {' '.join(cards) or '(empty)'}   "
                     f"next {_rank_code(len(stack) + 1)}")
    lines.append(f"  Stock: {game.stock_size} cards")
    return lines


def show_command(path: str, action: int | None, out: TextIO, err: TextIO) -> int:
    """Draw the table of the record at ``path`` after its first ``action`` actions (all of
    them by default). Exit 1 for an unreadable file or a bad ``action``, 2 if the record has
    an illegal action before that point (the table is drawn just before it)."""
    record = _read("show", path, err)
    if record is None:
        return EXIT_BAD_FILE
    total = len(record.actions)
    if action is not None and not 0 <= action <= total:
        print(f"spitemalice show: {path}: --action is 0 to {total}, not {action}", file=err)
        return EXIT_BAD_FILE
    outcome = replay(record, upto=action)
    print(f"{path}: seed {record.seed.hex()}", file=out)
    print(render(outcome.game), file=out)
    if outcome.error is not None:
        print(f"\nStopped: {outcome.error}", file=out)
        return EXIT_ILLEGAL_ACTION
    return EXIT_OK


# --- Verifying deals (docs/FAIRNESS.md) -------------------------------------------------------

def daily_deck(seed: str) -> list[str]:
    """The deal of a daily (a one-game match from ``seed``)."""
    return [str(card) for card in deal(game_seed(bytes.fromhex(seed), 0))]


def check_game_record(record: dict[str, Any], report: verify.Report) -> None:
    """A game's record (``GET /matches/{id}/games/{n}/record``) once its match is over: the
    match's seeds, and this game's seed derived from them."""
    block = record.get("fairness")
    match_seed = verify.check_seeds("spitemalice", block, report)
    if match_seed is not None and isinstance(block, dict):
        number = block.get("game")
        expected = (game_seed(match_seed, number - 1).hex() if isinstance(number, int)
                    and number >= 1 else None)
        report.line(f"game {number}", None if expected == record.get("seed") else
                    "the game's seed is not the one its match's seeds give")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spitemalice", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay game records, one JSON line each")
    replay_parser.add_argument("files", nargs="+", metavar="FILE")
    show_parser = commands.add_parser("show", help="draw a record's table at one point")
    show_parser.add_argument("file", metavar="FILE")
    show_parser.add_argument("--action", type=int, metavar="N",
                             help="after the first N actions (0: the deal; default: all)")
    play_parser = commands.add_parser("play", help="play the house bot in the terminal")
    terminal.add_arguments(play_parser)
    verify.add_arguments(commands.add_parser(
        "verify", help="check the fairness log, dailies, or a game's record (docs/FAIRNESS.md)"))
    args = parser.parse_args(argv)
    if args.command == "verify":
        return verify.run(args, game="spitemalice", deal_of=daily_deck,
                          check_record=check_game_record)
    if args.command == "play":
        return terminal.run(args, sys.stdin, sys.stdout)
    if args.command == "replay":
        return replay_command(args.files, sys.stdout, sys.stderr)
    return show_command(args.file, args.action, sys.stdout, sys.stderr)
