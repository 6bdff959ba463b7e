"""The bot's strength and speed on random deals.

``python -m foursquare.bot_bench --deals 200 --seed 1 [--jobs 2]`` plays each deal with a
fresh ``Bot`` that is given only ``knowledge(game)`` at every move, and prints the win rate,
the mean score among wins, the time per move (p50/p95/p99/max) and the total time.
``--deals 20`` (the default) is the quick check; ``--samples``, ``--screen``,
``--finalists`` and ``--win-bonus`` try other settings.

Each move is timed in the process that plays it (``knowledge`` + ``choose``), so the figures
are per move on one core: the wall-clock time, and the CPU time the process was given, which
stays near the unloaded wall-clock time when other work competes for the cores. With
``--jobs N`` the deals are shared among N processes, which compete for the cores like any
other work; the 1-minute load average, sampled during the run, is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from foursquare.bot import (
    DEFAULT_FINALISTS,
    DEFAULT_SAMPLES,
    DEFAULT_SCREEN,
    WIN_BONUS,
    Bot,
    knowledge,
)
from foursquare.dealing import deal
from foursquare.game import PLAYING, Game


class DealResult(NamedTuple):
    index: int  # type: ignore[assignment]  # (shadows tuple.index, which nothing here calls)
    score: int | None  # None for a loss
    move_seconds: list[float]  # wall-clock time of each decision
    move_cpu_seconds: list[float]  # CPU time this process spent on it


def bench_deal(deal_seed: bytes, index: int, bot_seed: int, options: dict[str, Any]) -> DealResult:
    """Play one deal with ``Bot(bot_seed, **options)``, timing each decision."""
    game = Game(deal(deal_seed))
    bot = Bot(bot_seed, **options)
    seconds = []
    cpu_seconds = []
    while game.status == PLAYING:
        start = time.perf_counter()
        cpu_start = time.process_time()
        move = bot.choose(*knowledge(game))
        cpu_seconds.append(time.process_time() - cpu_start)
        seconds.append(time.perf_counter() - start)
        game.play(move)
    return DealResult(index, game.score, seconds, cpu_seconds)


def _bench_one(args: tuple[bytes, int, int, dict[str, Any]]) -> DealResult:
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
    parser.add_argument("--screen", type=int, default=DEFAULT_SCREEN,
                        help=f"orders every move gets first (default {DEFAULT_SCREEN})")
    parser.add_argument("--finalists", type=int, default=DEFAULT_FINALISTS,
                        help=f"moves that get all the samples (default {DEFAULT_FINALISTS})")
    parser.add_argument("--win-bonus", type=float, default=WIN_BONUS,
                        help=f"value of a win over its score (default {WIN_BONUS:g})")
    parser.add_argument("--progress", action="store_true", help="print each deal as it ends")
    args = parser.parse_args(argv)

    options = {"samples": args.samples, "screen": args.screen, "finalists": args.finalists,
               "win_bonus": args.win_bonus}
    tasks = [(deal_seed(args.seed, index), index, args.seed, options)
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
    cpu_seconds = sorted(second for result in results for second in result.move_cpu_seconds)
    print(f"deals: {len(results)} (seed {args.seed}); bot: samples {args.samples}, "
          f"screen {args.screen}, finalists {args.finalists}, win bonus {args.win_bonus:g}; "
          f"jobs {args.jobs}, cores {os.cpu_count()}")
    print(f"won: {len(scores)}/{len(results)} = {len(scores) / max(1, len(results)):.1%}")
    if scores:
        print(f"mean score among wins: {statistics.fmean(scores):.2f} "
              f"(median {statistics.median(scores):g}, min {min(scores)}, max {max(scores)})")
    print(f"moves: {len(seconds)}")
    for name, values in (("wall-clock", seconds), ("CPU", cpu_seconds)):
        print(f"{name} seconds per move: p50 {percentile(values, 0.5):.3f}, "
              f"p95 {percentile(values, 0.95):.3f}, p99 {percentile(values, 0.99):.3f}, "
              f"max {values[-1] if values else 0:.3f}, mean {statistics.fmean(values or [0]):.3f}")
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
