"""Django's WSGI application answering the ASGI server's HTTP requests from a pool of threads.

Each request costs one hop to a thread and one back to the event loop: the body is read on the
loop first (the API's are a few hundred bytes; past ``MAX_BODY`` the app is handed just enough
to refuse it with its 413), and the answer is collected in the thread and sent whole (every
answer of this app is small: JSON, a page, a static module). An adapter that hands each part of
a request and an answer across threads (a2wsgi) costs several hops more a request: 1.7 times the
CPU per request under `make load` (docs/OPERATIONS.md).

The environ is the one gunicorn's WSGI workers built, so the application behaves the same
behind either server: PATH_INFO from the raw path (bytes as latin-1), and a header whose name
holds an underscore dropped, as gunicorn drops it, since ``X_Forwarded_For`` would otherwise
pass for ``X-Forwarded-For`` in ``HTTP_X_FORWARDED_FOR``.
"""

from __future__ import annotations

import asyncio
import io
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote_to_bytes

MAX_BODY = 1024 * 1024  # well past DATA_UPLOAD_MAX_MEMORY_SIZE: larger bodies are refused anyway


class Routed:
    """Each HTTP request to the first of ``routes`` (``(predicate of the scope, application)``)
    whose predicate holds, else to ``default``: the requests that wait (a stream, a long poll)
    go to an application that waits on the event loop."""

    def __init__(self, default, routes) -> None:
        self.default, self.routes = default, tuple(routes)

    async def __call__(self, scope, receive, send) -> None:
        for predicate, application in self.routes:
            if predicate(scope):
                await application(scope, receive, send)
                return
        await self.default(scope, receive, send)


class WSGIOnThreads:
    """An ASGI application for the ``http`` scope that runs ``wsgi_app`` on ``threads``
    threads."""

    def __init__(self, wsgi_app, threads: int) -> None:
        self.wsgi_app = wsgi_app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope, receive, send) -> None:
        body = await _body(receive)
        if body is None:
            return  # the client went away
        environ = environ_of(scope, body)
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.executor, self._respond,
                                                              environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _respond(self, environ: dict) -> tuple[int, list, bytes]:
        started: list = []
        chunks: list[bytes] = []

        def start_response(status: str, headers, exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return chunks.append

        iterable = self.wsgi_app(environ, start_response)
        try:
            for chunk in iterable:
                if chunk:
                    chunks.append(chunk)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        content = b"".join(chunks)
        encoded = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                   for name, value in headers]
        if environ["REQUEST_METHOD"] != "HEAD" and not any(
                name == b"content-length" for name, _ in encoded):
            encoded.append((b"content-length", str(len(content)).encode()))
        return int(status.split(" ", 1)[0]), encoded, content


async def _body(receive) -> bytes | None:
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        part = message.get("body", b"")
        parts.append(part)
        size += len(part)
        if not message.get("more_body") or size > MAX_BODY:
            return b"".join(parts)


def environ_of(scope: dict, body: bytes) -> dict:
    """The WSGI environ of an ASGI ``http`` scope, as gunicorn builds it."""
    raw_path = scope.get("raw_path")
    path = (unquote_to_bytes(raw_path.split(b"?", 1)[0]) if raw_path
            else scope["path"].encode("utf-8"))
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": path.decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server_name),
        "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1")
        if "_" in name:
            continue
        value = raw_value.decode("latin-1")
        if name == "content-length":
            key = "CONTENT_LENGTH"
        elif name == "content-type":
            key = "CONTENT_TYPE"
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ
