"""``quiet.wait_for_quiet``, which the screenshot tests wait with instead of Playwright's
``networkidle``: it waits for a request in flight, returns once none is, and names a request
that never ends."""

import pytest

from tests.e2e.quiet import wait_for_quiet


def test_the_wait_names_a_request_in_flight_and_ends_once_it_is_answered(open_page):
    page = open_page("/")
    page.locator("#start-daily").wait_for()
    held = []
    page.route("**/held-request", lambda route: held.append(route))  # held until answered
    page.evaluate("() => { window.answered = fetch('/held-request').then(r => r.status); }")
    with pytest.raises(AssertionError, match="held-request"):
        wait_for_quiet(page, timeout=1)
    assert len(held) == 1
    held[0].fulfill(status=204)
    wait_for_quiet(page)
    assert page.evaluate("window.answered") == 204
