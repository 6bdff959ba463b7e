"""What a placement would turn over, before it is played: the server's previews on the board,
by pointer (hover), by keyboard (focus) and by touch (a first tap shows, a second places)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, WAIT_MS
from tests.e2e.flows import (
    WON_12,
    ApiPlayer,
    click_cell,
    known_daily,
    moves_played,
    play_through_the_api,
    start_daily,
    token_of,
    vector,
    wait_idle,
)

PHONE_390 = {"width": 390, "height": 844}


def game_now(page) -> dict:
    """The page's daily as the server has it, previews included."""
    player = ApiPlayer(token=token_of(page))
    return player.daily()


def cell(page, row: int, col: int):
    return page.locator(f'.game .cell[data-row="{row}"][data-col="{col}"]')


def a_flipping_preview(game: dict) -> dict:
    return max(game["previews"], key=lambda preview: len(preview["flipped"]))


def test_hovering_a_target_shows_what_it_would_turn_and_changes_nothing(open_page, shoot):
    known_daily()
    page = open_page(viewport=DESKTOP)
    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:6])
    game = game_now(page)
    preview = a_flipping_preview(game)
    assert preview["flipped"], "this position has a move that turns something"

    cell(page, *preview["at"]).hover()
    expect(page.locator(".game .cell-previewed")).to_have_count(1)
    expect(page.locator(".game .cell-previewed .ghost")).to_have_count(1)
    turning = page.locator(".game .cell-will-turn")
    expect(turning).to_have_count(len(preview["flipped"]))
    marked = sorted([int(turning.nth(i).get_attribute("data-row")),
                     int(turning.nth(i).get_attribute("data-col"))] for i in range(turning.count()))
    assert marked == sorted(preview["flipped"])
    n = len(preview["flipped"])
    expect(page.locator("#preview-line")).to_contain_text(
        f"Turns {n} card{'s' if n != 1 else ''} over")
    expect(page.locator("#preview-line")).to_contain_text(f"{preview['face_down']} face down after")
    shoot(page, "desktop-light-preview-hover")
    assert moves_played(page) == 6  # looking places nothing

    page.mouse.move(2, 2)  # off the board: the preview goes
    expect(page.locator(".game .cell-will-turn")).to_have_count(0)


def test_keyboard_focus_previews_and_enter_places(open_page):
    known_daily()
    page = open_page()
    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:6])
    game = game_now(page)
    page.locator('.game .cell[tabindex="0"]').focus()
    # Walk the cells by arrow key until one that turns something is focused.
    target = a_flipping_preview(game)
    for _ in range(40):
        row, col = (int(v) for v in page.evaluate(
            "[document.activeElement.dataset.row, document.activeElement.dataset.col]"))
        if [row, col] == target["at"]:
            break
        page.keyboard.press("ArrowDown" if row < target["at"][0] else
                            "ArrowUp" if row > target["at"][0] else
                            "ArrowRight" if col < target["at"][1] else "ArrowLeft")
    expect(page.locator(".game .cell-will-turn")).to_have_count(len(target["flipped"]))
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert "face down after" in label and "over" in label
    page.keyboard.press("Enter")
    wait_idle(page)
    assert moves_played(page) == 7
    after = game_now(page)
    assert after["last_move"]["flipped"] == target["flipped"]
    expect(page.locator(".game .cell-flipped")).to_have_count(len(target["flipped"]))
    expect(page.locator(".game .tag-turned")).to_have_count(len(target["flipped"]))


def test_a_first_tap_previews_and_a_second_places(browser, base_url, shoot):
    known_daily()
    context = browser.new_context(viewport=PHONE_390, has_touch=True, is_mobile=True,
                                  locale="en-US", timezone_id="UTC", base_url=base_url,
                                  reduced_motion="reduce")
    context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/")
        start_daily(page)
        play_through_the_api(page, WON_12["moves"][:6])
        game = game_now(page)
        target = a_flipping_preview(game)

        cell(page, *target["at"]).tap()
        expect(page.locator(".game .cell-previewed")).to_have_count(1)
        expect(page.locator(".game .cell-will-turn")).to_have_count(len(target["flipped"]))
        expect(page.locator("#preview-line")).to_contain_text("Tap again to place")
        assert moves_played(page) == 6  # the first tap only shows
        shoot(page, "phone-light-preview-touch")

        other = next(p for p in game["previews"] if p["at"] != target["at"])
        cell(page, *other["at"]).tap()  # another target: its preview instead, still nothing placed
        expect(page.locator(".game .cell-will-turn")).to_have_count(len(other["flipped"]))
        assert moves_played(page) == 6

        cell(page, *other["at"]).tap()  # the second tap on it places
        page.wait_for_selector('.game[data-moves="7"]')
        wait_idle(page)
        assert game_now(page)["last_move"]["at"] == other["at"]
    finally:
        context.close()
    assert errors == []


def test_the_four_face_down_warning_does_not_move_the_board(open_page, shoot):
    record = vector("v000")  # its eleventh move leaves four piles face down
    assert record["expect"][10]["face_down"] == 4 and record["expect"][9]["face_down"] < 4
    known_daily(record)
    page = open_page(viewport=PHONE_390)
    start_daily(page)
    play_through_the_api(page, record["moves"][:10])
    warning = page.locator(".game .meter-warning")
    expect(warning).to_have_count(0)
    before = page.locator(".game .board-wrap").bounding_box()["y"]
    click_cell(page, *record["moves"][10])
    # The warning is on the line under the board, which is always there.
    expect(page.locator("#preview-line .meter-warning")).to_be_visible()
    expect(warning).to_contain_text("one more face-down pile and the game is lost")
    assert page.locator(".game .board-wrap").bounding_box()["y"] == before
    shoot(page, "phone-light-four-face-down", full_page=False)


def test_the_nav_marks_the_current_screen_and_a_phones_header_is_compact(open_page):
    page = open_page(viewport=PHONE_390)
    page.goto("/#/practice")
    page.locator("main h1").wait_for()
    expect(page.locator('.site-nav a[aria-current="page"]')).to_have_attribute(
        "data-section", "practice")
    page.locator("#new-practice").click()
    page.locator(".game .board").wait_for()
    assert "#/game/" in page.url
    expect(page.locator('.site-nav a[aria-current="page"]')).to_have_attribute(
        "data-section", "practice")
    header = page.locator("#site-header").bounding_box()
    assert header["height"] <= 100, header  # one row of tools, one row of sections
    nav = page.locator(".site-nav ul").bounding_box()
    assert nav["height"] <= 44, nav


def test_a_closed_dailys_game_says_unfinished_first_with_no_meter(open_page):
    from datetime import timedelta

    from server.dailies import calendar
    from server.players.models import Player
    from tests.server.results import daily_result

    first_open, _ = calendar.current_dates()
    closed_day = first_open - timedelta(days=1)  # ended everywhere on Earth
    player = ApiPlayer()
    me = player.client.get("/api/v1/players/me").json()
    game = daily_result(Player.objects.get(pk=me["id"]), closed_day, status="playing")

    page = open_page()
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))",
                  player.token)
    page.goto(f"/#/game/{game.pk}")
    expect(page.locator(".game")).to_have_attribute("data-status", "unfinished")
    expect(page.locator("#result-heading")).to_have_text("This daily has closed")
    # The result comes before the table, and once over there is no stock or meter.
    assert page.evaluate("""() => {
        const result = document.querySelector('.result');
        const board = document.querySelector('.game .board-wrap');
        return Boolean(result.compareDocumentPosition(board) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    assert page.locator(".game .counters, .game .meter").count() == 0
    assert page.locator('.game .cell[data-target="true"]').count() == 0


def test_a_click_or_enter_on_a_place_the_card_cannot_go_says_so(open_page):
    known_daily()
    page = open_page()
    start_daily(page)
    play_through_the_api(page, WON_12["moves"][:6])
    game = game_now(page)
    legal = {tuple(move) for move in game["legal_moves"]}
    blocked = next(cell_ for cell_ in page.locator('.game .cell[data-target="false"]').all())
    row, col = int(blocked.get_attribute("data-row")), int(blocked.get_attribute("data-col"))
    assert (row, col) not in legal
    blocked.click()
    expect(page.locator("#preview-line")).to_have_text(
        "The card can't go there: choose a marked place.")
    expect(page.locator("#announcer")).to_have_text(
        "The card can't go there: choose a marked place.")
    assert moves_played(page) == 6
    page.keyboard.press("Enter")  # the focus is on that cell now
    expect(page.locator("#preview-line")).to_have_text(
        "The card can't go there: choose a marked place.")
    assert moves_played(page) == 6
