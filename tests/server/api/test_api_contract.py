"""The API's shared contract at its edges: bodies, query and path values, negotiation, and
the error pages that are not an API view's. Each case answers one documented status and code
(docs/API.md, "What each request answers"), never a 500 or an HTML page."""

from __future__ import annotations

import pytest

from server.foursquare.models import Game, Move
from tests.server.conftest import assert_problem

pytestmark = pytest.mark.django_db


# --- JSON bodies --------------------------------------------------------------------------------

@pytest.mark.parametrize("raw", ['{"\\ud800": 1}', '{"name": "\\udfff"}',
                                 '{"name": "Ada\\ud83d"}', '{"a": ["\\ud800"]}'])
def test_a_lone_surrogate_is_400_even_before_signing_in(api, raw):
    response = api.raw("post", "players", raw)
    body = assert_problem(response, 400, "invalid")
    assert "surrogate" in body["detail"]


def test_a_lone_surrogate_is_400_on_an_authenticated_write(player_api, practice_game):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves",
                              '{"row": 0, "col": 0, "\\udc00": 1}')
    assert_problem(response, 400, "invalid")
    assert not Move.objects.exists()


def test_a_surrogate_pair_is_text_and_reaches_validation(api):
    response = api.raw("post", "players", '{"nam\\ud83d\\ude00": 1}')
    body = assert_problem(response, 400, "invalid")
    assert body["errors"] == [{"field": "nam\U0001f600", "message": "Unknown field."}]


def test_a_duplicate_key_is_400_and_does_not_pick_a_mode(player_api):
    response = player_api.raw("post", "games", '{"mode": "practice", "mode": "daily"}')
    body = assert_problem(response, 400, "invalid")
    assert '"mode" appears twice' in body["detail"]
    assert not Game.objects.exists()


def test_a_duplicate_key_in_a_move_is_400_on_the_fast_path_too(player_api, practice_game):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves",
                              '{"row": 0, "col": 0, "move": 0, "row": 5}')
    assert_problem(response, 400, "invalid")
    assert not Move.objects.exists()


def test_nested_duplicate_keys_are_400(api):
    assert_problem(api.raw("post", "players", '{"x": {"a": 1, "a": 2}}'), 400, "invalid")


@pytest.mark.parametrize("number", ["1e400", "-1e400", "9" * 400 + ".0"])
def test_a_number_too_large_for_a_float_is_400(player_api, practice_game, number):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves",
                              f'{{"row": {number}, "col": 0}}')
    assert "too large" in assert_problem(response, 400, "invalid")["detail"]


@pytest.mark.parametrize("number", [str(2**63), str(-(2**63) - 1), "1" + "0" * 5000])
def test_an_integer_out_of_range_is_400(player_api, practice_game, number):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves",
                              f'{{"row": {number}, "col": 0}}')
    assert_problem(response, 400, "invalid")
    assert not Move.objects.exists()


def test_minus_zero_is_zero(player_api, practice_game):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves",
                              '{"row": -0, "col": 0, "move": -0}')
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("content_type", ["application/json; charset=latin-1",
                                          "application/json; charset=utf-16"])
def test_json_in_another_charset_is_415(api, content_type):
    response = api.raw("post", "players", b'{"name": "Ada"}', content_type)
    assert_problem(response, 415, "unsupported_media_type")


def test_json_declared_as_utf8_is_read(api):
    response = api.raw("post", "players", '{"name": "Ada Lovelace"}',
                       "application/json; charset=UTF-8")
    assert response.status_code == 201, response.content


# --- Query values in their canonical spelling ---------------------------------------------------

@pytest.mark.parametrize("limit", ["+5", " 5", "5 ", "05", "5.0", "٥", "²", "-1", "0", "1e1",
                                   "101", str(2**63), "9" * 5000])
def test_a_limit_not_written_canonically_is_400(player_api, limit):
    for path in ("games", "leaderboard"):
        body = assert_problem(player_api.get(path, {"limit": limit}), 400, "invalid")
        assert body["errors"][0]["field"] == "limit"


def test_a_canonical_limit_is_read(player_api):
    assert player_api.get("games", {"limit": "100"}).status_code == 200
    assert player_api.get("leaderboard", {"limit": "1"}).status_code == 200


@pytest.mark.parametrize("day", ["2026-1-5", "2026-11-5", "26-11-05", " 2026-11-05",
                                 "2026-11-05 ", "２０２６-11-05", "2026-11-05T00:00",
                                 "20261105", "0000-01-01", "2026-13-01", "2026-02-29",
                                 "2026-11-31", "10000-01-01"])
def test_a_date_not_written_canonically_is_400(player_api, day):
    assert_problem(player_api.get("leaderboard", {"date": day}), 400, "invalid")
    assert_problem(player_api.get("daily", {"date": day}), 400, "invalid")
    assert_problem(player_api.post("games", {"mode": "archive", "date": day}), 400, "invalid")
    assert_problem(player_api.post("games", {"mode": "daily", "date": day}), 400, "invalid")
    if "/" not in day:
        assert_problem(player_api.get(f"daily/{day}/leaderboard"), 400, "invalid")
    assert not Game.objects.exists()


def test_a_leap_day_is_a_date(player_api, settings):
    from datetime import date

    settings.FOURSQUARE_LAUNCH_DATE = date(2024, 1, 1)
    assert player_api.get("leaderboard", {"date": "2024-02-29"}).status_code == 200


# --- Cursors: one rule for every list -----------------------------------------------------------

def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


BOARD_CURSOR = "9.1.1764400329120455." + "3f2a" * 8


@pytest.mark.parametrize("cursor", [
    _b64("p=garbage"), _b64("p=2026-13-01 00:00:00+00:00"), _b64("p=0001-01-01"),
    _b64("o=-1"), _b64("o=99999999999999999999"), _b64("o=٥"), _b64("r=2"), _b64("x=1"),
    _b64("o=1&o=2"), _b64("p=2026-12-01 08:00:00+05:00"), _b64("p=9999-12-31 23:59:59+14:00"),
    "cD1nYXJiYWdl===", "cD1n YXJiYWdl", "!!!", "€", BOARD_CURSOR, _b64(BOARD_CURSOR),
    "A" * 1001, _b64("p=" + "9" * 5000)[:1000], "n1000.1", "n01.5", "x0.1", "n0.", "n0.-1",
    "n0." + "9" * 17, "n0.١٢", " n0.1", "n0.1\n", "N0.1",
])
def test_a_cursor_not_from_a_link_is_400_on_the_games_list(player_api, cursor):
    body = assert_problem(player_api.get("games", {"cursor": cursor}), 400, "invalid")
    assert body["errors"][0]["field"] == "cursor"


def test_a_games_cursor_is_400_on_a_board(player_api):
    games_cursor = _b64("p=2026-12-01 08:00:00.123456+00:00")
    for path in ("leaderboard", "daily/2026-11-05/leaderboard"):
        body = assert_problem(player_api.get(path, {"cursor": games_cursor}), 400, "invalid")
        assert body["errors"][0]["field"] == "cursor"


@pytest.mark.parametrize("cursor", ["n0", "p0", "n0.0", "n999.9999999999999999",
                                    "p3.1764400329120455"])
def test_every_string_of_the_games_cursor_pattern_is_a_place(player_api, cursor):
    response = player_api.get("games", {"cursor": cursor})
    assert response.status_code == 200, response.content


def test_next_and_previous_links_of_the_games_list_still_work(player_api):
    for _ in range(3):
        player_api.post("games", {"mode": "practice"})
    first = player_api.get("games", {"limit": 1}).json()
    second = player_api.get(first["next"]).json()
    assert second["results"][0]["id"] != first["results"][0]["id"]
    back = player_api.get(second["previous"]).json()
    assert back["results"][0]["id"] == first["results"][0]["id"]
    third = player_api.get(second["next"]).json()
    assert third["next"] is None and len(third["results"]) == 1


# --- Dates with no daily ------------------------------------------------------------------------

@pytest.mark.parametrize("period", ["day", "week", "all"])
@pytest.mark.parametrize("day", ["0001-01-01", "2026-10-31", "9999-12-31", "far-future"])
def test_a_board_of_a_date_with_no_daily_is_404_whatever_the_period(
        player_api, make_player, period, day):
    from datetime import timedelta

    from server.dailies.calendar import current_dates

    if day == "far-future":
        day = (current_dates()[1] + timedelta(days=1)).isoformat()
    assert_problem(player_api.get("leaderboard", {"period": period, "date": day}), 404,
                   "not_found")
    league = player_api.post("leagues", {"name": "Dates"}).json()
    assert_problem(player_api.get(f"leagues/{league['id']}/leaderboard",
                                  {"period": period, "date": day}), 404, "not_found")


@pytest.mark.parametrize("day", ["0001-01-01", "2026-10-31", "9999-12-31"])
def test_the_daily_of_a_date_with_no_daily_is_404(api, day):
    assert_problem(api.get("daily", {"date": day}), 404, "not_found")
    assert_problem(api.get(f"daily/{day}/leaderboard"), 404, "not_found")


def test_the_launch_week_board_from_the_launch_day_on_is_200(api, settings):
    from datetime import date

    settings.FOURSQUARE_LAUNCH_DATE = date(2026, 11, 4)  # a Wednesday
    assert_problem(api.get("leaderboard", {"period": "week", "date": "2026-11-02"}), 404,
                   "not_found")
    body = api.get("leaderboard", {"period": "week", "date": "2026-11-04"}).json()
    assert (body["start"], body["end"]) == ("2026-11-02", "2026-11-08")


# --- Negotiation --------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["json", "xml", "api", ""])
def test_format_is_an_unknown_query_parameter(api, value):
    body = assert_problem(api.get("leaderboard?format=" + value), 400, "invalid")
    assert body["errors"] == [{"field": "format", "message": "Unknown query parameter."}]


@pytest.mark.parametrize("accept", ["application/problem+json", "application/json",
                                    "application/*", "*/*", "",
                                    "text/html, application/problem+json;q=0.5"])
def test_an_accept_that_admits_json_or_problem_json_gets_json(api, accept):
    response = api.get("leaderboard", HTTP_ACCEPT=accept)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    error = api.get("leaderboard", {"limit": "0"}, HTTP_ACCEPT=accept)
    assert_problem(error, 400, "invalid")


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "image/*",
                                    "application/json;q=0"])
def test_an_accept_that_admits_neither_is_406(api, accept):
    assert_problem(api.get("leaderboard", HTTP_ACCEPT=accept), 406, "not_acceptable")


def test_problem_json_accept_reaches_the_move_view(player_api, practice_game):
    response = player_api.post(f"games/{practice_game['id']}/moves",
                               {"row": 0, "col": 0, "move": 0},
                               HTTP_ACCEPT="application/problem+json")
    assert response.status_code == 200, response.content
    assert Move.objects.count() == 1


# --- Bodies where none is taken, and repeated parameters -------------------------------------

def _send(api, method, path, body=b'{"x": 1}', **extra):
    return api.client.generic(method, f"/api/v1/{path}", body,
                              content_type="application/json", **extra)


def test_a_body_where_none_is_taken_is_400_and_changes_nothing(player_api):
    league = player_api.post("leagues", {"name": "Quiet"}).json()
    code = league["code"]
    for method, path in [("GET", "players/me"), ("GET", "games"), ("GET", "leaderboard"),
                         ("POST", f"leagues/{league['id']}/code"),
                         ("POST", f"leagues/{league['id']}/leave"),
                         ("DELETE", f"leagues/{league['id']}/members/{league['owner']['id']}"),
                         ("DELETE", "sessions/current")]:
        body = assert_problem(_send(player_api, method, path), 400, "invalid")
        assert "takes no request body" in body["detail"]
        assert body["errors"] == [{"field": "body",
                                   "message": "Takes no request body; send none."}]
    after = player_api.get(f"leagues/{league['id']}").json()
    assert after["code"] == code and after["member_count"] == 1
    assert player_api.get("players/me").status_code == 200  # the token was not revoked


def test_no_body_where_none_is_taken_is_fine(player_api):
    league = player_api.post("leagues", {"name": "Quiet"}).json()
    response = player_api.client.post(f"/api/v1/leagues/{league['id']}/code")
    assert response.status_code == 200, response.content
    assert player_api.client.delete("/api/v1/sessions/current",
                                    CONTENT_TYPE="application/json").status_code == 204


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", "٣"])
def test_a_content_length_that_is_not_a_number_is_400(api, length):
    response = api.client.generic("POST", "/api/v1/players", b"",
                                  CONTENT_LENGTH=length, CONTENT_TYPE="application/json")
    body = assert_problem(response, 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["Content-Length"]


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate, gzip"])
def test_a_content_encoded_body_is_415(api, encoding):
    response = _send(api, "POST", "players", b'{"name": "Ada"}', HTTP_CONTENT_ENCODING=encoding)
    assert_problem(response, 415, "unsupported_media_type")


def test_a_repeated_query_parameter_is_400(player_api):
    body = assert_problem(player_api.get("leaderboard?limit=5&limit=6"), 400, "invalid")
    assert body["errors"] == [{"field": "limit", "message": "Given more than once."}]
    assert_problem(player_api.get("games?limit=1&limit=1"), 400, "invalid")


# --- Chunked bodies -----------------------------------------------------------------------------

def _chunked(api, method, path, body: bytes, **extra):
    """A request as gunicorn hands it over: Transfer-Encoding: chunked, no CONTENT_LENGTH,
    and the de-chunked body in wsgi.input, ending where the body ends."""
    from io import BytesIO

    return api.client.generic(method, f"/api/v1/{path}", b"", "application/json", **{
        "CONTENT_TYPE": "application/json", "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": BytesIO(body), **extra})


def test_a_chunked_rename_is_read_whole(player_api):
    league = player_api.post("leagues", {"name": "Old name"}).json()
    response = _chunked(player_api, "PATCH", f"leagues/{league['id']}", b'{"name": "New name"}')
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "New name"
    assert player_api.get(f"leagues/{league['id']}").json()["name"] == "New name"


def test_a_chunked_move_is_played(player_api, practice_game):
    response = _chunked(player_api, "POST", f"games/{practice_game['id']}/moves",
                        b'{"row": 0, "col": 0, "move": 0}')
    assert response.status_code == 200, response.content
    assert Move.objects.count() == 1


def test_a_chunked_body_over_the_limit_is_413(player_api, settings):
    league = player_api.post("leagues", {"name": "Old name"}).json()
    body = b'{"name": "' + b"x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + b'"}'
    response = _chunked(player_api, "PATCH", f"leagues/{league['id']}", body)
    assert_problem(response, 413, "payload_too_large")
    assert player_api.get(f"leagues/{league['id']}").json()["name"] == "Old name"


def test_a_chunked_body_that_arrives_empty_is_411(player_api):
    league = player_api.post("leagues", {"name": "Old name"}).json()
    assert_problem(_chunked(player_api, "PATCH", f"leagues/{league['id']}", b""), 411,
                   "length_required")


def test_another_transfer_coding_is_411(player_api):
    league = player_api.post("leagues", {"name": "Old name"}).json()
    response = _chunked(player_api, "PATCH", f"leagues/{league['id']}", b'{"name": "New"}',
                        HTTP_TRANSFER_ENCODING="gzip, chunked")
    assert_problem(response, 411, "length_required")
    assert player_api.get(f"leagues/{league['id']}").json()["name"] == "Old name"


def test_a_chunked_body_where_none_is_taken_is_400(player_api):
    assert_problem(_chunked(player_api, "GET", "players/me", b'{"x": 1}'), 400, "invalid")


def test_the_wsgi_application_reads_a_chunked_body(make_player):
    """The application gunicorn runs, called with the environ gunicorn builds for a chunked
    request (no CONTENT_LENGTH), not through the test client."""
    import json
    from io import BytesIO

    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from server.wsgi import application

    _, player_api = make_player()
    league = player_api.post("leagues", {"name": "Old name"}).json()
    body = json.dumps({"name": "Over the wire"}).encode()
    environ = {
        "REQUEST_METHOD": "PATCH", "PATH_INFO": f"/api/v1/leagues/{league['id']}",
        "QUERY_STRING": "", "SERVER_NAME": "testserver", "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.input": BytesIO(body),
        "wsgi.errors": BytesIO(), "wsgi.version": (1, 0), "wsgi.multithread": True,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "HTTP_HOST": "testserver",
        "CONTENT_TYPE": "application/json", "HTTP_TRANSFER_ENCODING": "chunked",
        "HTTP_AUTHORIZATION": f"Bearer {player_api.token}",
    }
    started = []
    for signal in (request_started, request_finished):  # keep the test's transaction
        signal.disconnect(close_old_connections)
    try:
        content = b"".join(application(environ, lambda status, headers: started.append(status)))
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)
    assert started == ["200 OK"], content
    assert json.loads(content)["name"] == "Over the wire"


# --- Errors outside the API views ---------------------------------------------------------------

def test_post_healthz_is_a_problem_405_not_a_csrf_page():
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/healthz")
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]


def test_a_csrf_failure_asked_for_json_is_problem_json(db):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "x"}, HTTP_ACCEPT="application/json")
    body = assert_problem(response, 403, "permission_denied")
    assert "CSRF" in body["detail"]
    html = client.post("/admin/login/", {"username": "x"}, HTTP_ACCEPT="text/html")
    assert html.status_code == 403 and html["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("accept", ["application/json", "application/problem+json",
                                    "application/json, text/html;q=0.9"])
def test_errors_of_other_pages_are_problem_json_when_json_is_preferred(accept):
    from django.test import Client

    client = Client()
    assert_problem(client.get("/no-such-page", HTTP_ACCEPT=accept), 404, "not_found")
    response = client.post("/", HTTP_ACCEPT=accept)
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]


@pytest.mark.parametrize("accept", ["text/html", "*/*", "",
                                    "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_errors_of_other_pages_stay_html_for_browsers(accept):
    from django.test import Client

    response = Client().get("/no-such-page", HTTP_ACCEPT=accept)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_every_error_under_api_is_problem_json_whatever_accept():
    from django.test import Client

    client = Client()
    for accept in ("text/html", "*/*", ""):
        assert_problem(client.get("/api/v1/no-such-thing", HTTP_ACCEPT=accept), 404,
                       "not_found")
        assert_problem(client.put("/healthz", HTTP_ACCEPT=accept), 405, "method_not_allowed")


@pytest.mark.parametrize("path", ["/api/schema/?format=xml", "/api/docs/?format=xml"])
def test_a_format_the_schema_views_lack_is_a_json_problem_404(path):
    from django.test import Client

    body = assert_problem(Client().get(path), 404, "not_found")
    assert body["type"] == "/api/problems/not_found"  # JSON, not the view's YAML or HTML


def test_the_schema_keeps_its_format_parameter():
    from django.test import Client

    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


@pytest.mark.parametrize("path", ["leaderboard", "games", "players/me"])
def test_too_many_query_parameters_is_400_not_500(player_api, settings, path):
    count = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1
    response = player_api.get(path + "?" + "&".join(f"p{i}=1" for i in range(count)))
    body = assert_problem(response, 400, "invalid")
    assert str(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS) in body["detail"]


def test_a_disallowed_host_is_a_problem_400(api):
    assert_problem(api.client.get("/api/v1/leaderboard", HTTP_HOST="evil..example"), 400,
                   "invalid")


def test_a_content_encoded_move_is_415_on_the_fast_path_too(player_api, practice_game):
    response = _send(player_api, "POST", f"games/{practice_game['id']}/moves",
                     b'{"row": 0, "col": 0, "move": 0}', HTTP_CONTENT_ENCODING="gzip")
    assert_problem(response, 415, "unsupported_media_type")
    assert not Move.objects.exists()
