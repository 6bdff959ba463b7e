"""Fitting the house bot's evaluation weights by self-play, and measuring them on other deals.

``python -m spitemalice.bot_fit fit [--iterations N] [--deals K] [--first-deal D] [--seed S]
[--level hard] [--opponent hard] [--start WEIGHTS] [--gains-from K0] [--fit NAMES]
[--expert-worlds N] [--log FILE]`` fits the weights named in ``FITTED`` (or those ``--fit``
names) by SPSA (simultaneous perturbation stochastic approximation): at iteration *k* every
fitted weight is moved up or down at once by a random sign times ``c_k`` (in units of
``SCALE``: the weight's size), the level plays ``K`` training deals from both seats with the
weights moved up and the same deals and seeds with them moved down (common random numbers),
against ``--opponent`` (``hard`` with the hand-set weights unless another level or a baseline
is named), and the difference of the two mean results steps every weight along its sign.
Iteration *k* plays deals ``D + k·K`` … ``D + k·K + K − 1`` (``D`` is 2000: the training deals
lie above the benchmark's 0–1999, so a fit is measured on deals it never saw). The result is
the mean of the iterates over the second half of the run (Polyak averaging), printed as JSON
with the rest of the run's record; ``--log`` writes every iteration as a JSON line. ``--start``
starts from other weights than the hand-set ones (``expert`` for ``EXPERT_WEIGHTS``, or JSON /
a JSON file as ``--weights`` below; the weights not fitted keep its values), and
``--gains-from K0`` takes the gains ``a_k``, ``c_k`` from iteration ``K0 + k`` on (the deals
still from ``D``): together they continue a run of ``K0`` iterations from the weights it found,
on new deals. ``--fit threat,prospect,threat_race`` fits only the weights named (fewer
dimensions, less of SPSA's noise), the others keeping the values ``--start`` gives them;
``--fit all`` adds the race factors (``threat_race``, ``prospect_race``: hand-set 0, in units
of ``RACE_SCALE``, kept within ``RACE_LOW`` … ``RACE_HIGH``) to the 14 of ``FITTED`` (each in
units of its hand-set size, kept within 0 … 3 times it).

``python -m spitemalice.bot_fit measure --weights JSON-or-FILE [--games N] [--first-deal D]
[--level hard] [--opponent hard] [--expert-worlds N]`` plays the level with the given weights
against the opponent (a level with its own weights, or a baseline) exactly as ``bot_bench``
pairs them (game *g* deals ``D + g // 2``, the bot in seat ``g % 2``, the same seeds), and
prints the benchmark's summary line: so ``measure`` with the hand-set weights repeats
``bot_bench``. In both commands ``--expert-worlds N`` gives ``expert`` N sampled deals per
decision (``EXPERT_WORLDS``, 128, as ``bot_bench``'s option of that name does): a cheaper,
noisier ``expert`` to fit with.

A game's result, for the fit, is its score (1 a win, ½ a tie, 0 a loss) plus ``MARGIN`` times
the difference of the pay-off cards the two sides have left, over 20: a smoother signal than
the score alone, which still ranks every win above every loss. Everything is deterministic for
the seed: the signs come from ``random.Random(seed)`` and the games from the deals and the
bot's own seeded play. One process: the fit is sequential by design.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import TypeVar

from spitemalice import bot
from spitemalice.bot import DEFAULT_WEIGHTS, EXPERT_WEIGHTS, LEVELS, Weights
from spitemalice.bot_bench import (
    BASELINE_ACTIONS,
    add_expert_worlds,
    outcome,
    played_game,
    set_expert_worlds,
    summary,
)

T = TypeVar("T")

# The weights the fit moves by default (the rest keep their values), and the size of a unit
# step of each: a move of 0.2 is a fifth of the weight's own size.
FITTED: tuple[str, ...] = (
    "threat", "prospect", "king_in_hand", "refill", "reveal", "empty_side", "played",
    "side_played", "stall", "run", "gap", "buried", "king_covered", "king_on_side",
)
# The race factors (``Weights.threat_race``, ``prospect_race``): hand-set at 0, so with no
# size of their own; fitted only when named (``--fit``), in units of RACE_SCALE, each kept
# between RACE_LOW (a chance weighed at a tenth when far ahead, at 1.9 times when far behind,
# or the reverse) and RACE_HIGH.
RACE: tuple[str, ...] = ("threat_race", "prospect_race")
RACE_SCALE, RACE_LOW, RACE_HIGH = 2.0, -0.9, 2.0
FITTABLE: tuple[str, ...] = FITTED + RACE
SCALE: dict[str, float] = {name: max(1.0, abs(float(getattr(DEFAULT_WEIGHTS, name))))
                           for name in FITTED} | {name: RACE_SCALE for name in RACE}
LOW, HIGH = -1.0, 2.0  # each weight of FITTED stays between 0 and 3 times its hand-set value
# The bounds of each weight's coordinate.
BOUNDS: dict[str, tuple[float, float]] = {name: (LOW, HIGH) for name in FITTED} | {
    name: (RACE_LOW / RACE_SCALE, RACE_HIGH / RACE_SCALE) for name in RACE}
MARGIN = 0.5  # the weight of the pay-off cards left (difference over 20) in a game's result
PAYOFF = 20

# SPSA's gains (Spall's recommended exponents): c_k = C / (k + 1)^0.101,
# a_k = A / (k + 1 + STABILITY)^0.602.
C = 0.2
A = 0.45
STABILITY = 10


def weights_at(x: Sequence[float], names: Sequence[str] = FITTED,
               base: Weights = DEFAULT_WEIGHTS) -> Weights:
    """``base`` (the hand-set weights unless given) with the weights ``names`` moved to
    coordinates ``x``: each its hand-set value plus ``x`` times its ``SCALE``."""
    moved = {name: getattr(DEFAULT_WEIGHTS, name) + SCALE[name] * xi
             for name, xi in zip(names, x, strict=True)}
    return replace(base, **moved)


def coordinates(weights: Weights, names: Sequence[str] = FITTED,
                base: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """The coordinates ``x`` with ``weights_at(x, names, base) == weights``: each weight in
    ``names``'s distance from its hand-set value, in units of its ``SCALE``. The weights not
    in ``names`` must be those of ``base`` (the fit cannot move them)."""
    fixed = [field.name for field in fields(Weights) if field.name not in names
             and getattr(weights, field.name) != getattr(base, field.name)]
    if fixed:
        raise ValueError(f"weights the fit does not move differ: {', '.join(fixed)}")
    return [(getattr(weights, name) - getattr(DEFAULT_WEIGHTS, name)) / SCALE[name]
            for name in names]


def parse_fitted(text: str) -> tuple[str, ...]:
    """``--fit``: weight names separated by commas (any of ``FITTABLE``), or ``default``
    (``FITTED``), ``all`` (``FITTABLE``)."""
    named = {"default": FITTED, "all": FITTABLE}
    if text in named:
        return named[text]
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in FITTABLE]
    if unknown or not names or len(set(names)) != len(names):
        raise ValueError(f"--fit names distinct weights among {', '.join(FITTABLE)}"
                         + (f" (not {', '.join(unknown)})" if unknown else ""))
    return names


def _option(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as argparse's type for an option: what it refuses (a ValueError, JSON's among
    them, a TypeError, or a file that cannot be read) becomes a usage error with its message.
    argparse shows a plain ValueError as "invalid ... value" only, and the others as a
    traceback."""
    def read(text: str) -> T:
        try:
            return parse(text)
        except (ValueError, TypeError, OSError) as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return read


def _clip(x: Sequence[float], names: Sequence[str] = FITTED) -> list[float]:
    return [min(BOUNDS[name][1], max(BOUNDS[name][0], xi))
            for name, xi in zip(names, x, strict=True)]


def play(level: str, weights: Weights, opponent: str, index: int, first_deal: int
         ) -> tuple[float, int | None, int, float, list[float]]:
    """Game ``index`` as ``bot_bench`` plays it (``played_game``), ``level`` with ``weights``
    against ``opponent`` (with its own weights): (score, winner relative to the bot (0 bot, 1
    opponent, None tie), points, pay-off cards left difference over 20, CPU per bot turn)."""
    game, bot_seat, times = played_game(level, opponent, index, first_deal, weights)
    margin = (game.payoff_size(1 - bot_seat) - game.payoff_size(bot_seat)) / PAYOFF
    return (*outcome(game, bot_seat), margin, times)


def result(level: str, weights: Weights, deals: range, opponent: str = "hard") -> float:
    """The mean fitting result of ``level`` with ``weights`` over ``deals``, both seats."""
    total = 0.0
    for deal in deals:
        for seat in (0, 1):
            score, _, _, margin, _ = play(level, weights, opponent, seat, deal)
            total += score + MARGIN * margin
    return total / (2 * len(deals))


def fit(iterations: int, deals: int, first_deal: int, seed: str, level: str,
        log: Path | None = None, start: Weights = DEFAULT_WEIGHTS, gains_from: int = 0,
        names: Sequence[str] = FITTED, opponent: str = "hard") -> dict[str, object]:
    """SPSA over the weights ``names`` (``FITTED`` unless given; see the module's docstring)
    from ``start``, whose other weights stay as they are, with the gains of iteration
    ``gains_from + k`` at iteration ``k``, in games against ``opponent``; returns the run's
    record."""
    rng = random.Random(seed)
    x = _clip(coordinates(start, names, start), names)
    origin = list(x)
    history: list[list[float]] = []
    began = time.process_time()
    out = log.open("w") if log is not None else None
    try:
        for k in range(iterations):
            ck = C / (gains_from + k + 1) ** 0.101
            ak = A / (gains_from + k + 1 + STABILITY) ** 0.602
            signs = [rng.choice((-1.0, 1.0)) for _ in names]
            plus = _clip([xi + ck * si for xi, si in zip(x, signs, strict=True)], names)
            minus = _clip([xi - ck * si for xi, si in zip(x, signs, strict=True)], names)
            batch = range(first_deal + k * deals, first_deal + (k + 1) * deals)
            j_plus = result(level, weights_at(plus, names, start), batch, opponent)
            j_minus = result(level, weights_at(minus, names, start), batch, opponent)
            step = (j_plus - j_minus) / (2 * ck)
            x = _clip([xi + ak * step * si for xi, si in zip(x, signs, strict=True)], names)
            history.append(x)
            record = {"iteration": k, "deals": [batch.start, batch.stop - 1],
                      "plus": round(j_plus, 4), "minus": round(j_minus, 4),
                      "x": [round(xi, 4) for xi in x],
                      "cpu_s": round(time.process_time() - began, 1)}
            print(json.dumps(record), file=sys.stderr, flush=True)
            if out is not None:
                print(json.dumps(record), file=out, flush=True)
    finally:
        if out is not None:
            out.close()
    tail = history[len(history) // 2:] or [x]
    mean = [sum(column) / len(tail) for column in zip(*tail, strict=True)]
    return {"method": "SPSA", "level": level, "opponent": opponent, "seed": seed,
            "expert_worlds": bot.EXPERT_WORLDS,
            "iterations": iterations, "deals_per_iteration": deals, "gains_from": gains_from,
            "fitted": list(names), "start": [round(xi, 4) for xi in origin],
            "deals": [first_deal, first_deal + iterations * deals - 1],
            "games": 4 * deals * iterations, "cpu_s": round(time.process_time() - began, 1),
            "x": [round(xi, 4) for xi in mean],
            "weights": {name: round(value, 3)
                        for name, value in asdict(weights_at(mean, names, start)).items()}}


def parse_weights(text: str) -> Weights:
    """Weights from JSON (an object of weight names, or a record with ``"weights"``), given
    inline or as a file's path; unnamed weights keep their hand-set values."""
    inline = text.lstrip().startswith(("{", "["))  # JSON's object or array, not a path
    data = json.loads(text if inline else Path(text).read_text())
    if isinstance(data, dict) and isinstance(data.get("weights"), dict):
        data = data["weights"]
    if not isinstance(data, dict):
        raise ValueError("weights are a JSON object of names and numbers")
    known = {field.name for field in fields(Weights)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown weights: {', '.join(sorted(unknown))}")
    return replace(DEFAULT_WEIGHTS, **{name: float(value) for name, value in data.items()})


def parse_start(text: str) -> Weights:
    """``--start``: ``expert`` (``EXPERT_WEIGHTS``), ``hand-set`` (``DEFAULT_WEIGHTS``), or
    weights as ``parse_weights`` reads them."""
    named = {"expert": EXPERT_WEIGHTS, "hand-set": DEFAULT_WEIGHTS}
    return named[text] if text in named else parse_weights(text)


def measure(level: str, weights: Weights, opponent: str, games: int, first_deal: int) -> str:
    results: list[tuple[float, int | None, int]] = []
    times: list[float] = []
    for index in range(games):
        score, side, points, _, spent = play(level, weights, opponent, index, first_deal)
        results.append((score, side, points))
        times.extend(spent)
        if (index + 1) % 20 == 0:
            print(f"  {index + 1}/{games} games", file=sys.stderr, flush=True)
    return summary(level + "*", opponent, results, times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spitemalice.bot_fit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    # expert's sampled deals per decision, for either command: a cheaper expert to fit with.
    shared = argparse.ArgumentParser(add_help=False)
    add_expert_worlds(shared)
    fitting = commands.add_parser("fit", parents=[shared],
                                  help="fit the weights by SPSA over self-play")
    fitting.add_argument("--iterations", type=int, default=100)
    fitting.add_argument("--deals", type=int, default=8, help="training deals an iteration")
    fitting.add_argument("--first-deal", type=int, default=2000)
    fitting.add_argument("--seed", default="bot-fit")
    fitting.add_argument("--level", default="hard", choices=LEVELS)
    fitting.add_argument("--opponent", default="hard",
                         choices=LEVELS + tuple(BASELINE_ACTIONS),
                         help="the level (with its own weights) or baseline the games are against")
    fitting.add_argument("--start", type=_option(parse_start), default="hand-set",
                         help="expert, hand-set, or JSON / a JSON file's path")
    fitting.add_argument("--gains-from", type=int, default=0,
                         help="take the gains from this iteration on (continue a run)")
    fitting.add_argument("--fit", type=_option(parse_fitted), default=FITTED, dest="names",
                         help="the weights to fit, separated by commas (default: the 14 of "
                              "FITTED; all: with the race factors too)")
    fitting.add_argument("--log", type=Path, default=None)
    measuring = commands.add_parser("measure", parents=[shared],
                                    help="play fitted weights on other deals")
    measuring.add_argument("--weights", type=_option(parse_weights), default="{}",
                           help="JSON, or a JSON file's path")
    measuring.add_argument("--games", type=int, default=200)
    measuring.add_argument("--first-deal", type=int, default=1000)
    measuring.add_argument("--level", default="hard", choices=LEVELS)
    measuring.add_argument("--opponent", default="hard",
                           choices=LEVELS + tuple(BASELINE_ACTIONS))
    args = parser.parse_args(argv)
    if args.expert_worlds is not None:
        set_expert_worlds(args.expert_worlds)
    if args.command == "fit":
        print(json.dumps(fit(args.iterations, args.deals, args.first_deal, args.seed,
                             args.level, args.log, args.start,
                             args.gains_from, args.names, args.opponent), indent=1))
    else:
        print(measure(args.level, args.weights, args.opponent, args.games,
                      args.first_deal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
