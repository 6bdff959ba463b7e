"""``POST /spite-malice/matches/{id}/actions`` in two statements, for the request a match is
made of.

The full view (``ActionCreateView.post``, through DRF) defines what an action request does
and answers every error. This path answers only the requests that succeed and change no more
than the current game: an action (and the bot's reply to it, when that is quick), or the
replay of one already answered under the same ``Idempotency-Key``. For anything else it
returns None and the caller hands the request to the full view, which answers exactly as it
always does: an error of any kind, a game or match that ends (a new game is dealt, the match
is rated or recorded on the boards), a deadline passed, a bot turn that needs the background.
Nothing is written before this path's single final statement, so handing over is always safe.

Both paths run the same code between reading and writing (``services.action_apply`` and
``services.advance``) and build the answer with the same ``shapes.match_output``; what this
path saves is DRF, the ORM, all but two round trips to PostgreSQL (``statements``) and all but
one to Redis (the rate limit, the presence the answer shows and the latest event number the
sockets compare, in one script: ``server.api.throttling.verdict_with``). The rate limit is
asked once the action is known to succeed, so its one round trip also sets the new latest
number; a request over the limit is handed over, and written nothing, as any other.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpResponse

from server.api import fastpath, idempotency
from server.api.idempotency import SettleFirst
from server.api.problems import Problem
from server.players.models import Player
from server.spitemalice import metrics, notify, services, statements
from server.spitemalice.engine import actions_decoded, position_stored
from server.spitemalice.live import presence
from server.spitemalice.live.publish import events_stored, latest_entry
from server.spitemalice.models import Match, MatchGame
from server.spitemalice.serializers.inputs import PART_PATTERN, ActionInput
from server.spitemalice.shapes import match_output
from server.streams.services import event_output, notice_of

ALLOW = "POST, OPTIONS"
FIELDS = frozenset(ActionInput().fields)
_PART = re.compile(PART_PATTERN)  # fullmatch: no trailing newline, which ``$`` would allow
# (name, low, high) of the optional counts, from the serializer the full view validates with.
_BOUNDS = tuple((name, *fastpath.integer_bounds(ActionInput, name))
                for name in ("game", "actions"))


def action_response(request, match_id, *, scope: str) -> HttpResponse | None:
    """The response to an action request this path can answer, or None to hand it over."""
    if connection.vendor != "postgresql" or not settings.SPITE_MALICE_FAST_ACTIONS:
        return None
    plain = fastpath.plain_request(request)
    if plain is None:
        return None
    values = _action_input(plain.body)
    if values is None:
        return None

    found = statements.action_find(plain.token, match_id, plain.key)
    if found is None:
        return None  # unknown token: the full view says 401
    if not fastpath.token_usable(last_used_at=found.last_used_at, active=found.active):
        return None
    if found.match_values[0] is None:
        return None  # not a match of theirs: the full view says 404 (or, invited, 409)
    request_hash = idempotency.fingerprint(request, values)
    if found.stored is not None:  # None: the key was used for another request (422)
        stored_hash, stored_status, stored_body = found.stored
        return fastpath.stored_answer(stored_hash, stored_status, stored_body, request_hash,
                                      allow=ALLOW)

    match, game = _match_from(found)
    if game is None or match.status != Match.Status.PLAYING:
        return None
    read_actions, read_text = game.actions, statements.actions_text_of(found)
    read_event, read_deadline = match.event, match.deadline
    # Found with a seat of the match: its player is in hand, loaded with the match.
    player = match.player0 if match.player0_id == found.player_id else match.player1
    if player is None:
        return None  # not seated after all: the full view says which problem
    try:
        engine, log = services.action_apply(
            match=match, game=game, player=player, action=values["action"],
            expected_game=values.get("game"), expected_actions=values.get("actions"))
        new_games: list[MatchGame] = []
        current = services.advance(match=match, game=game, engine=engine, log=log,
                                   new_games=new_games, background=False)
    except (Problem, SettleFirst, services.TurnOutlastsRequest):
        return None  # refused, overdue or a long bot turn: the full view says or does which
    if new_games or match.status != Match.Status.PLAYING:
        return None  # the full view deals the next game, rates or records the match
    # The opponent's turn began (between people): their account stream is told, in the write.
    drafts = notify.drafts_of(match, log, ratings=found.ratings)
    if len(drafts) > 1 or (drafts and drafts[0].kind != "your_turn"):
        return None  # anything more is the full path's
    account = drafts[0] if drafts else None
    # One round trip to the cache for all this action needs of it: the rate limit, the seats'
    # presence for the answer and the latest event number for the sockets' checks.
    slots = presence.slot_keys(match.pk)
    admitted, taken = fastpath.within_limits(
        request, scope=scope, token_id=found.token_id, player_id=found.player_id,
        reads=list(slots),
        writes=[latest_entry(match.pk, log.events[-1].number)] if log.events else [],
        exempt=services.action_unlimited(match))
    if not admitted:
        return None  # the full view says 429, from the verdict the request carries
    seat = match.seat_of(player)
    if seat is None:
        return None  # found with a seat of the match: the full view would say otherwise
    match.updated_at = log.now
    content = fastpath.RENDERER.render(match_output(
        match, seat, current, engine,
        # The origin makes only a waiting match's invitation URL; a match played has none.
        origin="",
        connected=presence.seats_from(slots, taken, match.bot_seat)))
    answer = ((found.player_id, plain.key, request_hash, content.decode())
              if plain.key is not None else None)
    written: list[tuple[bool, int | None]] = []
    texts = _appended(read_actions, read_text, game.actions)
    if texts is None:
        return None  # not the list read and more: the full view stores the game as it is
    appended_text, actions_text = texts

    def store() -> bool:
        written.append(statements.action_store(
            match=match, game=game, read_event=read_event, read_deadline=read_deadline,
            actions=log.actions, events=log.events, now=log.now, answer=answer,
            account=account, appended_text=appended_text))
        return written[-1][0]

    if not fastpath.store_guarded(store):
        return None  # the match moved on meanwhile: the full view waits for it and answers
    # The next action's read of the game finds this text: its list is in hand already.
    position_stored(game.seed, game.actions, actions_text)
    metrics.actions_stored_fast.inc()
    match_pk, events, number = match.pk, log.events, written[-1][1]
    also = (() if account is None else (notice_of(account.player_id, [event_output(
        number, account.kind, account.payload, log.now)]),))
    transaction.on_commit(lambda: events_stored(match_pk, events, latest_kept=True,
                                                also=also))
    return fastpath.json_response(200, content, allow=ALLOW)


def _action_input(values) -> dict | None:
    """The body if it is a valid action request (the full view's rules), else None."""
    if type(values) is not dict or not values.keys() <= FIELDS:
        return None
    action = values.get("action")
    if (type(action) is not list or len(action) != 2
            or not all(type(part) is str and _PART.fullmatch(part) for part in action)):
        return None
    for name, low, high in _BOUNDS:
        value = values.get(name)
        if value is not None and (type(value) is not int or (low is not None and value < low)
                                  or (high is not None and value > high)):
            return None
    return values


def _appended(read: list, read_text: str | None, actions: list) -> tuple[str, str] | None:
    """The JSON array of the actions played since the game was read (``read``, stored as
    ``read_text``), which the write appends, and the whole list's JSON as PostgreSQL prints it
    once they are appended (what the next action's read compares: ``position_stored``); None
    when ``actions`` is not ``read`` and more.

    Encoding only what is new keeps an action's cost from growing with its game: the whole
    list (300 actions: 49 µs) was encoded, sent and parsed again by every action. ``actions``
    continues ``read`` when it shares its last element (``services`` only ever appends, to a
    new list holding the same elements), and jsonb prints an array as ``json.dumps`` does."""
    count = len(read)
    if len(actions) < count or (count and actions[count - 1] is not read[count - 1]):
        return None
    appended = json.dumps(actions[count:])
    if read_text is None:
        return appended, json.dumps(actions)
    if not count:
        return appended, appended
    if len(actions) == count:
        return appended, read_text
    return appended, f"{read_text[:-1]}, {appended[1:]}"


def _match_from(found: statements.Found) -> tuple[Match, MatchGame | None]:
    """The match and its current game from the row, as ``services.match_lock`` returns them
    (its players and invitee in hand, with the names the answer shows and the bot flags the
    opponent's ``your_turn`` shows: no deferred field is read back)."""
    alias = connection.alias
    match = Match.from_db(alias, statements.MATCH_ATTNAMES, found.match_values)
    for field, name, bot in zip(("player0", "player1", "invitee"), found.names, found.bots,
                                strict=True):
        player_id = getattr(match, f"{field}_id")
        match._state.fields_cache[field] = (
            None if player_id is None else Player.from_db(alias, ["id", "name", "bot"],
                                                          [player_id, name, bot]))
    if found.game_values[0] is None:
        return match, None
    game = MatchGame.from_db(alias, statements.GAME_ATTNAMES, found.game_values)
    if isinstance(game.actions, str):  # jsonb arrives as text; the ORM would decode it
        game.actions = actions_decoded(game.seed, game.actions)
    game._state.fields_cache["match"] = match
    return match, game
