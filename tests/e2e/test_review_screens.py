"""Screenshots of a finished game's screens (the result and its share strip, a loss's and a
win's; the bot's review at a move's position; the replay), of a challenge link the server
does not back and of a league's name field, on a 390×844 phone and a 1366×900 desktop, light
and dark, English and Persian (screenshots/, git-ignored). Each also checks the page does not
scroll sideways."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import WON_12, ApiPlayer, known_practice_deal
from tests.e2e.screens import LOOKS, settle, shoot_checked
from tests.e2e.test_review_and_replay import tiny_budgets  # noqa: F401
from tests.serving import WAIT_SECONDS


def played(player: ApiPlayer, game: dict, moves=None) -> tuple[dict, dict]:
    """Plays `moves` (or each time the first legal move, until the game ends) and returns the
    game and its story as the page remembers it: the face-down count after each move."""
    story = {}
    index = 0
    while game["status"] == "playing" and (moves is None or index < len(moves)):
        row, col = moves[index] if moves is not None else game["legal_moves"][0]
        game = player.post(f"games/{game['id']}/moves", {"row": row, "col": col})
        story[str(index)] = game["face_down"]
        index += 1
    return game, story


def run_the_analyses(page, games: int) -> None:
    """Runs the reviews the result screens ask for, until all `games` have had theirs. The
    server computes one at a time per player (a second is `429 analysis_pending` until the first
    is done, and the screen asks again), so each is run as it is asked for."""
    from server.jobs.background import job_run
    from server.jobs.models import Job

    ran: set = set()
    for _ in range(WAIT_SECONDS * 10):
        for job in Job.objects.filter(kind="game_analyse").exclude(pk__in=ran):
            assert job_run(job.pk).status == "done"
            ran.add(job.pk)
        if len(ran) >= games:
            break
        page.wait_for_timeout(100)
    assert len(ran) == games
    expect(page.locator("#analysis-rating")).to_be_visible()


@pytest.mark.parametrize(("viewport", "scheme", "locale"), LOOKS)
def test_a_finished_games_screens(open_page, shoot, request, viewport, scheme, locale):
    name = request.node.callspec.id
    player = ApiPlayer()
    deal = known_practice_deal()
    lost, lost_story = played(player, player.post("games", {"mode": "practice", "deal": deal}))
    assert lost["status"] == "lost"
    won, won_story = played(player, player.post("games", {"mode": "practice", "deal": deal}),
                            WON_12["moves"])
    assert won["status"] == "won"

    page = open_page("/", viewport=viewport, color_scheme=scheme, locale=locale)
    page.evaluate("""([token, story]) => {
      localStorage.setItem('fsd.token', JSON.stringify(token));
      localStorage.setItem('fsd.story', story);
    }""", [player.token, json.dumps({lost["id"]: lost_story, won["id"]: won_story})])

    page.goto(f"/#/game/{lost['id']}")
    expect(page.locator("#share-strip")).to_have_attribute("data-kind", "story")
    settle(page, "#share-strip")
    shoot_checked(shoot, page, f"{name}-result-lost")

    page.goto(f"/#/game/{won['id']}")
    expect(page.locator("#share-strip")).to_have_attribute("data-kind", "story")
    run_the_analyses(page, 2)
    page.locator(".analysis-move-button").nth(5).click()
    expect(page.locator("#analysis-position")).to_have_attribute("data-index", "5")
    shoot_checked(shoot, page, f"{name}-result-won-review")
    page.locator("#analysis-position").scroll_into_view_if_needed()
    shoot_checked(shoot, page, f"{name}-review-position", full_page=False)
    page.locator("#replay").click()
    replay = page.locator(".replay")
    for _ in range(6):
        replay.locator('[data-control="next"]').click()
    expect(replay).to_have_attribute("data-step", "6")
    replay.scroll_into_view_if_needed()
    shoot_checked(shoot, page, f"{name}-replay", full_page=False)
    # Lists numbered by their own words show no marker, Persian's numerals neither.
    for numbered in (".analysis-moves", ".deck"):
        style = page.locator(numbered).evaluate("list => getComputedStyle(list).listStyleType")
        assert style == "none", (numbered, style)

    page.goto(f"/#/challenge/{deal}?by=Won+with+24+left")
    settle(page, "#accept-challenge")
    shoot_checked(shoot, page, f"{name}-challenge-open")

    page.goto("/#/leagues")
    settle(page, "#create-league input[name=player_name]")
    shoot_checked(shoot, page, f"{name}-leagues-name")
