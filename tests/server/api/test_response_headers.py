"""The headers every answer owes: Location on a 201, no-store on a token, Vary on a read that
depends on the token (server.api.headers)."""

import uuid

import pytest

from tests.server.conftest import Api

pytestmark = pytest.mark.django_db
PASSWORD = "difference-engine-1843"


def _vary(response) -> set[str]:
    return {name.strip().lower() for name in response.get("Vary", "").split(",") if name.strip()}


def _follow(api: Api, response) -> dict:
    """The resource at the response's Location, fetched with ``api``."""
    location = response["Location"]
    assert location.startswith("http://testserver/api/v1/"), location
    followed = api.get(location)
    assert followed.status_code == 200, followed.content
    return followed.json()


# --- Location ------------------------------------------------------------------------------------


def test_a_new_guest_is_located_at_its_public_profile(api):
    response = api.post("players", {"name": "Ada"})
    assert response.status_code == 201
    body = response.json()
    assert response["Location"] == f"http://testserver/api/v1/players/{body['id']}"
    assert _follow(Api(body["token"]), response)["player"] == {"id": body["id"], "name": "Ada",
                                                               "bot": False}


def test_a_sign_in_is_located_at_its_token(player_api, api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    response = api.post("sessions", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 201
    token = _follow(Api(response.json()["token"]), response)
    assert token["current"] is True
    assert response["Location"].endswith(f"/players/me/tokens/{token['id']}")


def test_a_new_game_is_located_at_itself(player_api):
    response = player_api.post("games", {"mode": "practice"})
    assert response.status_code == 201
    assert _follow(player_api, response) == response.json()


def test_a_retried_creation_is_located_like_the_first(player_api):
    key = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())}
    first = player_api.post("games", {"mode": "practice"}, **key)
    again = player_api.post("games", {"mode": "practice"}, **key)
    assert again.status_code == 201 and again["Location"] == first["Location"]


def test_the_daily_is_located_when_created_and_not_when_resumed(player_api):
    created = player_api.post("games", {"mode": "daily"})
    resumed = player_api.post("games", {"mode": "daily"})
    assert created.status_code == 201 and _follow(player_api, created)["mode"] == "daily"
    assert resumed.status_code == 200 and "Location" not in resumed


def test_a_new_league_is_located_at_itself(player_api):
    response = player_api.post("leagues", {"name": "Friday Patience"})
    assert response.status_code == 201
    assert _follow(player_api, response)["id"] == response.json()["id"]


# --- Cache-Control on tokens ---------------------------------------------------------------------


def test_answers_that_carry_a_token_are_not_stored(player_api, api):
    guest = api.post("players", {})
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    signed_in = api.post("sessions", {"username": "ada", "password": PASSWORD})
    for response in (guest, signed_in):
        assert "token" in response.json()
        assert response["Cache-Control"] == "no-store"


def test_answers_without_a_token_keep_the_default_caching(player_api):
    assert "Cache-Control" not in player_api.get("players/me")


# --- Vary: Authorization -------------------------------------------------------------------------


# "{today}" is filled in when the test runs, from the dailies' clock: a date written into the
# test's id at collection would differ between workers collecting on either side of midnight
# (xdist then refuses the run), and would name yesterday's board to a test run after it.
@pytest.mark.parametrize("path", [
    "daily", "leaderboard", "leaderboard?period=week", "daily/{today}/leaderboard",
    "players/me", "players/me/tokens", "players/me/stats", "games", "leagues",
])
def test_reads_that_depend_on_the_token_vary_by_it(player_api, api, dailies_clock, path):
    path = path.format(today=dailies_clock.today.isoformat())
    for client in (player_api, api):
        response = client.get(path)
        assert "authorization" in _vary(response), (path, response.status_code)


def test_a_board_read_without_a_token_varies_by_it_too(api, make_player):
    """The same URL answers differently with a token (``me``, ``standing``), so a cache must
    not give the anonymous answer to a signed-in player, or the other way round."""
    _, player = make_player("Ada")
    anonymous, signed_in = api.get("leaderboard"), player.get("leaderboard")
    assert anonymous.json()["standing"] is None and signed_in.json()["standing"] is not None
    assert "authorization" in _vary(anonymous) and "authorization" in _vary(signed_in)


def test_writes_do_not_vary(player_api):
    assert "Vary" not in player_api.post("games", {"mode": "practice"})
