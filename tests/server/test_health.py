"""The service's outer shell: health probe, front page, API docs, and `make run` itself."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connection

REPO_ROOT = Path(__file__).resolve().parents[2]


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
    assert b"<title>Foursquare Daily</title>" in b"".join(response.streaming_content)


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
    assert "cdn" not in page.lower()


# --- `make run` ----------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _status_of(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def _call(base: str, method: str, path: str, body=None, token=None):
    # Every write carries an Idempotency-Key, as the browser app's do.
    request = urllib.request.Request(
        base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {}),
                 **({"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def _play_a_few_moves(base: str) -> None:
    """The embedded default (SQLite) serves the whole game, not just the health probe."""
    status, player = _call(base, "POST", "/api/v1/players", {"name": "Embedded"})
    assert status == 201
    status, game = _call(base, "POST", "/api/v1/games", {"mode": "daily"}, player["token"])
    assert status == 201
    for _ in range(3):
        row, col = game["legal_moves"][0]
        status, game = _call(base, "POST", f"/api/v1/games/{game['id']}/moves",
                             {"row": row, "col": col, "move": game["moves_played"]},
                             player["token"])
        assert status == 200
    assert game["moves_played"] == 3
    status, me = _call(base, "GET", "/api/v1/players/me", token=player["token"])
    assert status == 200 and me["id"] == player["id"]


def _children_of(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children]


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
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        # Not the test database, and not the jobserver of a make that may be running us.
        if key not in {"DATABASE_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
    }
    env["FOURSQUARE_DATA_DIR"] = str(tmp_path / "data")
    log_path = tmp_path / "make-run.log"
    # `-o` takes the environment running this test as installed instead of rebuilding .venv.
    venv = sys.prefix
    command = ["make", "-o", f"{venv}/.installed", "run", f"VENV={venv}", f"PORT={port}"]

    with log_path.open("wb") as log:
        make = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Generous: migrate and collectstatic run first, and a busy machine is slow.
        deadline = time.monotonic() + 90
        while _status_of(f"http://127.0.0.1:{port}/healthz") != 200:
            assert make.poll() is None, f"make run exited early:\n{log_path.read_text()}"
            assert time.monotonic() < deadline, f"/healthz never answered:\n{log_path.read_text()}"
            time.sleep(0.1)
        assert _status_of(f"http://127.0.0.1:{port}/") == 200
        assert (tmp_path / "data" / "db.sqlite3").exists()
        _play_a_few_moves(f"http://127.0.0.1:{port}")

        (server,) = _children_of(make.pid)
        os.kill(server if signalled == "server" else make.pid, signal.SIGTERM)
        status = make.wait(timeout=10)
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
            make.wait()

    output = log_path.read_text()
    assert status == make_status, output
    assert "Shutting down: Master" in output
    assert "***" not in output, "make reported a failed recipe"
    assert _status_of(f"http://127.0.0.1:{port}/healthz") is None
