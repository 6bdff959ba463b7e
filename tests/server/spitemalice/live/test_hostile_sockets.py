"""Hostile clients against the real server (gunicorn, one uvicorn worker, PostgreSQL, Redis):
frames too big to parse, tokens that are not tokens, binary frames, too many sockets on one
seat, from one address, unauthenticated or not, handshakes too fast, another scheme's Origin.
Each is refused with its close code, logs no traceback, and leaves nothing held behind (the
seat shows away, the socket's count is given back).

The server trusts one proxy (``DJANGO_NUM_PROXIES=1``), so each test speaks from an address of
its own through ``X-Forwarded-For`` and no test's counts reach another's."""

from __future__ import annotations

import itertools
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.asgi_server import TEST_REDIS_URL, asgi_server, database_url
from tests.server.spitemalice.live.support import Socket
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

PER_SEAT = 3
PER_ADDRESS = 5
UNAUTHENTICATED = 4
# Per hour, not per minute: the limiter is a moving window, so the next handshake is refused
# whenever the first twelve took less than its period, which an hour leaves no doubt about.
HANDSHAKES_PER_HOUR = 12
_addresses = (f"198.51.100.{n}" for n in itertools.count(1))


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    # One worker: the sockets per address are counted in each process.
    with asgi_server(database_url=database_url(), redis_url=TEST_REDIS_URL, workers=1,
                     log_dir=tmp_path_factory.mktemp("asgi"),
                     env={"DJANGO_NUM_PROXIES": "1",
                          "FOURSQUARE_LIVE_SOCKETS_PER_SEAT": str(PER_SEAT),
                          "FOURSQUARE_LIVE_SOCKETS_PER_ADDRESS": str(PER_ADDRESS),
                          "FOURSQUARE_LIVE_UNAUTHENTICATED_PER_ADDRESS": str(UNAUTHENTICATED),
                          "FOURSQUARE_RATE_SOCKETS_ADDRESS": f"{HANDSHAKES_PER_HOUR}/hour",
                          "FOURSQUARE_LIVE_POLL_SECONDS": "600"}) as running:
        yield running
    log = running.log()
    for failure in ("Traceback", "Exception in ASGI application", "Internal Server Error"):
        assert failure not in log, log


@pytest.fixture
def address() -> str:
    return next(_addresses)


def path(match) -> str:
    return f"/ws/spite-malice/matches/{match.pk}"


def open_socket(server, match, address, token=None, origin=None) -> Socket:
    return Socket(server.ws(path(match), token=token, origin=origin,
                            headers={"X-Forwarded-For": address}))


def ready(server, match, address, token) -> Socket:
    socket = open_socket(server, match, address, token)
    socket.until(lambda message: message["type"] == "ready")
    return socket


def ready_once_freed(server, match, token) -> Socket:
    """A socket that gets ready once the server has taken in a close that freed its place (a
    client's close is answered before the server has given the place back): refused 4429 until
    then, for at most WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        socket = open_socket(server, match, next(_addresses), token)
        try:
            message = socket.recv()
        except ConnectionClosed as closed:  # refused while the closed one is still counted
            assert closed.rcvd is not None and closed.rcvd.code == 4429
            assert time.monotonic() < deadline, "the closed socket's place was never given back"
            time.sleep(0.05)
            continue
        assert message["type"] == "ready", message
        return socket


def test_a_huge_frame_is_refused_4400_unparsed_before_and_after_auth(server, table, address):
    match, tokens = table
    nested = "[" * 60000  # a RecursionError to any JSON parser that reads it
    before = open_socket(server, match, address)
    before.ws.send(nested)
    assert before.close_code() == 4400

    bob = ready(server, match, address, tokens[1])
    ada = ready(server, match, address, tokens[0])
    bob.until(lambda message: message["type"] == "presence" and message["seats"] == [True, True])
    ada.ws.send(nested)
    assert ada.close_code() == 4400
    # Ada's socket gave its seat back: Bob sees her away at once.
    bob.until(lambda message: message["type"] == "presence" and message["seats"] == [False, True])
    bob.send({"type": "ping"})
    bob.until(lambda message: message["type"] == "pong")
    bob.close()


@pytest.mark.parametrize("frame", [
    '{"type": "auth", "token": "\\ud800"}',  # a lone surrogate: no string of bytes encodes it
    '{"type": "auth", "token": "' + "x" * 300 + '"}',
    '{"type": "auth", "token": "tab\\tinside"}',
], ids=["lone-surrogate", "too-long", "control-character"])
def test_a_token_that_is_not_token_shaped_is_refused_4401(server, table, address, frame):
    match, _ = table
    socket = open_socket(server, match, address)
    socket.ws.send(frame)
    assert socket.close_code() == 4401


def test_a_binary_frame_is_refused_4400(server, table, address):
    match, tokens = table
    socket = ready(server, match, address, tokens[0])
    socket.ws.send(b'{"type": "ping"}')
    assert socket.close_code() == 4400


def test_one_seat_holds_at_most_its_sockets(server, table, address):
    match, tokens = table
    held = [ready(server, match, address, tokens[0]) for _ in range(PER_SEAT)]
    assert open_socket(server, match, next(_addresses), tokens[0]).close_code() == 4429
    held.pop().close()
    replacement = ready_once_freed(server, match, tokens[0])  # the slot it gave back
    for socket in [*held, replacement]:
        socket.close()


def test_an_address_holds_at_most_its_unauthenticated_sockets(server, table, address):
    match, tokens = table
    waiting = [open_socket(server, match, address) for _ in range(UNAUTHENTICATED)]
    assert open_socket(server, match, address).close_code() == 4429
    # Authenticating one frees its place among the waiting ones.
    waiting[0].send({"type": "auth", "token": tokens[0]})
    waiting[0].until(lambda message: message["type"] == "ready")
    newcomer = open_socket(server, match, address)
    newcomer.send({"type": "auth", "token": tokens[1]})
    newcomer.until(lambda message: message["type"] == "ready")
    for socket in [*waiting, newcomer]:
        socket.close()


def test_an_address_holds_at_most_its_sockets(server, table, address):
    match, tokens = table
    held = [ready(server, match, address, tokens[0]) for _ in range(PER_SEAT)]
    held += [ready(server, match, address, tokens[1]) for _ in range(PER_ADDRESS - PER_SEAT)]
    # Bob's seat has room, the address has none.
    assert open_socket(server, match, address, tokens[1]).close_code() == 4429
    assert ready(server, match, next(_addresses), tokens[1]).ready["seat"] == 1
    for socket in held:
        socket.close()


def test_handshakes_faster_than_the_rate_are_refused(server, table, address):
    match, tokens = table
    for _ in range(HANDSHAKES_PER_HOUR):
        ready(server, match, address, tokens[0]).close()
    assert open_socket(server, match, address, tokens[0]).close_code() == 4429
    # Another address is not held back by this one's haste.
    ready(server, match, next(_addresses), tokens[0]).close()


@pytest.mark.parametrize("origin", ["ftp://localhost", "ws://127.0.0.1", "null"])
def test_an_origin_that_is_not_a_web_page_of_this_site_is_refused(server, table, address,
                                                                     origin):
    match, tokens = table
    with pytest.raises(InvalidStatus) as refused:
        open_socket(server, match, address, tokens[0], origin=origin)
    assert refused.value.response.status_code == 403
