"""The Spite & Malice table in the browser: a single game against the bot played to its end by
clicking, a turn played by keyboard alone, and the table mirrored in Persian. The deal is one
the test chooses (a match created through the service with a seed of its own), never a
shortcut the app ships."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.db import transaction
from playwright.sync_api import expect

from server.players.models import Player
from server.spitemalice import services
from server.spitemalice.engine import rebuild
from server.spitemalice.models import Match, MatchGame
from spitemalice import player_view, unseen_cards
from spitemalice.bot import bot_turn
from tests.e2e.conftest import DESKTOP
from tests.e2e.flows import ApiPlayer, token_of
from tests.e2e.quiet import wait_for_quiet

# A deal the normal bot's play, in seat 0, wins against the easy bot in about sixty actions.
QUICK_DEAL = b"table-36"


def signed_in(page, name: str | None = "Ada") -> Player:
    """The page's player (a guest made through the API), signed in on the page."""
    player = ApiPlayer(name=name)
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    me = player.client.get("/api/v1/players/me").json()
    return Player.objects.get(pk=me["id"])


def bot_match(player: Player, *, seed: bytes = QUICK_DEAL, level: str = "easy",
              target: int = 1) -> Match:
    with transaction.atomic():
        return services._match_create(player=player, mode=Match.Mode.BOT, level=level,
                                      target=target, seed=seed)


def long_match(page, *, name: str | None = "Ada") -> Match:
    """A match to 50 against the easy bot, on a deal that gives turns enough to try things on,
    for the page's player (signed in as ``name``)."""
    return bot_match(signed_in(page, name), seed=b"table-20", target=50)


def open_match(page, match: Match) -> None:
    page.goto(f"/#/spite-malice/match/{match.pk}")
    page.locator(".sm-screen .sm-table").wait_for()


def settled(page) -> None:
    """Waits until the events are shown and the table is the server's again."""
    page.wait_for_selector('.sm-screen[data-animating="false"]:not(.is-busy)')


def skipped_to_settled(page) -> None:
    """As a player who taps "skip" whenever the table is still showing events: until the
    table is the server's again, with nothing left to show."""
    page.wait_for_function("""() => {
        const skip = document.querySelector(".sm-skip");
        if (skip && !skip.hidden) skip.click();
        const screen = document.querySelector(".sm-screen");
        return screen?.dataset.animating === "false" && !screen.classList.contains("is-busy");
    }""", polling=50)


def steps_until_finished(page, limit: int = 300, *, watched: int = 0) -> Iterator[int]:
    """Each step of a game played on ``page``, numbered, with the table settled before it:
    the first ``watched`` steps at the events' own pace, the rest skipped as a player taps
    "skip". It stops once the game is finished and fails if ``limit`` steps did not finish it."""
    root = page.locator(".sm-screen")
    for step in range(limit):
        settled(page) if step < watched else skipped_to_settled(page)
        if root.get_attribute("data-status") == "finished":
            return
        yield step
    raise AssertionError(f"the game did not end in {limit} steps")


def click_action(page, source: str, target: str) -> None:
    """An action played as a player plays it: the source tapped, then the target."""
    page.locator(f'[data-source="{source}"]').first.click()
    page.locator(f'[data-target="{target}"]').click()


def open_settled(page, match: Match) -> None:
    open_match(page, match)
    settled(page)


def discard_elsewhere(api: ApiPlayer, match: Match) -> list[str]:
    """A turn ended through the API, as another device of the player would: the first discard
    onto a side stack the game offers. Returns that action."""
    state = api.client.get(f"/api/v1/spite-malice/matches/{match.pk}").json()
    action = next(a for a in state["game"]["legal_actions"] if a[1].startswith("S"))
    api.post(f"spite-malice/matches/{match.pk}/actions",
             {"action": action, "game": state["game"]["number"],
              "actions": state["game"]["actions"]})
    return action


def next_action(match: Match) -> list[str]:
    """A good action for seat 0 now, as the normal bot would choose it (the test's player)."""
    match.refresh_from_db()
    game = MatchGame.objects.get(match=match, number=match.game_number)
    engine = rebuild(game)
    view = player_view(engine, 0, since=len(engine.actions))
    return list(bot_turn(view, unseen_cards(view), "normal", b"test")[0])


@pytest.mark.long
def test_a_single_game_against_the_bot_is_played_to_its_end_by_clicking(open_page, shoot):
    page = open_page("/")
    player = signed_in(page)
    match = bot_match(player)
    open_match(page, match)
    root = page.locator(".sm-screen")
    expect(root).to_have_attribute("data-mode", "bot")
    # Both pay-off piles, four side stacks each, three centre stacks, the stock and your hand.
    expect(page.locator('[data-place="0:P"], [data-place="1:P"]')).to_have_count(2)
    expect(page.locator('.sm-side')).to_have_count(8)
    expect(page.locator('.sm-centre')).to_have_count(3)
    expect(page.locator('[data-place="stock"]')).to_have_count(1)
    shoot(page, "sm-phone-light-table")

    # Skipping the events' pacing (the bot's cards shown one by one) after the first turns.
    for actions in steps_until_finished(page, watched=10):
        expect(root).to_have_attribute("data-turn", "you")
        source, target = next_action(match)
        # Only the sources with a legal action are offered; the target appears once chosen.
        assert page.locator(f'[data-source="{source}"]').count() >= 1
        assert page.locator("[data-target]").count() == 0
        page.locator(f'[data-source="{source}"]').first.click()
        if actions == 0:
            expect(page.locator("#sm-prompt")).not_to_be_empty()
            shoot(page, "sm-phone-light-chosen")
        page.locator(f'[data-target="{target}"]').click()

    match.refresh_from_db()
    assert match.status == "finished" and match.winner == 0
    result = page.locator('.sm-result[data-game="1"]')
    expect(result).to_be_visible()
    points = MatchGame.objects.get(match=match, number=1).points
    expect(result).to_have_attribute("data-points", str(points))
    expect(result.locator("h2")).to_have_text(re.compile("You won"))
    expect(result).to_contain_text(f"By {points} points")
    shoot(page, "sm-phone-light-result")

    # The whole deal laid open: both pay-off piles as dealt, twenty cards each.
    result.locator('[data-action="reveal"]').click()
    expect(page.locator(".sm-reveal-seat")).to_have_count(2)
    expect(page.locator('.sm-reveal-seat[data-seat="1"] .sm-chip').first).to_be_visible()
    first_pile = page.locator(".sm-reveal-seat").first.locator(".sm-chips").first
    assert first_pile.locator(".sm-chip").count() == 20
    shoot(page, "sm-phone-light-reveal")

    # The replay steps action by action from the deal.
    result.locator('[data-action="replay"]').click()
    caption = page.locator(".sm-replay-caption")
    expect(caption).to_have_text("The deal, before the first card.")
    page.locator('.sm-replay [data-step="next"]').click()
    expect(caption).to_contain_text("Action 1 of")
    expect(caption).to_contain_text("→")  # from where to where, in words
    game = MatchGame.objects.get(match=match, number=1)
    total = len(game.actions)
    # Turn by turn: to the end of the first turn (its discard), then of the next.
    seats = [result.player for result in rebuild(game).history]
    ends = [i + 1 for i in range(total) if i + 1 == total or seats[i + 1] != seats[i]]
    page.locator('.sm-replay [data-step="turn-on"]').click()
    expect(caption).to_contain_text(f"Action {ends[0]} of {total}")
    page.locator('.sm-replay [data-step="turn-on"]').click()
    expect(caption).to_contain_text(f"Action {ends[1]} of {total}")
    # The slider goes anywhere; the game plays by itself to its end.
    page.locator(".sm-replay-slider").fill(str(total // 2))
    expect(caption).to_contain_text(f"Action {total // 2} of {total}")
    page.locator('.sm-replay [data-step="last"]').click()
    expect(caption).to_contain_text(f"Action {total} of {total}")
    page.locator('.sm-replay [data-step="previous"]').click()
    page.locator('.sm-replay [data-step="auto"]').click()
    expect(caption).to_contain_text(f"Action {total} of {total}")
    expect(page.locator('.sm-replay [data-step="auto"]')).to_have_attribute("data-playing", "false")
    shoot(page, "sm-phone-light-replay")

    # A reload shows the same finished match, from the server.
    page.reload()
    page.locator(".sm-screen .sm-table").wait_for()
    expect(page.locator('.sm-screen[data-status="finished"]')).to_have_count(1)
    expect(page.locator('.sm-result[data-game="1"]')).to_be_visible()


def match_with_a_pair_in_hand(player: Player) -> tuple[Match, str]:
    """The first of the deals pair-0, pair-1, … that puts two copies of one card in your hand at
    your first turn (two decks hold every card twice), and that card."""
    for n in range(200):
        match = bot_match(player, seed=f"pair-{n}".encode(), target=50)
        game = MatchGame.objects.get(match=match, number=match.game_number)
        engine = rebuild(game)
        if engine.turn != 0:
            continue
        hand = list(player_view(engine, 0, since=len(engine.actions))["hand"])
        pairs = sorted({card for card in hand if hand.count(card) > 1})
        if pairs:
            return match, pairs[0]
    raise AssertionError("no deal of the 200 gives a pair")


def test_both_copies_of_a_card_held_twice_can_be_chosen(open_page, shoot):
    page = open_page("/")
    match, card = match_with_a_pair_in_hand(signed_in(page))
    open_settled(page, match)
    copies = page.locator(f'.sm-hand [data-source="{card}"]')
    expect(copies).to_have_count(2)
    shoot(page, "sm-phone-light-pair-in-hand")
    copies.nth(1).click()  # the second copy, not only the first, is a card you can play
    expect(page.locator("[data-target]").first).to_be_visible()
    expect(page.locator(f'.sm-hand [data-card="{card}"][aria-pressed="true"]')).to_have_count(1)


def test_a_turn_is_played_by_keyboard_alone(open_page, shoot):
    page = open_page("/", viewport=DESKTOP)
    match = long_match(page)
    open_settled(page, match)
    root = page.locator(".sm-screen")
    expect(root).to_have_attribute("data-turn", "you")
    before = int(root.get_attribute("data-event"))

    # Tab reaches the first offered source; Enter chooses it and focus moves to a target.
    page.locator("#sm-heading").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('[data-source]')"):
            break
    else:
        raise AssertionError("no source reached by Tab")
    page.keyboard.press("Enter")
    expect(page.locator("[data-target]").first).to_be_visible()
    assert page.evaluate("document.activeElement.matches('[data-target]')")
    shoot(page, "sm-desktop-light-keyboard")
    # Arrow keys walk the targets (and the chosen card); find a discard, which ends the turn.
    discard = None
    for _ in range(12):
        if page.evaluate("document.activeElement.matches('[data-target].sm-discard')"):
            discard = page.evaluate("document.activeElement.dataset.target")
            break
        page.keyboard.press("ArrowRight")
    if discard is None:
        # The chosen card only plays on the centre: Escape, and choose a hand card instead.
        page.keyboard.press("Escape")
        page.locator(".sm-hand-card[data-source]").last.focus()
        page.keyboard.press("Enter")
        for _ in range(12):
            if page.evaluate("document.activeElement.matches('[data-target].sm-discard')"):
                break
            page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.matches('[data-target]')")
    page.keyboard.press("Enter")
    settled(page)
    expect(root).to_have_attribute("data-turn", "you")
    assert int(root.get_attribute("data-event")) > before
    # Focus stayed on the table through the bot's turn: the next turn goes on by keyboard.
    assert page.evaluate("document.activeElement.closest('.sm-table') !== null")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('[data-source]')")
    match.refresh_from_db()
    assert match.actions_played >= 1 or match.game_number > 1 or match.turn == 0


def test_the_table_is_mirrored_in_persian(open_page, shoot):
    page = open_page("/", locale="fa-IR")
    match = bot_match(signed_in(page), target=50)
    open_settled(page, match)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "fa")
    heading = page.locator("#sm-heading")
    expect(heading).not_to_contain_text("Spite")
    # The pay-off pile sits at the start of the row, which in Persian is the right.
    near = page.locator(".sm-near .sm-piles")
    payoff = box_of(near.locator(".sm-payoff"))
    side = box_of(near.locator(".sm-side").first)
    assert payoff["x"] > side["x"]
    expect(page.locator("body")).not_to_contain_text(re.compile(r"\bsm\.[a-z_.]+"))
    shoot(page, "sm-phone-light-fa-table")
    page.emulate_media(color_scheme="dark")
    shoot(page, "sm-phone-dark-fa-table")
    assert token_of(page)


def test_after_a_daily_its_rank_chart_and_spoiler_free_share_text(open_page, shoot):
    from tests.server.spitemalice.support import greedy

    page = open_page("/")
    player = ApiPlayer(name="Ada", trusted=True)
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    match = player.post("spite-malice/matches", {"mode": "daily"})
    for _ in range(2000):
        if match["status"] == "finished":
            break
        game = match["game"]
        match = player.post(f"spite-malice/matches/{match['id']}/actions",
                            {"action": greedy(game), "game": game["number"],
                             "actions": game["actions"]})
    assert match["status"] == "finished"
    number = player.client.get("/api/v1/spite-malice/daily").json()["number"]

    page.goto(f"/#/spite-malice/match/{match['id']}")
    result = page.locator('.sm-result[data-game="1"]')
    expect(result).to_be_visible()
    share = page.locator("#sm-share-text")
    game = match["game"]
    if game["status"] == "won" and game["winner"] == 0:
        expect(share).to_have_text(f"Spite & Malice #{number} · won by {game['points']}")
        expect(page.locator("#sm-rank")).to_have_text(re.compile(r"Rank 1 of 1 winners"))
        expect(page.locator(".chart .bar-mine")).to_have_attribute("data-score",
                                                                    str(game["points"]))
    elif game["status"] == "tied":
        expect(share).to_have_text(f"Spite & Malice #{number} · tied")
    else:
        expect(share).to_have_text(f"Spite & Malice #{number} · lost by {game['points']}")
        expect(page.locator("#sm-rank")).to_contain_text("Only wins get a rank")
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", share.inner_text())
    expect(page.locator(".sm-hint")).to_have_count(0)  # never a hint in a daily
    shoot(page, "sm-phone-light-daily-result")


def test_a_new_accounts_daily_says_whose_counts_and_the_board_shows_it_played(open_page):
    """A game the global board does not hold (a new account's) is never told "0 players
    today, 0 won" right after it was played; the day board then offers it again to see,
    not to play."""
    from tests.server.spitemalice.support import greedy

    page = open_page("/")
    player = ApiPlayer(name="Ada")  # a new account: its daily is not on the global board
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    match = player.post("spite-malice/matches", {"mode": "daily"})
    for _ in range(2000):
        if match["status"] == "finished":
            break
        game = match["game"]
        match = player.post(f"spite-malice/matches/{match['id']}/actions",
                            {"action": greedy(game), "game": game["number"],
                             "actions": game["actions"]})
    page.goto(f"/#/spite-malice/match/{match['id']}")
    expect(page.locator("#sm-daily-counts")).to_have_text(
        "Nobody on the global board has played today's daily yet.")

    page.goto("/#/boards/spite-malice")
    expect(page.locator("#sm-board-daily")).to_have_text("See your daily")


# Which of the table's words some card, mark or badge lies over: each area's name, every count
# under a pile, and the ranks in sight on the side stacks' spreads.
COVERED_WORDS = """() => {
    const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const table = document.querySelector(".sm-screen .sm-table");
    const covers = [...table.querySelectorAll(".card, .sm-under, .sm-place")];
    const words = [...table.querySelectorAll(".sm-area-label, .sm-count, .sm-next")];
    const over = (word, cover) => !cover.contains(word) && !word.contains(cover)
        && meets(word.getBoundingClientRect(), cover.getBoundingClientRect());
    const covered = words.filter((word) => covers.some((cover) => over(word, cover)))
        .map((word) => word.textContent);
    // A badge over a covered card's rank in a spread.
    const ranks = [...table.querySelectorAll(
        ".sm-side-spread > .card:not(:last-child) .card-rank")];
    for (const badge of table.querySelectorAll(".sm-under")) {
        for (const rank of ranks) {
            if (meets(badge.getBoundingClientRect(), rank.getBoundingClientRect())) {
                covered.push(`${badge.textContent} over ${rank.dataset.text}`);
            }
        }
    }
    return covered;
}"""


def test_the_phone_table_keeps_its_words_in_sight(open_page, shoot):
    """On a phone: the title whole, no card or badge over an area's name, a count or a rank,
    the opponent's piles named as yours are, the hand inside the table, and the key to the
    hand's marks."""
    page = open_page("/", viewport={"width": 390, "height": 844})
    match = long_match(page, name=None)
    for _ in range(12):  # side stacks long enough for a "+n"
        discard_elsewhere(ApiPlayer(token=token_of(page)), match)
    open_settled(page, match)
    heading = page.locator("#sm-heading")
    assert heading.evaluate("h => h.scrollWidth <= h.clientWidth"), "the title is cut"
    expect(page.locator(".sm-under").first).to_be_visible()
    assert page.evaluate(COVERED_WORDS) == []
    far = page.locator(".sm-far")
    expect(far.locator(".sm-payoff .sm-count")).to_contain_text("pay-off")
    expect(far.locator(".sm-sides > .sm-area-label")).to_have_text("side stacks")
    expect(far.locator(".sm-sides > .sm-area-label")).to_be_visible()
    table = box_of(page.locator(".sm-screen .sm-table"))
    cards = page.locator(".sm-near .sm-hand-card")
    assert cards.count() > 0
    for index in range(cards.count()):  # each found again if the table is drawn anew meanwhile
        box = box_of(cards.nth(index))
        assert table["x"] <= box["x"] and box["x"] + box["width"] <= table["x"] + table["width"]
    legend = page.locator("#sm-hand-legend")
    expect(legend).to_be_visible()
    assert set(legend.locator(".sm-key").all_inner_texts()) <= {"fits a centre stack",
                                                                "discard only"}
    # A card chosen lifts; still nothing covers a word.
    page.locator(".sm-hand-card[data-source]").first.click()
    assert page.evaluate(COVERED_WORDS) == []
    shoot(page, "sm-phone390-light-words")


def test_screenshots_of_the_table_in_every_look(open_page, shoot):
    """Phone and desktop, light and dark, and each script, mid-game, for a person to look at."""
    for name, options in [
        ("sm-desktop-light-table", {"viewport": DESKTOP}),
        ("sm-desktop-dark-table", {"viewport": DESKTOP, "color_scheme": "dark"}),
        ("sm-phone-dark-table", {"color_scheme": "dark"}),
        ("sm-phone390-light-table", {"viewport": {"width": 390, "height": 844}}),
        ("sm-phone390-dark-table", {"viewport": {"width": 390, "height": 844},
                                    "color_scheme": "dark"}),
        ("sm-phone390-light-fa-table", {"viewport": {"width": 390, "height": 844},
                                        "locale": "fa-IR"}),
        ("sm-desktop-light-fa-table", {"viewport": DESKTOP, "locale": "fa-IR"}),
        ("sm-phone-light-ml-table", {"locale": "ml-IN"}),
        ("sm-phone-light-ka-table", {"locale": "ka-GE"}),
        ("sm-phone-light-bn-table", {"locale": "bn-BD"}),
    ]:
        page = open_page("/", **options)
        match = long_match(page, name=None)
        for _ in range(6):  # a few turns in, so the side stacks hold cards
            discard_elsewhere(ApiPlayer(token=token_of(page)), match)
        open_settled(page, match)
        page.locator("[data-source]").first.click()
        expect(page.locator("body")).not_to_contain_text(re.compile(r"\bsm\.[a-z_.]+"))
        shoot(page, name)


def box_of(locator) -> dict:
    """Where the element is now: the table may be drawn anew (the feed read when it opens, a
    presence change) between finding an element and measuring it, so it is found again."""
    for _ in range(50):
        locator.wait_for()
        box = locator.bounding_box()
        if box is not None:
            return box
    raise AssertionError(f"{locator} has no box")


def test_a_card_is_dragged_and_dropped_onto_a_side_stack(open_page):
    # Tall enough that the hand and the side stacks are in sight together.
    page = open_page("/", viewport={"width": 1280, "height": 1200})
    match = long_match(page)
    open_settled(page, match)
    root = page.locator(".sm-screen")
    before = int(root.get_attribute("data-event"))
    # One tap asks the computer (a bot match): its source is chosen, its target marked.
    page.locator(".sm-hint").click()
    expect(page.locator(".sm-suggestion")).to_contain_text("The computer would move")
    expect(page.locator("[data-target].sm-hinted")).to_have_count(1)
    page.locator(".sm-cancel").click()
    expect(page.locator("[data-target]")).to_have_count(0)
    card = page.locator(".sm-hand-card[data-source]").last
    code = card.get_attribute("data-source")
    start = box_of(card)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] - 40, steps=4)
    # Once the drag begins, the places the card may go are marked: the discards among them.
    target = page.locator('[data-target="S3"].sm-discard')
    expect(target).to_be_visible()
    box = box_of(target)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=6)
    expect(target).to_have_class(re.compile("sm-drop-over"))
    page.mouse.up()
    # The bot's reply is shown card by card, skippable, and each step is said aloud.
    expect(root).to_have_attribute("data-animating", "true")
    expect(page.locator(".sm-skip")).to_be_visible()
    expect(page.locator("#announcer")).to_contain_text("The computer")
    settled(page)
    assert int(root.get_attribute("data-event")) > before
    expect(page.locator(f'.sm-near [data-place="0:S3"] .card[data-card="{code}"]')).to_be_visible()


def test_an_action_played_elsewhere_is_refused_with_the_servers_message_and_the_table_redrawn(
        open_page):
    page = open_page("/", viewport={"width": 1280, "height": 1200})
    match = long_match(page)
    # The page must not catch up from the feed before it acts (it polls it, this server holding
    # no socket): the feed is cut off until the refusal is shown.
    page.route("**/events?*", lambda route: route.abort())
    open_settled(page, match)
    root = page.locator(".sm-screen")
    # Another device of the same player ends the turn first (the page shows the old table).
    other = ApiPlayer(token=token_of(page))
    discard = discard_elsewhere(other, match)
    page.locator(".sm-hand-card[data-source]").first.click()
    page.locator("[data-target].sm-discard").first.click()
    message = page.locator(".sm-messages .problem")
    expect(message).to_contain_text("This match moved on elsewhere")
    expect(message.locator(".problem-detail")).to_contain_text("actions")  # the server's words
    page.unroute("**/events?*")
    settled(page)
    now = other.client.get(f"/api/v1/spite-malice/matches/{match.pk}").json()
    expect(root).to_have_attribute("data-event", str(now["event"]))
    expect(page.locator(f'.sm-near [data-place="0:{discard[1]}"] .card[data-card="{discard[0]}"]')
           ).to_be_visible()


def test_a_resigned_match_says_how_it_ended(open_page, shoot):
    page = open_page("/")
    match = long_match(page)
    resigned = ApiPlayer(token=token_of(page)).client.post(
        f"/api/v1/spite-malice/matches/{match.pk}/resign")
    assert resigned.status_code == 200, resigned.content
    open_match(page, match)
    ended = page.locator(".sm-match-result")
    expect(ended).to_have_attribute("data-reason", "resigned")
    expect(ended.locator("h2")).to_have_text(re.compile(r"The computer won the match"))
    expect(ended).to_contain_text("You resigned.")
    expect(page.locator('.sm-result[data-game="1"]')).to_contain_text("You resigned.")
    expect(page.locator("[data-source]")).to_have_count(0)
    shoot(page, "sm-phone-light-match-over")


def test_a_foursquare_visitor_downloads_nothing_of_the_table(open_page):
    page = open_page(None)
    fetched: list[str] = []
    page.on("requestfinished", lambda request: fetched.append(request.url))
    page.goto("/")
    page.locator("#start-daily").wait_for()
    wait_for_quiet(page)
    table = ("spitemalice/match.js", "spitemalice/table-view.js", "spitemalice/live.js",
             "spitemalice/table.css", "spitemalice/locales/en.js", "spitemalice/model/")
    assert not [url for url in fetched if any(part in url for part in table)], fetched
