"""Screenshots of the table and the newcomer's first daily at a 390×844 phone and a 1366×900
desktop, light and dark, English and Persian (screenshots/, for a person to look at): the
welcome before a first daily, a move being previewed, and a guest's win with where it would
rank. Each also checks the page does not scroll sideways and the board fits the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    click_cell,
    known_daily,
    play_through_the_api,
    start_daily,
    token_of,
)
from tests.e2e.screens import DESKTOP_WIDE as DESKTOP
from tests.e2e.screens import PHONE_TALL as PHONE

LOOKS = [
    pytest.param(device, viewport, scheme, locale, id=f"{device}-{scheme}-{locale[:2]}")
    for device, viewport in (("phone", PHONE), ("desktop", DESKTOP))
    for scheme in ("light", "dark")
    for locale in ("en-US", "fa-IR")
]


@pytest.mark.parametrize(("device", "viewport", "scheme", "locale"), LOOKS)
def test_the_table_and_a_guests_first_daily(open_page, shoot, device, viewport, scheme, locale):
    known_daily()
    for name, score_moves in (("Ada", WON_12["moves"]), ("Bo", WON_12["moves"][:3])):
        player = ApiPlayer(name=name, trusted=True)
        player.play(player.daily(), score_moves)
    name = f"table-{device}-{scheme}-{locale[:2]}"

    page = open_page(viewport=viewport, color_scheme=scheme, locale=locale)
    page.locator("#ranking-note:not(:empty)").wait_for()
    shoot(page, f"{name}-intro")

    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:8])
    click_cell(page, *WON_12["moves"][8])
    game = ApiPlayer(token=token_of(page)).daily()
    target = max(game["previews"], key=lambda preview: len(preview["flipped"]))
    page.locator(f'.game .cell[data-row="{target["at"][0]}"][data-col="{target["at"][1]}"]').hover()
    expect(page.locator(".game .cell-will-turn")).to_have_count(len(target["flipped"]))
    shoot(page, f"{name}-game", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    line = page.locator("#preview-line").bounding_box()
    assert line["y"] + line["height"] <= viewport["height"], "the board and its line fit"

    play_through_the_api(page, WON_12["moves"][9:])
    page.locator("#would-rank").wait_for()
    shoot(page, f"{name}-result", full_page=False)
    shoot(page, f"{name}-result-full")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
