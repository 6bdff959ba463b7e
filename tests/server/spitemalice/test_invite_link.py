"""An invitation's link, /spite-malice/join/<code>: it opens the app's join screen."""

import pytest
from django.urls import reverse


def test_an_invite_link_redirects_to_the_apps_join_screen(client):
    response = client.get("/spite-malice/join/7K3M9QXA")

    assert response.status_code == 302
    assert response["Location"] == "/#/spite-malice/join/7K3M9QXA"


def test_the_code_keeps_its_case_for_the_join_screen_to_read(client):
    # Codes are case-insensitive on join: the screen sends what the link says.
    assert client.get("/spite-malice/join/7k3m9qxa")["Location"] == "/#/spite-malice/join/7k3m9qxa"


def test_the_route_is_named_for_the_api_to_build_invite_urls(client):
    assert reverse("spite-malice-join", kwargs={"code": "ABC"}) == "/spite-malice/join/ABC"


@pytest.mark.parametrize("path", [
    "/spite-malice/join/",
    "/spite-malice/join/ab%2Fcd",
    "/spite-malice/join/ab-cd",
    "/spite-malice/join/" + "A" * 33,
    "/spite-malice/join/ABC/extra",
])
def test_anything_but_a_code_is_not_found(client, path):
    assert client.get(path).status_code == 404


def test_only_reading_is_allowed(client):
    assert client.post("/spite-malice/join/ABC").status_code == 405
