"""Two app servers of one deployment (one database, one Redis, two machines' worth of gunicorn):
a socket on either hears of events stored through the other, and the sockets of a worker
killed without closing them age out of presence by themselves."""

from __future__ import annotations

import os
import signal
import time
import uuid

import pytest

from server.players import services as players
from server.spitemalice import services
from server.spitemalice.models import Match
from tests.asgi_server import TEST_REDIS_URL, asgi_server, database_url, redis_reachable
from tests.server.spitemalice.live.support import Socket, feed
from tests.server.spitemalice.live.test_sockets import match_of, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


@pytest.fixture(scope="module")
def two_servers(django_db_setup, django_db_blocker, tmp_path_factory):
    problem = redis_reachable()
    if problem:
        pytest.fail(f"the live tests need Redis: {problem}")
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    log_dir = tmp_path_factory.mktemp("asgi")
    settings = {"database_url": database_url(), "redis_url": TEST_REDIS_URL,
                "log_dir": log_dir, "prefix": prefix, "workers": 1,
                "env": {"FOURSQUARE_LIVE_POLL_SECONDS": "600"}}
    with asgi_server(**settings) as one, asgi_server(**settings) as other:
        yield one, other


@pytest.mark.long
def test_each_server_hears_of_the_others_events_and_a_killed_workers_sockets_age_out(
        two_servers):
    one, other = two_servers
    ada, ada_token = players.player_create(name="Ada")
    bob, bob_token = players.player_create(name="Bob")
    match = services.match_start_friend(player=ada, opponent=bob, target=1)
    tokens = {0: ada_token, 1: bob_token}
    sockets = {0: Socket(one.ws(f"/ws/spite-malice/matches/{match.pk}", token=ada_token)),
               1: Socket(other.ws(f"/ws/spite-malice/matches/{match.pk}", token=bob_token))}
    for socket in sockets.values():
        socket.until(lambda message: message["type"] == "ready")
    start = sockets[0].ready["last"]
    sockets[0].until(lambda message: message["type"] == "presence" and message["seats"]
                     == [True, True])

    # The actions go through either server in turn: every event reaches both sockets, one of
    # them on the other server, through Redis alone (their checks of the feed are 10 min apart).
    for step in range(8):
        through = (one, other)[step % 2]
        view = match_of(through, match.pk, tokens[0])
        turn = view["game"]["turn"]
        answer = play(through, match_of(through, match.pk, tokens[turn]), tokens[turn])
        for socket in sockets.values():
            socket.through(answer["event"])
    for seat in (0, 1):
        assert sockets[seat].events == feed(one.base, match.pk, tokens[seat], after=start)

    # Bob's server loses its only worker to kill -9: his socket dies unclosed, his presence key
    # is left behind and expires.
    killed_at = time.monotonic()
    for pid in other.worker_pids():
        os.kill(pid, signal.SIGKILL)
    sockets[0].until(lambda message: message["type"] == "presence"
                     and message["seats"] == [True, False], timeout=40)
    gone_after = time.monotonic() - killed_at
    print(f"a killed worker's socket left presence after {gone_after:.1f} s")
    assert gone_after < 30
    assert Match.objects.get(pk=match.pk).event == sockets[0].cursor
    sockets[0].close()
