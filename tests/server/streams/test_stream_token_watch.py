"""An account stream whose client reads nothing ends when its token is revoked: the token is
checked on a timer of its own, not between the stream's writes (a write to a client that
reads nothing waits as long as the connection lives, and with it the check)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application

from server.players import services as players
from server.players.models import AccessToken

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


async def _never_reading_client(token: str, revoke) -> float:
    """Open the stream through Django's ASGI handler as a client that reads nothing (its first
    body chunk is never taken), revoke the token, and return how long the handler then took
    to end the response."""
    handler = get_asgi_application()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/api/v1/stream", "raw_path":
             b"/api/v1/stream", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost"), (b"authorization",
                                                   f"Bearer {token}".encode())],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}
    requested = False
    stuck = asyncio.Event()

    async def receive():
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never leaves

    async def send(message):
        if message["type"] == "http.response.body":
            stuck.set()
            await asyncio.Event().wait()  # a write the client never reads

    serving = asyncio.create_task(handler(scope, receive, send))
    await asyncio.wait_for(stuck.wait(), 30)
    await sync_to_async(revoke)()
    began = asyncio.get_running_loop().time()
    try:
        await asyncio.wait_for(serving, 10)
    finally:
        serving.cancel()
    return asyncio.get_running_loop().time() - began


def test_a_stream_nobody_reads_ends_soon_after_its_token_is_revoked(settings):
    settings.LIVE_TOKEN_CHECK_SECONDS = 0.2
    player, token = players.player_create(name="Ada")

    took = asyncio.run(_never_reading_client(
        token, lambda: AccessToken.objects.filter(player=player).delete()))

    assert took < 5
