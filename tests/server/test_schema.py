"""The served OpenAPI schema, and schemathesis over every operation of the API.

Schemathesis generates valid and invalid requests from the schema and checks that no response
is a server error and that every status, content type and body matches what the schema says.
A schema-valid request may still be refused by the game's state (an illegal move, a daily not
current, a name taken), so 409 and 422 count as accepted answers for valid data.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from server.players import services as players

from . import name_formats  # noqa: F401  (the strategies for the names' formats)

pytestmark = pytest.mark.django_db

CONFIG = {
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "404", "409", "422"]},
    },
}


def _load_schema():
    from server.wsgi import application

    return schemathesis.openapi.from_wsgi(
        "/api/schema/", application, config=SchemathesisConfig.from_dict(CONFIG)
    )


API_SCHEMA = _load_schema()
OPERATIONS = [result.ok() for result in API_SCHEMA.get_all_operations()]


@pytest.fixture
def wsgi_requests_keep_the_test_connection():
    """Like Django's test client: keep the test's connection (and its transaction) open
    across the requests schemathesis sends straight to the WSGI application."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def auth_header(db) -> dict[str, str]:
    _, token = players.player_create(name="Schemathesis")
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=lambda mode: mode.value)
def test_api_conforms_to_its_schema(operation, mode, auth_header,
                                    wsgi_requests_keep_the_test_connection):
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case):
        case.call_and_validate(headers=auth_header)

    check()


def test_schema_documents_every_route(client):
    document = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = document["paths"]
    for route in ["/api/v1/players", "/api/v1/players/me", "/api/v1/games",
                  "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/moves",
                  "/api/v1/games/{game_id}/record", "/api/v1/sessions"]:
        assert route in paths, route
    moves = paths["/api/v1/games/{game_id}/moves"]["post"]
    assert {"200", "400", "401", "404", "409", "422"} <= set(moves["responses"])
    assert "application/problem+json" in moves["responses"]["422"]["content"]


# --- What the schema promises beyond each view's own declarations ---------------------------------

_BODY_METHODS = {"post", "put", "patch"}


@pytest.fixture(scope="module")
def document() -> dict:
    from django.test import Client

    return Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()


def _operations(document):
    """(method, path, operation, view class) for every operation the schema lists."""
    from django.urls import resolve

    for path, item in document["paths"].items():
        sample = path.replace("{token_id}", "00000000-0000-4000-8000-000000000000")
        for name in ("game_id", "league_id", "player_id", "match_id"):
            sample = sample.replace(f"{{{name}}}", "00000000-0000-4000-8000-000000000000")
        sample = sample.replace("{day}", "2026-11-29").replace("{number}", "1")
        view = resolve(sample).func.view_class
        for method, operation in item.items():
            yield method, path, operation, view


def test_move_analysis_declares_the_move_played_and_the_bots(document):
    schema = document["components"]["schemas"]["MoveAnalysisOutput"]
    assert {"played", "best"} <= set(schema["required"])
    assert schema["properties"]["played"]["description"] != schema["properties"]["best"][
        "description"]
    for name in ("played", "best"):
        assert schema["properties"][name]["type"] == "array", name


def test_a_problem_declares_its_extension_members_and_no_others(document):
    schema = document["components"]["schemas"]["Problem"]
    assert schema["additionalProperties"] is False
    assert {"errors", "legal_moves", "moves_played"} <= set(schema["properties"])


def test_illegal_and_stale_moves_answer_only_declared_members(document, player_api,
                                                              practice_game):
    declared = set(document["components"]["schemas"]["Problem"]["properties"])
    url = f"games/{practice_game['id']}/moves"
    illegal = player_api.post(url, {"row": 50, "col": 50, "move": 0})
    stale = player_api.post(url, {"row": 0, "col": 0, "move": 7})
    invalid = player_api.post(url, {"row": "0", "col": 0})
    for response, member in ((illegal, "legal_moves"), (stale, "moves_played"),
                             (invalid, "errors")):
        body = response.json()
        assert member in body and set(body) <= declared, body


def test_move_null_is_declared_as_it_is_taken(document, player_api, practice_game):
    move = document["components"]["schemas"]["MoveInputRequest"]["properties"]["move"]
    assert move["nullable"] is True
    row, col = practice_game["legal_moves"][0]
    response = player_api.post(f"games/{practice_game['id']}/moves",
                               {"row": row, "col": col, "move": None})
    assert response.status_code == 200 and response.json()["moves_played"] == 1


def test_every_operation_declares_the_errors_it_can_answer(document):
    from server.api import throttling

    for method, path, operation, view in _operations(document):
        responses = set(operation["responses"])
        label = f"{method.upper()} {path}"
        # Every view refuses unknown query parameters (400) and an Accept it cannot serve
        # (406), and any can meet a database that is down (503).
        assert {"400", "406", "503"} <= responses, label
        takes_body = "requestBody" in operation
        assert ({"411", "413", "415"} <= responses) == takes_body, label
        assert not takes_body or method in _BODY_METHODS, label
        assert ("429" in responses) == throttling.counts(view, method), label
        if view.authentication_classes:
            assert "401" in responses, label  # a token that is invalid or revoked
        for status in responses - {"200", "201", "202", "204"}:
            assert "application/problem+json" in operation["responses"][status]["content"], (
                label, status)
        if "429" in responses:
            assert operation["responses"]["429"]["headers"]["Retry-After"]["required"]


def test_every_201_declares_location_and_token_answers_no_store(document):
    for method, path, operation, _view in _operations(document):
        label = f"{method.upper()} {path}"
        for status, response in operation["responses"].items():
            declared = response.get("headers", {})
            if status == "201":
                assert declared["Location"]["required"], label
                assert declared["Location"]["schema"]["format"] == "uri", label
            if status.startswith("2") and "token" in _properties(document, response):
                assert declared["Cache-Control"]["schema"]["enum"] == ["no-store"], label
            if status.startswith("2") and method == "get":
                assert declared["Vary"]["required"], label


def _properties(document, response) -> set[str]:
    content = response.get("content", {}).get("application/json")
    if not content or "$ref" not in content["schema"]:
        return set()
    name = content["schema"]["$ref"].rsplit("/", 1)[-1]
    return set(document["components"]["schemas"][name].get("properties", {}))
