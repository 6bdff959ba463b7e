"""Redis away under an open race socket (a Redis server of the test's own, so nobody else's is
disturbed): the socket stays open, finds that Redis does not answer and reads the race every
LIVE_POLL_SECONDS meanwhile, so a racer's move still reaches it (counts only), and it goes on
once Redis is back."""

from __future__ import annotations

import shutil

import pytest

from tests.asgi_server import asgi_server, database_url
from tests.server.foursquare.races.live.support import connect, game_of, move, race_get
from tests.server.foursquare.races.live.support import race_started as started
from tests.server.spitemalice.live.test_redis_restart import OwnRedis, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql,
              pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="needs redis-server to start one of its own")]


def test_moves_reach_the_socket_while_redis_is_away(tmp_path, people):
    ada, bob = people[:2]
    redis = OwnRedis()
    redis.start()
    try:
        with asgi_server(database_url=database_url(), redis_url=redis.url, log_dir=tmp_path,
                         env={"FOURSQUARE_LIVE_POLL_SECONDS": "0.3",
                              "FOURSQUARE_LIVE_FEED_CHECK_SECONDS": "600"}) as server:
            race = started(server, [ada.token, bob.token])
            socket = connect(server, race["id"], ada.token)
            game = game_of(server, bob.token, race_get(server, bob.token, race["id"])["game"])

            def heard(placed: int) -> dict:
                return socket.until(lambda m: m["type"] == "progress"
                                    and m["player"] == bob.id
                                    and m["progress"]["placed"] == placed)

            game = move(server, bob.token, game)
            assert "board" not in heard(1)
            listening = redis.subscribed()
            redis.stop()
            game = move(server, bob.token, game)
            assert "board" not in heard(2)  # by the socket's reads of the race
            redis.start()
            until(lambda: listening <= redis.subscribed(), "the server to subscribe again")
            game = move(server, bob.token, game)
            assert "board" not in heard(3)
            socket.close()
            for failure in ("tick failed", "a handler failed", "Exception in ASGI application"):
                assert failure not in server.log(), server.log()
    finally:
        redis.stop()
