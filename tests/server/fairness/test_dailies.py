"""The dailies' commitments: made when a date's deal is fixed, published ahead by the
housekeeping, the seed shown only once the date is over everywhere, a late commitment said
so; the API's bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fairness import daily_commitment
from server.dailies import calendar
from server.fairness import selectors
from server.fairness.models import LogEntry
from server.foursquare import dailies
from server.foursquare import fairness as foursquare_fairness
from server.jobs.background import job_run
from server.jobs.models import Job
from server.spitemalice import fairness as spitemalice_fairness
from tests.server.conftest import assert_problem
from tests.server.fairness.support import (
    TINY_BOT,
    foursquare_daily_commit,
    spitemalice_daily_commit,
    verify_dailies,
)
from tests.server.results import daily_result

pytestmark = pytest.mark.sqlite


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_PREPARE_TIME_BUDGET = 0.2
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT


@pytest.fixture
def today():
    return calendar.utc_today()


def test_preparing_a_daily_commits_to_its_final_attempt(db, today):
    foursquare_daily_commit(today)
    entry = LogEntry.objects.get(kind="daily", game="foursquare")
    daily = dailies.Daily.objects.get(date=today)
    assert entry.subject == today.isoformat()
    assert entry.commitment == daily_commitment(
        "foursquare", today, daily.attempt, dailies.daily_seed(today, daily.attempt).hex())


def test_the_housekeeping_prepares_and_commits_both_games_a_week_ahead(db, today, settings):
    settings.FAIRNESS_DAYS_AHEAD = 8
    assert foursquare_fairness.dailies_ahead() == 9
    for job in Job.objects.filter(kind="daily_prepare"):
        job_run(job.pk)
    assert spitemalice_fairness.dailies_ahead() == 9
    for game in ("foursquare", "spitemalice"):
        subjects = set(LogEntry.objects.filter(kind="daily", game=game)
                       .values_list("subject", flat=True))
        assert subjects == {(today + timedelta(days=n)).isoformat() for n in range(9)}
    assert foursquare_fairness.dailies_ahead() == 0
    assert spitemalice_fairness.dailies_ahead() == 0


def test_a_seed_is_revealed_only_once_the_date_is_over_everywhere(db, today):
    closes = calendar.closes_at(today)
    assert not selectors.is_revealed(today, closes - timedelta(microseconds=1))
    assert selectors.is_revealed(today, closes)
    assert closes - calendar.opens_at(today) == timedelta(hours=50)


def test_the_list_hides_the_seed_of_a_date_not_over_and_shows_a_past_one(db, api, today):
    past, future = today - timedelta(days=2), today + timedelta(days=3)
    for day in (past, today, future):
        foursquare_daily_commit(day)
        spitemalice_daily_commit(day)
    for game in ("foursquare", "spitemalice"):
        response = api.get("fairness/commitments", {"game": game, "from": past.isoformat(),
                                                    "to": future.isoformat()})
        assert response.status_code == 200
        assert response["Cache-Control"] == "public, max-age=60"
        entries = {item["date"]: item for item in response.json()["entries"]}
        assert list(entries) == [past.isoformat(), today.isoformat(), future.isoformat()]
        assert entries[past.isoformat()]["seed"] is not None
        assert entries[past.isoformat()]["deck"]
        for day in (today, future):
            item = entries[day.isoformat()]
            assert (item["seed"], item["attempt"], item["deck"]) == (None, None, None)
        one = api.get(f"fairness/commitments/{game}/{future.isoformat()}").json()
        assert one["seed"] is None and one["commitment"] == entries[future.isoformat()][
            "commitment"]


def test_the_list_pages_by_date(db, api, today):
    for offset in range(3):
        spitemalice_daily_commit(today + timedelta(days=offset))
    query = {"game": "spitemalice", "from": today.isoformat(),
             "to": (today + timedelta(days=5)).isoformat(), "limit": 2}
    first = api.get("fairness/commitments", query).json()
    assert len(first["entries"]) == 2 and first["next"]
    second = api.get(first["next"]).json()
    assert [item["date"] for item in second["entries"]] == [
        (today + timedelta(days=2)).isoformat()]
    assert second["next"] is None


def test_a_daily_played_before_its_commitment_says_so(db, api, make_player, today):
    player, _ = make_player()
    daily_result(player, day=today, score=None, status="playing")  # dealt and played at once
    job = Job.objects.get(kind="daily_prepare")
    job_run(job.pk)
    item = api.get(f"fairness/commitments/foursquare/{today.isoformat()}").json()
    assert item["late"] is True
    assert item["first_played_at"] is not None


def test_a_daily_committed_ahead_is_not_late(db, api, make_player, today):
    foursquare_daily_commit(today)
    player, _ = make_player()
    daily_result(player, day=today, score=None, status="playing")
    item = api.get(f"fairness/commitments/foursquare/{today.isoformat()}").json()
    assert item["late"] is False and item["first_played_at"] is not None


@pytest.mark.parametrize("path", ["fairness/commitments/chess/2026-12-01",
                                  "fairness/commitments/foursquare/2026-13-01",
                                  "fairness/commitments/foursquare/2026-12-01"])
def test_an_unknown_game_or_date_is_a_404_problem(db, api, path):
    assert_problem(api.get(path), 404, "not_found")


def test_the_list_of_an_unknown_game_is_a_404_problem(db, api):
    assert_problem(api.get("fairness/commitments", {"game": "chess"}), 404, "not_found")


def test_a_list_from_a_non_date_is_a_400_naming_it(db, api):
    body = assert_problem(api.get("fairness/commitments", {
        "game": "foursquare", "from": "2026-12-32"}), 400, "invalid")
    assert body["errors"][0]["field"] == "from"


def test_a_list_whose_from_follows_its_to_is_empty(db, api):
    spitemalice_daily_commit(calendar.utc_today())
    today = calendar.utc_today().isoformat()
    response = api.get("fairness/commitments", {"game": "spitemalice", "from": today,
                                                  "to": "2026-11-01"})
    assert response.json() == {"entries": [], "next": None}


def test_the_key_is_the_one_that_signs(db, api):
    key = api.get("fairness/key").json()
    assert key["algorithm"] == "Ed25519" and len(key["key_id"]) == 16
    foursquare_daily_commit(calendar.utc_today())
    assert LogEntry.objects.get().key_id == key["key_id"]


def test_the_verifier_passes_every_revealed_and_committed_date(db, today):
    days = [today + timedelta(days=offset) for offset in (-2, -1, 0, 1, 7)]
    for day in days:
        foursquare_daily_commit(day)
        spitemalice_daily_commit(day)
    for game in ("foursquare", "spitemalice"):
        status, out = verify_dailies(game, days[0], days[-1])
        assert status == 0, out
        assert f"{game} {days[0].isoformat()}: ok" in out
        assert f"{game} {days[-1].isoformat()}: committed at" in out
        assert "entry 10: ok" in out


def test_a_key_is_found_by_its_id_and_an_unknown_id_is_a_404(db, api):
    current = api.get("fairness/key").json()["key_id"]
    assert api.get("fairness/key", {"key_id": current}).json()["key_id"] == current
    assert_problem(api.get("fairness/key", {"key_id": "0" * 16}), 404, "not_found")


def test_the_housekeeping_deals_nothing_ahead_when_told_none(db, settings):
    settings.FAIRNESS_DAYS_AHEAD = -1
    assert foursquare_fairness.dailies_ahead() == 0
    assert spitemalice_fairness.dailies_ahead() == 0
    assert not Job.objects.exists() and not LogEntry.objects.exists()
