"""A race's invitation link, /races/join/<code>: it opens the app's join screen."""

import pytest


def test_a_race_link_redirects_to_the_apps_join_screen(client):
    response = client.get("/races/join/7K3M9QXA")

    assert response.status_code == 302
    assert response["Location"] == "/#/races/join/7K3M9QXA"


@pytest.mark.parametrize("path", ["/races/join/", "/races/join/ab-cd", "/races/join/AB/extra"])
def test_anything_but_a_code_is_not_found(client, path):
    assert client.get(path).status_code == 404


def test_only_reading_is_allowed(client):
    assert client.post("/races/join/ABC").status_code == 405
