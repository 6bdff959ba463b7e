"""Spite & Malice's lobby in the browser: the home page's part, a match against the computer,
an invitation to a friend from its link to both players at the table, cancelling, the join
screen's refusals, whether a match will be rated (said before it is accepted), matches aborted
before the first turns, the ratings board, the rules, and Persian right to left."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import expect

from tests.e2e.flows import ApiPlayer, as_trusted_player, first_turns_played, token_of

MATCH_ROUTE = re.compile(r"#/spite-malice/match/[0-9a-f-]{36}$")


def signed_in(page, name: str) -> ApiPlayer:
    """The page's player, named, acting through the API beside the browser too."""
    page.locator(".site-nav").wait_for()
    player = ApiPlayer(name=name)
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    page.reload()
    return player


def test_the_home_page_offers_both_games(open_page):
    page = open_page()
    expect(page.locator("#start-daily")).to_be_visible()
    home = page.locator("#sm-home")
    expect(home.locator("h2")).to_have_text("Spite & Malice")
    expect(home.locator(".sm-daily[data-status=new] #sm-daily")).to_have_attribute(
        "href", "#/spite-malice/daily"
    )
    expect(home.locator("#sm-play-bot")).to_have_attribute("href", "#/spite-malice/play")
    expect(home.locator("#sm-play-friend")).to_have_attribute("href", "#/spite-malice/friend")


def test_play_the_computer_starts_a_match_and_lands_on_its_table(open_page):
    page = open_page("/#/spite-malice/play")
    page.get_by_label("Hard").check()
    page.get_by_label("Single game").check()
    page.locator("#sm-bot-start").click()
    expect(page).to_have_url(MATCH_ROUTE)
    match_id = page.url.rsplit("/", 1)[1]

    me = ApiPlayer(token=token_of(page))
    match = me.client.get(f"/api/v1/spite-malice/matches/{match_id}").json()
    assert (match["mode"], match["level"], match["target"]) == ("bot", "hard", 1)

    # Home and the lobby list it as waiting for you.
    page.goto("/#/")
    expect(page.locator(f'#sm-home li[data-match="{match_id}"]')).to_contain_text(
        "Your turn against the computer"
    )
    page.goto("/#/spite-malice")
    item = page.locator(f'#sm-active li[data-match="{match_id}"]')
    expect(item).to_have_attribute("data-state", "your_turn")
    expect(item).to_contain_text("against the computer (hard)")
    expect(item.locator("[data-action=open]")).to_have_attribute(
        "href", f"#/spite-malice/match/{match_id}"
    )

    # Left aside, it can be abandoned from the list, after a question.
    item.locator("[data-action=abandon]").click()
    expect(item.locator(".sm-confirm")).to_contain_text("the computer wins it")
    item.locator("[data-confirm=keep]").click()
    assert me.client.get(f"/api/v1/spite-malice/matches/{match_id}").json()["status"] == "playing"
    item.locator("[data-action=abandon]").click()
    item.locator("[data-confirm=yes]").click()
    finished = page.locator(f'#sm-finished li[data-match="{match_id}"]')
    expect(finished).to_be_visible()
    expect(page.locator(f'#sm-active li[data-match="{match_id}"]')).to_have_count(0)
    ended = me.client.get(f"/api/v1/spite-malice/matches/{match_id}").json()
    assert (ended["status"], ended["reason"], ended["winner"]) == ("finished", "resigned", 1)


def join(page, name: str) -> None:
    """Joins from the join screen, giving a name first when the screen asks for one."""
    page.locator("#sm-join").wait_for()
    if page.locator("#sm-join-form input[name=player_name]").count():
        page.get_by_label("Your name").fill(name)
    page.locator("#sm-join").click()


def invitation(page, *, clock: str = "1 hour", length: str | None = None) -> str:
    """Makes an invitation on the page; returns its link."""
    page.goto("/#/spite-malice/friend")
    page.get_by_label(clock, exact=True).check()
    if length:
        page.get_by_label(length, exact=True).check()
    page.locator("#sm-invite-create").click()
    expect(page.locator("#sm-invite-link")).not_to_have_value("")
    return page.locator("#sm-invite-link").input_value()


def test_a_friend_joins_by_the_link_and_both_land_on_the_match(open_page, base_url):
    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada, clock="1 hour", length="25 points")
    assert re.fullmatch(rf"{re.escape(base_url)}/spite-malice/join/[0-9A-Z]{{8}}", link), link
    expect(ada.locator(".sm-settings")).to_have_text("1 hour a turn · 25 points")
    expect(ada.locator("#sm-invite-status")).to_have_text("Waiting for your friend to join…")
    ada.locator("#sm-invite-copy").click()
    expect(ada.locator("#toast")).to_have_text("Link copied.")
    assert ada.evaluate("navigator.clipboard.readText()") == link

    bo = open_page(None)
    bo.goto(link)  # the server's link opens the app's join screen
    expect(bo).to_have_url(re.compile(r"/#/spite-malice/join/[0-9A-Z]{8}$"))
    join(bo, "Bo")
    expect(bo).to_have_url(MATCH_ROUTE)
    # The inviter's screen notices and goes to the same table.
    expect(ada).to_have_url(bo.url)

    # A third player is too late: the screen says so before any name or Join (the preview
    # answers 409 match_full, as a join would).
    cy = open_page(None)
    cy.goto(link)
    expect(cy.locator("#sm-join-problem")).to_contain_text("Someone else has already joined")
    expect(cy.locator("#sm-join")).to_have_count(0)


def test_a_slow_clock_suggests_a_single_game(open_page):
    page = open_page("/#/spite-malice/friend")
    expect(page.get_by_label("1 day", exact=True)).to_be_checked()  # the server's default
    expect(page.get_by_label("Single game")).to_be_checked()
    expect(page.locator("#sm-slow-hint")).to_contain_text("a single game suits a slow clock best")
    page.get_by_label("1 minute").check()
    expect(page.locator("#sm-slow-hint")).to_have_text("")
    expect(page.get_by_label("50 points")).to_be_checked()
    page.get_by_label("25 points").check()  # the player's own choice stays
    page.get_by_label("3 days").check()
    expect(page.get_by_label("25 points")).to_be_checked()


def test_a_code_typed_in_the_lobby_opens_its_invitation(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    code = invitation(ada).rsplit("/", 1)[1]
    bo = open_page("/#/spite-malice")
    signed_in(bo, "Bo")
    bo.get_by_label("Code or link").fill(f" {code[:4].lower()}-{code[4:]} ")
    bo.locator("#sm-code-join").click()
    expect(bo).to_have_url(re.compile(rf"#/spite-malice/join/{code}$"))
    expect(bo.locator("#sm-join-code")).to_have_text(code)
    bo.locator("#sm-join").click()
    expect(bo).to_have_url(MATCH_ROUTE)


def test_a_length_picked_before_the_clock_is_kept(open_page):
    """The length shown is picked again (a click on the checked option, no change) and then a
    faster clock: the invitation keeps the length the player chose, not the clock's default."""
    page = open_page()
    signed_in(page, "Ada")
    page.goto("/#/spite-malice/friend")
    expect(page.get_by_label("Single game")).to_be_checked()
    page.get_by_label("Single game").click()
    page.get_by_label("1 hour", exact=True).check()
    expect(page.get_by_label("Single game")).to_be_checked()
    page.locator("#sm-invite-create").click()
    expect(page.locator(".sm-settings")).to_have_text("1 hour a turn · Single game")


def test_cancelling_an_invitation_and_the_join_screens_refusals(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada)
    code = link.rsplit("/", 1)[1]

    # Your own link says so.
    ada.goto(f"/#/spite-malice/join/{code}")
    expect(ada.locator('[data-code="own_match"]')).to_contain_text("This is your own invitation")

    ada.goto("/#/spite-malice")
    waiting = ada.locator("#sm-active li[data-state=waiting]")
    expect(waiting).to_contain_text("Waiting for a friend to join")
    # Cancelling asks first; "Keep it" keeps it.
    waiting.locator("[data-action=cancel]").click()
    expect(waiting.locator(".sm-confirm")).to_contain_text(
        "Cancel this invitation? Its link will stop working."
    )
    waiting.locator("[data-confirm=keep]").click()
    expect(waiting.locator(".sm-confirm")).to_have_count(0)
    me_matches = ApiPlayer(token=token_of(ada)).client.get("/api/v1/spite-malice/matches")
    assert [m["status"] for m in me_matches.json()["results"]] == ["waiting"]
    waiting.locator("[data-action=cancel]").click()
    waiting.locator("[data-confirm=yes]").click()
    expect(ada.locator("#toast")).to_have_text("Invitation cancelled.")
    expect(ada.locator("#sm-active li[data-state=waiting]")).to_have_count(0)

    # Refused up front, saying it was cancelled: no name asked for, no Join offered.
    bo = open_page(f"/#/spite-malice/join/{code}")
    expect(bo.locator("#sm-join-problem")).to_have_text(
        "Your friend cancelled this invitation. Ask them for a new link."
    )
    expect(bo.locator("#sm-join")).to_have_count(0)

    bo.goto("/#/spite-malice/join/ZZZZZZZZ")
    expect(bo.locator("#sm-join-problem")).to_contain_text("does not exist or has lapsed")
    expect(bo.locator("#sm-join-code")).to_have_text("ZZZZZZZZ")


def test_the_rules_page_and_the_tutorial(open_page):
    page = open_page("/#/rules")
    page.locator("#rules-spite-malice").click()
    expect(page.locator("#sm-rules-heading")).to_have_text("How to play Spite & Malice")
    expect(page.locator(".sm-rules")).to_contain_text("Kings are wild")
    page.locator("#sm-rules-tutorial").click()

    page.locator("#sm-tutorial-next").click()
    for move in range(6):
        expect(page.locator(".tutorial-progress")).to_have_text(f"Move {move + 1} of 6")
        # On the real table, labelled as a match's is, one source is offered: a tap elsewhere
        # is refused, and that card then its one target are the move.
        expect(page.locator(".sm-tutorial .sm-table")).to_contain_text("side stacks")
        expect(page.locator(".sm-tutorial [data-source]")).to_have_count(1)
        page.locator('.sm-tutorial [data-place="stock"]').click()
        expect(page.locator("#announcer")).to_contain_text("Not that one")
        page.locator(".sm-tutorial [data-source]").click()
        expect(page.locator(".sm-tutorial [data-target]")).to_have_count(1)
        page.locator(".sm-tutorial [data-target]").click()
        expect(page.locator(".sm-tutorial [data-source]")).to_have_count(0)
        page.locator("#sm-tutorial-next").click()
    expect(page.locator("#sm-tutorial-done")).to_be_focused()


def rate(player: ApiPlayer, rating: float, deviation: float, matches: int) -> None:
    from django.utils import timezone

    from server.ratings.models import Rating

    me = player.client.get("/api/v1/players/me").json()
    Rating.objects.create(
        player_id=me["id"],
        game="spite-malice",
        rating=rating,
        deviation=deviation,
        matches=matches,
        provisional=matches < 5,
        updated_at=timezone.now(),
    )


def rate_bot(rating: float, deviation: float, matches: int, *, level: str | None = None,
             account: ApiPlayer | None = None) -> None:
    """A rating on the bots' board beside the people's: the house bot's ``level``, or the bot
    ``account`` (made a bot first)."""
    from django.utils import timezone

    from server.players.models import Player
    from server.ratings.models import Rating
    from server.spitemalice.bot_ratings import BOTS_GAME, house_player

    if level is not None:
        player = house_player(level)
    else:
        assert account is not None
        player = Player.objects.get(pk=account.client.get("/api/v1/players/me").json()["id"])
        Player.objects.filter(pk=player.pk).update(bot=True)
    Rating.objects.create(player=player, game=BOTS_GAME, rating=rating, deviation=deviation,
                          matches=matches, provisional=matches < 5,
                          updated_at=timezone.now())


def test_the_boards_switch_games_and_show_the_ratings(open_page):
    rate(ApiPlayer(name="Ada"), 1712.4, 61, 14)
    rate(ApiPlayer(name="Bo"), 1540, 80, 9)
    rate(ApiPlayer(name="Cy"), 1600, 250, 2)
    page = open_page("/#/boards/day")
    me = signed_in(page, "Dee")
    rate(me, 1490, 230, 3)
    # Foursquare's day board has the same day's Spite & Malice board beside it, in short.
    expect(page.locator("#sm-day-aside h2")).to_have_text("Spite & Malice today")
    expect(page.locator("#sm-day-aside")).to_contain_text("No one is on this board yet.")

    page.locator('.game-switch [data-game="spite-malice"]').click()
    expect(page).to_have_url(re.compile(r"#/boards/spite-malice$"))
    expect(page.locator('.game-switch [aria-current="page"]')).to_have_text("Spite & Malice")
    expect(page.locator('[data-period="day"][aria-current="page"]')).to_have_text("Today's daily")
    expect(page.locator(".board-body")).to_contain_text("No one is on this board yet.")

    page.locator('[data-period="ratings"]').click()
    rows = page.locator("#sm-ratings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Ada")
    expect(rows.nth(0).locator("td.num").first).to_have_text("1,712 ±61")
    expect(page.locator("#sm-provisional tbody tr")).to_have_count(2)
    expect(page.locator("#sm-provisional tr.mine")).to_contain_text("Dee")
    expect(page.locator("#standing")).to_have_text(
        "Your rating is provisional: 1,490 ± 230, from 3 matches"
    )
    # No bot rated yet: the bots' part says so.
    expect(page.locator("#sm-bots")).to_contain_text("No one is on this board yet.")

    # The bots beside the people: a house level and a bot account, never among the players.
    rate_bot(1795.2, 62, 140, level="expert")
    rate_bot(1650, 180, 3, account=ApiPlayer(name="Robo"))
    page.reload()
    bots = page.locator("#sm-bots tbody tr")
    expect(bots).to_have_count(2)
    expect(bots.nth(0).locator("th")).to_contain_text("Computer (Expert)")
    expect(bots.nth(0).locator("td.num").first).to_have_text("1,795 ±62")
    expect(bots.nth(1).locator("th")).to_contain_text("Robo")
    expect(bots.nth(1).locator("th")).to_contain_text("provisional")
    expect(page.locator("#sm-ratings tbody tr")).to_have_count(2)
    expect(page.locator("#sm-provisional tbody tr")).to_have_count(2)

    page.locator('.game-switch [data-game="foursquare"]').click()
    expect(page.locator('.game-switch [aria-current="page"]')).to_have_text("Foursquare")


def test_a_league_mate_is_invited_from_the_league_page_and_sees_it_waiting(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    league = ApiPlayer(token=token_of(ada)).post("leagues", {"name": "Card club"})
    bo_page = open_page()
    bo = signed_in(bo_page, "Bo")
    bo.post("leagues/join", {"code": league["code"]})

    ada.goto(f"/#/leagues/{league['id']}")
    ada.locator('.game-switch [data-game="spite-malice"]').click()
    expect(ada).to_have_url(re.compile(r"game=spite-malice"))
    expect(ada.locator('.game-switch [aria-current="page"]')).to_have_text("Spite & Malice")
    ada.locator(".members [data-invite]").click()
    expect(ada.locator(".sm-lobby .lead")).to_contain_text("Invite Bo to a match")
    ada.get_by_label("1 minute").check()
    ada.locator("#sm-invite-create").click()
    expect(ada.locator("#sm-invite-status")).to_have_text("Waiting for Bo to join…")

    # Bo finds it on the home page and in the lobby, and joins from there.
    bo_page.goto("/#/")
    expect(bo_page.locator("#sm-home .sm-due")).to_contain_text("Ada invites you to a match")
    bo_page.goto("/#/spite-malice")
    invited = bo_page.locator("#sm-active li[data-state=invited]")
    expect(invited).to_contain_text("Ada invites you")
    invited.locator("[data-action=accept]").click()
    expect(bo_page).to_have_url(MATCH_ROUTE)
    expect(ada).to_have_url(bo_page.url)


def test_stats_and_profile_show_the_spite_malice_record(open_page):
    page = open_page("/#/stats")
    me = signed_in(page, "Ada")
    match = me.post("spite-malice/matches", {"opponent": "bot", "level": "easy", "target": 1})
    resigned = me.client.post(f"/api/v1/spite-malice/matches/{match['id']}/resign")
    assert resigned.status_code == 200, resigned.content
    page.reload()
    section = page.locator("#sm-stats")
    expect(section.locator("h2")).to_have_text("Spite & Malice")
    expect(section.locator('[data-stat="sm-matches_played"] dd')).to_have_text("1")
    expect(section.locator('[data-stat="sm-matches_won"] dd')).to_have_text("0")
    expect(section.locator("#sm-rating")).to_contain_text("No rating yet")
    page.goto("/#/profile")
    expect(page.locator("#sm-stats")).to_be_visible()


def test_persian_lobby_screens_are_right_to_left(open_page):
    page = open_page("/#/spite-malice/play", locale="fa-IR")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#sm-bot-heading")).to_have_text("بازی با رایانه")
    expect(page.get_by_label("۵۰ امتیاز", exact=True)).to_be_checked()  # Persian digits
    for path, heading in [
        ("/#/spite-malice/friend", "#sm-friend-heading"),
        ("/#/spite-malice/rules", "#sm-rules-heading"),
        ("/#/spite-malice/join/ABCDEFGH", "#sm-join-heading"),
        ("/#/spite-malice", "#sm-lobby-heading"),
    ]:
        page.goto(path)
        expect(page.locator(heading)).to_be_visible()
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("main")).not_to_contain_text(
            re.compile(
                r"\b(lobby|list|join|invite|bot|friend|clock|length|rules|tutorial)\.[a-z_]+"
            )
        )
    # The choices read right to left: the first option sits at the row's right edge and the
    # others of its line follow it leftwards. Only the first line is compared: how many options
    # fit on it (the rest wrap) depends on the machine's fonts.
    page.goto("/#/spite-malice/friend")
    row = page.locator(".choice-options").first
    expect(row).to_have_css("direction", "rtl")
    options = row.locator(".choice-option")
    expect(options).to_have_count(4)
    edge = row.bounding_box()
    boxes = [options.nth(i).bounding_box() for i in range(4)]
    line = [box for box in boxes if abs(box["y"] - boxes[0]["y"]) < 1]
    assert len(line) >= 2, boxes
    assert abs((boxes[0]["x"] + boxes[0]["width"]) - (edge["x"] + edge["width"])) < 1, (edge, boxes)
    assert all(after["x"] + after["width"] <= before["x"]
               for before, after in itertools.pairwise(line)), line


def test_a_finished_friend_match_offers_a_rematch_that_the_opponent_joins(open_page):
    ada = open_page()
    me = signed_in(ada, "Ada")
    bo_page = open_page()
    bo = signed_in(bo_page, "Bo")
    match = me.post(
        "spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600, "target": 1}
    )
    bo.post("spite-malice/matches/join", {"code": match["invite"]["code"]})
    first_turns_played(match["id"], me, bo)  # else resigning aborts it, and an abort has no rematch
    assert bo.client.post(f"/api/v1/spite-malice/matches/{match['id']}/resign").status_code == 200

    ada.goto("/#/spite-malice")
    finished = ada.locator(f'#sm-finished li[data-match="{match["id"]}"]')
    expect(finished).to_contain_text("You won: Bo resigned")
    finished.locator("[data-action=rematch]").click()
    expect(ada.locator("#sm-invite-status")).to_have_text("Waiting for Bo to join…")
    expect(ada.locator(".sm-settings")).to_have_text("1 hour a turn · Single game")

    bo_page.goto("/#/spite-malice")
    expect(bo_page.locator(f'#sm-finished li[data-match="{match["id"]}"]')).to_contain_text(
        "You lost: you resigned"
    )
    bo_page.locator("#sm-active li[data-state=invited] [data-action=accept]").click()
    expect(bo_page).to_have_url(MATCH_ROUTE)
    expect(ada).to_have_url(bo_page.url)


def test_an_invitation_nobody_joined_lapses(open_page):
    from datetime import timedelta

    from django.utils import timezone

    from server.spitemalice.models import Match

    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada)
    match_id = ada.url.rsplit("/", 1)[1]
    Match.objects.filter(pk=match_id).update(created_at=timezone.now() - timedelta(days=8))

    ada.reload()
    expect(ada.locator("#sm-invite-over")).to_have_text(
        "Nobody joined this invitation in time, so it has lapsed."
    )
    ada.goto("/#/spite-malice")
    expect(ada.locator(f'#sm-finished li[data-match="{match_id}"]')).to_contain_text(
        "Lapsed: nobody joined"
    )
    bo = open_page(None)
    bo.goto(link)
    expect(bo.locator("#sm-join-problem")).to_have_text(
        "This invitation lapsed: nobody joined it in time. Ask your friend for a new link."
    )


def test_the_home_page_follows_todays_daily(open_page):
    page = open_page()
    me = signed_in(page, "Ada")
    page.locator("#sm-daily").click()  # "Play today's daily": dealt, and on to its table
    expect(page).to_have_url(MATCH_ROUTE)
    daily_id = page.url.rsplit("/", 1)[1]
    page.goto("/#/")
    expect(page.locator(".sm-daily")).to_have_attribute("data-status", "playing")
    expect(page.locator("#sm-daily")).to_have_attribute("href", f"#/spite-malice/match/{daily_id}")
    resigned = me.client.post(f"/api/v1/spite-malice/matches/{daily_id}/resign")
    assert resigned.status_code == 200, resigned.content
    page.reload()
    expect(page.locator(".sm-daily")).to_have_attribute("data-status", "lost")
    expect(page.locator(".sm-daily")).to_contain_text("Today's daily · lost")


def test_a_guest_joining_by_link_gives_the_name_the_table_shows(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada)
    bo = open_page(None)
    bo.goto(link)
    bo.locator("#sm-join").click()  # no name yet: the field says what it needs
    expect(
        bo.locator("#sm-join-form .field-problem, #sm-join-form .field-hint.field-problem")
    ).to_have_count(1)
    expect(bo).to_have_url(re.compile(r"#/spite-malice/join/"))
    join(bo, "Bo")
    expect(bo).to_have_url(MATCH_ROUTE)
    me = ApiPlayer(token=token_of(bo)).client.get("/api/v1/players/me").json()
    assert me["name"] == "Bo"


def test_a_casual_invitation_says_it_is_unrated_before_it_is_accepted(open_page):
    ada = open_page()
    me = signed_in(ada, "Ada")
    ada.goto("/#/spite-malice/friend")
    expect(ada.get_by_label("Rated", exact=True)).to_be_checked()  # the default
    ada.get_by_label("1 hour", exact=True).check()
    ada.get_by_label("Casual (unrated)").check()
    ada.locator("#sm-invite-create").click()
    rated = ada.locator("#sm-invite-rated")
    expect(rated).to_have_text("Casual, unrated: the result changes nobody's rating.")
    expect(rated).to_have_attribute("data-reason", "casual")
    match_id = ada.url.rsplit("/", 1)[1]
    sent = me.client.get(f"/api/v1/spite-malice/matches/{match_id}").json()
    assert (sent["rated"], sent["unrated_reason"]) == (False, "casual")

    # The link's screen previews it: who, the clock, the length, and that it is casual.
    bo = open_page(None)
    bo.goto(ada.locator("#sm-invite-link").input_value())
    expect(bo.locator("#sm-join-heading + .lead")).to_contain_text("Ada invites you to a match")
    expect(bo.locator("#sm-term-clock")).to_have_text("1 hour a turn")
    expect(bo.locator("#sm-term-length")).to_have_text("50 points")
    expect(bo.locator("#sm-term-rating")).to_have_text("Unrated")
    expect(bo.locator("#sm-join-rated")).to_have_text(
        "Casual, unrated: the result changes nobody's rating."
    )
    join(bo, "Bo")
    expect(bo).to_have_url(MATCH_ROUTE)
    # The table says it, quietly; the list too.
    expect(bo.locator("#sm-unrated")).to_have_text("Unrated")
    expect(ada).to_have_url(bo.url)
    ada.goto("/#/spite-malice")
    expect(ada.locator(f'#sm-active li[data-match="{match_id}"] .sm-match-detail')).to_have_text(
        "against Bo · 1 hour a turn · 50 points · Unrated · 0 to 0"
    )


def test_a_rated_invitation_says_whom_it_is_rated_for(open_page):
    ada = open_page()
    as_trusted_player(ada, "Ada")
    link = invitation(ada)
    rated = ada.locator("#sm-invite-rated")
    expect(rated).to_have_attribute("data-rated", "true")
    expect(rated).to_contain_text("Rated, if whoever joins saved their account at least a day ago")

    # A guest would not be rated (a new account), and the screen says why before joining.
    bo = open_page(None)
    bo.goto(link)
    expect(bo.locator("#sm-join-rated")).to_have_attribute("data-reason", "new_account")
    expect(bo.locator("#sm-join-rated")).to_contain_text(
        "Unrated: a match counts on the ratings board only when both players saved their account"
    )
    # A player whose account is a month old would be.
    cy = open_page()
    as_trusted_player(cy, "Cy")
    cy.goto(link)
    expect(cy.locator("#sm-join-rated")).to_have_text(
        "Rated: the result counts on the ratings board."
    )


def test_a_match_left_before_the_first_turns_is_shown_aborted(open_page):
    ada = open_page()
    me = signed_in(ada, "Ada")
    bo = ApiPlayer(name="Bo")

    def begun() -> dict:
        match = me.post(
            "spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600, "target": 25}
        )
        return bo.post("spite-malice/matches/join", {"code": match["invite"]["code"]})

    left, called_off = begun(), begun()
    assert left["abortable"] is True
    gone = bo.client.post(f"/api/v1/spite-malice/matches/{left['id']}/resign").json()
    assert (gone["status"], gone["reason"], gone["winner"]) == ("aborted", "resigned", None)
    off = me.client.post(f"/api/v1/spite-malice/matches/{called_off['id']}/cancel").json()
    assert (off["status"], off["reason"]) == ("aborted", "cancelled")

    ada.goto("/#/spite-malice")
    for match, line in [
        (left, "Aborted: a player left before the first turns were played"),
        (called_off, "Aborted: called off before the first turns were played"),
    ]:
        item = ada.locator(f'#sm-finished li[data-match="{match["id"]}"]')
        expect(item).to_have_attribute("data-state", "aborted")
        expect(item.locator(".sm-match-state")).to_have_text(line)
        expect(item.locator("[data-action=rematch]")).to_have_count(0)
    expect(ada.locator("#sm-active li")).to_have_count(0)

    # Not waiting for anyone on the home page.
    ada.goto("/#/")
    expect(ada.locator(".sm-daily #sm-daily")).to_be_visible()
    expect(ada.locator("#sm-home .sm-due")).to_have_count(0)

    # Its table says it was aborted, where a result would be, and offers nothing to play.
    ada.goto(f"/#/spite-malice/match/{left['id']}")
    result = ada.locator(".sm-result-aborted")
    expect(result.locator("h2")).to_have_text("Match aborted")
    expect(result).to_contain_text("A player left before both had played a first turn.")
    expect(result).to_contain_text("Nobody wins, and no rating changes.")
    expect(ada.locator(".sm-status")).to_have_text("The match was aborted")
    expect(ada.locator(".sm-screen")).to_have_attribute("data-status", "aborted")
    expect(ada.locator(".sm-result[data-game]")).to_have_count(0)
    expect(ada.locator(".sm-table button.sm-place")).to_have_count(0)


def test_the_table_shows_the_abort_as_it_happens(open_page):
    ada = open_page()
    me = signed_in(ada, "Ada")
    bo = ApiPlayer(name="Bo")
    match = me.post(
        "spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600, "target": 1}
    )
    bo.post("spite-malice/matches/join", {"code": match["invite"]["code"]})
    ada.goto(f"/#/spite-malice/match/{match['id']}")
    expect(ada.locator(".sm-screen")).to_have_attribute("data-status", "playing")

    called_off = bo.client.post(f"/api/v1/spite-malice/matches/{match['id']}/cancel")
    assert called_off.status_code == 200, called_off.content
    # The feed's aborted event, said by whose doing it was. This live server holds no socket:
    # the feed is polled, every 10 s on your own turn.
    result = ada.locator(".sm-result-aborted")
    expect(result).to_contain_text(
        "Bo called the match off before both of you had played a first turn.", timeout=30_000
    )
    expect(ada.locator(".sm-screen")).to_have_attribute("data-status", "aborted")
    expect(ada.locator(".sm-status")).to_have_text("The match was aborted")
    expect(ada.locator("#announcer")).to_contain_text(
        "The match is aborted. Bo called the match off")


def test_the_join_screen_names_the_invitations_terms(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada, clock="1 minute", length="Single game")
    bo = open_page(None)
    bo.goto(link)
    terms = bo.locator("#sm-join-terms")
    expect(terms.locator("dt")).to_have_text(["Invited by", "Turn clock", "Length", "Rating"])
    expect(terms.locator("dd")).to_have_text(["Ada", "1 minute a turn", "Single game", "Unrated"])
    # Above the name and the Join button, where it is read first.
    above = bo.evaluate("""() => document.querySelector('#sm-join-terms')
        .compareDocumentPosition(document.querySelector('#sm-join-form'))
        & Node.DOCUMENT_POSITION_FOLLOWING""")
    assert above


def test_the_join_button_is_in_a_phones_first_screen(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    link = invitation(ada, clock="1 hour", length="25 points")
    guest = open_page(None, viewport={"width": 390, "height": 844})
    guest.goto(link)
    guest.locator("#sm-join-form input[name=player_name]").wait_for()
    guest.locator("#sm-join-rated").wait_for()
    join = guest.locator("#sm-join").bounding_box()
    assert join["y"] + join["height"] <= 844, join  # no scrolling to find it


def test_a_guest_whose_name_is_taken_joins_with_the_free_one_offered(open_page):
    ada = open_page()
    signed_in(ada, "Ada")
    ApiPlayer(name="Bo")  # someone has the name already
    link = invitation(ada)
    guest = open_page(None)
    guest.goto(link)
    guest.get_by_label("Your name").fill("bo")
    guest.locator("#sm-join").click()
    offer = guest.locator("#sm-join-problem [data-code=name_taken]")
    expect(offer).to_contain_text("Another player already has the name bo.")
    expect(guest.locator("#sm-join-suggestion")).to_have_text("Join as bo 2")
    guest.locator("#sm-join-suggestion").click()  # one tap: the name, then the join
    expect(guest).to_have_url(MATCH_ROUTE)
    me = ApiPlayer(token=token_of(guest)).client.get("/api/v1/players/me").json()
    assert me["name"] == "bo 2"
    expect(ada).to_have_url(guest.url)


def test_a_declined_invitation_and_rematch_are_shown_declined(open_page):
    ada = open_page()
    me = signed_in(ada, "Ada")
    bo = ApiPlayer(name="Bo")
    match = me.post(
        "spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600, "target": 1}
    )
    bo.post("spite-malice/matches/join", {"code": match["invite"]["code"]})
    first_turns_played(match["id"], me, bo)
    assert bo.client.post(f"/api/v1/spite-malice/matches/{match['id']}/resign").status_code == 200
    offered = me.client.post(f"/api/v1/spite-malice/matches/{match['id']}/rematch")
    assert offered.status_code == 201, offered.content
    rematch = offered.json()
    ada.goto("/#/spite-malice")
    finished = ada.locator(f'#sm-finished li[data-match="{match["id"]}"]')
    expect(finished.locator("[data-rematch]")).to_have_text("Rematch offered")

    declined = bo.client.post(f"/api/v1/spite-malice/matches/{rematch['id']}/decline",
                              {"reason": "later"}, format="json")
    assert declined.status_code == 200, declined.content
    ada.reload()
    # The inviter's list says why, on the finished match and on the rematch itself.
    expect(finished.locator("[data-rematch]")).to_have_text(
        "Rematch declined: Not now, maybe later")
    expect(ada.locator(f'li[data-match="{rematch["id"]}"] .sm-match-state')).to_have_text(
        "Declined by Bo: Not now, maybe later"
    )
    ada.goto(f"/#/spite-malice/invite/{rematch['id']}")
    expect(ada.locator("#sm-invite-over")).to_have_text("Bo declined this invitation.")


def test_the_phone_header_reaches_every_section_and_spite_malice_above_the_fold(open_page):
    page = open_page(viewport={"width": 390, "height": 844})
    links = page.locator(".site-nav a")
    expect(links).to_have_count(9)
    width = page.evaluate("window.innerWidth")
    # One row that scrolls, its ends fading to say so; every section can be brought into sight.
    row = page.locator(".site-nav ul")
    assert row.evaluate("ul => getComputedStyle(ul).overflowX") == "auto"
    assert "gradient" in row.evaluate("ul => getComputedStyle(ul).maskImage")
    # An arrow shows the end with more beyond it, and a tap on it scrolls there.
    more_end, more_start = page.locator(".nav-more-end"), page.locator(".nav-more-start")
    expect(more_end).to_be_visible()
    expect(more_start).to_be_hidden()
    settled_arrows = """before => {
        const row = document.querySelector(".site-nav ul");
        const left = Math.abs(row.scrollLeft);
        const more = row.scrollWidth - row.clientWidth - left > 1;
        return left > before && document.querySelector(".nav-more-end").hidden === !more;
    }"""
    for _ in range(6):  # a tap scrolls by most of the row's width
        if more_end.is_hidden():
            break
        before = row.evaluate("ul => Math.abs(ul.scrollLeft)")
        more_end.click()  # at once: the page asks for reduced motion
        page.wait_for_function(settled_arrows, arg=before)
    expect(more_end).to_be_hidden()
    expect(more_start).to_be_visible()
    last = links.nth(8).bounding_box()
    assert last["x"] + last["width"] <= width, last  # the last section whole, nothing cut
    # Races have a section of their own.
    expect(page.locator(".site-nav a[data-section=races]")).to_have_text("Races")
    for i in range(9):
        links.nth(i).scroll_into_view_if_needed()
        box = links.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    entry = page.locator(".site-nav a[data-section=matches]")
    expect(entry).to_have_text("Spite & Malice")
    assert entry.bounding_box()["y"] + entry.bounding_box()["height"] <= 844  # above the fold


def test_spite_malices_daily_is_under_its_own_section(open_page):
    page = open_page()
    signed_in(page, "Ada")
    page.goto("/#/spite-malice/daily")
    expect(page).to_have_url(MATCH_ROUTE)
    page.locator(".sm-table").wait_for()
    expect(page.locator('.site-nav a[aria-current="page"]')).to_have_attribute(
        "data-section", "matches"
    )


def test_an_unranked_win_is_shown_where_it_would_stand_on_the_day_board(open_page):
    """The board's own answer for a guest's won daily (its standing: ranked false, would_rank,
    as the shared boards give it) drawn as the day board draws it."""
    import json

    page = open_page(None)
    board = {"period": "day", "date": "2026-12-02", "number": 3, "players": 4, "winners": 3,
             "distribution": {}, "entries": [], "me": None, "next": None,
             "standing": {"status": "won", "ranked": False, "would_rank": 2,
                          "would_better_than_percent": 50}}
    page.route(re.compile(r".*/api/v1/spite-malice/daily/[0-9-]+/leaderboard.*"),
               lambda route: route.fulfill(status=200, content_type="application/json",
                                           body=json.dumps(board)))
    page.goto("/#/boards/spite-malice")
    standing = page.locator("#standing")
    expect(standing).to_have_attribute("data-would-rank", "2")
    expect(standing.locator(".rank-would")).to_have_text(
        "Among today's ranked players, your score would be rank 2 of 4."
    )
    expect(standing).to_contain_text("You are not on the global board")
