"""Screenshots of the main screens, on a phone and a desktop, light and dark, left to right
and right to left, for a person to look at (screenshots/, git-ignored). Each also checks the
page does not scroll sideways."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    as_trusted_player,
    click_cell,
    known_daily,
    play_through_the_api,
    start_daily,
)
from tests.e2e.screens import settle, shoot_checked

LOOKS = [
    pytest.param("phone", PHONE, "dark", "en-US", id="phone-dark"),
    pytest.param("desktop", DESKTOP, "light", "en-US", id="desktop-light"),
    pytest.param("desktop", DESKTOP, "dark", "en-US", id="desktop-dark"),
    pytest.param("phone", PHONE, "light", "fa-IR", id="phone-fa"),
    pytest.param("desktop", DESKTOP, "dark", "fa-IR", id="desktop-dark-fa"),
]


@pytest.mark.parametrize(("device", "viewport", "scheme", "locale"), LOOKS)
def test_main_screens(open_page, shoot, device, viewport, scheme, locale):
    known_daily()
    winner = ApiPlayer(name="Ada", trusted=True)
    winner.play(winner.daily(), WON_12["moves"])
    name = f"{device}-{scheme}" + ("-fa" if locale.startswith("fa") else "")

    page = open_page(viewport=viewport, color_scheme=scheme, locale=locale)
    as_trusted_player(page)
    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:8])
    click_cell(page, *WON_12["moves"][8])  # the last move is drawn as just played
    shoot_checked(shoot, page, f"{name}-game")
    play_through_the_api(page, WON_12["moves"][9:])
    page.locator("#rank").wait_for()
    shoot_checked(shoot, page, f"{name}-result")

    for screen in ("boards", "rules", "leagues"):
        page.goto(f"/#/{screen}")
        settle(page, "main h1")
        shoot_checked(shoot, page, f"{name}-{screen}", full_page=screen != "rules")


def test_the_game_in_the_longer_scripts(open_page, shoot):
    known_daily()
    page = open_page()
    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:6])
    for code in ("ml", "ka", "bn"):
        page.select_option("#language", code)
        page.locator(".game .board").wait_for()
        shoot_checked(shoot, page, f"phone-light-{code}-game")
        page.goto("/#/tutorial")
        page.locator("#tutorial-next").click()
        page.locator('.tutorial .cell[data-target="true"]').click()
        shoot_checked(shoot, page, f"phone-light-{code}-tutorial")
        page.goto("/#/")
