"""What the browser tests of live play share: a JSON call to the real server's API, made as a
second player's client would make it (``api``)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.serving import WAIT_SECONDS


def api(base: str, method: str, path: str, token: str | None = None,
        body: dict | None = None) -> Any:
    """``method`` on ``/api/v1/<path>`` of the server at ``base``, with ``token`` as its bearer
    and ``body`` as JSON; the answer's JSON (None for an empty one)."""
    request = urllib.request.Request(
        f"{base}/api/v1/{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
        return json.loads(response.read() or b"null")
