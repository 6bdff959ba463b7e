"""Matches between two people through the API: inviting, joining, turns both ways, what each
seat may see, cancelling, expiry, direct invitations in a league, rematches and the limit."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.ratings.models import RatedMatch
from server.spitemalice import services, shapes
from server.spitemalice.invitations import CODE_ALPHABET
from server.spitemalice.models import FIRST_TURN_SECONDS, Event, Match, MatchGame
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import (
    MATCHES,
    aged,
    invite,
    join,
    kinds,
    pair,
    take_turn,
    whose_turn,
)
from tests.server.spitemalice.support import act, engine_of, greedy, start, url
from tests.server.spitemalice.test_matches import assert_shows_only_what_seat_sees

pytestmark = pytest.mark.sqlite


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def league_of(owner_api, *members) -> dict:
    league = owner_api.post("leagues", {"name": "Card table"}).json()
    for member in members:
        assert member.post("leagues/join", {"code": league["code"]}).status_code == 200
    return league


# --- Inviting ---------------------------------------------------------------------------------


def test_an_invitation_is_a_waiting_match_with_a_code_and_a_link(player_api):
    response = player_api.post(MATCHES, {"opponent": "friend", "turn_seconds": 3600,
                                         "target": 1})

    assert response.status_code == 201
    match = response.json()
    assert response["Location"].endswith(f"/api/v1/spite-malice/matches/{match['id']}")
    assert match["mode"] == "friend" and match["status"] == "waiting" and match["you"] == 0
    assert match["turn_seconds"] == 3600 and match["target"] == 1 and match["level"] is None
    assert match["deadline"] is None and match["game"] is None and match["event"] == 0
    assert match["seats"][1]["player"] is None and match["seats"][1]["bot"] is None
    assert [seat["connected"] for seat in match["seats"]] == [False, False]
    assert match["invitee"] is None and match["rematch"] is None and match["rematch_of"] is None
    code = match["invite"]["code"]
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert match["invite"]["url"] == f"http://testserver/spite-malice/join/{code}"
    created = Match.objects.get(pk=match["id"]).created_at
    assert parse(match["invite"]["expires_at"]) == created + timedelta(days=7)
    assert not MatchGame.objects.filter(match_id=match["id"]).exists()  # nothing dealt yet


def test_an_invitation_defaults_to_a_turn_a_day_and_the_rules_match(player_api):
    match = player_api.post(MATCHES, {"opponent": "friend"}).json()
    assert (match["turn_seconds"], match["target"]) == (86400, 50)


@pytest.mark.parametrize("body", [
    {"opponent": "friend", "turn_seconds": 30}, {"opponent": "friend", "turn_seconds": "60"},
    {"opponent": "friend", "turn_seconds": True}, {"opponent": "friend", "turn_seconds": 60.0},
    {"opponent": "friend", "target": 10}, {"opponent": "friend", "target": "1"},
    {"opponent": "friend", "invitee": "someone"}, {"opponent": "friend", "level": "easy"},
    {"opponent": "friend", "turn_seconds": None},
])
def test_a_malformed_invitation_is_invalid_and_creates_nothing(player_api, body):
    assert_problem(player_api.post(MATCHES, body), 400, "invalid")
    assert Match.objects.count() == 0


def test_retrying_an_invitation_with_its_key_creates_one_match(player_api):
    body = {"opponent": "friend", "turn_seconds": 60, "target": 1}
    first = player_api.post(MATCHES, body, HTTP_IDEMPOTENCY_KEY="invite-1")
    again = player_api.post(MATCHES, body, HTTP_IDEMPOTENCY_KEY="invite-1")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert Match.objects.count() == 1


# --- Joining ----------------------------------------------------------------------------------


def test_joining_seats_you_deals_the_first_game_and_starts_the_clock(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    match = invite(ada, turn_seconds=60, target=1)

    response = join(bob, match["invite"]["code"])

    assert response.status_code == 200
    joined = response.json()
    assert joined["id"] == match["id"] and joined["status"] == "playing" and joined["you"] == 1
    assert joined["seats"][1]["player"] == {"id": str(bob_player.pk), "name": "Bob", "bot": False}
    assert joined["invite"] is None and joined["game"]["number"] == 1
    assert len(joined["game"]["hand"]) == (5 if joined["game"]["turn"] == 1 else 0)
    stored = Match.objects.get(pk=match["id"])
    joined_at = Event.objects.get(match=stored, kind="joined").created_at
    assert stored.turn_started_at == joined_at > stored.created_at  # the first turn: at join
    # A seat's first turn gets at least FIRST_TURN_SECONDS, however short the clock.
    assert parse(joined["deadline"]) == stored.turn_started_at + timedelta(
        seconds=FIRST_TURN_SECONDS)
    assert kinds(ada, match)[:2] == ["joined", "dealt"]
    assert ada.get(url(match)).json()["status"] == "playing"


@pytest.mark.postgresql  # the round trips of the served database (SQLite's differ)
def test_an_invitation_and_a_join_make_only_the_savepoints_they_roll_back_to(make_player):
    """Each savepoint is two round trips. Inside the request's own transaction (a savepoint
    here, within the test's), an invitation makes one more, for the code it tries (a taken
    code rolls back that try alone); the fairness log's commitment, the limit's check and the
    join make none (a refusal rolls back the whole request)."""
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")

    def savepoints(queries) -> int:
        return sum(query["sql"].startswith("SAVEPOINT") for query in queries)

    with CaptureQueriesContext(connection) as inviting:
        match = invite(ada)
    with CaptureQueriesContext(connection) as joining:
        assert join(bob, match["invite"]["code"]).status_code == 200
    assert savepoints(inviting.captured_queries) == 2
    assert savepoints(joining.captured_queries) == 1
    # Refused inside the join: nothing of it stays (the seat, the deal, the events).
    _, cy = make_player("Cy")
    full = join(cy, match["invite"]["code"])
    assert_problem(full, 409, "match_full")
    stored = Match.objects.get(pk=match["id"])
    assert stored.player1.name == "Bob" and stored.game_number == 1


@pytest.mark.parametrize("spelling", [str.lower, lambda code: f" {code[:4]}-{code[4:]} ",
                                      lambda code: code.replace("0", "o").replace("1", "l")])
def test_codes_are_read_in_any_case_with_dashes_and_misread_letters(make_player, spelling):
    _, ada = make_player()
    _, bob = make_player()
    match = invite(ada)
    assert join(bob, spelling(match["invite"]["code"])).status_code == 200


def test_joining_refuses_unknown_own_and_full_matches(make_player):
    _, ada = make_player()
    _, bob = make_player()
    _, cy = make_player()
    match = invite(ada)
    code = match["invite"]["code"]

    assert_problem(join(bob, "ZZZZZZZZ" if code != "ZZZZZZZZ" else "YYYYYYYY"), 404,
                   "not_found")
    assert_problem(join(bob, "not a code"), 404, "not_found")
    assert_problem(join(bob, ""), 400, "invalid")
    assert_problem(join(bob, "x" * 33), 400, "invalid")
    assert_problem(join(ada, code), 409, "own_match")
    assert join(bob, code).status_code == 200
    assert_problem(join(cy, code), 409, "match_full")
    assert_problem(join(bob, code), 409, "match_full")
    assert Match.objects.get(pk=match["id"]).event == Event.objects.filter(
        match_id=match["id"]).count()


def test_joining_twice_with_one_key_answers_the_first_join(make_player):
    _, ada = make_player()
    _, bob = make_player()
    code = invite(ada)["invite"]["code"]
    first = bob.post(f"{MATCHES}/join", {"code": code}, HTTP_IDEMPOTENCY_KEY="join-1")
    again = bob.post(f"{MATCHES}/join", {"code": code}, HTTP_IDEMPOTENCY_KEY="join-1")
    assert first.status_code == again.status_code == 200
    assert first.json()["game"] == again.json()["game"]
    assert Event.objects.filter(kind="joined").count() == 1


# --- Playing ----------------------------------------------------------------------------------


@pytest.mark.long
def test_two_people_play_turns_both_ways_and_each_sees_only_their_own_seat(make_player):
    apis, views = pair(make_player, target=1)
    assert [views[seat]["you"] for seat in (0, 1)] == [0, 1]
    seen_turns = set()
    for _ in range(400):
        if views[0]["status"] == "finished":
            break
        seat = whose_turn(views)
        seen_turns.add(seat)
        other = 1 - seat
        assert views[other]["game"]["legal_actions"] == []
        refused = assert_problem(act(apis[other], views[other], greedy(views[seat]["game"])),
                                 409, "not_your_turn")
        # Whose turn it is and where the game stands, as the seat to act sees it.
        assert (refused["turn"], refused["game"], refused["actions"]) == (
            seat, views[seat]["game"]["number"], views[seat]["game"]["actions"])
        before = views[seat]["deadline"]
        views = take_turn(apis, views)
        engine = engine_of(views[0]["id"])
        for viewer in (0, 1):
            if views[viewer]["status"] == "playing":
                assert_shows_only_what_seat_sees(views[viewer]["game"], engine, viewer)
                assert views[viewer]["deadline"] >= before  # the next turn's clock
    assert seen_turns == {0, 1}
    assert views[0]["status"] == views[1]["status"] == "finished"
    assert views[0]["deadline"] is None

    for seat in (0, 1):
        events = apis[seat].get(url(views[seat], "/events")).json()["events"]
        assert events[-1]["kind"] == "match_over"
        for event in events:
            if event["kind"] == "draw":
                assert ("cards" in event) == (event["seat"] == seat)
        mine = json.dumps(events)
        assert Match.objects.get(pk=views[0]["id"]).seed not in mine


def test_a_turn_begins_with_what_its_seat_needs_to_act_in_its_draw_event(make_player):
    """The seat whose turn begins finds its table (game with legal actions, deadline,
    abortable, your_turn) in its copy of the draw that began the turn, equal to what a read of
    the match would give it; the other seat's copy holds none of it."""
    apis, views = pair(make_player, turn_seconds=3600, target=1)
    tables = 0
    while views[0]["status"] == "playing":
        seat = whose_turn(views)
        views = take_turn(apis, views)
        if views[0]["status"] != "playing":
            break
        other = 1 - seat
        feeds = {viewer: apis[viewer].get(url(views[viewer], "/events"),
                                          {"after": views[viewer]["event"] - 1}).json()
                 for viewer in (0, 1)}
        began = feeds[other]["events"][-1]
        assert began["kind"] == "draw" and began["seat"] == other
        read = views[other]  # read after the turn passed
        assert began["table"] == {"game": read["game"], "deadline": read["deadline"],
                                  "abortable": read["abortable"], "your_turn": True}
        assert read["your_turn"] is True
        assert began["table"]["game"]["legal_actions"]
        assert "table" not in feeds[seat]["events"][-1] and "cards" not in feeds[seat][
            "events"][-1]
        tables += 1
    assert tables >= 4


def test_against_the_bot_the_turn_that_comes_back_carries_its_table(player_api):
    match = start(player_api, target=50)
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    answer = act(player_api, match, discard).json()  # the bot replies, then it is ours again
    last = player_api.get(url(answer, "/events"), {"after": answer["event"] - 1}).json()
    (began,) = last["events"]
    assert began["kind"] == "draw" and began["seat"] == 0
    assert began["table"]["game"] == answer["game"]


def test_a_waiting_match_has_nothing_to_play_or_resign(make_player):
    _, ada = make_player()
    match = invite(ada)
    response = ada.post(url(match, "/actions"), {"action": ["P", "C0"]})
    assert_problem(response, 409, "match_not_started")
    assert_problem(ada.post(url(match, "/resign")), 409, "match_not_started")
    assert_problem(ada.get(url(match, "/hint")), 403, "hints_not_allowed")


def test_resigning_a_friend_match_gives_it_to_the_other_seat(make_player):
    apis, views = pair(make_player, first_turns=True)
    loser = 1 - whose_turn(views)  # resigning needs no turn

    response = apis[loser].post(url(views[0], "/resign"))

    assert response.status_code == 200
    for seat in (0, 1):
        over = apis[seat].get(url(views[0])).json()
        assert over["status"] == "finished" and over["reason"] == "resigned"
        assert over["winner"] == 1 - loser and over["deadline"] is None
    assert kinds(apis[0], views[0])[-3:] == ["resigned", "game_over", "match_over"]
    assert_problem(apis[1 - loser].post(url(views[0], "/resign")), 409, "game_over")


def test_other_players_matches_and_invitations_are_not_found(make_player):
    _apis, views = pair(make_player)
    _, cy = make_player()
    _, ada = make_player()
    waiting = invite(ada)
    for match in (views[0], waiting):
        for path in ("", "/events", "/hint", "/games/1/record"):
            assert_problem(cy.get(url(match, path)), 404, "not_found")
        for path in ("/resign", "/cancel", "/rematch"):
            assert_problem(cy.post(url(match, path)), 404, "not_found")
        assert_problem(cy.post(url(match, "/actions"), {"action": ["P", "C0"]}), 404,
                       "not_found")
    assert cy.get(MATCHES).json()["count"] == 0


# --- Cancelling and expiry --------------------------------------------------------------------


def test_the_creator_cancels_a_waiting_match_once(make_player):
    _, ada = make_player()
    _, bob = make_player()
    match = invite(ada)

    response = ada.post(url(match, "/cancel"))

    assert response.status_code == 200
    cancelled = response.json()
    assert cancelled["status"] == "cancelled" and cancelled["reason"] == "cancelled"
    assert cancelled["invite"] is None and cancelled["winner"] is None
    feed = ada.get(url(match, "/events")).json()
    assert [(e["kind"], e["reason"], e["by"]) for e in feed["events"]] == [
        ("cancelled", "cancelled", 0)]
    assert_problem(ada.post(url(match, "/cancel")), 409, "match_not_waiting")
    assert_problem(join(bob, match["invite"]["code"]), 404, "not_found")
    assert_problem(ada.post(url(match, "/cancel"), {"x": 1}), 400, "invalid")


def test_a_match_past_its_first_turns_cannot_be_cancelled(make_player):
    apis, views = pair(make_player, first_turns=True)
    for seat in (0, 1):
        assert_problem(apis[seat].post(url(views[0], "/cancel")), 409, "match_not_waiting")


def test_an_invitation_nobody_joined_expires_after_seven_days(make_player):
    _, ada = make_player()
    _, bob = make_player()
    match = invite(ada)
    aged(match["id"], days=6)
    assert ada.get(url(match)).json()["status"] == "waiting"
    aged(match["id"], days=7)

    assert_problem(join(bob, match["invite"]["code"]), 404, "not_found")

    stored = Match.objects.get(pk=match["id"])  # the refused join marked it so
    assert (stored.status, stored.reason) == ("cancelled", "expired")
    expired = ada.get(url(match)).json()
    assert expired["status"] == "cancelled" and expired["reason"] == "expired"
    assert kinds(ada, match) == ["cancelled"]  # once, though read again
    assert ada.get(MATCHES).json()["results"][0]["reason"] == "expired"


@pytest.mark.parametrize("read", ["detail", "list", "events"])
def test_every_read_applies_an_invitations_expiry(player_api, read):
    match = invite(player_api)
    aged(match["id"])
    {"detail": lambda: player_api.get(url(match)), "list": lambda: player_api.get(MATCHES),
     "events": lambda: player_api.get(url(match, "/events"))}[read]()
    stored = Match.objects.get(pk=match["id"])
    assert (stored.status, stored.reason) == ("cancelled", "expired")
    assert list(Event.objects.filter(match=stored).values_list("kind", flat=True)) == [
        "cancelled"]


def test_cancelling_an_expired_invitation_finds_it_expired(player_api):
    match = invite(player_api)
    aged(match["id"])
    assert_problem(player_api.post(url(match, "/cancel")), 409, "match_not_waiting")
    assert Match.objects.get(pk=match["id"]).reason == "expired"


# --- A league mate invited directly -----------------------------------------------------------


def test_a_league_mate_is_invited_directly_and_only_they_may_join(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    _, cy = make_player("Cy")
    league_of(ada, bob, cy)

    match = invite(ada, invitee=str(bob_player.pk))

    assert match["invitee"] == {"id": str(bob_player.pk), "name": "Bob", "bot": False}
    listed = bob.get(MATCHES).json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == match["id"]
    theirs = listed["results"][0]
    assert theirs["status"] == "waiting" and theirs["you"] == 1
    assert theirs["invite"]["code"] == match["invite"]["code"]
    assert bob.get(url(match)).status_code == 200
    assert_problem(join(cy, match["invite"]["code"]), 404, "not_found")
    joined = join(bob, match["invite"]["code"])
    assert joined.status_code == 200 and joined.json()["you"] == 1


def test_an_invitation_to_you_is_listed_before_your_other_matches(make_player):
    _, ada = make_player()
    bob_player, bob = make_player()
    league_of(ada, bob)
    invite(bob)  # Bob's own, waiting for somebody: nothing for Bob to do
    match = invite(ada, invitee=str(bob_player.pk))
    assert bob.get(MATCHES).json()["results"][0]["id"] == match["id"]


def test_the_invitee_may_decline(make_player):
    _, ada = make_player()
    bob_player, bob = make_player()
    league_of(ada, bob)
    match = invite(ada, invitee=str(bob_player.pk))

    response = bob.post(url(match, "/cancel"))

    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert ada.get(url(match)).json()["reason"] == "declined"  # the inviter is told so
    event = ada.get(url(match, "/events")).json()["events"][0]
    assert (event["kind"], event["reason"], event["by"]) == ("cancelled", "declined", 1)
    for refused in (bob.get(f"spite-malice/invitations/{match['invite']['code']}"),
                    join(bob, match["invite"]["code"])):
        assert_problem(refused, 404, "not_found")
        assert refused.json()["reason"] == "declined"


def test_a_cancelled_invitation_says_so_to_whoever_opens_it(make_player):
    _, ada = make_player()
    _, bob = make_player()
    match = invite(ada)
    ada.post(url(match, "/cancel"))
    for refused in (bob.get(f"spite-malice/invitations/{match['invite']['code']}"),
                    join(bob, match["invite"]["code"])):
        assert_problem(refused, 404, "not_found")
        assert refused.json()["reason"] == "cancelled"
    unknown = bob.get("spite-malice/invitations/ZZZZZZZZ")
    assert_problem(unknown, 404, "not_found")
    assert "reason" not in unknown.json()


def test_only_a_league_mate_may_be_invited_directly(make_player):
    ada_player, ada = make_player()
    stranger, _ = make_player()
    for invitee in (stranger.pk, ada_player.pk, "00000000-0000-4000-8000-000000000000"):
        response = ada.post(MATCHES, {"opponent": "friend", "invitee": str(invitee)})
        assert_problem(response, 422, "not_a_league_mate")
    assert Match.objects.count() == 0


# --- Rematches --------------------------------------------------------------------------------


def test_a_rematch_invites_the_opponent_with_the_same_settings(make_player):
    apis, views = pair(make_player, turn_seconds=3600, target=25, first_turns=True)
    old = views[0]
    assert apis[0].post(url(old, "/resign")).status_code == 200

    response = apis[1].post(url(old, "/rematch"))

    assert response.status_code == 201
    rematch = response.json()
    assert response["Location"].endswith(f"/api/v1/spite-malice/matches/{rematch['id']}")
    assert rematch["status"] == "waiting" and rematch["rematch_of"] == old["id"]
    assert (rematch["turn_seconds"], rematch["target"]) == (3600, 25)
    assert rematch["seats"][0]["player"] == old["seats"][1]["player"]  # who asked
    assert rematch["invitee"] == old["seats"][0]["player"]
    for seat in (0, 1):
        after = apis[seat].get(url(old)).json()
        assert (after["rematch"], after["rematch_status"]) == (rematch["id"], "waiting")
    assert apis[0].get(MATCHES).json()["results"][0]["id"] == rematch["id"]
    assert_problem(apis[0].post(url(old, "/rematch")), 409, "rematch_unavailable")
    joined = join(apis[0], rematch["invite"]["code"])
    assert joined.status_code == 200 and joined.json()["you"] == 1


def test_a_declined_rematch_is_said_so_on_the_finished_match(make_player):
    apis, views = pair(make_player, first_turns=True)
    old = views[0]
    assert apis[0].post(url(old, "/resign")).status_code == 200
    rematch = apis[1].post(url(old, "/rematch")).json()
    assert apis[0].post(url(rematch, "/cancel")).status_code == 200  # the invitee says no
    for seat in (0, 1):
        assert apis[seat].get(url(old)).json()["rematch_status"] == "declined"
    assert apis[1].get(url(rematch)).json()["reason"] == "declined"


def test_no_rematch_of_a_match_being_played_or_against_the_bot(make_player):
    apis, views = pair(make_player)
    assert_problem(apis[0].post(url(views[0], "/rematch")), 409, "rematch_unavailable")
    bot = apis[0].post(MATCHES, {"opponent": "bot", "level": "easy"}).json()
    apis[0].post(url(bot, "/resign"))
    assert_problem(apis[0].post(url(bot, "/rematch")), 409, "rematch_unavailable")
    waiting = invite(apis[0])
    assert_problem(apis[0].post(url(waiting, "/rematch")), 409, "rematch_unavailable")
    assert_problem(apis[0].post(url(waiting, "/rematch"), {"x": 1}), 400, "invalid")


# --- The limit --------------------------------------------------------------------------------


def test_a_player_has_at_most_the_documented_number_of_active_matches(make_player,
                                                                       monkeypatch):
    monkeypatch.setattr(services, "ACTIVE_MATCHES", 3)
    _, ada = make_player()
    _, bob = make_player()
    waiting = invite(ada)
    ada.post(MATCHES, {"opponent": "bot", "level": "easy"})
    others = invite(bob)
    assert join(ada, others["invite"]["code"]).status_code == 200  # Ada's third

    assert_problem(ada.post(MATCHES, {"opponent": "friend"}), 409, "too_many_matches")
    assert_problem(ada.post(MATCHES, {"opponent": "bot", "level": "easy"}), 409,
                   "too_many_matches")
    assert_problem(join(ada, invite(make_player()[1])["invite"]["code"]), 409,
                   "too_many_matches")
    assert ada.post(MATCHES, {"mode": "daily"}).status_code == 201  # dailies never count

    assert ada.post(url(waiting, "/cancel")).status_code == 200  # a place is free again
    assert ada.post(MATCHES, {"opponent": "friend"}).status_code == 201


# --- Hooks: live publishing, presence, ratings ------------------------------------------------


def test_stored_events_are_published_once_committed(make_player, monkeypatch,
                                                    django_capture_on_commit_callbacks):
    published = []
    monkeypatch.setattr(services, "events_stored",
                        lambda match_id, events, **_: published.append(
                            (str(match_id), [event.number for event in events])))
    _, ada = make_player()
    _, bob = make_player()
    match = invite(ada)
    assert published == []  # a waiting match has no events yet
    with django_capture_on_commit_callbacks(execute=True):
        joined = join(bob, match["invite"]["code"]).json()
    # Every event the join stored, in order, up to the one the answer names.
    assert published == [(match["id"], list(range(1, joined["event"] + 1)))]


def test_seats_show_who_is_connected_and_the_bot_always_is(make_player, monkeypatch):
    monkeypatch.setattr(shapes, "seats_connected", lambda match_id: [False, True])
    apis, views = pair(make_player)
    assert [s["connected"] for s in apis[0].get(url(views[0])).json()["seats"]] == [False, True]
    bot = apis[0].post(MATCHES, {"opponent": "bot", "level": "easy"}).json()
    monkeypatch.setattr(shapes, "seats_connected", lambda match_id: [True, False])
    assert [s["connected"] for s in apis[0].get(url(bot)).json()["seats"]] == [True, True]


def test_a_finished_friend_match_is_rated_once_and_a_bot_match_never(make_trusted_player):
    apis, views = pair(make_trusted_player, first_turns=True)
    apis[0].post(url(views[0], "/resign"))
    apis[0].post(url(views[0], "/resign"))
    bot = apis[0].post(MATCHES, {"opponent": "bot", "level": "easy"}).json()
    apis[0].post(url(bot, "/resign"))
    rated = list(RatedMatch.objects.values_list("match_id", "score_a"))
    assert [(str(match_id), score) for match_id, score in rated] == [(views[0]["id"], 0.0)]
