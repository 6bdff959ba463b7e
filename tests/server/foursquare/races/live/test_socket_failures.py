"""What the race socket does when something under it fails, in-process (asgiref's
communicator, the in-memory layer, the test database): a handler that raises closes it with
1011 and gives back all it held (its count per address and per racer, its group, its clock's
task); a channel layer that cannot make its channel still lets it in, on its reads."""

from __future__ import annotations

import asyncio
import gc
import json

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.layers import get_channel_layer
from channels.routing import URLRouter

from server.api import sockets
from server.foursquare.races import consumers, live
from server.foursquare.races import services as races
from server.players.models import Player
from server.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)


class Socket(ApplicationCommunicator):
    def __init__(self, race_id, token) -> None:
        super().__init__(URLRouter(websocket_urlpatterns), {
            "type": "websocket", "path": f"/ws/races/{race_id}", "query_string": b"",
            "headers": [(b"authorization", f"Bearer {token}".encode())], "subprotocols": []})

    async def connect(self) -> None:
        await self.send_input({"type": "websocket.connect"})
        assert (await self.receive_output(timeout=10))["type"] == "websocket.accept"

    async def next_message(self) -> dict:
        output = await self.receive_output(timeout=10)
        assert output["type"] == "websocket.send", output
        return json.loads(output["text"])


def run(scenario) -> None:
    asyncio.run(scenario)
    # The socket's reads ran in the loop's executor, whose threads are gone now: their
    # database connections close once collected, before the test database is dropped.
    gc.collect()


@pytest.fixture
def waiting(people):
    """A race Ada hosts, and her token."""
    ada = people[0]
    return races.race_create(host=Player.objects.get(pk=ada.id), size=2, minutes=3), ada


def test_a_handler_that_fails_closes_1011_and_gives_back_all_it_held(waiting, monkeypatch,
                                                                     caplog):
    race, ada = waiting

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug in a handler")

    async def scenario():
        socket = Socket(race.pk, ada.token)
        await socket.connect()
        assert (await socket.next_message())["type"] == "ready"
        assert sockets.open_sockets.count(None) == (1, 0)
        assert consumers._held[(race.pk, ada.id)] == 1
        monkeypatch.setattr(consumers, "_race_read", broken)
        await get_channel_layer().group_send(live.group_of(race.pk), {"type": live.CHANGED})
        assert await socket.receive_output(timeout=10) == {"type": "websocket.close",
                                                           "code": 1011}
        await socket.wait(timeout=10)  # the consumer ended: nothing of it runs on

    run(scenario())
    assert sockets.open_sockets.count(None) == (0, 0)
    assert (race.pk, ada.id) not in consumers._held
    assert "a handler failed" in caplog.text


def test_a_channel_layer_that_fails_lets_the_socket_in_on_its_reads(waiting, monkeypatch):
    race, ada = waiting

    class DownLayer:
        async def new_channel(self):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(sockets, "get_channel_layer", lambda alias: DownLayer())

    async def scenario():
        socket = Socket(race.pk, ada.token)
        await socket.connect()
        ready = await socket.next_message()
        assert ready["type"] == "ready" and ready["race"]["id"] == str(race.pk)
        await socket.send_input({"type": "websocket.receive", "text": '{"type": "ping"}'})
        assert await socket.next_message() == {"type": "pong"}
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})
        await socket.wait(timeout=10)

    run(scenario())
    assert sockets.open_sockets.count(None) == (0, 0)
    assert (race.pk, ada.id) not in consumers._held
