"""What a leaderboard page is made of: entries, the cursor between pages, and your standing.

Both the public boards (ranked in the database, see ``selectors``) and a league's boards
(ranked in memory among its members) build the same ``BoardPage``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from server.api.cursors import INTEGER, MOMENT, UUID_HEX, Key, Keyset, Place

MAX_LIMIT = 100
DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class Entry:
    """One ranked player. ``score`` is the board's result: a daily's score, or the sum of the
    period's winning scores; ``finished_at`` is when that result was reached."""

    rank: int
    player_id: UUID
    player_name: str
    score: int
    wins: int
    games: int
    best: int | None
    finished_at: datetime

    @property
    def cursor(self) -> Cursor:
        return Cursor(self.score, self.wins, self.finished_at, self.player_id)


# total.wins.microseconds-since-1970.player-id-hex: readable, and every string that matches
# is a place in the order (the OpenAPI schema publishes the pattern).
CURSOR_PATTERN = r"^[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,16}\.[0-9a-f]{32}$"
# The ranking order: the best result first, then the earlier to reach it, then by player. A
# public board compares the same place in SQL, on its index's expressions (``selectors``).
KEYSET = Keyset(CURSOR_PATTERN, (
    Key("total", INTEGER, descending=True), Key("wins", INTEGER, descending=True),
    Key("reached_at", MOMENT), Key("player_id", UUID_HEX)))


@dataclass(frozen=True)
class Cursor:
    """A place in the ranking order, the last one a page showed."""

    total: int
    wins: int
    reached_at: datetime
    player_id: UUID

    @property
    def sort_key(self) -> tuple:
        """Orders places best first."""
        return (-self.total, -self.wins, self.reached_at, self.player_id)

    def encode(self) -> str:
        return KEYSET.encode(Place((self.total, self.wins, self.reached_at, self.player_id)))

    @classmethod
    def decode(cls, text: str) -> Cursor:
        """The cursor a ``next`` link carries; anything else is a 400 ``invalid``."""
        return cls(*KEYSET.decode(text).values)


def competition_ranks(sorted_results: list[tuple[int, int]]) -> list[int]:
    """Ranks 1, 2, 2, 4 for (total, wins) results already sorted best first."""
    ranks: list[int] = []
    for index, result in enumerate(sorted_results):
        ranks.append(ranks[-1] if index and result == sorted_results[index - 1] else index + 1)
    return ranks


@dataclass(frozen=True)
class Standing:
    """Where the asking player stands, ranked or not.

    ``status``: on a day board ``won``, ``lost``, ``playing`` or ``not_started``; on a week or
    all-time board ``won`` (at least one daily of the period won), ``played`` or
    ``not_started``. ``ahead`` are the players ranked above you, ``behind`` those who started
    and did worse (a non-winner is behind every winner and level with the other non-winners).
    ``better_than_percent`` is ``behind`` as a share of the other players.

    ``ranked``: whether your dailies of the period count on this board - null if you have not
    played in it, false on a global board when none of them does (they were not ranked when
    they started: the account was a guest, or created on the daily's date). Then you are not
    among its players: no rank, every winner ahead, nobody behind, no percentage.

    ``would_rank`` and ``would_better_than_percent``: for such an unranked win on a day board,
    the rank and share it would have among the board's ranked players (``would_stand``);
    otherwise None.
    """

    status: str
    rank: int | None
    score: int | None
    ahead: int
    behind: int
    better_than_percent: int | None
    ranked: bool | None = None
    would_rank: int | None = None
    would_better_than_percent: int | None = None


def would_stand(*, score: int, players: int,
                distribution: dict[int, int]) -> tuple[int, int | None]:
    """The rank and better-than share an unranked win of ``score`` would have among a day's
    ranked ``players``, whose winners' scores are ``distribution``: ranked after every better
    score, level with an equal one (ties share a rank), ahead of everyone else who started."""
    above = sum(count for other, count in distribution.items() if other > score)
    behind = players - above - distribution.get(score, 0)
    return above + 1, (round(100 * behind / players) if players else None)


def standing_of(*, status: str, players: int, winners: int, entry: Entry | None,
                tied: int, ranked: bool | None = None) -> Standing:
    """``tied``: ranked players with exactly the entry's result, the entry included.
    ``ranked``: False if the viewer played but is not counted on this board."""
    if entry is not None:
        ahead, behind = entry.rank - 1, max(players - (entry.rank - 1) - tied, 0)
    else:
        ahead, behind = winners, 0
    others = players - 1 if status != "not_started" else players
    percent = round(100 * behind / others) if others > 0 and ranked is not False else None
    return Standing(status=status, rank=entry.rank if entry else None,
                    score=entry.score if entry else None, ahead=ahead, behind=behind,
                    better_than_percent=percent, ranked=ranked)


@dataclass
class BoardPage:
    players: int
    winners: int
    distribution: dict[int, int]
    entries: list[Entry]
    me: Entry | None = None
    standing: Standing | None = None
    next: Cursor | None = None
