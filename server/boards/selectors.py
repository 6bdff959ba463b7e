"""Reads on the boards: a page of a leaderboard with your entry and standing, a daily's
counts, a player's statistics.

A public board is ranked in the database. Ranks come from ``ScoreCount`` (one plus the ranked
players with a better result: at most 25 counters on a day board) and entries from the
``standing_rank_order`` index, with keyset pagination: the cursor is the last place seen, so
results that arrive meanwhile neither repeat nor hide an entry of a day board. (On week and
all-time boards a player who wins again moves up and may be passed over by a reader paging
down at that moment.) A board restricted to some players - a league's - is ranked in memory:
it has at most a few hundred rows.

A public board's page is one SQL statement (``board_sql``): one snapshot, one round trip.

The global boards (a daily's, the leaderboard of a day, week or all time, a daily's counts)
read the ranked boards, where only ranked dailies count; a league's board reads the boards of
every player's dailies (``periods``). A player's statistics count all of their dailies.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import connection, connections, router
from django.utils.dateparse import parse_datetime

from server.boards.games import FOURSQUARE, board_game
from server.boards.models import Board, ScoreCount, Standing
from server.boards.periods import BoardRef, Period
from server.boards.problems import BoardNotFound
from server.boards.ranking import (
    BoardPage,
    Cursor,
    Entry,
    competition_ranks,
    standing_of,
    would_stand,
)
from server.boards.services import BOARD, SCORE_COUNT, STANDING
from server.core.queries import one_or_none
from server.core.sql import db_value
from server.dailies.calendar import current_dates
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
_PLACE = f"({', '.join(_ORDER)})"
_ASCENDING = ", ".join(_ORDER)
_DESCENDING = ", ".join(f"{column} DESC" for column in _ORDER)
# Every part of a board's statement gives these ten columns; a part's tag says what it is.
_ENTRY = (f"s.player_id, p.name, s.games, s.wins, s.total, s.best, s.reached_at, {_RANK}, "
          f"CAST(NULL AS integer) FROM {STANDING} s JOIN {PLAYER} p ON p.id = s.player_id "
          "WHERE s.board_id = (SELECT id FROM board) ")
_SUMMARY = ("SELECT 'board', NULL, NULL, players, winners, NULL, NULL, NULL, NULL, NULL "
            "FROM board")
_COUNTS = (f"SELECT 'count', NULL, NULL, NULL, c.wins, c.total, NULL, NULL, NULL, c.count "
           f"FROM {SCORE_COUNT} c WHERE c.board_id = (SELECT id FROM board) AND c.count > 0")
# The viewer's own standing, with how many share its result (their name is known already).
_ME = (f"SELECT 'me', s.player_id, NULL, s.games, s.wins, s.total, s.best, s.reached_at, "
       f"{_RANK}, {_TIED} FROM {STANDING} s WHERE s.board_id = (SELECT id FROM board) "
       "AND s.player_id = (SELECT player FROM viewer)")
# The viewer's (wins, total) on the period's board of every daily, ranked or not: what the
# standing says of a viewer who holds no place on the ranked board (an unranked win would stand).
_UNRANKED = (f"SELECT 'unranked', NULL, NULL, NULL, s.wins, s.total, NULL, NULL, NULL, NULL "
             f"FROM {STANDING} s WHERE s.board_id = (SELECT id FROM {BOARD} WHERE key = %s) "
             "AND s.player_id = (SELECT player FROM viewer)")
# Your place in the order, if you are ranked (else no row), for the entries around you.
_PLACE_COLUMNS = ("total", "wins", "reached_at", "player_id")
_PLACE_CTE = (f"place ({', '.join(_PLACE_COLUMNS)}) AS (SELECT "
              f"{', '.join(_ORDER).replace('s.', 'm.')} FROM {STANDING} m "
              "WHERE m.board_id = (SELECT id FROM board) "
              "AND m.player_id = (SELECT player FROM viewer) AND m.wins > 0)")
_MY_PLACE = ", ".join(f"(SELECT {column} FROM place)" for column in _PLACE_COLUMNS)


def _ranked_part(tag: str, condition: str, order: str) -> str:
    return (f"SELECT * FROM (SELECT '{tag}', {_ENTRY}AND s.wins > 0 {condition}"
            f"ORDER BY {order} LIMIT %s) {tag}")


def board_sql(*, key: str, viewer_id: UUID | None = None, limit: int,
              cursor: Cursor | None = None, around: bool = False,
              unranked_key: str | None = None) -> tuple[str, list[Any]]:
    """One statement for a whole page of a public board, so that it is read from one
    snapshot in one round trip: the board's counters, its score counts, the viewer's entry
    (and, with ``unranked_key``, their result on that board of every daily), and the page
    (after ``cursor``, or around the viewer). Rows are tagged by part."""
    params: list[Any] = [key, db_value(Standing, "player", viewer_id) if viewer_id else None]
    parts = []  # the ranked parts come first: they set the columns' types for the others
    if around:
        parts.append(_ranked_part("above", f"AND {_PLACE} < ({_MY_PLACE}) ", _DESCENDING))
        parts.append(_ranked_part("below", f"AND {_PLACE} >= ({_MY_PLACE}) ", _ASCENDING))
        parts.append(_ranked_part("bottom", "AND NOT EXISTS (SELECT 1 FROM place) ",
                                  _DESCENDING))
        params += [limit - 1, limit + 1, limit]
    elif cursor is not None:
        parts.append(_ranked_part("page", f"AND {_PLACE} > (%s, %s, %s, %s) ", _ASCENDING))
        params += [-cursor.total, -cursor.wins, db_value(Standing, "reached_at", cursor.reached_at),
                   db_value(Standing, "player", cursor.player_id), limit + 1]
    else:
        parts.append(_ranked_part("page", "", _ASCENDING))
        params.append(limit + 1)
    if viewer_id is not None:
        parts.append(_ME)
        if unranked_key is not None:
            parts.append(_UNRANKED)
            params.append(unranked_key)
    parts += [_SUMMARY, _COUNTS]
    viewer = "CAST(%s AS uuid)" if connection.vendor == "postgresql" else "%s"
    ctes = [f"board AS (SELECT id, players, winners FROM {BOARD} WHERE key = %s)",
            f"viewer AS (SELECT {viewer} AS player)", *([_PLACE_CTE] if around else [])]
    sql = f"WITH {', '.join(ctes)} {' UNION ALL '.join(parts)}"
    return sql, params


def _uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)  # SQLite: text


def _moment(value: datetime | str) -> datetime:
    if isinstance(value, str):  # SQLite: text in UTC
        parsed = parse_datetime(value)
        if parsed is None:
            raise ValueError(f"Not a moment: {value!r}")
        value = parsed
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _entry(row: Sequence[Any]) -> Entry:
    player_id, name, games, wins, total, best, reached_at, rank = row[:8]
    return Entry(rank=int(rank), player_id=_uuid(player_id), player_name=name, score=total,
                 wins=wins, games=games, best=best, finished_at=_moment(reached_at))


def _window(*, limit: int, page: list[Entry] | None = None, above: list[Entry] | None = None,
            below: list[Entry] | None = None, bottom: list[Entry] | None = None,
            ) -> tuple[list[Entry], Cursor | None]:
    """The entries to show and the next page's cursor, from the slices read: a ``page`` of up
    to limit + 1 entries; or around you, up to limit - 1 ``above`` (nearest first) and
    limit + 1 from you ``below``; or, when you hold no rank, the ``bottom`` (last first)."""
    if bottom is not None:
        return bottom[::-1], None
    if page is not None:
        rows, more = page[:limit], len(page) > limit
    else:
        # Half above you, the rest from you down; near either end the other side fills in.
        assert above is not None and below is not None  # the callers give both
        shown_below = min(len(below), limit - min(len(above), (limit - 1) // 2))
        shown_above = min(len(above), limit - shown_below)
        rows = above[:shown_above][::-1] + below[:shown_below]
        more = len(below) > shown_below
    return rows, (rows[-1].cursor if more and rows else None)


def _day_status(viewer: Player, day: date, won: bool, game: str = FOURSQUARE) -> str:
    if won:
        return "won"
    return board_game(game).day_status(viewer, day) or "not_started"


def _viewer_status(ref: BoardRef, viewer: Player, wins: int | None) -> str:
    """``wins``: the viewer's wins on the board, None if they have no standing there."""
    if wins is None:
        return "not_started"
    if ref.period is Period.DAY:
        return _day_status(viewer, ref.day, wins > 0, ref.game)
    return "won" if wins else "played"


def _distribution(ref: BoardRef, pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Winners by score (day) or by total score (week, all time); a day lists every score."""
    game = board_game(ref.game)
    counts = (dict.fromkeys(range(game.min_score, game.max_score + 1), 0)
              if ref.period is Period.DAY else {})
    for total, count in pairs:
        if count:
            counts[total] = counts.get(total, 0) + count
    return dict(sorted(counts.items()))


def board_page(*, ref: BoardRef, viewer: Player | None = None, limit: int,
               cursor: Cursor | None = None, around: bool = False) -> BoardPage:
    """A page of the public board ``ref`` (its ranked board), with ``viewer``'s entry and
    standing if given."""
    sql, params = board_sql(key=ref.ranked_key, viewer_id=viewer.pk if viewer else None,
                            limit=limit, cursor=cursor, around=around and viewer is not None,
                            unranked_key=ref.key)
    # Hand-written, so routed by hand: the replica when this request may read it.
    with connections[router.db_for_read(Standing)].cursor() as db:
        db.execute(sql, params)
        rows = db.fetchall()
    parts: dict[str, list[list[Any]]] = {}
    for tag, *row in rows:
        parts.setdefault(tag, []).append(row)
    _, _, players, winners, *_ = parts.get("board", [(None, None, 0, 0)])[0]
    page = BoardPage(players=players, winners=winners, entries=[], distribution=_distribution(
        ref, [(row[4], row[8]) for row in parts.get("count", [])]))
    if viewer is not None:
        mine = parts.get("me", [None])[0]
        wins = mine[3] if mine else None
        page.me = _entry([mine[0], viewer.name, *mine[2:]]) if mine and wins else None
        # Not on the ranked board: did the viewer play dailies of the period that don't rank?
        # Their (wins, total) among all their dailies of the period, None if they played none.
        found = parts.get("unranked", []) if mine is None else []
        unranked = (found[0][3], found[0][4]) if found else None
        status = _viewer_status(ref, viewer, wins if mine else unranked and unranked[0])
        page.standing = standing_of(
            status=status, players=players, winners=winners, entry=page.me,
            tied=(mine[8] or 0) if mine else 0,
            ranked=None if status == "not_started" else mine is not None)
        if unranked and unranked[0] and ref.period is Period.DAY:
            # An unranked win: where it would stand among the ranked players of the day.
            rank, percent = would_stand(score=unranked[1], players=players,
                                        distribution=page.distribution)
            page.standing = replace(page.standing, would_rank=rank,
                                    would_better_than_percent=percent)
    slices = {tag: sorted((_entry(row) for row in parts.get(tag, [])),
                          key=lambda entry: entry.cursor.sort_key,
                          reverse=tag in ("above", "bottom"))
              for tag in ("page", "above", "below", "bottom")}
    if around and page.me is None:
        page.entries, page.next = _window(limit=limit, bottom=slices["bottom"])
    elif around:
        page.entries, page.next = _window(limit=limit, above=slices["above"],
                                          below=slices["below"])
    else:
        page.entries, page.next = _window(limit=limit, page=slices["page"])
    return page


def _reached(row: Standing) -> datetime:
    if row.reached_at is None:  # set by every win
        raise ValueError(f"A standing with wins but no moment: {row.pk}")
    return row.reached_at


def members_board_page(*, ref: BoardRef, members: Iterable[object], viewer: Player, limit: int,
                       cursor: Cursor | None = None, around: bool = False) -> BoardPage:
    """The board ``ref`` restricted to ``members`` (a queryset of player ids), ranked among
    them in memory: a league's board."""
    rows = list(Standing.objects.filter(board__key=ref.key, player_id__in=members)
                .select_related("player"))
    ranked_rows = sorted((row for row in rows if row.wins),
                         key=lambda row: (-row.total, -row.wins, row.reached_at, row.player_id))
    ranks = competition_ranks([(row.total, row.wins) for row in ranked_rows])
    entries = [
        Entry(rank=rank, player_id=row.player_id, player_name=row.player.name,
              score=row.total, wins=row.wins, games=row.games, best=row.best,
              finished_at=_reached(row))
        for rank, row in zip(ranks, ranked_rows, strict=True)
    ]
    page = BoardPage(players=len(rows), winners=len(entries), entries=[],
                     distribution=_distribution(ref, Counter(entry.score
                                                             for entry in entries).items()))
    mine = next((row for row in rows if row.player_id == viewer.pk), None)
    me = next((index for index, entry in enumerate(entries) if entry.player_id == viewer.pk),
              None)
    page.me = entries[me] if me is not None else None
    page.standing = standing_of(
        status=_viewer_status(ref, viewer, mine.wins if mine else None), players=page.players,
        winners=page.winners, entry=page.me,
        tied=sum(entry.score == page.me.score and entry.wins == page.me.wins
                 for entry in entries) if page.me else 0,
        ranked=True if mine else None)  # every member's dailies count among the members
    if around and me is None:
        page.entries, page.next = _window(limit=limit, bottom=entries[::-1][:limit])
    elif around and me is not None:
        page.entries, page.next = _window(limit=limit,
                                          above=entries[max(me - limit + 1, 0):me][::-1],
                                          below=entries[me:me + limit + 1])
    else:
        start = 0 if cursor is None else bisect.bisect_right(
            [entry.cursor.sort_key for entry in entries], cursor.sort_key)
        page.entries, page.next = _window(limit=limit, page=entries[start:start + limit + 1])
    return page


def board_ref(period: Period, day: date, game: str = FOURSQUARE) -> BoardRef:
    """The board of ``period`` that holds ``day``, if the daily of ``day`` has been dealt: from
    the launch date to the last date current somewhere on Earth. The date itself decides, for
    a week or all time too: a week board asked for by a day before the launch is 404, even if
    the launch falls in that week."""
    last = current_dates()[1]
    if not settings.FOURSQUARE_LAUNCH_DATE <= day <= last:
        raise BoardNotFound(
            f"No daily of {day.isoformat()} has been dealt: dailies run from "
            f"{settings.FOURSQUARE_LAUNCH_DATE.isoformat()} to {last.isoformat()} today.")
    return BoardRef(period, day, game)


def daily_summary(*, day: date, game: str = FOURSQUARE) -> tuple[int, int]:
    """(players, winners) of the daily of ``day`` on its global board: ranked games only."""
    board = one_or_none(Board.objects.filter(key=BoardRef(Period.DAY, day, game).ranked_key)
                        .values_list("players", "winners"))
    return board or (0, 0)


def day_ranks(wins: list[tuple[date, int]], game: str = FOURSQUARE) -> dict[date, int]:
    """The rank of each ranked (day, score) win on ``game``'s global day board, in one
    query."""
    if not wins:
        return {}
    better: Counter[date] = Counter()
    scores = dict(wins)
    keys = {BoardRef(Period.DAY, day, game).ranked_key: day for day in scores}
    counts = ScoreCount.objects.filter(board__key__in=keys, count__gt=0).values_list(
        "board__key", "total", "count")
    for key, total, count in counts:
        if total > scores[keys[key]]:
            better[keys[key]] += count
    return {day: 1 + better[day] for day in scores}
