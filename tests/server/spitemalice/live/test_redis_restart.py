"""Redis restarted under open sockets (a Redis server of the test's own, so nobody else's is
disturbed): the sockets stay open, the server's subscriptions come back by themselves, the
next notice reaches them (none is lost), and what each socket sent is still exactly its seat's
feed."""

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
from tests.serving import WAIT_SECONDS

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

    def cli(self, *command: str) -> list[str]:
        """A redis-cli command's answer, line by line."""
        return subprocess.run(["redis-cli", "-p", str(self.port), *command], capture_output=True,
                              text=True).stdout.split()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until(lambda: self.cli("ping") == ["PONG"] or self.process.poll() is not None,
              "redis-server to answer")
        assert self.process.poll() is None, "redis-server exited"

    def subscribed(self) -> set[str]:
        """The Pub/Sub channels someone listens on."""
        return set(self.cli("pubsub", "channels"))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def until(condition, what: str, seconds: float = WAIT_SECONDS) -> None:
    """Polls ``condition`` until it holds; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


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
                socket.through(latest)
            listening = redis.subscribed()
            assert listening

            redis.stop()
            redis.start()
            started = time.monotonic()
            # The server's subscriptions come back by themselves: every channel it listened on
            # is listened on again.
            until(lambda: listening <= redis.subscribed(), "the server to subscribe again")
            # A notice sent while Redis was away may be lost (the feed checks cover it); from
            # here on, none may be.
            back = len(server.log())
            # Then the next notice flows at once: a publishing connection Redis closed is found
            # out and the notice sent again on a new one (the sockets' own checks of the feed
            # are 10 minutes apart here, so only a notice brings the event this soon).
            latest = act()
            for socket in sockets.values():
                socket.through(latest)
            print(f"notices flowed again {time.monotonic() - started:.1f} s after Redis was back")
            for _ in range(3):  # and keep flowing
                latest = act()
                for socket in sockets.values():
                    socket.through(latest)
            for seat in (0, 1):
                assert sockets[seat].events == feed(server.base, match.pk, tokens[seat])
                sockets[seat].close()
            assert "live notice not sent" not in server.log()[back:]
    finally:
        redis.stop()


def test_a_handshake_while_redis_is_down_is_served_from_the_feed(tmp_path):
    """With Redis away, a new socket is let in all the same (not a 500 from the channel layer)
    and gets its events from its checks of the feed, every second here."""
    redis = OwnRedis()
    redis.start()
    try:
        with asgi_server(database_url=database_url(), redis_url=redis.url, log_dir=tmp_path,
                         env={"FOURSQUARE_LIVE_POLL_SECONDS": "1"}) as server:
            ada, ada_token = players.player_create(name="Ada")
            bob, bob_token = players.player_create(name="Bob")
            match = services.match_start_friend(player=ada, opponent=bob, target=1)
            tokens = {0: ada_token, 1: bob_token}
            redis.stop()
            socket = Socket(server.ws(f"/ws/spite-malice/matches/{match.pk}?after=0",
                                      token=tokens[1]), after=0)
            socket.until(lambda message: message["type"] == "ready")
            turn = match_of(server, match.pk, tokens[0])["game"]["turn"]
            latest = play(server, match_of(server, match.pk, tokens[turn]), tokens[turn])["event"]
            socket.through(latest)
            assert socket.events == feed(server.base, match.pk, tokens[1])
            socket.close()
            assert "Exception in ASGI application" not in server.log()
    finally:
        redis.stop()
