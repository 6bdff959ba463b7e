"""What a socket does when something under it fails, in-process (Channels' communicator, the
in-memory layer, the test database): a handler that raises closes it with 1011 and gives back
all it held; a channel layer that cannot make its channel still lets it in; and the Origin
rules that production adds (scheme and port), checked on the validator itself."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlparse

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.routing import URLRouter
from django.db import DatabaseError

from server.api import sockets
from server.api.origins import BrowserOriginValidator
from server.routing import websocket_urlpatterns
from server.spitemalice.live import consumers, presence

pytestmark = pytest.mark.django_db(transaction=True)


class Socket(ApplicationCommunicator):
    """A WebSocket client of the app in this process (asgiref's communicator; Channels' own
    wrapper needs Daphne, which this project does not use)."""

    def __init__(self, match, token) -> None:
        super().__init__(URLRouter(websocket_urlpatterns), {
            "type": "websocket", "path": f"/ws/spite-malice/matches/{match.pk}",
            "query_string": b"", "headers": [(b"authorization", f"Bearer {token}".encode())],
            "subprotocols": []})

    async def connect(self) -> None:
        await self.send_input({"type": "websocket.connect"})
        assert (await self.receive_output(timeout=10))["type"] == "websocket.accept"

    async def send_text(self, text: str) -> None:
        await self.send_input({"type": "websocket.receive", "text": text})

    async def until_type(self, kind: str) -> dict:
        while True:
            output = await self.receive_output(timeout=10)
            assert output["type"] == "websocket.send", output
            message = json.loads(output["text"])
            if message["type"] == kind:
                return message

    async def disconnect(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(timeout=10)


def test_a_handler_that_fails_closes_1011_and_gives_back_all_it_held(table, monkeypatch,
                                                                     caplog):
    match, tokens = table
    token = tokens[0]

    async def broken(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug in a handler")

    async def scenario():
        socket = Socket(match, token)
        await socket.connect()
        await socket.until_type("ready")
        assert presence.seats_connected(match.pk, bot_seat=None)[0] is True
        assert sockets.open_sockets.count(None) == (1, 0)
        monkeypatch.setattr(consumers.MatchConsumer, "receive", broken)
        await socket.send_text('{"type": "ping"}')
        while (output := await socket.receive_output(timeout=10))["type"] == "websocket.send":
            pass  # presence and the like, sent before the ping
        assert output == {"type": "websocket.close", "code": 1011}
        await socket.wait(timeout=10)  # the consumer ended: nothing of it runs on

    asyncio.run(scenario())
    assert presence.seats_connected(match.pk, bot_seat=None) == [False, False]
    assert sockets.open_sockets.count(None) == (0, 0)
    assert "a handler failed" in caplog.text


def test_a_channel_layer_that_fails_lets_the_socket_in_on_the_feed(table, monkeypatch):
    match, tokens = table
    token = tokens[0]

    class DownLayer:
        async def new_channel(self):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(sockets, "get_channel_layer", lambda alias: DownLayer())

    async def scenario():
        socket = Socket(match, token)
        await socket.connect()
        ready = await socket.until_type("ready")
        assert ready["seat"] == 0
        await socket.send_text('{"type": "ping"}')
        await socket.until_type("pong")
        await socket.disconnect()

    asyncio.run(scenario())
    assert sockets.open_sockets.count(None) == (0, 0)


@pytest.mark.parametrize(("origin", "production", "valid"), [
    ("https://play.example", True, True),
    ("https://play.example:443", True, True),
    ("http://play.example", True, False),  # production pages are https
    ("https://play.example:8080", True, False),  # another port: another site
    ("https://play.example:8443", True, True),  # ... unless it is a trusted origin
    ("ftp://play.example", True, False),
    ("ftp://play.example", False, False),
    ("http://play.example:8000", False, True),  # a development server's port
    ("https://elsewhere.example", False, False),
])
def test_an_origin_must_be_a_page_of_this_site(settings, origin, production, valid):
    settings.PRODUCTION = production
    settings.ALLOWED_HOSTS = ["play.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example:8443"]
    validator = BrowserOriginValidator(None, ["play.example"])
    assert validator.valid_origin(urlparse(origin)) is valid



def test_a_database_that_fails_under_the_tokens_lookup_refuses_the_socket_1011(
        table, monkeypatch, caplog):
    """The database failing under a socket's read (``SturdyConsumer._database_failed``, which
    every socket's reads share): 1011 and a warning, not a bug's traceback, and nothing held."""
    match, tokens = table

    async def failing(*args, **kwargs):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(consumers, "_seat_of", failing)

    async def scenario():
        socket = Socket(match, tokens[0])
        await socket.connect()
        assert await socket.receive_output(timeout=10) == {"type": "websocket.close",
                                                           "code": 1011}
        await socket.disconnect()

    asyncio.run(scenario())
    assert "live socket refused: the database failed" in caplog.text
    assert "a handler failed" not in caplog.text
    assert sockets.open_sockets.count(None) == (0, 0)
    assert presence.seats_connected(match.pk, bot_seat=None) == [False, False]
