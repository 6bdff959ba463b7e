"""``POST /games/{id}/moves`` in two statements, for the request every player sends forty
times a game.

The full view (``MoveCreateView.post``, through DRF) defines what a move request does and
answers every error. This path answers only the requests that succeed: an ordinary move, or
the replay of one already answered under the same ``Idempotency-Key``. For anything else it
returns None, and the caller hands the request to the full view, which answers exactly as it
always does. Nothing is written before this path's single final statement, so handing over
is always safe, and the throttle's verdict, reached here once, travels with the request
(``server.api.fastpath``, which the Spite & Malice action's fast path shares).

What it saves: DRF's request wrapping, negotiation, serializer validation and rendering, and
five of the seven round trips to PostgreSQL. One statement finds the token, its player, the
game, its deal and daily, and any stored answer for the key; one statement stores the move,
the game's new state and the answer, on condition that nobody moved in between (the move
count is unchanged), which takes the place of the full view's row lock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpResponse

from server.api import fastpath, idempotency
from server.api.problems import Problem
from server.foursquare import metrics, services
from server.foursquare.engine import game_output
from server.foursquare.models import Daily, Deal, Game
from server.foursquare.races import live
from server.foursquare.serializers import MoveInput
from server.players.tokens import hash_token

ALLOW = "POST, OPTIONS"
# A game of these modes that a move ends has more to record with it: the daily's boards, the
# race's finish and places.
_FULL_VIEW_FINISHES = frozenset({Game.Mode.DAILY, Game.Mode.RACE})
FIELDS = frozenset(MoveInput().fields)
# (name, low, high, may be null) of each field, from the serializer the full view validates with.
_BOUNDS = tuple((name, *fastpath.integer_bounds(MoveInput, name),
                 MoveInput().fields[name].allow_null) for name in ("row", "col", "move"))

_FIND_SQL = fastpath.token_find_sql(
    columns=f", {services.GAME_COLUMNS_SQL}",
    joins=(f'LEFT JOIN "{Game._meta.db_table}" g ON g."id" = %s AND g."player_id" = t."player_id" '
           f'LEFT JOIN "{Deal._meta.db_table}" d ON d."id" = g."deal_id" '
           f'LEFT JOIN "{Daily._meta.db_table}" dl ON dl."date" = g."daily_id" '),
)


def move_response(request, game_id, *, scope: str) -> HttpResponse | None:
    """The response to a move request this path can answer, or None to hand it over."""
    if connection.vendor != "postgresql" or not settings.FOURSQUARE_FAST_MOVES:
        return None
    plain = fastpath.plain_request(request)
    if plain is None:
        return None
    values = _move_input(plain.body)
    if values is None:
        return None

    row = _find(plain.token, game_id, plain.key)
    if row is None:
        return None  # unknown token: the full view says 401
    token_id, player_id, last_used_at, active, stored_hash, stored_status, stored_body = row[:7]
    if not fastpath.token_admitted(request, scope=scope, token_id=token_id,
                                   player_id=player_id, last_used_at=last_used_at,
                                   active=active):
        return None

    if row[7] is None:
        return None  # not this player's game: the full view says 404
    request_hash = idempotency.fingerprint(request, values)
    if stored_status is not None:  # None: the key was used for another request (422)
        return fastpath.stored_answer(stored_hash, stored_status, stored_body, request_hash,
                                      allow=ALLOW)

    game = services.game_from_row(row[7:])
    played = game.moves_played
    try:
        engine, card = services.move_apply(game=game, row=values["row"], col=values["col"],
                                           expected_move=values.get("move"))
    except Problem:
        return None  # over, stale or illegal: the full view says which
    if game.is_over and game.mode in _FULL_VIEW_FINISHES:
        return None  # the full view records the result (boards, race) in the same transaction
    content = fastpath.RENDERER.render(game_output(game, engine))
    answer = (player_id, plain.key, request_hash, content.decode()) if plain.key else None
    if not _store(game, played, card, values, answer):
        return None  # someone moved meanwhile: the full view waits for them and answers
    metrics.moves_stored_fast.inc()
    if game.mode == Game.Mode.RACE:
        live.progress_published(game, engine)  # the statement committed: told at once
    return fastpath.json_response(200, content, allow=ALLOW)


def _find(token: str, game_id, key: str | None):
    """The token's row, with the player's game and the answer stored for the key (if any)."""
    return services.execute_prepared(_FIND_SQL, [key, game_id, hash_token(token)])


def _store(game: Game, played: int, card, values: dict, answer: tuple | None) -> bool:
    """Store the move, the game's new state and (with a key) the answer, if the game still
    has ``played`` moves. False if it has not, or the key was stored meanwhile."""
    return fastpath.store_guarded(lambda: services.move_store(
        game=game, played=played, card=card, row=values["row"], col=values["col"],
        answer=answer))


def _move_input(values) -> dict | None:
    """The body if it is a valid move (the full view's rules), else None."""
    if type(values) is not dict or not values.keys() <= FIELDS:
        return None
    for name, low, high, nullable in _BOUNDS:
        value = values.get(name)
        if value is None and nullable:
            continue
        if (type(value) is not int or (low is not None and value < low)
                or (high is not None and value > high)):
            return None
    return values
