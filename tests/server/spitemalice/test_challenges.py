"""Challenges by player id (as the challenged player's setting allows), accepting and declining
them with a reason, open seeks the first taker joins, and bot accounts."""

from __future__ import annotations

import pytest

from server.players.models import Player
from server.spitemalice import services
from server.spitemalice.models import Event, Match
from tests.server.conftest import assert_problem, trust
from tests.server.spitemalice.friend_support import MATCHES, aged, invite, join, pair
from tests.server.spitemalice.support import start, url

pytestmark = pytest.mark.sqlite

SEEKS = "spite-malice/seeks"


def challenge(api, invitee: Player, **extra):
    return api.post(MATCHES, {"opponent": "friend", "invitee": str(invitee.pk), **extra})


def settings_of(api, **values) -> dict:
    response = api.patch("players/me", values)
    assert response.status_code == 200, response.content
    return response.json()


def league_of(owner_api, *members) -> None:
    league = owner_api.post("leagues", {"name": "Card table"}).json()
    for member in members:
        assert member.post("leagues/join", {"code": league["code"]}).status_code == 200


# --- The setting ---------------------------------------------------------------------------------


def test_the_challenge_setting_is_league_mates_until_changed(player_api):
    assert player_api.get("players/me").json()["challenges"] == "league_mates"

    assert settings_of(player_api, challenges="anyone")["challenges"] == "anyone"
    assert player_api.get("players/me").json()["challenges"] == "anyone"
    assert settings_of(player_api, challenges="nobody")["challenges"] == "nobody"


def test_an_unknown_challenge_setting_is_refused_and_changes_nothing(player_api):
    for value in ("everyone", "", None, 1):
        response = player_api.patch("players/me", {"challenges": value, "name": "Zed"})
        body = assert_problem(response, 400, "invalid")
        assert body["errors"][0]["field"] == "challenges"
    me = player_api.get("players/me").json()
    assert me["challenges"] == "league_mates" and me["name"] != "Zed"


# --- Challenging --------------------------------------------------------------------------------


def test_anyone_may_challenge_a_player_who_takes_challenges_from_anyone(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    settings_of(bob, challenges="anyone")

    response = challenge(ada, bob_player, turn_seconds=3600, target=1)

    assert response.status_code == 201, response.content
    match = response.json()
    assert match["invitee"] == {"id": str(bob_player.pk), "name": "Bob", "bot": False}
    assert match["seek"] is False and match["decline_reason"] is None
    listed = bob.get(MATCHES).json()["results"]
    assert [m["id"] for m in listed] == [match["id"]]


def test_a_league_mates_only_player_refuses_a_stranger_with_not_a_league_mate(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")

    assert_problem(challenge(ada, bob_player), 422, "not_a_league_mate")
    league_of(ada, bob)
    assert challenge(ada, bob_player).status_code == 201


def test_nobody_takes_challenges_even_from_a_league_mate(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    league_of(ada, bob)
    settings_of(bob, challenges="nobody")

    body = assert_problem(challenge(ada, bob_player), 403, "challenges_closed")

    assert "Bob" in body["detail"]
    assert Match.objects.count() == 0


def test_nobody_challenges_themselves_or_an_unknown_player(make_player):
    ada_player, ada = make_player("Ada")
    settings_of(ada, challenges="anyone")
    for invitee in (ada_player.pk, "00000000-0000-4000-8000-000000000000"):
        response = ada.post(MATCHES, {"opponent": "friend", "invitee": str(invitee)})
        assert_problem(response, 422, "not_a_league_mate")
    assert Match.objects.count() == 0


def test_a_rematch_is_offered_whatever_the_opponents_setting(make_player):
    apis, views = pair(make_player, first_turns=True)
    settings_of(apis[1], challenges="nobody")
    assert apis[0].post(url(views[0], "/resign")).status_code == 200

    assert apis[0].post(url(views[0], "/rematch")).status_code == 201


# --- Accepting ----------------------------------------------------------------------------------


def anyone_challenged(make_player, **extra):
    """Ada challenges Bob, who takes challenges from anyone: (ada, bob, the match)."""
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    settings_of(bob, challenges="anyone")
    response = challenge(ada, bob_player, **extra)
    assert response.status_code == 201, response.content
    return ada, bob, response.json()


def test_the_invitee_accepts_by_id_and_the_match_begins(make_player):
    _ada, bob, match = anyone_challenged(make_player, turn_seconds=3600)

    response = bob.post(url(match, "/accept"))

    assert response.status_code == 200, response.content
    accepted = response.json()
    assert accepted["status"] == "playing" and accepted["you"] == 1
    assert accepted["seats"][1]["player"]["name"] == "Bob" and accepted["game"] is not None
    assert [e.kind for e in Event.objects.filter(match_id=match["id"])][:2] == ["joined",
                                                                              "dealt"]


def test_accepting_twice_is_match_full_and_deals_once(make_player):
    _, bob, match = anyone_challenged(make_player)
    assert bob.post(url(match, "/accept")).status_code == 200

    assert_problem(bob.post(url(match, "/accept")), 409, "match_full")
    assert Event.objects.filter(match_id=match["id"], kind="dealt").count() == 1


def test_only_the_invitee_may_accept(make_player):
    ada, _, match = anyone_challenged(make_player)
    _, carol = make_player("Carol")

    assert_problem(carol.post(url(match, "/accept")), 404, "not_found")
    assert_problem(ada.post(url(match, "/accept")), 409, "own_match")
    assert Match.objects.get(pk=match["id"]).status == "waiting"


def test_an_open_invitation_cannot_be_accepted_by_id(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    match = invite(ada)

    assert_problem(bob.post(url(match, "/accept")), 404, "not_found")
    assert join(bob, match["invite"]["code"]).status_code == 200


def test_an_expired_challenge_cannot_be_accepted(make_player):
    _, bob, match = anyone_challenged(make_player)
    aged(match["id"])

    body = assert_problem(bob.post(url(match, "/accept")), 404, "not_found")

    assert body["reason"] == "expired"
    assert Match.objects.get(pk=match["id"]).reason == "expired"


def test_accepting_counts_against_the_limit(make_player, settings):
    _ada, bob, match = anyone_challenged(make_player)
    for _ in range(services.ACTIVE_MATCHES):
        start(bob)

    assert_problem(bob.post(url(match, "/accept")), 409, "too_many_matches")
    assert Match.objects.get(pk=match["id"]).status == "waiting"


# --- Declining ----------------------------------------------------------------------------------


def test_a_decline_says_why_to_the_challenger(make_player):
    ada, bob, match = anyone_challenged(make_player)

    response = bob.post(url(match, "/decline"), {"reason": "too_fast"})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "cancelled"
    seen = ada.get(url(match)).json()
    assert seen["reason"] == "declined" and seen["decline_reason"] == "too_fast"
    cancelled = ada.get(url(match, "/events")).json()["events"][-1]
    assert cancelled["kind"] == "cancelled" and cancelled["reason"] == "declined"
    assert cancelled["by"] == 1 and cancelled["decline_reason"] == "too_fast"


def test_a_decline_without_a_body_is_generic(make_player):
    ada, bob, match = anyone_challenged(make_player)

    assert bob.post(url(match, "/decline")).status_code == 200

    assert ada.get(url(match)).json()["decline_reason"] == "generic"


def test_a_cancel_by_the_invitee_still_declines_without_a_reason(make_player):
    ada, bob, match = anyone_challenged(make_player)

    assert bob.post(url(match, "/cancel")).status_code == 200

    seen = ada.get(url(match)).json()
    assert seen["reason"] == "declined" and seen["decline_reason"] is None
    assert ada.get(url(match, "/events")).json()["events"][-1]["decline_reason"] is None


def test_an_unknown_decline_reason_is_refused_and_changes_nothing(make_player):
    _, bob, match = anyone_challenged(make_player)
    for body in ({"reason": "boring"}, {"reason": ""}, {"why": "later"}):
        assert_problem(bob.post(url(match, "/decline"), body), 400, "invalid")
    assert Match.objects.get(pk=match["id"]).status == "waiting"


def test_only_the_invitee_declines_and_only_while_it_waits(make_player):
    ada, bob, match = anyone_challenged(make_player)
    _, carol = make_player("Carol")

    assert_problem(carol.post(url(match, "/decline")), 404, "not_found")
    assert_problem(ada.post(url(match, "/decline")), 409, "own_match")
    assert bob.post(url(match, "/accept")).status_code == 200
    assert_problem(bob.post(url(match, "/decline")), 409, "match_not_waiting")


# --- Seeks --------------------------------------------------------------------------------------


def seek(api, **values) -> dict:
    response = api.post(SEEKS, {"turn_seconds": 86400, "target": 1, **values})
    assert response.status_code == 201, response.content
    return response.json()


def test_a_seek_is_a_waiting_match_without_a_code_listed_for_others(make_player):
    ada_player, ada = make_player("Ada")
    _, bob = make_player("Bob")

    posted = seek(ada, turn_seconds=3600, rated=False)

    assert posted["status"] == "waiting" and posted["seek"] is True
    assert posted["invite"] is None and posted["invitee"] is None
    assert ada.get(SEEKS).json()["results"] == []  # not your own
    listed = bob.get(SEEKS).json()
    assert listed["next"] is None
    (entry,) = listed["results"]
    assert entry["id"] == posted["id"]
    assert entry["from"] == {"id": str(ada_player.pk), "name": "Ada", "bot": False}
    assert entry["turn_seconds"] == 3600 and entry["target"] == 1 and entry["rating"] is None
    assert entry["rated"] is False and entry["unrated_reason"] == "casual"
    assert "code" not in str(entry)


def test_the_seek_list_pages_by_cursor(make_player):
    _, viewer = make_player("Viewer")
    posted = []
    for index in range(5):
        _, api = make_player(f"Seeker {index}")
        posted.append(seek(api)["id"])

    seen, page = [], viewer.get(SEEKS, {"limit": 2}).json()
    while True:
        seen += [entry["id"] for entry in page["results"]]
        if page["next"] is None:
            break
        page = viewer.get(page["next"]).json()

    assert seen == posted[::-1]
    assert_problem(viewer.get(SEEKS, {"cursor": "nonsense"}), 400, "invalid")
    assert_problem(viewer.get(SEEKS, {"limit": 0}), 400, "invalid")


def test_a_seek_taken_begins_the_match_for_both(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    posted = seek(ada)

    response = bob.post(f"{SEEKS}/{posted['id']}/accept")

    assert response.status_code == 200, response.content
    taken = response.json()
    assert taken["id"] == posted["id"] and taken["status"] == "playing" and taken["you"] == 1
    assert ada.get(url(posted)).json()["seats"][1]["player"]["name"] == "Bob"
    assert bob.get(SEEKS).json()["results"] == []
    _, carol = make_player("Carol")
    assert_problem(carol.post(f"{SEEKS}/{posted['id']}/accept"), 409, "match_full")


def test_nobody_takes_their_own_seek_or_one_that_is_none(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    posted = seek(ada)
    private = invite(ada)

    assert_problem(ada.post(f"{SEEKS}/{posted['id']}/accept"), 409, "own_match")
    assert_problem(bob.post(f"{SEEKS}/{private['id']}/accept"), 404, "not_found")
    assert_problem(bob.post(f"{SEEKS}/00000000-0000-4000-8000-000000000000/accept"), 404,
                   "not_found")


def test_the_seeker_withdraws_a_seek(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    posted = seek(ada)

    assert_problem(bob.delete(f"{SEEKS}/{posted['id']}"), 404, "not_found")
    response = ada.delete(f"{SEEKS}/{posted['id']}")

    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert bob.get(SEEKS).json()["results"] == []
    body = assert_problem(bob.post(f"{SEEKS}/{posted['id']}/accept"), 404, "not_found")
    assert body["reason"] == "cancelled"
    assert_problem(ada.delete(f"{SEEKS}/{posted['id']}"), 409, "match_not_waiting")


def test_a_seek_expires_like_an_invitation(make_player):
    _, ada = make_player("Ada")
    _, bob = make_player("Bob")
    posted = seek(ada)
    aged(posted["id"])

    assert bob.get(SEEKS).json()["results"] == []
    body = assert_problem(bob.post(f"{SEEKS}/{posted['id']}/accept"), 404, "not_found")
    assert body["reason"] == "expired"


def test_seeks_count_among_active_matches(make_player):
    _, ada = make_player("Ada")
    for _ in range(services.ACTIVE_MATCHES):
        seek(ada)

    assert_problem(ada.post(SEEKS, {}), 409, "too_many_matches")
    assert Match.objects.filter(seek=True).count() == services.ACTIVE_MATCHES


def test_seeks_from_one_address_are_limited(make_player, settings):
    """Guests posted and withdrew 1,200 public seeks an hour from one address."""
    assert settings.THROTTLE_RATES["seeks.address"] == "120/hour"
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "seeks.address": "3/hour"}
    apis = [make_player()[1] for _ in range(2)]

    statuses = [apis[index % 2].post(SEEKS, {}).status_code for index in range(4)]

    assert statuses == [201, 201, 201, 429]
    assert Match.objects.filter(seek=True).count() == 3
    assert apis[0].get(SEEKS).status_code == 200  # reading the list is not counted


def test_bad_seek_settings_are_refused(player_api):
    for body in ({"turn_seconds": 61}, {"target": 2}, {"rated": "yes"}, {"target": "1"},
                 {"invitee": "x"}):
        assert_problem(player_api.post(SEEKS, body), 400, "invalid")
    assert Match.objects.count() == 0


# --- Bot accounts -------------------------------------------------------------------------------


def test_a_player_marks_their_account_a_bot_for_good(make_player):
    _, robo = make_player("Robo")

    assert settings_of(robo, bot=True)["bot"] is True

    assert_problem(robo.patch("players/me", {"bot": False}), 409, "bot_permanent")
    assert settings_of(robo, bot=True)["bot"] is True
    assert robo.get("players/me").json()["bot"] is True


def test_an_account_that_played_a_person_cannot_become_a_bot(make_player):
    apis, _ = pair(make_player)

    assert_problem(apis[0].patch("players/me", {"bot": True, "name": "Robo"}), 409,
                   "bot_not_allowed")
    me = apis[0].get("players/me").json()
    assert me["bot"] is False and me["name"] == "Ada"


def test_a_bot_is_shown_in_seats_seeks_invitations_and_profile(make_player):
    robo_player, robo = make_player("Robo")
    _, ada = make_player("Ada")
    settings_of(robo, bot=True, challenges="anyone")
    posted = seek(robo)

    assert ada.get(SEEKS).json()["results"][0]["from"]["bot"] is True
    taken = ada.post(f"{SEEKS}/{posted['id']}/accept").json()
    assert [seat["player"]["bot"] for seat in taken["seats"]] == [True, False]
    challenged = challenge(ada, robo_player).json()
    assert challenged["invitee"]["bot"] is True
    assert robo.get(url(challenged)).json()["invitee"]["bot"] is True
    assert ada.get(f"players/{robo_player.pk}").json()["player"]["bot"] is True


def test_a_waiting_invitation_shows_a_player_who_became_a_bot(make_player):
    _, ada = make_player("Ada")
    robo_player, robo = make_player("Robo")
    settings_of(robo, challenges="anyone")
    match = challenge(ada, robo_player).json()

    settings_of(robo, bot=True)

    assert ada.get(url(match)).json()["invitee"]["bot"] is True


def test_a_bot_account_is_never_rated_against_a_person(make_player):
    robo_player, robo = make_player("Robo")
    ada_player, ada = make_player("Ada")
    trust(robo_player), trust(ada_player)
    settings_of(robo, bot=True)

    posted = seek(robo, rated=True)
    assert posted["rated"] is False and posted["unrated_reason"] == "bot"
    rated = seek(ada, rated=True)
    assert rated["rated"] is True
    taken = robo.post(f"{SEEKS}/{rated['id']}/accept").json()
    assert taken["rated"] is False and taken["unrated_reason"] == "bot"


# --- The account stream ---------------------------------------------------------------------------


def test_the_challenger_is_told_on_their_stream_why_and_the_seeker_that_someone_took_it(
        make_player):
    ada, bob, match = anyone_challenged(make_player)
    assert bob.post(url(match, "/decline"), {"reason": "later"}).status_code == 200

    (declined,) = ada.get("stream/events").json()["events"]
    assert declined["kind"] == "invitation_declined" and declined["match"] == match["id"]
    assert declined["reason"] == "later"

    posted = seek(ada)
    assert bob.post(f"{SEEKS}/{posted['id']}/accept").status_code == 200
    kinds = [event["kind"] for event in ada.get("stream/events", {"after": 1}).json()["events"]]
    assert kinds[0] == "joined"
