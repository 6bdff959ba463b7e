"""After a game, in the browser: the bot's review names the cards, marks the mistakes on its
chart and opens each move's position, named as its grid is drawn, in a list the page scrolls;
the replay starts at the beginning, ▶ plays it and its words name places as its board draws
them."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    click_cell,
    known_practice_deal,
    play_until_over,
    wait_idle,
)
from tests.serving import WAIT_SECONDS

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_ANALYSIS_BOT = TINY_BOT
    settings.FOURSQUARE_HINT_BOT = TINY_BOT
    settings.FOURSQUARE_ANALYSIS_SOLVER_SECONDS = 0.5


def finished_practice(page) -> int:
    page.locator("#new-practice").click()
    page.locator(".game .board").wait_for()
    wait_idle(page)
    return play_until_over(page)


def run_the_analysis(page) -> None:
    from server.jobs.background import job_run
    from server.jobs.models import Job

    job = None
    for _ in range(WAIT_SECONDS * 10):  # the result screen's first request enqueues it
        job = Job.objects.filter(kind="game_analyse").first()
        if job is not None:
            break
        page.wait_for_timeout(100)
    assert job is not None and job_run(job.pk).status == "done"
    expect(page.locator("#analysis-rating")).to_be_visible()


def won_practice_on_the_page(open_page, **options):
    """A practice game of a known deal won through the API by a player the page is signed in
    as, its result open on the page."""
    player = ApiPlayer()
    game = player.post("games", {"mode": "practice", "deal": known_practice_deal()})
    player.play(game, WON_12["moves"])
    page = open_page(None, **options)
    page.goto("/")
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    page.goto(f"/#/game/{game['id']}")
    expect(page.locator("#result-heading")).to_have_text("You won!")
    return page, player, game


# Where a cell is drawn: its row among the board's rows and its column in that row, from 1.
DRAWN_AT = """cell => {
  const row = cell.closest('.board-row');
  return [[...row.parentElement.children].indexOf(row) + 1, [...row.children].indexOf(cell) + 1];
}"""


def test_the_reviews_and_the_replays_words_count_places_as_their_grid_is_drawn(open_page):
    page, _, _ = won_practice_on_the_page(open_page)
    run_the_analysis(page)
    # Move 6 goes above the first card: the fixed frame would call it row 3, column 4.
    page.locator(".analysis-move-button").nth(5).click()
    position = page.locator("#analysis-position")
    expect(position).to_have_attribute("data-index", "5")
    facts = position.locator(".analysis-facts > div")
    for who, line in (("you", facts.nth(0)), ("bot", facts.nth(1))):
        cell = position.locator(f'.cell[data-mark="{who}"]')
        if who == "bot" and cell.count() == 0:
            break  # the bot would have put it where it went
        row, col = cell.evaluate(DRAWN_AT)
        expect(line.locator("dd")).to_have_text(re.compile(rf"^Row {row}, column {col} · "))
        expect(cell).to_have_attribute("aria-label", re.compile(rf"^Row {row}, column {col}: "))
    assert page.locator("#analysis-position .board").get_attribute("aria-description") == (
        "Rows are counted from the top of this grid and columns from its start, as it is drawn.")

    page.locator("#replay").click()
    replay = page.locator(".replay")
    for _ in range(6):
        replay.locator('[data-control="next"]').click()
    expect(replay).to_have_attribute("data-step", "6")
    landed = replay.locator(".cell-landed")
    row, col = landed.evaluate(DRAWN_AT)
    expect(replay.locator(".replay-caption")).to_have_text(
        re.compile(rf"^Move 6 of 28: .+ to row {row}, column {col}\."))
    expect(landed).to_have_attribute("aria-label", re.compile(rf"^Row {row}, column {col}: "))


NESTED_SCROLL = """list => {
  for (let box = list; box && box !== document.scrollingElement; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && box.scrollHeight > box.clientHeight) {
      return box.className || box.tagName;
    }
  }
  return null;
}"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844},
                                      {"width": 1366, "height": 900}], ids=["phone", "desktop"])
def test_the_review_list_is_the_pages_to_scroll_not_a_box_of_its_own(open_page, viewport):
    page, _, _ = won_practice_on_the_page(open_page, viewport=viewport)
    run_the_analysis(page)
    moves = page.locator(".analysis-moves")
    expect(moves.locator(".analysis-move")).to_have_count(28)
    # Every move's line is in the page's flow: nothing between it and the page scrolls.
    assert moves.evaluate(NESTED_SCROLL) is None
    assert page.evaluate("document.scrollingElement.scrollHeight > innerHeight")
    last = moves.locator(".analysis-move-button").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    assert moves.evaluate(NESTED_SCROLL) is None


def test_each_move_of_the_review_opens_its_position(open_page, shoot):
    from server.foursquare.models import GameAnalysis

    page = open_page("/#/practice")
    moves = finished_practice(page)
    run_the_analysis(page)
    review = GameAnalysis.objects.get().result
    buttons = page.locator(".analysis-move-button")
    expect(buttons).to_have_count(moves)
    # Cards by name, numbered once: "10." then the card in words, never a code like "TH".
    tenth = buttons.nth(9)
    expect(tenth.locator(".analysis-number")).to_have_text("10.")
    expect(tenth.locator(".analysis-card")).to_have_text(
        re.compile(r"^\w+ of (clubs|diamonds|hearts|spades)$"))
    assert page.locator(".analysis-moves").evaluate(
        "list => getComputedStyle(list).listStyleType") == "none"
    # The verdict rests on the value given away, and says so in numbers that agree with it.
    for index, move in enumerate(review["moves"]):
        loss = buttons.nth(index).locator(".analysis-loss")
        if move["forced"]:
            expect(loss).to_have_text("The card's only place")
        elif move["verdict"] == "best":
            expect(loss).to_have_text("As good as the bot's choice")
        else:
            tenths = math.floor(max(0, move["value_lost"]) * 10 + 1e-9) / 10  # rounded down
            expect(loss).to_have_text(f"{tenths:.1f} of value given away")
    marked = [m for m in review["moves"] if m["verdict"] in ("mistake", "blunder")]
    expect(page.locator(".analysis-chart .analysis-marker")).to_have_count(len(marked))
    assert page.locator(".analysis-chart .analysis-tick").count() >= 4  # 0%, 50%, 100%, moves

    third = review["moves"][2]
    buttons.nth(2).click()
    position = page.locator("#analysis-position")
    expect(position.locator("h4")).to_have_text(
        re.compile(rf"^Move 3 of {moves}: \w+ of \w+$"))
    expect(position.locator("h4")).to_be_focused()
    expect(buttons.nth(2)).to_have_attribute("aria-pressed", "true")
    # The board before move 3: two cards down, the third card in hand, its place marked.
    assert position.locator(".board .cell-pile").count() == 2
    expect(position.locator(".analysis-position-hand .card-face")).to_have_attribute(
        "data-card", third["card"])
    played = position.locator('.cell[data-mark="you"]')
    expect(played).to_have_attribute("data-row", str(third["played"][0]))
    expect(played).to_have_attribute("data-col", str(third["played"][1]))
    expect(position.locator(".cell-mark-tag-bot")).to_have_count(
        0 if third["played"] == third["best"] else 1)
    shoot(page, "phone-light-review-position")
    # Move to move from the position itself, and the chart follows.
    position.locator('[data-control="next"]').click()
    expect(page.locator("#analysis-position")).to_have_attribute("data-index", "3")
    expect(page.locator(".analysis-chart .analysis-cursor")).to_have_count(1)


def test_the_replay_opens_at_the_start_and_play_steps_through(open_page, shoot):
    page = open_page("/#/practice")
    page.clock.install()  # its timers on a clock the test can move on
    moves = finished_practice(page)
    page.locator("#replay").click()
    replay = page.locator(".replay")
    expect(replay).to_have_attribute("data-step", "0")
    expect(replay.locator(".replay-caption")).to_have_text("The start: an empty table.")
    # The app's own icons: drawn shapes, not glyphs that need an emoji font.
    controls = replay.locator(".replay-controls button")
    expect(controls).to_have_count(5)
    for index in range(5):
        expect(controls.nth(index).locator("svg.icon")).to_have_count(1)
        assert controls.nth(index).inner_text().strip() == ""
    play = replay.locator('[data-control="play"]')
    expect(play).to_have_attribute("aria-label", "Play the moves")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(replay).to_have_attribute("data-step", "2", timeout=5_000)
    play.click()  # pause
    expect(play).to_have_attribute("aria-pressed", "false")
    paused = int(replay.get_attribute("data-step"))
    page.clock.run_for(5_000)  # steps enough for several moves, had it gone on playing
    assert int(replay.get_attribute("data-step")) == paused
    replay.locator('[data-control="last"]').click()
    expect(replay).to_have_attribute("data-step", str(moves))
    replay.locator('[data-control="first"]').click()
    expect(replay).to_have_attribute("data-step", "0")
    shoot(page, "phone-light-replay-start")


def test_the_bots_hint_is_marked_on_the_board_until_the_next_move(open_page, shoot):
    page = open_page("/#/practice")
    page.locator("#new-practice").click()
    page.locator(".game .board").wait_for()
    wait_idle(page)
    # The new deal's board has the focus, not <body>.
    expect(page.locator('.game .cell[tabindex="0"]')).to_be_focused()
    page.locator('.game .cell[data-target="true"]').first.click()
    wait_idle(page)
    page.locator("#ask-hint").click()
    marked = page.locator('.game .cell[data-mark="bot"]')
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-target", "true")
    expect(marked).to_be_focused()
    expect(marked).to_have_attribute("aria-label", re.compile(r"\. The bot$"))
    expect(marked.locator(".cell-mark")).to_have_text("The bot")
    shoot(page, "phone-light-hint-marked")
    marked.click()
    wait_idle(page)
    expect(page.locator('.game .cell[data-mark="bot"]')).to_have_count(0)


def test_enter_or_a_click_where_the_card_cannot_go_is_heard(open_page):
    page = open_page(f"/#/challenge/{known_practice_deal()}")
    page.locator("#accept-challenge").click()
    page.locator(".game .board").wait_for()
    wait_idle(page)
    for row, col in WON_12["moves"][:5]:
        click_cell(page, row, col)
    refused = page.locator('.game .cell[data-target="false"]').first
    refused.click()
    expect(page.locator("#announcer")).to_have_text(
        "The card can't go there: choose a marked place.")
    page.evaluate("document.getElementById('announcer').textContent = ''")
    refused.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announcer")).to_have_text(
        "The card can't go there: choose a marked place.")
