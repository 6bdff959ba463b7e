"""Playing the daily in the browser: by pointer and by keyboard, to the end, through a refused
move, across a reload and onto another device."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP
from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    as_trusted_player,
    click_cell,
    known_daily,
    moves_played,
    play_moves,
    play_until_over,
    start_daily,
    token_of,
    wait_idle,
)


def test_a_daily_played_by_clicking_until_it_ends_shows_result_standing_and_chart(
        open_page, shoot):
    known_daily()
    # Regular players, ranked on the global board: one started, one won (the chart has a bar).
    ApiPlayer(name="Ada", trusted=True).daily()
    winner = ApiPlayer(name="Bo", trusted=True)
    winner.play(winner.daily(), WON_12["moves"])

    page = open_page()
    as_trusted_player(page)
    shoot(page, "phone-light-welcome")
    start_daily(page)
    assert page.locator(".cell-target").count() == 1  # the first card goes anywhere
    shoot(page, "phone-light-first-move")
    clicks = play_until_over(page)
    assert 1 <= clicks <= 40

    result = page.locator(".result")
    result.wait_for()
    won = page.locator(".game").get_attribute("data-status") == "won"
    assert result.locator("h2").inner_text() == ("You won!" if won else "Not this time")
    rank = page.locator("#rank")
    rank.wait_for()
    if won:
        assert re.match(r"Rank \d of 2", rank.inner_text())
    else:
        assert rank.inner_text().startswith("Only wins get a rank")
    counts = f"3 ranked players today, {2 if won else 1} won."
    assert counts in page.locator(".standing").inner_text()
    assert int(page.locator('.chart .bar[data-score="12"]').get_attribute("data-count")) >= 1
    assert re.fullmatch(r"\d+:\d\d:\d\d", page.locator(".countdown-clock").inner_text())
    shoot(page, "phone-light-result-lost" if not won else "phone-light-result")


def test_a_won_daily_ranks_you_highlights_your_bar_and_shares_without_spoilers(open_page, shoot):
    daily = known_daily()
    loser = ApiPlayer(name="Cy", trusted=True)
    loser.play(loser.daily(), [[0, 0]] * 4)  # four cards on one pile: still playing

    page = open_page(viewport=DESKTOP)
    as_trusted_player(page)
    start_daily(page)
    play_moves(page, WON_12["moves"])
    page.locator(".result-won").wait_for()
    assert page.locator(".result-line").inner_text() == (
        "A full grid with 12 cards to spare: that is your score.")
    page.locator("#rank").wait_for()
    assert page.locator("#rank").inner_text() == "Rank 1 of 1"
    assert page.locator("#percentile").inner_text() == "Better than 100% of today's players"
    mine = page.locator(".chart .bar-mine")
    assert mine.get_attribute("data-score") == "12"
    assert mine.locator(".bar-you").inner_text() == "you"
    shoot(page, "desktop-light-result-won")

    page.locator("#share").click()
    page.locator("#toast.toast-shown").wait_for()
    text = page.evaluate("navigator.clipboard.readText()")
    lines = text.splitlines()
    assert lines[0] == f"Foursquare #{daily.number} · won · 12 left"
    # The story, as Wordle's rows: a square per move by the face-down count after it.
    tension = ["🟩", "🟨", "🟨", "🟧", "🟥", "⬛"]
    squares = [tension[step["face_down"]] for step in WON_12["expect"]]
    assert lines[1:-1] == ["".join(squares[row:row + 8]) for row in range(0, len(squares), 8)]
    assert lines[-2].endswith("🟩")  # it ends with every pile face up
    assert not re.search(r"\b[A2-9T][CDHS]\b", text)  # no card is named

    page.locator("#replay").click()
    # The replay opens at the start; the last move is a button away.
    expect(page.locator(".replay-caption")).to_have_text("The start: an empty table.")
    page.get_by_role("button", name="Last move").click()
    page.locator(".replay .board").wait_for()
    assert page.locator(".replay-caption").inner_text().startswith("Move 28 of 28")
    page.get_by_role("button", name="First move").click()
    assert page.locator(".replay-caption").inner_text() == "The start: an empty table."
    page.get_by_role("button", name="Next move").click()
    caption = page.locator(".replay-caption").inner_text()
    assert caption.startswith("Move 1 of 28: ") and "Nothing turned over." in caption
    assert page.locator(".deck .deck-card").count() == 40
    shoot(page, "desktop-light-replay")


def test_keyboard_alone_plays_several_moves_and_hears_each_one(open_page):
    known_daily()
    page = open_page()
    start_daily(page)
    page.locator(".game .board .cell[tabindex='0']").focus()
    # WON_12 puts its first four cards on one pile: Enter four times where the focus rests.
    for played in range(1, 5):
        page.keyboard.press("Enter")
        wait_idle(page)
        assert moves_played(page) == played
    page.keyboard.press("Enter")  # the pile is full, so no longer a target: nothing is sent
    assert moves_played(page) == 4
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    wait_idle(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_idle(page)
    assert moves_played(page) == 6
    assert page.evaluate("document.activeElement.dataset.row + ',' + "
                         "document.activeElement.dataset.col") == "-1,0"
    expect(page.locator("#announcer")).to_have_text(re.compile(
        r"^four of clubs placed at row 3, column 4\. 1 card turned over\. "
        r"Face-down piles: 0 of 4\. Next card: four of diamonds\.$"))


def test_a_refused_move_shows_the_servers_message_and_the_game_as_it_stands(open_page):
    known_daily()
    page = open_page()
    start_daily(page)
    click_cell(page, 0, 0)
    # The same player, on another device, plays the next card first.
    other_device = ApiPlayer(token=token_of(page))
    game = other_device.daily()
    other_device.play(game, [WON_12["moves"][1]])

    page.locator('.game .cell[data-target="true"]').first.click()
    problem = page.locator(".game-messages .problem")
    problem.wait_for()
    assert problem.locator(".problem-text").inner_text().startswith("This game moved on elsewhere")
    assert problem.locator(".problem-detail").inner_text() == (
        "You sent move 1, but 2 moves have been played.")
    expect(page.locator(".game")).to_have_attribute("data-moves", "2")


def test_reloading_and_signing_in_elsewhere_resume_the_game_in_progress(open_page, shoot):
    known_daily()
    page = open_page()
    start_daily(page)
    play_moves(page, WON_12["moves"][:3])
    page.reload()
    page.locator(".game .board").wait_for()
    assert moves_played(page) == 3

    page.goto("/#/profile")
    page.locator("#claim-form").wait_for()
    page.fill("#claim-form input[name=username]", "ada_l")
    page.fill("#claim-form input[name=password]", "correct horse battery")
    page.locator("#claim-form button[type=submit]").click()
    page.locator("#signed-in").wait_for()
    page.fill("#name-form input[name=name]", "Ada L")
    page.locator("#name-form button[type=submit]").click()
    expect(page.locator("#toast")).to_have_text("Name saved.")
    shoot(page, "phone-light-profile")

    laptop = open_page("/#/profile", viewport=DESKTOP)
    laptop.locator("#signin-form").wait_for()
    laptop.fill("#signin-form input[name=username]", "ada_l")
    laptop.fill("#signin-form input[name=password]", "wrong password")
    laptop.locator("#signin-form button[type=submit]").click()
    assert laptop.locator("#signin-form .problem-text").inner_text() == (
        "Wrong username or password.")
    laptop.fill("#signin-form input[name=password]", "correct horse battery")
    laptop.locator("#signin-form button[type=submit]").click()
    laptop.locator("#signed-in").wait_for()
    laptop.goto("/#/")
    laptop.locator(".game .board").wait_for()
    assert moves_played(laptop) == 3
    click_cell(laptop, *WON_12["moves"][3])
    assert moves_played(laptop) == 4

    laptop.goto("/#/profile")
    expect(laptop.locator("main h1")).to_have_text("Hello, Ada L")
    laptop.locator("#sign-out").click()  # a claimed account signs out at once
    expect(laptop.locator("main .lead")).to_have_text(re.compile("^You have not played on this"))
    assert laptop.evaluate("localStorage.getItem('fsd.token')") is None
