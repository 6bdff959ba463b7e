"""Leagues: membership, the owner's powers, limits, privacy, and boards among members."""

from datetime import timedelta

import pytest

from server.dailies import calendar
from server.leagues import limits
from server.leagues.models import League, Membership
from tests.server.concurrently import race
from tests.server.conftest import assert_problem
from tests.server.results import another_day_of_its_week, at, daily_result

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def owner(make_player):
    return make_player("Owner")


@pytest.fixture
def league(owner) -> dict:
    response = owner[1].post("leagues", {"name": "Friday Patience"})
    assert response.status_code == 201, response.content
    return response.json()


def join(api, league):
    return api.post("leagues/join", {"code": league["code"]})


# --- Creating and joining ----------------------------------------------------------------------


def test_creating_a_league_makes_you_its_owner_and_first_member(owner, league):
    assert set(league) >= {"id", "name", "code", "owner", "member_count", "members"}
    assert league["name"] == "Friday Patience" and len(league["code"]) == 8
    assert league["owner"]["id"] == str(owner[0].pk) and league["member_count"] == 1
    assert league["members"][0]["owner"] is True


def test_a_retried_creation_with_the_same_key_makes_one_league(player_api):
    first = player_api.post("leagues", {"name": "Once"}, HTTP_IDEMPOTENCY_KEY="create-1")
    again = player_api.post("leagues", {"name": "Once"}, HTTP_IDEMPOTENCY_KEY="create-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and League.objects.count() == 1


def test_joining_with_the_code_in_any_case_and_spacing(make_player, league):
    _, friend = make_player("Friend")
    code = league["code"].lower()
    response = friend.post("leagues/join", {"code": f" {code[:4]}-{code[4:]} "})
    assert response.status_code == 200
    assert [member["player"]["name"] for member in response.json()["members"]] == [
        "Owner", "Friend"]


def test_joining_twice_is_409_already_member(owner, league):
    assert_problem(join(owner[1], league), 409, "already_member")


@pytest.mark.parametrize("code", ["NOPE2345", " ", "\u001e"])
def test_an_unknown_code_is_404(player_api, code):
    # Only spaces (Python counts \u001e among them) is a string the schema allows: no league.
    assert_problem(player_api.post("leagues/join", {"code": code}), 404, "not_found")


def test_a_full_league_refuses_members(make_player, league, monkeypatch):
    monkeypatch.setattr(limits, "MAX_MEMBERS", 2)
    assert join(make_player()[1], league).status_code == 200
    assert_problem(join(make_player()[1], league), 409, "league_full")
    assert Membership.objects.count() == 2


def test_a_player_may_be_in_several_leagues_up_to_the_limit(make_player, owner, league,
                                                            monkeypatch):
    monkeypatch.setattr(limits, "MAX_LEAGUES_PER_PLAYER", 2)
    other = make_player()[1].post("leagues", {"name": "Second"}).json()
    assert join(owner[1], other).status_code == 200
    assert [item["name"] for item in owner[1].get("leagues").json()] == [
        "Friday Patience", "Second"]
    assert_problem(owner[1].post("leagues", {"name": "Third"}), 422, "league_limit")
    third = make_player()[1].post("leagues", {"name": "Third"}).json()
    assert_problem(join(owner[1], third), 422, "league_limit")


@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_cannot_overfill_a_league(make_player, monkeypatch):
    monkeypatch.setattr(limits, "MAX_MEMBERS", 3)
    league = make_player()[1].post("leagues", {"name": "Race"}).json()
    joiners = [make_player()[1] for _ in range(5)]
    statuses = race(lambda index: join(joiners[index], league).status_code, count=5)
    assert sorted(statuses) == [200, 200, 409, 409, 409]
    assert Membership.objects.count() == 3


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x"}, {"name": "\u3164\u3164"},
                                  {"name": "a" * 41}, {"name": "bad\u202ename"}, {"name": 5}])
def test_bad_league_names_are_400(player_api, body):
    assert_problem(player_api.post("leagues", body), 400, "invalid")
    assert not League.objects.exists()


# --- The owner ---------------------------------------------------------------------------------


def test_the_owner_renames_and_rotates_the_code(make_player, owner, league):
    _, friend = make_player()
    join(friend, league)
    url = f"leagues/{league['id']}"
    assert owner[1].patch(url, {"name": "Saturday"}).json()["name"] == "Saturday"
    assert owner[1].patch(url, {}).json()["name"] == "Saturday"
    rotated = owner[1].post(f"{url}/code").json()
    assert rotated["code"] != league["code"]
    assert_problem(join(make_player()[1], league), 404, "not_found")
    assert join(make_player()[1], rotated).status_code == 200


def test_only_the_owner_manages(make_player, league):
    _member, friend = make_player()
    join(friend, league)
    url = f"leagues/{league['id']}"
    assert_problem(friend.patch(url, {"name": "Mine now"}), 403, "not_owner")
    assert_problem(friend.post(f"{url}/code"), 403, "not_owner")
    assert_problem(friend.delete(f"{url}/members/{league['owner']['id']}"), 403, "not_owner")


def test_the_owner_removes_a_member(make_player, owner, league):
    member, friend = make_player()
    join(friend, league)
    url = f"leagues/{league['id']}/members/{member.pk}"
    assert owner[1].delete(url).status_code == 204
    assert_problem(friend.get(f"leagues/{league['id']}"), 404, "not_found")
    assert_problem(owner[1].delete(url), 404, "not_found")


def test_leaving_hands_the_league_on_and_the_last_one_out_deletes_it(make_player, owner,
                                                                      league):
    first, first_api = make_player("First")
    _, second_api = make_player("Second")
    join(first_api, league)
    join(second_api, league)
    assert owner[1].post(f"leagues/{league['id']}/leave").status_code == 204
    assert first_api.get(f"leagues/{league['id']}").json()["owner"]["id"] == str(first.pk)
    first_api.delete(f"leagues/{league['id']}/members/{first.pk}")  # your own id: leave
    second_api.post(f"leagues/{league['id']}/leave")
    assert not League.objects.exists()


# --- Privacy -----------------------------------------------------------------------------------


def test_a_league_is_404_to_non_members(make_player, league, api):
    _, stranger = make_player()
    url = f"leagues/{league['id']}"
    for response in [stranger.get(url), stranger.get(f"{url}/leaderboard"),
                     stranger.patch(url, {"name": "Taken"}), stranger.post(f"{url}/code"),
                     stranger.post(f"{url}/leave"),
                     stranger.delete(f"{url}/members/{league['owner']['id']}")]:
        assert_problem(response, 404, "not_found")
    assert stranger.get("leagues").json() == []
    assert_problem(api.get(f"{url}/leaderboard"), 401, "not_authenticated")


# --- Boards among members ----------------------------------------------------------------------


def test_a_league_board_ranks_members_only(make_player, owner, league):
    today = calendar.utc_today()
    members = [owner] + [make_player(f"M{index}") for index in range(3)]
    for _, api in members[1:]:
        join(api, league)
    outsider, _ = make_player("Outsider")
    daily_result(outsider, today, 24)  # would top the public board
    for (player, _), score in zip(members, [8, 12, 8, None], strict=True):
        daily_result(player, today, score, finished_at=at(len(player.name)))
    body = owner[1].get(f"leagues/{league['id']}/leaderboard").json()
    assert [(e["rank"], e["player"]["name"], e["score"]) for e in body["entries"]] == [
        (1, "M0", 12), (2, "M1", 8), (2, "Owner", 8)]
    assert (body["players"], body["winners"]) == (4, 3)
    assert body["me"]["rank"] == 2 and body["standing"]["behind"] == 1
    loser = members[3][1].get(f"leagues/{league['id']}/leaderboard").json()["standing"]
    assert (loser["status"], loser["ahead"]) == ("lost", 3)
    page = owner[1].get(f"leagues/{league['id']}/leaderboard", {"limit": 2}).json()
    rest = owner[1].get(page["next"]).json()
    assert [e["player"]["name"] for e in page["entries"] + rest["entries"]] == [
        "M0", "M1", "Owner"]
    around = members[1][1].get(f"leagues/{league['id']}/leaderboard",
                               {"around": "me", "limit": 1}).json()
    assert [e["player"]["name"] for e in around["entries"]] == ["M0"]


def test_a_league_board_over_a_week(make_player, owner, league, settings):
    today = calendar.utc_today()
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    _, friend = make_player("Friend")
    join(friend, league)
    daily_result(owner[0], another_day_of_its_week(today), 5)
    daily_result(owner[0], today, 5)
    body = friend.get(f"leagues/{league['id']}/leaderboard",
                      {"period": "week", "date": today.isoformat()}).json()
    assert [(e["player"]["name"], e["score"], e["wins"]) for e in body["entries"]] == [
        ("Owner", 10, 2)]
    assert body["standing"]["status"] == "not_started" and body["period"] == "week"


def test_league_board_parameters_are_checked(league, owner):
    url = f"leagues/{league['id']}/leaderboard"
    assert_problem(owner[1].get(url, {"period": "year"}), 400, "invalid")
    assert_problem(owner[1].get(url, {"cursor": "bogus"}), 400, "invalid")
