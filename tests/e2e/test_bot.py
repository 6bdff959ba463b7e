"""The bot in the browser: a hint in practice, the review after a game, the day board's
reference line."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import known_daily, play_until_over, wait_idle
from tests.serving import WAIT_SECONDS

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_ANALYSIS_BOT = TINY_BOT
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT
    settings.FOURSQUARE_HINT_BOT = TINY_BOT
    settings.FOURSQUARE_ANALYSIS_SOLVER_SECONDS = 0.5


def test_practice_hint_then_the_review_after_the_game(open_page, shoot):
    from server.jobs.background import job_run
    from server.jobs.models import Job

    page = open_page("/#/practice")
    page.locator("#new-practice").click()
    page.locator(".game .board").wait_for()
    page.locator("#ask-hint").click()
    expect(page.locator("#suggestion")).to_have_text(
        re.compile(r"^The bot would place it at row \d+, column \d+ \(\d+% chance to win\)\.$"))
    wait_idle(page)
    moves = play_until_over(page)
    expect(page.locator("#ask-hint")).to_be_hidden()
    expect(page.locator("#analysis .analysis-body")).to_have_text(
        "The bot is looking over your game…")
    job = None
    for _ in range(WAIT_SECONDS * 10):  # the result screen's first request enqueues it
        job = Job.objects.filter(kind="game_analyse").first()
        if job is not None:
            break
        page.wait_for_timeout(100)
    assert job is not None and job_run(job.pk).status == "done"
    expect(page.locator("#analysis-rating")).to_have_text(re.compile(r"^Accuracy \d+%: "))
    assert page.locator(".analysis-chart svg polyline").count() == 1
    assert page.locator(".analysis-move").count() == moves
    shoot(page, "phone-light-analysis")


def test_a_day_board_shows_the_bot_as_an_unranked_line(open_page):
    daily = known_daily()
    daily.bot_status, daily.bot_score = "won", 7
    daily.save()
    page = open_page("/#/boards/day")
    reference = page.locator("#board-reference")
    expect(reference).to_have_text("Reference FoursquareBot · won with 7 cards to spare, unranked")
    assert page.locator(".leaderboard tbody tr").count() == 0
