"""The action fast path answers exactly as the full view would, and hands over everything else.

Every other test of actions runs with the fast path on (the default), so each error they check
is also a check that the fast path handed that request over intact.
"""

from __future__ import annotations

import json
import os
import uuid
from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.utils import timezone

from server.api.models import IdempotencyRecord
from server.ratings.models import Rating
from server.ratings.selectors import rating_of
from server.spitemalice import fastaction, services, statements
from server.spitemalice.live import presence, publish
from server.spitemalice.models import Action, Event, Match, MatchGame
from server.streams.models import AccountEvent
from tests.server.conftest import assert_problem, headers_but_request_id
from tests.server.spitemalice.support import act, greedy, start, url

# PostgreSQL's alone (prepared statements, a conditional WITH ... INSERT); on SQLite every
# action takes the full view, which the rest of the suite runs there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


@pytest.fixture(autouse=True)
def bot_replies_in_the_request(settings):
    """The bot's whole turn is played in the request, however busy the machine: these tests
    compare answers, and a turn left to the background worker (over its 2 s of a request)
    would change which path answers. The test of a long bot turn sets its own budget."""
    settings.SPITE_MALICE_BOT_SECONDS = 60.0


# What differs between two matches on one deal, whichever path answered.
OWN_FIELDS = ("id", "deadline")


def same_position(source_id, target_id) -> None:
    """Make match ``target_id`` a copy of ``source_id`` as it stands: its seed (so its deal and
    the bot's randomness), its game's actions and its events."""
    source = Match.objects.get(pk=source_id)
    Match.objects.filter(pk=target_id).update(**{
        name: getattr(source, name)
        for name in ("seed", "turn", "event", "actions_played", "game_number", "bot_pending")})
    game = MatchGame.objects.get(match_id=source_id, number=source.game_number)
    MatchGame.objects.filter(match_id=target_id).update(
        seed=game.seed, actions=game.actions, turn_number=game.turn_number)
    for model, fields in ((Action, ("game", "number", "seat", "source", "target", "card",
                                    "played_at")),
                          (Event, ("number", "kind", "seat0", "seat1", "created_at"))):
        model.objects.filter(match_id=target_id).delete()
        model.objects.bulk_create(
            model(match_id=target_id, **{name: getattr(row, name) for name in fields})
            for row in model.objects.filter(match_id=source_id))


def play_out(apis: dict, match_id) -> list:
    """Play the match to its end, each seat greedily through its own client (``apis`` by
    seat), each action with a key; every response."""
    responses = []
    seat = Match.objects.get(pk=match_id).turn
    match = apis[seat].get(f"spite-malice/matches/{match_id}").json()
    while match["status"] == "playing":
        response = act(apis[match["game"]["turn"]], match, greedy(match["game"]),
                       HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
        assert response.status_code == 200, response.content
        responses.append(response)
        match = response.json()
        turn = match["game"]["turn"]
        if turn is not None and turn != match["you"]:  # the other person's turn: their view
            match = apis[turn].get(f"spite-malice/matches/{match_id}").json()
    return responses


def comparable(response) -> tuple:
    body = {key: value for key, value in response.json().items() if key not in OWN_FIELDS}
    return response.status_code, headers_but_request_id(response), body


def without_deadline(seen: dict) -> dict:
    """An event as a seat sees it, less the deadline a turn's table gives (it differs between
    two matches played one after the other)."""
    if "table" not in seen:
        return seen
    return {**seen, "table": {**seen["table"], "deadline": None}}


def stored(match_id) -> tuple[list, list]:
    return (list(Action.objects.filter(match_id=match_id).order_by("game", "number")
                 .values_list("game", "number", "seat", "source", "target", "card")),
            [(number, kind, without_deadline(seat0), without_deadline(seat1))
             for number, kind, seat0, seat1 in Event.objects.filter(match_id=match_id)
             .order_by("number").values_list("number", "kind", "seat0", "seat1")])


def both_ways(settings, start_match, apis_of) -> tuple[list, list, object]:
    """Start two matches on one deal; play the first on the fast path and the second with the
    fast path off, the same greedy actions; both paths' responses and the full view's spy."""
    fast_id, full_id = start_match(), start_match()
    same_position(fast_id, full_id)
    with mock.patch.object(services, "match_lock", wraps=services.match_lock) as full_view:
        fast = play_out(apis_of(fast_id), fast_id)
        handed_over = full_view.call_count
    settings.SPITE_MALICE_FAST_ACTIONS = False
    full = play_out(apis_of(full_id), full_id)
    assert [comparable(response) for response in fast] == [comparable(r) for r in full]
    assert stored(fast_id) == stored(full_id)
    return fast, full, handed_over


def test_a_whole_match_against_the_bot_gets_the_same_answers_on_both_paths(settings,
                                                                           make_player):
    _player, player_api = make_player()

    def start_match():
        return start(player_api, level="easy", target=1)["id"]

    fast, _full, handed_over = both_ways(settings, start_match, lambda _id: {0: player_api})
    assert fast[-1].json()["status"] == "finished"
    # The last action ends the match, which the full view records; every other action was
    # answered on the fast path.
    assert handed_over == 1
    assert len(fast) > 10


@pytest.mark.long
def test_a_whole_match_between_people_gets_the_same_answers_on_both_paths(settings,
                                                                          make_player):
    host, host_api = make_player("Host")
    guest, guest_api = make_player("Guest")

    def start_match():
        return services.match_start_friend(player=host, opponent=guest, target=1,
                                           turn_seconds=3600).pk

    fast, _full, handed_over = both_ways(settings, start_match,
                                         lambda _id: {0: host_api, 1: guest_api})
    assert fast[-1].json()["status"] == "finished"
    assert handed_over <= 3  # each token's first use, and the match's end
    assert {response.json()["you"] for response in fast} == {0, 1}


def test_an_action_takes_two_statements_and_no_orm_query(player_api,
                                                         django_assert_num_queries):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()  # the token's use written
    with (mock.patch.object(statements, "execute_prepared",
                            wraps=statements.execute_prepared) as statements_run,
          django_assert_num_queries(0)):
        response = act(player_api, match, greedy(match["game"]), HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 200, response.content
    assert statements_run.call_count == 2
    assert IdempotencyRecord.objects.filter(key="k-1").count() == 1
    assert Match.objects.get(pk=match["id"]).event == response.json()["event"]


def test_an_action_sends_the_game_only_what_it_played(player_api):
    """The write appends to the stored list the actions the request played (its own, and the
    bot's reply when it ends the turn), not the whole game's list again."""
    match = start(player_api, level="easy", target=50)
    for _ in range(4):  # some actions in: the stored list is longer than one request adds
        match = act(player_api, match, greedy(match["game"])).json()
    game = MatchGame.objects.get(match_id=match["id"], number=match["game"]["number"])
    before = list(game.actions)
    with mock.patch.object(statements, "action_store", wraps=statements.action_store) as store:
        response = act(player_api, match, greedy(match["game"]))
    assert response.status_code == 200, response.content
    assert store.call_count == 1  # the fast path's write
    appended = json.loads(store.call_args.kwargs["appended_text"])
    game.refresh_from_db()
    assert len(before) >= 4 and appended
    assert game.actions == before + appended
    assert response.json()["game"]["actions"] == len(game.actions)


@pytest.mark.parametrize(("read", "now", "expected"), [
    ([], [["H1", "C0"]], ('[["H1", "C0"]]', '[["H1", "C0"]]')),
    ([["H1", "C0"]], [["H1", "C0"], ["S2", "C1"]],
     ('[["S2", "C1"]]', '[["H1", "C0"], ["S2", "C1"]]')),
])
def test_the_appended_actions_and_the_whole_lists_text(read, now, expected):
    now = [*read, *now[len(read):]]  # the same elements: the services append to a new list
    assert fastaction._appended(read, json.dumps(read), now) == expected
    assert expected[1] == json.dumps(now)  # as PostgreSQL prints it (test_positions)


def test_a_list_that_does_not_continue_the_one_read_is_left_to_the_full_view():
    read = [["H1", "C0"], ["S2", "C1"]]
    text = json.dumps(read)
    assert fastaction._appended(read, text, [["H1", "C0"]]) is None  # shorter
    assert fastaction._appended(read, text, [["H1", "C0"], ["S2", "C1"], ["H3", "C2"]]) is None
    assert fastaction._appended(read, text, [*read, ["H3", "C2"]]) == (
        '[["H3", "C2"]]', '[["H1", "C0"], ["S2", "C1"], ["H3", "C2"]]')


def test_an_action_that_passes_the_turn_names_the_opponent_from_its_one_read(
        make_player, django_assert_num_queries):
    """The opponent's ``your_turn`` names the actor with their bot flag and their rating as
    ``rating_of`` shows it: read with the match by the fast path's first statement, not
    asked for again (one rated player, one unrated, and a held rating the board leaves out)."""
    host, host_api = make_player("Host")
    guest, guest_api = make_player("Guest")
    Rating.objects.create(game="spite-malice", player=host, rating=1612.4, deviation=87.5,
                          matches=9, provisional=False, updated_at=timezone.now())
    Rating.objects.create(game="spite-malice", player=guest, rating=1400.0, deviation=90.0,
                          matches=7, provisional=False, updated_at=timezone.now(), held=True)
    Rating.objects.create(game="foursquare", player=guest, rating=1700.0, deviation=60.0,
                          matches=20, provisional=False, updated_at=timezone.now())
    match_id = services.match_start_friend(player=host, opponent=guest, target=50,
                                           turn_seconds=3600).pk
    apis = {0: host_api, 1: guest_api}
    told = {}
    for _ in range(2):  # each token's first use is written by the full view
        seat = Match.objects.get(pk=match_id).turn
        match = apis[seat].get(f"spite-malice/matches/{match_id}").json()
        while match["game"]["turn"] == seat:
            match = act(apis[seat], match, greedy(match["game"])).json()
    for _ in range(2):  # one turn passed by each seat, on the fast path
        seat = Match.objects.get(pk=match_id).turn
        match = apis[seat].get(f"spite-malice/matches/{match_id}").json()
        while match["game"]["turn"] == seat:
            action = greedy(match["game"])
            # A discard ends the turn: that request is the one to watch.
            with (mock.patch.object(statements, "execute_prepared",
                                    wraps=statements.execute_prepared) as statements_run,
                  django_assert_num_queries(0)):
                response = act(apis[seat], match, action)
            assert response.status_code == 200, response.content
            assert statements_run.call_count == 2
            match = response.json()
        actor, opponent = (host, guest) if seat == 0 else (guest, host)
        told[seat] = AccountEvent.objects.filter(player=opponent, kind="your_turn").latest(
            "number").payload["opponent"]
        assert told[seat] == {"id": str(actor.pk), "name": actor.name, "bot": False,
                              "rating": rating_of(actor, "spite-malice")}
    assert told[0]["rating"] == {"rating": 1612, "deviation": 88, "matches": 9,
                                 "provisional": False}
    assert told[1]["rating"] is None  # held off the board; its Foursquare rating is not this


def test_the_events_an_action_stored_are_published_once(player_api):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    with mock.patch.object(fastaction, "events_stored") as published:
        response = act(player_api, match, greedy(match["game"]))
    assert response.status_code == 200
    (match_id, events), _ = published.call_args
    assert published.call_count == 1 and str(match_id) == match["id"]
    assert [event.number for event in events] == list(range(match["event"] + 1,
                                                            response.json()["event"] + 1))


def test_a_retry_gets_the_first_answer_byte_for_byte(player_api):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    action = greedy(match["game"])
    first = act(player_api, match, action, HTTP_IDEMPOTENCY_KEY="same")

    with mock.patch.object(services, "match_lock", wraps=services.match_lock) as full_view:
        retry = act(player_api, match, action, HTTP_IDEMPOTENCY_KEY="same")

    assert full_view.call_count == 0
    assert (retry.status_code, retry.content) == (first.status_code, first.content)
    assert Action.objects.filter(match_id=match["id"], seat=0).count() == 2
    # Another action under the same key (any other: the last legal one may be the one played).
    another = next(legal for legal in match["game"]["legal_actions"] if legal != action)
    other = act(player_api, match, another, HTTP_IDEMPOTENCY_KEY="same")
    assert_problem(other, 422, "idempotency_key_reused")


def test_an_action_that_lost_the_race_is_answered_by_the_full_view(player_api):
    """Between the fast path's read and its write the same action is played by another
    request: the write finds the match moved on, stores nothing, and the full view says 409."""
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    action = greedy(match["game"])
    real_store = statements.action_store

    def rival_first(**kwargs):
        from django.db import transaction

        with transaction.atomic():
            locked, game = services.match_lock(player=kwargs["match"].player0,
                                               match_id=kwargs["match"].pk)
            services.action_play(match=locked, game=game, player=locked.player0,
                                 action=action, expected_game=None, expected_actions=None)
        return real_store(**kwargs)

    with mock.patch.object(statements, "action_store", side_effect=rival_first):
        response = act(player_api, match, action, HTTP_IDEMPOTENCY_KEY="late")

    assert_problem(response, 409, "stale_action")
    numbers = list(Event.objects.filter(match_id=match["id"]).values_list("number", flat=True))
    assert numbers == sorted(set(numbers))  # nothing stored twice
    assert Action.objects.filter(match_id=match["id"], seat=0).count() == 2
    assert not IdempotencyRecord.objects.filter(key="late").exists()


def test_a_bot_turn_too_long_for_the_request_is_left_to_the_full_view(settings, player_api):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    settings.SPITE_MALICE_BOT_SECONDS = 0.0  # every bot turn over its budget
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    with mock.patch.object(services, "match_lock", wraps=services.match_lock) as full_view:
        response = act(player_api, match, discard)
    assert response.status_code == 200, response.content
    assert full_view.call_count == 1
    assert Match.objects.get(pk=match["id"]).bot_pending  # queued by the full view, once


def test_a_handed_over_request_is_counted_once_by_the_rate_limit(settings, player_api):
    match = start(player_api, target=50)
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "3/min"}
    for _ in range(3):  # each checked by the fast path, then refused by the full view
        assert_problem(act(player_api, match, greedy(match["game"]), actions=99), 409,
                       "stale_action")
    assert_problem(act(player_api, match, greedy(match["game"])), 429, "throttled")


@pytest.mark.parametrize("action", [["P\n", "C0"], [" P", "C0"], ["P", "C0", "x"], "P,C0"])
def test_an_action_the_fast_path_does_not_read_is_the_full_views(player_api, action):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    with mock.patch.object(statements, "action_find", wraps=statements.action_find) as read:
        response = act(player_api, match, action)
    assert read.call_count == 0
    # The full view answers it: " P" and "P\n" are trimmed to "P" there, so whether it is
    # played depends on the deal; the others are refused.
    assert response.status_code in (200, 400, 409, 422), response.content


def test_another_players_match_is_not_found_on_either_path(make_player):
    _owner, owner_api = make_player()
    _other, other_api = make_player()
    match = start(owner_api, target=50)
    other_api.get("spite-malice/matches")  # the other token's first use written
    response = other_api.post(url(match, "/actions"), {"action": greedy(match["game"])})
    assert_problem(response, 404, "not_found")


@pytest.fixture
def redis_cache(settings):
    """The shared cache on the real Redis, as in production (keys under a prefix of the
    test's own)."""
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": url, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    yield caches["default"]
    cache.clear()


def test_an_action_makes_one_round_trip_to_redis(redis_cache, player_api):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()  # the token's use written
    assert presence.arrive(match["id"], match["you"], "my-tab") == 0
    client = redis_cache._cache.get_client(write=True)
    with mock.patch.object(client, "execute_command", wraps=client.execute_command) as sent:
        response = act(player_api, match, greedy(match["game"]))
    assert response.status_code == 200, response.content
    assert [call.args[0] for call in sent.call_args_list] in (
        ["EVALSHA"], ["EVALSHA", "SCRIPT LOAD", "EVALSHA"])  # the script's first run loads it
    answer = response.json()
    assert [seat["connected"] for seat in answer["seats"]] == [True, True]  # my tab, the bot
    assert publish.latest_known(match["id"]) == answer["event"]


def test_an_action_over_the_limit_is_refused_and_keeps_nothing(settings, redis_cache,
                                                               player_api):
    match = start(player_api, target=50)
    match = act(player_api, match, greedy(match["game"])).json()
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "1/min"}
    cache.clear()  # the limit counts from here: the next action is the window's first
    publish.latest_remember(match["id"], match["event"])
    match = act(player_api, match, greedy(match["game"])).json()
    before = Match.objects.get(pk=match["id"])
    refused = act(player_api, match, greedy(match["game"]))
    assert_problem(refused, 429, "throttled")
    after = Match.objects.get(pk=match["id"])
    assert (after.event, after.actions_played) == (before.event, before.actions_played)
    assert publish.latest_known(match["id"]) == match["event"]
