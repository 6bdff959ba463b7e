"""Idempotency-Key: a retry with the same key and body gets the stored first response."""

import pytest

from server.games.models import Game, Move

from .conftest import assert_problem

pytestmark = pytest.mark.django_db


def test_retry_of_a_move_returns_the_first_response(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    first = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    retry = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == retry.status_code == 200
    assert first.json() == retry.json()
    assert Move.objects.count() == 1


def test_retry_of_the_winning_or_losing_move_still_answers(player_api, practice_game):
    game = practice_game
    while game["status"] == "playing":
        row, col = game["legal_moves"][0]
        body = {"row": row, "col": col, "move": game["moves_played"]}
        key = f"move-{game['moves_played']}"
        game = player_api.post(f"games/{game['id']}/moves", body, HTTP_IDEMPOTENCY_KEY=key).json()
    retry = player_api.post(f"games/{game['id']}/moves", body, HTTP_IDEMPOTENCY_KEY=key)
    assert retry.status_code == 200 and retry.json() == game


def test_same_key_with_another_body_is_refused(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    assert_problem(player_api.post(url, {"row": 0, "col": 1, "move": 1},
                                   HTTP_IDEMPOTENCY_KEY="k1"), 422, "idempotency_key_reused")
    assert Move.objects.count() == 1


def test_keys_belong_to_one_player(player_api, make_player):
    _, other = make_player()
    mine = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")
    theirs = other.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")
    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]


def test_retry_of_game_creation_creates_one_game(player_api):
    first = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="new-game")
    retry = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="new-game")
    assert first.status_code == retry.status_code == 201
    assert first.json()["id"] == retry.json()["id"]
    assert Game.objects.count() == 1


def test_rejected_requests_are_not_stored(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    assert_problem(player_api.post(url, {"row": 3, "col": 3, "move": 0},
                                   HTTP_IDEMPOTENCY_KEY="bad"), 422, "illegal_move")
    # The same key can then carry the corrected request.
    fixed = player_api.post(url, {"row": 3, "col": 3, "move": 0}, HTTP_IDEMPOTENCY_KEY="bad")
    assert fixed.status_code == 422


@pytest.mark.parametrize("key", ["", " ", "x" * 256, "tab\tkey"])
def test_malformed_keys_are_invalid(player_api, practice_game, key):
    url = f"games/{practice_game['id']}/moves"
    assert_problem(player_api.post(url, {"row": 0, "col": 0}, HTTP_IDEMPOTENCY_KEY=key), 400,
                   "invalid")
    assert not Move.objects.exists()
