"""Every ending of a friend match, live on both tables (two browsers, the real server with
Redis, as test_spite_malice_live.py runs it): an abort, a resignation, a timeout that only the
server's clock sweep applies, a win and a tie played to the end. Each table shows the result
beside its table within 300 ms of the ending's message reaching it, focused, with nothing
stale left ("Your turn", "Resign…", "Skip", "…'s turn so far"). And a fast opponent: one
browser plays a whole game at one action every 300 ms, and at the end of each of its turns
the other screen shows the server's table within 2 s."""

from __future__ import annotations

import hashlib
import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, SCREENSHOTS
from tests.e2e.live import api, device
from tests.e2e.screens import DESKTOP_WIDE, LOOKS, PHONE_TALL, settle, shoot_checked

# The longest a result may take to show once its message reached the page (ms).
SHOWN_WITHIN_MS = 300
# The longest the watching screen may lag the server's table at a turn's end (s).
FOLLOWED_WITHIN_S = 2.0
ACTION_EVERY_S = 0.3





# Notes when an ending's message reaches the page (any socket's) and when a result is shown.
WATCH_ENDINGS = """
(() => {
  const Original = window.WebSocket;
  window.smEnding = { arrived: null, shown: null };
  window.WebSocket = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (message) => {
        if (window.smEnding.arrived === null
            && /"kind": ?"(aborted|resigned|timeout|game_over|match_over)"/.test(message.data)) {
          window.smEnding.arrived = performance.now();
        }
      });
    }
  };
  new MutationObserver(() => {
    if (window.smEnding.shown === null && document.querySelector('.sm-results .sm-result')) {
      window.smEnding.shown = performance.now();
    }
  }).observe(document, { subtree: true, childList: true });
})();
"""


def match_between(server, *, target: int = 1, seed: bytes | None = None):
    """Ada invites, Bea joins (the deal from `seed`, when given): (ada, bea, match id)."""
    ada = api(server.base, "POST", "players", body={"name": "Ada"})
    bea = api(server.base, "POST", "players", body={"name": "Bea"})
    match = api(server.base, "POST", "spite-malice/matches", ada["token"],
                {"opponent": "friend", "turn_seconds": 3600, "target": target})
    api(server.base, "POST", "spite-malice/matches/join", bea["token"],
        {"code": match["invite"]["code"]})
    if seed is not None:  # after the join, whose seeds deal the match (docs/FAIRNESS.md)
        from server.spitemalice.models import Match, MatchGame
        from spitemalice import Game, game_seed

        first = game_seed(seed, 0)
        Match.objects.filter(pk=match["id"]).update(seed=seed.hex(), turn=Game(first).turn,
                                                    actions_played=0)
        MatchGame.objects.filter(match_id=match["id"], number=1).update(seed=first.hex())
    return ada, bea, match["id"]


def tables(browser, server, ada, bea, match_id, problems, *, viewport=None):
    """Both players' tables on the match, live, each noting its ending's times."""
    pages = []
    contexts = []
    for player in (ada, bea):
        context, page = device(browser, server, player["token"], problems)
        if viewport:
            page.set_viewport_size(viewport)
        page.add_init_script(WATCH_ENDINGS)
        page.goto(f"/#/spite-malice/match/{match_id}")
        page.reload()
        page.locator(".sm-screen .sm-table").wait_for()
        expect(page.locator(".sm-screen")).to_have_attribute("data-live", "live")
        contexts.append(context)
        pages.append(page)
    return contexts, pages


def state(server, player, match_id) -> dict:
    return api(server.base, "GET", f"spite-malice/matches/{match_id}", player["token"])


def act(server, player, match_id, action) -> dict:
    now = state(server, player, match_id)
    return api(server.base, "POST", f"spite-malice/matches/{match_id}/actions", player["token"],
               {"action": list(action), "game": now["game"]["number"],
                "actions": now["game"]["actions"]})


def first_turns(server, ada, bea, match_id) -> None:
    """Each seat completes its first turn with a discard, so leaving now loses the match."""
    for _ in range(2):
        for player in (ada, bea):
            now = state(server, player, match_id)
            if now["game"]["turn"] == now["you"]:
                action = next(a for a in now["game"]["legal_actions"] if a[1].startswith("S"))
                act(server, player, match_id, action)
    assert state(server, ada, match_id)["abortable"] is False


def shows_the_end(page, *, name: str) -> int:
    """The page shows the match's end, nothing stale, the result focused; returns the ms from
    the ending's message reaching the page to its result shown."""
    screen = page.locator(".sm-screen")
    expect(screen).to_have_attribute("data-status", "finished" if name != "aborted" else "aborted")
    expect(page.locator(".sm-results .sm-result").first).to_be_visible()
    expect(screen).to_have_attribute("data-animating", "false")
    for stale in (".sm-resign", ".sm-skip", ".sm-hint", ".sm-confirm"):
        expect(page.locator(stale)).to_be_hidden()
    expect(page.locator(".sm-status")).not_to_contain_text("Your turn")
    expect(page.locator(".sm-status")).not_to_contain_text("playing")
    expect(page.locator(".sm-log-title", has_text="so far")).to_have_count(0)
    expect(page.locator(".sm-clock")).to_be_hidden()
    # Focused (so a screen reader reads it), and in view: waited for as every check above is,
    # not read once (a fresh clone's run read it a moment too early, after the result showed).
    page.wait_for_function("() => !!document.activeElement?.closest('.sm-results')")
    expect(page.locator(".sm-results .sm-result").first).to_be_in_viewport()
    ending = page.evaluate("() => window.smEnding")
    assert ending["shown"] is not None, ending
    if ending["arrived"] is None:  # reached by a read of the match, not a message
        return 0
    return round(ending["shown"] - ending["arrived"])


def report(name: str, delays: list[int]) -> None:
    line = f"{name}: result shown {delays} ms after its message reached each table"
    print(line)
    SCREENSHOTS.mkdir(exist_ok=True)
    with (SCREENSHOTS / "sm-endings.txt").open("a") as out:
        out.write(line + "\n")
    assert all(delay <= SHOWN_WITHIN_MS for delay in delays), line


def test_an_abort_is_shown_on_both_tables_at_once(browser, server, shoot):
    problems: list[str] = []
    ada, bea, match_id = match_between(server)
    contexts, (page_a, page_b) = tables(browser, server, ada, bea, match_id, problems)
    try:
        # Before both first turns are played, leaving aborts the match.
        page_a.locator(".sm-resign").click()
        page_a.locator(".sm-resign-yes").click()
        delays = [shows_the_end(page, name="aborted") for page in (page_a, page_b)]
        expect(page_b.locator(".sm-result-aborted")).to_be_visible()
        shoot(page_b, "sm-phone-light-ending-aborted")
        report("aborted", delays)
    finally:
        for context in contexts:
            context.close()
    assert problems == []


def test_a_resignation_is_shown_on_both_tables_at_once(browser, server, shoot):
    problems: list[str] = []
    ada, bea, match_id = match_between(server)
    first_turns(server, ada, bea, match_id)
    contexts, (page_a, page_b) = tables(browser, server, ada, bea, match_id, problems)
    try:
        page_b.locator(".sm-resign").click()
        page_b.locator(".sm-resign-yes").click()
        delays = [shows_the_end(page, name="resigned") for page in (page_a, page_b)]
        expect(page_a.locator(".sm-result-won")).to_be_visible()
        expect(page_b.locator(".sm-result-lost")).to_be_visible()
        shoot(page_a, "sm-phone-light-ending-resigned")
        report("resigned", delays)
    finally:
        for context in contexts:
            context.close()
    assert problems == []


def test_a_timeout_applied_by_the_clock_sweep_alone_is_shown_on_both_tables(browser, server,
                                                                           shoot):
    from django.utils import timezone

    from server.spitemalice.models import Event, Match

    problems: list[str] = []
    ada, bea, match_id = match_between(server)
    first_turns(server, ada, bea, match_id)
    contexts, (page_a, page_b) = tables(browser, server, ada, bea, match_id, problems)
    try:
        # The turn's time runs out; nobody reads or writes the match: only the server's sweep
        # (every 2 s, in its workers) can end it.
        Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
        delays = [shows_the_end(page, name="timeout") for page in (page_a, page_b)]
        assert Event.objects.filter(match_id=match_id, kind="timeout").exists()
        shoot(page_a, "sm-phone-light-ending-timeout")
        shoot(page_b, "sm-phone-light-ending-timeout-lost")
        report("timeout", delays)
    finally:
        for context in contexts:
            context.close()
    assert problems == []


def test_a_cancelled_invitation_is_shown_on_the_waiting_screen_at_once(browser, server, shoot):
    problems: list[str] = []
    ada = api(server.base, "POST", "players", body={"name": "Ada"})
    match = api(server.base, "POST", "spite-malice/matches", ada["token"],
                {"opponent": "friend", "turn_seconds": 3600, "target": 1})
    context, page = device(browser, server, ada["token"], problems)
    try:
        page.add_init_script(WATCH_CANCELLED)
        page.goto(f"/#/spite-malice/match/{match['id']}")
        page.reload()
        expect(page.locator(".sm-waiting")).to_be_visible()
        expect(page.locator(".sm-waiting")).to_have_attribute("data-following", "live")
        # Ada calls it off from another device: the screen that waits says so.
        api(server.base, "POST", f"spite-malice/matches/{match['id']}/cancel", ada["token"])
        expect(page.locator('.sm-waiting[data-status="cancelled"]')).to_be_focused()
        ending = page.evaluate("() => window.smEnding")
        assert ending["arrived"] is not None and ending["shown"] is not None, ending
        shoot(page, "sm-phone-light-ending-cancelled")
        report("cancelled", [round(ending["shown"] - ending["arrived"])])
    finally:
        context.close()
    assert problems == []


# Notes when the `cancelled` message reaches the page and when the waiting screen says so.
WATCH_CANCELLED = WATCH_ENDINGS.replace("aborted|resigned", "cancelled|aborted|resigned").replace(
    "document.querySelector('.sm-results .sm-result')",
    "document.querySelector('.sm-waiting[data-status=\"cancelled\"]')")


# --- Games played to their end ------------------------------------------------------------


# A match seed whose first game, the house bot playing both seats at `easy`, Bea wins in 111
# actions: 61 of them hers, in 19 turns. Of the first 3,000 seeds that Bea wins, the one with the
# fewest of her actions, where the test's time goes (each a tap in the browser and 300 ms);
# `sm-endings-31`, before, had 86 in 20 turns. Bea's win matters: her last actions come one tap
# at a time, so the 300 ms to show the result measure the ending, not a burst of the other
# player's actions shown before it (a deal Ada wins ends with her whole turn arriving at once).
WON_SEED = hashlib.sha256(b"sm-endings-2993").digest()
# A game of the shared vectors that ends tied.
TIED_VECTOR = "v001"


def bot_game(seed: bytes) -> tuple[list[list[str]], int | None]:
    """The actions of the first game of the match dealt from `seed`, the house bot playing
    both seats, and the seat that wins it."""
    from spitemalice import Game, game_seed, player_view, unseen_cards
    from spitemalice.bot import bot_turn

    game = Game(game_seed(seed, 0))
    actions: list[list[str]] = []
    while game.status == "playing":
        seat = game.turn
        view = player_view(game, seat, since=game.actions_played)
        for action in bot_turn(view, unseen_cards(view), "easy", seed):
            game.play(action)
            actions.append(list(action))
            if game.status != "playing" or game.turn != seat:
                break
    assert game.status == "won", game.status
    return actions, game.winner


def deal_vector(match_id: str, name: str) -> list[list[str]]:
    """Makes the match's first game (dealt, nothing played yet) the deal of vector `name`;
    returns its actions. The events of the first deal stay as they were: the tables open
    afterwards and read the match."""
    from server.spitemalice.models import Match, MatchGame
    from spitemalice import Game
    from tests.spitemalice.support import VECTORS, load_vector

    record = load_vector(next(path for path in VECTORS if path.stem == name))
    game = Game(bytes.fromhex(record["seed"]))
    MatchGame.objects.filter(match_id=match_id, number=1).update(seed=record["seed"])
    Match.objects.filter(pk=match_id).update(turn=game.turn, actions_played=0)
    assert record["final"]["status"] == "tied"
    return record["actions"]


def rendered_table(page) -> dict:
    """The table as the page draws it: each place's cards, the counts it prints."""
    return page.evaluate("""() => {
      const cards = (selector) => Array.from(document.querySelectorAll(selector))
        .map((card) => card.dataset.card);
      const screen = document.querySelector('.sm-screen');
      const you = Number(document.querySelector('.sm-near').dataset.seat);
      const top = (place) => cards(`[data-place="${place}"] .card[data-card]`).pop() ?? null;
      return {
        hand: cards(`[data-place="${you}:hand"] .card[data-card]`).sort(),
        centre: [0, 1, 2].map((n) => top(`C${n}`)),
        sides: [0, 1].map((seat) => [0, 1, 2, 3].map((n) => top(`${seat}:S${n}`))),
        stock: Number(document.querySelector('[data-stock]')?.dataset.stock ?? -1),
        event: Number(screen.dataset.event),
      };
    }""")


def server_table(match: dict) -> dict:
    game = match["game"]
    return {
        "hand": sorted(game["hand"]),
        "centre": [stack["top"] for stack in game["centre"]],
        "sides": [[stack[-1] if stack else None for stack in seat["sides"]]
                  for seat in game["seats"]],
        "stock": game["stock"],
        "event": match["event"],
    }


def click_action(page, action) -> None:
    source, target = action
    page.locator(f'.sm-screen [data-source="{source}"]').first.click()
    page.locator(f'.sm-screen [data-target="{target}"]').first.click()


def play_to_the_end(server, ada, bea, match_id, actions, page_a, page_b, *, lags=None):
    """Plays `actions`: Bea's in her browser, one every 300 ms; Ada's through the API. With
    `lags`, Ada's screen is compared with the server's table at the end of each of Bea's
    turns, and how long it took to equal it is noted."""
    players = (ada, bea)
    for index, action in enumerate(actions):
        now = state(server, ada, match_id)
        seat = now["game"]["turn"]
        if seat == 1:
            expect(page_b.locator(".sm-screen")).to_have_attribute("data-turn", "you")
            click_action(page_b, action)
            expect(page_b.locator(".sm-screen")).not_to_have_class("is-busy")
            time.sleep(ACTION_EVERY_S)
            turn_over = (index + 1 == len(actions)
                         or state(server, ada, match_id)["game"]["turn"] != 1)
            if lags is not None and turn_over:
                lags.append(followed(server, ada, match_id, page_a))
        else:
            act(server, players[seat], match_id, action)


def followed(server, ada, match_id, page) -> float:
    """Seconds until Ada's screen draws the server's table (at most FOLLOWED_WITHIN_S)."""
    wanted = server_table(state(server, ada, match_id))
    started = time.monotonic()
    while True:
        if rendered_table(page) == wanted:
            return time.monotonic() - started
        elapsed = time.monotonic() - started
        assert elapsed < FOLLOWED_WITHIN_S, (rendered_table(page), wanted)
        time.sleep(0.05)


@pytest.mark.long
def test_a_fast_opponent_is_followed_and_a_win_shown_on_both_tables(browser, server, shoot):
    problems: list[str] = []
    actions, winner = bot_game(WON_SEED)
    # The timing below measures Bea's ending (see WON_SEED): a change to the bot's play that
    # handed this deal to Ada must fail here, not now and then on the 300 ms.
    assert winner == 1, f"WON_SEED's deal is now won by seat {winner}: choose another"
    ada, bea, match_id = match_between(server, seed=WON_SEED)
    contexts, (page_a, page_b) = tables(browser, server, ada, bea, match_id, problems,
                                        viewport=DESKTOP)
    try:
        lags: list[float] = []
        play_to_the_end(server, ada, bea, match_id, actions, page_a, page_b, lags=lags)
        delays = [shows_the_end(page, name="won") for page in (page_a, page_b)]
        shoot(page_a, "sm-desktop-light-ending-won")
        line = (f"fast opponent, {len(actions)} actions, {len(lags)} turns: the other screen "
                f"equal to the server's within max {max(lags):.2f} s")
        print(line)
        with (SCREENSHOTS / "sm-endings.txt").open("a") as out:
            out.write(line + "\n")
        report("won", delays)
    finally:
        for context in contexts:
            context.close()
    assert problems == []


def test_a_tie_is_shown_on_both_tables(browser, server, shoot):
    problems: list[str] = []
    ada, bea, match_id = match_between(server)
    *before, last = deal_vector(match_id, TIED_VECTOR)
    for action in before:  # played before the tables open; the last one by a browser
        now = state(server, ada, match_id)
        act(server, (ada, bea)[now["game"]["turn"]], match_id, action)
    contexts, (page_a, page_b) = tables(browser, server, ada, bea, match_id, problems)
    try:
        play_to_the_end(server, ada, bea, match_id, [last], page_a, page_b)
        delays = [shows_the_end(page, name="tied") for page in (page_a, page_b)]
        expect(page_a.locator(".sm-result-tied")).to_be_visible()
        shoot(page_b, "sm-phone-light-ending-tied")
        report("tied", delays)
    finally:
        for context in contexts:
            context.close()
    assert problems == []


# --- How an ending looks ------------------------------------------------------------------

LOOKS_AND_BENGALI = [*LOOKS,
                     pytest.param(PHONE_TALL, "dark", "bn-BD", id="phone-dark-bn"),
                     pytest.param(DESKTOP_WIDE, "light", "bn-BD", id="desktop-light-bn")]


@pytest.mark.parametrize(("viewport", "scheme", "locale"), LOOKS_AND_BENGALI)
def test_endings_look_right(open_page, base_url, shoot, viewport, scheme, locale):
    """A match lost on time and one aborted, as the loser's table shows them: in each size,
    scheme and direction, and in Bengali."""
    ada = api(base_url, "POST", "players", body={"name": "Ada"})
    bea = api(base_url, "POST", "players", body={"name": "Bea"})
    ended = {}
    for ending in ("timeout", "aborted"):
        match = api(base_url, "POST", "spite-malice/matches", ada["token"],
                    {"opponent": "friend", "turn_seconds": 3600, "target": 50})
        api(base_url, "POST", "spite-malice/matches/join", bea["token"],
            {"code": match["invite"]["code"]})
        if ending == "timeout":
            first_turns(type("Server", (), {"base": base_url}), ada, bea, match["id"])
            from django.utils import timezone

            from server.spitemalice.models import Match

            Match.objects.filter(pk=match["id"]).update(
                deadline=timezone.now() - timedelta(seconds=1))
        else:
            api(base_url, "POST", f"spite-malice/matches/{match['id']}/resign", bea["token"])
        ended[ending] = match["id"]
    page = open_page(None, viewport=viewport, color_scheme=scheme, locale=locale)
    page.goto("/")
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))",
                  ada["token"])
    for ending, match_id in ended.items():
        page.goto(f"/#/spite-malice/match/{match_id}")
        page.reload()
        settle(page, ".sm-results .sm-result")
        expect(page.locator(".sm-resign")).to_be_hidden()
        expect(page.locator(".sm-clock")).to_be_hidden()
        width = "phone" if viewport == PHONE_TALL else "desktop"
        shoot_checked(shoot, page, f"sm-{width}-{scheme}-{locale[:2]}-ending-{ending}")
