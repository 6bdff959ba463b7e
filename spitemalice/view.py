"""What a player may see of a game, in one place (SPITE_MALICE.md, "What a player may see").

``player_view(game, seat)`` is the only thing the server serialises for a seat, and what a bot
decides from. It holds the seat's own hand; both pay-off piles' sizes and top cards; every side
stack and centre stack, card by card; the stock's size; the other hand's size; and the actions
played, each with the card it moved. It never holds the other seat's hand, the order of the
stock or a pay-off card below the top; the seed, from which the whole deal follows, appears
only once the game is over.

``unseen_cards(view)`` is the multiset a seat cannot place: the two decks minus every card the
view shows, i.e. the stock, the other hand and the cards under both pay-off tops together.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from spitemalice.cards import (
    CANONICAL_CODES,
    CODE_OF_ID,
    COPIES,
    RANK_CODES,
    SUIT_CODES,
    sorted_codes,
)
from spitemalice.game import PLAYING, Game, PlayResult

# One played action: who, what, the card it moved, the rank it counts as on a centre stack
# (None for a discard) and whether it completed the stack. ("as" is a keyword, hence the form.)
HistoryEntry = TypedDict("HistoryEntry", {
    "player": int, "action": list[str], "card": str, "as": int | None, "completed": bool,
})


class PlayerView(TypedDict):
    seat: int
    status: str
    winner: int | None
    points: int | None
    turn: int | None  # the player to move; None once over
    turn_number: int
    hand: list[str]  # the seat's own hand, by rank then suit
    hand_sizes: list[int]  # both players'
    payoff: list[int]  # both pay-off piles' sizes
    payoff_top: list[str | None]
    sides: list[list[list[str]]]  # both players' four side stacks, bottom to top
    centre: list[list[str]]  # the three centre stacks, bottom to top
    stock: int
    legal_actions: list[list[str]]  # the seat's, when it is to move; else empty
    actions_played: int
    history: list[HistoryEntry]  # actions from ``since`` on, with the card each moved
    seed: str | None  # hex, once the game is over


def history_entry(result: PlayResult) -> HistoryEntry:
    """One played action as a player sees it (the card it moved is face up wherever it went)."""
    return {
        "player": result.player,
        "action": [result.action.source, result.action.target],
        "card": str(result.card),
        "as": result.counts_as,
        "completed": result.completed,
    }


def player_view(game: Game, seat: int, *, since: int = 0) -> PlayerView:
    """The JSON-ready view of ``game`` for the player in ``seat`` (0 or 1).

    ``history`` lists the actions from index ``since`` on (all of them by default), so a
    client that already holds the first ``since`` can be sent only what is new.
    """
    if seat not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, not {seat!r}")
    # The game's internals are read directly: this is the hot path of a bot's every decision.
    hands = game._hands
    payoffs = game._payoffs
    status = game.status
    results = game._results
    return {
        "seat": seat,
        "status": status,
        "winner": game.winner,
        "points": game.points,
        "turn": game.turn,
        "turn_number": game.turn_number,
        "hand": sorted_codes(hands[seat]),
        "hand_sizes": [len(hands[0]), len(hands[1])],
        "payoff": [len(payoffs[0]), len(payoffs[1])],
        "payoff_top": [CODE_OF_ID[pile[-1]] if pile else None for pile in payoffs],
        "sides": [[[CODE_OF_ID[c] for c in stack] for stack in stacks] for stacks in game._sides],
        "centre": [[CODE_OF_ID[c] for c in stack] for stack in game._centre],
        "stock": len(game._stock),
        "legal_actions": (
            [[a.source, a.target] for a in game.legal_actions()] if game.turn == seat else []
        ),
        "actions_played": len(results),
        "history": [history_entry(result) for result in results[since:]],
        "seed": game.seed.hex() if status != PLAYING else None,
    }


def _shown(view: PlayerView) -> list[str]:
    """Every card code ``view`` shows, once per copy shown (the history aside: the cards it
    names are on the side and centre stacks, or were and are back in the stock)."""
    shown = list(view["hand"])
    shown += [top for top in view["payoff_top"] if top is not None]
    for stacks in view["sides"]:
        for stack in stacks:
            shown += stack
    for stack in view["centre"]:
        shown += stack
    return shown


def unseen_cards(view: PlayerView) -> Counter[str]:
    """The cards ``view``'s seat cannot see, by code: two of each code minus those shown."""
    unseen = Counter({code: COPIES for code in CANONICAL_CODES})
    unseen.subtract(_shown(view))
    return +unseen


_RANK_OF_CHARACTER = {character: rank for rank, character in enumerate(RANK_CODES, start=1)}
_PER_RANK = COPIES * len(SUIT_CODES)  # 8 cards of each rank in two decks


def unseen_ranks(view: PlayerView) -> list[int]:
    """``unseen_cards`` counted by rank (suits never matter): index 1 (Ace) … 13 (King)."""
    counts = [0] + [_PER_RANK] * len(RANK_CODES)
    rank_of = _RANK_OF_CHARACTER
    for code in _shown(view):
        counts[rank_of[code[0]]] -= 1
    return counts
