"""One request to the WSGI application in this process, as the benchmarks make it (`make
bench-moves`, `make bench-actions`): no socket and no server, the app's whole path from its
first middleware, so what is timed is the app's own CPU."""

from __future__ import annotations

import io
import json
import sys
import uuid
from collections.abc import Callable, Iterable
from typing import Any

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def wsgi_call(app: WsgiApp, method: str, path: str, body: dict[str, Any] | None, *,
              token: str | None, query: str = "") -> tuple[int, Any]:
    """The status and decoded JSON answer of ``method path?query`` with ``body``, as the player
    of ``token`` sends it (None: a visitor, no token); a POST carries an Idempotency-Key of its
    own, as clients send."""
    data = json.dumps(body).encode() if body is not None else b""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": path,
        "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000", "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_ACCEPT": "*/*", "HTTP_X_REQUEST_ID": uuid.uuid4().hex,
    }
    if token is not None:
        environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if method == "POST":
        environ.update({"CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(data)),
                        "HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())})
    started: list[str] = []
    content = b"".join(app(environ, lambda status, headers, exc_info=None:
                           started.append(status)))
    return int(started[0].split()[0]), json.loads(content)
