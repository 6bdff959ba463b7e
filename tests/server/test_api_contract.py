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
