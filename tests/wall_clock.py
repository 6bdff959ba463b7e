"""Keeping the tests that run on the real clock clear of the dailies' date boundaries.

The server's own tests hold the dailies' clock still (``dailies_clock``, tests/server/conftest.py).
The browser's tests cannot: Chromium picks its daily by its own local date and counts down to
its own midnight, and the server they talk to (pytest-django's ``live_server``, or a `make run`
in a subprocess) must agree with it. So they run on the wall clock, and start only where no
date changes before they end: a test about to begin within ``MARGIN`` of a boundary waits for
the boundary to pass first. The boundaries are the instants when the set of dates being
played somewhere on Earth changes (server/dailies/calendar.py): midnight at UTC+14 (10:00 UTC),
midnight at UTC-12 (12:00 UTC), and UTC's own midnight, where the UTC date of the browser
(its time zone is UTC), the tests' ``today()`` and the server's ``utc_today()`` change.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

BOUNDARY_HOURS_UTC = (0, 10, 12)
# Longer than any browser test takes on a busy machine (the slowest take about a minute).
MARGIN = timedelta(minutes=5)


def next_date_boundary(now: datetime) -> datetime:
    """The first boundary strictly after ``now``."""
    now = now.astimezone(UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for day in (0, 1):
        for hour in BOUNDARY_HOURS_UTC:
            boundary = midnight + timedelta(days=day, hours=hour)
            if boundary > now:
                return boundary
    raise AssertionError("unreachable: tomorrow's midnight is after now")


def wait_before(now: datetime, margin: timedelta = MARGIN) -> float:
    """Seconds a test starting at ``now`` waits so that no boundary falls within ``margin``
    of its start: none when the next boundary is further, else until a second after it."""
    boundary = next_date_boundary(now)
    if boundary - now > margin:
        return 0.0
    return (boundary - now).total_seconds() + 1.0


def clear_of_date_boundaries(margin: timedelta = MARGIN) -> None:
    """Return once no date boundary falls within ``margin`` from now (at once, nearly always)."""
    wait = wait_before(datetime.now(UTC), margin)
    if wait:
        time.sleep(wait)
