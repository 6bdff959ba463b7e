"""A daily can be played only while its date is current somewhere on Earth. Once the date has
ended everywhere the game is over, ``unfinished``, and never ranked: its deal is in the archive
by then, so finishing it later would be playing with the cards face up."""

from __future__ import annotations

from datetime import timedelta

import pytest

from server.boards.models import Standing
from server.dailies import calendar
from server.foursquare import services
from server.foursquare.models import Game, Move
from server.spitemalice.models import Match as SpiteMaliceMatch
from tests.server.conftest import assert_problem, trust
from tests.server.jobs.support import eventually, runner
from tests.server.results import WINNING_MOVES, daily_result, game_before_last_move, winning_daily

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

LAST_MOVE = dict(zip(("row", "col"), WINNING_MOVES[-1], strict=True))


@pytest.fixture
def closed_day():
    """The latest date that has ended everywhere on Earth."""
    first_open, _ = calendar.current_dates()
    return first_open - timedelta(days=1)


def _left_unfinished(player, day) -> Game:
    """A ranked daily of ``day``, started while it was open and left one move from a win."""
    winning_daily(day)
    game = daily_result(player, day, status="playing")
    assert game.ranked
    return game_before_last_move(game.pk)


def test_a_day_opens_at_midnight_in_utc_plus_14_and_closes_at_midnight_in_utc_minus_12():
    day = calendar.utc_today()
    opens, closes = calendar.opens_at(day), calendar.closes_at(day)
    assert closes - opens == timedelta(hours=50)
    assert not calendar.is_playable(day, opens - timedelta(microseconds=1))
    assert calendar.is_playable(day, opens)
    assert calendar.is_playable(day, closes - timedelta(microseconds=1))
    assert not calendar.is_playable(day, closes)
    assert calendar.is_archived(day, closes)


@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "full-view"])
def test_a_ranked_daily_left_unfinished_cannot_be_finished_after_its_date_closed(
        settings, make_player, api, closed_day, fast):
    settings.FOURSQUARE_FAST_MOVES = fast
    player, player_api = make_player("Ada")
    game = _left_unfinished(trust(player), closed_day)
    # The deck is there to learn from the archive: the way round the rule this closes.
    assert player_api.post("games", {"mode": "archive", "date": closed_day.isoformat()}) \
        .status_code == 201

    body = assert_problem(player_api.post(f"games/{game.pk}/moves", LAST_MOVE), 409,
                          "game_over")
    assert closed_day.isoformat() in body["detail"] and "closed" in body["detail"]
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.moves_played == len(WINNING_MOVES) - 1 and game.score is None
    day_board = api.get(f"daily/{closed_day.isoformat()}/leaderboard").json()
    assert day_board["entries"] == [] and day_board["winners"] == 0
    assert not Standing.objects.filter(player=player, wins__gt=0).exists()


def test_a_daily_still_current_somewhere_can_still_be_finished(make_player):
    first_open, _ = calendar.current_dates()
    player, player_api = make_player()
    game = _left_unfinished(trust(player), first_open)
    finished = player_api.post(f"games/{game.pk}/moves", LAST_MOVE)
    assert finished.status_code == 200, finished.content
    assert finished.json()["status"] == "won"


def test_reads_show_a_closed_daily_as_over_and_unfinished(make_player, closed_day):
    player, player_api = make_player()
    game = _left_unfinished(trust(player), closed_day)

    shown = player_api.get(f"games/{game.pk}").json()
    assert shown["status"] == "unfinished"
    assert shown["finished_at"] == calendar.closes_at(closed_day).isoformat().replace(
        "+00:00", "Z")
    assert shown["legal_moves"] == []
    assert player_api.get("games").json()["results"][0]["status"] == "unfinished"
    assert player_api.get(f"games/{game.pk}/record").status_code == 200  # over: revealed
    recent = player_api.get("players/me/stats").json()["recent"]
    assert [(result["date"], result["status"]) for result in recent] == [
        (closed_day.isoformat(), "unfinished")]


def test_the_day_board_calls_a_closed_daily_unfinished_before_any_worker_ran(make_player,
                                                                             closed_day):
    player, player_api = make_player()
    _left_unfinished(trust(player), closed_day)
    standing = player_api.get(f"daily/{closed_day.isoformat()}/leaderboard").json()["standing"]
    assert standing["status"] == "unfinished" and standing["rank"] is None


def test_the_housekeeping_closes_every_players_closed_dailies_and_only_those(make_player,
                                                                           closed_day):
    first_open, _ = calendar.current_dates()
    ada, _ = make_player()
    bo, _ = make_player()
    left = [daily_result(ada, closed_day, status="playing"),
            daily_result(bo, closed_day - timedelta(days=3), status="playing")]
    still_open = daily_result(ada, first_open, status="playing")
    won = daily_result(bo, closed_day, 7)

    assert services.dailies_close() == 2
    for game in left:
        game.refresh_from_db()
        assert game.status == "unfinished" and game.is_over
        assert game.finished_at == calendar.closes_at(game.daily_id)
    still_open.refresh_from_db()
    won.refresh_from_db()
    assert (still_open.status, won.status, won.score) == ("playing", "won", 7)
    assert services.dailies_close() == 0  # nothing left to close


@pytest.mark.django_db(transaction=True)
def test_the_in_process_runner_closes_both_games_dailies_without_a_worker(make_player,
                                                                         closed_day):
    player, player_api = make_player()
    game = daily_result(player, closed_day, status="playing")
    match = player_api.post("spite-malice/matches", {"mode": "daily"}).json()
    SpiteMaliceMatch.objects.filter(pk=match["id"]).update(daily=closed_day)

    with runner():
        assert eventually(lambda: not Game.objects.filter(status="playing").exists()
                          and SpiteMaliceMatch.objects.filter(status="finished").exists())

    game.refresh_from_db()
    assert (game.status, game.finished_at) == ("unfinished", calendar.closes_at(closed_day))
    stored = SpiteMaliceMatch.objects.get(pk=match["id"])
    assert (stored.reason, stored.winner) == ("unfinished", None)
