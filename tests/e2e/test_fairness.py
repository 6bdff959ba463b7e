"""The fairness line on the result screens, checked by the page itself (WebCrypto and the
JavaScript deal(), frontend/fairness/): a past daily's revealed seed against its commitment and
the cards played, in English and in Persian; a failure named when the reveal or the record is
tampered with on its way to the page (route interception); today's daily committed and not
revealed yet, with tomorrow's commitment under the countdown; a match against the house bot,
its server seed committed before the browser sent its own seed; the "How we prove it" page.

Deterministic whatever the deal: the checks hold for any deal, the games are played to their
end through the API (any legal move), and the dates are relative to today, clear of the date
boundaries (tests/wall_clock.py, the conftest's autouse fixture)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.flows import ApiPlayer, as_trusted_player, token_of
from tests.e2e.screens import settle, shoot_checked

LOOKS = [(PHONE, "light", "phone-light"), (PHONE, "dark", "phone-dark"),
         (DESKTOP, "light", "desktop-light"), (DESKTOP, "dark", "desktop-dark")]


def committed_daily(offset: int):
    """The Foursquare daily ``offset`` days from today (UTC), dealt and committed now."""
    from server.foursquare import fairness
    from server.foursquare.dailies import daily_get_or_create

    day = datetime.now(UTC).date() + timedelta(days=offset)
    daily = daily_get_or_create(day, prepare_later=False)
    fairness.daily_commit(daily)
    return daily


def finished(player: ApiPlayer, body: dict) -> dict:
    """A game started with ``body`` and played to its end by any legal move."""
    game = player.post("games", body)
    while game["status"] == "playing":
        row, col = game["legal_moves"][0]
        game = player.post(f"games/{game['id']}/moves", {"row": row, "col": col})
    return game


def archive_result(open_page, **looks):
    """A page whose player finished the daily of three days ago (revealed: that date is over
    everywhere), opened on that game's result."""
    daily = committed_daily(-3)
    page = open_page("/", **looks)
    player = as_trusted_player(page)
    game = finished(player, {"mode": "archive", "date": daily.date.isoformat()})
    return page, game, daily


def test_a_past_daily_s_deal_is_checked_by_the_page_and_a_tampered_reveal_fails(open_page):
    from server.fairness.models import LogEntry

    page, game, daily = archive_result(open_page)
    page.goto(f"/#/game/{game['id']}")
    line = page.locator("#fair-line")
    expect(line).to_have_attribute("data-state", "ok")
    expect(line).to_contain_text("Fair deal ✓: committed")
    entry = LogEntry.objects.get(kind="daily", game="foursquare", subject=daily.date.isoformat())
    expect(line).to_contain_text(f"{entry.committed_at:%Y}")  # the commitment's time
    expect(line.locator("a.fair-how")).to_have_attribute("href", "#/fair")

    # Another seed revealed than the one committed: the page's own hash says so.
    def other_seed(route):
        answer = route.fetch().json()
        answer["seed"] = "ab" * 32
        route.fulfill(json=answer)

    page.route("**/api/v1/fairness/commitments/foursquare/*", other_seed)
    page.reload()
    expect(line).to_have_attribute("data-state", "bad")
    expect(line).to_have_attribute("data-reason", "commitment")
    expect(line).to_contain_text("the seed revealed does not match the commitment")
    page.unroute("**/api/v1/fairness/commitments/foursquare/*")

    # The honest reveal, but a record whose cards are not the seed's deal.
    def swapped_cards(route):
        record = route.fetch().json()
        record["deck"][0], record["deck"][1] = record["deck"][1], record["deck"][0]
        route.fulfill(json=record)

    page.route(f"**/api/v1/games/{game['id']}/record", swapped_cards)
    page.reload()
    expect(line).to_have_attribute("data-reason", "deal")
    expect(line).to_contain_text("the cards played are not the seed's deal")


def test_persian_reads_the_fairness_line_right_to_left_with_its_own_digits(open_page, shoot):
    page, game, _ = archive_result(open_page, locale="fa-IR")
    page.goto(f"/#/game/{game['id']}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    line = page.locator("#fair-line")
    expect(line).to_have_attribute("data-state", "ok")
    expect(line).to_contain_text("دست منصفانه ✓")
    expect(line).to_have_text(re.compile("[۰-۹]"))  # the time in Persian digits
    expect(line.locator("a.fair-how")).to_have_text("چطور ثابتش می‌کنیم")
    line.scroll_into_view_if_needed()
    shoot(page, "fair-phone-light-fa-archive-result")
    line.locator("a.fair-how").click()
    settle(page, ".fair-page pre")
    expect(page.locator("#fair-heading")).to_have_text("چطور ثابتش می‌کنیم")
    expect(page.locator(".fair-page pre")).to_contain_text("python -m foursquare verify --server")
    shoot_checked(shoot, page, "fair-phone-light-fa-page")


def test_today_s_daily_is_committed_not_revealed_and_tomorrow_s_commitment_is_shown(
        open_page, shoot):
    from server.fairness.models import LogEntry

    committed_daily(0)
    tomorrow = committed_daily(1)
    for viewport, scheme, name in LOOKS:
        page = open_page("/", viewport=viewport, color_scheme=scheme)
        player = as_trusted_player(page)
        finished(player, {"mode": "daily", "date": datetime.now(UTC).date().isoformat()})
        page.reload()
        line = page.locator("#fair-line")
        expect(line).to_have_attribute("data-state", "committed")
        expect(line).to_contain_text("before anyone played it")
        ahead = page.locator("#fair-tomorrow")
        commitment = LogEntry.objects.get(kind="daily", game="foursquare",
                                          subject=tomorrow.date.isoformat()).commitment
        expect(ahead).to_have_attribute("data-commitment", commitment)
        expect(ahead).to_contain_text(f"{commitment[:8]}…{commitment[-8:]}")
        settle(page, "#fair-tomorrow")
        shoot_checked(shoot, page, f"fair-{name}-daily-result")
    page = open_page("/", locale="fa-IR", viewport=DESKTOP, color_scheme="dark")
    player = as_trusted_player(page)
    finished(player, {"mode": "daily", "date": datetime.now(UTC).date().isoformat()})
    page.reload()
    expect(page.locator("#fair-line")).to_have_attribute("data-state", "committed")
    expect(page.locator("#fair-tomorrow")).to_contain_text("دست فردا")
    settle(page, "#fair-tomorrow")
    shoot_checked(shoot, page, "fair-desktop-dark-fa-daily-result")


SM_LOOKS = [(PHONE, "light", "en-US", "phone-light"), (DESKTOP, "dark", "en-US", "desktop-dark"),
            (PHONE, "dark", "fa-IR", "phone-dark-fa"),
            (DESKTOP, "light", "fa-IR", "desktop-light-fa")]


def test_spite_malice_results_show_the_line_in_every_look(open_page, shoot):
    for viewport, scheme, locale, name in SM_LOOKS:
        page = open_page("/", viewport=viewport, color_scheme=scheme, locale=locale)
        player = as_trusted_player(page)
        match = player.post("spite-malice/matches", {"opponent": "bot", "level": "easy",
                                                     "target": 1, "client_seed": "e2e"})
        resigned = player.client.post(f"/api/v1/spite-malice/matches/{match['id']}/resign")
        assert resigned.status_code == 200, resigned.content
        page.goto(f"/#/spite-malice/match/{match['id']}")
        line = page.locator(".sm-result #fair-line")
        expect(line).to_have_attribute("data-state", "ok")
        expect(line).to_contain_text("دست منصفانه ✓" if locale == "fa-IR" else "Fair deal ✓")
        settle(page, ".sm-result #fair-line[data-state=ok]")
        shoot_checked(shoot, page, f"fair-{name}-sm-result")


def test_against_the_bot_the_browser_sends_its_seed_after_the_commitment_and_checks_it(
        open_page, shoot):
    from server.fairness.models import SeedCommitment

    page = open_page("/#/spite-malice/play")
    page.get_by_label("Easy").check()
    page.get_by_label("Single game").check()
    page.locator("#sm-bot-start").click()
    expect(page).to_have_url(re.compile(r"#/spite-malice/match/[0-9a-f-]{36}$"))
    match_id = page.url.rsplit("/", 1)[1]
    seeds = SeedCommitment.objects.select_related("entry").get(
        entry__subject=f"match/{match_id}")
    sent = json.loads(page.evaluate("localStorage.getItem('fsd.fairSeeds')"))[
        f"match/{match_id}"]
    assert sent == {"seed": seeds.client_seeds[0], "commitment": seeds.entry.commitment}
    assert seeds.client_seeds[1] is None  # the bot's seat

    resigned = ApiPlayer(token=token_of(page)).client.post(
        f"/api/v1/spite-malice/matches/{match_id}/resign")
    assert resigned.status_code == 200, resigned.content
    page.reload()
    line = page.locator(".sm-result #fair-line")
    expect(line).to_have_attribute("data-state", "ok")
    expect(line).to_contain_text("Fair deal ✓: committed")
    line.scroll_into_view_if_needed()
    shoot(page, "fair-phone-light-sm-result", full_page=False)

    # A reveal of another client seed than the one this browser sent is named as such.
    def not_mine(route):
        record = route.fetch().json()
        record["fairness"]["client_seeds"] = ["someone else's", None]
        route.fulfill(json=record)

    page.route("**/games/1/record", not_mine)
    page.reload()
    expect(line).to_have_attribute("data-state", "bad")
    expect(line).to_have_attribute("data-reason", "client_seed")


def test_how_we_prove_it_is_reached_from_the_rules_in_every_look(open_page, shoot):
    for viewport, scheme, name in LOOKS:
        page = open_page("/#/rules", viewport=viewport, color_scheme=scheme)
        page.locator("#rules-fair").click()
        settle(page, ".fair-page pre")
        expect(page).to_have_url(re.compile("#/fair$"))
        expect(page.locator("#fair-heading")).to_have_text("How we prove it")
        expect(page.locator(".fair-page")).to_contain_text("HMAC-SHA256")
        shoot_checked(shoot, page, f"fair-{name}-page")
