"""How strong and how fast the house bot is: each level against two baseline players.

``python -m spitemalice.bot_bench [--games N] [--levels easy,normal,hard,expert] [--baselines
greedy,lookahead] [--pairings expert:hard,...] [--expert-worlds N] [--first-deal D]
[--processes P]`` plays N games (400 by default) of each level against each baseline (or of
each pairing named) and prints the level's score with its 95% intervals (mean ± 1.96 standard
errors, and Wilson's; a win counts 1, a tie 1/2), wins, losses and ties, the mean points of a
win on each side, and the bot's CPU time per turn (p50 and p95; a turn is every ``bot_turn``
call it takes). ``--expert-worlds`` gives ``expert`` fewer (or more) sampled deals per decision
than it plays with, for a quick sample on a small machine.

``--levels`` also takes a baseline's name (to measure one baseline against the other; its time
is then per action) and ``--baselines`` a level's (to play one level against another).

Game *g* of a pairing deals ``deal D + g // 2`` (``--first-deal D``, 0 by default: another
``D`` gives deals no earlier run was tuned on) and seats the bot in seat ``g % 2``: every deal
is played twice, once from each seat, so neither the deal nor who starts favours a side.

The baselines see what a player sees (``player_view``) and decide one action at a time:

- **greedy** plays its pay-off top whenever it can; otherwise it plays a side-stack top, then a
  hand card, onto the centre (never a King, unless the King makes the pay-off top playable
  next), picked at random, until nothing plays; then it discards by counting down: onto a side
  stack whose top is the same rank or one higher, else onto an empty side stack, else its
  highest non-King onto the side stack with the highest top.
- **lookahead** searches up to four centre plays from the cards it can see for a sequence that
  plays its pay-off top (stopping where the hand would refill from the unknown stock), plays
  the first action of the shortest such sequence, and otherwise acts as greedy.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import Pool

from spitemalice import bot
from spitemalice.actions import ACTION_OF, Action
from spitemalice.bot import LEVELS, RANK, Weights, bot_turn
from spitemalice.cards import KING, QUEEN
from spitemalice.game import PLAYING, Game
from spitemalice.view import PlayerView, player_view, unseen_cards

BASELINES = ("greedy", "lookahead")
SIDES = ("S0", "S1", "S2", "S3")
CENTRES = ("C0", "C1", "C2")


# --- The baselines -------------------------------------------------------------------------

def _fits(card: int, size: int) -> bool:
    return card == KING or card == size + 1


def _next_after(size: int) -> int:
    """The rank a centre stack of ``size`` cards takes once one more card is on it."""
    return 1 if size + 1 == QUEEN else size + 2


def greedy_action(view: PlayerView, rng: random.Random) -> Action:
    """The greedy baseline's next action in ``view`` (its seat to move)."""
    me = view["seat"]
    sizes = [len(stack) for stack in view["centre"]]
    top_code = view["payoff_top"][me]
    top = RANK[top_code[0]] if top_code else 0
    for i, size in enumerate(sizes):
        if top and _fits(top, size):
            return ACTION_OF[("P", CENTRES[i])]

    def centre_plays(sources: list[tuple[str, int]]) -> list[Action]:
        plays = []
        for source, card in sources:
            for i, size in enumerate(sizes):
                if not _fits(card, size):
                    continue
                if card == KING and not (top and _next_after(size) == top):
                    continue
                plays.append(ACTION_OF[(source, CENTRES[i])])
                if card != KING:
                    break  # stacks of one size are alike
        return plays

    sides = view["sides"][me]
    side_tops = [(SIDES[s], RANK[stack[-1][0]]) for s, stack in enumerate(sides) if stack]
    hand = view["hand"]
    for sources in (side_tops, [(code, RANK[code[0]]) for code in dict.fromkeys(hand)]):
        plays = centre_plays(sources)
        if plays:
            return plays[int(rng.random() * len(plays))]
    return ACTION_OF[count_down_discard(hand, sides)]


def count_down_discard(hand: Sequence[str], sides: Sequence[Sequence[str]]) -> tuple[str, str]:
    """Greedy's discard: a card onto a side stack whose top is the same rank or one higher
    (highest such card first), else its highest non-King onto an empty side stack, else its
    highest non-King onto the side stack with the highest top (a King only if all are)."""
    by_rank = sorted(hand, key=lambda code: -RANK[code[0]])
    plain = [code for code in by_rank if RANK[code[0]] != KING] or by_rank
    for code in plain:
        rank = RANK[code[0]]
        for s, stack in enumerate(sides):
            if stack and RANK[stack[-1][0]] in (rank, rank + 1):
                return code, SIDES[s]
    for s, stack in enumerate(sides):
        if not stack:
            return plain[0], SIDES[s]
    highest = max(range(len(sides)), key=lambda s: RANK[sides[s][-1][0]])
    return plain[0], SIDES[highest]


def lookahead_action(view: PlayerView, rng: random.Random) -> Action:
    """The lookahead baseline's next action: the first of the shortest sequence of at most
    four centre plays, from the cards it sees, that plays its pay-off top; else greedy's."""
    me = view["seat"]
    top_code = view["payoff_top"][me]
    if top_code:
        top = RANK[top_code[0]]
        hand = [RANK[code[0]] for code in view["hand"]]
        sides = [[RANK[c[0]] for c in stack] for stack in view["sides"][me]]
        sizes = [len(stack) for stack in view["centre"]]
        for depth in range(1, 5):
            first = _search_payoff(top, hand, sides, sizes, depth)
            if first is not None:
                kind, which, i = first
                if kind == "P":
                    return ACTION_OF[("P", CENTRES[i])]
                if kind == "S":
                    return ACTION_OF[(SIDES[which], CENTRES[i])]
                code = next(c for c in view["hand"] if RANK[c[0]] == which)
                return ACTION_OF[(code, CENTRES[i])]
    return greedy_action(view, rng)


def _search_payoff(top: int, hand: list[int], sides: list[list[int]], sizes: list[int],
                   depth: int) -> tuple[str, int, int] | None:
    """The first play of a sequence of at most ``depth`` centre plays that ends with the
    pay-off top, or None. A play that empties the hand ends the search (the refill is
    unknown)."""
    for i, size in enumerate(sizes):
        if _fits(top, size):
            return ("P", 0, i)
    if depth <= 1:
        return None
    options: list[tuple[str, int, int]] = []
    for s, stack in enumerate(sides):
        if stack:
            options += [("S", s, i) for i, size in enumerate(sizes) if _fits(stack[-1], size)]
    for card in sorted(set(hand)):
        options += [("H", card, i) for i, size in enumerate(sizes) if _fits(card, size)]
    for kind, which, i in options:
        if kind == "H" and len(hand) == 1:
            continue  # the hand would refill from the unknown stock
        before = sizes[i]
        sizes[i] = 0 if before + 1 == QUEEN else before + 1
        if kind == "S":
            card = sides[which].pop()
            found = _search_payoff(top, hand, sides, sizes, depth - 1)
            sides[which].append(card)
        else:
            hand.remove(which)
            found = _search_payoff(top, hand, sides, sizes, depth - 1)
            hand.append(which)
        sizes[i] = before
        if found is not None:
            return (kind, which, i)
    return None


BASELINE_ACTIONS: dict[str, Callable[[PlayerView, random.Random], Action]] = {
    "greedy": greedy_action, "lookahead": lookahead_action,
}


# --- Playing games -------------------------------------------------------------------------

def deal_seed(deal: int) -> bytes:
    return b"bot-bench deal %d" % deal


def play_game(level: str, baseline: str, index: int,
              first_deal: int = 0) -> tuple[float, int | None, int, list[float]]:
    """Game ``index`` of a pairing: (the bot's score 1, 1/2 or 0, the winner's seat relative
    to the bot (0 bot, 1 baseline, None tie), the points, the bot's CPU seconds per turn).
    Either side may be a level or a baseline. The deal is ``first_deal + index // 2``."""
    game, bot_seat, times = played_game(level, baseline, index, first_deal)
    return (*outcome(game, bot_seat), times)


def outcome(game: Game, bot_seat: int) -> tuple[float, int | None, int]:
    """A finished game's (the bot's score 1, 1/2 or 0, the winner's seat relative to the bot
    (0 bot, 1 the other, None tie), the points)."""
    if game.winner is None:
        return 0.5, None, 0
    won = game.winner == bot_seat
    return (1.0 if won else 0.0), (0 if won else 1), game.points or 0


def played_game(level: str, baseline: str, index: int, first_deal: int = 0,
                weights: Weights | None = None) -> tuple[Game, int, list[float]]:
    """Game ``index`` of a pairing played to its end: (the game, the bot's seat, the bot's
    CPU seconds per turn). ``weights``: the level's evaluation weights instead of its own
    (``spitemalice.bot_fit`` measures weights in exactly the benchmark's games)."""
    game = Game(deal_seed(first_deal + index // 2))
    bot_seat = index % 2
    rng = random.Random(f"{baseline}/{2 * first_deal + index}")  # as game 2·first_deal + index
    seed = game.seed.hex()
    times: list[float] = []
    while game.status == PLAYING:
        seat = game.turn
        assert seat is not None
        if seat == bot_seat:
            times.append(_take_turn(game, seat, level, rng, seed, weights))
        else:
            _take_turn(game, seat, baseline, rng, seed + "/other")
    return game, bot_seat, times


def _take_turn(game: Game, seat: int, player: str, rng: random.Random, seed: str,
               weights: Weights | None = None) -> float:
    """Play ``player``'s turn in ``game`` (a baseline: one action); its CPU seconds."""
    spent = 0.0
    if player in BASELINE_ACTIONS:
        start = time.process_time()
        action = BASELINE_ACTIONS[player](player_view(game, seat, since=len(game.actions)), rng)
        spent = time.process_time() - start
        game.play(action)
        return spent
    while game.status == PLAYING and game.turn == seat:
        view = player_view(game, seat, since=len(game.actions))
        unseen = unseen_cards(view)
        start = time.process_time()
        actions = bot_turn(view, unseen, player, seed, weights)
        spent += time.process_time() - start
        for action in actions:
            game.play(action)
    return spent


# One game's outcome: level, baseline, then what play_game returns.
_Outcome = tuple[str, str, float, int | None, int, list[float]]


def _play(job: tuple[str, str, int, int]) -> _Outcome:
    level, baseline, index, first_deal = job
    return (level, baseline, *play_game(level, baseline, index, first_deal))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (a tie counts a half win):
    unlike mean ± 1.96 standard errors it stays inside 0 … 1 and is honest for small ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(level: str, baseline: str, results: list[tuple[float, int | None, int]],
            times: list[float]) -> str:
    n = len(results)
    scores = [score for score, _, _ in results]
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / max(1, n - 1)
    half = 1.96 * math.sqrt(variance / n)
    wins = [points for _, side, points in results if side == 0]
    losses = [points for _, side, points in results if side == 1]
    ties = sum(1 for _, side, _ in results if side is None)

    def mean_of(values: list[int]) -> str:
        return f"{sum(values) / len(values):.1f}" if values else "-"

    low, high = wilson(sum(scores), n)
    return (f"{level:>6} vs {baseline:<9} {mean:6.1%} ± {half:4.1%} (Wilson 95% "
            f"{low:.1%}–{high:.1%}) over {n} games: "
            f"{len(wins)} won, {len(losses)} lost, {ties} tied; points per win "
            f"{mean_of(wins)} (baseline's {mean_of(losses)}); time per turn p50 "
            f"{_percentile(times, 0.5) * 1e3:.2f} ms, p95 {_percentile(times, 0.95) * 1e3:.2f} ms"
            f" (max {max(times, default=0.0) * 1e3:.1f} ms)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spitemalice.bot_bench",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per pairing (400)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="easy,normal,hard,expert (a baseline's name measures that "
                             "baseline)")
    parser.add_argument("--baselines", default=",".join(BASELINES),
                        help="greedy,lookahead (a level's name plays against that level)")
    parser.add_argument("--pairings", default="",
                        help="level:opponent,... instead of --levels × --baselines "
                             "(e.g. expert:hard,expert:lookahead)")
    add_expert_worlds(parser)
    parser.add_argument("--first-deal", type=int, default=0,
                        help="the first deal's number (0): game g deals first-deal + g // 2")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args(argv)
    if args.pairings:
        pairings = [tuple(pair.split(":", 1)) for pair in args.pairings.split(",") if pair]
        if any(len(pair) != 2 for pair in pairings):
            parser.error("a pairing is level:opponent")
    else:
        pairings = [(level, baseline) for level in args.levels.split(",") if level
                    for baseline in args.baselines.split(",") if baseline]
    for name, opponent in pairings:
        if name not in LEVELS + BASELINES:
            parser.error(f"unknown level {name!r}")
        if opponent not in BASELINES + LEVELS:
            parser.error(f"unknown baseline {opponent!r}")
    if args.games < 2:
        parser.error("--games is at least 2 (each deal is played from both seats)")
    if args.expert_worlds is not None:
        set_expert_worlds(args.expert_worlds)
    if args.first_deal < 0:
        parser.error("--first-deal is at least 0")
    jobs = [(level, baseline, index, args.first_deal) for level, baseline in pairings
            for index in range(args.games)]
    results: dict[tuple[str, str], list[tuple[float, int | None, int]]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    start = time.perf_counter()
    print(f"Spite & Malice house bot: {args.games} games per pairing, deals "
          f"{args.first_deal}–{args.first_deal + (args.games - 1) // 2}, each from both seats, "
          f"{args.processes} process(es), expert's sampled deals per decision "
          f"{bot.EXPERT_WORLDS}", flush=True)
    step = max(1, len(jobs) // 20)
    outcomes = _outcomes(jobs, args.processes, bot.EXPERT_WORLDS)
    for done, (level, baseline, score, side, points, spent) in enumerate(outcomes, start=1):
        results.setdefault((level, baseline), []).append((score, side, points))
        times.setdefault((level, baseline), []).extend(spent)
        if done % step == 0 or done == len(jobs):
            print(f"  {done}/{len(jobs)} games, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
        if len(results[(level, baseline)]) == args.games:
            print(summary(level, baseline, results[(level, baseline)],
                          times[(level, baseline)]), flush=True)
    print(f"{time.perf_counter() - start:.0f} s in all")
    return 0


def add_expert_worlds(parser: argparse.ArgumentParser) -> None:
    """The ``--expert-worlds N`` option, as this bench and ``bot_fit`` take it."""
    parser.add_argument("--expert-worlds", type=_worlds, default=None,
                        help=f"expert's sampled deals per decision "
                             f"({bot.EXPERT_WORLDS}; fewer: a cheaper, noisier expert)")


def _worlds(text: str) -> int:
    try:
        worlds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--expert-worlds is a whole number, not {text!r}"
                                         ) from None
    if worlds < 1:
        raise argparse.ArgumentTypeError("--expert-worlds is at least 1")
    return worlds


def set_expert_worlds(worlds: int) -> None:
    """Give ``expert`` ``worlds`` sampled deals per decision in this process (the bot reads
    ``bot.EXPERT_WORLDS`` at each call; a pool's workers are set by their initializer)."""
    bot.EXPERT_WORLDS = worlds


def _outcomes(jobs: list[tuple[str, str, int, int]], processes: int,
              expert_worlds: int) -> Iterator[_Outcome]:
    """The games' outcomes in the order of ``jobs``, played in ``processes`` processes (each
    with expert's ``expert_worlds`` sampled deals)."""
    if processes <= 1:
        yield from map(_play, jobs)
        return
    with Pool(processes, initializer=set_expert_worlds, initargs=(expert_worlds,)) as pool:
        yield from pool.imap(_play, jobs, 4)


if __name__ == "__main__":
    sys.exit(main())
