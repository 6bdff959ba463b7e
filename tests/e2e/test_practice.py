"""Practice deals, a challenge between two browsers, the archive and the tutorial."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.e2e.flows import WON_12, click_cell, play_until_over, wait_idle


def test_practice_resumes_and_a_challenge_link_gives_a_friend_the_same_deal(open_page, shoot):
    from server.foursquare.models import Game

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
        r"http://[^/]+/#/challenge/([a-z2-9]{12})\?by=Player\+\w+&g=([0-9a-f-]{36})", link)
    assert match, link
    deal, game_id = match.groups()
    ada_game = Game.objects.get(pk=game_id)
    assert ada_game.deal_id == deal

    bo = open_page(urlsplit(link).path + "#" + urlsplit(link).fragment)
    expect(bo.locator("#challenge-heading")).to_have_text(
        re.compile(r"^Player \w+ challenges you$"))
    # The result is the server's account of Ada's game, not the link's.
    expect(bo.locator("#challenger-result")).to_have_text(
        re.compile(rf"^Player \w+ won with {ada_game.score} cards? left\.$")
        if ada_game.status == "won" else re.compile(r"^Player \w+ did not manage to win it\.$"))
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


def test_a_challenge_link_that_claims_its_own_result_claims_none(open_page, shoot):
    from server.foursquare.models import Deal

    deal = Deal.objects.create(cards=" ".join(WON_12["deck"])).pk
    # No game id, an old-style link, one naming a game that does not exist: nothing the link
    # says reaches the page, not even as a name in the title.
    for query in ("by=Won+with+24+left", "by=Eve&r=won-99",
                  "by=Eve&g=00000000-0000-4000-8000-000000000000"):
        page = open_page(f"/#/challenge/{deal}?{query}")
        expect(page.locator("#challenge-heading")).to_have_text("Can you win this deal?")
        expect(page.locator(".lead")).to_have_text(
            "This link opens a deal someone shared with you: the same cards, in the same order.")
        expect(page.locator("#accept-challenge")).to_be_focused()
        expect(page.locator("#challenger-result")).to_have_count(0)
        text = page.locator("main").inner_text()
        assert "Eve" not in text and "24" not in text and "99" not in text
    shoot(page, "phone-light-challenge-unverified")
    page.locator("#accept-challenge").click()
    page.locator(".game .board").wait_for()
    assert "/#/game/" in page.url

