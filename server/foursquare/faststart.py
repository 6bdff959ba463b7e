"""``POST /games`` with ``{"mode": "practice"}`` in two statements: the request every player
sends after each game to deal the next one.

The full view (``GameListCreateView.post``, through DRF) defines what starting a game does and
answers every error and every other mode. This path answers only a fresh practice deal for a
plain request, or the replay of one already answered under the same ``Idempotency-Key``. For
anything else it returns None and the view answers exactly as it always does
(``server.api.fastpath``, which the moves' and the actions' fast paths share).

What it saves: DRF's request wrapping, negotiation, serializer validation and rendering, and
five of the seven round trips to PostgreSQL (the token, the transaction's BEGIN and COMMIT, the
key's look-up, and one insert per table). One statement finds the token, its player and any
stored answer for the key; one inserts the deal, the game and the answer together, so a key
stored meanwhile by a racing request refuses the whole statement and leaves no game behind.
"""

from __future__ import annotations

import json
import secrets

from django.conf import settings
from django.db import connection
from django.http import HttpResponse

from foursquare import deal
from server.api import fastpath, idempotency
from server.api.headers import LOCATION, absolute_url
from server.api.models import IdempotencyRecord
from server.core.sql import execute_prepared, insert_sql, insert_values
from server.foursquare.engine import game_output
from server.foursquare.models import Deal, Game
from server.players.tokens import hash_token

ALLOW = "GET, POST, HEAD, OPTIONS"
CREATED = 201
_PRACTICE = {"mode": Game.Mode.PRACTICE.value}

_FIND_SQL = fastpath.token_find_sql()
# Data-modifying WITH parts all run, each to completion, whether or not the query reads them;
# the game's reference to its deal is checked at the statement's end, when both exist.
_START_SQL = (f"WITH dealt AS ({insert_sql(Deal)}), started AS ({insert_sql(Game)}) ")
_START_ANSWER_SQL = f", remembered AS ({insert_sql(IdempotencyRecord)}) "


def start_response(request, _object_id: None, *, scope: str) -> HttpResponse | None:
    """The response to a request for a fresh practice deal, or None to hand it over."""
    if connection.vendor != "postgresql" or not settings.FOURSQUARE_FAST_STARTS:
        return None
    plain = fastpath.plain_request(request)
    if plain is None or plain.body != _PRACTICE:
        return None  # another mode, a shared deal or a date: the full view's
    found = execute_prepared(_FIND_SQL, [plain.key, hash_token(plain.token)])
    if found is None:
        return None  # unknown token: the full view says 401
    token_id, player_id, last_used_at, active, stored_hash, stored_status, stored_body = found
    if not fastpath.token_admitted(request, scope=scope, token_id=token_id,
                                   player_id=player_id, last_used_at=last_used_at,
                                   active=active):
        return None
    request_hash = idempotency.fingerprint(request, plain.body)
    if stored_status is not None:  # None: the key was used for another request (422)
        replayed = fastpath.stored_answer(stored_hash, stored_status, stored_body,
                                          request_hash, allow=ALLOW)
        if replayed is None or stored_status != CREATED:
            return replayed
        return _located(request, replayed, json.loads(stored_body)["id"])

    deal_row = Deal.from_deck(deal(secrets.token_bytes(32)))  # as the full view deals it
    game = Game(player_id=player_id, mode=Game.Mode.PRACTICE, deal=deal_row)
    parameters = insert_values(deal_row) + insert_values(game)
    content = fastpath.RENDERER.render(game_output(game))
    sql = _START_SQL
    if plain.key is not None:
        record = IdempotencyRecord(player_id=player_id, key=plain.key,
                                   request_hash=request_hash, response_status=CREATED,
                                   response_body=content.decode())
        parameters += insert_values(record)
        sql += _START_ANSWER_SQL
    if not fastpath.store_guarded(lambda: execute_prepared(sql + "SELECT 1", parameters)):
        return None  # the key was stored meanwhile: the full view replays its answer
    return _located(request, fastpath.json_response(CREATED, content, allow=ALLOW),
                    str(game.pk))


def _located(request, response: HttpResponse, game_id: str) -> HttpResponse:
    """The full view's answer to a game it created: with the new game's address."""
    response[LOCATION] = absolute_url(request, "api:game", game_id=game_id)
    return response
