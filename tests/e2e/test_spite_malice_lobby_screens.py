"""Screenshots of Spite & Malice's lobby screens, on a phone (390×844) and a desktop, light and
dark, English and Persian, for a person to look at (screenshots/, git-ignored). Each also
checks the page does not scroll sideways."""

from __future__ import annotations

import pytest

from tests.e2e.flows import ApiPlayer, first_turns_played
from tests.e2e.screens import LOOKS as SIX_LOOKS
from tests.e2e.screens import PHONE_TALL as PHONE
from tests.e2e.screens import settle, shoot_checked
from tests.e2e.test_spite_malice_lobby import rate, rate_bot, signed_in

LOOKS = [
    *SIX_LOOKS,
    # The longer scripts, for lines that wrap or overflow.
    pytest.param(PHONE, "light", "ml-IN", id="phone-ml"),
    pytest.param(PHONE, "light", "ka-GE", id="phone-ka"),
    pytest.param(PHONE, "light", "bn-BD", id="phone-bn"),
]


def no_body(player: ApiPlayer, path: str) -> dict:
    response = player.client.post(f"/api/v1/{path}")
    assert response.status_code in (200, 201), response.content
    return response.json()


@pytest.mark.parametrize(("viewport", "scheme", "locale"), LOOKS)
def test_lobby_screens(open_page, shoot, viewport, scheme, locale):
    lang = locale.split("-")[0]
    name = f"{'phone' if viewport is PHONE else 'desktop'}-{scheme}" + (
        "" if lang == "en" else f"-{lang}"
    )
    page = open_page(viewport=viewport, color_scheme=scheme, locale=locale)
    me = signed_in(page, "Ada")
    rate(me, 1562, 74, 11)
    rate_bot(1795, 62, 140, level="expert")  # the bots beside the ratings board
    rate_bot(1611, 95, 48, level="hard")
    # A match of each kind in the list: against the computer, an invitation waiting, one to
    # you from a league mate, one being played (unrated: Ada's account is new), one finished
    # with a rematch to offer and one aborted before the first turns.
    me.post("spite-malice/matches", {"opponent": "bot", "level": "hard", "target": 25})
    me.post("spite-malice/matches", {"opponent": "friend", "turn_seconds": 86400, "target": 1})
    bo = ApiPlayer(name="Bo")
    league = me.post("leagues", {"name": "Card club"})
    bo.post("leagues/join", {"code": league["code"]})
    me_id = me.client.get("/api/v1/players/me").json()["id"]
    bo.post(
        "spite-malice/matches",
        {"opponent": "friend", "turn_seconds": 3600, "target": 25, "invitee": me_id},
    )
    playing = me.post(
        "spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600, "target": 50}
    )
    bo.post("spite-malice/matches/join", {"code": playing["invite"]["code"]})
    done = me.post("spite-malice/matches", {"opponent": "friend", "turn_seconds": 60, "target": 1})
    bo.post("spite-malice/matches/join", {"code": done["invite"]["code"]})
    first_turns_played(done["id"], me, bo)
    no_body(bo, f"spite-malice/matches/{done['id']}/resign")
    left = me.post("spite-malice/matches",
                   {"opponent": "friend", "turn_seconds": 3600, "target": 1})
    bo.post("spite-malice/matches/join", {"code": left["invite"]["code"]})
    no_body(bo, f"spite-malice/matches/{left['id']}/resign")

    screens = [
        ("home", "/#/", "#sm-home .sm-due"),
        ("lobby", "/#/spite-malice", "#sm-finished"),
        ("play-bot", "/#/spite-malice/play", "#sm-bot-form"),
        ("play-friend", "/#/spite-malice/friend", "#sm-friend-form"),
        ("join-unknown", "/#/spite-malice/join/ABCDEFGH", "#sm-join-problem"),
        ("rules", "/#/spite-malice/rules", ".sm-rules"),
        ("boards-day", "/#/boards/spite-malice", ".board-body"),
        ("boards-ratings", "/#/boards/spite-malice/ratings", "#sm-ratings"),
        ("stats", "/#/stats", "#sm-stats"),
        # The table's quiet "Unrated", and an aborted match where the result goes.
        ("table-unrated", f"/#/spite-malice/match/{playing['id']}", ".sm-table"),
        ("table-aborted", f"/#/spite-malice/match/{left['id']}", ".sm-result-aborted"),
    ]
    for screen, path, ready in screens:
        page.goto(path)
        settle(page, ready)
        shoot_checked(shoot, page, f"lobby-{name}-{screen}", full_page=screen != "rules")

    page.goto("/#/spite-malice/friend")
    page.locator("input[name=rated][value=false]").check()  # casual
    page.locator("#sm-invite-create").click()
    page.locator("#sm-invite-link").wait_for()
    page.locator("#sm-invite-rated").wait_for()
    shoot_checked(shoot, page, f"lobby-{name}-invitation")

    # The link as a guest opens it: the join screen asks for a name first.
    guest = open_page(None, viewport=viewport, color_scheme=scheme, locale=locale)
    guest.goto(page.locator("#sm-invite-link").input_value())
    guest.locator("#sm-join-form input[name=player_name]").wait_for()
    guest.locator("#sm-join-rated").wait_for()
    shoot_checked(shoot, guest, f"lobby-{name}-join-guest")
    # A name someone has: the free one offered in its place.
    guest.locator("#sm-join-form input[name=player_name]").fill("Bo")
    guest.locator("#sm-join").click()
    guest.locator("#sm-join-suggestion").wait_for()
    shoot_checked(shoot, guest, f"lobby-{name}-join-name-taken")

    # Cancelling asks first.
    page.goto("/#/spite-malice")
    settle(page, "#sm-active li[data-state=waiting]")
    page.locator("#sm-active li[data-state=waiting] [data-action=cancel]").first.click()
    page.locator(".sm-confirm").wait_for()
    shoot_checked(shoot, page, f"lobby-{name}-cancel-confirm", full_page=False)

    page.goto("/#/spite-malice/tutorial")
    page.locator("#sm-tutorial-next").click()
    page.locator(".sm-tutorial [data-source]").click()
    shoot_checked(shoot, page, f"lobby-{name}-tutorial")
