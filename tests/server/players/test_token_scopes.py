"""Token scopes: a token issued with ``play`` alone (a bot's) plays, but cannot change its
account's name, password or settings, mark it, nor list, make or revoke tokens: 403
``insufficient_scope``, with the scopes it has and the one it lacks. Tokens issued before
scopes, and by signing up or in, keep both."""

from __future__ import annotations

import pytest

from server.players.models import AccessToken
from tests.server.conftest import Api, assert_problem
from tests.server.spitemalice.support import act, start

pytestmark = pytest.mark.sqlite
TOKENS = "players/me/tokens"


@pytest.fixture
def owner(make_player):
    return make_player("Ada")


@pytest.fixture
def bot_token(owner) -> tuple[dict, Api]:
    _, api = owner
    response = api.post(TOKENS, {"label": "my bot", "scopes": ["play"]})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["scopes"] == ["play"] and body["label"] == "my bot" and body["token"]
    assert response["Location"].endswith(f"/api/v1/players/me/tokens/{body['id']}")
    return body, Api(body["token"])


def refused(response, scope="account") -> dict:
    body = assert_problem(response, 403, "insufficient_scope")
    assert body["type"].endswith("/insufficient_scope")
    assert body["scopes"] == ["play"] and body["required"] == scope
    return body


@pytest.mark.django_db(transaction=True)
def test_a_play_token_plays(bot_token):
    _, bot = bot_token
    assert bot.get("players/me").json()["name"] == "Ada"
    match = start(bot, level="easy", target=1)
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    assert act(bot, match, discard).status_code == 200
    assert bot.get("stream/events").status_code == 200
    assert bot.delete("sessions/current").status_code == 204  # it may sign itself out


def test_a_play_token_cannot_change_the_account(owner, bot_token, make_player):
    player, _ = owner
    _, bot = bot_token
    refused(bot.patch("players/me", {"name": "Mallory"}))
    refused(bot.patch("players/me", {"challenges": "anyone"}))
    refused(bot.patch("players/me", {"bot": True}))
    refused(bot.post("players/me/claim", {"username": "mallory", "password": "x9!long-pass"}))
    refused(bot.get(TOKENS))
    refused(bot.post(TOKENS, {"scopes": ["account", "play"]}))  # no climbing back
    other = AccessToken.objects.filter(player=player).exclude(scopes="play").get()
    refused(bot.get(f"{TOKENS}/{other.public_id}"))
    refused(bot.delete(f"{TOKENS}/{other.public_id}"))
    player.refresh_from_db()
    assert (player.name, player.username, player.bot) == ("Ada", None, False)
    assert AccessToken.objects.filter(player=player).count() == 2


def test_full_tokens_list_scopes_and_revoke_a_bot_token(owner, bot_token):
    _, api = owner
    body, bot = bot_token
    listed = {token["id"]: token["scopes"] for token in api.get(TOKENS).json()}
    assert listed[body["id"]] == ["play"] and sorted(listed.values()) == [
        ["account", "play"], ["play"]]
    assert api.delete(f"{TOKENS}/{body['id']}").status_code == 204
    assert_problem(bot.get("players/me"), 401, "not_authenticated")


@pytest.mark.parametrize("body", [{}, {"scopes": []}, {"scopes": ["admin"]},
                                  {"scopes": "play"}, {"scopes": ["play", "play"]},
                                  {"scopes": ["play"], "label": " x"},
                                  {"scopes": ["play"], "extra": 1}])
def test_bad_scopes_are_400_invalid(owner, body):
    _, api = owner
    assert_problem(api.post(TOKENS, body), 400, "invalid")


def test_tokens_from_signing_up_and_in_have_every_scope(api, owner):
    _, ada = owner
    assert ada.post("players/me/claim", {"username": "ada", "password": "x9!long-pass"}
                    ).status_code == 200
    signed_in = api.post("sessions", {"username": "ada", "password": "x9!long-pass"}).json()
    assert {tuple(token["scopes"]) for token in Api(signed_in["token"]).get(TOKENS).json()} == {
        ("account", "play")}
