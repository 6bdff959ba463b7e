"""A page's network gone quiet, counted from the page's own request events: what Playwright's
``networkidle`` load state promises (no request in flight for half a second).

That load state is not kept reliably: a request that starts and ends before the document's
DOMContentLoaded can leave the frame with no idle timer, so ``wait_for_load_state("networkidle")``
waits out its whole timeout with nothing loading (microsoft/playwright#42598, closed with
``networkidle`` marked discouraged). A suite run once waited the whole 30 s for it on a
finished match's table after a reload, every API request the server logged answered. The
pages the tests open count their requests from the start (``watch``, called by ``open_page``
and ``live.player_page``), so ``wait_for_quiet`` knows what is still loading, and names it if
it never ends."""

from __future__ import annotations

import time
from weakref import WeakKeyDictionary

from tests.serving import WAIT_SECONDS

QUIET_SECONDS = 0.5  # as networkidle: this long with no request in flight
STEP_MS = 50  # how often the count is looked at (Playwright hands over the events meanwhile)


class _Requests:
    """A page's requests in flight, and when the last one started or ended."""

    def __init__(self) -> None:
        self.in_flight: set = set()
        self.changed = time.monotonic()

    def started(self, request) -> None:
        self.in_flight.add(request)
        self.changed = time.monotonic()

    def ended(self, request) -> None:
        # A redirect ends its request and starts a new one; a failed one (aborted by a
        # navigation, refused) ends too.
        self.in_flight.discard(request)
        self.changed = time.monotonic()


_watched: WeakKeyDictionary = WeakKeyDictionary()


def watch(page) -> None:
    """Count ``page``'s requests from now on: call it as the page is opened, before it loads
    anything."""
    requests = _Requests()
    page.on("request", requests.started)
    page.on("requestfinished", requests.ended)
    page.on("requestfailed", requests.ended)
    _watched[page] = requests


def wait_for_quiet(page, timeout: float = WAIT_SECONDS) -> None:
    """Until no request of ``page`` has been in flight for ``QUIET_SECONDS``; fails naming the
    requests still in flight after ``timeout`` seconds."""
    requests = _watched.get(page)
    if requests is None:
        raise AssertionError("the page's requests are not counted: open it with open_page or "
                             "live.player_page, or call quiet.watch(page) as it opens")
    deadline = time.monotonic() + timeout
    while True:
        page.wait_for_timeout(STEP_MS)
        now = time.monotonic()
        if not requests.in_flight and now - requests.changed >= QUIET_SECONDS:
            return
        if now > deadline:
            loading = sorted(request.url for request in requests.in_flight)
            raise AssertionError(f"still loading after {timeout:g} s: {loading or 'nothing'}"
                                 f" (the last request began or ended "
                                 f"{now - requests.changed:.1f} s ago)")
