"""The API's shared contract at its edges: bodies, query and path values, negotiation, and
the error pages that are not an API view's. Each case answers one documented status and code
(docs/API.md, "What each request answers"), never a 500 or an HTML page."""

from __future__ import annotations

import pytest

from server.games.models import Game, Move
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
    "A" * 1001, _b64("p=" + "9" * 5000)[:1000],
])
def test_a_cursor_not_from_a_link_is_400_on_the_games_list(player_api, cursor):
    body = assert_problem(player_api.get("games", {"cursor": cursor}), 400, "invalid")
    assert body["errors"][0]["field"] == "cursor"


def test_a_games_cursor_is_400_on_a_board(player_api):
    games_cursor = _b64("p=2026-12-01 08:00:00.123456+00:00")
    for path in ("leaderboard", "daily/2026-11-05/leaderboard"):
        body = assert_problem(player_api.get(path, {"cursor": games_cursor}), 400, "invalid")
        assert body["errors"][0]["field"] == "cursor"


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

    from server.games.dailies import current_dates

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
