"""A socket whose client has already gone: the send fails quietly and the socket counts as
closed, so its checks stop instead of logging a traceback each tick."""

from __future__ import annotations

import asyncio

import pytest
from uvicorn.protocols.utils import ClientDisconnected

from server.spitemalice.live.consumers import MatchConsumer


def test_a_send_to_a_client_already_gone_marks_the_socket_closed_without_raising():
    consumer = MatchConsumer()
    consumer.closed = False

    async def gone(**message):
        raise ClientDisconnected()

    consumer.send = gone
    asyncio.run(consumer._send({"type": "pong"}))
    assert consumer.closed is True


def test_a_send_that_fails_otherwise_still_raises():
    consumer = MatchConsumer()
    consumer.closed = False

    async def broken(**message):
        raise TypeError("not JSON text")

    consumer.send = broken
    with pytest.raises(TypeError):  # a programming error is not swallowed
        asyncio.run(consumer._send({"type": "pong"}))
    assert consumer.closed is False
