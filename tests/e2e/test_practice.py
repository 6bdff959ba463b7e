"""Practice deals, a challenge between two browsers, the archive and the tutorial."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.e2e.flows import click_cell, play_until_over, wait_idle


def test_practice_resumes_and_a_challenge_link_gives_a_friend_the_same_deal(open_page, shoot):
    from server.games.models import Game

    ada = open_page("/#/practice")
    ada.locator("#new-practice").click()
    ada.locator(".game .board").wait_for()
    assert ada.locator("#game-heading").inner_text() == "Practice"
    ada.locator('.game .cell[data-target="true"]').first.click()
    wait_idle(ada)
    ada.goto("/#/practice")
    resume = ada.locator("#resume-practice")
    expect(resume).to_have_text("Continue your practice game (1 card placed)")
    resume.click()
    ada.locator(".game .board").wait_for()
    play_until_over(ada)
    ada.locator("#challenge").click()
    ada.locator("#toast.toast-shown").wait_for()
    link = ada.evaluate("navigator.clipboard.readText()")
    match = re.fullmatch(
        r"http://[^/]+/#/challenge/([a-z2-9]{12})\?by=Player\+\w+&r=(won-\d+|lost)", link)
    assert match, link
    deal = match.group(1)

    bo = open_page(urlsplit(link).path + "#" + urlsplit(link).fragment)
    expect(bo.locator("#challenge-heading")).to_have_text(
        re.compile(r"^Player \w+ challenges you$"))
    shoot(bo, "phone-light-challenge")
    bo.locator("#accept-challenge").click()
    bo.locator(".game .board").wait_for()
    assert "/#/game/" in bo.url
    assert Game.objects.filter(deal_id=deal, mode="practice").count() == 2
    play_until_over(bo)
    comparison = bo.locator("#comparison")
    comparison.wait_for()
    assert re.search(
        r"You beat Player \w+!|Player \w+ did better this time\.|A tie with Player \w+\.",
        comparison.inner_text())


def test_the_archive_replays_a_past_daily_unranked(open_page):
    page = open_page("/#/archive")
    first = page.locator(".archive-item").first
    first.wait_for()
    number = first.locator(".archive-number").inner_text()
    assert re.fullmatch(r"Daily #\d+", number)
    first.click()
    page.locator(".game .board").wait_for()
    assert page.locator("#game-heading").inner_text() == f"{number} · archive"
    click_cell(page, 0, 0)
    assert page.locator(".game").get_attribute("data-moves") == "1"


def test_the_tutorial_walks_through_five_placements(open_page, shoot):
    page = open_page()
    page.locator(".welcome a.primary").click()
    page.locator("#tutorial-heading").wait_for()
    page.locator("#tutorial-next").click()
    for step in range(1, 6):
        expect(page.locator(".tutorial-progress")).to_have_text(f"Step {step} of 5")
        page.locator('.tutorial .cell[data-target="true"]').click()
        if step == 2:
            assert "the 4 is now face down" in page.locator(".tutorial-text").inner_text()
            shoot(page, "phone-light-tutorial")
        page.locator("#tutorial-next").click()
    expect(page.locator("#tutorial-done")).to_have_text("Play today's deal")
    page.locator("#tutorial-done").click()
    page.locator("#start-daily").wait_for()
    assert page.locator(".welcome").count() == 0  # a first visit is over once it has been shown
