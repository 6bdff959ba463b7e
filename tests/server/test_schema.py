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
