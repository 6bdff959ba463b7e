"""The archive says why a recent date is missing and marks the dailies you played; a league
asks a player still under their given name for a name before creating or joining; a message
of one screen does not stay over the next."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.flows import WON_12, ApiPlayer, known_daily, today


def signed_in(page, player: ApiPlayer) -> None:
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    page.reload()


def test_the_archive_says_when_a_date_joins_and_marks_the_dailies_played(open_page, shoot):
    from datetime import UTC, datetime, timedelta

    known_daily()
    player = ApiPlayer(name="Ada")
    player.play(player.daily(), WON_12["moves"])  # today's daily, won with 12 left
    yesterday_but_one = (datetime.now(UTC) - timedelta(days=2)).date().isoformat()
    archived = player.post("games", {"mode": "archive", "date": yesterday_but_one})

    page = open_page("/#/archive")
    signed_in(page, player)
    pending = page.locator("#archive-pending")
    expect(pending).to_have_text(re.compile(
        r"^A daily joins the archive once its day is over everywhere on Earth: .+ is still being "
        r"played in some places, and joins at .+\.$"))
    item = page.locator(f'.archive-item[data-date="{yesterday_but_one}"]')
    expect(item).to_have_attribute("data-played", archived["status"])
    expect(item.locator(".archive-played")).to_have_text("You are playing it")
    assert page.locator(f'.archive-item[data-date="{today()}"]').count() == 0
    expect(page.locator(".archive-item[data-played]")).to_have_count(1)
    shoot(page, "phone-light-archive-played")


def test_a_league_asks_a_player_under_the_given_name_for_a_name(open_page, shoot):
    page = open_page("/#/leagues")
    page.clock.install()  # the page's timers run on a clock the test can stop (from the reload)
    guest = ApiPlayer()
    signed_in(page, guest)
    create = page.locator("#create-league")
    your_name = create.locator("input[name=player_name]")
    expect(your_name).to_be_visible()
    # The field holds the name the player has, to keep or change.
    given = guest.client.get("/api/v1/players/me").json()["name"]
    expect(your_name).to_have_value(given)
    expect(page.locator("#join-league input[name=player_name]")).to_have_value(given)
    create.locator("input[name=name]").fill("Friday Patience")
    your_name.fill("Z")
    create.locator("button[type=submit]").click()
    # The problem is the player's name's, beside it; the league's name is fine.
    expect(your_name).to_have_attribute("aria-invalid", "true")
    expect(create.locator(".field-problem")).to_have_text("A name has 2 to 24 characters.")
    expect(create.locator("input[name=name]")).not_to_have_attribute("aria-invalid", "true")
    shoot(page, "phone-light-league-name")
    your_name.fill("Zoe Q")
    # The toast's own timer (2.6 s) must not hide it: the clock stands still from here.
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    create.locator("button[type=submit]").click()
    expect(page.locator("#league-heading")).to_have_text("Friday Patience")
    expect(page.locator(".members li")).to_contain_text(["Zoe Q"])
    # The message of the league's creation does not stay over the next screen, though its
    # time there is not up (the screen its own action opens keeps it: under 400 ms).
    toast = page.locator("#toast.toast-shown")
    expect(toast).to_have_count(1)
    page.clock.fast_forward(600)  # the time the player takes to go elsewhere
    expect(toast).to_have_count(1)
    page.goto("/#/boards")
    expect(toast).to_have_count(0)
    page.clock.resume()

    # A named player is not asked again; a new guest following an invite is.
    page.goto("/#/leagues")
    expect(page.locator("#create-league")).to_be_visible()
    expect(page.locator("#create-league input[name=player_name]")).to_have_count(0)
    friend = open_page("/#/join/ABCDEFGH")
    expect(friend.locator("#join-link-form input[name=player_name]")).to_be_visible()
    # Someone with no account yet has no name to fill it with.
    expect(friend.locator("#join-link-form input[name=player_name]")).to_have_value("")


def test_a_league_created_under_the_name_it_was_filled_with_keeps_it(open_page):
    page = open_page("/#/leagues")
    guest = ApiPlayer()
    signed_in(page, guest)
    given = guest.client.get("/api/v1/players/me").json()["name"]
    create = page.locator("#create-league")
    expect(create.locator("input[name=player_name]")).to_have_value(given)
    create.locator("input[name=name]").fill("Tuesday Squares")
    create.locator("button[type=submit]").click()
    expect(page.locator("#league-heading")).to_have_text("Tuesday Squares")
    expect(page.locator(".members li")).to_contain_text([given])
