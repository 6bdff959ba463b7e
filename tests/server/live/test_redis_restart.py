"""Redis restarted under open sockets (a Redis server of the test's own, so nobody else's is
disturbed): the sockets stay open, the server's subscriptions come back by themselves, and
what each socket sent is still exactly its seat's feed."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from server.players import services as players
from server.spitemalice import services
from tests.asgi_server import asgi_server, database_url, free_port
from tests.server.spitemalice.live.support import Socket, feed
from tests.server.spitemalice.live.test_sockets import match_of, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql,
              pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="needs redis-server to start one of its own")]


class OwnRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            answer = subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                                    capture_output=True, text=True).stdout.strip()
            if answer == "PONG":
                return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def test_sockets_recover_when_redis_restarts(tmp_path):
    redis = OwnRedis()
    redis.start()
    try:
        with asgi_server(database_url=database_url(), redis_url=redis.url, log_dir=tmp_path,
                         env={"FOURSQUARE_LIVE_POLL_SECONDS": "600"}) as server:
            ada, ada_token = players.player_create(name="Ada")
            bob, bob_token = players.player_create(name="Bob")
            match = services.match_start_friend(player=ada, opponent=bob, target=1)
            tokens = {0: ada_token, 1: bob_token}
            sockets = {seat: Socket(server.ws(f"/ws/spite-malice/matches/{match.pk}?after=0",
                                              token=tokens[seat]), after=0) for seat in (0, 1)}

            def act() -> int:
                turn = match_of(server, match.pk, tokens[0])["game"]["turn"]
                return play(server, match_of(server, match.pk, tokens[turn]),
                            tokens[turn])["event"]

            latest = act()
            for socket in sockets.values():
                socket.through(latest, timeout=5)

            redis.stop()
            redis.start()
            # The first notices may be lost while the server reconnects; then they flow again,
            # and the first one that arrives brings every event the socket had missed.
            recovered_at = None
            started = time.monotonic()
            for _ in range(20):
                latest = act()
                try:
                    for socket in sockets.values():
                        socket.through(latest, timeout=1.5)
                except TimeoutError:
                    continue
                recovered_at = time.monotonic() - started
                break
            assert recovered_at is not None, server.log()
            print(f"notices flowed again {recovered_at:.1f} s after Redis was back")
            for _ in range(3):  # and keep flowing
                latest = act()
                for socket in sockets.values():
                    socket.through(latest, timeout=5)
            for seat in (0, 1):
                assert sockets[seat].events == feed(server.base, match.pk, tokens[seat])
                sockets[seat].close()
    finally:
        redis.stop()
