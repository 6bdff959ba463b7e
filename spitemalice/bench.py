"""Engine speed: random play-outs with ``legal_actions()`` + ``play()`` in a loop, and undo.

``python -m spitemalice.bench [--seconds S]`` prints actions per second and whole games per
second on one core, each game dealt afresh from its own seed, for two random players:

- **uniform**: any legal action, equally likely. Four of a hand card's actions are discards,
  so this player mostly discards at once; its games are short and nearly all end in a tie
  when the stock runs dry.
- **centre-biased**: a play onto a centre stack (chosen at random) nine times in ten when
  there is one. Its games are long, mostly won, and complete and reshuffle stacks about
  twenty times each, so they time the whole engine. The filtering is the caller's cost and
  is counted.

Then the cost of one ``play()`` + ``undo()`` pair, the step a search repeats. Rates are given
per second of wall-clock time and per second of this process's CPU time (which other load on
the machine does not inflate).
"""

from __future__ import annotations

import argparse
import random
import time

from spitemalice.actions import Action
from spitemalice.game import PLAYING, Game


def random_playouts(
    seconds: float, seed: int = 2026, centre_bias: float = 0.0
) -> tuple[int, int, int, int, float, float]:
    """Play random games for about ``seconds``; a centre play is chosen with probability
    ``centre_bias`` when there is one. Returns (actions, games, wins, completions,
    wall seconds, CPU seconds)."""
    rng = random.Random(seed)
    pick = rng.random
    actions = games = wins = completions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(10):
            game = Game(rng.randbytes(16))
            play = game.play
            legal_actions = game.legal_actions
            while game.status is PLAYING:
                legal = legal_actions()
                if centre_bias and pick() < centre_bias:
                    centre = [action for action in legal if action.target[0] == "C"]
                    if centre:
                        legal = centre
                play(legal[int(pick() * len(legal))])
                actions += 1
            games += 1
            wins += game.winner is not None
            completions += game.completions
    return (actions, games, wins, completions, time.perf_counter() - start,
            time.process_time() - cpu_start)


def undo_cost(pairs: int = 200_000, seed: int = 7) -> float:
    """Seconds per ``play()`` + ``undo()`` of a random legal action, over many positions."""
    rng = random.Random(seed)
    positions: list[tuple[Game, list[Action]]] = []
    game = Game(b"undo bench")
    while len(positions) < 200:
        if game.status is not PLAYING:
            game = Game(rng.randbytes(16))
        legal = game.legal_actions()
        positions.append((game.copy(), legal))
        centre = [action for action in legal if action.target[0] == "C"]
        game.play(rng.choice(centre if centre and rng.random() < 0.9 else legal))
    per_position = pairs // len(positions)
    elapsed = 0.0
    for position, legal in positions:
        choices = [rng.choice(legal) for _ in range(per_position)]
        play, undo = position.play, position.undo
        start = time.process_time()
        for action in choices:
            play(action)
            undo()
        elapsed += time.process_time() - start
    return elapsed / (per_position * len(positions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for label, bias in (("uniform", 0.0), ("centre-biased", 0.9)):
        actions, games, wins, completions, wall, cpu = random_playouts(
            args.seconds, centre_bias=bias)
        print(f"Spite & Malice, {label} random play-outs: {actions:,} actions in {games:,} "
              f"games over {wall:.2f} s ({actions / games:.0f} actions and "
              f"{completions / games:.1f} completed stacks a game, {wins / games:.0%} won)")
        print(f"  actions/s: {actions / wall:,.0f} ({actions / cpu:,.0f} per CPU second)")
        print(f"  games/s: {games / wall:,.0f} ({games / cpu:,.0f} per CPU second)")
    print(f"play() + undo(): {undo_cost() * 1e6:.2f} µs of CPU time")


if __name__ == "__main__":
    main()
