"""The hand-written SQL of Spite & Malice's action fast path (``fastaction``), all of it here.

Two statements answer an action: ``action_find`` reads the token, its player, the match, its
current game, the seats' names, bot flags and ratings (what the opponent's ``your_turn`` names)
and any answer stored for the ``Idempotency-Key`` in one round trip; ``action_store`` writes
the game, the match, the action rows, the events, the stored answer and the opponent's account
event (``your_turn``, numbered on their counter:
``server.streams``) in one. Both are prepared (``server.core.sql.execute_prepared``): PostgreSQL
plans them once per connection. Their text does not depend on how many actions or events an
answer holds (those travel as one JSON array each), so each stays one prepared statement.

No row is locked between the two: the write changes the match only while it still holds the
event number, the deadline and the status it was read with, and writes nothing else when it
does not. A request that changed the match in between (an action, a resignation, a timeout)
always logs an event, so a write that lost a race stores nothing and says so, and the full
view, which does lock, answers instead.
"""

from __future__ import annotations

import json
from datetime import datetime

from server.api import fastpath, idempotency
from server.api.models import IdempotencyRecord
from server.core.sql import execute_prepared
from server.players.models import Player
from server.players.tokens import hash_token
from server.ratings.models import Rating
from server.ratings.selectors import ShownRating, shown_rating
from server.spitemalice.live.publish import seat_texts
from server.spitemalice.models import Action, Event, Match, MatchGame
from server.spitemalice.rating_rules import GAME
from server.streams.services import Draft, account_ctes

# What the full view's writes store of a match and of its game (services._store).
MATCH_FIELDS = ("status", "score0", "score1", "winner", "reason", "game_number", "turn",
                "actions_played", "event", "bot_pending", "started_at", "updated_at",
                "finished_at", "turn_started_at", "deadline")
GAME_FIELDS = ("actions", "status", "winner", "points", "turn_number", "finished_at")
# The game's actions only grow while it is played: the write appends the new ones
# (``actions || %s``) rather than sending and parsing the whole list again, and the rest of
# the game's fields are set as the full view sets them.
_GAME_FIELDS_SET = tuple(name for name in GAME_FIELDS if name != "actions")

MATCH_ATTNAMES = [field.attname for field in Match._meta.concrete_fields]
GAME_ATTNAMES = [field.attname for field in MatchGame._meta.concrete_fields]
_TOKEN_COLUMNS = 7  # fastpath.token_find_sql's own: the token's four, the stored answer's three
_PEOPLE_COLUMNS = 6  # the names and bot flags of the seats' players and of the invitee
_RATING_COLUMNS = ("rating", "deviation", "matches", "provisional")  # rating_of's, per seat


def _columns(alias: str, model) -> str:
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _set(model, fields) -> str:
    return ", ".join(f'"{model._meta.get_field(name).column}" = %s' for name in fields)


_FIND_SQL = fastpath.token_find_sql(
    columns=(f', {_columns("m", Match)}, {_columns("g", MatchGame)}, '
             'p0."name", p1."name", pi."name", p0."bot", p1."bot", pi."bot", '
             + ", ".join(f'r{seat}."{column}"' for seat in (0, 1)
                         for column in _RATING_COLUMNS)),
    joins=(
        f'LEFT JOIN "{Match._meta.db_table}" m '
        'ON m."id" = %s AND t."player_id" IN (m."player0_id", m."player1_id") '
        f'LEFT JOIN "{MatchGame._meta.db_table}" g '
        'ON g."match_id" = m."id" AND g."number" = m."game_number" '
        f'LEFT JOIN "{Player._meta.db_table}" p0 ON p0."id" = m."player0_id" '
        f'LEFT JOIN "{Player._meta.db_table}" p1 ON p1."id" = m."player1_id" '
        f'LEFT JOIN "{Player._meta.db_table}" pi ON pi."id" = m."invitee_id" '
        # The seats' ratings as ``rating_of`` reads them (the board's: not held), for the
        # ``your_turn`` an action that passes the turn tells the opponent.
        + "".join(f'LEFT JOIN "{Rating._meta.db_table}" r{seat} '
                  f'ON r{seat}."player_id" = m."player{seat}_id" AND r{seat}."game" = %s '
                  f'AND NOT r{seat}."held" ' for seat in (0, 1))),
)

_STORE_SQL = (
    f'WITH moved AS (UPDATE "{Match._meta.db_table}" SET {_set(Match, MATCH_FIELDS)} '
    'WHERE "id" = %s AND "status" = %s AND "event" = %s '
    'AND "deadline" IS NOT DISTINCT FROM %s RETURNING "id"), '
    f'played AS (UPDATE "{MatchGame._meta.db_table}" SET "actions" = "actions" || %s::jsonb, '
    f'{_set(MatchGame, _GAME_FIELDS_SET)} '
    'WHERE "id" = %s AND EXISTS (SELECT FROM moved)), '
    f'acted AS (INSERT INTO "{Action._meta.db_table}" '
    '("match_id", "game", "number", "seat", "source", "target", "card", "played_at") '
    'SELECT moved."id", a."game", a."number", a."seat", a."source", a."target", a."card", %s '
    'FROM moved, jsonb_to_recordset(%s::jsonb) AS a("game" int, "number" int, "seat" int, '
    '"source" text, "target" text, "card" text)), '
    f'logged AS (INSERT INTO "{Event._meta.db_table}" '
    '("match_id", "number", "kind", "seat0", "seat1", "created_at") '
    'SELECT moved."id", e."number", e."kind", e."seat0", e."seat1", %s '
    'FROM moved, jsonb_to_recordset(%s::jsonb) AS e("number" int, "kind" text, '
    '"seat0" jsonb, "seat1" jsonb)), '
    f'remembered AS (INSERT INTO "{IdempotencyRecord._meta.db_table}" '
    f'({idempotency.RECORD_COLUMNS_SQL}) '
    'SELECT %s::uuid, %s::text, %s::text, %s::int, %s::text, %s::timestamptz FROM moved '
    'WHERE %s::boolean), '
    f'{account_ctes("moved")} '
    'SELECT (SELECT count(*) FROM moved), (SELECT "last" FROM counted)'
)


def _events_json(events: list[Event]) -> str:
    """The events' rows as the statement's JSON array, each seat's view in the text its
    sockets' frame is built from (``publish.seat_texts``: encoded once for both)."""
    rows = []
    for row in events:
        seat0, seat1 = seat_texts(row)
        rows.append(f'{{"number":{int(row.number)},"kind":{json.dumps(row.kind)},'
                    f'"seat0":{seat0},"seat1":{seat1}}}')
    return f"[{','.join(rows)}]"


class Found:
    """``action_find``'s row, by part."""

    __slots__ = (
        "active",
        "bots",
        "game_values",
        "last_used_at",
        "match_values",
        "names",
        "player_id",
        "ratings",
        "stored",
        "token_id",
    )

    def __init__(self, row) -> None:
        (self.token_id, self.player_id, self.last_used_at, self.active,
         *stored) = row[:_TOKEN_COLUMNS]
        self.stored = tuple(stored) if stored[1] is not None else None
        end_of_match = _TOKEN_COLUMNS + len(MATCH_ATTNAMES)
        self.match_values = row[_TOKEN_COLUMNS:end_of_match]
        end_of_game = end_of_match + len(GAME_ATTNAMES)
        self.game_values = row[end_of_match:end_of_game]
        people = row[end_of_game:end_of_game + _PEOPLE_COLUMNS]
        self.names, self.bots = people[:3], people[3:]
        rated = row[end_of_game + _PEOPLE_COLUMNS:]
        per_seat = len(_RATING_COLUMNS)
        # {seat's player id: their rating as rating_of shows it, or None if unrated}
        self.ratings: dict[object, ShownRating | None] = {}
        for seat in (0, 1):
            player_id = self.match_values[MATCH_ATTNAMES.index(f"player{seat}_id")]
            values = rated[seat * per_seat:(seat + 1) * per_seat]
            if player_id is not None:
                self.ratings[player_id] = None if values[0] is None else shown_rating(*values)


_ACTIONS_AT = GAME_ATTNAMES.index("actions")


def actions_text_of(found: Found) -> str | None:
    """The current game's actions as PostgreSQL printed them (jsonb arrives as text), or None
    if they arrived decoded."""
    text = found.game_values[_ACTIONS_AT]
    return text if isinstance(text, str) else None


def action_find(token: str, match_id, key: str | None) -> Found | None:
    """The token's player with the match (if they hold one of its seats), its current game,
    the names of its players and invitee, and the answer stored for ``key``; None for an
    unknown token."""
    row = execute_prepared(_FIND_SQL, [key, match_id, GAME, GAME, hash_token(token)])
    return None if row is None else Found(row)


def action_store(*, match: Match, game: MatchGame, read_event: int,
                 read_deadline: datetime | None, actions: list[Action], events: list[Event],
                 now: datetime, answer: tuple | None, account: Draft | None = None,
                 appended_text: str) -> tuple[bool, int | None]:
    """Store the game's and the match's new state, ``actions`` and ``events``, with
    ``answer`` = (player id, key, request hash, body) the stored answer for its key, and the
    ``account`` event, in one statement, if the match still holds the event number and deadline
    it was read with (and is being played). (True, the account event's number or None), or
    (False, None), storing nothing, if it does not. ``appended_text``: the JSON array of the
    actions played since the game was read, which the stored list gains at its end (the same
    event number means the same stored list: every action logs an event)."""
    parameters = [getattr(match, name) for name in MATCH_FIELDS]
    parameters += [match.pk, Match.Status.PLAYING, read_event, read_deadline]
    parameters += [appended_text, *(getattr(game, name) for name in _GAME_FIELDS_SET)]
    parameters += [game.pk, now, json.dumps([
        {"game": row.game, "number": row.number, "seat": row.seat, "source": row.source,
         "target": row.target, "card": row.card} for row in actions])]
    parameters += [now, _events_json(events)]
    player_id, key, request_hash, body = answer or (None, None, None, None)
    parameters += [player_id, key, request_hash, 200, body, now, answer is not None]
    parameters += [None if account is None else account.player_id, account is not None,
                   None if account is None else account.kind,
                   None if account is None else json.dumps(account.payload), now]
    stored, number = execute_prepared(_STORE_SQL, parameters)
    return stored == 1, number
