"""Sessions, Django's users and messages serve the pages and pass the API by
(server.api.middleware.PagesOnly); CSRF's check stays everywhere."""

import pytest
from django.test import Client

from server.players.models import Player

pytestmark = pytest.mark.django_db

BROWSER_STATE = ("session", "user", "_messages")


def test_an_api_request_makes_no_session_user_or_message_store(player_api):
    response = player_api.post("games", {"mode": "practice"})
    assert response.status_code == 201, response.json()
    request = response.wsgi_request
    made = [name for name in BROWSER_STATE if name in request.__dict__]
    # DRF hands the player it authenticated to the Django request as `user`, which is no
    # middleware's lazy user.
    assert made in ([], ["user"]), made
    if made:
        assert isinstance(request.user, Player) and request.user.pk is not None
    assert not response.cookies


def test_an_unauthenticated_api_request_is_still_a_problem(api):
    response = api.get("spite-malice/matches")
    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert "session" not in response.wsgi_request.__dict__


def test_the_admins_sign_in_keeps_its_csrf_check_session_and_messages():
    Player.objects.create_superuser("root", "a-long-admin-passphrase")
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/admin/login/")
    assert page.status_code == 200
    csrf = page.cookies["csrftoken"].value
    credentials = {"username": "root", "password": "a-long-admin-passphrase"}

    forged = browser.post("/admin/login/", credentials)
    assert forged.status_code == 403  # no CSRF token: refused as before

    signed_in = browser.post("/admin/login/", {**credentials, "csrfmiddlewaretoken": csrf})
    assert signed_in.status_code == 302, signed_in.content[:300]
    assert "sessionid" in signed_in.cookies
    assert browser.get("/admin/players/player/").status_code == 200
    # A page gets the session, the message store and the signed-in user.
    request = browser.get("/admin/").wsgi_request
    assert "session" in request.__dict__ and "_messages" in request.__dict__
    assert request.user.is_authenticated
