"""`make run`, the embedded default (SQLite, the file cache, the in-memory channel layer, four
workers), serves the live sockets on the port of its pages and API: a socket held by one worker
gets the events stored by whichever worker answered the action (its own layer's notice, or the
check of the feed each second)."""

from __future__ import annotations

import shutil

import pytest

from tests.make_run import call, make_run
from tests.server.spitemalice.live.support import Socket, feed
from tests.server.spitemalice.support import greedy
from tests.serving import WAIT_SECONDS


@pytest.mark.long
@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_make_run_serves_a_matchs_socket_on_its_port(tmp_path):
    from websockets.sync.client import connect

    with make_run(tmp_path) as served:
        status, player = call(served.base, "POST", "/api/v1/players", {})
        assert status == 201, player
        token = player["token"]
        status, match = call(served.base, "POST", "/api/v1/spite-malice/matches",
                             {"opponent": "bot", "level": "easy", "target": 1}, token=token)
        assert status == 201, match
        ws_url = served.base.replace("http", "ws", 1)
        socket = Socket(connect(f"{ws_url}/ws/spite-malice/matches/{match['id']}?after=0",
                                origin=served.base, open_timeout=WAIT_SECONDS, legacy=True),
                        after=0)
        socket.send({"type": "auth", "token": token})
        socket.until(lambda message: message["type"] == "ready")
        for _ in range(8):  # the person's actions and the bot's replies
            game = match["game"]
            status, match = call(served.base, "POST",
                                 f"/api/v1/spite-malice/matches/{match['id']}/actions",
                                 {"action": greedy(game), "game": game["number"],
                                  "actions": game["actions"]}, token=token)
            assert status == 200, match
            socket.through(match["event"])
            if match["status"] == "finished":
                break
        assert socket.events == feed(served.base, match["id"], token)
        socket.send({"type": "ping"})
        assert socket.until(lambda message: message["type"] == "pong") == {"type": "pong"}
        socket.close()
        assert "Traceback" not in served.log()
