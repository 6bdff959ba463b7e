"""The perfect-information solver: the best score a known deal allows, with its moves.

``solve(deck)`` knows the whole order of the stock, so it is no player's tool: it certifies
that a deal can be won (a daily deal, say) and how well. Its answer is a ``Solution`` whose
moves replay with ``Game`` to a win with exactly ``score``.

How it searches:

1. **A first win.** Rollout search with the deal's true order: at each card, every legal move
   is followed by the play-out policy (``foursquare._playout``) to the end, and the move whose
   play-out scores best is played. It is quick and usually wins well.
2. **Shorter wins.** A win after placing N cards scores 40 − N. A depth-first search answers
   "is there a win within N cards?": every empty cell still needs a card, so a position after
   ``placed`` cards with ``empty`` cells to fill cannot win before card ``placed + empty`` (one
   more if all cells are full but a card is face down). A face-down card whose row and column
   are both full can only be turned by a card put on a pile in them, and when no card may go
   on a pile any more, the cards of a column whose rows are full turn together, so they must
   already agree (``_stuck``, ``_torn``). Moves these bounds rule out are never tried. Moves
   are ordered like the policy (new cells first, fewest face-down cards first), and refuted
   positions are remembered with their limit (a transposition table; for the first cards,
   positions equal up to the grid's symmetries count as one). The solver first asks for a
   16-card win (most deals have one), then for a win one card shorter than its best, again
   and again, each question on a leash of 1/8 of the node budget: a win that exists is
   usually found fast. A "no" to the last question proves the best win optimal.
3. **Proof from below.** Otherwise it refutes N = 16, 17, … in turn up to the best win: the
   first N with a win is optimal, since every smaller N was refuted. A win with 16 cards (all on
   new cells) is optimal without any search.

The search stops at a node or time budget. The answer then is the best win found, with
``proven_optimal`` false and ``score_bound``, the best score not yet ruled out.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import NamedTuple

from foursquare._playout import new_pile_outcomes, playout, stack_outcomes
from foursquare._sim import (
    BOX_ALLOWED,
    BOX_IS_FULL,
    CELLS_TO_WIN,
    DECK_SIZE,
    MAX_FACE_DOWN,
    PLAYING,
    WON,
    Position,
    SymmetricKey,
)
from foursquare.cards import Card, parse_deck
from foursquare.geometry import COL_LINE, INDEX, POSITION, ROW_LINE

Move = tuple[int, int]

DEFAULT_NODE_BUDGET = 2_000_000
IMPROVE_SHARE = 8  # each try to shorten the best win may use 1/8 of the node budget
SYMMETRY_DEPTH = 8  # up to this many cards placed, refuted positions are stored up to symmetry


class Solution(NamedTuple):
    """The best win found for a deal.

    ``score`` is ``None`` (and ``moves`` empty) if no win was found; ``proven_optimal`` says
    no better score exists (for an unwinnable deal: that none exists at all); ``score_bound``
    is the highest score the search did not rule out (``None``: no win at all is possible);
    ``nodes`` counts positions searched.
    """

    score: int | None
    moves: tuple[Move, ...]
    proven_optimal: bool
    score_bound: int | None
    nodes: int
    seconds: float


class _OutOfBudget(Exception):
    pass


def rollout_search(ranks: list[int], start: Position | None = None) -> tuple[int | None, list[int]]:
    """A win found by one-move lookahead with policy play-outs on the known order (from
    ``start``, default the empty grid; the cells returned are those played after it)."""
    position = Position() if start is None else start.copy()
    cells: list[int] = []
    while position.status == PLAYING:
        rank = ranks[position.placed]
        best_cell, best_value = -1, None
        value: tuple[int, int]
        for cell in position.legal_cells():
            after = position.copy()
            status = after.play(cell, rank)
            if status == PLAYING:
                score = playout(after, ranks, after.placed)
            else:
                score = -1 if after.score is None else after.score  # None unless won
            value = (score, -after.face_down)
            if best_value is None or value > best_value:
                best_cell, best_value = cell, value
        cells.append(best_cell)
        position.play(best_cell, rank)
    return position.score, cells


class _Search:
    """Depth-first searches for wins within a number of cards, sharing one table."""

    def __init__(self, ranks: list[int], node_budget: int, deadline: float | None) -> None:
        self.ranks = ranks
        self.node_budget = node_budget
        self.deadline = deadline
        self.nodes = 0
        self.stop_at = node_budget
        # Position key -> the largest card limit under which it is known not to win.
        self.refuted: dict[bytes | SymmetricKey, int] = {}
        self.path: list[int] = []

    def wins_within(self, limit: int, max_nodes: int | None = None,
                    start: Position | None = None) -> list[int] | None:
        """The cells of a win placing at most ``limit`` cards (from ``start``, default the
        empty grid), or None if there is none.

        Raises ``_OutOfBudget`` after ``max_nodes`` more positions, or when the whole budget
        is spent (then ``exhausted()`` is true).
        """
        self.path = []
        self.stop_at = self.node_budget
        if max_nodes is not None:
            self.stop_at = min(self.node_budget, self.nodes + max_nodes)
        if self._search(Position() if start is None else start.copy(), limit):
            return self.path
        return None

    def exhausted(self) -> bool:
        return self.nodes >= self.node_budget or (
            self.deadline is not None and time.perf_counter() > self.deadline)

    def _search(self, position: Position, limit: int) -> bool:
        self.nodes += 1
        if self.nodes > self.stop_at or (
            self.deadline is not None and self.nodes % 1024 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget
        rank = self.ranks[position.placed]
        legal = position.open & BOX_ALLOWED[position.box]
        empty = CELLS_TO_WIN - position.piles
        spare = limit - position.placed - 1  # cards still allowed after this one
        children: list[tuple[int, int, int]] = []
        new_cells = legal & ~position.occupied
        if new_cells:
            left = empty - 1
            for cell, face_down in new_pile_outcomes(position, rank, new_cells).items():
                if face_down > MAX_FACE_DOWN:
                    continue
                if left == 0 and face_down == 0:
                    self.path.append(cell)
                    return True
                # Cards still needed: one per empty cell, or one to turn the last ones up.
                if (left or 1) <= spare:
                    children.append((0, face_down, cell))
        stacks = legal & position.occupied
        if stacks and empty <= spare:
            for cell, face_down in stack_outcomes(position, rank, stacks).items():
                if face_down > MAX_FACE_DOWN:
                    continue
                if empty == 0 and face_down == 0:
                    self.path.append(cell)
                    return True
                if (empty or 1) <= spare:
                    children.append((1, face_down, cell))
        children.sort()
        refuted = self.refuted
        for _, _, cell in children:
            after = position.copy()
            after.play(cell, rank)
            if after.face_down and _stuck(after, limit):
                continue
            # Positions reached without a card on a pile are reached only one way (the card
            # in each cell says when it came), so only symmetry can make them meet again.
            key: bytes | SymmetricKey | None
            if after.placed <= SYMMETRY_DEPTH:
                key = after.symmetric_key()
            elif after.piles < after.placed:
                key = after.key()
            else:
                key = None
            if key is not None and refuted.get(key, 0) >= limit:
                continue
            self.path.append(cell)
            if self._search(after, limit):
                return True
            self.path.pop()
            if key is not None:
                refuted[key] = limit
        return False


def _stuck(position: Position, limit: int) -> bool:
    """Whether some face-down cards can no longer be turned up within ``limit`` cards.

    A card flips only when a card lands in its row or column. Once both of those lines are
    full, only a card put on a pile in one of them (or on the card itself) can still turn it,
    and the limit leaves ``limit - placed - empty cells`` such cards. With none left, a
    face-down card in two full lines is there for good (and see ``_torn``); with one left, one
    pile must lie in the row or the column of every such card.
    """
    stacks_left = limit - position.placed - (CELLS_TO_WIN - position.piles)
    if stacks_left > 1 or not BOX_IS_FULL[position.box]:
        return False  # (a full row needs four columns, a full column four rows)
    rows = position.rows
    cols = position.cols
    top = position.top
    stuck = [cell for line in rows if len(line) == 4 for cell in line
             if top[cell] < 0 and len(cols[COL_LINE[cell]]) == 4]
    if stacks_left <= 0:
        return bool(stuck) or _torn(position)
    if not stuck:
        return False
    # One card on a pile at (row, col) reaches row ``row`` and column ``col``.
    first_row, first_col = ROW_LINE[stuck[0]], COL_LINE[stuck[0]]
    for row, col in ((first_row, None), (None, first_col)):
        # Either the pile shares the first card's row (then the others off that row must all
        # share one column) or its column (then the others off it must share one row).
        if row is not None:
            rest = {COL_LINE[cell] for cell in stuck if ROW_LINE[cell] != row}
        else:
            rest = {ROW_LINE[cell] for cell in stuck if COL_LINE[cell] != col}
        if len(rest) <= 1:
            return False
    return True


def _torn(position: Position) -> bool:
    """Whether, with no card left to put on a pile, two cards that must turn together differ.

    A card whose row is full can only be turned by a card landing in its column, and such a
    card turns every other card of the column at once. So all the cards of one column whose rows
    are full turn together, whatever comes: if one is face up and another face down, they can
    never all be face up. The same holds for the cards of a row whose columns are full.
    """
    top = position.top
    for lines, other_line in ((position.rows, COL_LINE), (position.cols, ROW_LINE)):
        face_by_line: dict[int, bool] = {}
        for members in lines:
            if len(members) == 4:
                for cell in members:
                    face_up = top[cell] > 0
                    if face_by_line.setdefault(other_line[cell], face_up) != face_up:
                        return True
    return False


def _attempt(search: _Search, limit: int, leash: int) -> tuple[str, list[int]]:
    """``("found", cells)``, ``("refuted", [])`` or ``("cut", [])`` if the leash ran out."""
    try:
        found = search.wins_within(limit, leash)
    except _OutOfBudget:
        if search.exhausted():
            raise
        return "cut", []
    return ("refuted", []) if found is None else ("found", found)


def solve(deck: Iterable[str | Card], *, node_budget: int = DEFAULT_NODE_BUDGET,
          time_budget: float | None = None) -> Solution:
    """The best win of a known deal (see the module's docstring for the method).

    ``node_budget`` bounds the positions searched, ``time_budget`` (seconds) the time; the
    first win is always found before either applies.
    """
    start = time.perf_counter()
    ranks = [card.rank for card in parse_deck(deck)]
    score, cells = rollout_search(ranks)
    best = None if score is None else DECK_SIZE - score  # cards the best win so far takes
    lowest = CELLS_TO_WIN  # every win takes at least this many cards (the rest are refuted)
    search = _Search(ranks, node_budget, None if time_budget is None else start + time_budget)
    try:
        leash = node_budget if best is None else max(10_000, node_budget // IMPROVE_SHARE)
        # Most deals have a 16-card win: ask for it first, on a leash.
        if best is not None and best > lowest:
            outcome, found = _attempt(search, lowest, leash)
            if outcome == "found":
                cells, best = found, len(found)
            elif outcome == "refuted":
                lowest += 1
        # Improve: ask for a win one card shorter than the best, again on a leash.
        while best is None or best > lowest:
            limit = DECK_SIZE if best is None else best - 1
            outcome, found = _attempt(search, limit, leash)
            if outcome == "cut":
                break  # too hard on this leash: leave it to the proof below
            if outcome == "refuted":
                lowest = limit + 1  # (the best win is optimal)
                break
            cells, best = found, len(found)
        # Prove: refute 16, 17, … cards until the best win is reached (or beaten).
        while lowest < (DECK_SIZE + 1 if best is None else best):
            proof = search.wins_within(lowest)
            if proof is not None:
                cells, best = proof, len(proof)
                break
            lowest += 1
    except _OutOfBudget:
        pass
    proven = lowest > DECK_SIZE if best is None else lowest >= best
    return Solution(
        None if best is None else DECK_SIZE - best,
        () if best is None else tuple(POSITION[cell] for cell in cells),
        proven,
        None if lowest > DECK_SIZE else DECK_SIZE - lowest,
        search.nodes,
        time.perf_counter() - start,
    )


def winnable(deck: Iterable[str | Card], moves: Iterable[tuple[int, int]] = (), *,
             node_budget: int = DEFAULT_NODE_BUDGET,
             time_budget: float | None = None) -> bool | None:
    """Whether a win is still possible, knowing the whole deal, after ``moves`` (legal moves,
    as a game's record holds them). ``None`` if the budget ran out before the answer.

    Along one game the answer can only turn from true to false, so a caller can find the move
    that lost a game by bisecting over its moves.
    """
    start = time.perf_counter()
    ranks = [card.rank for card in parse_deck(deck)]
    position = Position()
    for row, col in moves:
        position.play(INDEX[(row, col)], ranks[position.placed])
        if position.status != PLAYING:
            break
    if position.status != PLAYING:
        return position.status == WON
    if rollout_search(ranks, position)[0] is not None:
        return True
    search = _Search(ranks, node_budget, None if time_budget is None else start + time_budget)
    try:
        return search.wins_within(DECK_SIZE, start=position) is not None
    except _OutOfBudget:
        return None


__all__ = ["DEFAULT_NODE_BUDGET", "Solution", "solve", "winnable"]
