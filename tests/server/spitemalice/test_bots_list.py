"""``GET /spite-malice/bots``: the house bot's levels, and the bot accounts online (seen in
the last minutes), the most recent first, with their ratings; nobody else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.players.models import AccessToken
from server.ratings.models import Rating
from server.spitemalice.bot_ratings import BOTS_GAME, house_player
from server.spitemalice.models import LEVELS
from server.spitemalice.views.bots import ONLINE_MINUTES
from tests.server.conftest import assert_problem

pytestmark = pytest.mark.django_db
BOTS = "spite-malice/bots"


def bot_account(make_player, name: str):
    player, api = make_player(name)
    assert api.patch("players/me", {"bot": True}).status_code == 200
    return player, api


def seen(player, minutes_ago: float) -> None:
    AccessToken.objects.filter(player=player).update(
        last_used_at=timezone.now() - timedelta(minutes=minutes_ago))


def test_the_house_levels_and_the_bot_accounts_seen_lately(api, make_player):
    robo, _ = bot_account(make_player, "Robo")
    deep, _ = bot_account(make_player, "Deep")
    gone, _ = bot_account(make_player, "Gone")
    person, _ = make_player("Ada")
    seen(robo, 1)
    seen(deep, 0)
    seen(gone, ONLINE_MINUTES + 1)
    seen(person, 0)
    # Bots are rated on their board beside the people's; a rating on the people's board (as
    # an account had before it became a bot) is not what the list shows.
    Rating.objects.create(game=BOTS_GAME, player=robo, rating=1612.4, deviation=80.5,
                          matches=12, provisional=False, updated_at=timezone.now())
    Rating.objects.create(game="spite-malice", player=deep, rating=1700.0, deviation=50.0,
                          matches=30, provisional=False, updated_at=timezone.now())
    Rating.objects.create(game=BOTS_GAME, player=house_player("hard"), rating=1750.6,
                          deviation=120.2, matches=7, provisional=False,
                          updated_at=timezone.now())
    response = api.get(BOTS)
    assert response.status_code == 200, response.content
    body = response.json()
    assert [house["level"] for house in body["house"]] == list(LEVELS)
    assert all(house["description"] for house in body["house"])
    assert {house["level"]: house["rating"] for house in body["house"]} == {
        "easy": None, "normal": None, "expert": None,
        "hard": {"rating": 1751, "deviation": 120, "matches": 7, "provisional": False}}
    assert [entry["player"]["name"] for entry in body["online"]] == ["Deep", "Robo"]
    assert [entry["player"]["bot"] for entry in body["online"]] == [True, True]
    assert body["online"][1]["rating"] == {"rating": 1612, "deviation": 81, "matches": 12,
                                           "provisional": False}
    assert body["online"][0]["rating"] is None
    assert body["online_minutes"] == ONLINE_MINUTES


def test_a_bot_that_uses_its_token_comes_online(api, make_player):
    robo, robo_api = bot_account(make_player, "Robo")
    seen(robo, ONLINE_MINUTES + 5)
    assert api.get(BOTS).json()["online"] == []
    assert robo_api.get("players/me").status_code == 200  # its last use is written again
    assert [entry["player"]["id"] for entry in api.get(BOTS).json()["online"]] == [str(robo.pk)]


def test_limit_bounds_the_online_list(api, make_player):
    for name in ("Robo", "Deep"):
        seen(bot_account(make_player, name)[0], 0)
    assert len(api.get(BOTS, {"limit": "1"}).json()["online"]) == 1
    assert len(api.get(BOTS).json()["online"]) == 2


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "101"}, {"limit": "x"},
                                   {"limit": ""}, {"online": "1"}])
def test_a_bad_or_unknown_parameter_is_400(api, query):
    assert_problem(api.get(BOTS, query), 400, "invalid")
