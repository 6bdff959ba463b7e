"""Players: guests, tokens, names, claiming, signing in and out."""

import pytest
from django.conf import global_settings

from server.players.models import AccessToken, Player
from tests.server.conftest import Api, assert_problem

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]
PASSWORD = "difference-engine-1843"


def test_guest_player_is_created_with_a_token(api):
    response = api.post("players", {"name": "Ada"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "bot", "token"} and body["name"] == "Ada"
    assert body["bot"] is False
    me = Api(body["token"]).get("players/me")
    assert me.status_code == 200 and me.json()["id"] == body["id"] and me.json()["guest"]


def test_guest_without_a_name_gets_one(api):
    body = api.post("players", {}).json()
    assert body["name"].startswith("Player ")


def test_only_the_token_hash_is_stored(api):
    body = api.post("players", {}).json()
    assert not AccessToken.objects.filter(key_hash=body["token"]).exists()
    assert AccessToken.objects.get(player_id=body["id"]).key_hash != body["token"]


def test_a_guest_is_never_replayed_from_an_idempotency_key(api):
    """A replay would hand the account's one token to anyone who sent the same key
    (docs/API.md): the same key makes another guest, with a token of its own."""
    first = api.post("players", {}, HTTP_IDEMPOTENCY_KEY="sign-up-1")
    again = api.post("players", {}, HTTP_IDEMPOTENCY_KEY="sign-up-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] != again.json()["id"]
    assert first.json()["token"] != again.json()["token"]
    named = api.post("players", {"name": "Ada"}, HTTP_IDEMPOTENCY_KEY="sign-up-2")
    assert named.status_code == 201
    assert_problem(api.post("players", {"name": "Ada"}, HTTP_IDEMPOTENCY_KEY="sign-up-2"), 409,
                   "name_taken")
    assert Player.objects.filter(name="Ada").count() == 1


@pytest.mark.parametrize("header", [None, "Bearer nope", "Bearer", "Token abc", "Bearer a b"])
def test_protected_endpoints_need_a_valid_token(api, header):
    if header:
        api.client.credentials(HTTP_AUTHORIZATION=header)
    body = assert_problem(api.get("players/me"), 401, "not_authenticated")
    assert body["detail"]


def test_401_names_the_bearer_scheme(api):
    response = api.get("games")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "name", ["", "a", "x" * 25, "bad\x00name", "zero\u200bwidth", "rtl\u202eoverride", 12, None]
)
def test_bad_display_names_are_refused(player_api, name):
    assert_problem(player_api.patch("players/me", {"name": name}), 400, "invalid")


@pytest.mark.parametrize("name", ["\u200bAda", "Ada\n", "Ada\u2800"])
def test_names_with_invisible_edges_are_refused(player_api, name):
    assert_problem(player_api.patch("players/me", {"name": name}), 400, "invalid")


@pytest.mark.parametrize("name", [" Ada", "Ada ", "\u3000Ada\u00a0"])
def test_spaces_at_the_edges_of_a_name_are_trimmed(player_api, name):
    response = player_api.patch("players/me", {"name": name})
    assert response.status_code == 200 and response.json()["name"] == "Ada"


@pytest.mark.parametrize("name", ["Ada Lovelace", "می\u200cخواهم", "ഷ്\u200dടി", "অমিত"])
def test_names_in_every_script_are_welcome(player_api, name):
    response = player_api.patch("players/me", {"name": name})
    assert response.status_code == 200 and response.json()["name"] == name


def test_patch_without_a_name_changes_nothing(player_api):
    before = player_api.get("players/me").json()
    assert player_api.patch("players/me", {}).json() == before


def test_display_names_are_unique_ignoring_case_and_spaces(make_player):
    make_player("Ada Lovelace")
    _, other = make_player()
    assert_problem(other.patch("players/me", {"name": "ADA LOVELACE"}), 409, "name_taken")
    assert_problem(other.patch("players/me", {"name": "adalovelace"}), 409, "name_taken")


def test_name_taken_at_creation_is_a_conflict(api, make_player):
    make_player("Grace")
    assert_problem(api.post("players", {"name": "grace"}), 409, "name_taken")
    assert Player.objects.count() == 1


def test_claim_then_sign_in_on_another_device(player_api, api):
    claimed = player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    assert claimed.status_code == 200 and not claimed.json()["guest"]
    signed_in = api.post("sessions", {"username": "ADA", "password": PASSWORD})
    assert signed_in.status_code == 201
    assert signed_in.json()["id"] == claimed.json()["id"]
    assert Api(signed_in.json()["token"]).get("players/me").status_code == 200


def test_password_is_hashed_by_django(player_api, settings):
    # The server's own hashers, not the quick one the other tests use (tests/conftest.py).
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    player = Player.objects.get(username="ada")
    assert player.password.startswith(("pbkdf2_", "argon2", "bcrypt", "scrypt"))
    assert player.check_password(PASSWORD)


def test_weak_password_is_refused(player_api):
    body = assert_problem(
        player_api.post("players/me/claim", {"username": "ada", "password": "12345678"}), 422,
        "weak_password",
    )
    assert any(error["field"] == "password" for error in body["errors"])
    assert Player.objects.get(username=None)  # still a guest


def test_claim_twice_is_a_conflict(player_api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    assert_problem(
        player_api.post("players/me/claim", {"username": "ada2", "password": PASSWORD}),
        409, "already_claimed",
    )


def test_username_taken_ignoring_case(make_player):
    _, first = make_player()
    _, second = make_player()
    first.post("players/me/claim", {"username": "Ada", "password": PASSWORD})
    assert_problem(
        second.post("players/me/claim", {"username": "aDA", "password": PASSWORD}),
        409, "username_taken",
    )


def test_wrong_password_is_refused(player_api, api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    assert_problem(api.post("sessions", {"username": "ada", "password": "nope"}), 401,
                   "invalid_credentials")
    assert_problem(api.post("sessions", {"username": "nobody", "password": "nope"}), 401,
                   "invalid_credentials")


def test_sign_out_revokes_only_this_token(player_api, api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    other = Api(api.post("sessions", {"username": "ada", "password": PASSWORD})
                .json()["token"])
    assert player_api.delete("sessions/current").status_code == 204
    assert_problem(player_api.get("players/me"), 401, "not_authenticated")
    assert other.get("players/me").status_code == 200


def test_revoke_a_token_by_id(player_api, api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    other = Api(api.post("sessions", {"username": "ada", "password": PASSWORD})
                .json()["token"])
    tokens = player_api.get("players/me/tokens").json()
    assert len(tokens) == 2 and sum(token["current"] for token in tokens) == 1
    other_id = next(token["id"] for token in tokens if not token["current"])
    assert player_api.delete(f"players/me/tokens/{other_id}").status_code == 204
    assert_problem(other.get("players/me"), 401, "not_authenticated")
    assert_problem(player_api.delete(f"players/me/tokens/{other_id}"), 404, "not_found")


def test_cannot_revoke_another_players_token(make_player):
    _, first = make_player()
    second_player, second = make_player()
    token_id = AccessToken.objects.get(player=second_player).pk
    assert_problem(first.delete(f"players/me/tokens/{token_id}"), 404, "not_found")
    assert second.get("players/me").status_code == 200


def test_session_cookie_does_not_authenticate_the_api(client, make_player):
    player, _ = make_player()
    client.force_login(player)
    response = client.get("/api/v1/players/me")
    assert response.status_code == 401


def test_token_lookup_matches_the_orm(make_player):
    from server.players.tokens import _token_with_player, _token_with_player_orm, hash_token

    _player, api = make_player("Grace")
    key_hash = hash_token(api.token)
    fast, portable = _token_with_player(key_hash), _token_with_player_orm(key_hash)
    assert (fast.pk, fast.last_used_at) == (portable.pk, portable.last_used_at)
    for field in Player._meta.concrete_fields:
        assert getattr(fast.player, field.attname) == getattr(portable.player, field.attname)
    assert _token_with_player(hash_token("nope")) is None
    assert _token_with_player_orm(hash_token("nope")) is None


def test_a_taken_name_comes_back_with_a_free_one_like_it(make_player):
    make_player("Ada")
    make_player("ADA 2")  # the first variant is taken too, as the names are compared
    _, other = make_player()
    taken = other.patch("players/me", {"name": "ada"})
    assert_problem(taken, 409, "name_taken")
    assert taken.json()["suggestion"] == "ada 3"
    assert other.patch("players/me", {"name": "ada 3"}).status_code == 200
    created = other.post("players", {"name": "Ada"})
    assert_problem(created, 409, "name_taken")
    assert created.json()["suggestion"] == "Ada 4"


def test_a_suggestion_for_a_long_name_stays_within_the_length(make_player):
    make_player("A" * 24)
    _, other = make_player()
    taken = other.patch("players/me", {"name": "a" * 24})
    assert taken.json()["suggestion"] == "a" * 22 + " 2"


# --- Accounts in bulk from one address (docs/RATINGS.md, "Rings") ----------------------------


def test_claims_from_one_address_are_limited_per_day(make_player, settings):
    assert settings.THROTTLE_RATES["claims.address"] == "10/day"
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "claims.address": "2/day"}
    apis = [make_player()[1] for _ in range(3)]

    for index, api in enumerate(apis[:2]):
        claimed = api.post("players/me/claim", {"username": f"ring{index}",
                                                "password": PASSWORD})
        assert claimed.status_code == 200, claimed.content
    refused = apis[2].post("players/me/claim", {"username": "ring2", "password": PASSWORD})

    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert Player.objects.filter(claimed_at__isnull=False).count() == 2


def test_guests_from_one_address_are_limited_per_day(api, settings):
    """Not only an hour's: sixty guests an hour, then a wait, made a ring of sixty a day."""
    assert settings.THROTTLE_RATES["players.address"] == "120/day"
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "players.address": "3/day"}

    statuses = [api.post("players", {}).status_code for _ in range(4)]

    assert statuses == [201, 201, 201, 429]
