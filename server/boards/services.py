"""Writes on the boards: counting who starts a daily, recording who wins one.

A daily game counts on the boards of its day, week and all time, and - if it is ranked - on
their ranked versions too, the ones the global boards show (``periods``). Whether it is ranked
is decided once, when the game is created (``player_ranked_on``), and stored on the game, so
claiming an account later changes no board of a day already started.

Both are called by ``server.foursquare.services`` inside the transaction that creates or finishes
the daily game, so a board never shows a half-counted result and a rolled-back move counts
nothing. Every counter moves by ``SET n = n + 1`` (or an upsert adding to it), so concurrent
finishes add up exactly.

Row locks are always taken in one order - the player's own standings, then score counts
sorted by (board, total, wins), then boards by id - so two finishing games never deadlock.

The statements are plain SQL that PostgreSQL and SQLite (``make run``) both understand:
``INSERT ... ON CONFLICT`` and ``RETURNING``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Protocol, TypedDict
from uuid import UUID

from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models import BooleanField, Model, Value

from server.boards.games import FOURSQUARE, game_of_key
from server.boards.models import Board, ScoreCount, Standing
from server.boards.periods import ALL_KEY, RANKED_SUFFIX, Period, keys_of_game
from server.core.sql import db_value
from server.dailies import calendar
from server.players.models import Player
from server.players.trust import established_at

BOARD = Board._meta.db_table
STANDING = Standing._meta.db_table
SCORE_COUNT = ScoreCount._meta.db_table


class DailyStart(Protocol):
    """A daily game as the boards count its start: any game's, or a result shaped like one."""

    @property
    def player_id(self) -> object: ...
    @property
    def daily_id(self) -> date | None: ...  # None only for a game that is not a daily
    @property
    def ranked(self) -> bool: ...


class DailyResult(DailyStart, Protocol):
    """A daily game as the boards rank its end."""

    @property
    def status(self) -> str: ...
    @property
    def score(self) -> int | None: ...
    @property
    def finished_at(self) -> datetime | None: ...


def _day_of(game: DailyStart) -> date:
    if game.daily_id is None:
        raise ValueError("Only a daily game counts on the boards.")
    return game.daily_id


def player_ranked_on(player: Player, day: date) -> bool:
    """Whether a daily game of ``day`` that ``player`` starts now ranks on the global boards:
    the account is established (``server.players.trust``): claimed at least ``TRUSTED_AFTER``
    before that daily first opened anywhere (midnight at UTC+14, ``calendar.opens_at``). An
    account made, or claimed, once the day's deal could be seen - even where the date came
    first - never reaches those boards with it."""
    return established_at(player, calendar.opens_at(day))


def _boards_add(cursor: CursorWrapper, column: str, board_ids: Iterable[int]) -> None:
    """``column + 1`` on each of the boards, in one statement. On PostgreSQL the rows are
    locked first in id order (the lock order the module docstring promises); SQLite has one
    writer at a time."""
    ordered = sorted(board_ids)
    if not ordered:
        return
    ids = _marks(ordered)
    if connection.vendor == "postgresql":
        ids = f"SELECT id FROM {BOARD} WHERE id IN ({ids}) ORDER BY id FOR UPDATE"
    cursor.execute(f"UPDATE {BOARD} SET {column} = {column} + 1 WHERE id IN ({ids})",
                   ordered)


def daily_start_record(*, game: DailyStart, board_game: str = FOURSQUARE) -> None:
    """Count the player of a daily game that was just created on its day, week and all time.

    Call it only when the game was created: the boards' ``players`` count who started.
    ``game`` is any result with ``player_id``, ``daily_id`` (its date) and ``ranked``; of the
    game ``board_game`` names (``games``).
    """
    keys = keys_of_game(_day_of(game), game.ranked, board_game)
    player = db_value(Standing, "player", game.player_id)
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BOARD} (key, kind, players, winners) VALUES "
            + ", ".join(["(%s, %s, 0, 0)"] * len(keys)) + " ON CONFLICT (key) DO NOTHING",
            [value for key in keys for value in (key, kind_of(key))],
        )
        cursor.execute(
            f"INSERT INTO {STANDING} (board_id, player_id, games, wins, total) "
            f"SELECT id, %s, 1, 0, 0 FROM {BOARD} WHERE key IN ({_marks(keys)}) ORDER BY id "
            f"ON CONFLICT (board_id, player_id) DO UPDATE SET games = {STANDING}.games + 1 "
            "RETURNING board_id, games",
            [player, *keys],
        )
        # games == 1 after the upsert: this is the player's first daily of that period.
        _boards_add(cursor, "players", [board for board, games in cursor.fetchall() if games == 1])


def daily_result_record(*, game: DailyResult, board_game: str = FOURSQUARE) -> None:
    """Rank the player of a daily game that has just finished. A loss changes no board: the
    start already counted the player, and only wins hold a rank. ``game`` also has
    ``status`` ("won" for a win), ``score`` and ``finished_at``."""
    if game.status != "won":
        return
    score, keys = game.score, keys_of_game(_day_of(game), game.ranked, board_game)
    assert score is not None  # a won game has its score
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        rows = _standings_add_win(cursor, game, keys)
        if not rows:  # the game was started before the boards existed: count its start now
            daily_start_record(game=game, board_game=board_game)
            rows = _standings_add_win(cursor, game, keys)
        # The player leaves the result they had (if they had won before) for the new one. A
        # proposed row must pass the CHECK (count >= 0) before it meets the conflict, so it
        # says "add one" with count 1 and "take one away" with count 0.
        moves = [(board, total, wins, 1) for board, total, wins in rows]
        moves += [(board, total - score, wins - 1, 0) for board, total, wins in rows if wins > 1]
        moves.sort()
        cursor.execute(
            f"INSERT INTO {SCORE_COUNT} (board_id, total, wins, count) VALUES "
            + ", ".join(["(%s, %s, %s, %s)"] * len(moves))
            + f" ON CONFLICT (board_id, total, wins) DO UPDATE "
            f"SET count = {SCORE_COUNT}.count + 2 * excluded.count - 1",
            [value for move in moves for value in move],
        )
        _boards_add(cursor, "winners", [board for board, _, wins in rows if wins == 1])


def _marks(keys: Sequence[object]) -> str:
    return ", ".join(["%s"] * len(keys))


def _standings_add_win(cursor: CursorWrapper, game: DailyResult,
                       keys: Sequence[str]) -> list[tuple[int, int, int]]:
    """Add the win to the player's standings on the game's boards (three, or six for a ranked
    game): all of them or, if one is missing, none."""
    player = db_value(Standing, "player", game.player_id)
    boards = f"SELECT id FROM {BOARD} WHERE key IN ({_marks(keys)})"
    cursor.execute(
        f"UPDATE {STANDING} SET total = total + %s, wins = wins + 1, reached_at = %s, "
        "best = CASE WHEN best IS NULL OR best < %s THEN %s ELSE best END "
        f"WHERE player_id = %s AND board_id IN ({boards}) "
        f"AND (SELECT COUNT(*) FROM {STANDING} "
        f"WHERE player_id = %s AND board_id IN ({boards})) = %s "
        "RETURNING board_id, total, wins",
        [game.score, db_value(Standing, "reached_at", game.finished_at), game.score, game.score,
         player, *keys, player, *keys, len(keys)],
    )
    return cursor.fetchall()


# --- Recounting from the games ------------------------------------------------------------------

# player, day, status, score, end, ranked
GameRow = tuple[UUID, date, str, int | None, datetime | None, bool]


class Tallied(TypedDict):
    """A player's standing on one board, as ``tally`` counts it."""

    games: int
    wins: int
    total: int
    best: int | None
    reached_at: datetime | None


class BoardCounts(TypedDict):
    players: int
    winners: int


def tally(games: Iterable[GameRow]) -> tuple[dict[str, BoardCounts],
                                             dict[tuple[str, UUID], Tallied],
                                             dict[tuple[str, int, int], int]]:
    """Boards, standings and score counts as the daily games ``(player, day, status, score,
    finished_at, ranked)`` make them: what the hooks above keep up to date one game at a
    time."""
    standings: dict[tuple[str, UUID], Tallied] = {}
    for player, day, status, score, finished_at, ranked in games:
        for key in keys_of_game(day, ranked):
            standing = standings.setdefault((key, player), {
                "games": 0, "wins": 0, "total": 0, "best": None, "reached_at": None})
            standing["games"] += 1
            if status == "won":
                assert score is not None and finished_at is not None  # a won game has both
                standing["wins"] += 1
                standing["total"] += score
                standing["best"] = max(score, standing["best"] or 0)
                standing["reached_at"] = max(finished_at, standing["reached_at"] or finished_at)
    boards: dict[str, BoardCounts] = defaultdict(lambda: {"players": 0, "winners": 0})
    counts: dict[tuple[str, int, int], int] = defaultdict(int)
    for (key, _), standing in standings.items():
        boards[key]["players"] += 1
        if standing["wins"]:
            boards[key]["winners"] += 1
            counts[key, standing["total"], standing["wins"]] += 1
    return dict(boards), standings, dict(counts)


def kind_of(key: str) -> str:
    key = key.removesuffix(RANKED_SUFFIX).removeprefix(game_of_key(key).prefix)
    if key == ALL_KEY:
        return Period.ALL
    return Period.WEEK if "W" in key else Period.DAY


def boards_rebuild(*, game_model: type[Model], board_model: type[Board] = Board,
                   standing_model: type[Standing] = Standing,
                   count_model: type[ScoreCount] = ScoreCount) -> None:
    """Recount every Foursquare board from the daily games (a repair; the migration that adds
    the boards uses it, with its historical models, to count the games played before). Other
    games' boards, whose keys hold a "/", are left as they are. ``game_model`` is Foursquare's
    game model (its historical one in a migration): the boards app imports no game."""
    # A migration older than the games' ``ranked`` field sees no ranked game.
    ranked = ("ranked" if any(field.name == "ranked" for field in game_model._meta.fields)
              else Value(False, output_field=BooleanField()))
    games = game_model._default_manager.filter(mode="daily").values_list(
        "player_id", "daily_id", "status", "score", "finished_at", ranked)
    boards, standings, counts = tally(games.iterator(chunk_size=10_000))
    with transaction.atomic():
        mine = board_model.objects.exclude(key__contains="/")
        count_model.objects.filter(board__in=mine).delete()
        standing_model.objects.filter(board__in=mine).delete()
        mine.delete()
        created = board_model.objects.bulk_create(
            board_model(key=key, kind=kind_of(key), **numbers) for key, numbers in boards.items())
        ids = {board.key: board.pk for board in created}
        standing_model.objects.bulk_create(
            (standing_model(board_id=ids[key], player_id=player, **values)
             for (key, player), values in standings.items()), batch_size=5_000)
        count_model.objects.bulk_create(
            count_model(board_id=ids[key], total=total, wins=wins, count=count)
            for (key, total, wins), count in counts.items())
