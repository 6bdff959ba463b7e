"""Following a Spite & Malice game to its end on a phone (390×844, the size players hold): the
hand and the status stay in view at every point of a game against the bot and of a friend
match, the opponent's last turn is told in words and marked on the table until you act, the
result comes where the player is looking, and one tap starts the next match. Resigning asks
first; a card dropped where it cannot go lets go. The deals are the tests' own (a seed chosen
here), never a coincidence of a random one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from server.spitemalice.models import Match
from tests.e2e.flows import ApiPlayer, token_of
from tests.e2e.screens import DESKTOP_WIDE as DESKTOP_1366
from tests.e2e.screens import PHONE_TALL as PHONE_390
from tests.e2e.test_spite_malice_table import (
    bot_match,
    box_of,
    click_action,
    long_match,
    next_action,
    open_match,
    open_settled,
    settled,
    signed_in,
    steps_until_finished,
)

# A friend match's deal (its match seed) that seat 0, playing as the normal bot would, wins
# in about 64 actions against an opponent who plays the first centre play it is offered, else
# its first discard (21 turns).
FRIEND_DEAL = b"friend-48".ljust(32, b"\0")

GEOMETRY = """() => {
  const box = (selector) => {
    const element = document.querySelector(selector);
    if (!element) return null;
    const { top, bottom } = element.getBoundingClientRect();
    return [Math.round(top), Math.round(bottom)];
  };
  return { height: innerHeight, hand: box('.sm-screen .sm-near .sm-hand'),
           status: box('.sm-status'), table: box('.sm-screen .sm-table') };
}"""


# The top card of each place given.
TOP_CARDS = "places => places.map(p => [...p.querySelectorAll('.card')].at(-1).dataset.card)"


def assert_in_view(page, when: str) -> None:
    """The hand and the status line are inside the window, without scrolling."""
    seen = page.evaluate(GEOMETRY)
    assert seen["status"][0] >= 0 and seen["status"][1] <= seen["height"], (when, seen)
    assert seen["hand"][0] >= 0 and seen["hand"][1] <= seen["height"], (when, seen)


def last_turn_of(api: ApiPlayer, match_id, seat: int) -> list[str]:
    """The cards `seat` moved in its latest turn, in order, as the feed has them."""
    feed = api.client.get(f"/api/v1/spite-malice/matches/{match_id}/events?after=0")
    events = feed.json()["events"]
    cards: list[str] = []
    current = None
    for event in events:
        if event["kind"] == "dealt":
            cards, current = [], None
        if event["kind"] not in ("draw", "play", "discard"):
            continue
        if event["seat"] != current:
            current = event["seat"]
            if current == seat:
                cards = []
        if current == seat and event["kind"] in ("play", "discard"):
            cards.append(event["card"])
    return cards


def logged_cards(page) -> list[str]:
    return page.locator(".sm-log-move").evaluate_all("items => items.map(i => i.dataset.card)")


def assert_result_in_view(page) -> None:
    result = page.locator(".sm-results .sm-result").first
    expect(result).to_be_in_viewport()
    assert page.evaluate("() => Boolean(document.activeElement?.closest('.sm-results'))")


@pytest.mark.long
def test_a_whole_game_against_the_bot_on_a_phone(open_page, shoot):
    page = open_page("/", viewport=PHONE_390)
    player = signed_in(page)
    api = ApiPlayer(token=token_of(page))
    match = bot_match(player)
    open_match(page, match)
    root = page.locator(".sm-screen")
    checked_log = 0
    for actions in steps_until_finished(page, watched=6):  # then the result comes into view
        assert_in_view(page, f"after {actions} actions")
        expect(root).to_have_attribute("data-turn", "you")
        bot_cards = last_turn_of(api, match.pk, 1)
        if bot_cards:
            # The computer's last turn, card by card, in words and faces (one tap opens it
            # on a phone; its moves are read here without opening it).
            assert logged_cards(page) == bot_cards
            expect(page.locator(".sm-log-summary")).to_contain_text("The computer's last turn")
            # Each marked place holds one of those cards on top.
            for code in page.locator(".sm-moved").evaluate_all(TOP_CARDS):
                assert code in bot_cards
            checked_log += 1
            if checked_log == 1:
                expect(page.locator(".sm-log-move").first).to_contain_text("→")
                shoot(page, "sm-phone390-light-last-turn")
        source, target = next_action(match)
        click_action(page, source, target)
        if target.startswith("C"):
            # A play leaves the turn yours: the opponent's marks are gone once you have acted.
            settled(page)
            if root.get_attribute("data-turn") == "you":
                expect(page.locator(".sm-moved")).to_have_count(0)
    assert checked_log > 3

    # The result where the player looks, focused; then one tap to the next game like it.
    match.refresh_from_db()
    assert match.status == "finished" and match.winner == 0
    assert_result_in_view(page)
    expect(page.locator(".sm-result h2").first).to_have_text(re.compile("You won"))
    shoot(page, "sm-phone390-light-won", full_page=False)
    again = page.locator('.sm-again [data-action="again"]')
    expect(again).to_have_text("Play again (easy)")
    again.click()
    page.wait_for_url(re.compile(rf"#/spite-malice/match/(?!{match.pk})"))
    page.locator(".sm-screen .sm-table").wait_for()
    new_id = page.url.rsplit("/", 1)[-1]
    fresh = Match.objects.get(pk=new_id)
    assert (fresh.mode, fresh.level, fresh.target, fresh.player0_id) == (
        "bot", "easy", 1, player.pk)
    assert fresh.status == "playing"


def opponent_plays_its_turn(opponent: ApiPlayer, match_id) -> None:
    """The friend's whole turn through the API: the first centre play offered, else the first
    discard, until the turn passes."""
    path = f"/api/v1/spite-malice/matches/{match_id}"
    for _ in range(60):
        state = opponent.client.get(path).json()
        if state["status"] != "playing" or state["game"]["turn"] != state["you"]:
            return
        legal = state["game"]["legal_actions"]
        action = next((a for a in legal if a[1].startswith("C")), legal[0])
        opponent.post(f"spite-malice/matches/{match_id}/actions",
                      {"action": action, "game": state["game"]["number"],
                       "actions": state["game"]["actions"]})
    raise AssertionError("the friend's turn did not end")


def friend_match(page, *, turn_seconds: int, seed: bytes | None = None):
    """A single-game friend match of Ada (the page's player, seat 0) and Bea, who has joined
    it through the API: (Ada's ApiPlayer, Bea's, the match). ``seed``: the deal, the test's."""
    host = ApiPlayer(name="Ada")
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", host.token)
    invitation = host.post("spite-malice/matches",
                           {"opponent": "friend", "turn_seconds": turn_seconds, "target": 1})
    friend = ApiPlayer(name="Bea")
    friend.post("spite-malice/matches/join", {"code": invitation["invite"]["code"]})
    if seed is not None:  # after the join, whose seeds deal the match (docs/FAIRNESS.md)
        from server.spitemalice.models import MatchGame
        from spitemalice import Game, game_seed

        first = game_seed(seed, 0)
        Match.objects.filter(pk=invitation["id"]).update(seed=seed.hex(), turn=Game(first).turn,
                                                         actions_played=0)
        MatchGame.objects.filter(match_id=invitation["id"], number=1).update(seed=first.hex())
    return host, friend, Match.objects.get(pk=invitation["id"])


@pytest.mark.long
def test_a_whole_friend_match_on_a_phone(open_page, shoot):
    page = open_page("/", viewport=PHONE_390)
    host, friend, match = friend_match(page, turn_seconds=3600, seed=FRIEND_DEAL)
    open_match(page, match)
    root = page.locator(".sm-screen")
    told = 0
    for actions in steps_until_finished(page):
        if root.get_attribute("data-turn") == "them":
            opponent_plays_its_turn(friend, match.pk)
            expect(root).to_have_attribute("data-turn", re.compile("you|none"))
            continue
        assert_in_view(page, f"after {actions} actions")
        cards = last_turn_of(host, match.pk, 1)
        if cards:
            expect(page.locator(".sm-log-summary")).to_contain_text("Bea's last turn")
            assert logged_cards(page) == cards
            told += 1
        click_action(page, *next_action(match))
    assert told > 3
    assert_result_in_view(page)
    # Friends get a rematch in the same place as the bot's "Play again".
    expect(page.locator('.sm-again [data-action="rematch"]')).to_be_visible()
    shoot(page, "sm-phone390-light-friend-won", full_page=False)


def test_a_long_match_fits_the_window_on_a_phone_and_a_desktop(open_page, shoot):
    """Side stacks grow without the table growing: after many discards on both sides, the hand
    and the status are still in view, and a long stack opens whole."""
    for name, viewport in [("phone390", PHONE_390), ("desktop", DESKTOP_1366)]:
        page = open_page("/", viewport=viewport)
        match = long_match(page, name=None)
        api = ApiPlayer(token=token_of(page))
        heights = set()
        for turn in range(24):
            state = api.client.get(f"/api/v1/spite-malice/matches/{match.pk}").json()
            # Discards only, onto the stack that is longest already, so stacks grow long.
            sides = state["game"]["seats"][state["you"]]["sides"]
            discards = [a for a in state["game"]["legal_actions"] if a[1].startswith("S")]
            action = max(discards, key=lambda a: len(sides[int(a[1][1])]))
            api.post(f"spite-malice/matches/{match.pk}/actions",
                     {"action": action, "game": state["game"]["number"],
                      "actions": state["game"]["actions"]})
            if turn % 8 == 7:
                open_settled(page, match)
                assert_in_view(page, f"{name} after {turn + 1} discards")
                top, bottom = page.evaluate(GEOMETRY)["table"]
                heights.add(bottom - top)
        assert len(heights) == 1, heights  # the table keeps its height as stacks grow
        under = page.locator(".sm-near .sm-under").first
        expect(under).to_be_visible()
        count = int(re.sub(r"\D", "", under.inner_text()))
        under.click()
        opened = page.locator(".sm-stack-open .card")
        shown = page.locator(".sm-near .sm-side.sm-open .sm-side-spread .card").count()
        expect(opened).to_have_count(count + shown)
        shoot(page, f"sm-{name}-light-long-stack", full_page=False)
        page.keyboard.press("Escape")
        expect(page.locator(".sm-stack-open")).to_have_count(0)


def test_resigning_asks_first_and_the_result_comes_into_view(open_page, shoot):
    page = open_page("/", viewport=PHONE_390)
    match = long_match(page)
    open_settled(page, match)
    resign = page.locator(".sm-resign")
    expect(resign).to_have_text("Resign…")
    resign.click()
    confirm = page.locator(".sm-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Your opponent wins it")
    shoot(page, "sm-phone390-light-resign-confirm", full_page=False)
    # Keeping on changes nothing.
    page.locator(".sm-resign-no").click()
    expect(confirm).to_be_hidden()
    expect(resign).to_be_focused()  # back where the question was asked
    match.refresh_from_db()
    assert match.status == "playing"
    resign.click()
    page.locator(".sm-resign-yes").click()
    ended = page.locator(".sm-match-result")
    expect(ended).to_have_attribute("data-reason", "resigned")
    expect(ended).to_contain_text("You resigned.")
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", 1)
    assert_result_in_view(page)
    expect(page.locator(".sm-resign")).to_be_hidden()
    expect(page.locator("[data-source]")).to_have_count(0)


def test_a_card_dropped_where_it_cannot_go_lets_go(open_page):
    page = open_page("/", viewport={"width": 1280, "height": 1000})
    match = long_match(page)
    open_settled(page, match)
    cards = page.locator(".sm-hand-card[data-source]")
    box = box_of(cards.first)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 20, box["y"] - 60, steps=4)
    expect(page.locator("[data-target]").first).to_be_visible()
    # Dropped on the opponent's pay-off pile: no target there.
    far = box_of(page.locator('[data-place="1:P"]'))
    page.mouse.move(far["x"] + 5, far["y"] + 5, steps=6)
    page.mouse.up()
    expect(page.locator("[data-target]")).to_have_count(0)
    expect(page.locator('[aria-pressed="true"]')).to_have_count(0)
    # It says why it went back.
    expect(page.locator(".sm-suggestion")).to_contain_text(
        "cannot go there: play a card on a centre stack")
    # A card that fits no centre stack, dropped on one: the rank that stack takes next.
    odd = page.locator(".sm-hand-card.sm-discard-only[data-source]").first
    box = box_of(odd)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 20, box["y"] - 60, steps=4)
    centre = box_of(page.locator('[data-place="C0"]'))
    page.mouse.move(centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2, steps=6)
    page.mouse.up()
    expect(page.locator(".sm-suggestion")).to_have_text(
        re.compile(r"does not fit centre stack 1 \(next: A\)\.$"))
    # Any card can be picked up next, and dragged where it may go.
    box = box_of(cards.nth(1))
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 20, box["y"] - 60, steps=4)
    target = page.locator("[data-target].sm-discard").first
    expect(target).to_be_visible()
    tbox = box_of(target)
    page.mouse.move(tbox["x"] + tbox["width"] / 2, tbox["y"] + tbox["height"] / 2, steps=6)
    page.mouse.up()
    expect(page.locator(".sm-screen")).to_have_attribute("data-animating", "true")
    settled(page)


def test_a_match_lost_on_time_says_how_it_ended_and_that_nothing_was_scored(open_page, shoot):
    from django.db import transaction

    from server.spitemalice import services
    from server.spitemalice.models import MatchGame
    from tests.e2e.flows import first_turns_played

    page = open_page("/", viewport=PHONE_390)
    host, friend, match = friend_match(page, turn_seconds=60)
    state = first_turns_played(str(match.pk), host, friend)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        services.match_time_out(match=match, game=MatchGame.objects.get(
            match=match, number=match.game_number))
    sleeper = "You" if state["game"]["turn"] == state["you"] else "Bea"
    open_match(page, match)
    result = page.locator('.sm-result[data-game="1"]')
    expect(result).to_have_attribute("data-status", "timeout")
    expect(result).to_contain_text("no points were scored")
    expect(result).to_contain_text(
        "Your time ran out." if sleeper == "You" else "Bea's time ran out.")
    expect(page.locator(".sm-results")).not_to_contain_text("by 0 points")
    expect(page.locator(".sm-results")).not_to_contain_text("0 to 0")
    expect(result.locator("h2")).to_have_text(
        re.compile("You won" if sleeper == "Bea" else "Bea won"))
    expect(page.locator(".sm-match-result")).to_have_count(0)  # the game's result says it all
    shoot(page, "sm-phone390-light-timeout", full_page=False)


def test_the_review_shows_where_a_pay_off_card_was_left_unplayed(open_page, shoot):
    from tests.server.spitemalice.support import match_offering_a_payoff_play

    page = open_page("/", viewport=PHONE_390)
    player = signed_in(page)
    match = match_offering_a_payoff_play(player)
    api = ApiPlayer(token=token_of(page))
    path = f"spite-malice/matches/{match.pk}"
    state = api.client.get(f"/api/v1/{path}").json()
    # The turn is ended at once, the pay-off card left where it could have played.
    discard = next(a for a in state["game"]["legal_actions"] if a[1].startswith("S"))
    api.post(f"{path}/actions",
             {"action": discard, "game": 1, "actions": state["game"]["actions"]})
    assert api.client.post(f"/api/v1/{path}/resign").status_code == 200
    record = api.client.get(f"/api/v1/{path}/games/1/record").json()
    misses = [at for at, step in enumerate(record["steps"])
              if step["seat"] == 0 and step["payoff_missed"]]
    first = state["game"]["actions"]  # the bot may have opened the game
    assert misses and misses[0] == first
    open_match(page, match)
    page.locator('.sm-result [data-action="replay"]').click()
    listed = page.locator(".sm-review-miss")
    expect(listed).to_have_count(len(misses))
    expect(listed.first).to_contain_text(f"Action {first + 1}: you discarded")
    page.locator('.sm-replay [data-step="last"]').click()
    listed.first.click()
    # The replay stands just before that discard.
    expect(page.locator(".sm-replay-caption")).to_have_text(
        "The deal, before the first card." if first == 0 else re.compile(f"^Action {first} of"))
    shoot(page, "sm-phone390-light-review")
