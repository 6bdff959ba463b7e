"""A game against the `expert` bot played to its end on a phone (390×844): its turns are left
to the background job from the start (no request waits on its search), the status line says
the computer is playing while one is pending, and its moves reach the table once the job has
played them. The game starts near its end for time: most of the deal is played through the
API against `normal` (whose turns the requests play), then the match is handed to `expert`."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from server.jobs.background import job_run
from server.jobs.models import Job
from server.spitemalice import services
from server.spitemalice.engine import rebuild
from server.spitemalice.models import Match, MatchGame
from spitemalice import PLAYING, bot
from tests.e2e.flows import ApiPlayer, token_of
from tests.e2e.screens import PHONE_TALL as PHONE_390
from tests.e2e.test_spite_malice_table import (
    bot_match,
    click_action,
    next_action,
    open_match,
    signed_in,
    steps_until_finished,
)

# Seat 0 has this many pay-off cards left (or fewer) when `expert` takes over.
LEFT = 4


@pytest.fixture(autouse=True)
def small_expert(monkeypatch):
    # expert's own way with a smaller search (the live server runs in this process): its
    # strength is the benchmark's to measure, its part in the product this test's.
    monkeypatch.setattr(bot, "EXPERT_WORLDS", 16)


def played_until_near_the_end(api: ApiPlayer, match: Match) -> None:
    """Seat 0 plays as the normal bot would, through the API, until it has ``LEFT`` pay-off
    cards or fewer and is to move (the bot's turns, at `normal`, are played in the requests)."""
    for _ in range(600):
        match.refresh_from_db()
        game = MatchGame.objects.get(match=match, number=match.game_number)
        engine = rebuild(game)
        assert engine.status == PLAYING, "the game ended before expert took over"
        if engine.turn == 0 and engine.payoff_size(0) <= LEFT:
            return
        api.post(f"spite-malice/matches/{match.pk}/actions",
                 {"action": next_action(match), "game": game.number,
                  "actions": len(game.actions)})
    raise AssertionError("seat 0 did not get near the end")


@pytest.mark.long
def test_a_game_against_the_expert_bot_ends_on_a_phone(open_page, shoot):
    page = open_page("/", viewport=PHONE_390)
    player = signed_in(page)
    api = ApiPlayer(token=token_of(page))
    match = bot_match(player, level="normal")
    played_until_near_the_end(api, match)
    Match.objects.filter(pk=match.pk).update(level="expert")
    open_match(page, match)
    root = page.locator(".sm-screen")
    status = page.locator(".sm-status")
    bot_turns = 0
    for _ in steps_until_finished(page, 200):
        match.refresh_from_db()
        if match.turn == 1:
            # Expert's turn waits for the job, never for a request: the table says so.
            assert match.bot_pending
            expect(status).to_contain_text("The computer is playing")
            job = Job.objects.get(kind=services.BOT_JOB, key=str(match.pk))
            assert job_run(job.pk).status == "done"
            bot_turns += 1
            page.wait_for_function("""() => {
                const screen = document.querySelector(".sm-screen");
                return screen.dataset.turn === "you" || screen.dataset.status === "finished";
            }""")
            continue
        expect(root).to_have_attribute("data-turn", "you")
        click_action(page, *next_action(match))

    match.refresh_from_db()
    assert match.status == "finished" and match.level == "expert" and not match.bot_pending
    assert bot_turns >= 1
    expect(page.locator(".sm-results .sm-result").first).to_be_in_viewport()
    shoot(page, "sm-phone390-light-expert-over", full_page=False)
