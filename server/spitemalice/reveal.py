"""A finished game laid open, for the record's answer: the deal as it began, what every action
moved and drew, and how it all lay at the end, hidden cards included. Only ever built for a
game that is over (RecordView refuses one in progress), so it reveals nothing early."""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.spitemalice.models import MatchGame
from spitemalice import Game
from spitemalice.cards import RANK_CODES, SUIT_CODES

SEATS = (0, 1)


def _order(code: str) -> tuple[int, int]:
    return RANK_CODES.index(code[0]), SUIT_CODES.index(code[1])


def _hands(engine: Game) -> list[Counter[str]]:
    return [Counter(str(card) for card in engine.hand(seat)) for seat in SEATS]


def revealed(game: MatchGame) -> dict[str, Any]:
    """``deal``: both pay-off piles and the stock (top first) and both hands once the starter
    has drawn; ``steps``: for each action, who played it, the card it moved, the rank it
    counted as (null for a discard), whether it completed a centre stack, the pay-off plays
    its seat could still have made when the action was a discard (which ended the turn) and
    the cards each seat drew right after it; ``final``: both hands, pay-off piles and the
    stock at the end."""
    engine = Game(bytes.fromhex(game.seed))
    start = engine.position()
    steps = []
    for action in game.actions:
        before = _hands(engine)
        # A turn ended while the pay-off pile's top could still be played: the review's miss.
        missed = ([list(legal) for legal in engine.legal_actions() if legal.source == "P"]
                  if str(action[1]).startswith("S") else [])
        result = engine.play(action)
        if result.action.source == str(result.card):
            before[result.player][str(result.card)] -= 1
        after = _hands(engine)
        steps.append({
            "seat": result.player,
            "card": str(result.card),
            "as": None if result.counts_as is None else RANK_CODES[result.counts_as - 1],
            "completed": result.completed,
            "payoff_missed": missed,
            "drawn": [sorted((after[seat] - before[seat]).elements(), key=_order)
                      for seat in SEATS],
        })
    end = engine.position()
    return {
        "deal": {"payoff": [list(pile) for pile in start.payoffs],
                 "stock": list(start.stock), "hands": [list(hand) for hand in start.hands]},
        "steps": steps,
        "final": {"payoff": [list(pile) for pile in end.payoffs], "stock": list(end.stock),
                  "hands": [list(hand) for hand in end.hands]},
    }
