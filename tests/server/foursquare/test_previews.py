"""The game object's ``previews``: one per legal move, each what that move then does."""

import pytest

from server.foursquare.engine import game_output, rebuild
from server.foursquare.models import Game

pytestmark = pytest.mark.django_db


def test_each_move_does_what_its_preview_said(player_api, practice_game):
    game, turn = practice_game, 0
    while game["status"] == "playing":
        previews = game["previews"]
        assert [preview["at"] for preview in previews] == game["legal_moves"]
        # Every other turn the move that turns most, so flips are really checked.
        preview = (max(previews, key=lambda p: len(p["flipped"])) if turn % 2
                   else previews[turn % len(previews)])
        response = player_api.post(f"games/{game['id']}/moves",
                                   {"row": preview["at"][0], "col": preview["at"][1],
                                    "move": game["moves_played"]})
        assert response.status_code == 200, response.content
        game = response.json()
        assert game["last_move"]["at"] == preview["at"]
        assert game["last_move"]["flipped"] == preview["flipped"]
        assert (game["face_down"], game["status"]) == (preview["face_down"], preview["status"])
        turn += 1
    assert game["previews"] == [] and game["legal_moves"] == []


def test_an_unfinished_game_previews_nothing(player_api, practice_game):
    game = Game.objects.get(pk=practice_game["id"])
    game.status = Game.Status.UNFINISHED
    assert game_output(game, rebuild(game))["previews"] == []
