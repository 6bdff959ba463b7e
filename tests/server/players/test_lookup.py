"""``GET /players/by-name?name=``: a player by display name, compared as names are for
uniqueness, so that a challenge needs no id copied by hand; precise refusals."""

from __future__ import annotations

import pytest

from tests.server.conftest import assert_problem

pytestmark = pytest.mark.django_db
BY_NAME = "players/by-name"


@pytest.mark.parametrize("asked", ["Ada Lovelace", "ada lovelace", "ADA  LOVELACE",
                                   "Ａｄａ Lovelace", "Аda Lovelace"])  # Cyrillic А
def test_a_name_finds_its_player_as_names_compare(api, make_player, asked):
    ada, _ = make_player("Ada Lovelace")
    make_player("Adam")
    response = api.get(BY_NAME, {"name": asked})
    assert response.status_code == 200, response.content
    assert response.json() == {"id": str(ada.pk), "name": "Ada Lovelace", "bot": False}


def test_the_id_found_challenges_the_player(make_player):
    bob, bob_api = make_player("Bob")
    assert bob_api.patch("players/me", {"challenges": "anyone"}).status_code == 200
    _, ada_api = make_player("Ada")
    found = ada_api.get(BY_NAME, {"name": "bob"}).json()
    response = ada_api.post("spite-malice/matches", {"opponent": "friend",
                                                     "invitee": found["id"]})
    assert response.status_code == 201, response.content
    assert response.json()["invitee"]["id"] == str(bob.pk)


def test_a_bot_account_says_so(api, make_player):
    _, bot_api = make_player("Robo")
    assert bot_api.patch("players/me", {"bot": True}).status_code == 200
    assert api.get(BY_NAME, {"name": "robo"}).json()["bot"] is True


def test_nobody_by_that_name_is_404(api, make_player):
    make_player("Ada")
    body = assert_problem(api.get(BY_NAME, {"name": "Eve"}), 404, "not_found")
    assert "Eve" in body["detail"]


@pytest.mark.parametrize("query", [{}, {"name": ""}, {"name": "A"}, {"name": "x" * 25},
                                   {"name": "Ada", "id": "1"}, {"name": "A\u200bda"}])
def test_a_name_no_player_could_have_or_a_bad_query_is_400(api, query):
    assert_problem(api.get(BY_NAME, query), 400, "invalid")
