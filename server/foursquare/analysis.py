"""After a game: the bot's review of every move, and hints during a practice game.

The review (``foursquare.bot.review_game``) judges each move with what the player knew when
making it: the bot's estimate of the move played against its own choice. From those come each
move's verdict, the moments that lost the most, the move after which the game was lost, and
an overall rating. The move after which a lost game had no win left is proven with the solver
(it knows the whole deal) when its budget allows. It is computed once, in a background job
(``server.jobs.background``), and stored as ``GameAnalysis``.
"""

from __future__ import annotations

import time
from typing import Any, TypedDict

from django.conf import settings
from django.db import IntegrityError, transaction

from foursquare import Game as EngineGame
from foursquare.bot import Bot, knowledge, play_deal, review_game
from foursquare.solver import winnable
from server.core.queries import one_or_none
from server.foursquare.models import Game, GameAnalysis

# value lost (win_bonus × P(win) + E[score], see docs/BOT.md) -> verdict, first match wins
VERDICTS = [(0.0, "best"), (0.5, "good"), (1.5, "inaccuracy"), (4.0, "mistake")]
BLUNDER = "blunder"
# A move's share of accuracy falls linearly to 0 at this much value lost.
ACCURACY_SCALE = 4.0
RATINGS = [(95, "excellent"), (85, "good"), (70, "fair"), (0, "poor")]
TURNING_POINTS = 3
BOT_NAME = "FoursquareBot"


def verdict_of(value_lost: float, *, is_best: bool) -> str:
    if is_best or value_lost <= VERDICTS[0][0]:
        return VERDICTS[0][1]
    for limit, verdict in VERDICTS[1:]:
        if value_lost < limit:
            return verdict
    return BLUNDER


def rating_of(value_losses: list[float]) -> dict[str, Any]:
    """Accuracy 0-100 over the moves that were a choice; every forced move is perfect."""
    if not value_losses:
        accuracy = 100
    else:
        shares = [max(0.0, 1.0 - lost / ACCURACY_SCALE) for lost in value_losses]
        accuracy = round(100 * sum(shares) / len(shares))
    label = next(label for floor, label in RATINGS if accuracy >= floor)
    return {"accuracy": accuracy, "label": label}


def _estimate(estimate) -> dict[str, float]:
    return {"win_probability": round(estimate.win_probability, 4),
            "expected_score": round(estimate.expected_score, 3)}


class MoveRow(TypedDict):
    """One move of an analysis: what was played, the bot's best, and what the choice cost."""

    index: int
    card: str
    played: list[int]
    best: list[int]
    played_estimate: dict[str, float]
    best_estimate: dict[str, float]
    value_lost: float
    verdict: str
    forced: bool


def lost_at(deck, moves: list[tuple[int, int]], *,
            time_budget: float) -> tuple[int | None, bool, tuple[int, int]]:
    """The index of the move of a lost game after which no win was left, knowing the whole
    deal: ``(index, proven, (first, last))``, where the move is known to lie between ``first``
    and ``last``. ``(None, True, ...)`` if the deal never had a win.

    Along the moves played a win can only become impossible, never possible again, so the
    moment is found by bisection, about log2(moves) questions to the solver. A question it
    cannot answer in ``time_budget`` stops the search with the range narrowed so far (near the
    moment itself, proving that no win is left can take the solver far longer than finding one).
    """
    def win_left(placed: int) -> bool | None:
        return winnable(deck, moves[:placed], time_budget=time_budget)

    still, gone = 0, len(moves)  # a win is left after `still` moves, none after `gone`
    first = win_left(0)
    if first is False:
        return None, True, (0, gone - 1)
    if first is None:
        return None, False, (0, gone - 1)
    while gone - still > 1:
        middle = (still + gone) // 2
        answer = win_left(middle)
        if answer is None:
            return None, False, (still, gone - 1)
        still, gone = (middle, gone) if answer else (still, middle)
    return gone - 1, True, (gone - 1, gone - 1)


def analysis_of(deck, moves, *, status: str, bot_options: dict[str, Any],
                bot_result: dict[str, Any], solver_seconds: float | None = None) -> dict[str, Any]:
    """The analysis body of a finished game (deck and moves as the engine takes them).

    ``solver_seconds``: the solver's time per question for ``win_lost_at``; None leaves it to
    the bot's estimate."""
    reviews = review_game(deck, [tuple(move) for move in moves], **bot_options)
    engine = EngineGame(deck)
    rows: list[MoveRow] = []
    choices: list[float] = []
    for review in reviews:
        card = str(engine.current)
        forced = len(review.estimates) == 1
        lost = max(0.0, review.value_lost)
        verdict = verdict_of(lost, is_best=review.played == review.best)
        rows.append({
            "index": review.index,
            "card": card,
            "played": list(review.played),
            "best": list(review.best),
            "played_estimate": _estimate(review.estimates[review.played]),
            "best_estimate": _estimate(review.estimates[review.best]),
            "value_lost": round(lost, 3),
            "verdict": verdict,
            "forced": forced,
        })
        if not forced:
            choices.append(lost)
        engine.play(review.played)
    turning = sorted((row for row in rows if row["value_lost"] > 0),
                     key=lambda row: (-row["value_lost"], row["index"]))[:TURNING_POINTS]
    win_lost_at, proven = None, status != Game.Status.LOST  # a won game was never lost
    first, last = 0, len(rows) - 1
    if not proven and solver_seconds is not None:
        win_lost_at, proven, (first, last) = lost_at(deck, [tuple(move) for move in moves],
                                                     time_budget=solver_seconds)
    if not proven:
        # The bot's estimate instead: the first move after which no play-out won any more,
        # kept within what the solver did prove.
        for row in reversed(rows):
            if row["played_estimate"]["win_probability"] > 0:
                break
            win_lost_at = row["index"]
        if win_lost_at is not None:
            win_lost_at = min(max(win_lost_at, first), last)
    return {
        "status": "done",
        "moves": rows,
        "turning_points": [row["index"] for row in turning],
        "win_lost_at": win_lost_at,
        "win_lost_at_proven": proven,
        "rating": rating_of(choices),
        "bot": bot_result,
    }


def bot_result_of(deck) -> dict[str, Any]:
    """The bot's own game on a deal, played as it plays a daily for the board."""
    game = play_deal(deck, **settings.FOURSQUARE_PREPARE_BOT)
    return {"name": BOT_NAME, "status": game.status, "score": game.score}


def game_analyse(game: Game) -> GameAnalysis:
    """Compute and store the analysis of a finished game (once; a second call returns it)."""
    existing = one_or_none(GameAnalysis.objects.filter(game=game))
    if existing is not None:
        return existing
    daily = game.daily
    started = time.process_time()
    if daily is not None and daily.bot_status:
        bot_result = {"name": BOT_NAME, "status": daily.bot_status, "score": daily.bot_score}
    else:
        bot_result = bot_result_of(game.deal.deck)
    result = analysis_of(game.deal.deck, game.move_list, status=game.status,
                         bot_options=dict(settings.FOURSQUARE_ANALYSIS_BOT),
                         bot_result=bot_result,
                         solver_seconds=settings.FOURSQUARE_ANALYSIS_SOLVER_SECONDS)
    seconds = time.process_time() - started
    try:
        with transaction.atomic():
            return GameAnalysis.objects.create(game=game, result=result, seconds=seconds)
    except IntegrityError:  # computed twice at once: the first one stays
        return GameAnalysis.objects.get(game=game)


def game_analyse_job(key: str) -> None:
    game = one_or_none(Game.objects.select_related("deal", "daily").filter(pk=key))
    if game is not None and game.is_over:
        game_analyse(game)


def hint_of(engine: EngineGame) -> dict[str, Any]:
    """The bot's move for a game in progress, and its estimate of every legal move; it sees
    only what the player knows (``knowledge``)."""
    options: dict[str, Any] = settings.FOURSQUARE_HINT_BOT  # the Bot's keyword arguments
    bot = Bot(**options)
    estimates = bot.evaluate(*knowledge(engine))
    best = bot.best(estimates)
    ordered = sorted(estimates.items(),
                     key=lambda item: (-item[1].value(bot.win_bonus), item[0]))
    return {
        "move": list(best),
        "estimates": [{"move": list(move), **_estimate(estimate)} for move, estimate in ordered],
    }

