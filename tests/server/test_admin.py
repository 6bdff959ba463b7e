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
                "/admin/games/deal/", "/admin/players/accesstoken/", "/admin/games/job/",
                "/admin/games/gameanalysis/"]:
        response = admin_client.get(url)
        assert response.status_code == 200, url


def test_admin_needs_staff(client):
    response = client.get("/admin/games/game/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
