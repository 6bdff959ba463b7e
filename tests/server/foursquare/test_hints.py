"""Hints: the bot's suggestion in practice and archive games, never in a ranked daily."""

from __future__ import annotations

import pytest

from server.foursquare.models import Game
from tests.server.conftest import assert_problem
from tests.server.foursquare.test_games import play_to_the_end


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_HINT_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}


def test_practice_game_gets_a_legal_hint(player_api, practice_game):
    response = player_api.get(f"games/{practice_game['id']}/hint")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["move"] in practice_game["legal_moves"]
    assert sorted(estimate["move"] for estimate in body["estimates"]) == \
        sorted(practice_game["legal_moves"])
    assert body["estimates"][0]["move"] == body["move"]


def test_hint_changes_nothing(player_api, practice_game):
    player_api.get(f"games/{practice_game['id']}/hint")
    assert player_api.get(f"games/{practice_game['id']}").json() == practice_game


def test_daily_game_gets_no_hint(player_api):
    game = player_api.post("games", {"mode": "daily"}).json()
    assert_problem(player_api.get(f"games/{game['id']}/hint"), 403, "hints_not_allowed")
    assert player_api.get(f"games/{game['id']}").json() == game
    assert Game.objects.get(pk=game["id"]).moves_played == 0


def test_finished_game_gets_no_hint(player_api, practice_game):
    game = play_to_the_end(player_api, practice_game)
    assert_problem(player_api.get(f"games/{game['id']}/hint"), 409, "game_over")


def test_another_players_game_gets_no_hint(practice_game, make_player):
    _, other = make_player()
    assert_problem(other.get(f"games/{practice_game['id']}/hint"), 404, "not_found")


def test_hints_are_rate_limited_per_token(player_api, practice_game, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "hints.token": "2/min"}
    url = f"games/{practice_game['id']}/hint"
    assert [player_api.get(url).status_code for _ in range(2)] == [200, 200]
    refused = player_api.get(url)
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) >= 1
    assert player_api.get(f"games/{practice_game['id']}").status_code == 200  # other reads go on
