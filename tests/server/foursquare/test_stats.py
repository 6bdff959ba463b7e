"""Player statistics: counts, win percentage, streaks by daily number, scores, recent results."""

from datetime import timedelta

import pytest

from server.boards.streaks import Streaks, streaks
from server.dailies import calendar
from tests.server.conftest import assert_problem
from tests.server.results import at, daily_result

pytestmark = pytest.mark.sqlite

# --- Streak arithmetic (no database) ---------------------------------------------------------


def won(*numbers):
    return [(number, "won") for number in numbers]


def test_streaks_count_consecutive_daily_numbers():
    assert streaks(won(1, 2, 3, 5, 6), first_open=6) == Streaks(2, 3, 2, 3)


def test_a_missed_daily_breaks_the_streaks_once_nobody_can_play_it_any_more():
    results = won(4, 5)
    assert streaks(results, first_open=6) == Streaks(2, 2, 2, 2)  # #6 still open: alive
    assert streaks(results, first_open=7) == Streaks(0, 2, 0, 2)  # #6 over: broken


def test_a_loss_breaks_the_win_streak_but_not_the_played_streak():
    results = [*won(1, 2), (3, "lost"), *won(4)]
    assert streaks(results, first_open=4) == Streaks(1, 2, 4, 4)
    assert streaks([*won(1, 2), (3, "lost")], first_open=3) == Streaks(0, 2, 3, 3)


def test_a_game_in_progress_neither_extends_nor_breaks_the_win_streak():
    results = [*won(7, 8), (9, "playing")]
    assert streaks(results, first_open=9) == Streaks(2, 2, 3, 3)


def test_an_abandoned_game_on_a_closed_daily_breaks_the_win_streak():
    results = [*won(7, 8), (9, "playing"), *won(10)]
    assert streaks(results, first_open=10).current_win == 1


def test_crossing_the_date_line_cannot_skip_or_repeat_a_daily():
    # Played #10 at UTC+14 and #11 at UTC-12 on the same UTC day: two numbers, one streak.
    assert streaks(won(10, 11), first_open=10) == Streaks(2, 2, 2, 2)
    # The same numbers listed twice (a retry, a second device) still count once.
    assert streaks([*won(10, 11), (11, "won")], first_open=11).longest_played == 2


def test_no_games_no_streaks():
    assert streaks([], first_open=1) == Streaks(0, 0, 0, 0)


# --- The endpoints -----------------------------------------------------------------------------


@pytest.fixture
def history(make_trusted_player, settings):
    """A player with dailies: won 10, won 3, lost, (missed), won 24, won 24 - the last two
    being yesterday and today. Both players are claimed accounts older than these dailies, so
    every one of them is ranked on the global boards."""
    today = calendar.utc_today()
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    player, api = make_trusted_player("Stats")
    for days_ago, score in [(5, 10), (4, 3), (3, None), (1, 24), (0, 24)]:
        daily_result(player, today - timedelta(days=days_ago), score, finished_at=at(-days_ago))
    rival, _ = make_trusted_player("Rival")
    daily_result(rival, today, 24, finished_at=at(-100))  # finished earlier: listed first
    return player, api


@pytest.mark.django_db
def test_my_stats(history):
    _, api = history
    stats = api.get("players/me/stats").json()
    assert (stats["played"], stats["won"], stats["win_percent"]) == (5, 4, 80)
    assert (stats["current_win_streak"], stats["longest_win_streak"]) == (2, 2)
    assert (stats["current_played_streak"], stats["longest_played_streak"]) == (2, 3)
    assert {score: n for score, n in stats["distribution"].items() if n} == {
        "3": 1, "10": 1, "24": 2}
    assert len(stats["distribution"]) == 25
    recent = stats["recent"]
    assert [result["status"] for result in recent] == ["won", "won", "lost", "won", "won"]
    assert recent[0]["rank"] == 1 and recent[2]["rank"] is None and recent[2]["score"] is None
    assert all(result["ranked"] for result in recent)
    assert recent[0]["number"] == recent[1]["number"] + 1


@pytest.mark.django_db
def test_a_profile_is_public(history, api):
    player, mine = history
    profile = api.get(f"players/{player.pk}").json()
    assert profile["player"] == {"id": str(player.pk), "name": "Stats", "bot": False}
    assert profile == mine.get("players/me/stats").json()


@pytest.mark.django_db
def test_a_new_player_has_empty_stats(player_api):
    stats = player_api.get("players/me/stats").json()
    assert (stats["played"], stats["won"], stats["win_percent"], stats["recent"]) == (
        0, 0, None, [])


@pytest.mark.django_db
def test_stats_need_a_token_and_an_existing_player(api):
    assert_problem(api.get("players/me/stats"), 401, "not_authenticated")
    assert_problem(api.get("players/00000000-0000-0000-0000-000000000000"), 404, "not_found")


@pytest.mark.django_db
def test_archive_games_are_not_dailies_played(player_api, settings):
    today = calendar.utc_today()
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    player_api.post("games", {"mode": "archive", "date": (today - timedelta(days=4)).isoformat()})
    player_api.post("games", {"mode": "practice"})
    assert player_api.get("players/me/stats").json()["played"] == 0
