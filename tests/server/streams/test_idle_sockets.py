"""Idle account sockets and streams through the real server (issue 36, section 3): an idle
socket costs the database nothing until the cached latest event number says it is behind, and
a player holds a bounded number of streams and account sockets across tokens and processes."""

from __future__ import annotations

import time

import httpx
import pytest
from django.db import connection

from server.players import services as players
from server.players.tokens import token_issue
from server.streams import watch
from server.streams.models import AccountEvent
from tests.server.live import JsonSocket, live_server
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

POLL = 0.2
PER_PLAYER = 2


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """Idle sockets compare the cached number every 0.2 s; the per-process fallback read of the
    feed waits 10 minutes; a player holds 2 streams and account sockets."""
    with live_server(tmp_path_factory, needs="the idle socket tests",
                     env={"FOURSQUARE_STREAM_POLL_SECONDS": str(POLL),
                          "FOURSQUARE_LIVE_POLL_SECONDS": str(POLL),
                          "FOURSQUARE_LIVE_FEED_CHECK_SECONDS": "600",
                          "FOURSQUARE_STREAMS_PER_PLAYER": str(PER_PLAYER)}) as running:
        yield running


def account_event_reads() -> int:
    """The reads of the account events table so far, by every process. Only this table:
    counting every commit of the database also counted the server's clocks and heartbeats, and
    the statistics of this test's own setup, which the server's connections report up to a
    second or more late, so the count moved with the machine's load (38 of a bound of 37 once).
    An idle socket's one way to the table is its ``_push``, which reads this table each time."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) "
                       "FROM pg_stat_user_tables WHERE relid = %s::regclass",
                       [AccountEvent._meta.db_table])
        return cursor.fetchone()[0]


def account_socket(server, token: str) -> JsonSocket:
    socket = JsonSocket(server.ws("/ws/account", token=token))
    assert socket.recv()["type"] == "ready"
    return socket


def test_idle_account_sockets_read_nothing_while_they_are_current(server):
    """The reproduction: 300 idle account sockets cost about 77 commits a second, each
    reading the table every 5 s whether or not anything was new."""
    sockets = [account_socket(server, players.player_create(name=f"Idle {n}")[1])
               for n in range(10)]
    time.sleep(1.0)  # past their first checks
    seconds = 3.0
    before = account_event_reads()
    time.sleep(seconds)
    spent = account_event_reads() - before

    # Reading the table at each check: 10 sockets x 15 checks = 150 reads. Current sockets
    # read it never; the bound leaves room for their first reads at connect (one each),
    # should their statistics arrive late, into the window.
    checks = len(sockets) * seconds / POLL
    assert spent < checks / 4, (spent, checks)
    for socket in sockets:
        assert socket.quiet(0.05) == []  # still open, nothing to say
        socket.close()


def test_a_player_holds_a_bounded_number_of_streams_across_tokens(server):
    player, first = players.player_create(name="Many")
    second = token_issue(player=player)
    held = [account_socket(server, first)]
    stream = httpx.Client(base_url=server.base, timeout=httpx.Timeout(WAIT_SECONDS, read=60))
    with stream.stream("GET", "/api/v1/stream",
                       headers={"Authorization": f"Bearer {second}"}) as response:
        assert response.status_code == 200  # the second, on another token

        refused = JsonSocket(server.ws("/ws/account", token=second))
        assert refused.close_code() == 4429
        over = httpx.get(f"{server.base}/api/v1/stream", timeout=WAIT_SECONDS,
                         headers={"Authorization": f"Bearer {first}"})
        assert over.status_code == 429 and over.json()["code"] == "throttled"
        assert str(PER_PLAYER) in over.json()["detail"]
        _, other = players.player_create(name="Other")
        account_socket(server, other).close()  # another player's are their own

    held[0].close()
    deadline = time.monotonic() + WAIT_SECONDS
    while True:  # the closed ones give their places back
        socket = JsonSocket(server.ws("/ws/account", token=second))
        try:
            if socket.recv()["type"] == "ready":
                break
        except Exception:  # noqa: BLE001 - refused while the closes are being seen
            assert time.monotonic() < deadline
            time.sleep(0.1)
    socket.close()


@pytest.mark.django_db
def test_the_cached_number_never_goes_back():
    group = "acct-" + "0" * 32
    watch.latest_keep([(group, {"type": "account.events", "first": 5, "last": 6})])
    watch.latest_keep([(group, {"type": "account.events", "first": 4, "last": 4})])
    watch.latest_keep([("sm-match", {"type": "events.stored", "first": 1, "last": 99})])
    assert watch.latest_known("0" * 32) == 6
