"""The move fast path answers exactly as the full view would, and hands over everything else.

Every other test of moves runs with the fast path on (the default), so each error it checks is
also a check that the fast path handed that request over intact.
"""

from __future__ import annotations

from unittest import mock

import pytest

from server.api.models import IdempotencyRecord
from server.foursquare import fastmove, services
from server.foursquare.models import Game, Move
from tests.server.conftest import assert_problem
from tests.server.foursquare.support import comparable, play_out

# The fast path is PostgreSQL's alone (prepared statements, a conditional WITH ... INSERT); on
# SQLite every move takes the full view, which the rest of the suite runs there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

# What differs between two games on one deal, whichever path answered.
OWN_FIELDS = ("id", "created_at", "finished_at")


def _moves_url(game: dict) -> str:
    return f"games/{game['id']}/moves"


def test_a_whole_game_gets_the_same_answers_on_both_paths(settings, player_api):
    fast_game = player_api.post("games", {"mode": "practice"}).json()
    chosen: list[tuple[int, int]] = []

    def first_then_record(game):
        move = tuple(game["legal_moves"][len(chosen) % len(game["legal_moves"])])
        chosen.append(move)
        return move

    with mock.patch.object(services, "game_lock", wraps=services.game_lock) as full_view:
        fast = play_out(player_api, fast_game, first_then_record)
    assert full_view.call_count == 0  # every move was answered on the fast path

    settings.FOURSQUARE_FAST_MOVES = False
    full_game = player_api.post("games", {"mode": "practice",
                                          "deal": fast_game["deal"]}).json()
    replayed = iter(chosen)
    full = play_out(player_api, full_game, lambda _game: next(replayed))

    assert [comparable(r, OWN_FIELDS) for r in fast] == [comparable(r, OWN_FIELDS) for r in full]
    assert fast[-1].json()["status"] in ("won", "lost")
    stored = {game_id: list(Move.objects.filter(game_id=game_id).order_by("number")
                            .values_list("number", "row", "col", "card"))
              for game_id in (fast_game["id"], full_game["id"])}
    assert stored[fast_game["id"]] == stored[full_game["id"]]
    assert len(stored[fast_game["id"]]) == len(fast)


def test_a_move_takes_two_statements(player_api, practice_game):
    with mock.patch.object(services, "execute_prepared",
                           wraps=services.execute_prepared) as statements:
        row, col = practice_game["legal_moves"][0]
        response = player_api.post(_moves_url(practice_game), {"row": row, "col": col},
                                   HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 200, response.content
    assert statements.call_count == 2
    assert IdempotencyRecord.objects.filter(key="k-1").count() == 1


def test_a_retry_gets_the_first_answer_byte_for_byte(player_api, practice_game):
    row, col = practice_game["legal_moves"][0]
    body = {"row": row, "col": col, "move": 0}
    first = player_api.post(_moves_url(practice_game), body, HTTP_IDEMPOTENCY_KEY="same")

    with mock.patch.object(services, "game_lock", wraps=services.game_lock) as full_view:
        retry = player_api.post(_moves_url(practice_game), body, HTTP_IDEMPOTENCY_KEY="same")

    assert full_view.call_count == 0
    assert (retry.status_code, retry.content) == (first.status_code, first.content)
    assert Move.objects.filter(game_id=practice_game["id"]).count() == 1
    other = {"row": row, "col": col, "move": 1}
    reused = player_api.post(_moves_url(practice_game), other, HTTP_IDEMPOTENCY_KEY="same")
    assert_problem(reused, 422, "idempotency_key_reused")


def test_a_move_that_lost_the_race_is_answered_by_the_full_view(player_api, practice_game):
    """Between the fast path's read and its write another request plays a move: the write
    finds the game moved on, stores nothing, and the full view answers 409."""
    real_store = fastmove._store
    row, col = practice_game["legal_moves"][0]  # both play the same first move

    def rival_first(game, *args, **kwargs):
        services.move_play(game=Game.objects.get(pk=game.pk), row=row, col=col,
                           expected_move=0)
        return real_store(game, *args, **kwargs)

    with mock.patch.object(fastmove, "_store", side_effect=rival_first):
        response = player_api.post(_moves_url(practice_game), {"row": row, "col": col,
                                                               "move": 0},
                                   HTTP_IDEMPOTENCY_KEY="late")

    body = assert_problem(response, 409, "stale_move")
    assert body["moves_played"] == 1
    stored = Move.objects.filter(game_id=practice_game["id"]).values_list("number", "row", "col")
    assert list(stored) == [(0, row, col)]
    assert not IdempotencyRecord.objects.filter(key="late").exists()


def test_a_handed_over_request_is_counted_once_by_the_rate_limit(settings, player_api,
                                                                 practice_game):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "3/min"}
    url = _moves_url(practice_game)
    for _ in range(3):  # each checked by the fast path, then refused by the full view
        assert_problem(player_api.post(url, {"row": 3, "col": 3, "move": 7}), 409, "stale_move")

    assert_problem(player_api.post(url, {"row": 3, "col": 3, "move": 0}), 429, "throttled")


def test_an_accept_header_other_than_json_is_refused_by_the_full_view(player_api,
                                                                      practice_game):
    row, col = practice_game["legal_moves"][0]
    response = player_api.post(_moves_url(practice_game), {"row": row, "col": col},
                               HTTP_ACCEPT="text/html")
    assert_problem(response, 406, "not_acceptable")
    assert not Move.objects.filter(game_id=practice_game["id"]).exists()


def test_json_with_parameters_is_rendered_by_the_full_view(player_api, practice_game):
    row, col = practice_game["legal_moves"][0]
    with mock.patch.object(services, "game_lock", wraps=services.game_lock) as full_view:
        response = player_api.post(_moves_url(practice_game), {"row": row, "col": col},
                                   HTTP_ACCEPT="application/json; indent=2")
    assert response.status_code == 200
    assert full_view.call_count == 1
    assert b'\n  "id"' in response.content  # indented as asked
