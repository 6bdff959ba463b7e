"""A socket closed by the server after its client has gone: nothing is left to close, and
that is not a handler's failure (which would log a traceback and close with 1011)."""

import asyncio

from uvicorn.protocols.utils import ClientDisconnected

from server.api.sockets import SturdyConsumer


class _Gone(SturdyConsumer):
    """A consumer whose client has disconnected: every send fails as uvicorn's does."""

    async def base_send(self, message):
        raise ClientDisconnected()


def test_closing_a_socket_whose_client_went_is_quiet_and_marks_it_closed():
    consumer = _Gone()

    asyncio.run(consumer._close(4403))

    assert consumer.closed


def test_closing_twice_sends_nothing_more():
    sent = []

    class Open(SturdyConsumer):
        async def base_send(self, message):
            sent.append(message)

    consumer = Open()
    asyncio.run(consumer._close(4403))
    asyncio.run(consumer._close(4400))

    assert sent == [{"type": "websocket.close", "code": 4403}]
