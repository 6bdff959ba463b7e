"""A fresh practice deal's fast path answers exactly as the full view would, stores the same
rows, and hands over everything else.

Every other test that starts a practice game runs with the fast path on (the default), so each
of them also checks that its answer is what the rest of the API expects of a new game.
"""

from __future__ import annotations

from unittest import mock

import pytest

from server.api.models import IdempotencyRecord
from server.core import sql
from server.foursquare import faststart, services
from server.foursquare.models import Deal, Game
from tests.server.conftest import assert_problem
from tests.server.foursquare.support import comparable

# The fast path is PostgreSQL's alone (prepared statements, inserts in one WITH); on SQLite
# every start takes the full view, which the rest of the suite runs there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

# What differs between two games started on one deal, whichever path answered.
OWN_FIELDS = ("id", "deal", "created_at")
SEED = bytes(range(32))


@pytest.fixture
def player_api(player_api):
    """A guest whose token has been used: a token's first use is written by the full view
    (``fastpath.token_usable``), as every player's is when they open the app."""
    assert player_api.get("games").status_code == 200
    return player_api


def _start(api, key: str, body: dict | None = None):
    # Both paths deal from the same seed, so the two games hold the same cards.
    with mock.patch("secrets.token_bytes", return_value=SEED):
        return api.post("games", body or {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY=key)


def _stored(game_id: str) -> dict:
    game = Game.objects.select_related("deal").get(pk=game_id)
    return {"cards": game.deal.cards, "mode": game.mode, "status": game.status,
            "moves": (game.moves_played, game.move_list, game.score, game.finished_at),
            "daily": game.daily_id, "race": game.race_id, "ranked": game.ranked,
            "times": (game.opens_at, game.closes_at), "same_time": game.created_at ==
            game.updated_at}


def _comparable(response) -> tuple:
    status, headers, body = comparable(response, OWN_FIELDS)
    location = headers.pop("Location")
    assert location == f"http://testserver/api/v1/games/{response.json()['id']}"
    return status, headers, body


def test_a_practice_start_gets_the_answer_and_rows_of_the_full_view(settings, player_api):
    with mock.patch.object(services, "game_start", wraps=services.game_start) as full_view:
        fast = _start(player_api, "fast")
    assert full_view.call_count == 0  # answered on the fast path

    settings.FOURSQUARE_FAST_STARTS = False
    with mock.patch.object(services, "game_start", wraps=services.game_start) as full_view:
        full = _start(player_api, "full")
    assert full_view.call_count == 1

    assert fast.status_code == 201, fast.content
    assert _comparable(fast) == _comparable(full)
    assert _stored(fast.json()["id"]) == _stored(full.json()["id"])
    assert _stored(fast.json()["id"])["cards"].count(" ") == 39  # a whole deck was stored
    for key, response in (("fast", fast), ("full", full)):
        record = IdempotencyRecord.objects.get(key=key)
        assert record.response_status == 201
        assert record.player_id == Game.objects.get(pk=response.json()["id"]).player_id


def test_a_start_takes_two_statements(player_api):
    with mock.patch.object(faststart, "execute_prepared",
                           wraps=sql.execute_prepared) as statements:
        response = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201, response.content
    assert statements.call_count == 2
    assert Game.objects.filter(pk=response.json()["id"], mode="practice").exists()


def test_a_start_without_a_key_stores_no_answer(player_api):
    response = player_api.post("games", {"mode": "practice"})
    assert response.status_code == 201, response.content
    assert Game.objects.filter(pk=response.json()["id"]).exists()
    assert not IdempotencyRecord.objects.exists()


def test_a_retry_gets_the_first_answer_byte_for_byte_and_no_second_game(player_api):
    first = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")

    with mock.patch.object(services, "game_start", wraps=services.game_start) as full_view:
        retry = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")

    assert full_view.call_count == 0
    assert (retry.status_code, retry.content) == (first.status_code, first.content)
    assert retry["Location"] == first["Location"]
    assert Game.objects.count() == 1 and Deal.objects.count() == 1
    reused = player_api.post("games", {"mode": "archive", "date": "2026-11-01"},
                             HTTP_IDEMPOTENCY_KEY="same")
    assert_problem(reused, 422, "idempotency_key_reused")
    assert Game.objects.count() == 1


def test_a_key_stored_meanwhile_leaves_no_game_and_the_first_answer_stands(player_api):
    """Between the fast path's read and its write a racing request with the same key starts
    its game: the write is refused whole (no deal, no game) and the full view replays the
    racer's answer."""
    real = faststart.execute_prepared
    racer: list = []

    def rival_first(statement, parameters):
        if statement.startswith("WITH dealt") and not racer:
            with mock.patch.object(faststart.settings, "FOURSQUARE_FAST_STARTS", False):
                racer.append(player_api.post("games", {"mode": "practice"},
                                             HTTP_IDEMPOTENCY_KEY="raced"))
        return real(statement, parameters)

    with mock.patch.object(faststart, "execute_prepared", side_effect=rival_first):
        response = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="raced")

    assert racer[0].status_code == 201
    assert (response.status_code, response.content) == (201, racer[0].content)
    assert Game.objects.count() == 1 and Deal.objects.count() == 1


@pytest.mark.parametrize("body", [
    {"mode": "practice", "deal": "abcdefghijkl"},  # a shared deal: 404 deal_not_found
    {"mode": "practice", "extra": 1},  # 400
    {"mode": "daily"},  # 201 the first time, then 200
    ["practice"],  # 400
])
def test_anything_but_a_fresh_practice_deal_goes_to_the_full_view(player_api, body):
    with mock.patch.object(services, "game_start", wraps=services.game_start) as full_view:
        response = player_api.post("games", body)
    assert response.status_code in (201, 400, 404), response.content
    assert full_view.call_count == (1 if response.status_code != 400 else 0)


def test_a_start_over_the_rate_limit_is_refused_by_the_full_view(settings, player_api):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "games.token": "2/min"}
    for _ in range(2):  # the first is the full view's too (the token's first use)
        assert player_api.post("games", {"mode": "practice"}).status_code == 201

    assert_problem(player_api.post("games", {"mode": "practice"}), 429, "throttled")
    assert Game.objects.count() == 2


def test_an_unknown_token_is_refused_by_the_full_view(api):
    response = api.post("games", {"mode": "practice"}, HTTP_AUTHORIZATION="Bearer not-a-token")
    assert response.status_code == 401, response.content
    assert not Game.objects.exists()
