"""Preparing dailies: proven winnable (dealt again if not, while nobody plays it), the bot's
reference score, the background job for dailies asked for early, and the commands."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from foursquare import Game as EngineGame
from foursquare.solver import Solution
from server.dailies import calendar
from server.foursquare import dailies, fairness, preparation
from server.foursquare.models import Daily, Deal
from server.jobs import background
from server.jobs.background import job_run
from server.jobs.models import Job
from tests.server.results import daily_result

pytestmark = pytest.mark.sqlite

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}
NO_WIN = Solution(None, (), False, None, 0, 0.0)


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_PREPARE_TIME_BUDGET = 0.2
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT


@pytest.fixture
def today():
    return calendar.utc_today()


@pytest.fixture
def unwinnable_first_deal(monkeypatch, today):
    """The solver finds no win for attempt 0 of today's daily, and solves the rest."""
    first = dailies.daily_deck(today, 0)
    solve = preparation._solve

    def solve_but_the_first(deck, budget):
        return NO_WIN if tuple(deck) == first else solve(deck, budget)

    monkeypatch.setattr(preparation, "_solve", solve_but_the_first)


def replays_to_a_win(daily: Daily) -> bool:
    engine = EngineGame(daily.deal.deck)
    for move in daily.proof_moves:
        engine.play(tuple(move))
    return engine.status == "won" and engine.score == daily.proof_score


def test_prepare_proves_the_deal_winnable_and_records_the_bot(db, today):
    daily, costs = preparation.daily_prepare(today)
    assert daily.prepared_at is not None and daily.attempt == 0
    assert daily.proof_score is not None and replays_to_a_win(daily)
    assert daily.bot_status in ("won", "lost")
    assert (daily.bot_score is None) == (daily.bot_status == "lost")
    assert costs["solver"] >= 0 and costs["bot"] >= 0
    assert daily.deal.deck == dailies.daily_deck(today, 0)


def test_an_unwinnable_deal_is_dealt_again_from_the_next_seed(db, today, unwinnable_first_deal):
    daily = dailies.daily_get_or_create(today, prepare_later=False)
    first_deal = daily.deal_id
    daily, _ = preparation.daily_prepare(today)
    assert daily.attempt == 1
    assert daily.deal.deck == dailies.daily_deck(today, 1)
    assert replays_to_a_win(daily)
    assert not Deal.objects.filter(pk=first_deal).exists()


def test_a_daily_with_games_is_never_dealt_again(player_api, today, unwinnable_first_deal):
    game = player_api.post("games", {"mode": "daily"}).json()
    preparation.daily_prepare(today)
    daily = Daily.objects.get(date=today)
    assert daily.attempt == 0 and daily.deal_id == game["deal"]
    assert daily.proof_score is None and daily.proof_moves == []
    assert daily.prepared_at is not None and daily.bot_status in ("won", "lost")
    assert player_api.get(f"games/{game['id']}").json()["deal"] == game["deal"]


def test_a_daily_asked_for_early_is_served_then_prepared_by_its_job(player_api, today):
    response = player_api.post("games", {"mode": "daily"})
    assert response.status_code == 201
    daily = Daily.objects.get(date=today)
    assert daily.prepared_at is None
    job = Job.objects.get(kind="daily_prepare", key=today.isoformat())
    assert job.status == "pending"
    assert job_run(job.pk).status == "done"
    daily.refresh_from_db()
    assert daily.prepared_at is not None and daily.bot_status in ("won", "lost")
    assert job_run(job.pk) is None  # done: nobody runs it again


def test_a_failed_job_is_recorded_and_tried_again_later(db, today, monkeypatch):
    dailies.daily_get_or_create(today)

    def broken(deck, budget):
        raise RuntimeError("solver down")

    monkeypatch.setattr(preparation, "_solve", broken)
    job = Job.objects.get(kind="daily_prepare")
    job = job_run(job.pk)
    assert job.status == "pending" and "solver down" in job.error and job.attempts == 1
    assert job.run_after > timezone.now()
    assert job_run(job.pk) is None  # not before its retry's time


def test_prepare_dailies_prepares_the_coming_days_once(db, today):
    out = StringIO()
    call_command("prepare_dailies", "--days", "2", "--from", today.isoformat(), stdout=out,
                 stderr=StringIO())
    assert Daily.objects.filter(prepared_at__isnull=False).count() == 2
    assert f"#{calendar.daily_number(today + timedelta(days=1))}" in out.getvalue()
    out = StringIO()
    call_command("prepare_dailies", "--days", "2", "--from", today.isoformat(), stdout=out,
                 stderr=StringIO())
    assert out.getvalue() == ""  # both prepared already


def test_prepare_dailies_horizon_leaves_the_housekeeping_nothing_to_ask_for(db, today, settings):
    settings.FAIRNESS_DAYS_AHEAD = 2
    call_command("prepare_dailies", "--horizon", stdout=StringIO(), stderr=StringIO())
    prepared = set(Daily.objects.filter(prepared_at__isnull=False).values_list("date", flat=True))
    assert prepared == {today + timedelta(days=offset) for offset in range(3)}
    assert fairness.dailies_ahead() == 0
    assert not Job.objects.exists()


def test_run_jobs_once_runs_what_is_pending(db, today):
    dailies.daily_get_or_create(today)
    out = StringIO()
    call_command("run_jobs", "--once", stdout=out)
    assert f"daily_prepare {today.isoformat()}: done" in out.getvalue()
    assert Daily.objects.get(date=today).prepared_at is not None


def test_the_bots_score_is_a_reference_line_that_never_ranks(make_trusted_player, api, today):
    player, _ = make_trusted_player()  # a claimed account older than the day: ranked
    daily_result(player, today, 5)
    Daily.objects.filter(date=today).update(bot_status="won", bot_score=12)
    body = api.get(f"daily/{today.isoformat()}/leaderboard").json()
    assert body["reference"] == {"name": "FoursquareBot", "status": "won", "score": 12}
    assert [entry["rank"] for entry in body["entries"]] == [1]
    assert body["entries"][0]["player"]["id"] == str(player.pk)
    assert body["players"] == 1 and body["winners"] == 1
    assert sum(body["distribution"].values()) == 1 and body["distribution"]["12"] == 0


def test_reference_is_empty_before_the_bot_played_and_absent_off_day_boards(db, api, today):
    body = api.get(f"daily/{today.isoformat()}/leaderboard").json()
    assert body["reference"] == {"name": "FoursquareBot", "status": None, "score": None}
    assert api.get("leaderboard", {"period": "week"}).json()["reference"] is None


def test_with_background_threads_a_new_daily_is_handed_over_on_commit(
        db, today, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.FOURSQUARE_BACKGROUND = "thread"
    submitted = []
    monkeypatch.setattr(background, "_submit", lambda job_id, kind: submitted.append(job_id))
    with django_capture_on_commit_callbacks(execute=True):
        dailies.daily_get_or_create(today)
        assert submitted == []  # not before the daily is committed
    assert submitted == [Job.objects.get(kind="daily_prepare").pk]
