"""Tokens as the API shows them: random ids that count nothing, and labels the client chooses."""

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import RequestFactory
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from server.players.models import AccessToken, Player
from server.players.tokens import authenticated_player, authenticated_token, token_create
from tests.server.conftest import Api, assert_problem

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]
PASSWORD = "difference-engine-1843"


def _tokens(api: Api) -> list[dict]:
    response = api.get("players/me/tokens")
    assert response.status_code == 200
    return response.json()


def _sign_in(api: Api, **body):
    return api.post("sessions", {"username": "ada", "password": PASSWORD, **body})


@pytest.fixture
def claimed(player_api) -> Api:
    assert player_api.post("players/me/claim",
                           {"username": "ada", "password": PASSWORD}).status_code == 200
    return player_api


def test_token_ids_are_random_not_a_count(claimed, api):
    for _ in range(3):
        _sign_in(api)
    ids = [token["id"] for token in _tokens(claimed)]
    assert len(ids) == 4
    assert all(uuid.UUID(token_id).version == 4 for token_id in ids)
    primary_keys = {str(pk) for pk in AccessToken.objects.values_list("pk", flat=True)}
    assert not primary_keys & set(ids)


def test_one_token_by_its_id(claimed, api):
    other = _sign_in(api, label="Laptop").json()["token"]
    tokens = {token["label"]: token for token in _tokens(claimed)}
    response = claimed.get(f"players/me/tokens/{tokens['Laptop']['id']}")
    assert response.status_code == 200
    assert response.json() == {**tokens["Laptop"], "current": False}
    assert Api(other).get(f"players/me/tokens/{tokens['Laptop']['id']}").json()["current"]


def test_revoking_by_id_signs_that_device_out(claimed, api):
    other = Api(_sign_in(api).json()["token"])
    other_id = next(token["id"] for token in _tokens(claimed) if not token["current"])
    assert claimed.delete(f"players/me/tokens/{other_id}").status_code == 204
    assert_problem(other.get("players/me"), 401, "not_authenticated")
    assert_problem(claimed.get(f"players/me/tokens/{other_id}"), 404, "not_found")


def test_another_players_token_id_is_not_found(make_player):
    (_, first), (second_player, second) = make_player(), make_player()
    their_id = AccessToken.objects.get(player=second_player).public_id
    assert_problem(first.get(f"players/me/tokens/{their_id}"), 404, "not_found")
    assert_problem(first.delete(f"players/me/tokens/{their_id}"), 404, "not_found")
    assert second.get("players/me").status_code == 200


def test_a_sequential_id_names_no_token(player_api):
    primary_key = AccessToken.objects.get().pk
    assert_problem(player_api.delete(f"players/me/tokens/{primary_key}"), 404, "not_found")
    assert AccessToken.objects.count() == 1


@pytest.mark.parametrize("label", ["Ada's phone", "Телефон Ады", "x", "📱 2", "y" * 64,
                                   "Ada\u00a0phone"])
def test_a_label_chosen_at_sign_in_names_the_device(claimed, api, label):
    assert _sign_in(api, label=label).status_code == 201
    assert {token["label"] for token in _tokens(claimed) if not token["current"]} == {label}


def test_a_label_chosen_by_a_new_guest(api):
    token = api.post("players", {"name": "Ada", "label": "Kitchen tablet"}).json()["token"]
    assert [token["label"] for token in _tokens(Api(token))] == ["Kitchen tablet"]


def test_without_a_label_the_user_agent_names_the_device(api):
    token = api.post("players", {}, HTTP_USER_AGENT="Mozilla/5.0 " + "x" * 100).json()["token"]
    [listed] = _tokens(Api(token))
    assert listed["label"] == ("Mozilla/5.0 " + "x" * 100)[:64]


@pytest.mark.parametrize("label", ["", "   ", " Phone", "Phone ", "\x1f", "tab\there", "x" * 65, 7,
                                   None, "nul\x00", "\x85", "C1\x9fcontrol", "Phone\n",
                                   "\u00a0Phone", "Phone\u3000", "\u202eenohP", "Pho\u202ene",
                                   "Phone\u2066x\u2069", "\u200fPhone", "a\u061cb"])
def test_bad_labels_are_refused(claimed, api, label):
    assert_problem(_sign_in(api, label=label), 400, "invalid")
    assert_problem(api.post("players", {"label": label}), 400, "invalid")
    assert len(_tokens(claimed)) == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_tokens_distinct_random_ids():
    executor = MigrationExecutor(connection)
    before, after = [("players", "0001_initial")], [("players", "0002_accesstoken_public_id")]
    executor.migrate(before)
    try:
        old_apps = executor.loader.project_state(before).apps
        OldPlayer = old_apps.get_model("players", "Player")
        OldToken = old_apps.get_model("players", "AccessToken")
        player = OldPlayer.objects.create(name="Ada", name_key="ada", password="!")
        for number in range(3):
            OldToken.objects.create(player=player, key_hash=f"{number:064d}")
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        NewToken = executor.loader.project_state(after).apps.get_model("players", "AccessToken")
        public_ids = list(NewToken.objects.values_list("public_id", flat=True))
        assert len(public_ids) == 3 and len(set(public_ids)) == 3
        assert all(public_id.version == 4 for public_id in public_ids)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_staff_find_a_token_by_the_id_the_api_shows(client, player_api):
    client.force_login(Player.objects.create_superuser("root", "a-long-admin-passphrase"))
    [token] = _tokens(player_api)
    found = client.get("/admin/players/accesstoken/", {"q": token["id"]})
    assert found.status_code == 200 and token["id"] in found.content.decode()
    assert "0 access tokens" in client.get("/admin/players/accesstoken/",
                                           {"q": str(uuid.uuid4())}).content.decode()


def test_a_view_names_the_request_s_player_and_token_only_once_authenticated():
    """``authenticated_player`` and ``authenticated_token``: what the bearer token gave, and a
    401 for a request without one (the typed way views read ``request.user``)."""
    player = Player.objects.create_user(name="Ada")
    access, _ = token_create(player=player)
    signed = Request(RequestFactory().get("/"))
    signed.user, signed.auth = player, access
    assert authenticated_player(signed) == player and authenticated_token(signed) == access
    anonymous = Request(RequestFactory().get("/"))
    anonymous.user, anonymous.auth = AnonymousUser(), None
    with pytest.raises(NotAuthenticated):
        authenticated_player(anonymous)
    with pytest.raises(NotAuthenticated):
        authenticated_token(anonymous)
