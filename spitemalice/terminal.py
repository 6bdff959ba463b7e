"""Play the house bot in the terminal: ``python -m spitemalice play
[--level easy|normal|hard|expert] [--seed TEXT] [--seat 0|1] [--match]``.

The table is drawn as ``python -m spitemalice show`` draws it, with your hand and legal actions
(never the bot's hand, until the game is over). Type an action in its readable form (``P>C0``,
``7H>S3``; lower case will do) or in record notation (``["P", "C0"]``); ``?`` lists the legal
actions again and ``q`` quits. A rejected action is explained and changes nothing. The bot's
turn is shown action by action; the game ends with the result and the points, and with
``--match`` games follow one another until a seat has 50 points.

The same ``--seed`` deals the same game (or match), and the bot plays it the same way for the
same moves of yours.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from typing import TextIO

from spitemalice.actions import Action
from spitemalice.bot import LEVELS, play_turn
from spitemalice.cards import RANK_CODES
from spitemalice.errors import ParseError
from spitemalice.game import PLAYING, Game
from spitemalice.match import Match

EXIT_OK, EXIT_INPUT_ENDED = 0, 1
HELP = ("Type an action as source>target (P>C0, S2>C1, 7H>S3) or as [\"7H\", \"S3\"]; "
        "? lists your legal actions, q quits.")


class _Quit(Exception):
    pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's options, on ``parser``."""
    parser.add_argument("--level", choices=LEVELS, default="normal",
                        help="the bot's level (default: normal)")
    parser.add_argument("--seed", metavar="TEXT",
                        help="deal from this text (default: a random one, printed)")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0,
                        help="your seat (default: 0; the bot takes the other)")
    parser.add_argument("--match", action="store_true",
                        help="play a match: games until a seat has 50 points")


def run(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """Play as ``args`` say (see ``add_arguments``), reading ``inp`` and writing ``out``."""
    seed_text = args.seed if args.seed is not None else secrets.token_hex(8)
    return play(level=args.level, seed_text=seed_text, seat=args.seat, match=args.match,
                inp=inp, out=out)


def play(*, level: str, seed_text: str, seat: int, match: bool, inp: TextIO,
         out: TextIO) -> int:
    """Play one game (or a match) against the bot; 0 once it is over or you quit, 1 if the
    input ends first."""
    seed = seed_text.encode()
    print(f"Spite & Malice against the house bot ({level}), seed {seed_text!r}. You are "
          f"player {seat}; the bot is player {1 - seat}.", file=out)
    print(HELP, file=out)
    try:
        if not match:
            game = Game(seed)
            _play_game(game, level, seat, inp, out)
            _print_result(game, seat, out)
            return EXIT_OK
        series = Match(seed)
        while True:
            print(f"\n=== Game {len(series.games)} of the match ===", file=out)
            _play_game(series.game, level, seat, inp, out)
            _print_result(series.game, seat, out)
            scores = series.scores
            print(f"Match: you {scores[seat]}, the bot {scores[1 - seat]} "
                  f"(first to {series.target})", file=out)
            if series.status != PLAYING:
                who = "You win" if series.winner == seat else "The bot wins"
                print(f"{who} the match, {scores[seat]}-{scores[1 - seat]}.", file=out)
                return EXIT_OK
            series.next_game()
    except _Quit:
        print("You left the game.", file=out)
        return EXIT_OK
    except EOFError:
        print("\nThe input ended before the game did.", file=out)
        return EXIT_INPUT_ENDED


def _play_game(game: Game, level: str, seat: int, inp: TextIO, out: TextIO) -> None:
    from spitemalice.cli import render  # cli imports this module for its `play` command

    bot_seed = game.seed.hex()
    while game.status == PLAYING:
        if game.turn != seat:
            print(f"\nThe bot's turn ({game.turn_number}):", file=out)
            play_turn(game, level, bot_seed, observe=lambda _: print(
                f"  bot plays {_described(game)}", file=out))
            continue
        print("\n" + render(game), file=out)
        while True:
            out.write("your action> ")
            out.flush()
            line = inp.readline()
            if not line:
                raise EOFError
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("q", "quit", "exit"):
                raise _Quit
            if text in ("?", "help"):
                print(HELP, file=out)
                print("legal: " + "  ".join(str(a) for a in game.legal_actions()), file=out)
                continue
            try:
                action = parse_input(text)
                game.play(action)
            except ValueError as error:
                print(f"Rejected: {_plain(error)}", file=out)
                continue
            print(f"  you play {_described(game)}", file=out)
            break


def parse_input(text: str) -> Action:
    """An action typed at the prompt: record notation (``["P", "C0"]``) or the readable form
    (``P>C0``, in any case); ``ParseError`` otherwise."""
    if text.startswith("["):
        try:
            value = json.loads(text)
        except ValueError:
            raise ParseError(f"invalid action {text}: not JSON; write e.g. [\"P\", \"C0\"] "
                             "or P>C0") from None
        return Action.parse(value)
    compact = text.replace(" ", "")
    try:
        return Action.from_text(compact)
    except ParseError:
        try:
            return Action.from_text(compact.upper())
        except ParseError:
            raise ParseError(f"invalid action {text!r}: expected source>target, e.g. 'P>C0' "
                             "or '7H>S3', or [\"P\", \"C0\"]") from None


def _plain(error: ValueError) -> str:
    """An engine error without its "action N: " prefix (the index means little here)."""
    message = str(error)
    head, _, rest = message.partition(": ")
    return rest if head.startswith("action ") and rest else message


def _described(game: Game) -> str:
    last = game.last_result
    assert last is not None
    counted = f" as {RANK_CODES[last.counts_as - 1]}" if last.counts_as else ""
    done = ", completing the stack" if last.completed else ""
    return f"{last.action} ({last.card}{counted}{done})"


def _print_result(game: Game, seat: int, out: TextIO) -> None:
    from spitemalice.cli import render

    print("\n" + render(game), file=out)
    if game.winner is None:
        print(f"Tied after {game.turn_number} turns: no points.", file=out)
    elif game.winner == seat:
        print(f"You won {game.points} points (the bot had {game.points} pay-off cards left).",
              file=out)
    else:
        print(f"The bot won {game.points} points (you had {game.points} pay-off cards left).",
              file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spitemalice play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv), sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
