"""The account events a player's matches store, read through ``GET /stream/events``: a match
started, your turn, invitations received, cancelled and declined, a join, a match over;
numbered 1, 2, 3, ... per player; nobody else's; each fitting its kind's schema."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client as DjangoClient
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from server.jobs.background import job_run_next
from server.ratings.models import Rating
from server.ratings.selectors import rating_of
from server.spitemalice.models import LEVELS, Match
from server.streams import serializers as stream_serializers
from server.streams.models import AccountEvent
from tests.server.api.openapi_json_schema import errors
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import invite, join, pair, take_turn, whose_turn
from tests.server.spitemalice.support import act, start, url

pytestmark = pytest.mark.django_db
EVENTS = "stream/events"
COMPONENTS = {"match_started": "MatchStartedEvent", "your_turn": "YourTurnEvent",
              "invitation_received": "InvitationReceivedEvent",
              "invitation_cancelled": "InvitationCancelledEvent",
              "invitation_declined": "InvitationDeclinedEvent", "joined": "JoinedEvent",
              "match_over": "MatchOverEvent"}


_document: dict = {}


def fits(event: dict) -> None:
    """``event`` fits its kind's component (closed: no member it does not declare) and the
    union, in the server's OpenAPI document (read once per module)."""
    if not _document:
        response = DjangoClient().get("/api/schema/", HTTP_ACCEPT="application/json")
        assert response.status_code == 200
        _document.update(response.json())
    assert errors(_document, COMPONENTS[event["kind"]], event) == [], event
    assert errors(_document, "AccountEvent", event, closed=False) == [], event


def events(api, after=0) -> list[dict]:
    response = api.get(EVENTS, {"after": after})
    assert response.status_code == 200, response.content
    body = response.json()
    numbers = [event["number"] for event in body["events"]]
    assert numbers == list(range(after + 1, after + 1 + len(numbers)))
    assert body["last"] == (numbers[-1] if numbers else after)
    for event in body["events"]:
        fits(event)
    return body["events"]


def person(player, *, bot=False, rating=None) -> dict:
    return {"id": str(player.pk), "name": player.name, "bot": bot, "rating": rating}


def league_of(owner_api, *members) -> None:
    league = owner_api.post("leagues", {"name": "Card table"}).json()
    for member in members:
        assert member.post("leagues/join", {"code": league["code"]}).status_code == 200


def test_a_join_tells_the_creator_and_each_discard_tells_the_other_seat(make_player):
    apis, views = pair(make_player)
    match_id = views[0]["id"]
    starter = whose_turn(views)
    first = {seat: events(apis[seat]) for seat in (0, 1)}
    # The creator hears of the join; both seats of the start; whoever starts is told it is
    # their turn unless the request was their own (the joiner's).
    assert [event["kind"] for event in first[0]] == (
        ["joined", "match_started", "your_turn"] if starter == 0
        else ["joined", "match_started"])
    assert first[0][0]["player"]["name"] == "Bob" and first[0][0]["match"] == match_id
    assert first[0][0]["player"]["bot"] is False and first[0][0]["player"]["rating"] is None
    assert [event["kind"] for event in first[1]] == ["match_started"]
    for seat in (0, 1):
        started = first[seat][-1 if seat else 1]
        assert started["kind"] == "match_started" and started["match"] == match_id
        assert started["game_name"] == "spite-malice" and started["game"] == 1
        assert started["seat"] == seat and started["mode"] == "friend"
        assert started["opponent"]["name"] == ("Bob", "Ada")[seat]
        assert started["level"] is None and started["turn_seconds"] == 86400
        assert started["your_turn"] is (starter == seat)
        assert started["deadline"] == views[seat]["deadline"]
        assert 0 < started["event"] <= views[seat]["event"]
    for _ in range(4):
        mover = whose_turn(views)
        before = len(events(apis[1 - mover]))
        views = take_turn(apis, views)
        told = events(apis[1 - mover], after=before)
        assert [event["kind"] for event in told] == ["your_turn"]
        turn = told[0]
        assert turn["game_name"] == "spite-malice" and turn["match"] == match_id
        assert turn["game"] == views[0]["game"]["number"]
        assert turn["deadline"] == views[0]["deadline"]
        assert turn["opponent"]["name"] == ("Ada", "Bob")[mover]
        # The match's event number and the seat's table: merged into the match the seat held,
        # they are the match as it reads it now (no read needed to play).
        mine = views[1 - mover]
        assert turn["event"] == mine["event"]
        assert {**mine, **turn["table"], "event": turn["event"]} == mine
        assert turn["table"]["your_turn"] is True and turn["table"]["game"]["legal_actions"]
    # The mover's own requests told the mover nothing.
    counts = {seat: AccountEvent.objects.filter(player__name=("Ada", "Bob")[seat]).count()
              for seat in (0, 1)}
    assert counts[0] + counts[1] == 1 + 2 + (starter == 0) + 4


def test_the_fast_and_the_full_path_store_the_same_your_turn(make_player, settings):
    stored = []
    for fast in (True, False):
        settings.SPITE_MALICE_FAST_ACTIONS = fast
        apis, views = pair(make_player, names=("Ada", "Bob") if fast else ("Cy", "Di"))
        seat = whose_turn(views)
        after = len(events(apis[1 - seat]))
        take_turn(apis, views)
        (event,) = events(apis[1 - seat], after=after)
        # Each its own deal: the table's shape is the same, not its cards.
        assert set(event["table"]) == {"game", "deadline", "abortable", "your_turn"}
        assert isinstance(event["event"], int)
        stored.append({key: value for key, value in event.items()
                       if key not in ("match", "created_at", "deadline", "opponent", "number",
                                      "event", "table")})
    assert stored[0] == stored[1]


def test_a_bot_reply_in_the_request_tells_nobody_and_a_background_one_does(
        player_api, settings):
    match = start(player_api, level="easy", target=50)
    assert match["game"]["turn"] == 0  # the bot's opening turn (if it started) was quick
    # The start is told (to the one person seated), as it is in a match between people.
    (started,) = events(player_api)
    assert started["kind"] == "match_started" and started["match"] == match["id"]
    assert started["mode"] == "bot" and started["level"] == "easy"
    assert started["opponent"] is None and started["seat"] == 0
    assert started["your_turn"] is True and started["event"] == match["event"]
    assert started["rated"] is False and started["deadline"] is None
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    match = act(player_api, match, discard).json()
    assert match["game"]["turn"] == 0  # the bot answered within the request
    assert events(player_api, after=1) == []  # and the answer showed it: nothing to tell
    settings.SPITE_MALICE_BOT_SECONDS = 0  # every bot turn is left to the worker
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    match = act(player_api, match, discard).json()
    assert match["game"]["turn"] == 1 and Match.objects.get(pk=match["id"]).bot_pending
    assert events(player_api, after=1) == []
    assert job_run_next() is not None
    (event,) = events(player_api, after=1)
    assert event["kind"] == "your_turn" and event["opponent"] is None
    assert event["match"] == match["id"]


def test_invitations_received_cancelled_and_declined(make_player):
    ada_player, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    _, eve = make_player("Eve")
    league_of(ada, bob)
    first = invite(ada, invitee=str(bob_player.pk))
    (received,) = events(bob)
    assert received["kind"] == "invitation_received" and received["match"] == first["id"]
    assert received["from"] == person(ada_player)
    assert received["target"] == 50 and received["rematch_of"] is None
    assert ada.post(url(first, "/cancel")).status_code == 200
    assert [e["kind"] for e in events(bob, after=1)] == ["invitation_cancelled"]
    assert events(bob, after=1)[0]["reason"] == "cancelled"

    second = invite(ada, invitee=str(bob_player.pk))
    assert bob.post(url(second, "/cancel")).status_code == 200
    (declined,) = events(ada)
    assert declined["kind"] == "invitation_declined" and declined["match"] == second["id"]
    assert declined["by"] == person(bob_player)
    assert [e["number"] for e in events(bob)] == [1, 2, 3]  # received, cancelled, received
    assert events(eve) == []  # nothing of anyone else's


def test_a_match_over_tells_both_people(make_player):
    apis, views = pair(make_player, first_turns=True)
    counts = {seat: len(events(apis[seat])) for seat in (0, 1)}
    assert apis[0].post(url(views[0], "/resign")).status_code == 200
    for seat in (0, 1):
        (over,) = events(apis[seat], after=counts[seat])
        assert over["kind"] == "match_over" and over["status"] == "finished"
        assert over["winner"] == 1 and over["reason"] == "resigned" and over["seat"] == seat


def test_an_open_invitation_joined_by_code_tells_its_creator(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    match = invite(ada)
    assert events(ada) == []
    assert join(bob, match["invite"]["code"]).status_code == 200
    assert [event["kind"] for event in events(ada)][:2] == ["joined", "match_started"]
    assert [event["kind"] for event in events(bob)] == ["match_started"]


def test_every_way_a_match_starts_tells_both_seats(make_player):
    """A challenge accepted, a seek taken, a daily: each seated person gets one
    ``match_started`` for the match, naming their own seat."""
    ada_player, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    league_of(ada, bob)

    def started(api, match_id) -> list[dict]:
        return [event for event in events(api)
                if event["kind"] == "match_started" and event["match"] == match_id]

    challenge = invite(ada, invitee=str(bob_player.pk))
    assert started(bob, challenge["id"]) == []
    assert bob.post(url(challenge, "/accept")).status_code == 200
    seek = ada.post("spite-malice/seeks", {"turn_seconds": 3600, "target": 1}).json()
    assert bob.post(f"spite-malice/seeks/{seek['id']}/accept").status_code == 200
    for match_id, turn_seconds in ((challenge["id"], 86400), (seek["id"], 3600)):
        for api, seat, other in ((ada, 0, bob_player), (bob, 1, ada_player)):
            (event,) = started(api, match_id)
            assert event["seat"] == seat and event["opponent"] == person(other)
            assert event["turn_seconds"] == turn_seconds
    daily = ada.post("spite-malice/matches", {"mode": "daily"})
    assert daily.status_code == 201, daily.content
    (event,) = started(ada, daily.json()["id"])
    assert event["mode"] == "daily" and event["opponent"] is None and event["level"]


def test_the_schema_enums_are_the_game_s_own():
    """The shared app names Spite & Malice's values it carries (it imports no game): they are
    the game's."""
    game_s = {
        "MATCH_REASONS": tuple(reason for reason in Match.Reason.values
                               if reason not in ("declined", "expired")),
        "MATCH_OVER_STATUSES": (Match.Status.FINISHED, Match.Status.ABORTED),
        "DECLINE_REASONS": tuple(Match.DeclineReason.values),
        "MODES": tuple(Match.Mode.values), "LEVELS": LEVELS}
    assert {name: getattr(stream_serializers, name) for name in game_s} == game_s


@pytest.mark.parametrize("query", [{"after": "-1"}, {"after": "x"}, {"after": ""},
                                   {"after": str(10**16)}, {"since": "1"}])
def test_bad_parameters_are_400_invalid(player_api, query):
    body = assert_problem(player_api.get(EVENTS, query), 400, "invalid")
    assert body["errors"]


def test_the_page_needs_a_token(client):
    assert_problem(client.get("/api/v1/" + EVENTS), 401, "not_authenticated")


@pytest.mark.django_db(transaction=True)  # the stream reads in a thread of its own
# Django warns when a WSGI handler is given an asynchronous body to read whole: none is.
@pytest.mark.filterwarnings("error:StreamingHttpResponse must consume:Warning")
def test_served_by_threads_the_stream_gives_what_is_stored_and_ends(make_player):
    """Under a WSGI server (here the test client) a stream must not hold the thread: it gives
    the events stored after ``after`` and ends (the ASGI server keeps it open)."""
    apis, views = pair(make_player)
    stored = events(apis[0])
    response = apis[0].get("stream", {"after": 0})
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in b"".join(response).split(b"\n") if line]
    # First the snapshot: the one match being played, unnumbered, as its start told it.
    (snapshot,), sent = lines[:1], lines[1:]
    assert sent == stored
    told = next(event for event in stored if event["kind"] == "match_started")
    assert snapshot["number"] is None and snapshot["match"] == views[0]["id"]
    assert {**snapshot, "number": told["number"], "created_at": told["created_at"],
            "event": told["event"]} == told
    response = apis[0].get("stream", HTTP_ACCEPT="text/event-stream",
                           HTTP_LAST_EVENT_ID=str(stored[0]["number"]))
    assert response["Content-Type"] == "text/event-stream"
    text = b"".join(response).decode()
    assert [f"id: {event['number']}" in text for event in stored] == [False] + [True] * (
        len(stored) - 1)
    # The snapshot's entry is a message without an id (Last-Event-ID stays where it was).
    first = text.removeprefix(": keep-alive\n\n").split("\n\n")[0]
    assert first.startswith("event: match_started\ndata: ") and '"number":null' in first


def test_a_challenge_declined_with_a_reason_accepted_by_id_or_expired(make_player):
    from server.spitemalice import invitations
    from tests.server.spitemalice.friend_support import aged

    _ada_player, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    league_of(ada, bob)
    first = invite(ada, invitee=str(bob_player.pk))
    response = bob.post(url(first, "/decline"), {"reason": "later"})
    assert response.status_code == 200, response.content
    (declined,) = events(ada)
    assert declined["kind"] == "invitation_declined" and declined["reason"] == "later"

    second = invite(ada, invitee=str(bob_player.pk))
    assert bob.post(url(second, "/accept")).status_code == 200
    joined = events(ada, after=1)
    assert joined[0]["kind"] == "joined" and joined[0]["match"] == second["id"]

    third = invite(ada, invitee=str(bob_player.pk))
    aged(third["id"])
    assert invitations.expire_if_due(third["id"])
    for api in (ada, bob):
        expired = events(api)[-1]
        assert expired["kind"] == "invitation_cancelled" and expired["reason"] == "expired"
        assert expired["match"] == third["id"]


def test_a_join_names_both_seats_with_their_ratings_from_one_read(make_player):
    """The join's account events (``joined`` to the creator, ``match_started`` to both, the
    creator's ``your_turn``) name each person with their rating as ``rating_of`` shows it (one
    rated, one held off the board and shown unrated), read once for all of them; and the join
    locks the two players' rows in one statement before it starts and once more in its own
    transaction, not again for each check."""
    ada, ada_api = make_player("Ada")
    bob, bob_api = make_player("Bob")
    now = timezone.now()
    Rating.objects.create(game="spite-malice", player=ada, rating=1612.4, deviation=87.5,
                          matches=9, provisional=False, updated_at=now)
    Rating.objects.create(game="spite-malice", player=bob, rating=1400.0, deviation=90.0,
                          matches=7, provisional=False, updated_at=now, held=True)
    code = invite(ada_api)["invite"]["code"]
    with CaptureQueriesContext(connection) as joined:
        assert join(bob_api, code).status_code == 200
    statements = [query["sql"] for query in joined.captured_queries]
    assert sum('FROM "ratings_rating"' in sql for sql in statements) == 1
    assert sum('FROM "players_player"' in sql and "FOR NO KEY UPDATE" in sql
               for sql in statements) == 2
    told = {seat: {event["kind"]: event for event in events(api)}
            for seat, api in ((0, ada_api), (1, bob_api))}
    shown = {ada.pk: rating_of(ada, "spite-malice"), bob.pk: rating_of(bob, "spite-malice")}
    assert shown[ada.pk] is not None and shown[bob.pk] is None
    assert told[0]["joined"]["player"] == person(bob, rating=shown[bob.pk])
    assert told[0]["match_started"]["opponent"] == person(bob, rating=shown[bob.pk])
    assert told[1]["match_started"]["opponent"] == person(ada, rating=shown[ada.pk])
