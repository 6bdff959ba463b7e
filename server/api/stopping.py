"""Whether this process's server has begun its graceful stop, for the requests it holds open.

On SIGTERM uvicorn stops taking connections, closes the live sockets with 1012 and waits for
every HTTP response under way to finish. Two kinds of request do not finish by themselves: the
account stream (``/api/v1/stream``, open for minutes) and an events feed asked to wait
(``wait=``, up to a minute). Each held its worker's stop for gunicorn's whole
``graceful_timeout`` (20 s), after which the worker was killed and their clients saw a broken
response. Both now wait on ``wait()`` beside their other waits and end at once, as they end
when their time is up: the stream with a clean end (clients reconnect with ``after``, SSE
clients with ``Last-Event-ID``), the held feed with its answer as it stands.

``begin()`` is called by the server's HTTP protocol when uvicorn asks its connections to stop
(``server.worker``); a process that is never stopped that way never sets it.
"""

from __future__ import annotations

import asyncio

_stopping = False
_waiters: set[asyncio.Future[None]] = set()


def begin() -> None:
    """The server is stopping: wake every ``wait()``, now and from now on."""
    global _stopping
    _stopping = True
    for waiter in list(_waiters):
        # A waiter may belong to another loop than the caller's (a test's, say).
        waiter.get_loop().call_soon_threadsafe(_wake, waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


async def wait() -> None:
    """Return once the server is stopping (at once if it is already)."""
    if _stopping:
        return
    waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    _waiters.add(waiter)
    try:
        if not _stopping:  # begin() may have run on another thread since the check above
            await waiter
    finally:
        _waiters.discard(waiter)
