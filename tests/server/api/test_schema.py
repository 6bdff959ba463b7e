"""The served OpenAPI schema, and schemathesis over every operation of the API.

Schemathesis generates valid and invalid requests from the schema and checks that no response
is a server error and that every status, content type and body matches what the schema says.
A schema-valid request may still be refused by the game's state (an illegal move, a daily not
current, a name taken), so 409 and 422 count as accepted answers for valid data. Each operation
and mode has a seed of its own (``repeatable``): every run sends the same requests.
"""

import inspect
import zlib

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, assume, given, seed, settings
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


def repeatable(operation, mode):
    """Hypothesis seeded from the operation and the mode: every run sends the same requests
    (and the example database is off), so a failure is one the next run meets again."""
    return seed(zlib.crc32(f"{operation.label} {mode.value}".encode()))


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
    @repeatable(operation, mode)
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
        for name in ("game_id", "league_id", "player_id", "match_id", "race_id"):
            sample = sample.replace(f"{{{name}}}", "00000000-0000-4000-8000-000000000000")
        sample = sample.replace("{day}", "2026-11-29").replace("{number}", "1")
        view = resolve(sample).func.view_class
        for method, operation in item.items():
            yield method, path, operation, view


def test_no_operation_is_described_by_a_base_class_docstring(document):
    """An operation's description is its own (``extend_schema``'s, or its view's own
    docstring), never the docstring of a class its view inherits, written for the code's
    readers (``ApiView``'s: "An ``APIView`` that refuses query parameters ...")."""
    found = []
    for method, path, operation, view in _operations(document):
        description = operation.get("description", "")
        inherited = {inspect.cleandoc(klass.__doc__).split("\n\n")[0]
                     for klass in view.__mro__[1:] if klass.__doc__}
        if any(doc in description for doc in inherited) or "``" in description:
            found.append(f"{method} {path}: {description[:60]!r}")
    assert found == []


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
    assert {"errors", "legal_moves", "moves_played", "legal_actions", "game", "actions",
            "turn"} <= set(schema["properties"])


def test_spite_malice_refusals_answer_only_declared_members(document, player_api):
    """stale_action, not_your_turn and illegal_action carry how to recover, all declared."""
    from server.spitemalice.models import Match

    declared = set(document["components"]["schemas"]["Problem"]["properties"])
    match = player_api.post("spite-malice/matches", {"opponent": "bot", "level": "easy",
                                                      "target": 1}).json()
    url = f"spite-malice/matches/{match['id']}/actions"
    game = match["game"]
    stale = player_api.post(url, {"action": game["legal_actions"][0],
                                  "actions": game["actions"] + 1})
    illegal = player_api.post(url, {"action": ["P", "S0"]})
    Match.objects.filter(pk=match["id"]).update(turn=1)  # as while the bot thinks
    not_yours = player_api.post(url, {"action": game["legal_actions"][0]})
    for response, members in ((stale, {"game", "actions"}), (illegal, {"legal_actions"}),
                              (not_yours, {"turn", "game", "actions"})):
        body = response.json()
        assert members <= set(body) and set(body) <= declared, body
    responses = document["paths"]["/api/v1/spite-malice/matches/{match_id}/actions"]["post"][
        "responses"]
    for status, members in (("409", ("`game`", "`actions`", "`turn`")),
                            ("422", ("`legal_actions`",))):
        assert all(member in responses[status]["description"] for member in members), status


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


def test_only_operations_that_need_a_token_declare_a_security_requirement(document):
    """An operation answered without a token declares none (``security: []``); where a token
    is optional the description says it is read. ``[{}]`` or ``[{"bearerAuth": []}, {}]``
    would read as "token required" to client generators."""
    from rest_framework.permissions import AllowAny

    from server.api.schema import TOKEN_OPTIONAL

    public = set()
    for method, path, operation, view in _operations(document):
        label = f"{method.upper()} {path}"
        anonymous = AllowAny in view.permission_classes
        assert operation["security"] == ([] if anonymous else [{"bearerAuth": []}]), label
        optional = anonymous and bool(view.authentication_classes)
        assert (TOKEN_OPTIONAL in operation.get("description", "")) == optional, label
        if anonymous:
            public.add(operation["operationId"])
    assert {"players_create", "sessions_create", "daily_leaderboard", "leaderboard",
            "spite_malice_ratings", "challenges_retrieve"} <= public
    assert "players_me" not in public


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


def test_a_token_labels_published_pattern_is_the_rule_the_server_enforces(document):
    """The label's pattern, as a JSON Schema validator (ECMA-262's reading) and as schemathesis
    (Python's re over ASCII classes) read it, takes exactly the labels the server takes: with
    each character of the Basic Multilingual Plane's first part (controls, C1 controls and
    Unicode's spaces among them) alone, inside, at either end and before a final newline."""
    import re

    import jsonschema_rs
    from rest_framework.exceptions import ValidationError

    from server.players.serializers import token_label_field

    schemas = document["components"]["schemas"]
    published = [schemas[name]["properties"]["label"]
                 for name in ("PlayerCreateInputRequest", "SessionCreateInputRequest")]
    assert published[0] == published[1]
    pattern = published[0]["pattern"]
    validator = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    ascii_reading = re.compile(pattern.removesuffix("$") + r"\Z", re.ASCII)
    field = token_label_field()

    def server_takes(label: str) -> bool:
        try:
            field.run_validation(label)
        except ValidationError:
            return False
        return True

    disagreements = []
    for code in [*range(0x3100), 0xFEFF, 0x1F4F1]:
        char = chr(code)
        for label in (char, f"x{char}x", f"{char}x", f"x{char}", f"x{char}\n"):
            server = server_takes(label)
            readings = (validator.is_valid(label), bool(ascii_reading.search(label)))
            if readings != (server, server):
                disagreements.append((label, server, readings))
    assert disagreements == []
    assert not server_takes("\x85") and not server_takes("x\n") and server_takes("x y")


# --- Spite & Malice between people: schemathesis on real matches, codes and invitations ---------

# Every match operation but the hint, which refuses every match between people (403).
FRIEND_OPERATIONS = [operation for operation in OPERATIONS
                     if operation.path.startswith("/api/v1/spite-malice/matches")
                     and not operation.path.endswith("/hint")]


@pytest.fixture
def friend_world(db, auth_header):
    """The schemathesis player's matches between people, each in another state (waiting,
    being played, finished, an invitation to them from a league mate), and codes to join."""
    from django.test import Client

    from server.players.models import Player

    me = Client(HTTP_AUTHORIZATION=auth_header["Authorization"])
    _mate, mate_token = players.player_create(name="Schemathesis Mate")
    other = Client(HTTP_AUTHORIZATION=f"Bearer {mate_token}")
    league = me.post("/api/v1/leagues", {"name": "Schemas"}, content_type="application/json")
    other.post("/api/v1/leagues/join", {"code": league.json()["code"]},
               content_type="application/json")
    mine = Player.objects.get(name="Schemathesis")

    def create(client, **body):
        return client.post("/api/v1/spite-malice/matches", {"opponent": "friend", **body},
                           content_type="application/json").json()

    def join(client, code):
        return client.post("/api/v1/spite-malice/matches/join", {"code": code},
                           content_type="application/json").json()

    waiting = create(me, turn_seconds=60, target=1)
    playing = join(me, create(other)["invite"]["code"])
    finished = join(other, create(me, target=1)["invite"]["code"])
    me.post(f"/api/v1/spite-malice/matches/{finished['id']}/resign")
    invitation = create(other, invitee=str(mine.pk))
    open_code = create(other)["invite"]["code"]
    return {"match_ids": [waiting["id"], playing["id"], finished["id"], invitation["id"]],
            "codes": [open_code, invitation["invite"]["code"], waiting["invite"]["code"],
                      open_code.lower()]}


@pytest.mark.parametrize("operation", FRIEND_OPERATIONS, ids=lambda op: op.label)
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=lambda mode: mode.value)
def test_friend_match_operations_conform_on_real_matches(operation, mode, auth_header,
                                                         friend_world,
                                                         wsgi_requests_keep_the_test_connection):
    from hypothesis import strategies as st

    @repeatable(operation, mode)
    @given(case=operation.as_strategy(generation_mode=mode), pick=st.integers(0, 3),
           real_code=st.booleans())
    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case, pick, real_code):
        # An unknown query parameter whose value is an empty list is sent as nothing at all,
        # so the request schemathesis means to be invalid arrives valid (its issue #3730):
        # such a case tests nothing.
        assume(not any(value == [] for value in (case.query or {}).values()))
        # Valid requests meet real matches and codes; invalid ones stay as generated (a real
        # id in place of a broken one would make them valid).
        if mode == GenerationMode.POSITIVE and "match_id" in (case.path_parameters or {}):
            case.path_parameters["match_id"] = friend_world["match_ids"][pick]
        if (mode == GenerationMode.POSITIVE and real_code
                and operation.path.endswith("/matches/join")):
            case.body = {"code": friend_world["codes"][pick]}
        case.call_and_validate(headers=auth_header)

    check()
