"""Writes on games: starting practice, daily and archive games, and playing a move."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any
from uuid import UUID

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from foursquare import Card, IllegalMoveError, deal
from foursquare import Game as EngineGame
from server.api import idempotency
from server.api.formats import iso_datetime
from server.api.models import IdempotencyRecord
from server.api.problems import DailyUnavailable, GameOver
from server.boards import services as boards
from server.core.queries import one_or_none
from server.core.sql import execute_prepared
from server.dailies import calendar
from server.foursquare import dailies
from server.foursquare.engine import rebuild
from server.foursquare.models import Daily, Deal, Game, Move, Race
from server.foursquare.problems import (
    DealNotFound,
    DealUnavailable,
    GameNotFound,
    IllegalMove,
    StaleMove,
)
from server.foursquare.races import live
from server.foursquare.races import services as race_services
from server.foursquare.races.problems import OutOfTime, RaceNotStarted
from server.foursquare.tasks import GAME_ANALYSE
from server.jobs.background import job_enqueue
from server.jobs.models import Job
from server.players.models import Player


def _daily_game(*, player: Player, day: date | None) -> tuple[Game, bool]:
    day = day or calendar.utc_today()
    if not calendar.is_playable(day):
        first, last = calendar.current_dates()
        raise DailyUnavailable(
            f"The daily of {day.isoformat()} is not being played now: dailies from "
            f"{first.isoformat()} to {last.isoformat()} are current somewhere on Earth. "
            "Past dailies can be replayed with mode \"archive\".",
        )
    daily = dailies.daily_get_or_create(day)
    existing = one_or_none(Game.objects.filter(player=player, daily=daily,
                                              mode=Game.Mode.DAILY))
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            # Ranked or not is decided here, once: claiming the account later changes no
            # board of a daily already started.
            game = Game.objects.create(player=player, mode=Game.Mode.DAILY, daily=daily,
                                       deal=daily.deal,
                                       ranked=boards.player_ranked_on(player, daily.date))
            boards.daily_start_record(game=game)
        return game, True
    except IntegrityError:  # a simultaneous request created it: the constraint decided
        return Game.objects.get(player=player, daily=daily, mode=Game.Mode.DAILY), False


def _archive_game(*, player: Player, day: date | None) -> Game:
    if day is None or not calendar.is_archived(day):
        raise DailyUnavailable(
            "The archive holds past dailies from the launch date until the oldest date still "
            "being played somewhere on Earth; send one as \"date\"."
        )
    daily = dailies.daily_get_or_create(day)
    return Game.objects.create(player=player, mode=Game.Mode.ARCHIVE, daily=daily,
                               deal=daily.deal)


def _practice_game(*, player: Player, deal_id: str | None) -> Game:
    deal_row: Deal | None
    if deal_id is None:
        deal_row = Deal.from_deck(deal(secrets.token_bytes(32)))
        deal_row.save()
    else:
        deal_row = one_or_none(Deal.objects.select_related("daily").filter(pk=deal_id))
        if deal_row is None:
            raise DealNotFound(f"There is no deal {deal_id!r}.")
        daily = getattr(deal_row, "daily", None)
        if daily is not None and not calendar.is_archived(daily.date):
            raise DealUnavailable(
                f"Deal {deal_id!r} is the daily of {daily.date.isoformat()}, still being "
                "played; start it as your daily instead."
            )
        if Race.objects.filter(deal=deal_row).exclude(status=Race.Status.FINISHED).exists():
            raise DealUnavailable(
                f"Deal {deal_id!r} is a race's, still being raced; practise it once the race "
                "has finished."
            )
    return Game.objects.create(player=player, mode=Game.Mode.PRACTICE, deal=deal_row)


def game_start(*, player: Player, mode: str, day: date | None = None,
               deal_id: str | None = None) -> tuple[Game, bool]:
    """Start (or, for a daily already started, find) a game. Returns (game, created)."""
    if mode == Game.Mode.DAILY:
        return _daily_game(player=player, day=day)
    if mode == Game.Mode.ARCHIVE:
        return _archive_game(player=player, day=day), True
    return _practice_game(player=player, deal_id=deal_id), True


# A move is the request every player sends forty times a game, so its statements are written
# out once here: building them with the ORM took several times the database's own work.
_GAME_FIELDS = [field.attname for field in Game._meta.concrete_fields]
# The columns game_from_row reads, in its order, for statements that select a game.
GAME_COLUMNS_SQL = (
    ", ".join(f'g."{field.column}"' for field in Game._meta.concrete_fields)
    + ', d."cards", dl."number"'
)
_LOCK_SQL = (
    f'SELECT {GAME_COLUMNS_SQL} FROM "{Game._meta.db_table}" g '
    f'JOIN "{Deal._meta.db_table}" d ON d."id" = g."deal_id" '
    f'LEFT JOIN "{Daily._meta.db_table}" dl ON dl."date" = g."daily_id" '
    'WHERE g."id" = %s AND g."player_id" = %s FOR UPDATE OF g'
)
# The move, the game's new state and (optionally) the stored answer for its Idempotency-Key,
# in one statement, on condition that the game still has the moves it was checked against.
_STORE_MOVE_SQL = (
    f'WITH moved AS (UPDATE "{Game._meta.db_table}" SET "move_list" = %s::jsonb, '
    '"moves_played" = %s, "status" = %s, "score" = %s, "finished_at" = %s, "updated_at" = %s '
    'WHERE "id" = %s AND "moves_played" = %s AND "status" = \'playing\' RETURNING "id"), '
    f'stored AS (INSERT INTO "{Move._meta.db_table}" '
    '("game_id", "number", "row", "col", "card", "played_at") '
    'SELECT "id", %s, %s, %s, %s, %s FROM moved) '
)
_STORE_ANSWER_SQL = (
    f', remembered AS (INSERT INTO "{IdempotencyRecord._meta.db_table}" '
    f'({idempotency.RECORD_COLUMNS_SQL}) SELECT %s, %s, %s, %s, %s, %s FROM moved) '
)
_MOVED_SQL = "SELECT count(*) FROM moved"


def move_store(*, game: Game, played: int, card: Card, row: int, col: int,
               answer: tuple | None = None) -> bool:
    """Store the move ``move_apply`` just played on ``game`` (which had ``played`` moves), the
    game's new state and, with ``answer`` = (player id, key, request hash, body), the stored
    answer for its key, in one statement (PostgreSQL). False, storing nothing, if the game no
    longer has ``played`` moves or is no longer being played (a daily's date or a race's time
    closed it meanwhile)."""
    parameters = [
        json.dumps(game.move_list), game.moves_played, game.status, game.score,
        game.finished_at, game.updated_at, game.pk, played,
        played, row, col, str(card), game.updated_at,
    ]
    sql = _STORE_MOVE_SQL
    if answer is not None:
        parameters += [*answer[:3], 200, answer[3], game.updated_at]
        sql += _STORE_ANSWER_SQL
    (moved,) = execute_prepared(sql + _MOVED_SQL, parameters)
    return moved == 1


def game_lock(*, player: Player, game_id: UUID | str) -> Game:
    """The player's game (with its deal and daily), locked for update until the transaction
    ends; 404 for anyone else's."""
    if connection.vendor != "postgresql":
        return _game_lock_orm(player=player, game_id=game_id)
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_SQL, [game_id, player.pk])
        row = cursor.fetchone()
    if row is None:
        raise GameNotFound()
    return game_from_row(row)



def game_from_row(row: Sequence[Any]) -> Game:
    """A game (with its deal and daily) from a row of GAME_COLUMNS_SQL, as the ORM would have
    built it."""
    *values, cards, number = row
    game = Game.from_db(connection.alias, _GAME_FIELDS, values)
    if isinstance(game.move_list, str):  # jsonb arrives as text; the ORM would decode it
        game.move_list = json.loads(game.move_list)
    game._state.fields_cache["deal"] = Deal.from_db(connection.alias, ["id", "cards"],
                                                    [game.deal_id, cards])
    game._state.fields_cache["daily"] = (
        Daily.from_db(connection.alias, ["date", "number"], [game.daily_id, number])
        if game.daily_id is not None else None
    )
    return game


def _game_lock_orm(*, player: Player, game_id: UUID | str) -> Game:
    """``game_lock`` for databases other than PostgreSQL: the hand-written statements rely
    on PostgreSQL's syntax (FOR UPDATE OF, WITH ... INSERT) and on psycopg's types."""
    game = one_or_none(
        Game.objects.select_for_update(of=("self",))
        .select_related("deal", "daily")
        .filter(pk=game_id, player=player)
    )
    if game is None:
        raise GameNotFound()
    return game


def move_apply(*, game: Game, row: int, col: int,
               expected_move: int | None) -> tuple[EngineGame, Card]:
    """Play the current card of ``game`` at (row, col) in memory: the engine's game after it,
    and the card played. ``game``'s fields take their new values; nothing is stored.

    Raises a problem (and changes nothing) for a finished game, a stale move number or an
    illegal placement.
    """
    if game.mode == Game.Mode.RACE:
        race_move_check(game, timezone.now())
    if game.is_over:
        raise GameOver(f"The game is over ({game.status}); no move can be played.")
    day = game.daily_id  # a daily's date (None for no other mode's game)
    if game.mode == Game.Mode.DAILY and day is not None and not calendar.is_playable(day):
        raise GameOver(
            f"The daily of {day.isoformat()} closed unfinished at "
            f"{iso_datetime(calendar.closes_at(day))}, when its "
            "date had ended everywhere on Earth; no move can be played."
        )
    if expected_move is not None and expected_move != game.moves_played:
        raise StaleMove(
            f"You sent move {expected_move}, but {game.moves_played} moves have been played.",
            moves_played=game.moves_played,
        )
    engine = rebuild(game)
    card = engine.current
    assert card is not None  # the game is not over (checked above): a card is to be placed
    try:
        engine.play((row, col))
    except IllegalMoveError as error:
        raise IllegalMove(str(error), legal_moves=[list(m) for m in engine.legal_moves()]) \
            from None
    now = timezone.now()
    game.move_list = [*game.move_list, [row, col]]
    game.moves_played = engine.moves_played
    game.status = engine.status
    game.score = engine.score
    if engine.status != Game.Status.PLAYING:
        game.finished_at = now
    game.updated_at = now
    return engine, card


def race_move_check(game: Game, now: datetime) -> None:
    """A race game takes moves from its ``opens_at`` (the race's start) until its
    ``closes_at`` (the race's end): 409 ``race_not_started`` before, ``out_of_time`` from."""
    if game.opens_at is not None and now < game.opens_at:
        raise RaceNotStarted(
            f"The race starts at {iso_datetime(game.opens_at)}; no move can be played before.")
    if game.status == Game.Status.UNFINISHED or (
            game.closes_at is not None and now >= game.closes_at and not game.is_over):
        raise OutOfTime(f"The race's time was up at {iso_datetime(game.closes_at)}; no move "
                        "can be played any more.")


def move_play(*, game: Game, row: int, col: int, expected_move: int | None) -> EngineGame:
    """Play the current card of a locked game at (row, col) and store the move. Returns the
    engine's game.

    The caller holds the row lock, and the unique (game, number) constraint on moves backs
    it: a move number can never be stored twice.
    """
    engine, card = move_apply(game=game, row=row, col=col, expected_move=expected_move)
    number = game.moves_played - 1
    if connection.vendor == "postgresql":
        if not move_store(game=game, played=number, card=card, row=row, col=col):
            raise RuntimeError(f"game {game.pk} moved on while locked")  # the lock forbids it
    else:  # SQLite (`make run`): the same writes through the ORM
        Move.objects.create(game=game, number=number, row=row, col=col, card=str(card),
                            played_at=game.updated_at)
        game.save(update_fields=["move_list", "moves_played", "status", "score",
                                 "finished_at", "updated_at"])
    if engine.status != Game.Status.PLAYING and game.mode == Game.Mode.DAILY:
        boards.daily_result_record(game=game)  # same transaction: ranks never lag the game
    if game.mode == Game.Mode.RACE:
        # Same transaction: places never lag it (a race game has its race).
        if engine.status != Game.Status.PLAYING and game.race_id is not None:
            race_services.race_finish_if_done(game.race_id)
        live.progress_published(game, engine)  # told once the move is committed
    return engine


def dailies_close(*, player: Player | None = None, now: datetime | None = None) -> int:
    """Mark the daily games left unfinished when their date closed (``calendar.closes_at``) as
    over, ``unfinished``: all of them, or ``player``'s. Returns how many.

    Whether a daily can still be played never depends on this having run (``move_apply``
    checks the date); it makes what the games say agree with that, so it runs before the
    reads that show a player's games and, for everyone, in the worker's housekeeping.
    """
    first_open, _ = calendar.current_dates(now)
    games = Game.objects.filter(mode=Game.Mode.DAILY, status=Game.Status.PLAYING,
                                daily_id__lt=first_open)
    if player is not None:
        games = games.filter(player=player)
    closed = 0
    # Per date, so that each game's end is the moment its date closed.
    for day in games.values_list("daily_id", flat=True).distinct().order_by():
        closed += games.filter(daily_id=day).update(
            status=Game.Status.UNFINISHED, finished_at=calendar.closes_at(day),
            updated_at=timezone.now())
    return closed


def daily_close_if_due(game: Game, now: datetime | None = None) -> bool:
    """Mark ``game`` (as read) over, ``unfinished``, if it is a daily still being played whose
    date closed (``dailies_close``, for one game). Whether it did; no query if it is not."""
    if (game.mode != Game.Mode.DAILY or game.status != Game.Status.PLAYING
            or game.daily_id is None or game.daily_id >= calendar.current_dates(now)[0]):
        return False
    return bool(Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING).update(
        status=Game.Status.UNFINISHED, finished_at=calendar.closes_at(game.daily_id),
        updated_at=timezone.now()))


def analysis_request(*, game: Game) -> Job:
    """The background job analysing a finished game, enqueued if it was not yet."""
    with transaction.atomic():
        return job_enqueue(kind=GAME_ANALYSE, key=str(game.pk))


def analysis_under_way(*, game: Game) -> bool:
    """Whether the analysis of ``game`` is queued or running (a request only waits for it)."""
    return Job.objects.filter(kind=GAME_ANALYSE, key=str(game.pk),
                              status__in=[Job.Status.PENDING, Job.Status.RUNNING]).exists()


def analysis_pending_other(*, game: Game) -> bool:
    """Whether another analysis of ``game``'s player is queued or running: a player has one
    at a time, so nobody fills the background's queue with minutes of solver work."""
    keys = (Job.objects.filter(kind=GAME_ANALYSE,
                               status__in=[Job.Status.PENDING, Job.Status.RUNNING])
            .exclude(key=str(game.pk)).values_list("key", flat=True))
    return Game.objects.filter(player_id=game.player_id, pk__in=list(keys)).exists()
