"""A race through the API: creating, inviting, joining, leaving, starting (by the host, or by
itself when full), the countdown, and what the race object says at each step."""

from __future__ import annotations

import pytest

from server.core.codes import CODE_ALPHABET
from server.foursquare.models import Game, Race, Racer
from tests.server.conftest import assert_problem
from tests.server.foursquare.races.support import (
    RACES,
    create,
    join,
    open_now,
    raced,
    start,
    url,
)

pytestmark = [pytest.mark.sqlite, pytest.mark.usefixtures("known_deal")]


def league_of(owner_api, *members) -> dict:
    league = owner_api.post("leagues", {"name": "Racers"}).json()
    for member in members:
        assert member.post("leagues/join", {"code": league["code"]}).status_code == 200
    return league


# --- Creating ---------------------------------------------------------------------------------


def test_a_new_race_is_waiting_with_its_host_as_first_racer(make_player):
    host, host_api = make_player("Ada")
    response = host_api.post(RACES, {"players": 4, "minutes": 5})

    assert response.status_code == 201, response.content
    race = response.json()
    assert response["Location"].endswith(f"/api/v1/races/{race['id']}")
    assert race["status"] == "waiting" and race["players"] == 4 and race["minutes"] == 5
    assert len(race["code"]) == 8 and set(race["code"]) <= set(CODE_ALPHABET)
    assert race["link"] == f"/races/join/{race['code']}"
    assert race["host"]["id"] == str(host.pk) and race["host"]["name"] == "Ada"
    assert [r["player"]["id"] for r in race["racers"]] == [str(host.pk)]
    assert race["racers"][0]["place"] is None and "board" not in race["racers"][0]
    assert race["racers"][0]["progress"] == {"placed": 0, "stock": 39, "face_down": 0,
                                             "status": "playing", "score": None,
                                             "seconds": None}
    assert race["invited"] == [] and race["game"] is None and race["next_race"] is None
    assert race["bot"] is None
    assert race["started_at"] is None and race["starts_at"] is None and race["ends_at"] is None


@pytest.mark.parametrize("body", [
    {"players": 1, "minutes": 3}, {"players": 9, "minutes": 3}, {"players": 2, "minutes": 4},
    {"players": "2", "minutes": 3}, {"players": 2, "minutes": "3"}, {"players": 2},
    {"players": 2, "minutes": 3, "colour": "red"}, {"players": 2, "minutes": True},
    {"players": 2, "minutes": 3, "invite": ["not-a-uuid"]},
    {"players": 2, "minutes": 3, "invite": "x"}, [], "x",
])
def test_a_bad_race_body_is_a_400_and_creates_nothing(player_api, body):
    assert_problem(player_api.post(RACES, body), 400, "invalid")
    assert not Race.objects.exists()


def test_a_race_created_twice_with_one_key_is_one_race(player_api):
    first = player_api.post(RACES, {"players": 2, "minutes": 3}, HTTP_IDEMPOTENCY_KEY="k1")
    again = player_api.post(RACES, {"players": 2, "minutes": 3}, HTTP_IDEMPOTENCY_KEY="k1")

    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"] and Race.objects.count() == 1


def test_only_league_mates_can_be_invited_directly(make_player):
    host, host_api = make_player("Ada")
    mate, mate_api = make_player("Bo")
    stranger, stranger_api = make_player("Cy")
    league_of(host_api, mate_api)

    refused = host_api.post(RACES, {"players": 3, "minutes": 3,
                                    "invite": [str(mate.pk), str(stranger.pk)]})
    body = assert_problem(refused, 422, "not_a_league_mate")
    assert str(stranger.pk) in body["detail"] and str(mate.pk) not in body["detail"]
    assert_problem(host_api.post(RACES, {"players": 3, "minutes": 3,
                                         "invite": [str(host.pk)]}), 422, "not_a_league_mate")
    assert not Race.objects.exists()

    race = create(host_api, players=3, invite=[str(mate.pk)])
    assert [p["id"] for p in race["invited"]] == [str(mate.pk)]
    # The invitee sees it (in the list too), and joins it by its id; the stranger does not.
    assert mate_api.get(url(race)).status_code == 200
    assert [r["id"] for r in mate_api.get(RACES).json()["results"]] == [race["id"]]
    assert_problem(stranger_api.get(url(race)), 404, "race_not_found")
    assert_problem(stranger_api.post(url(race, "join")), 404, "race_not_found")
    joined = mate_api.post(url(race, "join"))
    assert joined.status_code == 200, joined.content
    assert joined.json()["invited"] == [] and len(joined.json()["racers"]) == 2


# --- Seeing and joining -----------------------------------------------------------------------


def test_a_race_is_seen_by_its_racers_and_by_anyone_with_its_code(make_player, api):
    _, host_api = make_player()
    _, other_api = make_player()
    race = create(host_api)

    assert_problem(other_api.get(url(race)), 404, "race_not_found")
    assert other_api.get(url(race), {"code": race["code"].lower()}).status_code == 200
    assert_problem(other_api.get(url(race), {"code": "00000000"}), 404, "race_not_found")
    assert api.get(url(race), {"code": race["code"]}).json()["id"] == race["id"]
    assert_problem(api.get(url(race)), 401, "not_authenticated")
    assert_problem(other_api.get(url(race), {"colour": "red"}), 400, "invalid")
    assert_problem(other_api.get("races/00000000-0000-0000-0000-000000000000"), 404,
                   "race_not_found")


def test_joining_twice_is_joining_once(make_player):
    _, host_api = make_player()
    guest, guest_api = make_player()
    race = create(host_api, players=3)

    first = join(guest_api, race)
    again = join(guest_api, race)
    assert first["racers"] == again["racers"] and len(again["racers"]) == 2
    assert Racer.objects.filter(race_id=race["id"], player=guest).count() == 1


def test_a_code_is_read_in_any_case_with_spaces_and_dashes(make_player):
    _, host_api = make_player()
    _, guest_api = make_player()
    race = create(host_api)
    code = race["code"]
    messy = f" {code[:4].lower()}-{code[4:]} "
    assert guest_api.post("races/join", {"code": messy}).status_code == 200


@pytest.mark.parametrize("body", [{"code": "ZZZZZZZZ"}, {"code": " "}, {"code": "!"}])
def test_a_code_that_names_no_race_is_a_404(player_api, body):
    assert_problem(player_api.post("races/join", body), 404, "race_not_found")


@pytest.mark.parametrize("body", [{}, {"code": ""}, {"code": 12345678}, {"code": "A" * 33},
                                  {"code": "AAAAAAAA", "x": 1}])
def test_a_bad_join_body_is_a_400(player_api, body):
    assert_problem(player_api.post("races/join", body), 400, "invalid")


def test_a_race_that_fills_starts_itself_and_a_later_joiner_hears_it_is_full(make_player):
    _, host_api = make_player()
    _, guest_api = make_player()
    _, late_api = make_player()
    race = create(host_api, players=2)

    full = join(guest_api, race)
    assert full["status"] == "countdown" and full["starts_at"] and full["ends_at"]
    assert Game.objects.filter(race_id=race["id"], mode="race").count() == 2
    assert_problem(late_api.post("races/join", {"code": race["code"]}), 409, "race_full")
    # The racers already in it join "again" idempotently.
    assert guest_api.post("races/join", {"code": race["code"]}).status_code == 200


def test_joining_a_race_the_host_started_is_race_started(make_player):
    _, host_api = make_player()
    _, guest_api = make_player()
    _, late_api = make_player()
    race = create(host_api, players=4)
    join(guest_api, race)
    start(host_api, race)

    assert_problem(late_api.post("races/join", {"code": race["code"]}), 409, "race_started")
    assert Racer.objects.filter(race_id=race["id"]).count() == 2


def test_only_the_host_starts_and_only_with_two_racers(make_player):
    _, host_api = make_player()
    _, guest_api = make_player()
    _, stranger_api = make_player()
    race = create(host_api, players=3)

    assert_problem(host_api.post(url(race, "start")), 409, "race_not_ready")
    join(guest_api, race)
    assert_problem(guest_api.post(url(race, "start")), 403, "not_race_host")
    assert_problem(stranger_api.post(url(race, "start")), 404, "race_not_found")
    assert Race.objects.get(pk=race["id"]).status == "waiting"

    started = start(host_api, race)
    assert started["status"] == "countdown"
    assert_problem(host_api.post(url(race, "start")), 409, "race_started")
    assert_problem(host_api.post(url(race, "start"), {"x": 1}), 400, "invalid")


def test_the_start_deals_one_fresh_deal_to_a_game_per_racer(make_player, settings):
    settings.RACE_COUNTDOWN_SECONDS = 5
    _, host_api = make_player()
    _, guest_api = make_player()
    race = create(host_api, players=3, minutes=10)
    join(guest_api, race)
    race = start(host_api, race)

    stored = Race.objects.get(pk=race["id"])
    games = list(Game.objects.filter(race=stored))
    assert len(games) == 2 and {g.deal_id for g in games} == {stored.deal_id}
    assert stored.deal.daily if hasattr(stored.deal, "daily") else True
    assert all(g.opens_at == stored.starts_at and g.closes_at == stored.ends_at for g in games)
    assert (stored.starts_at - stored.started_at).total_seconds() == 5
    assert (stored.ends_at - stored.starts_at).total_seconds() == 600
    assert race["game"] in {str(g.pk) for g in games}
    assert guest_api.get(url(race)).json()["game"] != race["game"]

    open_now(race["id"])
    assert host_api.get(url(race)).json()["status"] == "playing"


def test_a_racer_leaves_before_the_start_and_the_host_leaving_cancels(make_player):
    _, host_api = make_player()
    guest, guest_api = make_player()
    _, third_api = make_player()
    race = create(host_api, players=4)
    join(guest_api, race)

    left = guest_api.post(url(race, "leave"))
    assert left.status_code == 200 and len(left.json()["racers"]) == 1
    assert not Racer.objects.filter(race_id=race["id"], player=guest).exists()

    join(third_api, race)
    cancelled = host_api.post(url(race, "leave")).json()
    assert cancelled["status"] == "cancelled"
    assert_problem(guest_api.post("races/join", {"code": race["code"]}), 409, "race_started")


def test_nobody_leaves_a_started_race(make_player):
    _, host_api = make_player()
    _, guest_api = make_player()
    race = raced(host_api, guest_api)
    assert_problem(guest_api.post(url(race, "leave")), 409, "race_started")
    assert Racer.objects.filter(race_id=race["id"]).count() == 2


def test_the_list_pages_the_callers_races_newest_first(make_player):
    _, host_api = make_player()
    _, other_api = make_player()
    made = [create(host_api)["id"] for _ in range(3)]
    create(other_api)

    first = host_api.get(RACES, {"limit": 2}).json()
    assert [r["id"] for r in first["results"]] == made[::-1][:2]
    rest = host_api.get(first["next"]).json()
    assert [r["id"] for r in rest["results"]] == made[:1] and rest["next"] is None
    assert_problem(host_api.get(RACES, {"cursor": "garbage"}), 400, "invalid")
    assert_problem(host_api.get(RACES, {"limit": 0}), 400, "invalid")


def test_a_key_sent_again_with_another_body_is_refused_and_changes_nothing(player_api):
    create(player_api)
    first = player_api.post(RACES, {"players": 2, "minutes": 3}, HTTP_IDEMPOTENCY_KEY="same")
    assert first.status_code == 201
    again = player_api.post(RACES, {"players": 3, "minutes": 3}, HTTP_IDEMPOTENCY_KEY="same")
    assert_problem(again, 422, "idempotency_key_reused")
    assert Race.objects.count() == 2


def test_a_stranger_can_neither_leave_nor_start_nor_race_again(make_player):
    _, host_api = make_player()
    _, stranger_api = make_player()
    race = create(host_api)
    for action in ("leave", "start", "again", "join"):
        assert_problem(stranger_api.post(url(race, action)), 404, "race_not_found")
    assert_problem(stranger_api.get(url(race, "replays")), 404, "race_not_found")
    assert_problem(host_api.get(url(race, "replays")), 409, "race_not_finished")
    assert Race.objects.get(pk=race["id"]).status == "waiting"
