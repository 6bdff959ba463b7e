"""Engine speed: random play-outs with ``legal_moves()`` + ``play()`` in a loop.

``python -m foursquare.bench [--seconds S]`` prints moves per second and full games per second
on one core. Each game starts from a fresh ``Game`` on a shuffled deal.
"""

from __future__ import annotations

import argparse
import random
import time

from foursquare.cards import ALL_CARDS
from foursquare.game import PLAYING, Game


def random_playouts(seconds: float, seed: int = 2026) -> tuple[int, int, int, float]:
    """Play random games for about ``seconds``; returns (moves, games, wins, elapsed)."""
    rng = random.Random(seed)
    pick = rng.random
    deck = list(ALL_CARDS)
    moves = games = wins = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            rng.shuffle(deck)
            game = Game(tuple(deck))
            while game.status == PLAYING:
                legal = game.legal_moves()
                game.play(legal[int(pick() * len(legal))])
                moves += 1
            games += 1
            wins += game.score is not None
    return moves, games, wins, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    moves, games, wins, elapsed = random_playouts(args.seconds)
    print(f"random play-outs: {moves:,} moves in {games:,} games over {elapsed:.2f} s")
    print(f"moves/s: {moves / elapsed:,.0f}")
    print(f"games/s: {games / elapsed:,.0f}")
    print(f"random player's win rate: {wins / games:.4%}")


if __name__ == "__main__":
    main()
