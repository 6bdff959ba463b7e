"""A race's deal fixed before its first card: one server seed committed at its creation, the
deck dealt from HMAC(server seed, the racers' client seeds in seat order), the seeds shown
with the ranking and nothing before, and a replay that ``python -m foursquare verify``
checks."""

from __future__ import annotations

import json

import pytest

from fairness import deal_seed, server_seed_commitment
from foursquare import deal
from foursquare.cli import main as foursquare_main
from server.fairness.models import SeedCommitment
from server.foursquare.models import Race
from server.foursquare.races import services
from tests.server.conftest import assert_problem
from tests.server.foursquare.races.support import RACES, create, open_now, start, time_up, url

pytestmark = pytest.mark.sqlite


def seeds_of(race_id) -> SeedCommitment:
    return SeedCommitment.objects.select_related("entry").get(
        entry__game="foursquare", entry__subject=f"race/{race_id}")


@pytest.fixture
def two(make_player):
    (_, host), (_, guest) = make_player("Ada"), make_player("Bob")
    return host, guest


def test_a_race_is_dealt_from_its_committed_seed_and_every_racers_client_seed(two):
    host, guest = two
    race = create(host, players=3, client_seed="host's")
    assert race["fairness"]["commitment"] and "server_seed" not in race["fairness"]
    response = guest.post("races/join", {"code": race["code"], "client_seed": "guest's"})
    assert response.status_code == 200, response.content
    race = start(host, race)
    seeds = seeds_of(race["id"])
    assert seeds.client_seeds == ["host's", "guest's"]
    assert seeds.entry.commitment == server_seed_commitment(
        "foursquare", f"race/{race['id']}", seeds.server_seed)
    dealt = Race.objects.select_related("deal").get(pk=race["id"])
    assert dealt.deal.cards.split() == [
        str(card) for card in deal(deal_seed(seeds.server_seed, ["host's", "guest's"]))]
    assert seeds.entry.committed_at <= dealt.started_at
    text = json.dumps(host.get(url(race)).json())
    assert seeds.server_seed not in text and "guest's" not in text


def test_a_racer_who_sends_no_client_seed_gets_a_random_one(two):
    host, guest = two
    race = create(host, players=3)
    guest.post("races/join", {"code": race["code"]})
    start(host, race)
    assert all(len(seed) == 32 for seed in seeds_of(race["id"]).client_seeds)


@pytest.mark.parametrize("bad", ["", "y" * 65, "\u0663\u0664", "tab\there", 7])
def test_a_bad_client_seed_is_a_400_naming_it(player_api, bad):
    body = assert_problem(player_api.post(RACES, {"players": 2, "minutes": 3,
                                                  "client_seed": bad}), 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["client_seed"]


def test_the_seeds_come_with_the_ranking_and_verify(two, tmp_path, capsys):
    host, guest = two
    race = create(host, players=3, client_seed="h")
    guest.post("races/join", {"code": race["code"], "client_seed": "g"})
    race = start(host, race)
    open_now(race["id"])
    assert "server_seed" not in host.get(url(race)).json()["fairness"]
    time_up(race["id"])
    services.race_close_if_due(race["id"])
    shown = host.get(url(race)).json()
    assert shown["status"] == "finished"
    assert shown["fairness"]["client_seeds"] == ["h", "g"]
    replays = host.get(url(race, "replays")).json()
    path = tmp_path / "race.json"
    path.write_text(json.dumps(replays))
    assert foursquare_main(["verify", "--record", str(path)]) == 0
    assert "BAD" not in capsys.readouterr().out

    replays["deck"][0], replays["deck"][1] = replays["deck"][1], replays["deck"][0]
    path.write_text(json.dumps(replays))
    assert foursquare_main(["verify", "--record", str(path)]) == 1
    assert "deal: BAD" in capsys.readouterr().out
