"""Each request's line in the log, and the request id that every line of it carries."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from server.core.logformat import JsonFormatter, RequestIdFilter
from server.core.requestlog import REQUEST_ID_PATTERN, request_id_of
from tests.server.conftest import Api
from tests.server.test_production import PRODUCTION_ENV, _refusal, _settings_in


class Lines(logging.Handler):
    """Every line the app logs while it is installed, as production writes it (JSON)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.addFilter(RequestIdFilter())
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def parsed(self) -> list[dict]:
        return [json.loads(line) for line in self.lines]


@pytest.fixture
def lines() -> Iterator[Lines]:
    handler = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _request_lines(lines: Lines) -> list[dict]:
    return [line for line in lines.parsed() if line["logger"] == "foursquare.request"]


@pytest.mark.django_db
def test_a_proxys_request_id_is_kept_answered_and_in_every_line_of_the_request(lines, api):
    response = api.get("games/00000000-0000-0000-0000-000000000000",
                       HTTP_X_REQUEST_ID="7F000001:C2A4_0A0B:1F90_6571A2B3")
    assert response.status_code == 401
    assert response["X-Request-ID"] == "7F000001:C2A4_0A0B:1F90_6571A2B3"
    written = lines.parsed()
    # Its own line, and Django's warning of the 401, written after the middleware returned.
    assert {line["logger"] for line in written} >= {"foursquare.request", "django.request"}
    assert all(line["request_id"] == "7F000001:C2A4_0A0B:1F90_6571A2B3" for line in written)


@pytest.mark.parametrize("given", [
    None, "", "short", "x" * 129, "has space 12345", "line\nbreak12345", "ünïcode-12345",
    'quote"12345678', "{json}12345678",
])
def test_a_request_id_of_another_shape_is_replaced(given):
    made = request_id_of(given)
    assert made != given
    assert len(made) == 32 and int(made, 16) >= 0
    assert REQUEST_ID_PATTERN.fullmatch(made)


@pytest.mark.parametrize("given", ["abcdefgh", "0" * 128, "req-1.2:3_4", "9f8e7d6c5b4a"])
def test_a_well_formed_request_id_is_kept(given):
    assert request_id_of(given) == given


@pytest.mark.django_db
def test_each_request_gets_an_id_of_its_own(api):
    first = api.get("players/me")["X-Request-ID"]
    second = api.get("players/me")["X-Request-ID"]
    assert first != second and REQUEST_ID_PATTERN.fullmatch(first)


@pytest.mark.django_db
def test_one_line_per_request_with_route_status_duration_and_who_never_a_secret(
        lines, make_player):
    player, api = make_player()
    response = api.get("players/me", HTTP_X_REQUEST_ID="follow-me-123")
    assert response.status_code == 200
    (line,) = [line for line in _request_lines(lines) if line["request_id"] == "follow-me-123"]
    assert line["method"] == "GET" and line["route"] == "api/v1/players/me"
    assert line["status"] == 200 and line["duration_ms"] > 0
    assert line["player_id"] == str(player.pk)
    assert isinstance(line["token_id"], int)
    assert api.token not in "\n".join(lines.lines)
    assert line["time"].endswith("Z") and line["level"] == "INFO"


@pytest.mark.django_db
@pytest.mark.postgresql
def test_a_move_answered_on_the_fast_path_names_its_player(lines, make_player):
    player, api = make_player()
    game = api.post("games", {"mode": "practice"}).json()
    row, col = game["legal_moves"][0]
    response = api.post(f"games/{game['id']}/moves", {"row": row, "col": col},
                        HTTP_X_REQUEST_ID="a-move-12345")
    assert response.status_code == 200
    (line,) = [line for line in _request_lines(lines) if line["request_id"] == "a-move-12345"]
    assert line["route"] == "api/v1/games/<uuid:game_id>/moves"
    assert line["player_id"] == str(player.pk) and isinstance(line["token_id"], int)


@pytest.mark.django_db
def test_an_anonymous_request_names_nobody(lines):
    Api().get("/healthz", HTTP_X_REQUEST_ID="anonymous-1")
    (line,) = [line for line in _request_lines(lines) if line["request_id"] == "anonymous-1"]
    assert "player_id" not in line and "token_id" not in line
    assert line["route"] == "healthz"


@pytest.mark.django_db
def test_a_path_that_matches_nothing_is_one_route(lines):
    Api().get("/no/such/page/12345", HTTP_X_REQUEST_ID="unmatched-1")
    (line,) = [line for line in _request_lines(lines) if line["request_id"] == "unmatched-1"]
    assert line["route"] == "unmatched" and line["status"] == 404


def test_a_failure_keeps_its_traceback_in_its_line():
    formatter = JsonFormatter()
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None,
                                   exc_info=__import__("sys").exc_info())
    line = formatter.format(record)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["message"] == "failed" and "ValueError: boom" in parsed["exception"]


def test_production_logs_json_and_elsewhere_text():
    assert _settings_in(PRODUCTION_ENV, "LOG_FORMAT") == {"LOG_FORMAT": "json"}
    assert _settings_in({}, "LOG_FORMAT") == {"LOG_FORMAT": "text"}
    assert _settings_in({**PRODUCTION_ENV, "FOURSQUARE_LOG_FORMAT": "text"},
                        "LOG_FORMAT") == {"LOG_FORMAT": "text"}
    assert "FOURSQUARE_LOG_FORMAT" in _refusal({"FOURSQUARE_LOG_FORMAT": "xml"})
