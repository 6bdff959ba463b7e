"""A bare, fast Foursquare position for search and play-outs.

The rules are the engine's (``foursquare.game``), reduced to what decides the future: the
height, rank and face of each pile's top card. Suits never matter and covered cards are out of
play, so a card is just its rank here. A cell's top is one signed integer, ``+rank`` face up,
``-rank`` face down, ``0`` empty, and the position is a handful of flat lists and bit sets that
copy in a few microseconds. Cells are the engine's (``foursquare.geometry``: a 7×7 frame
around the first card), so a cell index turns into a move with ``POSITION``.

The tests replay random games and the shared vectors through both this and ``Game`` and
compare every step.
"""

from __future__ import annotations

from collections.abc import Callable

from foursquare.geometry import (
    ALLOWED,
    CELL_COUNT,
    COL_LINE,
    FIRST_ALLOWED,
    NEIGHBOUR_BITS,
    ORIGIN,
    POSITION,
    ROW_LINE,
    SPAN,
    cells_of,
)

PLAYING, WON, LOST = 0, 1, 2
DECK_SIZE = 40
PILE_LIMIT = 4
MAX_FACE_DOWN = 4
CELLS_TO_WIN = 16

# Bounding boxes are numbered so that growing one is a table lookup:
# BOX_AFTER[box * CELL_COUNT + cell] is the box once ``cell`` is occupied too,
# BOX_ALLOWED[box] the cells a new pile may still go to. Box NO_BOX is the empty grid.
_BOXES = sorted(ALLOWED)
_BOX_ID = {box: number for number, box in enumerate(_BOXES)}
NO_BOX = len(_BOXES)
BOX_ALLOWED: tuple[int, ...] = (*(ALLOWED[box] for box in _BOXES), FIRST_ALLOWED)
# Whether the box spans four rows and four columns (so lines can be full).
BOX_IS_FULL: tuple[bool, ...] = (
    *(bottom - top == 3 and right - left == 3 for top, bottom, left, right in _BOXES), False)


def _grown(box: int, cell: int) -> int:
    row, col = POSITION[cell]
    if box == NO_BOX:
        return _BOX_ID.get((row, row, col, col), -1)
    top, bottom, left, right = _BOXES[box]
    return _BOX_ID.get((min(top, row), max(bottom, row), min(left, col), max(right, col)), -1)


BOX_AFTER: tuple[int, ...] = tuple(
    _grown(box, cell) for box in range(NO_BOX + 1) for cell in range(CELL_COUNT)
)

_SYMMETRIES: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda row, col: (row, col), lambda row, col: (col, -row),
    lambda row, col: (-row, -col), lambda row, col: (-col, row),
    lambda row, col: (row, -col), lambda row, col: (-row, col),
    lambda row, col: (col, row), lambda row, col: (-col, -row),
)

# The cards placed, then each pile as (row, col, top, height), in the canonical orientation.
SymmetricKey = tuple[int | tuple[int, int, int, int], ...]


class Position:
    """A position: the grid plus how many cards have been placed. ``play`` applies a rank.

    ``rows[line]`` / ``cols[line]`` list the occupied cells of each frame row / column, which is
    all the flip rule looks at. ``open`` holds the cells a card may go to as far as neighbours
    and pile heights allow, ``box`` the bounding box's number; ``legal()`` combines the two.
    """

    __slots__ = (
        "box",
        "cols",
        "face_down",
        "height",
        "occupied",
        "open",
        "piles",
        "placed",
        "rows",
        "status",
        "top",
    )

    def __init__(self) -> None:
        self.height = [0] * CELL_COUNT
        self.top = [0] * CELL_COUNT
        self.rows: list[list[int]] = [[] for _ in range(SPAN)]
        self.cols: list[list[int]] = [[] for _ in range(SPAN)]
        self.occupied = 0
        self.open = FIRST_ALLOWED
        self.box = NO_BOX
        self.piles = 0
        self.face_down = 0
        self.placed = 0
        self.status = PLAYING

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.height = self.height[:]
        other.top = self.top[:]
        other.rows = [line[:] for line in self.rows]
        other.cols = [line[:] for line in self.cols]
        other.occupied = self.occupied
        other.open = self.open
        other.box = self.box
        other.piles = self.piles
        other.face_down = self.face_down
        other.placed = self.placed
        other.status = self.status
        return other

    def legal(self) -> int:
        """The legal cells as a bit set (0 once the game is over)."""
        if self.status != PLAYING:
            return 0
        return self.open & BOX_ALLOWED[self.box]

    def legal_cells(self) -> list[int]:
        return cells_of(self.legal())

    def play(self, cell: int, rank: int) -> int:
        """Place ``rank`` at ``cell`` (which must be legal); returns the new status."""
        height = self.height
        top = self.top
        face_down = self.face_down
        if not height[cell]:
            self.piles += 1
            self.occupied |= 1 << cell
            self.rows[ROW_LINE[cell]].append(cell)
            self.cols[COL_LINE[cell]].append(cell)
            self.open |= NEIGHBOUR_BITS[cell] & ~self.occupied
            self.box = BOX_AFTER[self.box * CELL_COUNT + cell]
        elif top[cell] < 0:
            face_down -= 1
        height[cell] += 1
        if height[cell] == PILE_LIMIT:
            self.open &= ~(1 << cell)
        top[cell] = rank
        # The row and the column share only the placed cell, which never flips, so deciding
        # and flipping one line before looking at the other gives the engine's result.
        for members in (self.rows[ROW_LINE[cell]], self.cols[COL_LINE[cell]]):
            higher = lower = False
            for other in members:
                shown = top[other]
                if shown > 0 and other != cell:
                    if shown >= rank:
                        higher = True
                    if shown <= rank:
                        lower = True
            if not (higher and lower):
                for other in members:
                    if other != cell:
                        shown = top[other]
                        top[other] = -shown
                        face_down += 1 if shown > 0 else -1
        self.face_down = face_down
        self.placed += 1
        if face_down > MAX_FACE_DOWN:
            self.status = LOST
        elif face_down == 0 and self.piles == CELLS_TO_WIN:
            self.status = WON
        elif self.placed == DECK_SIZE:
            self.status = LOST
        return self.status

    @property
    def score(self) -> int | None:
        return DECK_SIZE - self.placed if self.status == WON else None

    def key(self) -> bytes:
        """Everything that decides the future, compactly, for transposition tables.

        (The heights add up to the cards placed, so they say which card comes next.)
        """
        return bytes([height * 21 + top + 10 for height, top in zip(self.height, self.top,
                                                                      strict=True)])

    def symmetric_key(self) -> SymmetricKey:
        """The same, up to moving the grid and turning or mirroring it.

        Rows and columns obey the same rule and the grid floats, so the eight symmetries of
        the square and every translation map a position to one with the same future.
        """
        piles = [(*POSITION[cell], self.top[cell], self.height[cell])
                 for cell in cells_of(self.occupied)]
        best: tuple[tuple[int, int, int, int], ...] | None = None
        for turn in _SYMMETRIES:
            moved = [(*turn(row, col), top, height) for row, col, top, height in piles]
            first_row = min(pile[0] for pile in moved)
            first_col = min(pile[1] for pile in moved)
            image = tuple(sorted((row - first_row, col - first_col, top, height)
                                 for row, col, top, height in moved))
            if best is None or image < best:
                best = image
        assert best is not None  # the identity is among the symmetries
        return (self.placed, *best)

    @classmethod
    def from_piles(cls, piles: dict[int, tuple[int, int]], placed: int) -> Position:
        """A position from ``{cell: (height, signed top rank)}`` after ``placed`` cards."""
        position = cls()
        for cell in sorted(piles):
            height, shown = piles[cell]
            position.height[cell] = height
            position.top[cell] = shown
            position.occupied |= 1 << cell
            position.rows[ROW_LINE[cell]].append(cell)
            position.cols[COL_LINE[cell]].append(cell)
            position.piles += 1
            position.face_down += shown < 0
        if position.occupied:
            rows = [POSITION[cell][0] for cell in piles]
            cols = [POSITION[cell][1] for cell in piles]
            position.box = _BOX_ID[(min(rows), max(rows), min(cols), max(cols))]
            open_cells = 0
            for cell in piles:
                open_cells |= NEIGHBOUR_BITS[cell]
            open_cells &= ~position.occupied
            for cell in piles:
                if position.height[cell] < PILE_LIMIT:
                    open_cells |= 1 << cell
            position.open = open_cells
        position.placed = placed
        if position.face_down > MAX_FACE_DOWN:
            position.status = LOST
        elif position.face_down == 0 and position.piles == CELLS_TO_WIN:
            position.status = WON
        elif placed >= DECK_SIZE:
            position.status = LOST
        return position


__all__ = [
    "BOX_ALLOWED",
    "BOX_IS_FULL",
    "CELLS_TO_WIN",
    "DECK_SIZE",
    "LOST",
    "NO_BOX",
    "ORIGIN",
    "PLAYING",
    "POSITION",
    "WON",
    "Position",
    "cells_of",
]
