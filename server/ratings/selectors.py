"""Reads on ratings: a game's rating board, page by page, and one player's rating.

The board lists the established players by rating, highest first, then apart from them the
provisional ones (fewer than ``PROVISIONAL_MATCHES`` rated matches, or a deviation above
``PROVISIONAL_DEVIATION``: their rating says little yet), also by rating. Ratings are shown
as whole points; established players with the same shown rating share a rank (competition
ranking: 1, 2, 2, 4), the one with the higher exact rating listed first.

Pages are keyset-paginated like the other boards: the cursor is the last place seen
(provisional or not, exact rating, player id), on the ``rating_board_order`` index. A page
holds up to ``limit`` players: the established ones first, and once they run out the
provisional ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict
from uuid import UUID

from django.db.models import QuerySet

from server.api.cursors import BOOLEAN, DOUBLE_HEX, UUID_HEX, Key, Keyset, Place
from server.core.queries import one_or_none
from server.players.models import Player
from server.ratings.models import Rating

# <0 established|1 provisional>.<the exact rating: IEEE 754 double, hex>.<player id hex>
CURSOR_PATTERN = r"^[01]\.[0-9a-f]{16}\.[0-9a-f]{32}$"
# The board's order: the established players, then the provisional ones, each by exact
# rating, highest first, then by player.
KEYSET = Keyset(CURSOR_PATTERN, (Key("provisional", BOOLEAN),
                                 Key("rating", DOUBLE_HEX, descending=True),
                                 Key("player_id", UUID_HEX)))


def shown(value: float) -> int:
    """A rating or deviation as the API shows it: whole points, halves rounded up."""
    return math.floor(value + 0.5)


@dataclass(frozen=True)
class Cursor:
    provisional: bool
    rating: float
    player_id: UUID

    @property
    def values(self) -> tuple[bool, float, UUID]:
        return (self.provisional, self.rating, self.player_id)

    def encode(self) -> str:
        return KEYSET.encode(Place(self.values))

    @classmethod
    def decode(cls, text: str) -> Cursor:
        """The cursor a ``next`` link carries (its rating a finite number); anything else is a
        400 ``invalid``."""
        return cls(*KEYSET.decode(text).values)


@dataclass(frozen=True)
class Entry:
    rank: int | None  # None for a provisional player
    player_id: UUID
    player_name: str
    rating: float
    deviation: float
    matches: int
    provisional: bool


class ShownRating(TypedDict):
    """A player's rating as profiles and statistics show it."""

    rating: int
    deviation: int
    matches: int
    provisional: bool


@dataclass(frozen=True)
class BotEntry:
    """A bot on its own board, as the people's board lists it beside them."""

    player_id: UUID
    player_name: str
    level: str | None  # the house bot's level it stands for; None for a bot account
    rating: float
    deviation: float
    matches: int
    provisional: bool


@dataclass
class RatingPage:
    results: list[Entry]
    provisional: list[Entry]
    me: Entry | None
    next: Cursor | None
    bots: list[BotEntry] = field(default_factory=list)


# The bots listed beside a board's first page: the game's bots are the house bot's few levels
# and the bot accounts people run, not a field to page through.
BOTS_LISTED = 100


def _board(game: str) -> QuerySet[Rating]:
    """The game's board: its ratings but those held off it (a ring's, ``server.ratings.rings``)."""
    return Rating.objects.filter(game=game, held=False)


def _established(game: str) -> QuerySet[Rating]:
    return _board(game).filter(provisional=False)


def _rank(game: str, rating: float) -> int:
    """One plus the established players whose shown rating is higher than ``rating``'s: one
    range of the board's index, counted."""
    return 1 + _established(game).filter(rating__gte=shown(rating) + 0.5).count()


def _entry(row: Rating, rank: int | None) -> Entry:
    return Entry(rank=rank, player_id=row.player_id, player_name=row.player.name,
                 rating=row.rating, deviation=row.deviation, matches=row.matches,
                 provisional=row.provisional)


def _page_rows(game: str, cursor: Cursor | None, count: int) -> list[Rating]:
    """Up to ``count`` rows in board order after ``cursor``: each part is one range of the
    board's index read in its order (a single OR of them would not be): after a cursor, the
    keyset's ranges after its place."""
    ordered = _board(game).select_related("player").order_by("-rating", "player_id")
    if cursor is None:
        parts = [ordered.filter(provisional=False), ordered.filter(provisional=True)]
    else:
        parts = [ordered.filter(part) for part in KEYSET.ranges_after(cursor.values)]
    rows: list[Rating] = []
    for part in parts:
        rows += part[:count - len(rows)]
        if len(rows) >= count:
            break
    return rows


def _ranked(game: str, rows: list[Rating], cursor: Cursor | None) -> list[Entry]:
    """The entries of a page's rows, the established ones ranked. After an established
    cursor, the rows before the page are counted once (a range of the index); a row's rank is
    one plus those before it that show a higher rating: all of them, unless they show the same
    rating as the page's first (a narrow range, counted)."""
    established = cursor if cursor is not None and not cursor.provisional else None
    if established is not None:
        rows_before = _established(game)
        at_cursor = rows_before.filter(rating=established.rating,
                                       player_id__lte=established.player_id).count()
        before = rows_before.filter(rating__gt=established.rating).count() + at_cursor
    entries: list[Entry] = []
    rank = 0
    for index, row in enumerate(rows):
        if row.provisional:
            entries.append(_entry(row, None))
            continue
        value = shown(row.rating)
        if entries and value == shown(entries[-1].rating):
            pass  # level with the entry before: the same rank
        elif entries:
            rank = before + index + 1 if established is not None else index + 1
        elif established is None:
            rank = _rank(game, row.rating)
        elif shown(established.rating) != value:
            rank = before + 1
        else:
            level = rows_before.filter(rating__gt=established.rating,
                                       rating__lt=value + 0.5).count() + at_cursor
            rank = before - level + 1
        entries.append(_entry(row, rank))
    return entries


def bots_listed(bots_game: str, levels: Mapping[UUID, str]) -> list[BotEntry]:
    """The bots rated on ``bots_game`` (a game's board of its bots), the established first,
    each part by rating, highest first (up to ``BOTS_LISTED``); ``levels`` names the house
    bot's level of the players who stand for one."""
    rows = (_board(bots_game).select_related("player")
            .order_by("provisional", "-rating", "player_id")[:BOTS_LISTED])
    return [BotEntry(player_id=row.player_id, player_name=row.player.name,
                     level=levels.get(row.player_id), rating=row.rating,
                     deviation=row.deviation, matches=row.matches, provisional=row.provisional)
            for row in rows]


def board_page(*, game: str, viewer: Player | None = None, limit: int, cursor: Cursor | None = None
               ) -> RatingPage:
    rows = _page_rows(game, cursor, limit + 1)
    more, rows = len(rows) > limit, rows[:limit]
    entries = _ranked(game, rows, cursor)
    last = rows[-1] if rows else None
    return RatingPage(
        results=[entry for entry in entries if not entry.provisional],
        provisional=[entry for entry in entries if entry.provisional],
        me=rating_entry(viewer, game) if viewer is not None else None,
        next=Cursor(last.provisional, last.rating, last.player_id) if more and last else None)


def rating_entry(player: Player, game: str) -> Entry | None:
    """``player``'s place on ``game``'s board, or None if no match of theirs was rated."""
    row = one_or_none(_board(game).select_related("player").filter(player=player))
    if row is None:
        return None
    return _entry(row, None if row.provisional else _rank(game, row.rating))


def ratings_of(player_ids: Iterable[UUID], game: str) -> dict[UUID, ShownRating]:
    """``{player id: rating as rating_of shows it}`` of those of ``player_ids`` rated on
    ``game`` (one query)."""
    return {row.player_id: shown_rating(row.rating, row.deviation, row.matches, row.provisional)
            for row in _board(game).filter(player_id__in=player_ids)}


def rating_of(player: Player, game: str) -> ShownRating | None:
    """``player``'s rating on ``game`` as the profile and statistics show it, or None."""
    row = one_or_none(_board(game).filter(player=player))
    if row is None:
        return None
    return shown_rating(row.rating, row.deviation, row.matches, row.provisional)


def shown_rating(rating: float, deviation: float, matches: int,
                 provisional: bool) -> ShownRating:
    """A rating row's columns as ``rating_of`` shows them: what a statement that read the row
    itself (the action fast path's) gives without asking again."""
    return {"rating": shown(rating), "deviation": shown(deviation), "matches": matches,
            "provisional": provisional}
