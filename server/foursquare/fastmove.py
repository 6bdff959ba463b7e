"""``POST /games/{id}/moves`` in two statements, for the request every player sends forty
times a game.

The full view (``MoveCreateView.post``, through DRF) defines what a move request does and
answers every error. This path answers only the requests that succeed: an ordinary move, or
the replay of one already answered under the same ``Idempotency-Key``. For anything else it
returns None, and the caller hands the request to the full view, which answers exactly as it
always does. Nothing is written before this path's single final statement, so handing over
is always safe, and the throttle's verdict, reached here once, travels with the request.

What it saves: DRF's request wrapping, negotiation, serializer validation and rendering, and
five of the seven round trips to PostgreSQL. One statement finds the token, its player, the
game, its deal and daily, and any stored answer for the key; one statement stores the move,
the game's new state and the answer, on condition that nobody moved in between (the move
count is unchanged), which takes the place of the full view's row lock.
"""

from __future__ import annotations

import json
from contextlib import nullcontext

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

from server.api import idempotency, parsers, throttling
from server.api.models import IdempotencyRecord
from server.api.problems import Problem
from server.foursquare import services
from server.foursquare.engine import game_output
from server.foursquare.models import Daily, Deal, Game
from server.players.models import AccessToken, Player
from server.players.tokens import hash_token, last_use_due

FIELDS = frozenset({"row", "col", "move"})
_ACCEPTED = frozenset({None, "*/*", "application/json"})
_CONTENT_TYPES = frozenset({"application/json", "application/json; charset=utf-8",
                            "application/json;charset=utf-8"})

_FIND_SQL = (
    f'SELECT t."id", t."player_id", t."last_used_at", p."is_active", '
    f'r."request_hash", r."response_status", r."response_body", {services.GAME_COLUMNS_SQL} '
    f'FROM "{AccessToken._meta.db_table}" t '
    f'JOIN "{Player._meta.db_table}" p ON p."id" = t."player_id" '
    f'LEFT JOIN "{IdempotencyRecord._meta.db_table}" r '
    'ON r."player_id" = t."player_id" AND r."key" = %s '
    f'LEFT JOIN "{Game._meta.db_table}" g ON g."id" = %s AND g."player_id" = t."player_id" '
    f'LEFT JOIN "{Deal._meta.db_table}" d ON d."id" = g."deal_id" '
    f'LEFT JOIN "{Daily._meta.db_table}" dl ON dl."date" = g."daily_id" '
    'WHERE t."key_hash" = %s'
)
_renderer = JSONRenderer()


def move_response(request, game_id, *, scope: str) -> HttpResponse | None:
    """The response to a move request this path can answer, or None to hand it over."""
    if connection.vendor != "postgresql" or not settings.FOURSQUARE_FAST_MOVES:
        return None
    meta = request.META
    if (meta.get("QUERY_STRING") or meta.get("HTTP_ACCEPT") not in _ACCEPTED
            or meta.get("CONTENT_TYPE", "").lower() not in _CONTENT_TYPES
            or meta.get("HTTP_CONTENT_ENCODING")):  # the full view says 415
        return None
    token = _bearer_token(meta.get("HTTP_AUTHORIZATION", ""))
    key = meta.get("HTTP_IDEMPOTENCY_KEY")
    values = _move_input(request)
    if token is None or values is None or (key is not None and not idempotency.valid_key(key)):
        return None

    row = _find(token, game_id, key)
    if row is None:
        return None  # unknown token: the full view says 401
    token_id, player_id, last_used_at, active, stored_hash, stored_status, stored_body = row[:7]
    if not active or last_use_due(last_used_at):
        return None

    retry_after = throttling.verdict(scope=scope, token_id=str(token_id),
                                     address=throttling.client_address(request))
    setattr(request, throttling.VERDICT_ATTRIBUTE, retry_after)
    if retry_after is not None:
        return None

    if row[7] is None:
        return None  # not this player's game: the full view says 404
    request_hash = idempotency.fingerprint(request, values)
    if stored_status is not None:
        if stored_hash != request_hash:
            return None  # the key was used for another request: the full view says 422
        return _json_response(stored_status, _renderer.render(json.loads(stored_body)))

    game = services.game_from_row(row[7:])
    played = game.moves_played
    try:
        engine, card = services.move_apply(game=game, row=values["row"], col=values["col"],
                                           expected_move=values.get("move"))
    except Problem:
        return None  # over, stale or illegal: the full view says which
    if game.is_over and game.mode == Game.Mode.DAILY:
        return None  # the full view records the result on the boards in the same transaction
    content = _renderer.render(game_output(game, engine))
    if not _store(game, played, card, values, player_id, key, request_hash, content):
        return None  # someone moved meanwhile: the full view waits for them and answers
    return _json_response(200, content)


def _find(token: str, game_id, key: str | None):
    """The token's row, with the player's game and the answer stored for the key (if any)."""
    return services.execute_prepared(_FIND_SQL, [key, game_id, hash_token(token)])


def _bearer_token(header: str) -> str | None:
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or " " in token or not token.isascii():
        return None
    return token


def _move_input(request) -> dict | None:
    """The body if it is a valid move (the full view's rules), else None."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        return None
    try:
        values = parsers.loads(request.body.decode("utf-8"))  # the full view's reading of JSON
    except (ValueError, RecursionError):  # ValueError covers UnicodeDecodeError
        return None
    if type(values) is not dict or not values.keys() <= FIELDS:
        return None
    for name, low, high in (("row", -1000, 1000), ("col", -1000, 1000), ("move", 0, 1000)):
        value = values.get(name)
        if value is None and name == "move":
            continue
        if type(value) is not int or not low <= value <= high:
            return None
    return values


def _store(game: Game, played: int, card, values: dict, player_id, key: str | None,
           request_hash: str, content: bytes) -> bool:
    """Store the move, the game's new state and (with a key) the answer, if the game still
    has ``played`` moves. False if it has not, or the key was stored meanwhile."""
    answer = (player_id, key, request_hash, content.decode()) if key is not None else None
    # Inside a transaction (a test's), a refused statement must not spoil the rest of it.
    guard = transaction.atomic() if connection.in_atomic_block else nullcontext()
    try:
        with guard:
            return services.move_store(game=game, played=played, card=card, row=values["row"],
                                       col=values["col"], answer=answer)
    except IntegrityError:
        return False


def _json_response(status: int, content: bytes) -> HttpResponse:
    """What DRF's ``Response(body, status)`` from the full view becomes, byte for byte:
    ``content`` is the body rendered by DRF's own JSON renderer."""
    response = HttpResponse(content, status=status, content_type="application/json")
    response["Allow"] = "POST, OPTIONS"
    return response
