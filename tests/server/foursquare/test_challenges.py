"""GET /challenges/{game_id}: the result a challenge link stands for, read from the server so a
link cannot claim one, and nothing of the game beyond it."""

from __future__ import annotations

import uuid

import pytest

from server.foursquare.models import Deal, Game
from tests.server.conftest import assert_problem
from tests.server.foursquare.test_games import play_to_the_end
from tests.server.results import WINNING_DECK, WINNING_MOVES

FIELDS = {"game", "deal", "status", "score", "name"}


@pytest.fixture
def challenger(make_player):
    return make_player("Eve Challenger")


def test_a_finished_practice_game_shows_its_outcome_to_anyone(api, challenger):
    _, eve = challenger
    game = eve.post("games", {"mode": "practice"}).json()
    finished = play_to_the_end(eve, game)

    response = api.get(f"challenges/{game['id']}")

    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == FIELDS  # no grid, no moves, no cards: nothing the link's reader lacks
    assert body["game"] == game["id"] and body["deal"] == game["deal"]
    assert body["status"] == finished["status"]
    assert body["score"] == (finished["score"] if finished["status"] == "won" else None)
    assert body["name"] == "Eve Challenger"


def test_a_won_game_shows_its_score(api, challenger):
    _player, eve = challenger
    deal = Deal.objects.create(cards=WINNING_DECK)
    game = eve.post("games", {"mode": "practice", "deal": deal.pk}).json()
    for row, col in WINNING_MOVES:
        response = eve.post(f"games/{game['id']}/moves", {"row": row, "col": col})
        assert response.status_code == 200, response.content

    body = api.get(f"challenges/{game['id']}").json()

    assert (body["status"], body["score"], body["deal"]) == ("won", 0, deal.pk)


def test_the_name_is_the_challengers_current_one(api, challenger):
    _, eve = challenger
    game = play_to_the_end(eve, eve.post("games", {"mode": "practice"}).json())
    assert eve.patch("players/me", {"name": "Eve Renamed"}).status_code == 200

    assert api.get(f"challenges/{game['id']}").json()["name"] == "Eve Renamed"


def test_a_game_still_being_played_is_not_a_challenge(api, challenger):
    _, eve = challenger
    game = eve.post("games", {"mode": "practice"}).json()

    assert_problem(api.get(f"challenges/{game['id']}"), 404, "not_found")


def test_a_daily_is_not_a_challenge(api, challenger):
    _, eve = challenger
    game = play_to_the_end(eve, eve.post("games", {"mode": "daily"}).json())
    assert Game.objects.get(pk=game["id"]).mode == "daily"

    assert_problem(api.get(f"challenges/{game['id']}"), 404, "not_found")


def test_an_unknown_or_malformed_id_is_404(db, api):
    assert_problem(api.get(f"challenges/{uuid.uuid4()}"), 404, "not_found")
    assert_problem(api.get("challenges/won-99"), 404, "not_found")


def test_it_changes_nothing_and_takes_no_body_or_unknown_query(api, challenger):
    _, eve = challenger
    game = play_to_the_end(eve, eve.post("games", {"mode": "practice"}).json())
    before = Game.objects.get(pk=game["id"]).updated_at

    assert_problem(api.post(f"challenges/{game['id']}", {}), 405, "method_not_allowed")
    assert_problem(api.get(f"challenges/{game['id']}", {"r": "won-99"}), 400, "invalid")
    assert Game.objects.get(pk=game["id"]).updated_at == before
