"""The service's outer shell: health probe, front page, API docs, and `make run` itself."""

import json
import os
import re
import shutil
import signal
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connection

from tests.make_run import call, make_run, status_of


@pytest.mark.django_db
def test_healthz_is_ok_when_the_database_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_healthz_is_unavailable_when_the_database_is_down(client):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("server closed")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}


def test_front_page_serves_the_html_page(client):
    response = client.get("/")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert b"<title>Foursquare Daily</title>" in response.content


def test_api_schema_is_an_openapi_document(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    document = json.loads(response.content)
    assert document["openapi"].startswith("3.")
    assert document["info"] == {
        "title": "Foursquare Daily API",
        "version": "1.0.0",
        "description": document["info"]["description"],
    }


def test_api_docs_serve_swagger_ui_from_our_own_static_files(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    # Every file the page loads is this site's own: no address of another host (the page also
    # holds a random token, so a bare "cdn" could appear in it by chance).
    loaded = re.findall(r'(?:src|href)\s*=\s*["\']([^"\']+)', page)
    assert loaded, page
    assert all(url.startswith("/") and not url.startswith("//") for url in loaded), loaded
    assert not re.search(r"https?://", page)  # nor one in a script


# --- `make run` ----------------------------------------------------------------------------------


def _play_a_few_moves(base: str) -> None:
    """The embedded default (SQLite) serves the whole game, not just the health probe."""
    status, player = call(base, "POST", "/api/v1/players", {"name": "Embedded"})
    assert status == 201, player
    status, game = call(base, "POST", "/api/v1/games", {"mode": "daily"}, player["token"])
    assert status == 201, game
    for _ in range(3):
        row, col = game["legal_moves"][0]
        status, game = call(base, "POST", f"/api/v1/games/{game['id']}/moves",
                            {"row": row, "col": col, "move": game["moves_played"]},
                            player["token"])
        assert status == 200, game
    assert game["moves_played"] == 3
    status, me = call(base, "GET", "/api/v1/players/me", token=player["token"])
    assert status == 200 and me["id"] == player["id"]


def _children_of(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children]


@pytest.mark.long
@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.parametrize(
    ("signalled", "make_status"),
    [
        # A supervisor that signals the server: it drains and exits 0, and so does make.
        pytest.param("server", 0, id="server-signalled"),
        # Ctrl-C or `kill` on make: make forwards SIGTERM to the server, waits for it to
        # finish, then ends itself by the same signal, as make always does.
        pytest.param("make", -signal.SIGTERM, id="make-signalled"),
    ],
)
def test_make_run_serves_then_stops_cleanly_on_sigterm(tmp_path, signalled, make_status):
    with make_run(tmp_path) as served:
        assert status_of(f"{served.base}/") == 200
        assert (served.data_dir / "db.sqlite3").exists()
        _play_a_few_moves(served.base)

        make = served.process
        (server,) = _children_of(make.pid)
        os.kill(server if signalled == "server" else make.pid, signal.SIGTERM)
        status = make.wait(timeout=10)

    output = served.log()
    assert status == make_status, output
    assert "Shutting down: Master" in output
    assert "***" not in output, "make reported a failed recipe"
    assert status_of(f"{served.base}/healthz") is None


@pytest.mark.long
@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_make_run_workers_share_one_count_of_the_rate_limits(tmp_path):
    # Several gunicorn workers answer in turn; a limit of 6 must hold across all of them, not
    # 6 per worker.
    with make_run(tmp_path, FOURSQUARE_RATE_PLAYERS_ADDRESS="6/hour") as served:
        statuses = [call(served.base, "POST", "/api/v1/players", {})[0] for _ in range(20)]
        workers = len(_children_of(_children_of(served.process.pid)[0]))
    assert workers > 1
    assert statuses == [201] * 6 + [429] * 14
