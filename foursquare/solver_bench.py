"""The solver on random deals, or on one deck.

``python -m foursquare.solver_bench --deals 20 --seed 1 [--node-budget N] [--time-budget S]``
solves each deal and prints how often the optimum was proven, the scores, and the time per
deal. ``--deck "7H AS …"`` (40 codes) solves that deck and prints the winning record as JSON.
Every returned solution is replayed with ``Game`` before it is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from collections import Counter
from collections.abc import Iterable

from foursquare.cards import Card, deck_codes, parse_deck
from foursquare.dealing import deal
from foursquare.game import Game
from foursquare.solver import DEFAULT_NODE_BUDGET, Solution, solve


def check(deck: Iterable[str | Card], solution: Solution) -> None:
    """Replay a solution; raise ``AssertionError`` unless it wins with its score."""
    if solution.score is None:
        return
    game = Game(deck)
    for move in solution.moves:
        game.play(move)
    if game.status != "won" or game.score != solution.score:
        raise AssertionError(f"the solution does not replay: {game.status}, {game.score}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-budget", type=int, default=DEFAULT_NODE_BUDGET)
    parser.add_argument("--time-budget", type=float, default=None, help="seconds per deal")
    parser.add_argument("--deck", help="solve this deck (40 card codes) and print its record")
    parser.add_argument("--progress", action="store_true", help="print each deal as it ends")
    args = parser.parse_args(argv)

    if args.deck:
        deck = parse_deck(args.deck.replace(",", " ").split())
        solution = solve(deck, node_budget=args.node_budget, time_budget=args.time_budget)
        check(deck, solution)
        print(json.dumps({
            "score": solution.score, "proven_optimal": solution.proven_optimal,
            "score_bound": solution.score_bound, "nodes": solution.nodes,
            "seconds": round(solution.seconds, 3),
            "record": {"deck": deck_codes(deck), "moves": [list(m) for m in solution.moves]},
        }))
        return

    solutions = []
    for index in range(args.deals):
        deck = deal(f"solver-bench/{args.seed}/{index}".encode())
        solution = solve(deck, node_budget=args.node_budget, time_budget=args.time_budget)
        check(deck, solution)
        solutions.append(solution)
        if args.progress:
            print(f"deal {index}: score {solution.score}, proven {solution.proven_optimal}, "
                  f"bound {solution.score_bound}, {solution.nodes:,} nodes, "
                  f"{solution.seconds:.1f} s", flush=True)
    won = [solution for solution in solutions if solution.score is not None]
    proven = [solution for solution in solutions if solution.proven_optimal]
    seconds = sorted(solution.seconds for solution in solutions)
    print(f"deals: {len(solutions)} (seed {args.seed}); budget {args.node_budget:,} nodes"
          + (f", {args.time_budget:g} s" if args.time_budget else "") + f"; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"won: {len(won)}/{len(solutions)}; proven optimal: {len(proven)}/{len(solutions)}")
    if won:
        print(f"mean score: {statistics.fmean(s.score or 0 for s in won):.2f}; scores: "
              + ", ".join(f"{score}×{count}" for score, count in
                          sorted(Counter(s.score for s in won).items(), reverse=True)))
    print(f"seconds per deal: median {statistics.median(seconds):.2f}, max {seconds[-1]:.2f}, "
          f"total {sum(seconds):.1f}")


if __name__ == "__main__":
    main()
