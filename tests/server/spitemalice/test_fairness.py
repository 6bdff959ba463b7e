"""A match's deal fixed before its first card: a fresh server seed committed at creation, the
match seed HMAC(server seed, the players' client seeds in seat order), nothing of it shown
before the match is over, and then a record that ``python -m spitemalice verify`` checks."""

from __future__ import annotations

import json

import pytest

from fairness import deal_seed, server_seed_commitment
from server.fairness.models import LogEntry, SeedCommitment
from server.spitemalice.models import Match, MatchGame
from spitemalice import game_seed
from spitemalice.cli import main as spitemalice_main
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import MATCHES, invite, join
from tests.server.spitemalice.support import url

pytestmark = pytest.mark.sqlite


def seeds_of(match_id) -> SeedCommitment:
    return SeedCommitment.objects.select_related("entry").get(
        entry__game="spitemalice", entry__subject=f"match/{match_id}")


def test_a_bot_match_is_dealt_from_its_committed_server_seed_and_the_client_seed(player_api):
    response = player_api.post(MATCHES, {"opponent": "bot", "level": "easy", "target": 1,
                                         "client_seed": "my own luck"})
    assert response.status_code == 201, response.content
    shown = player_api.get(url(response.json(), "/fairness")).json()
    seeds = seeds_of(response.json()["id"])
    match = Match.objects.get(pk=response.json()["id"])
    assert seeds.client_seeds == ["my own luck", None]  # the bot's seat gives none
    assert match.seed == deal_seed(seeds.server_seed, ["my own luck", None]).hex()
    assert seeds.entry.commitment == server_seed_commitment(
        "spitemalice", f"match/{match.pk}", seeds.server_seed) == shown["commitment"]
    assert seeds.entry.committed_at <= match.started_at
    assert "server_seed" not in shown and "client_seeds" not in shown
    text = json.dumps(player_api.get(url(response.json())).json())
    assert seeds.server_seed not in text and match.seed not in text


def test_a_player_who_sends_no_client_seed_gets_a_random_one(player_api):
    response = player_api.post(MATCHES, {"opponent": "bot", "level": "easy", "target": 1})
    first, bot = seeds_of(response.json()["id"]).client_seeds
    assert len(first) == 32 and bot is None


@pytest.mark.parametrize("bad", ["", "x" * 65, "caf\u00e9", "line\nbreak", 5, None, ["a"]])
def test_a_client_seed_that_is_not_short_printable_ascii_is_a_400_naming_it(player_api, bad):
    body = assert_problem(player_api.post(MATCHES, {"opponent": "bot", "level": "easy",
                                                    "client_seed": bad}), 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["client_seed"]
    assert not LogEntry.objects.exists()


BOT_COMMITMENT = "/api/v1/spite-malice/bot-commitment"


def test_against_the_bot_the_server_seed_is_committed_before_the_player_chooses_a_seed(
        player_api):
    """The house-bot case (docs/FAIRNESS.md): the player sees the commitment first, then
    sends the client seed it is mixed with, so the server could not pick its seed knowing
    the player's: the match is the one the commitment's subject names, dealt from both."""
    offered = player_api.post(BOT_COMMITMENT)
    assert offered.status_code == 200, offered.content
    shown = offered.json()
    assert set(shown) == {"commitment", "committed_at", "seq", "subject"}  # no seed yet
    seeds = SeedCommitment.objects.get(entry__seq=shown["seq"])
    assert seeds.client_seeds == [None, None]  # no seat's seed is known when it is committed
    assert player_api.post(BOT_COMMITMENT).json() == shown  # the same until a match takes it
    assert not Match.objects.exists() and not MatchGame.objects.exists()

    response = player_api.post(MATCHES, {"opponent": "bot", "level": "easy", "target": 1,
                                         "client_seed": "chosen after",
                                         "commitment": shown["commitment"]})
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert shown["subject"] == f"match/{match.pk}"
    assert player_api.get(url(response.json(), "/fairness")).json() == shown
    seeds.refresh_from_db()
    assert seeds.client_seeds == ["chosen after", None]
    assert match.seed == deal_seed(seeds.server_seed, ["chosen after", None]).hex()
    assert seeds.entry.commitment == server_seed_commitment(
        "spitemalice", shown["subject"], seeds.server_seed)

    again = player_api.post(BOT_COMMITMENT).json()  # taken: the next match gets a new one
    assert again["seq"] > shown["seq"] and again["subject"] != shown["subject"]
    assert_problem(player_api.post(MATCHES, {"opponent": "bot", "level": "easy",
                                             "client_seed": "twice",
                                             "commitment": shown["commitment"]}),
                   409, "commitment_unavailable")


def test_a_commitment_offered_to_another_player_or_unknown_deals_nothing(make_player):
    (_, ada), (_, bob) = make_player("Ada"), make_player("Bob")
    adas = ada.post(BOT_COMMITMENT).json()
    for commitment in (adas["commitment"], "0" * 64):
        assert_problem(bob.post(MATCHES, {"opponent": "bot", "level": "easy",
                                          "client_seed": "mine", "commitment": commitment}),
                       409, "commitment_unavailable")
    assert not Match.objects.exists()
    bobs = bob.post(BOT_COMMITMENT).json()
    assert_problem(bob.post(MATCHES, {"opponent": "bot", "level": "easy",
                                      "commitment": bobs["commitment"]}),
                   422, "client_seed_required")


def test_a_friend_match_mixes_both_players_client_seeds_in_seat_order(make_player):
    (_, ada), (_, bob) = make_player("Ada"), make_player("Bob")
    waiting = invite(ada, client_seed="ada's")
    assert ada.get(url(waiting, "/fairness")).json()["commitment"]  # before anything is dealt
    assert not MatchGame.objects.filter(match_id=waiting["id"]).exists()
    assert seeds_of(waiting["id"]).client_seeds == ["ada's", None]  # Bob's when he joins
    response = join(bob, waiting["invite"]["code"])
    assert response.status_code == 200, response.content
    seeds = seeds_of(waiting["id"])
    assert seeds.client_seeds[0] == "ada's" and len(seeds.client_seeds[1]) == 32
    match = Match.objects.get(pk=waiting["id"])
    assert match.seed == deal_seed(seeds.server_seed, seeds.client_seeds).hex()
    game = MatchGame.objects.get(match=match, number=1)
    assert game.seed == game_seed(bytes.fromhex(match.seed), 0).hex()


def test_the_joiner_s_client_seed_is_theirs(make_player):
    (_, ada), (_, bob) = make_player("Ada"), make_player("Bob")
    waiting = invite(ada, client_seed="ada's")
    response = bob.post(f"{MATCHES}/join",
                        {"code": waiting["invite"]["code"], "client_seed": "bob's"})
    assert response.status_code == 200, response.content
    seeds = seeds_of(waiting["id"])
    assert seeds.client_seeds == ["ada's", "bob's"]
    assert Match.objects.get(pk=waiting["id"]).seed == deal_seed(
        seeds.server_seed, ["ada's", "bob's"]).hex()
    assert deal_seed(seeds.server_seed, ["ada's", "bob's"]) != deal_seed(
        seeds.server_seed, ["bob's", "ada's"])


def test_the_record_reveals_the_seeds_once_the_match_is_over_and_verifies(
        player_api, tmp_path, capsys):
    match = player_api.post(MATCHES, {"opponent": "bot", "level": "easy", "target": 50,
                                      "client_seed": "x"}).json()
    assert player_api.post(url(match, "/resign")).status_code == 200
    record = player_api.get(url(match, "/games/1/record")).json()
    assert player_api.get(url(match, "/fairness")).json()["client_seeds"] == ["x", None]
    seeds = seeds_of(match["id"])
    assert record["fairness"]["server_seed"] == seeds.server_seed
    assert record["fairness"]["client_seeds"] == ["x", None]
    assert record["fairness"]["game"] == 1
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert spitemalice_main(["verify", "--record", str(path)]) == 0
    assert "BAD" not in capsys.readouterr().out

    record["fairness"]["client_seeds"] = ["y", None]
    path.write_text(json.dumps(record))
    assert spitemalice_main(["verify", "--record", str(path)]) == 1
    assert "game 1: BAD" in capsys.readouterr().out

    record["fairness"]["server_seed"] = "00" * 32
    path.write_text(json.dumps(record))
    assert spitemalice_main(["verify", "--record", str(path)]) == 1
    assert "does not match the commitment" in capsys.readouterr().out


def test_a_daily_has_no_server_seed_its_date_is_committed(player_api):
    response = player_api.post(MATCHES, {"mode": "daily"})
    assert response.status_code == 201, response.content
    assert_problem(player_api.get(url(response.json(), "/fairness")), 404, "not_found")
    assert LogEntry.objects.filter(kind="daily", game="spitemalice").count() == 1
