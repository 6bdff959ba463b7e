"""Engine speed: random play-outs with ``legal_actions()`` + ``play()`` in a loop, and undo.

``python -m spitemalice.bench [--seconds S]`` prints actions per second and whole games per
second on one core (each game dealt afresh from its own seed), then the cost of one
``play()`` + ``undo()`` pair, the step a search repeats.
"""

from __future__ import annotations

import argparse
import random
import time

from spitemalice.game import PLAYING, Game


def random_playouts(
    seconds: float, seed: int = 2026, centre_first: bool = False
) -> tuple[int, int, int, float]:
    """Play random games for about ``seconds``; returns (actions, games, wins, elapsed).

    Uniform random play discards at once most of the time (four of a hand card's actions are
    discards), so games are short; ``centre_first`` tries up to six random picks for a play
    onto a centre stack, which builds the stacks up, completes and reshuffles them.
    """
    rng = random.Random(seed)
    tries = 6 if centre_first else 1
    pick = rng.random
    actions = games = wins = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(10):
            game = Game(rng.randbytes(16))
            play = game.play
            legal_actions = game.legal_actions
            while game.status is PLAYING:
                legal = legal_actions()
                count = len(legal)
                for _ in range(tries):
                    action = legal[int(pick() * count)]
                    if action.target[0] == "C":
                        break
                play(action)
                actions += 1
            games += 1
            wins += game.winner is not None
    return actions, games, wins, time.perf_counter() - start


def undo_cost(pairs: int = 200_000, seed: int = 7) -> float:
    """Seconds per ``play()`` + ``undo()`` of a random legal action, over many positions."""
    rng = random.Random(seed)
    positions = []
    game = Game(b"undo bench")
    while len(positions) < 200:
        if game.status is not PLAYING:
            game = Game(rng.randbytes(16))
        legal = game.legal_actions()
        positions.append((game.copy(), legal))
        game.play(rng.choice(legal))
    per_position = pairs // len(positions)
    elapsed = 0.0
    for position, legal in positions:
        choices = [rng.choice(legal) for _ in range(per_position)]
        play, undo = position.play, position.undo
        start = time.perf_counter()
        for action in choices:
            play(action)
            undo()
        elapsed += time.perf_counter() - start
    return elapsed / (per_position * len(positions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for label, centre_first in (("uniform", False), ("centre-first", True)):
        actions, games, wins, elapsed = random_playouts(args.seconds, centre_first=centre_first)
        print(f"Spite & Malice {label} random play-outs: {actions:,} actions in {games:,} "
              f"games over {elapsed:.2f} s ({actions / games:.0f} actions a game, "
              f"{wins / games:.2%} won, the rest tied)")
        print(f"  actions/s: {actions / elapsed:,.0f}")
        print(f"  games/s: {games / elapsed:,.0f}")
    print(f"play() + undo(): {undo_cost() * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
