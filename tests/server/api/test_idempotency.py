"""Idempotency-Key: a retry with the same key and body gets the stored first response."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from server.api import idempotency
from server.api.models import IdempotencyRecord
from server.foursquare.models import Game, Move
from server.jobs import background
from tests.server.concurrently import race
from tests.server.conftest import assert_problem
from tests.server.jobs.support import eventually, runner

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def test_retry_of_a_move_returns_the_first_response(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    first = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    retry = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == retry.status_code == 200
    assert first.json() == retry.json()
    assert Move.objects.count() == 1


def test_retry_of_the_winning_or_losing_move_still_answers(player_api, practice_game):
    game = practice_game
    while game["status"] == "playing":
        row, col = game["legal_moves"][0]
        body = {"row": row, "col": col, "move": game["moves_played"]}
        key = f"move-{game['moves_played']}"
        game = player_api.post(f"games/{game['id']}/moves", body, HTTP_IDEMPOTENCY_KEY=key).json()
    retry = player_api.post(f"games/{game['id']}/moves", body, HTTP_IDEMPOTENCY_KEY=key)
    assert retry.status_code == 200 and retry.json() == game


def test_same_key_with_another_body_is_refused(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="k1")
    assert_problem(player_api.post(url, {"row": 0, "col": 1, "move": 1},
                                   HTTP_IDEMPOTENCY_KEY="k1"), 422, "idempotency_key_reused")
    assert Move.objects.count() == 1


def test_keys_belong_to_one_player(player_api, make_player):
    _, other = make_player()
    mine = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")
    theirs = other.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="same")
    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]


def test_retry_of_game_creation_creates_one_game(player_api):
    first = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="new-game")
    retry = player_api.post("games", {"mode": "practice"}, HTTP_IDEMPOTENCY_KEY="new-game")
    assert first.status_code == retry.status_code == 201
    assert first.json()["id"] == retry.json()["id"]
    assert Game.objects.count() == 1


def test_rejected_requests_are_not_stored(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    assert_problem(player_api.post(url, {"row": 3, "col": 3, "move": 0},
                                   HTTP_IDEMPOTENCY_KEY="bad"), 422, "illegal_move")
    # The same key can then carry the corrected request.
    fixed = player_api.post(url, {"row": 3, "col": 3, "move": 0}, HTTP_IDEMPOTENCY_KEY="bad")
    assert fixed.status_code == 422


@pytest.mark.parametrize("key", ["", " ", "x" * 256, "tab\tkey"])
def test_malformed_keys_are_invalid(player_api, practice_game, key):
    url = f"games/{practice_game['id']}/moves"
    body = assert_problem(player_api.post(url, {"row": 0, "col": 0},
                                          HTTP_IDEMPOTENCY_KEY=key), 400, "invalid")
    assert body["errors"] == [{"field": "Idempotency-Key", "message": body["detail"]}]
    assert not Move.objects.exists()


def test_a_malformed_key_on_a_bodiless_write_names_the_header(player_api):
    """As on a move, so on a write that takes no body (a resignation): ``errors`` names the
    header, and nothing changes."""
    from server.spitemalice.models import Match

    match = player_api.post("spite-malice/matches", {"opponent": "bot", "level": "easy",
                                                     "target": 50}).json()
    body = assert_problem(player_api.post(f"spite-malice/matches/{match['id']}/resign",
                                          HTTP_IDEMPOTENCY_KEY="x" * 256), 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["Idempotency-Key"]
    assert Match.objects.get(pk=match["id"]).status == "playing"


# --- Expiry ------------------------------------------------------------------------------------


def _stored_ages(player_api, practice_game, hours_ago: list[float]) -> None:
    """One stored move response per entry, backdated by that many hours."""
    game = practice_game
    for number, hours in enumerate(hours_ago):
        row, col = game["legal_moves"][0]
        key = f"age-{number}"
        game = player_api.post(f"games/{game['id']}/moves",
                               {"row": row, "col": col, "move": number},
                               HTTP_IDEMPOTENCY_KEY=key).json()
        IdempotencyRecord.objects.filter(key=key).update(
            created_at=timezone.now() - timedelta(hours=hours))


def test_responses_older_than_the_window_are_pruned_in_batches(settings, monkeypatch,
                                                                player_api, practice_game):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    monkeypatch.setattr(idempotency, "PRUNE_BATCH", 2)  # several batches for five rows
    _stored_ages(player_api, practice_game, [30, 25, 48, 23, 1, 72, 100])

    assert idempotency.records_prune() == 5

    assert sorted(IdempotencyRecord.objects.values_list("key", flat=True)) == ["age-3", "age-4"]
    assert idempotency.records_prune() == 0


def test_a_retry_within_the_window_is_still_answered_after_pruning(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    first = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="fresh")
    idempotency.records_prune()
    retry = player_api.post(url, {"row": 0, "col": 0, "move": 0}, HTTP_IDEMPOTENCY_KEY="fresh")
    assert (retry.status_code, retry.content) == (first.status_code, first.content)
    assert Move.objects.count() == 1


def test_the_worker_and_the_command_prune(settings, player_api, practice_game):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    _stored_ages(player_api, practice_game, [50, 2])
    out = StringIO()
    call_command("run_jobs", "--once", stdout=out)
    assert "deleted 1 expired Idempotency-Key responses" in out.getvalue()

    _stored_ages(player_api, player_api.post("games", {"mode": "practice"}).json(), [26])
    out = StringIO()
    call_command("prune_idempotency_keys", stdout=out)
    assert out.getvalue().startswith("deleted 1 stored responses older than 24 hours")
    assert IdempotencyRecord.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_in_process_runner_prunes_without_a_worker(settings, player_api, practice_game):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    _stored_ages(player_api, practice_game, [50, 30, 2])
    with runner():
        assert eventually(lambda: IdempotencyRecord.objects.count() == 1)
    assert IdempotencyRecord.objects.get().key == "age-2"


@pytest.mark.django_db(transaction=True)
def test_runners_of_several_processes_prune_once_an_hour(settings, player_api, practice_game):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    _stored_ages(player_api, practice_game, [50, 30, 2])
    passes = race(lambda _: background.Ticker().run_due())
    assert [done.get("idempotency keys") for done in passes].count(2) == 1
    assert sum("idempotency keys" in done for done in passes) == 1  # the others: not their turn
    _stored_ages(player_api, player_api.post("games", {"mode": "practice"}).json(), [26])
    assert "idempotency keys" not in background.Ticker().run_due()  # within the hour
    assert IdempotencyRecord.objects.count() == 2
