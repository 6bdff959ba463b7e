"""Challenges and seeks in the browser, two players in two browser contexts: a player who takes
challenges from anyone (set on the profile) is challenged by id and declines with a reason,
which the challenger reads; a seek posted in one is taken in the other and both sit at its
table; a bot account's badge; and screenshots of the lobby's new parts."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import ApiPlayer
from tests.e2e.screens import LOOKS, PHONE_TALL, settle, shoot_checked
from tests.e2e.test_spite_malice_lobby import MATCH_ROUTE, signed_in

MATCH_ID = re.compile(r"[0-9a-f-]{36}$")


def player_id(player: ApiPlayer) -> str:
    return player.client.get("/api/v1/players/me").json()["id"]


def test_a_challenge_by_id_is_declined_with_a_reason_the_challenger_reads(open_page):
    ada_page = open_page()
    ada = signed_in(ada_page, "Ada")
    bo_page = open_page("/#/profile")
    bo = signed_in(bo_page, "Bo")

    # Bo takes challenges from anyone: set on the profile, and kept.
    setting = bo_page.locator("#challenges-form select[name=challenges]")
    expect(setting).to_have_value("league_mates")
    setting.select_option("anyone")
    bo_page.locator("#challenges-form button[type=submit]").click()
    expect(bo_page.locator("#toast")).to_contain_text("Saved")
    assert bo.client.get("/api/v1/players/me").json()["challenges"] == "anyone"

    # Ada, who shares no league with Bo, challenges him by his id.
    ada_page.goto("/#/spite-malice/friend?" + urlencode({"invitee": player_id(bo), "name": "Bo"}))
    expect(ada_page.locator(".sm-lobby .lead")).to_contain_text("Invite Bo to a match")
    ada_page.locator("#sm-invite-create").click()
    expect(ada_page.locator("#sm-invite-status")).to_have_text("Waiting for Bo to join…")
    match_id = MATCH_ID.search(ada_page.url).group(0)

    bo_page.goto("/#/spite-malice")
    invited = bo_page.locator(f'#sm-active li[data-match="{match_id}"]')
    expect(invited).to_have_attribute("data-state", "invited")
    invited.locator("[data-action=decline]").click()
    reasons = invited.locator(".sm-decline select")
    expect(reasons).to_be_focused()
    reasons.select_option("too_fast")
    invited.locator("[data-action=decline-send]").click()
    expect(bo_page.locator(f'#sm-finished li[data-match="{match_id}"]')).to_contain_text(
        "You declined")

    seen = ada.client.get(f"/api/v1/spite-malice/matches/{match_id}").json()
    assert (seen["reason"], seen["decline_reason"]) == ("declined", "too_fast")
    # Her invitation's screen, still open, learns it on its next look, and says why.
    expect(ada_page.locator("#sm-invite-over")).to_have_text("Bo declined this invitation.")
    expect(ada_page.locator("#sm-invite-why")).to_have_text("The turns are too short for me")
    ada_page.goto("/#/spite-malice")
    expect(ada_page.locator(f'#sm-finished li[data-match="{match_id}"]')).to_contain_text(
        "Declined by Bo: The turns are too short for me")


def test_a_challenge_is_declined_with_a_reason_from_its_join_screen_too(open_page):
    ada = ApiPlayer(name="Ada")
    page = open_page("/#/spite-malice")
    bo = signed_in(page, "Bo")
    bo.client.patch("/api/v1/players/me", {"challenges": "anyone"}, format="json")
    match = ada.post("spite-malice/matches", {"opponent": "friend", "invitee": player_id(bo)})

    page.goto(f"/#/spite-malice/join/{match['invite']['code']}")
    page.locator("#sm-decline").click()
    page.locator(".sm-decline select").select_option("later")
    page.locator("[data-action=decline-send]").click()
    expect(page).to_have_url(re.compile(r"#/spite-malice$"))
    seen = ada.client.get(f"/api/v1/spite-malice/matches/{match['id']}").json()
    assert (seen["status"], seen["decline_reason"]) == ("cancelled", "later")


def test_a_seek_posted_in_one_browser_is_taken_in_the_other_and_both_sit_at_its_table(
        open_page):
    ada_page = open_page("/#/spite-malice")
    ada = signed_in(ada_page, "Ada")
    bo_page = open_page("/#/spite-malice")
    signed_in(bo_page, "Bo")

    ada_page.locator("#sm-seek-post-section summary").click()
    ada_page.locator("#sm-seek-clock").get_by_label("1 hour").check()
    ada_page.locator("#sm-seek-length").get_by_label("Single game").check()
    ada_page.locator("#sm-seek-post").click()
    mine = ada_page.locator("#sm-active li[data-state=waiting]")
    expect(mine).to_contain_text("Looking for an opponent")
    expect(mine.locator("[data-action=invitation]")).to_have_count(0)  # no link to send
    expect(ada_page.locator("#sm-seeks-none")).to_be_visible()  # not her own
    seek_id = mine.get_attribute("data-match")

    bo_page.reload()
    offered = bo_page.locator(f'#sm-seek-list li[data-seek="{seek_id}"]')
    expect(offered).to_contain_text("Ada")
    expect(offered).to_contain_text("1 hour a turn")
    offered.locator("[data-action=take]").click()
    expect(bo_page).to_have_url(MATCH_ROUTE)
    assert bo_page.url.endswith(seek_id)

    ada_page.reload()
    item = ada_page.locator(f'#sm-active li[data-match="{seek_id}"]')
    expect(item).to_contain_text("against Bo")
    item.locator("[data-action=open]").click()
    expect(ada_page).to_have_url(bo_page.url)
    expect(ada_page.locator("#sm-heading")).to_contain_text("Bo")
    match = ada.client.get(f"/api/v1/spite-malice/matches/{seek_id}").json()
    assert match["status"] == "playing" and match["seek"] is True


def test_a_bot_accounts_name_carries_its_badge(open_page):
    robo = ApiPlayer(name="Robo")
    assert robo.client.patch("/api/v1/players/me", {"bot": True},
                             format="json").json()["bot"] is True
    seek = robo.post("spite-malice/seeks", {"target": 1})
    page = open_page("/#/spite-malice")
    signed_in(page, "Ada")

    offered = page.locator(f'#sm-seek-list li[data-seek="{seek["id"]}"]')
    expect(offered.locator(".bot-badge")).to_have_text("BOT")
    offered.locator("[data-action=take]").click()
    expect(page).to_have_url(MATCH_ROUTE)
    expect(page.locator("#sm-heading .bot-badge")).to_have_text("BOT")


@pytest.mark.parametrize(("viewport", "scheme", "locale"), LOOKS)
def test_challenge_and_seek_screens(open_page, shoot, viewport, scheme, locale):
    lang = locale.split("-")[0]
    name = f"{'phone' if viewport is PHONE_TALL else 'desktop'}-{scheme}" + (
        "" if lang == "en" else f"-{lang}")
    page = open_page(viewport=viewport, color_scheme=scheme, locale=locale)
    me = signed_in(page, "Ada")
    challenger = ApiPlayer(name="Bo")
    me.client.patch("/api/v1/players/me", {"challenges": "anyone"}, format="json")
    challenger.post("spite-malice/matches", {"opponent": "friend", "invitee": player_id(me),
                                             "turn_seconds": 86400, "target": 1})
    robo = ApiPlayer(name="Robo")
    robo.client.patch("/api/v1/players/me", {"bot": True}, format="json")
    robo.post("spite-malice/seeks", {"turn_seconds": 60, "target": 25})
    ApiPlayer(name="Cy").post("spite-malice/seeks", {"turn_seconds": 86400, "target": 1,
                                                     "rated": False})
    me.post("spite-malice/seeks", {"turn_seconds": 3600, "target": 50})

    page.goto("/#/spite-malice")
    settle(page, "#sm-seek-list li")
    page.locator("#sm-active li[data-state=invited] [data-action=decline]").click()
    page.locator("#sm-seek-post-section summary").click()
    shoot_checked(shoot, page, f"sm-challenges-{name}")
    if lang == "fa":
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("#sm-seeks-heading")).to_have_text("درخواست‌های باز")

    page.goto("/#/profile")
    settle(page, "#challenges-form")
    page.locator("#challenges-form").scroll_into_view_if_needed()
    shoot_checked(shoot, page, f"profile-challenges-{name}", full_page=False)
