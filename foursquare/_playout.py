"""The bot's default policy, and play-outs with it to the end of a game.

The policy is the rule of thumb that wins quickly: a win is only possible once all 16 cells
are filled, and every card put on an existing pile is a card the final score loses. So:

1. put the card on a new cell if that leaves at most 4 face-down cards, choosing the new cell
   that leaves the fewest;
2. otherwise put it on a pile, again leaving the fewest face-down cards;
3. ties go to the lowest cell (row, then column), so the policy is deterministic.

On its own it wins about 65% of random deals with a mean score near 15; the bot plays it out
from each candidate move over many sampled orders of the unseen cards (``foursquare.bot``).

The face-down count a move would leave is worked out without playing it. For a new cell the
flip test only depends on the line it joins, so each line is judged once per card (one
comparison with the line's lowest and highest face-up ranks) and every new cell in that line
reuses the answer. The tests check this preview against what ``Position.play`` really does.
"""

from __future__ import annotations

from foursquare._sim import BOX_ALLOWED, MAX_FACE_DOWN, PLAYING, WON, Position, cells_of
from foursquare.geometry import COL_LINE, ROW_LINE

_NO_CHANGE = 0


def line_change(members: list[int], top: list[int], rank: int) -> int:
    """How a new pile of ``rank`` in a line with ``members`` changes the face-down count."""
    up = down = 0
    low = 11
    high = 0
    for cell in members:
        shown = top[cell]
        if shown > 0:
            up += 1
            if shown < low:
                low = shown
            if shown > high:
                high = shown
        else:
            down += 1
    if up and low <= rank <= high:
        return _NO_CHANGE  # not the strict extreme (a tie never is)
    return up - down


def new_pile_outcomes(position: Position, rank: int, cells: int) -> dict[int, int]:
    """The face-down count after ``rank`` goes to each empty cell of the bit set ``cells``."""
    top = position.top
    rows = position.rows
    cols = position.cols
    face_down = position.face_down
    row_change: dict[int, int] = {}
    col_change: dict[int, int] = {}
    outcomes = {}
    for cell in cells_of(cells):
        line = ROW_LINE[cell]
        change = row_change.get(line)
        if change is None:
            change = row_change[line] = line_change(rows[line], top, rank)
        line = COL_LINE[cell]
        other = col_change.get(line)
        if other is None:
            other = col_change[line] = line_change(cols[line], top, rank)
        outcomes[cell] = face_down + change + other
    return outcomes


def stack_outcomes(position: Position, rank: int, cells: int) -> dict[int, int]:
    """The face-down count after ``rank`` goes on each pile of the bit set ``cells``."""
    top = position.top
    # Covering a face-down top turns one card up; then each line the pile is in may flip.
    # Each line is summed up once for all its piles.
    outcomes = {cell: position.face_down - (top[cell] < 0) for cell in cells_of(cells)}
    for lines in (position.rows, position.cols):
        for members in lines:
            if not members:
                continue
            up = sorted([top[cell] for cell in members if top[cell] > 0])
            count_up = len(up)
            count_down = len(members) - count_up
            for cell in members:
                if cell in outcomes:
                    old = top[cell]
                    if old < 0:  # the other piles: all the face-up ones, one face-down less
                        if not (count_up and up[0] <= rank <= up[-1]):
                            outcomes[cell] += count_up - count_down + 1
                    elif count_up == 1:  # no other face-up pile: the line flips
                        outcomes[cell] -= count_down
                    else:
                        low = up[1] if up[0] == old else up[0]
                        high = up[-2] if up[-1] == old else up[-1]
                        if not low <= rank <= high:
                            outcomes[cell] += count_up - 1 - count_down
    return outcomes


def policy_cell(position: Position, rank: int) -> int:
    """The cell the policy puts ``rank`` on (the position must still be playing)."""
    legal = position.open & BOX_ALLOWED[position.box]
    new_cells = legal & ~position.occupied
    if new_cells:
        outcomes = new_pile_outcomes(position, rank, new_cells)
        best = min(outcomes, key=outcomes.__getitem__)  # the lowest cell among the best
        if outcomes[best] <= MAX_FACE_DOWN:
            return best
    stacks = legal & position.occupied
    if stacks:
        outcomes = stack_outcomes(position, rank, stacks)
        best = min(outcomes, key=outcomes.__getitem__)
        if outcomes[best] <= MAX_FACE_DOWN:
            return best
    return cells_of(legal)[0]  # every move loses


def playout(position: Position, ranks: list[int], start: int = 0) -> int:
    """Play ``ranks[start:]`` in order with the policy; the score, or -1 for a loss.

    ``position`` is played on (pass a copy to keep it). ``ranks`` must hold at least the cards
    left in the stock, current card first.
    """
    index = start
    play = position.play
    while True:
        rank = ranks[index]
        index += 1
        status = play(policy_cell(position, rank), rank)
        if status != PLAYING:
            return 40 - position.placed if status == WON else -1
