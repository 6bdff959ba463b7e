"""Races decided by the database: threads released together against real PostgreSQL."""


import pytest

from server.api.models import IdempotencyRecord
from server.foursquare.models import Game, Move
from tests.server.concurrently import THREADS, race

pytestmark = pytest.mark.sqlite


@pytest.mark.django_db(transaction=True)
def test_the_same_move_sent_concurrently_is_applied_once(make_player):
    _, api = make_player()
    game = api.post("games", {"mode": "practice"}).json()
    url = f"games/{game['id']}/moves"

    statuses = race(lambda _: api.post(url, {"row": 0, "col": 0, "move": 0}).status_code)

    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    assert Move.objects.filter(game_id=game["id"]).count() == 1
    assert Game.objects.get(pk=game["id"]).moves_played == 1


@pytest.mark.django_db(transaction=True)
def test_retries_with_one_idempotency_key_all_get_the_first_answer(make_player):
    _, api = make_player()
    game = api.post("games", {"mode": "practice"}).json()
    url = f"games/{game['id']}/moves"

    responses = race(lambda _: api.post(url, {"row": 0, "col": 0, "move": 0},
                                        HTTP_IDEMPOTENCY_KEY="retry-1"))

    assert {response.status_code for response in responses} == {200}
    assert len({response.content for response in responses}) == 1
    assert Move.objects.filter(game_id=game["id"]).count() == 1
    assert IdempotencyRecord.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_daily_requests_create_one_game(make_player):
    _, api = make_player()

    responses = race(lambda _: api.post("games", {"mode": "daily"}))

    assert sorted(r.status_code for r in responses) == [200] * (THREADS - 1) + [201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert Game.objects.filter(mode="daily").count() == 1


@pytest.mark.django_db(transaction=True)
def test_different_moves_sent_concurrently_without_a_number_are_serialised(make_player):
    _, api = make_player()
    game = api.post("games", {"mode": "practice"}).json()
    api.post(f"games/{game['id']}/moves", {"row": 0, "col": 0})
    url = f"games/{game['id']}/moves"

    statuses = race(lambda _: api.post(url, {"row": 0, "col": 0}).status_code, count=3)

    stored = Game.objects.get(pk=game["id"])
    moves = list(Move.objects.filter(game=stored).order_by("number"))
    assert [move.number for move in moves] == list(range(stored.moves_played))
    assert statuses.count(200) == stored.moves_played - 1
