"""The floating grid's frame, precomputed once.

The first card sits at ``(0, 0)`` and the occupied cells must fit in a 4×4 box, so every
position lies in rows and columns −3…3: a 7×7 frame of 49 cells. Cells are numbered row-major,
``index = (row + 3) * 7 + (col + 3)``, so sorting indices sorts positions by ``(row, col)``.
Everything the game asks of the geometry (position ↔ index, neighbours, which cells a bounding
box still allows) is a table lookup here, which is where the engine's speed comes from.
"""

from __future__ import annotations

from itertools import product
from typing import TypeVar

from foursquare.errors import ParseError

BOX = 4  # the occupied cells must fit in BOX rows and BOX columns
REACH = BOX - 1  # so every coordinate lies in -REACH … REACH
SPAN = 2 * REACH + 1
CELL_COUNT = SPAN * SPAN
ORIGIN = REACH * SPAN + REACH  # index of (0, 0), where the first card goes

Position = tuple[int, int]


def index_of(row: int, col: int) -> int:
    return (row + REACH) * SPAN + (col + REACH)


POSITION: tuple[Position, ...] = tuple(
    (index // SPAN - REACH, index % SPAN - REACH) for index in range(CELL_COUNT)
)
# Which row and column line (0 … SPAN-1) each cell belongs to.
ROW_LINE: tuple[int, ...] = tuple(row + REACH for row, _ in POSITION)
COL_LINE: tuple[int, ...] = tuple(col + REACH for _, col in POSITION)
INDEX: dict[Position, int] = {position: index for index, position in enumerate(POSITION)}

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        index_of(row + dr, col + dc)
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if -REACH <= row + dr <= REACH and -REACH <= col + dc <= REACH
    )
    for row, col in POSITION
)


def bit(cell: int) -> int:
    return 1 << cell


NEIGHBOUR_BITS: tuple[int, ...] = tuple(
    sum(bit(neighbour) for neighbour in neighbours) for neighbours in NEIGHBOURS
)


def _allowed_bits(top: int, bottom: int, left: int, right: int) -> int:
    """The cells that keep the bounding box within BOX×BOX if occupied, as a bit set."""
    rows = range(bottom - REACH, top + REACH + 1)
    cols = range(right - REACH, left + REACH + 1)
    return sum(bit(index_of(row, col)) for row, col in product(rows, cols))


# Bounding box (top, bottom, left, right) -> the cells a card may still go to, as a bit set of
# cell indices. Every box contains the origin, so there are only 10 × 10 of them.
_EDGES = [(low, high) for low in range(-REACH, 1) for high in range(0, REACH + 1)
          if high - low <= REACH]
Box = tuple[int, int, int, int]
ALLOWED: dict[Box, int] = {
    (top, bottom, left, right): _allowed_bits(top, bottom, left, right)
    for (top, bottom), (left, right) in product(_EDGES, _EDGES)
}
# Before the first card there is no box: the first card starts the grid at (0, 0).
FIRST_ALLOWED = bit(ORIGIN)

# Turning a bit set of cells into a sorted list, one row (SPAN bits) at a time:
# ROW_POSITIONS[line][pattern] holds the positions of that row the pattern selects, and
# ROW_CELLS[line][pattern] their cell numbers.
ROW_MASK = (1 << SPAN) - 1
ROW_CELLS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(line * SPAN + col for col in range(SPAN) if pattern >> col & 1)
        for pattern in range(1 << SPAN)
    )
    for line in range(SPAN)
)
ROW_POSITIONS: tuple[tuple[tuple[Position, ...], ...], ...] = tuple(
    tuple(tuple(POSITION[cell] for cell in cells) for cells in line_table)
    for line_table in ROW_CELLS
)


T = TypeVar("T")


def _members(bits: int, rows: tuple[tuple[tuple[T, ...], ...], ...]) -> list[T]:
    members: list[T] = []
    line = 0
    while bits:
        pattern = bits & ROW_MASK
        if pattern:
            members += rows[line][pattern]
        bits >>= SPAN
        line += 1
    return members


def positions_of(cells: int) -> list[Position]:
    """The positions in a bit set of cells, sorted by (row, col)."""
    return _members(cells, ROW_POSITIONS)


def cells_of(cells: int) -> list[int]:
    """The cell numbers in a bit set of cells, in increasing order (= sorted by row, col)."""
    return _members(cells, ROW_CELLS)


def parse_position(value: object) -> Position:
    """A ``(row, col)`` tuple from any pair of integers (a list from JSON, say)."""
    if isinstance(value, tuple | list) and len(value) == 2 and all(
        isinstance(part, int) and not isinstance(part, bool) for part in value
    ):
        return (value[0], value[1])
    raise ParseError(f"a position is a pair of integers [row, col], not {value!r}")
