"""Every event the server stores fits its kind's schema in /api/schema/: one component per
kind under ``SpiteMaliceEvent``'s ``oneOf``, told apart by ``kind``, every member declared.

The matches below end in every way a match can (played out against the bot, resigned, lost on
time, aborted, cancelled, declined, expired); each event of each is checked, as both seats see
it, against its kind's component, closed (no undeclared member passes), and against
``SpiteMaliceEvent``.
"""

from __future__ import annotations

import pytest
from django.test import Client as DjangoClient

from server.spitemalice.models import Event, Match
from tests.server.api.openapi_json_schema import errors
from tests.server.spitemalice.friend_support import aged, invite, overdue, pair, whose_turn
from tests.server.spitemalice.support import play_out, start, url
from tests.server.spitemalice.test_friend import league_of

KINDS = ["joined", "dealt", "draw", "play", "completed", "discard", "resigned", "timeout",
         "aborted", "game_over", "match_over", "cancelled"]
# SpiteMaliceGameOverEvent for game_over, ...
COMPONENTS = {kind: "SpiteMalice" + kind.title().replace("_", "") + "Event" for kind in KINDS}


@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = DjangoClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def test_the_event_is_a_one_of_its_kinds_told_apart_by_kind(document):
    schemas = document["components"]["schemas"]
    event = schemas["SpiteMaliceEvent"]
    assert event["discriminator"] == {
        "propertyName": "kind",
        "mapping": {kind: f"#/components/schemas/{name}" for kind, name in COMPONENTS.items()}}
    assert event["oneOf"] == [{"$ref": f"#/components/schemas/{name}"}
                              for name in COMPONENTS.values()]
    for kind, name in COMPONENTS.items():
        schema = schemas[name]
        assert {"number", "kind"} <= set(schema["required"]), name
        [enum] = schema["properties"]["kind"]["allOf"]
        assert schemas[enum["$ref"].rsplit("/", 1)[-1]]["enum"] == [kind]
    events = schemas["EventsOutput"]["properties"]["events"]
    assert events["items"] == {"$ref": "#/components/schemas/SpiteMaliceEvent"}
    # One name, one type: a single card (or null) wherever payoff_top is; the deal's list of
    # them is payoff_tops.
    assert "payoff_top" not in schemas["SpiteMaliceDealtEvent"]["properties"]
    assert schemas["SpiteMaliceDealtEvent"]["properties"]["payoff_tops"]["items"] == {
        "type": "string", "nullable": True}
    for name in ("SpiteMalicePlayEvent", "TableSeatOutput"):
        assert schemas[name]["properties"]["payoff_top"]["type"] == "string", name
        assert schemas[name]["properties"]["payoff_top"]["nullable"] is True, name
    points = schemas["SpiteMaliceGameOverEvent"]["properties"]["points"]
    assert points["type"] == "integer" and "nullable" not in points
    assert "points" in schemas["SpiteMaliceGameOverEvent"]["required"]


def _check_every_event(document, match_ids) -> dict[str, int]:
    """Each stored event of these matches, as each seat sees it and as the feed sends it,
    fits its kind's closed component and ``SpiteMaliceEvent``: how many of each kind were seen."""
    seen: dict[str, int] = {}
    for event in Event.objects.filter(match_id__in=match_ids).order_by("match", "number"):
        for copy in (event.seat0, event.seat1):
            sent = {"number": event.number, "kind": event.kind, **copy}
            where = f"{event.kind} {sent}"
            assert errors(document, COMPONENTS[event.kind], sent) == [], where
            assert errors(document, "SpiteMaliceEvent", sent) == [], where
        seen[event.kind] = seen.get(event.kind, 0) + 1
    return seen


def _feed(api, match: dict) -> list[dict]:
    response = api.get(url(match, "/events"))
    assert response.status_code == 200
    return response.json()["events"]


@pytest.mark.django_db
def test_every_event_of_matches_played_every_way_fits_its_schema(document, make_player,
                                                                  make_trusted_player,
                                                                  settings):
    settings.SPITE_MALICE_BOT_SECONDS = 60.0  # the bot's whole reply in each answer
    matches = []

    # Against the bot, played out: the deal, draws (with the table of a turn), plays,
    # discards, the game's end and the match's.
    _, api = make_player()
    played = play_out(api, start(api))
    matches.append(played["id"])
    feed = _feed(api, played)
    assert feed[-1]["kind"] == "match_over" and feed[-2]["kind"] == "game_over"
    assert feed[-2]["points"] == played["game"]["points"] == max(
        seat["score"] for seat in played["seats"])
    assert any("table" in event for event in feed if event["kind"] == "draw")

    # Against the bot, resigned: a resignation scores nothing, and says so (0, never null).
    _, api = make_player()
    match = start(api, target=50)
    resigned = api.post(url(match, "/resign"))
    assert resigned.status_code == 200, resigned.content
    matches.append(match["id"])
    game_over = [event for event in _feed(api, match) if event["kind"] == "game_over"]
    assert [(event["status"], event["points"], event["scores"]) for event in game_over] == [
        ("resigned", 0, [0, 0])]
    assert resigned.json()["game"]["points"] == 0
    assert [seat["score"] for seat in resigned.json()["seats"]] == [0, 0]

    # Between people: joined, then resigned after the first turns.
    apis, views = pair(make_trusted_player, first_turns=True)
    assert apis[0].post(url(views[0], "/resign")).status_code == 200
    matches.append(views[0]["id"])

    # Lost on time: a timeout, then its game_over with 0 points, as the match shows it.
    apis, views = pair(make_trusted_player, first_turns=True, names=("Cy", "Di"))
    loser = whose_turn(views)
    overdue(views[0]["id"])
    timed_out = apis[1 - loser].get(url(views[0])).json()
    assert timed_out["reason"] == "timeout" and timed_out["game"]["points"] == 0
    game_over = [event for event in _feed(apis[loser], views[0])
                 if event["kind"] == "game_over"]
    assert [(event["status"], event["points"]) for event in game_over] == [("timeout", 0)]
    matches.append(views[0]["id"])

    # Aborted: the first seat leaves in its first turn.
    apis, views = pair(make_trusted_player, names=("Ed", "Flo"))
    assert apis[whose_turn(views)].post(url(views[0], "/resign")).status_code == 200
    assert Match.objects.get(pk=views[0]["id"]).status == Match.Status.ABORTED
    matches.append(views[0]["id"])

    # Cancelled by its creator; declined by its invitee (by 1); expired (by null).
    _, ada = make_player()
    cancelled = invite(ada)
    assert ada.post(url(cancelled, "/cancel")).status_code == 200
    bob_player, bob = make_player()
    league_of(ada, bob)
    declined = invite(ada, invitee=str(bob_player.pk))
    assert bob.post(url(declined, "/cancel")).status_code == 200
    expired = invite(ada)
    aged(expired["id"])
    assert ada.get(url(expired)).json()["reason"] == "expired"
    matches += [cancelled["id"], declined["id"], expired["id"]]
    assert [(event["reason"], event["by"]) for match in (cancelled, declined, expired)
            for event in _feed(ada, match)] == [
        ("cancelled", 0), ("declined", 1), ("expired", None)]

    seen = _check_every_event(document, matches)
    assert set(seen) >= set(COMPONENTS) - {"completed"}, seen  # a stack completes by chance


@pytest.mark.django_db
def test_events_stored_under_the_old_names_are_rewritten(make_player):
    """The migration that renamed the deal's list and gave a resignation's points: an event
    stored the old way reads the new way after it, and one stored the new way is unchanged."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("server.spitemalice.migrations.0008_event_names")
    _, api = make_player()
    match = start(api, target=50)
    assert api.post(url(match, "/resign")).status_code == 200
    dealt = Event.objects.get(match_id=match["id"], kind="dealt")
    over = Event.objects.get(match_id=match["id"], kind="game_over")
    new = (dict(dealt.seat0), dict(over.seat0))
    old_dealt = {key: value for key, value in dealt.seat0.items() if key != "payoff_tops"}
    old_dealt["payoff_top"] = dealt.seat0["payoff_tops"]
    Event.objects.filter(pk=dealt.pk).update(seat0=old_dealt, seat1=old_dealt)
    Event.objects.filter(pk=over.pk).update(seat0={**over.seat0, "points": None},
                                            seat1={**over.seat1, "points": None})
    migration.forward(apps, None)
    migration.forward(apps, None)  # twice: the second finds nothing left to do
    dealt.refresh_from_db()
    over.refresh_from_db()
    assert (dealt.seat0, dealt.seat1) == (new[0], new[0])
    assert (over.seat0, over.seat1) == (new[1], new[1]) and new[1]["points"] == 0
    # And back: the old names again.
    migration.backward(apps, None)
    dealt.refresh_from_db()
    over.refresh_from_db()
    assert dealt.seat0 == old_dealt and over.seat0["points"] is None
