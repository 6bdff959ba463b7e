"""Reads on the boards: a page of a leaderboard with your entry and standing, a daily's
counts, a player's statistics.

A public board is ranked in the database. Ranks come from ``ScoreCount`` (one plus the ranked
players with a better result: at most 25 counters on a day board) and entries from the
``standing_rank_order`` index, with keyset pagination: the cursor is the last place seen, so
results that arrive meanwhile neither repeat nor hide an entry of a day board. (On week and
all-time boards a player who wins again moves up and may be passed over by a reader paging
down at that moment.) A board restricted to some players - a league's - is ranked in memory:
it has at most a few hundred rows.

Everything one response shows is read from one snapshot (``one_snapshot``).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import UTC, date, datetime
from uuid import UUID

from django.conf import settings
from django.db import connection, transaction
from django.utils.dateparse import parse_datetime

from server.boards.models import MAX_SCORE, Board, ScoreCount, Standing
from server.boards.periods import BoardRef, Period, day_key
from server.boards.problems import BoardNotFound
from server.boards.ranking import (
    BoardPage,
    Cursor,
    Entry,
    competition_ranks,
    standing_of,
)
from server.boards.services import BOARD, SCORE_COUNT, STANDING, _db
from server.boards.streaks import streaks
from server.games.dailies import current_dates, daily_number
from server.games.models import Game
from server.players.models import Player

PLAYER = Player._meta.db_table

_RANK = (
    f"1 + COALESCE((SELECT SUM(c.count) FROM {SCORE_COUNT} c WHERE c.board_id = s.board_id "
    "AND (c.total, c.wins) > (s.total, s.wins)), 0)"
)
_TIED = (
    f"(SELECT c.count FROM {SCORE_COUNT} c WHERE c.board_id = s.board_id "
    "AND c.total = s.total AND c.wins = s.wins)"
)
# The expressions of the standing_rank_order index, spelled as its migration creates them.
_ORDER = ("(s.total * -1)", "(s.wins * -1)", "s.reached_at", "s.player_id")
_COLUMNS = (
    f"s.player_id, p.name, s.games, s.wins, s.total, s.best, s.reached_at, {_RANK}"
)
_FROM = f" FROM {STANDING} s JOIN {PLAYER} p ON p.id = s.player_id "
# A board's counters and its winners by total, in one statement.
SUMMARY_SQL = (
    f"SELECT b.id, b.players, b.winners, c.total, SUM(c.count) FROM {BOARD} b "
    f"LEFT JOIN {SCORE_COUNT} c ON c.board_id = b.id AND c.count > 0 WHERE b.key = %s "
    "GROUP BY b.id, b.players, b.winners, c.total"
)


@contextmanager
def one_snapshot():
    """Every read inside sees the database as of one instant (PostgreSQL: a read-only
    REPEATABLE READ transaction). Inside a transaction already, it adds nothing."""
    if connection.in_atomic_block or connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _uuid(value) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)  # SQLite: text


def _moment(value) -> datetime:
    if isinstance(value, str):  # SQLite: text in UTC
        value = parse_datetime(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _entry(row) -> Entry:
    player_id, name, games, wins, total, best, reached_at, rank = row[:8]
    return Entry(rank=int(rank), player_id=_uuid(player_id), player_name=name, score=total,
                 wins=wins, games=games, best=best, finished_at=_moment(reached_at))


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def ranked_page_sql(*, op: str | None, descending: bool = False) -> str:
    """The query of a page of ranked standings: ``%s`` board, then (with ``op``) the four
    values of a cursor, then the limit."""
    where = "WHERE s.board_id = %s AND s.wins > 0 "
    if op:
        where += f"AND ({', '.join(_ORDER)}) {op} (%s, %s, %s, %s) "
    order = ", ".join(f"{column} DESC" if descending else column for column in _ORDER)
    return f"SELECT {_COLUMNS}{_FROM}{where}ORDER BY {order} LIMIT %s"


# One player's standing on a board (%s board, %s player), with its rank and how many share it.
MY_ENTRY_SQL = f"SELECT {_COLUMNS}, {_TIED}{_FROM}WHERE s.board_id = %s AND s.player_id = %s"


class _RankedInDatabase:
    """The ranked standings of one board, read a slice at a time."""

    def __init__(self, board_id: int) -> None:
        self.board_id = board_id

    def _fetch(self, *, op: str | None, cursor: Cursor | None, limit: int,
               descending: bool = False) -> list[Entry]:
        params: list = [self.board_id]
        if op:
            params += [-cursor.total, -cursor.wins, _db(Standing, "reached_at", cursor.reached_at),
                       _db(Standing, "player", cursor.player_id)]
        rows = _rows(ranked_page_sql(op=op, descending=descending), [*params, limit])
        return [_entry(row) for row in rows]

    def after(self, cursor: Cursor | None, *, inclusive: bool, limit: int) -> list[Entry]:
        if cursor is None:
            return self._fetch(op=None, cursor=None, limit=limit)
        return self._fetch(op=">=" if inclusive else ">", cursor=cursor, limit=limit)

    def before(self, cursor: Cursor | None, *, limit: int) -> list[Entry]:
        """Up to ``limit`` entries just above ``cursor`` (or the last ones), best first."""
        if limit <= 0:
            return []
        rows = self._fetch(op="<" if cursor else None, cursor=cursor, limit=limit,
                           descending=True)
        return rows[::-1]


class _RankedInMemory:
    """The same for a handful of entries already ranked, best first."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.keys = [entry.cursor.sort_key for entry in entries]

    def after(self, cursor: Cursor | None, *, inclusive: bool, limit: int) -> list[Entry]:
        if cursor is None:
            start = 0
        else:
            side = bisect.bisect_left if inclusive else bisect.bisect_right
            start = side(self.keys, cursor.sort_key)
        return self.entries[start:start + limit]

    def before(self, cursor: Cursor | None, *, limit: int) -> list[Entry]:
        if limit <= 0:
            return []
        end = len(self.keys) if cursor is None else bisect.bisect_left(self.keys, cursor.sort_key)
        return self.entries[max(end - limit, 0):end]


def _page_entries(ranked, *, limit: int, cursor: Cursor | None, around: bool,
                  me: Entry | None) -> tuple[list[Entry], Cursor | None]:
    """A page after ``cursor``; or, ``around`` you, the entries just above and below you (the
    last ranked ones if you hold no rank). Returns the entries and the next page's cursor."""
    if around and me is None:
        return ranked.before(None, limit=limit), None
    if around:
        # Half above you, the rest from you down; near either end the other side fills in.
        upper = ranked.before(me.cursor, limit=limit - 1)
        lower = ranked.after(me.cursor, inclusive=True, limit=limit + 1)
        below = min(len(lower), limit - min(len(upper), (limit - 1) // 2))
        above = min(len(upper), limit - below)
        rows, more = upper[len(upper) - above:] + lower[:below], len(lower) > below
    else:
        fetched = ranked.after(cursor, inclusive=False, limit=limit + 1)
        rows, more = fetched[:limit], len(fetched) > limit
    return rows, (rows[-1].cursor if more and rows else None)


def _day_status(viewer, day: date, won: bool) -> str:
    if won:
        return "won"
    status = (Game.objects.filter(player=viewer, daily_id=day, mode=Game.Mode.DAILY)
              .values_list("status", flat=True).first())
    return "not_started" if status is None else status


def _viewer_status(ref: BoardRef, viewer, wins: int | None) -> str:
    """``wins``: the viewer's wins on the board, None if they have no standing there."""
    if wins is None:
        return "not_started"
    if ref.period is Period.DAY:
        return _day_status(viewer, ref.day, wins > 0)
    return "won" if wins else "played"


def _distribution(ref: BoardRef, pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Winners by score (day) or by total score (week, all time); a day lists every score."""
    counts = dict.fromkeys(range(MAX_SCORE + 1), 0) if ref.period is Period.DAY else {}
    for total, count in pairs:
        if count:
            counts[total] = counts.get(total, 0) + count
    return dict(sorted(counts.items()))


def board_page(*, ref: BoardRef, viewer=None, limit: int, cursor: Cursor | None = None,
               around: bool = False) -> BoardPage:
    """A page of the public board ``ref``, with ``viewer``'s entry and standing if given."""
    with one_snapshot():
        summary = _rows(SUMMARY_SQL, [ref.key])
        board_id, players, winners = summary[0][:3] if summary else (None, 0, 0)
        page = BoardPage(players=players, winners=winners, entries=[], distribution=_distribution(
            ref, [(total, int(count)) for *_, total, count in summary if total is not None]))
        mine = None
        if viewer is not None and board_id is not None:
            mine = next(iter(_rows(MY_ENTRY_SQL, [board_id, _db(Standing, "player", viewer.pk)])),
                        None)
        if viewer is not None:
            wins = mine[3] if mine else None
            page.me = _entry(mine) if wins else None
            page.standing = standing_of(
                status=_viewer_status(ref, viewer, wins), players=players, winners=winners,
                entry=page.me, tied=(mine[8] or 0) if mine else 0)
        if board_id is not None:
            page.entries, page.next = _page_entries(
                _RankedInDatabase(board_id), limit=limit, cursor=cursor, around=around,
                me=page.me)
    return page


def members_board_page(*, ref: BoardRef, members, viewer, limit: int,
                       cursor: Cursor | None = None, around: bool = False) -> BoardPage:
    """The board ``ref`` restricted to ``members`` (a queryset of player ids), ranked among
    them: a league's board."""
    with one_snapshot():
        rows = list(Standing.objects.filter(board__key=ref.key, player_id__in=members)
                    .select_related("player"))
        ranked_rows = sorted((row for row in rows if row.wins),
                             key=lambda row: (-row.total, -row.wins, row.reached_at,
                                              row.player_id))
        ranks = competition_ranks([(row.total, row.wins) for row in ranked_rows])
        entries = [
            Entry(rank=rank, player_id=row.player_id, player_name=row.player.name,
                  score=row.total, wins=row.wins, games=row.games, best=row.best,
                  finished_at=row.reached_at)
            for rank, row in zip(ranks, ranked_rows, strict=True)
        ]
        counts = Counter((row.total, row.wins) for row in ranked_rows)
        page = BoardPage(players=len(rows), winners=len(ranked_rows),
                         distribution=_distribution(ref, Counter(
                             row.total for row in ranked_rows).items()),
                         entries=[])
        mine = next((row for row in rows if row.player_id == viewer.pk), None)
        page.me = next((entry for entry in entries if entry.player_id == viewer.pk), None)
        page.standing = standing_of(
            status=_viewer_status(ref, viewer, mine.wins if mine else None),
            players=page.players,
            winners=page.winners, entry=page.me,
            tied=counts[(mine.total, mine.wins)] if mine is not None else 0)
        page.entries, page.next = _page_entries(_RankedInMemory(entries), limit=limit,
                                                cursor=cursor, around=around, me=page.me)
    return page


def board_ref(period: Period, day: date) -> BoardRef:
    """The board of ``period`` that holds ``day``, if any daily of it has been dealt: from the
    launch date to the last date current somewhere on Earth."""
    ref = BoardRef(period, day)
    last = current_dates()[1]
    if (ref.end or last) < settings.FOURSQUARE_LAUNCH_DATE or ref.start > last:
        raise BoardNotFound(
            f"No daily of {day.isoformat()} has been dealt: dailies run from "
            f"{settings.FOURSQUARE_LAUNCH_DATE.isoformat()} to {last.isoformat()} today.")
    return ref


def daily_summary(*, day: date) -> tuple[int, int]:
    """(players, winners) of the daily of ``day``."""
    board = Board.objects.filter(key=day_key(day)).values_list("players", "winners").first()
    return board or (0, 0)


def daily_game_of(player, day: date) -> Game | None:
    return (Game.objects.filter(player=player, daily_id=day, mode=Game.Mode.DAILY)
            .select_related("deal", "daily").first())


RECENT_RESULTS = 10


def player_stats(player) -> dict:
    """A player's dailies: counts, streaks, scores of the wins and the latest results."""
    games = list(Game.objects.filter(player=player, mode=Game.Mode.DAILY)
                 .values_list("daily__number", "daily_id", "status", "score", "finished_at")
                 .order_by("-daily__number"))
    first_open = daily_number(current_dates()[0])
    streak = streaks([(number, status) for number, _, status, _, _ in games],
                     first_open=first_open)
    won = [score for _, _, status, score, _ in games if status == Game.Status.WON]
    distribution = dict.fromkeys(range(MAX_SCORE + 1), 0)
    for score in won:
        distribution[score] += 1
    recent = games[:RECENT_RESULTS]
    ranks = _day_ranks([(day, score) for _, day, status, score, _ in recent
                        if status == Game.Status.WON])
    return {
        "played": len(games),
        "won": len(won),
        "win_percent": round(100 * len(won) / len(games)) if games else None,
        "current_win_streak": streak.current_win,
        "longest_win_streak": streak.longest_win,
        "current_played_streak": streak.current_played,
        "longest_played_streak": streak.longest_played,
        "distribution": distribution,
        "recent": [
            {"date": day, "number": number, "status": status, "score": score,
             "rank": ranks.get(day), "finished_at": finished_at}
            for number, day, status, score, finished_at in recent
        ],
    }


def _day_ranks(wins: list[tuple[date, int]]) -> dict[date, int]:
    """The rank of each (day, score) win on its day board, in one query."""
    if not wins:
        return {}
    better: Counter[date] = Counter()
    scores = dict(wins)
    keys = {day_key(day): day for day in scores}
    counts = ScoreCount.objects.filter(board__key__in=keys, count__gt=0).values_list(
        "board__key", "total", "count")
    for key, total, count in counts:
        if total > scores[keys[key]]:
            better[keys[key]] += count
    return {day: 1 + better[day] for day in scores}
