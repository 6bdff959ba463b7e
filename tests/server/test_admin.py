"""The Django admin manages players, games and dailies."""

import pytest

from server.players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    staff = Player.objects.create_superuser("root", "a-long-admin-passphrase")
    client.force_login(staff)
    return client


def test_admin_lists_players_games_and_dailies(admin_client, player_api):
    player_api.post("games", {"mode": "daily"})
    for url in ["/admin/players/player/", "/admin/games/game/", "/admin/games/daily/",
                "/admin/games/deal/", "/admin/players/accesstoken/", "/admin/jobs/job/",
                "/admin/games/gameanalysis/"]:
        response = admin_client.get(url)
        assert response.status_code == 200, url


def test_admin_needs_staff(client):
    response = client.get("/admin/games/game/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def _form(player, **changes):
    from server.players.admin import PlayerForm

    data = {"name": player.name, "username": player.username or "", "is_active": True,
            "challenges": player.challenges, **changes}
    return PlayerForm(data=data, instance=player)


def test_staff_rename_under_the_api_rules_and_the_key_follows(make_player):
    make_player("Ada")
    player, _ = make_player("Grace")
    assert not _form(player, name="\u0410da").is_valid()  # Cyrillic look-alike of Ada
    assert not _form(player, name="Gr\ufe0face").is_valid()
    form = _form(player, name="  Grace Hopper ")
    assert form.is_valid(), form.errors
    form.save()
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("Grace Hopper", "gracehopper")


def test_staff_change_a_username_and_its_key_follows(make_player):
    player, _ = make_player("Grace")
    assert not _form(player, username="grace hopper").is_valid()
    form = _form(player, username="GHopper")
    assert form.is_valid(), form.errors
    form.save()
    assert Player.objects.get_by_natural_key("ghopper").pk == player.pk


def test_admin_change_page_of_a_player_opens(admin_client, make_player):
    player, _ = make_player("Grace")
    response = admin_client.get(f"/admin/players/player/{player.pk}/change/")
    assert response.status_code == 200 and b"Grace" in response.content
