"""The README's first command, as a newcomer uses it: `make run` on its own default database
(SQLite, its secrets made on first start), and a daily played to its end in the browser."""

from __future__ import annotations

import shutil

import pytest

from tests.e2e.conftest import PHONE, WAIT_MS
from tests.e2e.flows import moves_played, play_until_over, start_daily, token_of
from tests.make_run import call, make_run


@pytest.mark.long
@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_a_daily_is_played_to_its_end_in_the_browser_against_make_run(browser, tmp_path, shoot):
    with make_run(tmp_path) as served:
        context = browser.new_context(viewport=PHONE, base_url=served.base, timezone_id="UTC",
                                      reduced_motion="reduce")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        problems, writes = [], []
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on("response", lambda response: problems.append(
            f"{response.status} from {response.request.method} {response.url}")
            if response.status >= 500 else None)
        page.on("request", lambda request: writes.append(request)
                if request.method in ("POST", "PATCH", "DELETE") else None)
        try:
            page.goto("/")
            start_daily(page)
            play_until_over(page)
            shoot(page, "embedded-default-daily-over")
            played = moves_played(page)
            status = page.locator(".game").get_attribute("data-status")
            token = token_of(page)
        finally:
            context.close()

        assert problems == []
        # The app starts the game and sends each move with an Idempotency-Key: the path that
        # once failed on SQLite.
        game_writes = [request for request in writes if "/api/v1/games" in request.url]
        assert len(game_writes) == 1 + played
        assert all(request.headers.get("idempotency-key") for request in game_writes)
        assert status in ("won", "lost")
        # The server holds the same finished game, move for move.
        answer, daily = call(served.base, "GET", "/api/v1/daily", token=token)
        assert answer == 200, daily
        game = daily["your_game"]
        assert (game["status"], game["moves_played"]) == (status, played)
        assert game["mode"] == "daily"
        assert (served.data_dir / "db.sqlite3").exists()
        assert (served.data_dir / "daily-secret").exists()
