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


def line_summary(members: list[int], top: list[int]) -> tuple[list[int], int]:
    """A line's face-up ranks, sorted, and its number of face-down cards."""
    shown = [top[cell] for cell in members]
    up = sorted([rank for rank in shown if rank > 0])
    return up, len(shown) - len(up)


def stack_change(summary: tuple[list[int], int], old: int, rank: int) -> int:
    """How putting ``rank`` on a pile of the line (top ``old``, signed) changes the count."""
    up, down = summary
    if old < 0:
        down -= 1  # the covered face-down card leaves the line
        if up and up[0] <= rank <= up[-1]:
            return _NO_CHANGE
        return len(up) - down
    if len(up) == 1:
        return -down  # no other face-up card: the line flips
    low = up[1] if up[0] == old else up[0]
    high = up[-2] if up[-1] == old else up[-1]
    if low <= rank <= high:
        return _NO_CHANGE
    return len(up) - 1 - down


def policy_cell(position: Position, rank: int) -> int:
    """The cell the policy puts ``rank`` on (the position must still be playing)."""
    top = position.top
    rows = position.rows
    cols = position.cols
    face_down = position.face_down
    legal = position.open & BOX_ALLOWED[position.box]
    new_cells = legal & ~position.occupied
    best = -1
    best_face_down = MAX_FACE_DOWN + 1
    if new_cells:
        row_change: dict[int, int] = {}
        col_change: dict[int, int] = {}
        for cell in cells_of(new_cells):
            line = ROW_LINE[cell]
            change = row_change.get(line)
            if change is None:
                change = row_change[line] = line_change(rows[line], top, rank)
            line = COL_LINE[cell]
            other = col_change.get(line)
            if other is None:
                other = col_change[line] = line_change(cols[line], top, rank)
            after = face_down + change + other
            if after < best_face_down:
                best_face_down = after
                best = cell
        if best >= 0:
            return best
    row_summary: dict[int, tuple[list[int], int]] = {}
    col_summary: dict[int, tuple[list[int], int]] = {}
    for cell in cells_of(legal & position.occupied):
        old = top[cell]
        line = ROW_LINE[cell]
        summary = row_summary.get(line)
        if summary is None:
            summary = row_summary[line] = line_summary(rows[line], top)
        after = face_down - (old < 0) + stack_change(summary, old, rank)
        line = COL_LINE[cell]
        summary = col_summary.get(line)
        if summary is None:
            summary = col_summary[line] = line_summary(cols[line], top)
        after += stack_change(summary, old, rank)
        if after < best_face_down:
            best_face_down = after
            best = cell
    if best >= 0:
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
