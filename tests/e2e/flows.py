"""Steps the end-to-end tests share: a daily with a known deal, players acting through the API
beside the browser, and driving the game screen."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rest_framework.test import APIClient

VECTORS = Path(__file__).resolve().parents[1] / "foursquare" / "vectors"


def vector(name: str) -> dict:
    return json.loads((VECTORS / f"{name}.json").read_text())


# A deal won in 28 moves with 12 cards left, and the moves that win it.
WON_12 = vector("v054")


def today() -> str:
    # The browser contexts run in UTC (conftest), as the server's default day does.
    return datetime.now(UTC).date().isoformat()


def known_daily(record: dict = WON_12):
    """Makes today's daily the record's deal, before anyone asks for it."""
    from server.dailies.calendar import daily_number
    from server.foursquare.models import Daily, Deal

    day = datetime.now(UTC).date()
    deal = Deal.objects.create(cards=" ".join(record["deck"]))
    return Daily.objects.create(date=day, number=daily_number(day), deal=deal)


def known_practice_deal(record: dict = WON_12) -> str:
    from server.foursquare.models import Deal

    return Deal.objects.create(cards=" ".join(record["deck"])).pk


def trust(player_id) -> None:
    """Makes a player trusted on the global boards: a claimed account, created a month ago
    (before today's daily), as a regular player's would be."""
    from django.utils import timezone

    from server.players.models import Player

    since = timezone.now() - timedelta(days=30)
    player = Player.objects.get(pk=player_id)
    Player.objects.filter(pk=player_id).update(
        username=player.username or f"user-{player.pk.hex[:12]}",
        username_key=player.username_key or f"user-{player.pk.hex[:12]}", claimed_at=since,
        created_at=since)


class ApiPlayer:
    """A player acting through the API in-process, beside the browser's players. A new one is
    a guest, or with ``trusted`` a regular player whose dailies rank on the global boards."""

    def __init__(self, token: str | None = None, name: str | None = None, *,
                 trusted: bool = False) -> None:
        self.client = APIClient()
        if token is None:
            body = {"name": name} if name else {}
            created = self.client.post("/api/v1/players", body, format="json")
            assert created.status_code == 201, created.content
            token = created.json()["token"]
            if trusted:
                trust(created.json()["id"])
        self.token = token
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def post(self, path: str, body: dict | None = None) -> dict:
        response = self.client.post(f"/api/v1/{path}", body or {}, format="json")
        assert response.status_code in (200, 201), response.content
        return response.json()

    def play(self, game: dict, moves: list) -> dict:
        for row, col in moves:
            game = self.post(f"games/{game['id']}/moves", {"row": row, "col": col})
        return game

    def daily(self) -> dict:
        return self.post("games", {"mode": "daily", "date": today()})


def token_of(page) -> str:
    return json.loads(page.evaluate("localStorage.getItem('fsd.token')"))


def as_trusted_player(page, name: str | None = None) -> ApiPlayer:
    """Signs the page in as a new trusted player (see ``trust``), whose dailies rank on the
    global boards, and reloads it."""
    player = ApiPlayer(name=name, trusted=True)
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))",
                  player.token)
    page.reload()
    return player


def start_daily(page) -> None:
    """From the front page to the daily's board: past the welcome and the start button."""
    page.wait_for_selector("#start-daily, .game")
    if page.locator(".welcome").count():
        page.locator(".welcome button").click()  # "Just play" starts the game
    elif page.locator("#start-daily").count():
        page.locator("#start-daily").click()
    page.wait_for_selector(".game .board")


def wait_idle(page) -> None:
    page.wait_for_selector(".game:not(.is-busy)")


def moves_played(page) -> int:
    return int(page.locator(".game").get_attribute("data-moves"))


def click_cell(page, row: int, col: int) -> None:
    page.locator(f'.game .cell[data-row="{row}"][data-col="{col}"]').click()
    wait_idle(page)


def play_moves(page, moves: list) -> None:
    for row, col in moves:
        click_cell(page, row, col)


def play_until_over(page, limit: int = 40) -> int:
    """Clicks the first target until the game ends; returns the number of clicks."""
    for clicks in range(limit + 1):
        if page.locator('.game[data-status="playing"]').count() == 0:
            return clicks
        page.locator('.game .cell[data-target="true"]').first.click()
        wait_idle(page)
    raise AssertionError("the game did not end within 40 moves")


def play_through_the_api(page, moves) -> None:
    """Plays as the page's player, server-side (quicker than clicking), then shows the result."""
    player = ApiPlayer(token=token_of(page))
    player.play(player.daily(), moves)
    page.reload()
    page.locator(".game .board").wait_for()


def first_turns_played(match_id: str, *players: ApiPlayer) -> dict:
    """Each seat of a friend match completes its first turn (a discard from the hand, which ends
    it), so that leaving the match now loses it instead of aborting it. Returns the match."""
    path = f"/api/v1/spite-malice/matches/{match_id}"
    for _ in range(2):
        for player in players:
            state = player.client.get(path).json()
            if state["status"] == "playing" and state["game"]["turn"] == state["you"]:
                action = next(a for a in state["game"]["legal_actions"] if a[1].startswith("S"))
                player.post(f"spite-malice/matches/{match_id}/actions",
                            {"action": action, "game": state["game"]["number"],
                             "actions": state["game"]["actions"]})
                break
    state = players[0].client.get(path).json()
    assert state["abortable"] is False, state
    return state
