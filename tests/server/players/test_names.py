"""Names: what a display name or a league's name may be (PRECIS Nickname), when two display
names are one (their confusable skeleton), usernames (PRECIS UsernameCaseMapped), and passwords
that are too like the username or the name."""

import re
from datetime import timedelta
from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from server.leagues.models import League
from server.players import names, usernames
from server.players.models import Player
from server.players.skeleton import parse_confusables, prototypes, skeleton
from tests.server.conftest import assert_problem

pytestmark = pytest.mark.django_db
PASSWORD = "difference-engine-1843"

# Names that display as another player's "Ada", as nothing, or with hidden characters.
DISGUISED = {
    "tag character": "Ad\U000e0041a",
    "variation selector": "Ada\ufe0f",
    "combining grapheme joiner": "Ad\u034fa",
    "hangul fillers": "\u3164\u3164",
    "halfwidth hangul fillers": "\uffa0\uffa0",
    "braille blanks": "\u2800\u2800",
    "zero-width joiners alone": "\u200d\u200d",
    "arabic number sign": "ab\u0600cd",
    "zero-width space": "Ad\u200ba",
    "right-to-left override": "Ad\u202ea",
    "soft hyphen": "Ad\u00ada",
    "byte order mark": "\ufeffAda",
    "only spaces": "   ",
}
# Real names that need their script's joiners, or are simply in other scripts.
REAL = {
    "Persian, ZWNJ (mikhaham)": "می\u200cخواهم",
    "Persian, ZWNJ (Alireza)": "علی\u200cرضا",
    "Malayalam, ZWJ chillu (Karthik)": "കാര്\u200dത്തിക്",
    "Malayalam, ZWNJ after virama (Sneha)": "സ്\u200cനേഹ",
    "Malayalam, ZWJ (shti)": "ഷ്\u200dടി",
    "Georgian (Nino)": "ნინო",
    "Georgian (Tamar Beridze)": "თამარ ბერიძე",
    "Bengali (Arko)": "অর্ক",
    "Bengali (Amit)": "অমিত",
    "Latin with diacritics": "Zoë Ångström",
}


@pytest.mark.parametrize("name", DISGUISED.values(), ids=DISGUISED.keys())
def test_disguised_display_names_are_refused(player_api, name):
    body = assert_problem(player_api.patch("players/me", {"name": name}), 400, "invalid")
    assert body["errors"][0]["field"] == "name"
    assert not Player.objects.filter(name=name).exists()


@pytest.mark.parametrize("name", DISGUISED.values(), ids=DISGUISED.keys())
def test_disguised_names_are_refused_at_creation_too(api, name):
    assert_problem(api.post("players", {"name": name}), 400, "invalid")
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", DISGUISED.values(), ids=DISGUISED.keys())
def test_disguised_league_names_are_refused(player_api, name):
    body = assert_problem(player_api.post("leagues", {"name": name}), 400, "invalid")
    assert body["errors"][0]["field"] == "name"


@pytest.mark.parametrize("name", REAL.values(), ids=REAL.keys())
def test_real_names_in_their_scripts_are_kept_as_written(player_api, name):
    response = player_api.patch("players/me", {"name": name})
    assert response.status_code == 200, response.content
    assert response.json()["name"] == name


@pytest.mark.parametrize("name", REAL.values(), ids=REAL.keys())
def test_real_names_make_league_names(player_api, name):
    response = player_api.post("leagues", {"name": f"{name} club"})
    assert response.status_code == 201, response.content
    assert response.json()["name"] == f"{name} club"


def test_a_joiner_where_no_script_needs_it_is_refused():
    # ZWJ after a Latin letter, and Bengali's RA + ZWJ + VIRAMA (ya-phala): RFC 5892's
    # CONTEXTJ rule wants a virama before a ZWJ, so the profile refuses both.
    for name in ["Ad\u200da", "র\u200d্যাব"]:
        with pytest.raises(names.InvalidName, match="only where its script needs it"):
            names.clean_name(name)


def test_refusal_names_the_character_that_was_sent():
    # U+3164 is NFKC-normalised to U+1160 before the profile refuses it: name the one sent.
    with pytest.raises(names.InvalidName, match="U\\+3164 HANGUL FILLER"):
        names.clean_name("\u3164\u3164")


@pytest.mark.parametrize("sent, stored", [
    ("  Ada  ", "Ada"), ("Ａｄａ", "Ada"), ("Ada\u3000Lovelace", "Ada Lovelace"),
    ("Ada    Lovelace", "Ada Lovelace"), ("ﬁona", "fiona"),
])
def test_a_name_is_stored_as_the_profile_enforces_it(api, sent, stored):
    response = api.post("players", {"name": sent})
    assert response.status_code == 201 and response.json()["name"] == stored


def test_a_name_too_long_once_normalised_is_refused(player_api):
    # 12 characters sent, 36 once U+FDFA is written out by NFKC.
    body = assert_problem(player_api.patch("players/me", {"name": "\ufdfa" * 2}), 400, "invalid")
    assert "Once normalised" in body["detail"]


@pytest.mark.parametrize("look_alike", [
    "\u0410da",  # Cyrillic capital A
    "Ad\u0430",  # Cyrillic small a at the end
    "ADA", "A da", "Ａｄａ", "𝐀𝐝𝐚",
])
def test_a_name_that_looks_like_anothers_is_taken(make_player, api, look_alike):
    make_player("Ada")
    assert_problem(api.post("players", {"name": look_alike}), 409, "name_taken")
    assert list(Player.objects.values_list("name", flat=True)) == ["Ada"]


@pytest.mark.parametrize("first, second", [
    ("Bob", "B0B"), ("Sam", "Sarn"), ("Paul", "Pau1"), ("Noor", "N00r"),
    ("می\u200cخواهم", "میخواهم"),
])
def test_look_alikes_by_skeleton(make_player, api, first, second):
    make_player(first)
    assert_problem(api.post("players", {"name": second}), 409, "name_taken")


def test_names_that_differ_to_the_eye_are_both_free(make_player, api):
    make_player("Ada")
    for name in ["Adam", "Ida", "Ada L"]:
        assert api.post("players", {"name": name}).status_code == 201, name


def test_renaming_to_your_own_name_in_another_case_is_allowed(make_player):
    _, ada = make_player("Ada")
    response = ada.patch("players/me", {"name": "ADA"})
    assert response.status_code == 200 and response.json()["name"] == "ADA"


def test_skeleton_follows_tr39():
    assert skeleton("\u0430") == "a"  # Cyrillic a
    assert skeleton("m") == skeleton("rn") == "rn"
    assert skeleton("1") == skeleton("I") == "l"
    assert skeleton(skeleton("Paypal")) == skeleton("Paypal")  # prototypes are fixed points
    assert len(prototypes()) > 6000


def test_confusables_lines_are_read_source_to_prototype():
    table = parse_confusables(
        "\ufeff# comment\n"
        "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\n\n"
        "33A1 ;\t006D 00B2 ;\tMA\t# ( ㎡ → m² )\n")
    assert table == {"\u0430": "a", "\u33a1": "m\u00b2"}


def test_the_schema_states_the_rule_and_a_looser_pattern(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    field = schema["components"]["schemas"]["PlayerCreateInputRequest"]["properties"]["name"]
    assert field["format"] == names.NAME_FORMAT
    assert (field["minLength"], field["maxLength"]) == (2, 24)
    assert "PRECIS Nickname" in field["description"] and "TR39" in field["description"]
    league = schema["components"]["schemas"]["LeagueNameInputRequest"]["properties"]["name"]
    assert (league["format"], league["maxLength"]) == (names.NAME_FORMAT, 40)
    pattern = re.compile(field["pattern"])
    # Looser than the rule: everything the rule accepts matches it.
    for name in [*REAL.values(), "  Ada  "]:
        assert pattern.search(name), name


# --- usernames -----------------------------------------------------------------------------


@pytest.mark.parametrize("username", ["ada", "Ada.Lovelace", "ада", "ნინო", "user@example",
                                      "می\u200cخواهم"])
def test_usernames_of_any_script_can_be_claimed_and_signed_in_with(make_player, api, username):
    _, guest = make_player()
    claimed = guest.post("players/me/claim", {"username": username, "password": PASSWORD})
    assert claimed.status_code == 200, claimed.content
    assert claimed.json()["username"] == username
    signed_in = api.post("sessions", {"username": username.upper(), "password": PASSWORD})
    assert signed_in.status_code == 201, signed_in.content


@pytest.mark.parametrize("username", ["ad", "a b", "ada\u200b", "ada\ufe0f", "ab\u0600cd",
                                      "abc\u05d0", "Ada💙", "x" * 33])
def test_usernames_the_profile_refuses_are_400(player_api, username):
    body = assert_problem(
        player_api.post("players/me/claim", {"username": username, "password": PASSWORD}),
        400, "invalid")
    assert body["errors"][0]["field"] == "username"
    assert Player.objects.get().username is None


def test_usernames_are_one_ignoring_case_and_width(make_player):
    _, first = make_player()
    _, second = make_player()
    first.post("players/me/claim", {"username": "Ada", "password": PASSWORD})
    assert_problem(second.post("players/me/claim", {"username": "ＡＤＡ", "password": PASSWORD}),
                   409, "username_taken")
    assert Player.objects.get(username="Ada").username_key == "ada"


def test_signing_in_with_no_username_at_all_is_401(player_api, api):
    player_api.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    assert_problem(api.post("sessions", {"username": "ada\u200b", "password": PASSWORD}), 401,
                   "invalid_credentials")


def test_admin_sign_in_matches_the_username_key(make_player):
    _, guest = make_player()
    guest.post("players/me/claim", {"username": "Ada", "password": PASSWORD})
    assert Player.objects.get_by_natural_key("ADA").username == "Ada"
    with pytest.raises(Player.DoesNotExist):
        Player.objects.get_by_natural_key("a d a")


def test_a_staff_account_needs_a_real_username():
    with pytest.raises(usernames.InvalidUsername, match="spaces"):
        Player.objects.create_superuser("root user", PASSWORD)
    assert Player.objects.create_superuser("Root", PASSWORD).username_key == "root"


# --- passwords -----------------------------------------------------------------------------


@pytest.mark.parametrize("username, password", [
    ("adalovelace", "adalovelace"), ("adalovelace", "AdaLovelace"),
    ("adalovelace", "adalovelace1"), ("ada.lovelace", "lovelace!"),
])
def test_a_password_like_the_username_is_refused(player_api, username, password):
    body = assert_problem(
        player_api.post("players/me/claim", {"username": username, "password": password}),
        400, "password_too_similar")
    assert body["errors"] == [{"field": "password",
                               "message": "The password is too similar to the username."}]
    assert Player.objects.get().is_guest


def test_a_password_like_the_display_name_is_refused(make_player):
    _, guest = make_player("Charles Babbage")
    body = assert_problem(
        guest.post("players/me/claim", {"username": "cb1791", "password": "charlesbabbage"}),
        400, "password_too_similar")
    assert body["errors"][0]["field"] == "password"
    assert "name" in body["detail"]


def test_a_password_unlike_both_is_accepted(make_player):
    _, guest = make_player("Ada Lovelace")
    response = guest.post("players/me/claim", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 200


def test_password_likeness_compares_both_fields():
    player = Player(name="Grace Hopper", username="ghopper")
    assert usernames.password_likeness("ghopper1", player)
    assert usernames.password_likeness("gracehopper", player)
    assert usernames.password_likeness(PASSWORD, player) is None


# --- the migration -------------------------------------------------------------------------


@pytest.fixture
def migrator():
    """Migrates to the targets given, then back to the latest migrations, whatever happened."""
    def migrate(targets):
        executor = MigrationExecutor(connection)
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    yield migrate
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_migration_recomputes_keys_keeping_the_older_of_two_look_alikes(migrator):
    old = migrator([("players", "0002_accesstoken_public_id")]).get_model("players", "Player")
    rows = [("Ada", "ada", None), ("\u0410da", "\u0430da", None), ("Ada\ufe0f", "ada\ufe0f", None),
            ("Ａｌａｎ", "alan", "Alan.T"), ("Grace", "grace", "Old Admin")]
    start = timezone.now() - timedelta(days=len(rows))
    for age, (name, key, username) in enumerate(rows):  # oldest first
        player = old.objects.create(name=name, name_key=key, username=username, password="!")
        old.objects.filter(pk=player.pk).update(created_at=start + timedelta(days=age))
    new = migrator([("players", "0003_name_and_username_keys")]).get_model("players", "Player")

    players = list(new.objects.order_by("created_at"))
    assert [p.name for p in players][:1] == ["Ada"] and players[0].name_key == "ada"
    assert players[1].name.startswith("Player ")  # Cyrillic look-alike of the older Ada
    assert players[2].name.startswith("Player ")  # no longer a valid name
    assert (players[3].name, players[3].name_key) == ("Alan", "alan")
    assert players[3].username_key == "alan.t"
    assert (players[4].name, players[4].username_key) == ("Grace", "old admin")
    assert len({p.name_key for p in players}) == 5
    assert all(p.name_key == names.name_key(p.name) for p in players)


@pytest.mark.django_db(transaction=True)
def test_migration_enforces_league_names(make_player, migrator):
    owner, _ = make_player("Ada")
    old = migrator([("leagues", "0001_initial")]).get_model("leagues", "League")
    for name, code in [("Friday\ufe0f", "AAAAAAAA"), ("  Ｃｌｕｂ  ", "BBBBBBBB"),
                       ("Persian می\u200cخواهم", "CCCCCCCC")]:
        old.objects.create(name=name, code=code, owner_id=owner.pk)
    migrator([("leagues", "0002_league_names_follow_the_nickname_profile")])

    assert dict(League.objects.values_list("code", "name")) == {
        "AAAAAAAA": "League", "BBBBBBBB": "Club", "CCCCCCCC": "Persian می\u200cخواهم"}


# --- Combining marks ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["Adam Smith\u0301", "Ada\u0300m Smith", "A\u0336dam Smith"])
def test_combining_marks_do_not_make_another_name(make_player, variant):
    make_player("Adam Smith")
    _, api = make_player()

    assert_problem(api.patch("players/me", {"name": variant}), 409, "name_taken")
    assert names.name_key(variant) == names.name_key("Adam Smith")


def test_a_character_stacks_at_most_three_combining_marks(player_api):
    body = assert_problem(player_api.patch("players/me", {"name": "Z" + "\u0336" * 23}), 400,
                          "invalid")
    assert "combining marks" in str(body)
    assert player_api.patch("players/me", {"name": "Nguy\u1ec5n"}).status_code == 200  # two


def test_a_virama_still_makes_another_name():
    assert names.name_key("\u0995\u09cd\u09b7") != names.name_key("\u0995\u09b7")


def test_the_migration_folds_the_marks_of_existing_names(db):
    older = Player.objects.create(name="Adam Smith", name_key="old-1")
    newer = Player.objects.create(name="Adam Smith\u0301", name_key="old-2")
    Player.objects.filter(pk=newer.pk).update(created_at=timezone.now() + timedelta(seconds=1))
    migration = import_module("server.players.migrations.0005_name_keys_fold_marks")

    from django.apps import apps
    migration.recompute_keys(apps, connection.schema_editor())

    older.refresh_from_db()
    newer.refresh_from_db()
    assert (older.name, older.name_key) == ("Adam Smith", names.name_key("Adam Smith"))
    assert newer.name.startswith("Player ") and newer.name_key != older.name_key
