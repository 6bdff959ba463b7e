"""The post-game analysis: only once the game is over, computed by a background job."""

from __future__ import annotations

import pytest

from foursquare import Game as EngineGame
from foursquare import deal
from foursquare.solver import winnable
from server.foursquare import analysis
from server.foursquare.models import GameAnalysis
from server.jobs.background import job_run
from server.jobs.models import Job
from tests.server.conftest import assert_problem
from tests.server.foursquare.test_games import play_to_the_end
from tests.server.results import WINNING_DECK, WINNING_MOVES

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}
VERDICTS = {"best", "good", "inaccuracy", "mistake", "blunder"}


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_ANALYSIS_BOT = TINY_BOT
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT
    settings.FOURSQUARE_ANALYSIS_SOLVER_SECONDS = 0.5


@pytest.fixture
def finished_game(player_api, practice_game) -> dict:
    return play_to_the_end(player_api, practice_game)


def run_analysis(game_id) -> None:
    job = Job.objects.get(kind="game_analyse", key=str(game_id))
    assert job_run(job.pk).status == "done"


def test_no_analysis_while_the_game_is_on(player_api, practice_game):
    response = player_api.get(f"games/{practice_game['id']}/analysis")
    assert_problem(response, 409, "game_in_progress")
    assert not Job.objects.exists()


def test_analysis_is_pending_then_done(player_api, finished_game):
    url = f"games/{finished_game['id']}/analysis"
    response = player_api.get(url)
    assert response.status_code == 202 and response.json() == {"status": "pending"}
    assert player_api.get(url).status_code == 202
    assert Job.objects.filter(kind="game_analyse").count() == 1
    run_analysis(finished_game["id"])
    body = player_api.get(url).json()
    assert body["status"] == "done"
    assert len(body["moves"]) == finished_game["moves_played"]
    first = body["moves"][0]
    assert set(first) == {"index", "card", "played", "best", "played_estimate",
                          "best_estimate", "value_lost", "verdict", "forced"}
    assert all(move["verdict"] in VERDICTS for move in body["moves"])
    assert all(0 <= move["played_estimate"]["win_probability"] <= 1 for move in body["moves"])
    assert 0 <= body["rating"]["accuracy"] <= 100
    assert body["bot"]["name"] == "FoursquareBot" and body["bot"]["status"] in ("won", "lost")
    if finished_game["status"] == "won":
        assert body["win_lost_at"] is None and body["win_lost_at_proven"] is True
    elif body["win_lost_at"] is not None:
        assert 0 <= body["win_lost_at"] < finished_game["moves_played"]
    assert len(body["turning_points"]) <= 3


def test_another_players_game_has_no_analysis(finished_game, make_player):
    _, other = make_player()
    assert_problem(other.get(f"games/{finished_game['id']}/analysis"), 404, "not_found")
    assert not Job.objects.exists()


def test_analysis_is_computed_once(player_api, finished_game):
    player_api.get(f"games/{finished_game['id']}/analysis")
    run_analysis(finished_game["id"])
    stored = GameAnalysis.objects.get()
    assert analysis.game_analyse(stored.game).pk == stored.pk
    assert GameAnalysis.objects.count() == 1


def test_a_won_game_is_never_lost_and_moves_are_judged():
    body = analysis.analysis_of(WINNING_DECK.split(), WINNING_MOVES, status="won",
                                bot_options=TINY_BOT,
                                bot_result={"name": "FoursquareBot", "status": "won", "score": 3})
    assert body["win_lost_at"] is None and body["win_lost_at_proven"] is True
    assert [move["index"] for move in body["moves"]] == list(range(40))
    assert body["moves"][0]["card"] == "6D"
    worst = [body["moves"][index]["value_lost"] for index in body["turning_points"]]
    assert worst == sorted(worst, reverse=True)


@pytest.mark.parametrize(("lost", "verdict"), [
    (0.0, "best"), (0.3, "good"), (1.0, "inaccuracy"), (2.0, "mistake"), (9.0, "blunder"),
])
def test_verdict_follows_the_value_lost(lost, verdict):
    assert analysis.verdict_of(lost, is_best=False) == verdict


def test_the_bots_own_choice_is_best_whatever_the_noise():
    assert analysis.verdict_of(0.7, is_best=True) == "best"


def test_rating_averages_the_moves_that_were_a_choice():
    assert analysis.rating_of([]) == {"accuracy": 100, "label": "excellent"}
    assert analysis.rating_of([0.0, 4.0]) == {"accuracy": 50, "label": "poor"}
    assert analysis.rating_of([0.0, 0.0, 0.0, 0.4])["label"] == "excellent"


def lost_line(deck) -> list:
    game = EngineGame(deck)
    while game.status == "playing":
        game.play(game.legal_moves()[0])
    assert game.status == "lost"
    return list(game.moves)


def test_the_move_that_lost_is_proven_with_the_solver():
    deck = deal(b"solve 4")
    moves = lost_line(deck)
    index, proven, (first, last) = analysis.lost_at(deck, moves, time_budget=2.0)
    assert proven and index is not None and first == last == index
    assert winnable(deck, moves[:index], time_budget=2.0) is True
    assert winnable(deck, moves[:index + 1], time_budget=2.0) is False


def test_without_an_answer_in_time_the_bots_estimate_stands(monkeypatch):
    deck = deal(b"solve 4")
    moves = lost_line(deck)
    monkeypatch.setattr(analysis, "winnable", lambda *args, **kwargs: None)
    body = analysis.analysis_of(deck, moves, status="lost", bot_options=TINY_BOT,
                                bot_result={"name": "FoursquareBot", "status": "lost",
                                            "score": None}, solver_seconds=0.1)
    assert body["win_lost_at_proven"] is False
    if body["win_lost_at"] is not None:
        later = body["moves"][body["win_lost_at"]:]
        assert all(move["played_estimate"]["win_probability"] == 0 for move in later)


def test_the_estimate_stays_within_what_the_solver_proved(monkeypatch):
    deck = deal(b"solve 4")
    moves = lost_line(deck)
    # The solver answers only some questions; the others are beyond its budget.
    answers = {0: True, len(moves) // 2: None}
    monkeypatch.setattr(analysis, "winnable",
                        lambda deck, prefix, **kwargs: answers.get(len(prefix)))
    assert analysis.lost_at(deck, moves, time_budget=0.1) == (None, False, (0, len(moves) - 1))
    answers = {0: True, len(moves) // 2: False, len(moves) // 4: None}
    index, proven, (first, last) = analysis.lost_at(deck, moves, time_budget=0.1)
    assert (index, proven, first, last) == (None, False, 0, len(moves) // 2 - 1)
    body = analysis.analysis_of(deck, moves, status="lost", bot_options=TINY_BOT,
                                bot_result={"name": "FoursquareBot", "status": "lost",
                                            "score": None}, solver_seconds=0.1)
    assert body["win_lost_at_proven"] is False
    assert body["win_lost_at"] is None or body["win_lost_at"] <= len(moves) // 2 - 1


# --- Limits: minutes of solver CPU each (issue 36) ----------------------------------------------


def finish(api) -> dict:
    started = api.post("games", {"mode": "practice"})
    assert started.status_code == 201, started.content
    return play_to_the_end(api, started.json())


def test_a_player_has_one_analysis_computed_at_a_time(player_api, finished_game):
    """The reproduction: a guest finished 12 practice games and asked for every analysis in
    2.5 s, queueing minutes of solver work ahead of the bot's turns."""
    second = finish(player_api)
    assert player_api.get(f"games/{finished_game['id']}/analysis").status_code == 202

    body = assert_problem(player_api.get(f"games/{second['id']}/analysis"), 429,
                          "analysis_pending")

    assert "analys" in body["detail"]
    assert not Job.objects.filter(key=str(second["id"])).exists()
    assert player_api.get(f"games/{finished_game['id']}/analysis").status_code == 202
    run_analysis(finished_game["id"])
    assert player_api.get(f"games/{second['id']}/analysis").status_code == 202


def test_another_players_pending_analysis_holds_nobody_else(player_api, finished_game,
                                                            make_player):
    player_api.get(f"games/{finished_game['id']}/analysis")
    _, other = make_player()
    assert other.get(f"games/{finish(other)['id']}/analysis").status_code == 202


def test_starting_analyses_is_limited_per_token_but_asking_again_is_free(
        settings, player_api, finished_game):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "analyses.token": "2/hour"}
    games = [finished_game, finish(player_api), finish(player_api)]
    for game in games[:2]:
        for _ in range(4):  # the first request starts it; asking again is not counted
            assert player_api.get(f"games/{game['id']}/analysis").status_code == 202
        run_analysis(game["id"])

    refused = player_api.get(f"games/{games[2]['id']}/analysis")

    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert not Job.objects.filter(key=str(games[2]["id"])).exists()
    assert player_api.get(f"games/{games[0]['id']}/analysis").status_code == 200  # done: free


def test_starting_analyses_is_limited_per_address(settings, make_player):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "analyses.token": "off",
                               "analyses.address": "1/hour"}
    apis = [make_player()[1] for _ in range(2)]
    games = [finish(api) for api in apis]
    assert apis[0].get(f"games/{games[0]['id']}/analysis").status_code == 202
    assert_problem(apis[1].get(f"games/{games[1]['id']}/analysis"), 429, "throttled")
