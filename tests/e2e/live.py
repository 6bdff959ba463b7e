"""What the browser tests of live play share: a JSON call to the real server's API, made as a
second player's client would make it (``api``), the browsers each player plays in
(``Devices``, the ``devices`` fixture of tests/e2e/conftest.py), and the report of how soon one
player's move reached the others (``report_delays``)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.e2e.conftest import PHONE, SCREENSHOTS, WAIT_MS
from tests.e2e.quiet import watch
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


def player_page(browser, server, problems: list[str], path: str = "/", *, viewport=PHONE,
                locale="en-US", color_scheme="light", token: str | None = None):
    """A page in a browser context of its own on ``server`` (another device, another player),
    signed in with ``token`` if one is given, at ``path``; its script errors and
    Content-Security-Policy violations are added to ``problems``. Its context is
    ``page.context``, for the caller to close."""
    context = browser.new_context(
        viewport=viewport, locale=locale, color_scheme=color_scheme, timezone_id="UTC",
        base_url=server.base, reduced_motion="reduce",
        permissions=["clipboard-read", "clipboard-write"])
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    watch(page)  # its requests counted from the start, for quiet.wait_for_quiet
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("console", lambda message: problems.append(f"console: {message.text}")
            if "Content Security Policy" in message.text else None)
    if token:
        page.goto("/")
        page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", token)
    page.goto(path)
    return page


def device(browser, server, token: str, problems: list[str]):
    """One signed-in player's (context, page) on ``server``, for a test that closes it."""
    page = player_page(browser, server, problems, token=token)
    return page.context, page


class Devices:
    """Browser contexts on the server, each its own player; script errors and
    Content-Security-Policy violations are collected and fail the test."""

    def __init__(self, browser, server) -> None:
        self.browser = browser
        self.server = server
        self.contexts = []
        self.problems: list[str] = []

    def open(self, path: str = "/", *, viewport=PHONE, locale="en-US", color_scheme="light",
             token: str | None = None):
        page = player_page(self.browser, self.server, self.problems, path, viewport=viewport,
                           locale=locale, color_scheme=color_scheme, token=token)
        self.contexts.append(page.context)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def report_delays(delays: list[int], what: str, file_name: str) -> None:
    """Prints the delays of ``what`` (and keeps them beside the screenshots as ``file_name``,
    for a run in parallel)."""
    ordered = sorted(delays)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    line = (f"{what}, {len(ordered)} deliveries: "
            f"p50 {ordered[len(ordered) // 2]} ms, p95 {p95} ms, max {ordered[-1]} ms")
    print(line)
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / file_name).write_text(line + "\n")
    assert all(delay >= 0 for delay in delays), delays
