"""The dailies' clock (``server.dailies.calendar.clock``): every date decision of either game
reads it, so the tests hold it still (``dailies_clock``) and no test depends on where the wall
clock stands; and the browser tests, which cannot hold it, start clear of the date boundaries
(tests/wall_clock.py).

The worst instant is the one these tests pick: 23:59:59.9 UTC on Sunday 31 May 2026, the last
tenth of a second of a day, an ISO week and a month, with the wall clock running on into
Monday 1 June in the middle of the test.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone

from server.dailies import calendar
from tests.server.conftest import assert_problem, chosen_instant, held_instant
from tests.wall_clock import MARGIN, next_date_boundary, wait_before

pytestmark = pytest.mark.django_db

LAST_TENTH = datetime(2026, 5, 31, 23, 59, 59, 900_000, tzinfo=UTC)  # a Sunday, a month's end
SUNDAY, MONDAY = date(2026, 5, 31), date(2026, 6, 1)


class WallClock:
    """``timezone.now`` running on by ``step`` at each reading, from ``start``: the second
    reading of this test's wall clock is already past midnight."""

    def __init__(self, start: datetime, step: timedelta) -> None:
        self.now, self.step, self.readings = start, step, []

    def __call__(self) -> datetime:
        self.readings.append(self.now)
        self.now += self.step
        return self.readings[-1]


@pytest.fixture
def at_the_last_tenth(dailies_clock, monkeypatch, settings) -> WallClock:
    settings.FOURSQUARE_LAUNCH_DATE = date(2026, 5, 1)
    dailies_clock.set(LAST_TENTH)
    wall = WallClock(LAST_TENTH, timedelta(milliseconds=60))
    monkeypatch.setattr(timezone, "now", wall)
    return wall


def test_every_date_decision_reads_the_dailies_clock_not_the_wall(at_the_last_tenth,
                                                                   player_api):
    """Today's daily, its number, the day's and the week's boards, the dates being played:
    all Sunday's, while the wall clock passed midnight into Monday (and June, and the next
    ISO week) after its first reading. A date decision that read the wall clock would answer
    Monday here."""
    game = player_api.post("games", {"mode": "daily"}).json()
    assert (game["date"], game["number"]) == (SUNDAY.isoformat(), 31)
    daily = player_api.get("daily").json()
    assert (daily["date"], daily["your_game"]["id"]) == (SUNDAY.isoformat(), game["id"])
    assert player_api.get("leaderboard").json()["number"] == 31
    week = player_api.get("leaderboard", {"period": "week"}).json()
    assert (week["start"], week["end"]) == ("2026-05-25", "2026-05-31")
    match = player_api.post("spite-malice/matches", {"mode": "daily"}).json()
    assert match["date"] == SUNDAY.isoformat()
    assert player_api.get("players/me/stats").json()["played"] == 1
    assert at_the_last_tenth.readings[-1].date() == MONDAY  # the wall clock did move on


def test_the_dates_being_played_at_the_last_tenth_of_a_sunday(at_the_last_tenth, player_api):
    """At that instant Sunday and Monday are being played somewhere and Saturday is over
    (it closed at noon UTC, midnight at UTC-12): the server says so, whatever the wall says."""
    assert calendar.current_dates() == (SUNDAY, MONDAY)
    monday = player_api.post("games", {"mode": "daily", "date": MONDAY.isoformat()})
    assert monday.status_code == 201 and monday.json()["number"] == 32
    saturday = (SUNDAY - timedelta(days=1)).isoformat()
    assert_problem(player_api.post("games", {"mode": "daily", "date": saturday}), 422,
                   "daily_unavailable")
    assert player_api.post("games", {"mode": "archive", "date": saturday}).status_code == 201


def test_a_test_holds_the_dailies_clock_an_hour_from_every_boundary(dailies_clock):
    assert dailies_clock() == (chosen_instant() or held_instant(timezone.now()))
    assert held_instant(LAST_TENTH) == datetime(2026, 5, 31, 11, tzinfo=UTC)
    eleven = datetime(2026, 5, 31, 11, tzinfo=UTC)
    assert calendar.current_dates(eleven) == (date(2026, 5, 30), date(2026, 6, 1))
    assert next_date_boundary(eleven) - eleven == timedelta(hours=1)
    assert eleven - datetime(2026, 5, 31, 10, tzinfo=UTC) == timedelta(hours=1)


@pytest.mark.parametrize(("now", "boundary"), [
    (LAST_TENTH, datetime(2026, 6, 1, tzinfo=UTC)),  # UTC's midnight
    (datetime(2026, 6, 1, 9, 58, tzinfo=UTC), datetime(2026, 6, 1, 10, tzinfo=UTC)),  # UTC+14
    (datetime(2026, 6, 1, 11, 57, 30, tzinfo=UTC), datetime(2026, 6, 1, 12, tzinfo=UTC)),  # UTC-12
])
def test_a_browser_test_about_to_meet_a_boundary_waits_until_it_passed(now, boundary):
    assert next_date_boundary(now) == boundary
    assert wait_before(now) == (boundary - now).total_seconds() + 1
    # A real boundary: the dates being played, or the UTC date, change there.
    assert (calendar.current_dates(now), calendar.utc_today(now)) != (
        calendar.current_dates(boundary), calendar.utc_today(boundary))


@pytest.mark.parametrize("now", [
    datetime(2026, 6, 1, 0, 0, tzinfo=UTC),  # just passed: the next is ten hours away
    datetime(2026, 6, 1, 12, 0, tzinfo=UTC),
    datetime(2026, 5, 31, 23, 59, tzinfo=UTC) - MARGIN,
])
def test_a_browser_test_clear_of_the_boundaries_starts_at_once(now):
    assert wait_before(now) == 0
