"""Playing the house bot in the terminal, driven by scripted input."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from spitemalice import Game, ParseError, player_view
from spitemalice.bot import play_turn
from spitemalice.bot_bench import greedy_action
from spitemalice.game import PLAYING
from spitemalice.terminal import parse_input

REPO = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "spitemalice", "play"]


def _run(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, check=False, timeout=120)


def test_input_is_read_in_either_notation():
    assert parse_input("P>C0") == ("P", "C0")
    assert parse_input("7h > s3") == ("7H", "S3")
    assert parse_input('["S2", "C1"]') == ("S2", "C1")
    with pytest.raises(ParseError, match="'hello'"):
        parse_input("hello")
    with pytest.raises(ParseError, match="not JSON"):
        parse_input("[P, C0]")


def test_rejected_input_is_explained_and_the_bots_turn_shown():
    # With seed "demo" the bot (seat 1) starts; then the table shows seat 0's hand and
    # legal actions: 2S 4C 7C 8C JD, nothing fits the empty centre but an Ace or a King.
    completed = _run("--seed", "demo", "--level", "easy",
                     stdin="hello\n7C>C0\n2S>S0\n?\n[\"JD\", \"S1\"]\nq\n")
    out = completed.stdout
    assert completed.returncode == 0
    assert "The bot's turn (1):\n  bot plays " in out
    assert "hand   2S 4C 7C 8C JD" in out and "legal  2S>S0" in out
    assert "Rejected: invalid action 'hello'" in out
    assert "Rejected: cannot play [\"7C\", \"C0\"]: 7C does not fit on C0" in out
    assert "  you play 2S>S0 (2S)" in out and "  you play JD>S1 (JD)" in out
    assert "The bot's turn (3):" in out and "You left the game." in out
    assert "player 1's hand" not in out  # the bot's hand stays hidden while playing


def test_input_ending_early_says_so():
    completed = _run("--seed", "demo", stdin="")
    assert completed.returncode == 1 and "The input ended" in completed.stdout


def test_a_whole_game_ends_with_the_result_and_points():
    # The bot plays the same for the same moves, so the moves of a greedy player can be
    # worked out here and typed in there.
    seed, moves = "whole game", []
    game = Game(seed.encode())
    rng = random.Random(1)
    while game.status == PLAYING:
        if game.turn == 1:
            play_turn(game, "easy", game.seed.hex())
        else:
            action = greedy_action(player_view(game, 0, since=len(game.actions)), rng)
            game.play(action)
            moves.append(str(action))
    completed = _run("--seed", seed, "--level", "easy", stdin="\n".join(moves) + "\n")
    assert completed.returncode == 0, completed.stdout[-2000:]
    out = completed.stdout
    assert "Rejected" not in out
    if game.winner is None:
        assert out.rstrip().endswith("no points.")
    else:
        who = "You" if game.winner == 0 else "The bot"
        assert out.rstrip().endswith("pay-off cards left).")
        assert f"{who} won {game.points} points" in out
    assert "Game over after" in out


def test_a_match_deals_game_after_game_and_says_so():
    completed = _run("--seed", "a match", "--match", "--seat", "1", stdin="q\n")
    out = completed.stdout
    assert completed.returncode == 0
    assert "You are player 1; the bot is player 0." in out
    assert "=== Game 1 of the match ===" in out and "You left the game." in out
