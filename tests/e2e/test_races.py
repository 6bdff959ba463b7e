"""Foursquare races in three browsers against the real server (gunicorn with its ASGI workers,
as `make run` serves it, on the PostgreSQL test database and Redis): one creates a race, a
second joins by its link, a third by its code; the host starts it, all three count down and
race the deal to its end, each seeing the others' lanes move as they play, and each reads the
result; "Race again" takes two of them into the next race. Then screenshots of every race
screen, phone and desktop, light and dark, and Persian.

The deal is random: every racer plays whatever target the board offers first (the server's
legal_moves) until the game is over, won or lost; nothing waits on a particular outcome."""

from __future__ import annotations

import json
import os
import re
import signal

import pytest
from playwright.sync_api import expect

from tests.e2e.live import api, report_delays
from tests.e2e.screens import LOOKS, assert_no_sideways_scroll


def token_of(page) -> str:
    return json.loads(page.evaluate("localStorage.getItem('fsd.token')"))


def player_id(server, page) -> str:
    return api(server.base, "GET", "players/me", token_of(page))["id"]


def lane(page, player: str):
    return page.locator(f'.race-lane[data-player="{player}"]')


def playing(page) -> bool:
    return page.locator('.game[data-status="playing"]').count() == 1


# The board's moves once it is idle (and, given the moves seen before, once they have changed),
# or "ended" once the result has replaced it: read in one step in the page, because the move
# that ends the race replaces the board with the result a moment after the board shows the move,
# and a second read of the board could then wait for a board that is gone (a run at load 10 did).
BOARD_OR_RESULT = """before => {
  if (document.querySelector('#race-result-heading')) return 'ended';
  const game = document.querySelector('.game');
  if (!game || game.classList.contains('is-busy') || game.dataset.moves === before) return false;
  return game.dataset.moves;
}"""


def board_or_result(page, before: str | None = None) -> str | None:
    """The board's moves (changed from ``before``), or None once the race has ended."""
    seen = page.wait_for_function(BOARD_OR_RESULT, arg=before).json_value()
    return None if seen == "ended" else seen


def place_a_card(page) -> int | None:
    """Clicks the first target the board offers; returns the moves played after it, or None
    when that move ended the race (the result replaces the board)."""
    # The race may have ended since the caller saw the board playing (the last racer's move,
    # or its clock): the result has then replaced the board.
    before = board_or_result(page)
    if before is None:
        return None
    page.locator('.game .cell[data-target="true"]').first.click()
    after = board_or_result(page, before)
    return None if after is None else int(after)


# Notes on the watcher's page when the mover's lane first shows `placed` cards.
WATCH = """([player, placed]) => {
  window.raceSeenAt = null;
  const seen = () => document.querySelector(
    `.race-lane[data-player="${player}"][data-placed="${placed}"]`);
  const observer = new MutationObserver(() => {
    if (seen()) { window.raceSeenAt = Date.now(); observer.disconnect(); }
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
}"""
NOTE_TAP = """element => element.addEventListener(
  'pointerdown', () => { window.raceTappedAt = Date.now(); }, { once: true })"""


def timed_card(mover, mover_id: str, watchers, delays: list[int]) -> None:
    """One card, timed from the mover's tap to its lane on each watcher's screen (the pages
    read one system clock)."""
    placed = int(mover.locator(".game").get_attribute("data-moves")) + 1
    for watcher in watchers:
        watcher.evaluate(WATCH, [mover_id, placed])
    mover.locator('.game .cell[data-target="true"]').first.evaluate(NOTE_TAP)
    play_and_watch(mover, mover_id, watchers)
    tapped = mover.evaluate("() => window.raceTappedAt")
    delays.extend(watcher.evaluate("() => window.raceSeenAt") - tapped for watcher in watchers)


def play_and_watch(mover, mover_id: str, watchers) -> None:
    """One card on the mover's board, then its lane on every watcher's screen says so (or,
    where that card ended the race, the result lists the mover)."""
    moves = place_a_card(mover)
    if moves is None:
        for watcher in watchers:
            expect(watcher.locator(f'#race-ranking li[data-player="{mover_id}"]')).to_be_visible()
        return
    for watcher in watchers:
        expect(watcher.locator(f'.race-lane[data-player="{mover_id}"][data-placed="{moves}"], '
                               f'#race-ranking li[data-player="{mover_id}"]').first).to_be_visible()
    if not playing(mover) and mover.locator(".race-own").count():
        status = mover.locator(".race-own").get_attribute("data-status")
        word = {"won": "won", "lost": "lost"}.get(status, "out_of_time")
        for watcher in watchers:
            said = (f'.race-lane[data-player="{mover_id}"][data-status="{word}"], '
                    f'#race-ranking li[data-player="{mover_id}"]')
            expect(watcher.locator(said).first).to_be_visible()


def join_with_name(page, name: str) -> None:
    page.locator("input[name=player_name]").fill(name)
    page.locator("#race-join").click()
    page.locator("#race-room-heading").wait_for()


@pytest.mark.long
def test_three_browsers_race_a_deal_live(devices, server, shoot):
    # Ada, a new visitor, creates a race for four on ten minutes, and is asked her name. (Ten,
    # not five: the three games are played to their ends, and on a machine loaded sixteen
    # processes deep to two cores one run lost a racer's board mid-race, as the race's end by
    # its clock replaces the board with the result.)
    ada = devices.open("/#/practice")
    ada.locator("#practice-races").click()
    ada.locator("#race-new").click()
    ada.locator("input[name=player_name]").fill("Ada")
    ada.locator('#race-players label:has(input[value="4"])').click()
    ada.locator('#race-minutes label:has(input[value="10"])').click()
    shoot(ada, "race-phone-light-new")
    ada.locator("#race-create").click()
    ada.locator("#race-room-heading").wait_for()
    expect(ada.locator("#race-racers li")).to_have_count(1)
    expect(ada.locator("#race-start")).to_be_disabled()  # one racer cannot race
    link = ada.locator("#race-link").input_value()
    code = ada.locator("#race-code").text_content()
    assert re.fullmatch(r"[0-9A-Z]{8}", code), code
    assert link == f"{server.base}/races/join/{code}", link

    # Bea opens the link; Cy types the code on the races page.
    bea = devices.open(link)
    join_with_name(bea, "Bea")
    cy = devices.open("/#/races")
    cy.locator("#race-code-form input[name=code]").fill(code.lower())
    cy.locator("#race-code-join").click()
    expect(cy.locator("#race-join-code")).to_have_text(code)
    join_with_name(cy, "Cy")

    # Each joining shows on the others' screens as it happens; the host may start now.
    pages = [ada, bea, cy]
    for page in pages:
        expect(page.locator("#race-racers li")).to_have_count(3)
        expect(page.locator("#race-racers-heading")).to_have_text("Racers: 3 of 4")
    expect(bea.locator("#race-room-status")).to_have_text("Waiting for Ada to start the race.")
    expect(bea.locator("#race-start")).to_have_count(0)
    expect(ada.locator("#race-start")).to_be_enabled()
    shoot(ada, "race-phone-light-room")
    ids = {name: player_id(server, page)
           for name, page in zip(("ada", "bea", "cy"), pages, strict=True)}

    # The start: a countdown on every screen, then each racer's own board.
    ada.locator("#race-start").click()
    for page in pages:
        expect(page.locator("#race-countdown")).to_be_visible()
    shoot(bea, "race-phone-light-countdown")
    for page in pages:
        page.locator(".race-game .board").wait_for()
        # Kept current by the race's socket, not by reading the race.
        expect(page.locator(".race-screen")).to_have_attribute("data-live", "live")
        expect(page.locator(".race-lane")).to_have_count(2)
        clock = re.compile(r"^\u2066(10|9|8):\d\d\u2069$")  # isolated, left to right
        expect(page.locator("#race-clock time")).to_have_text(clock)

    # Two rounds each, every card seen on the other two screens' lanes, each timed from the
    # tap to the lane (printed, and kept beside the screenshots).
    order = [("ada", ada), ("bea", bea), ("cy", cy)]

    def others(name):
        return [page for other, page in order if other != name]

    delays: list[int] = []
    for _ in range(2):
        for name, page in order:
            timed_card(page, ids[name], others(name), delays)
    report_delays(delays, "a racer's card on the others' lanes", "race-live-delivery.txt")
    shoot(ada, "race-phone-light-race")
    # Still playing: no other racer's card anywhere on a racer's screen, counts only.
    for page in pages:
        expect(page.locator(".race-lane .card")).to_have_count(0)
        expect(page.locator(".race-lane details")).to_have_count(0)

    # Ada plays on to her game's end; then she may watch the others' boards, they may not hers.
    while playing(ada):
        play_and_watch(ada, ids["ada"], [bea, cy])
    expect(ada.locator("#race-own")).to_be_visible()
    for name in ("bea", "cy"):
        expect(lane(ada, ids[name]).locator("details.race-watch")).to_have_count(1)
    lane(ada, ids["bea"]).locator("summary").click()
    expect(lane(ada, ids["bea"]).locator(".board .card").first).to_be_visible()
    shoot(ada, "race-phone-light-watching")
    for page in (bea, cy):
        expect(page.locator(".race-lane .card")).to_have_count(0)

    # Bea and Cy race to their ends; Ada's open board follows Bea's moves.
    while playing(bea) or playing(cy):
        for name, page in (("bea", bea), ("cy", cy)):
            if playing(page):
                play_and_watch(page, ids[name], others(name))

    # The result, on every screen: three places, the bot's line, each racer's replay.
    for page in pages:
        page.locator("#race-result-heading").wait_for()
        expect(page.locator("#race-ranking li")).to_have_count(3)
        expect(page.locator("#race-ranking li[data-place='1']")).to_have_count(1)
        expect(page.locator("#race-bot")).to_be_visible()
        expect(page.locator("#race-your-place")).to_have_text(
            re.compile(r"^Your place: [123] of 3\.$"))
    places = sorted(int(cy.locator(f'#race-ranking li[data-player="{ids[n]}"]')
                        .get_attribute("data-place")) for n in ids)
    assert places == [1, 2, 3]
    shoot(cy, "race-phone-light-result")
    bea.locator(f'#race-ranking li[data-player="{ids["ada"]}"] .race-replay-button').click()
    replay = bea.locator("#race-replay .replay")
    expect(replay).to_be_visible()
    expect(replay.locator("#replay-heading")).to_have_text("Ada's game")
    replay.locator('[data-control="last"]').click()
    expect(replay.locator(".board .card").first).to_be_visible()

    # Race again: Ada asks first and is the next race's host; Bea joins it in one tap.
    ada.locator("#race-again").click()
    ada.locator("#race-room-heading").wait_for()
    next_race = ada.url.rsplit("/", 1)[1]
    assert next_race not in bea.url
    expect(bea.locator("#race-again")).to_have_text("Join the next race")
    bea.locator("#race-again").click()
    bea.locator("#race-room-heading").wait_for()
    assert bea.url.endswith(f"/races/{next_race}")
    for page in (ada, bea):
        expect(page.locator("#race-racers li")).to_have_count(2)
    expect(ada.locator("#race-code")).not_to_have_text(code)


def test_a_racer_whose_name_is_taken_joins_with_the_free_one_offered(devices, server):
    host = api(server.base, "POST", "players", body={"name": "Ada"})
    api(server.base, "POST", "players", body={"name": "Bo"})  # someone has the name already
    race = api(server.base, "POST", "races", host["token"], {"players": 4, "minutes": 5})
    guest = devices.open(f"/#/races/join/{race['code']}")
    guest.locator("input[name=player_name]").fill("bo")
    guest.locator("#race-join").click()
    # One line says why, with the free name to take; no second line under the field.
    offer = guest.locator("#race-join-problem [data-code=name_taken]")
    expect(offer).to_have_text(re.compile(r"^Another player already has the name bo\."))
    expect(guest.locator("#race-join-form .field-problem, #race-join-form .form-problems > *")
           ).to_have_count(0)
    expect(guest.locator("#race-join-suggestion")).to_have_text("Join as bo 2")
    guest.locator("#race-join-suggestion").click()  # one tap: the name, then the join
    guest.locator("#race-room-heading").wait_for()
    assert api(server.base, "GET", "players/me", token_of(guest))["name"] == "bo 2"
    expect(guest.locator("#race-racers li")).to_have_count(2)


def test_a_league_mate_invited_finds_the_race_in_their_list_and_joins(devices, server):
    ada, bea = (api(server.base, "POST", "players", body={"name": n}) for n in ("Ada", "Bea"))
    league = api(server.base, "POST", "leagues", ada["token"], {"name": "Tuesday cards"})
    api(server.base, "POST", "leagues/join", bea["token"], {"code": league["code"]})

    page = devices.open("/#/races/new", token=ada["token"])
    mate = page.locator("#race-mates label", has_text="Bea")
    mate.click()
    page.locator("#race-create").click()
    page.locator("#race-room-heading").wait_for()
    expect(page.locator("#race-invited")).to_have_text("Invited, not joined yet: Bea")

    # Bea finds it in her races, opens it and joins from the waiting room.
    other = devices.open("/#/races", token=bea["token"])
    other.locator("#race-open .race-item a").click()
    other.locator("#race-join-invited").click()
    expect(other.locator("#race-racers li")).to_have_count(2)
    expect(other.locator("#race-room-status")).to_have_text("Waiting for Ada to start the race.")
    expect(page.locator("#race-racers li")).to_have_count(2)
    expect(page.locator("#race-invited")).to_have_text("")


def test_a_dropped_socket_says_so_reconnects_and_catches_up(fresh_devices, fresh_server, shoot):
    # Its own server: it kills the workers.
    devices, server = fresh_devices, fresh_server
    ada, bea = (api(server.base, "POST", "players", body={"name": n}) for n in ("Ada", "Bea"))
    race = api(server.base, "POST", "races", ada["token"], {"players": 3, "minutes": 3})
    page = devices.open(f"/#/races/{race['id']}", token=ada["token"])
    screen = page.locator(".race-screen")
    expect(screen).to_have_attribute("data-live", "live")

    # The server's workers are stopped; each restarts, and the page says it is reconnecting.
    for pid in server.worker_pids():
        os.kill(pid, signal.SIGKILL)
    expect(page.locator(".race-connection")).to_have_text("Connection lost: reconnecting…")
    shoot(page, "race-phone-light-reconnecting")
    expect(screen).to_have_attribute("data-live", "live", timeout=30_000)
    expect(page.locator(".race-connection")).to_have_text("")

    # Live again: Bea joining shows at once.
    api(server.base, "POST", "races/join", bea["token"], {"code": race["code"]})
    expect(page.locator("#race-racers li")).to_have_count(2)
    expect(page.locator("#race-start")).to_be_enabled()

    # Calling it off asks first; then the race is gone for everyone.
    page.locator("#race-leave").click()
    expect(page.locator("#race-leave")).to_have_text("Yes, call it off")
    page.locator("#race-leave").click()
    page.locator("#races-heading").wait_for()
    assert api(server.base, "GET", f"races/{race['id']}", bea["token"])["status"] == "cancelled"


def test_a_race_whose_clock_runs_out_ends_on_every_screen(devices, server, shoot):
    """The clock turns red in its last seconds, says "Time's up", and the server's result
    ranks those out of time by cards placed. The race is shortened in the database to a few
    seconds, as its clock would run down over minutes."""
    from datetime import timedelta

    from server.foursquare.models import Game, Race

    ada, bea = (api(server.base, "POST", "players", body={"name": n}) for n in ("Ada", "Bea"))
    race = api(server.base, "POST", "races", ada["token"], {"players": 2, "minutes": 3})
    race = api(server.base, "POST", "races/join", bea["token"], {"code": race["code"]})
    assert race["status"] == "countdown"  # full: it started itself
    started = Race.objects.get(pk=race["id"])
    ends = started.starts_at + timedelta(seconds=25)
    Race.objects.filter(pk=started.pk).update(ends_at=ends)
    Game.objects.filter(race=started).update(closes_at=ends)

    page = devices.open(f"/#/races/{race['id']}", token=ada["token"])
    page.locator(".race-game .board").wait_for()
    place_a_card(page)
    bea_game = api(server.base, "GET", f"races/{race['id']}", bea["token"])["game"]
    play_to_the_end(server, bea["token"], bea_game, moves=2)
    expect(lane(page, api(server.base, "GET", "players/me", bea["token"])["id"])).to_have_attribute(
        "data-placed", "2")
    expect(page.locator("#race-clock.race-clock-low")).to_be_visible()
    shoot(page, "race-phone-light-last-seconds", full_page=False)

    # Time's up: the server closes the race, and the result ranks Bea (2 cards) before Ada (1).
    page.locator("#race-result-heading").wait_for()
    rows = page.locator("#race-ranking li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Bea")
    expect(rows.nth(0)).to_contain_text("out of time · 2 cards placed")
    expect(rows.nth(1)).to_contain_text("out of time · 1 card placed")
    expect(page.locator("#race-your-place")).to_have_text("Your place: 2 of 2.")
    shoot(page, "race-phone-light-out-of-time")


# --- Screenshots ---------------------------------------------------------------------------------


def play_to_the_end(server, token: str, game_id: str, *, moves: int | None = None) -> dict:
    """Plays the server's first legal move until the game is over (or `moves` of them)."""
    game = api(server.base, "GET", f"games/{game_id}", token)
    played = 0
    while game["status"] == "playing" and (moves is None or played < moves):
        row, col = game["legal_moves"][0]
        game = api(server.base, "POST", f"games/{game_id}/moves", token,
                   {"row": row, "col": col, "move": game["moves_played"]})
        played += 1
    return game


def settled(page, ready: str) -> None:
    page.locator(ready).first.wait_for()
    expect(page.locator("main[aria-busy]")).to_have_count(0)


@pytest.mark.parametrize(("viewport", "scheme", "locale"), LOOKS)
def test_race_screens(devices, server, shoot, viewport, scheme, locale):
    persian = locale.startswith("fa")
    device = "phone" if viewport["width"] < 700 else "desktop"
    name = f"{device}-{scheme}" + ("-fa" if persian else "")
    people = [api(server.base, "POST", "players", body={"name": n})
              for n in (("آدا", "بئا", "کی") if persian else ("Ada", "Bea", "Cy"))]
    host, *others = people
    race = api(server.base, "POST", "races", host["token"], {"players": 4, "minutes": 5})
    for other in others:
        api(server.base, "POST", "races/join", other["token"], {"code": race["code"]})

    # The link as a newcomer opens it: a name to give, Join.
    newcomer = devices.open(f"/#/races/join/{race['code']}", viewport=viewport, locale=locale,
                            color_scheme=scheme)
    settled(newcomer, "#race-join")
    expect(newcomer.locator("input[name=player_name]")).to_be_visible()
    shoot(newcomer, f"race-{name}-join")
    assert_no_sideways_scroll(newcomer)

    page = devices.open("/#/races/new", viewport=viewport, locale=locale, color_scheme=scheme,
                        token=host["token"])
    settled(page, "#race-create")
    shoot(page, f"race-{name}-new")
    assert_no_sideways_scroll(page)
    page.goto(f"/#/races/{race['id']}")
    settled(page, "#race-start")
    expect(page.locator("#race-racers li")).to_have_count(3)
    shoot(page, f"race-{name}-room")
    assert_no_sideways_scroll(page)
    if persian:
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("#race-start")).to_have_text("شروع مسابقه")

    page.locator("#race-start").click()
    expect(page.locator("#race-countdown")).to_be_visible()
    shoot(page, f"race-{name}-countdown")
    page.locator(".race-game .board").wait_for()
    started = api(server.base, "GET", f"races/{race['id']}", host["token"])
    games = {other["token"]: api(server.base, "GET", f"races/{race['id']}", other["token"])["game"]
             for other in others}
    assert started["game"]
    # Nine cards and four (fewer where the deal ends a game sooner): what the lanes then say.
    placed = [play_to_the_end(server, other["token"], games[other["token"]],
                              moves=moves)["moves_played"]
              for other, moves in zip(others, (9, 4), strict=True)]
    for _ in range(6):
        if playing(page):
            place_a_card(page)
    for lane_element, n in zip(page.locator(".race-lane").all(), placed, strict=True):
        expect(lane_element).to_have_attribute("data-placed", str(n))
    shoot(page, f"race-{name}-race", full_page=False)
    assert_no_sideways_scroll(page)

    while playing(page):
        place_a_card(page)
    expect(page.locator("#race-own")).to_be_visible()
    # A racer whose game is over: the lane says how, and still shows the whole name.
    play_to_the_end(server, others[0]["token"], games[others[0]["token"]])
    done = page.locator(".race-lane").filter(has=page.locator(".race-status")).first
    expect(done.locator(".race-status")).to_be_visible()
    assert done.locator(".race-name").evaluate("name => name.scrollWidth <= name.clientWidth")
    page.locator(".race-lane summary").first.click()
    expect(page.locator(".race-lane .board .card").first).to_be_visible()
    shoot(page, f"race-{name}-watching")
    assert_no_sideways_scroll(page)

    for other in others:
        play_to_the_end(server, other["token"], games[other["token"]])
    settled(page, "#race-result-heading")
    expect(page.locator("#race-ranking li")).to_have_count(3)
    # Its deal checked by the page from the seeds revealed with the ranking (test_fairness.py).
    expect(page.locator("#fair-line")).to_have_attribute("data-state", "ok")
    shoot(page, f"race-{name}-result")
    assert_no_sideways_scroll(page)
    page.locator(".race-rank-you .race-replay-button").click()
    expect(page.locator("#race-replay .replay")).to_be_visible()
    page.locator('#race-replay [data-control="next"]').click()
    shoot(page, f"race-{name}-replay")
    assert_no_sideways_scroll(page)

    # The list of your races: this one, finished.
    page.goto("/#/races")
    settled(page, f'#race-done [data-race="{race["id"]}"]')
    shoot(page, f"race-{name}-list")
    assert_no_sideways_scroll(page)


@pytest.mark.parametrize("locale", ["en-US", "fa-IR"])
def test_eight_racers_leave_the_board_its_room_on_a_phone(devices, server, shoot, locale):
    """Seven opponents' lanes go compact (bare numbers under a key), two across, and the board
    below still has cards a finger can hit on a 360x740 phone."""
    people = [api(server.base, "POST", "players", body={"name": f"Racer {n}"}) for n in range(8)]
    host, *others = people
    race = api(server.base, "POST", "races", host["token"], {"players": 8, "minutes": 3})
    page = devices.open(f"/#/races/{race['id']}", token=host["token"], locale=locale)
    page.locator("#race-start").wait_for()
    for other in others[:-1]:
        api(server.base, "POST", "races/join", other["token"], {"code": race["code"]})
    expect(page.locator("#race-racers li")).to_have_count(7)
    page.locator("#race-start").click()
    page.locator(".race-game .board").wait_for()
    for other in others[:3]:
        game = api(server.base, "GET", f"races/{race['id']}", other["token"])["game"]
        play_to_the_end(server, other["token"], game, moves=3)
    place_a_card(page)
    expect(page.locator(".race-lanes-compact .race-lane")).to_have_count(6)
    expect(page.locator(".race-lanes-key")).to_be_visible()
    cell = page.locator(".race-game .board .cell-pile").first.bounding_box()
    assert cell["width"] >= 40, cell
    board = page.locator(".race-game .board").bounding_box()
    assert board["y"] + board["height"] <= 740, board  # the whole board in the first screen
    shoot(page, "race-phone-light-eight" + ("-fa" if locale.startswith("fa") else ""),
          full_page=False)
    assert_no_sideways_scroll(page)
