"""Every operation of the API, attacked as a hostile client would: no answer is a 5xx, and every
refusal is a precise problem+json.

schemathesis (test_schema.py) sends what the schema describes, and its negation. These tests
send what a schema never suggests, from strategies of their own, into every query parameter,
path parameter, body field and key and a few headers of every operation the OpenAPI document
lists (so a new operation is attacked the day it is added): lone surrogates and format
characters, calendar extremes (year 1 and 9999, 29 February of a common year, dates long before
the launch or far ahead), numbers beyond 64 bits or a double (2**63, 1e400) and -0, duplicate
keys, and crafted cursors (base64 of garbage, another list's cursor, huge ones). The requests
go to the WSGI application gunicorn runs, as an environ like gunicorn's, not through the test
client, which builds Django's request itself.
"""

from __future__ import annotations

import base64
import io
import json
import uuid
from datetime import timedelta
from urllib.parse import quote, unquote_to_bytes

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.dailies.calendar import current_dates
from server.players import services as players
from server.wsgi import application

pytestmark = pytest.mark.django_db

EXAMPLES = 40  # per operation: about 30 operations, so about 1,200 requests (some seconds)


def _schema_document() -> dict:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json",
                            HTTP_HOST="localhost")
    assert response.status_code == 200, response.content
    return response.json()


DOCUMENT = _schema_document()


def _body_fields(schema: dict | None) -> list[str]:
    """The property names a request body may have, across every shape (oneOf) it allows."""
    if not schema:
        return []
    if "$ref" in schema:
        schema = DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    names = list(schema.get("properties", {}))
    for variant in schema.get("oneOf", []) + schema.get("allOf", []):
        names += [name for name in _body_fields(variant) if name not in names]
    return names


OPERATIONS = [
    {
        "method": method.upper(), "path": path,
        "query": sorted(p["name"] for p in operation.get("parameters", []) if p["in"] == "query"),
        "path_params": {p["name"]: p.get("schema", {}) for p in operation.get("parameters", [])
                        if p["in"] == "path"},
        "body": "requestBody" in operation,
        "fields": _body_fields(operation.get("requestBody", {}).get("content", {})
                               .get("application/json", {}).get("schema")),
    }
    for path, methods in DOCUMENT["paths"].items() if path.startswith("/api/v1/")
    for method, operation in methods.items()
]


# --- Hostile values ----------------------------------------------------------------------------

def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _calendar() -> list[str]:
    first, last = current_dates()
    return ["0001-01-01", "9999-12-31", "0000-01-01", "2025-02-29", "2100-02-29", "2024-02-29",
            "2026-10-31", "2026-11-01", first.isoformat(), last.isoformat(),
            (last + timedelta(days=1)).isoformat(), (last + timedelta(days=3650)).isoformat(),
            "1969-12-31", "2026-1-5", "2026-11-5", "26-11-05", "2026-11-05T00:00:00Z",
            "٢٠٢٦-١١-٠١", "２０２６-11-01", "2026-11-01\u200b", "\ufeff2026-11-01", "2026/11/01"]


SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
FORMAT_CHARACTERS = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u200e", "\u202e",
                                     "\u2066", "\u2069", "\ufeff", "\u00ad", "\u180e",
                                     "\U000e0001", "\x00", "\x1b", "\u0085", "\u2028"])
NUMBERS = st.sampled_from([str(2**63), str(-(2**63) - 1), str(2**64), "1e400", "-1e400", "-0",
                           "0", "+5", " 5", "5 ", "05", "5.0", "1e2", "٥", "²", "NaN",
                           "Infinity", "-1", "9" * 30, "9" * 5000, "0x10", "1_000"])
CURSORS = st.sampled_from([
    _b64("p=garbage"), _b64("o=1&r=1&p=2026-12-01 00:00:00+00:00"), _b64("o=-1"),
    _b64("p=" + "9" * 5000), "cD1nYXJiYWdl====", "!!!", "n0.1", "p999.9999999999999999",
    "n0." + "9" * 40, "9.1.1764400329120455." + "3f2a" * 8,
    "999999999.999999999.9999999999999999." + "f" * 32, _b64("9.1.1764400329120455." + "0" * 32),
    "A" * 20000, "n" + "9" * 5000,
])
PATH_STRINGS = st.sampled_from(["0", "-1", "me", "%00", "%ED%A0%80", "%F0%9F%98%80", "..",
                                "a" * 3000, "00000000-0000-0000-0000-000000000000",
                                str(2**63), "2026-02-29", "9999-12-31"])


def _text() -> st.SearchStrategy[str]:
    pieces = st.one_of(st.text(max_size=8), SURROGATES, FORMAT_CHARACTERS, NUMBERS,
                       st.sampled_from(_calendar()), CURSORS)
    return st.lists(pieces, min_size=1, max_size=3).map("".join)


def _query_value() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(_calendar()), NUMBERS, CURSORS, _text(),
                     st.sampled_from(["day", "week", "all", "me", "ME", "", " "]))


def _json_value(depth: int = 2) -> st.SearchStrategy[str]:
    """A JSON value as raw text, so that it can hold what json.dumps never writes: 1e400,
    -0, a lone surrogate escape."""
    leaves = st.one_of(
        _text().map(lambda text: json.dumps(text)),  # ensure_ascii: surrogates as \\udXXX
        st.sampled_from(_calendar()).map(json.dumps),
        st.sampled_from(["daily", "practice", "archive", "k3m9x2p7q4rt"]).map(json.dumps),
        NUMBERS.filter(lambda n: n.lstrip("-").replace(".", "").isdigit() or "e" in n),
        st.sampled_from(["true", "false", "null", "[]", "{}", "-0.0", "1E-400", "0.1"]),
    )
    if depth == 0:
        return leaves
    inner = _json_value(depth - 1)
    return st.one_of(leaves, st.lists(inner, max_size=3).map(lambda v: "[" + ",".join(v) + "]"),
                     _json_object(inner))


def _json_object(values, fields: list[str] | None = None) -> st.SearchStrategy[str]:
    keys = st.one_of(st.sampled_from(fields), _text()) if fields else _text()
    pairs = st.lists(st.tuples(keys, values), max_size=5)  # a key may come twice
    return pairs.map(lambda items: "{" + ", ".join(f"{json.dumps(key)}: {value}"
                                                   for key, value in items) + "}")


# Header values as a server hands them over: ISO-8859-1, without the control characters that
# gunicorn refuses itself with a 400 (RFC 9110 section 5.5), so they never reach the application.
LATIN_1 = st.text(st.characters(max_codepoint=255, exclude_categories=["Cs", "Cc"]),
                  max_size=40)
HEADERS = st.fixed_dictionaries({}, optional={
    "HTTP_ACCEPT": st.one_of(LATIN_1, st.sampled_from([
        "application/problem+json", "text/html", "application/json;q=0", "*/*;q=abc",
        "application/json; indent=99999999", ",,,", "a/" + "b" * 5000])),
    "HTTP_IDEMPOTENCY_KEY": st.one_of(LATIN_1, st.sampled_from(["", " ", "k" * 300])),
    "CONTENT_TYPE": st.sampled_from(["text/plain", "application/json; charset=utf-16",
                                     "application/json;;;", "application/json; charset=x\u00ff",
                                     "", "application/x-www-form-urlencoded"]),
    "HTTP_CONTENT_ENCODING": st.sampled_from(["gzip", "identity", "x" * 300]),
    "HTTP_AUTHORIZATION": st.one_of(LATIN_1.map(lambda t: "Bearer " + t),
                                    st.sampled_from(["Bearer", "Basic abc", "Bearer " + "x" * 9000,
                                                     "bearer  x"])),
})


# --- The requests ------------------------------------------------------------------------------

@pytest.fixture
def world(db, settings):
    """A signed-in player with a practice game, a league, a token id and a Spite & Malice
    match against another player, for path parameters that must name something real to get
    past the 404; no rate limits, so every example is answered on its merits. Requests sent
    straight to the WSGI application keep the test's connection, and its transaction, as the
    test client's do."""
    settings.THROTTLE_RATES = {scope: "off" for scope in settings.THROTTLE_RATES}
    player, token = players.player_create(name="Hostile")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    game = client.post("/api/v1/games", {"mode": "practice"}, content_type="application/json")
    league = client.post("/api/v1/leagues", {"name": "Hostiles"},
                         content_type="application/json")
    tokens = client.get("/api/v1/players/me/tokens").json()
    # A Spite & Malice match between people, joined and being played: each match operation
    # then meets a real match with a clock, an opponent and a game.
    _, other_token = players.player_create(name="Hostile Opponent")
    invited = client.post("/api/v1/spite-malice/matches", {"opponent": "friend"},
                          content_type="application/json").json()
    Client(HTTP_AUTHORIZATION=f"Bearer {other_token}").post(
        "/api/v1/spite-malice/matches/join", {"code": invited["invite"]["code"]},
        content_type="application/json")
    real = {"game_id": game.json()["id"], "league_id": league.json()["id"],
            "player_id": str(player.pk), "token_id": str(tokens[0]["id"]),
            "day": current_dates()[1].isoformat(), "match_id": invited["id"]}
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield token, real
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], content: bytes) -> None:
        self.status_code = int(status.split()[0])
        self.headers = dict(headers)
        self.content = content


def _call(method: str, path: str, query: str, body: bytes, meta: dict) -> Answer:
    """One request to the WSGI application, its environ built as gunicorn builds it."""
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query, "SERVER_NAME": "testserver", "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "testserver",
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(), "wsgi.multithread": True, "wsgi.multiprocess": True,
        "wsgi.run_once": False, **meta,
    }
    if body:
        environ["CONTENT_LENGTH"] = str(len(body))
    started = {}

    def start_response(status, headers, exc_info=None):
        started.update(status=status, headers=headers)

    result = application(environ, start_response)
    try:
        content = b"".join(result)
    finally:
        result.close()
    return Answer(started["status"], started["headers"], content)


# Bodies no strategy above writes: not JSON, two documents, a BOM, and literal surrogates
# (sent as the invalid UTF-8 they become).
RAW_BODIES = st.sampled_from(["", "{", '{"a": 1} {"b": 2}', "\ufeff{}", '{"name": "\ud800"}',
                              '{"\udfff": 1}', "\x00"])


def _stand_in(schema: dict) -> str:
    """A value of a path parameter's type, for one the world below has no real value of."""
    if schema.get("type") == "integer":
        return "1"
    if schema.get("format") == "date":
        return current_dates()[1].isoformat()
    return str(uuid.uuid4())


def _request(operation: dict, real: dict) -> st.SearchStrategy[dict]:
    path_values = {
        name: st.one_of(st.just(real.get(name) or _stand_in(schema)), st.just(str(uuid.uuid4())),
                        PATH_STRINGS,
                        st.sampled_from(_calendar()) if name == "day" else PATH_STRINGS)
        for name, schema in operation["path_params"].items()
    }
    names = st.sampled_from(operation["query"] + ["format", "limit", "cursor", "x"])
    query = st.one_of(st.lists(st.tuples(names, _query_value()), max_size=4),
                      st.just([(f"p{i}", "1") for i in range(1001)]))  # past Django's limit
    if operation["body"]:
        body = st.one_of(_json_object(_json_value(), operation["fields"]), _json_value(),
                         RAW_BODIES)
    else:
        body = st.one_of(st.just(""), _json_object(_json_value()))
    return st.fixed_dictionaries({"path": st.fixed_dictionaries(path_values), "query": query,
                                  "body": body, "headers": HEADERS})


def _check(response) -> None:
    assert response.status_code < 500, response.content[:500]
    if response.status_code < 400:
        return
    assert response.headers["Content-Type"] == "application/problem+json", response.content[:500]
    problem = json.loads(response.content)
    assert problem["status"] == response.status_code
    assert problem["code"] and problem["code"] != "error", problem
    assert problem["type"] == f"/api/problems/{problem['code']}"
    assert isinstance(problem["title"], str) and isinstance(problem["detail"], str)
    for error in problem.get("errors", []):
        assert set(error) == {"field", "message"}


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op['method']} {op['path']}")
def test_no_hostile_request_gets_a_5xx_or_anything_but_a_problem(operation, world):
    token, real = world

    @given(request=_request(operation, real))
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def attack(request):
        path = operation["path"]
        for name, value in request["path"].items():
            path = path.replace("{" + name + "}", value if "%" in value else quote(value))
        query = "&".join(f"{quote(name)}={quote(value, safe='', errors='surrogatepass')}"
                         for name, value in request["query"])
        meta = {"CONTENT_TYPE": "application/json", "HTTP_AUTHORIZATION": f"Bearer {token}",
                **request["headers"]}
        body = request["body"].encode("utf-8", "surrogatepass")
        _check(_call(operation["method"], path, query, body, meta))

    attack()


@pytest.mark.parametrize("path", sorted(DOCUMENT["paths"]))
def test_an_undeclared_method_is_a_problem_405(path, world):
    token, real = world
    declared = {method.upper() for method in DOCUMENT["paths"][path]}
    concrete = path
    for operation in OPERATIONS:
        if operation["path"] == path:
            for name, schema in operation["path_params"].items():
                concrete = concrete.replace("{" + name + "}", real.get(name) or _stand_in(schema))
    for method in sorted({"GET", "POST", "PUT", "PATCH", "DELETE"} - declared):
        response = _call(method, concrete, "", b"", {"HTTP_AUTHORIZATION": f"Bearer {token}",
                                                     "HTTP_ACCEPT": "application/json"})
        assert response.status_code == 405, (method, concrete, response.content[:300])
        _check(response)


@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "x\u00ff"])
def test_a_charset_with_too_many_query_parameters_is_400(world, charset, settings):
    """Django's own request parses the query while it is built when Content-Type names a known
    charset; past the limit on query parameters that was an exception no handler could answer."""
    _token, _ = world
    query = "&".join(f"p{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = _call("GET", "/api/v1/leaderboard", query, b"",
                     {"CONTENT_TYPE": f"application/json; charset={charset}"})
    assert response.status_code == 400, response.content
    _check(response)


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op['method']} {op['path']}")
def test_a_body_is_refused_exactly_where_the_schema_declares_none(operation, world):
    """The schema and the views agree on which operations take a body: a view that reads none
    must say so (``takes_body = False``), or a client's body would be silently ignored."""
    token, real = world
    path = operation["path"]
    for name, schema in operation["path_params"].items():
        path = path.replace("{" + name + "}", real.get(name) or _stand_in(schema))
    response = _call(operation["method"], path, "", b'{"unexpected": 1}',
                     {"CONTENT_TYPE": "application/json", "HTTP_AUTHORIZATION": f"Bearer {token}"})
    refused = (response.status_code == 400
               and b"takes no request body" in response.content)
    assert refused == (not operation["body"]), (response.status_code, response.content[:300])
