"""The bot's strength and speed on random deals.

``python -m foursquare.bot_bench --deals 200 --seed 1 [--jobs 2] [--samples 40]`` plays each
deal with a fresh ``Bot`` that is given only ``knowledge(game)`` at every move, and prints the
win rate, the mean score among wins, the time per move (p50/p95/p99/max) and the total time.
``--deals 20`` is the quick check.

Each move is timed in the process that plays it (``knowledge`` + ``choose``), so the figures
are per move on one core. With ``--jobs N`` the deals are shared among N processes: on a
machine with fewer free cores than jobs they compete, and the per-move times grow; the load
average is printed before and after so the figures can be read in context.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from foursquare.bot import DEFAULT_SAMPLES, WIN_BONUS, Bot, knowledge
from foursquare.dealing import deal
from foursquare.game import PLAYING, Game


class DealResult(NamedTuple):
    index: int
    score: int | None  # None for a loss
    move_seconds: list[float]


def bench_deal(deal_seed: bytes, index: int, bot_seed: int, samples: int,
               win_bonus: float) -> DealResult:
    """Play one deal with the bot, timing each decision."""
    game = Game(deal(deal_seed))
    bot = Bot(bot_seed, samples=samples, win_bonus=win_bonus)
    seconds = []
    while game.status == PLAYING:
        start = time.perf_counter()
        move = bot.choose(*knowledge(game))
        seconds.append(time.perf_counter() - start)
        game.play(move)
    return DealResult(index, game.score, seconds)


def _bench_one(args: tuple) -> DealResult:
    return bench_deal(*args)


def percentile(sorted_values: list[float], share: float) -> float:
    """The value below which ``share`` of the (sorted) values lie (nearest rank)."""
    if not sorted_values:
        return 0.0
    rank = max(0, min(len(sorted_values) - 1, round(share * len(sorted_values)) - 1))
    return sorted_values[rank]


def deal_seed(seed: int, index: int) -> bytes:
    return f"bot-bench/{seed}/{index}".encode()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="number of deals (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="picks the deals and the bot's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"orders of the unseen cards per move (default {DEFAULT_SAMPLES})")
    parser.add_argument("--win-bonus", type=float, default=WIN_BONUS,
                        help=f"value of a win over its score (default {WIN_BONUS:g})")
    parser.add_argument("--progress", action="store_true", help="print each deal as it ends")
    args = parser.parse_args(argv)

    tasks = [(deal_seed(args.seed, index), index, args.seed, args.samples, args.win_bonus)
             for index in range(args.deals)]
    load = _LoadSampler()
    start = time.perf_counter()
    results: list[DealResult] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for result in pool.map(_bench_one, tasks):
                results.append(result)
                _report_progress(args.progress, result)
    else:
        for task in tasks:
            result = _bench_one(task)
            results.append(result)
            _report_progress(args.progress, result)
    elapsed = time.perf_counter() - start
    load.stop()

    scores = [result.score for result in results if result.score is not None]
    seconds = sorted(second for result in results for second in result.move_seconds)
    print(f"deals: {len(results)} (seed {args.seed}), samples {args.samples}, "
          f"win bonus {args.win_bonus:g}, jobs {args.jobs}, cores {os.cpu_count()}")
    print(f"won: {len(scores)}/{len(results)} = {len(scores) / max(1, len(results)):.1%}")
    if scores:
        print(f"mean score among wins: {statistics.fmean(scores):.2f} "
              f"(median {statistics.median(scores):g}, min {min(scores)}, max {max(scores)})")
    print(f"moves: {len(seconds)}; seconds per move: p50 {percentile(seconds, 0.5):.3f}, "
          f"p95 {percentile(seconds, 0.95):.3f}, p99 {percentile(seconds, 0.99):.3f}, "
          f"max {seconds[-1] if seconds else 0:.3f}, mean {statistics.fmean(seconds or [0]):.3f}")
    print(f"total: {elapsed:.1f} s; 1-min load average during the run: "
          f"mean {statistics.fmean(load.samples):.2f}, max {max(load.samples):.2f}")


class _LoadSampler:
    """Reads the 1-minute load average every few seconds while the benchmark runs."""

    def __init__(self, every: float = 5.0) -> None:
        self.samples = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every,), daemon=True)
        self._thread.start()

    def _run(self, every: float) -> None:
        while not self._stop.wait(every):
            self.samples.append(os.getloadavg()[0])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(os.getloadavg()[0])


def _report_progress(enabled: bool, result: DealResult) -> None:
    if enabled:
        outcome = "lost" if result.score is None else f"won {result.score}"
        print(f"deal {result.index}: {outcome} in {len(result.move_seconds)} moves, "
              f"{sum(result.move_seconds):.1f} s", flush=True)


if __name__ == "__main__":
    main()
