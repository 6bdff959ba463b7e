"""Leaderboards and leagues between two players, each in a browser of their own."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP
from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    as_trusted_player,
    known_daily,
    play_through_the_api,
    play_until_over,
    start_daily,
    token_of,
)


def named(page, name: str) -> None:
    response = ApiPlayer(token=token_of(page)).client.patch(
        "/api/v1/players/me", {"name": name}, format="json")
    assert response.status_code == 200, response.content


def test_boards_mark_your_row_and_a_league_is_shared_by_its_invite_link(open_page, shoot):
    known_daily()
    ada = open_page(viewport=DESKTOP)
    as_trusted_player(ada)  # regular players: their dailies rank on the global boards
    start_daily(ada)
    named(ada, "Ada")
    play_through_the_api(ada, WON_12["moves"])
    ada.locator("#rank").wait_for()

    bo = open_page()
    as_trusted_player(bo)
    start_daily(bo)
    named(bo, "Bo")
    play_until_over(bo)
    bo.locator("#rank").wait_for()

    ada.goto("/#/boards")
    mine = ada.locator(".leaderboard tr.mine")
    expect(mine).to_contain_text("Ada")
    expect(mine.locator(".you-tag")).to_have_text("you")
    expect(mine.locator(".rank-cell")).to_have_text("1")
    expect(ada.locator("#standing")).to_have_text(
        re.compile(r"^Your rank: 1 · better than \d+% of players$"))
    shoot(ada, "desktop-light-boards")
    ada.locator(".segmented [data-period=week]").click()
    expect(ada.locator(".leaderboard thead")).to_contain_text("Wins")
    expect(ada.locator(".leaderboard tr.mine td").last).to_have_text("1")
    ada.locator(".segmented [data-period=all]").click()
    expect(ada.locator(".board-span")).to_have_text(re.compile(r"^Since "))
    expect(ada.locator(".leaderboard tr.mine")).to_contain_text("Ada")

    bo.goto("/#/boards/day")
    expect(bo.locator(".leaderboard tbody tr").first).to_contain_text("Ada")
    bo_won = bo.locator(".leaderboard tr.mine").count() == 1
    if not bo_won:
        expect(bo.locator("#standing")).to_have_text(
            "You lost this one, so you have no rank: only wins are ranked.")
    bo.locator("#board-around").click()
    expect(bo.locator("#board-around")).to_have_attribute("aria-current", "page")
    assert "around=me" in bo.url
    shoot(bo, "phone-light-boards-around-me")

    # Ada starts a league and sends Bo the invite link.
    ada.goto("/#/leagues")
    ada.fill("#create-league input[name=name]", "Friday Patience")
    ada.locator("#create-league button[type=submit]").click()
    expect(ada.locator("#league-heading")).to_have_text("Friday Patience")
    code = ada.locator("#league-code").inner_text()
    assert re.fullmatch(r"[A-Z2-9]{8}", code)
    ada.locator("#copy-invite").click()
    ada.locator("#toast.toast-shown").wait_for()
    link = ada.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"/#/join/{code}")

    bo.goto(urlsplit(link).path + "#" + urlsplit(link).fragment)
    expect(bo.locator(".today-intro .lead")).to_contain_text(code)
    bo.locator("#join-league-button").click()
    expect(bo.locator("#league-heading")).to_have_text("Friday Patience")
    expect(bo.locator(".members li")).to_have_count(2)
    expect(bo.locator(".leaderboard tbody tr").first).to_contain_text("Ada")
    assert bo.locator("#rotate-code").count() == 0  # only the owner manages the league
    shoot(bo, "phone-light-league")

    ada.reload()
    expect(ada.locator(".members li")).to_have_count(2)
    ada.locator("#rotate-code").click()
    expect(ada.locator("#league-code")).not_to_have_text(code)
    ada.locator(".members button[data-remove]").click()
    expect(ada.locator(".members li")).to_have_count(1)
    ada.goto("/#/leagues")
    expect(ada.locator(".league-list a")).to_have_text("Friday Patience · 1 member")

    bo.goto(f"/#/join/{code}")
    bo.locator("#join-league-button").click()
    expect(bo.locator(".problem-text")).to_have_text(
        "Not found. The link may be wrong or out of date.")


def test_stats_count_your_dailies(open_page, shoot):
    known_daily()
    page = open_page()
    as_trusted_player(page)
    start_daily(page)
    play_through_the_api(page, WON_12["moves"])
    page.locator("#rank").wait_for()
    page.goto("/#/stats")
    expect(page.locator("[data-stat=played] dd")).to_have_text("1")
    expect(page.locator("[data-stat=win_rate] dd")).to_have_text("100%")
    expect(page.locator("[data-stat=current_streak] dd")).to_have_text("1")
    expect(page.locator(".chart .bar[data-score='12']")).to_have_attribute("data-count", "1")
    expect(page.locator(".recent li")).to_contain_text("won, 12 left, rank 1")
    shoot(page, "phone-light-stats")


UNRANKED_RESULT = ("This game is not on the global board: it ranks accounts saved with a username "
                   "at least a day before the daily begins. Save yours in Profile, and the "
                   "dailies that begin a day after that will rank.")
UNRANKED = ("You are not on the global board: it ranks only accounts saved with a username at "
            "least a day before the daily first began anywhere. Save yours in Profile, and the "
            "dailies that begin a day after that will rank.")


def test_a_guest_is_told_why_they_are_not_on_the_global_board(open_page, shoot):
    known_daily()
    regular = ApiPlayer(name="Ada", trusted=True)
    regular.play(regular.daily(), WON_12["moves"])
    page = open_page()
    start_daily(page)  # a new guest
    play_through_the_api(page, WON_12["moves"])
    # Where the score would stand among the ranked players first, then calmly why it is not
    # ranked; a guest is told how to get there.
    expect(page.locator("#would-rank")).to_have_text(
        "Among today's ranked players, your score would be rank 1 of 1.")
    expect(page.locator("#unranked")).to_have_text(UNRANKED_RESULT)
    assert page.locator("#rank").count() == 0
    expect(page.locator(".standing")).to_contain_text("1 ranked player today, 1 won.")
    bar = page.locator(".chart .bar[data-score='12']")
    expect(bar).to_have_attribute("data-count", "1")  # Ada's win: the guest's is not counted
    expect(bar).to_have_class("bar bar-mine bar-unranked")  # but it is marked, as unranked
    expect(bar.locator(".bar-you")).to_have_text("you (unranked)")
    shoot(page, "phone-light-result-unranked")

    page.goto("/#/boards/day")
    standing = page.locator("#standing")
    expect(standing.locator(".rank-would")).to_have_text(
        "Among today's ranked players, your score would be rank 1 of 1.")
    expect(standing.locator(".subtle")).to_have_text(UNRANKED)
    shoot(page, "phone-light-board-unranked")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(1)
    assert page.locator(".leaderboard tr.mine").count() == 0


def test_an_account_saved_today_is_not_told_to_save_itself(open_page):
    known_daily()
    player = ApiPlayer(name="Cleo")
    player.post("players/me/claim", {"username": "cleo_k", "password": "correct horse battery"})
    page = open_page()
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))",
                  player.token)
    page.reload()
    assert page.locator("#ranking-note").inner_text() == ""  # a saved account knows the rule
    start_daily(page)
    play_through_the_api(page, WON_12["moves"])
    expect(page.locator("#would-rank")).to_have_text(
        "No ranked player has played today's daily yet: your score would lead.")
    expect(page.locator("#unranked")).to_have_text(
        "Your account was saved less than a day before this daily began, so this one is not "
        "ranked. The dailies that begin a day after you saved it will be.")
    page.goto("/#/boards/day")
    expect(page.locator("#standing")).to_contain_text("less than a day before they began")
    assert "Profile" not in page.locator("#standing").inner_text()
