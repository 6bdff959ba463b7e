"""The calendar of the dailies, one for every game: a date is playable while it is the current
date somewhere on Earth. Local times run from UTC−12 to UTC+14, so at any instant up to three
dates are current; a date opens at its midnight at UTC+14 and closes at the midnight after it
at UTC−12. #1 is the launch date (``FOURSQUARE_LAUNCH_DATE``, the first daily of either game).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.utils import timezone

EARLIEST_OFFSET = timedelta(hours=-12)  # Baker Island
LATEST_OFFSET = timedelta(hours=14)  # Kiribati, Line Islands


def clock() -> datetime:
    """The instant the dailies' dates are read at when a caller gives none: the wall clock.
    Every date decision of either game (today's daily, which dates are playable or archived,
    which dailies have closed) reads it here, so a test holds it still in one place
    (tests/server/conftest.py, ``dailies_clock``)."""
    return timezone.now()


def current_dates(now: datetime | None = None) -> tuple[date, date]:
    """The first and last date that are current somewhere on Earth at ``now``."""
    now = now or clock()
    return (now + EARLIEST_OFFSET).date(), (now + LATEST_OFFSET).date()


def opens_at(day: date) -> datetime:
    """When ``day`` first begins anywhere: its midnight at UTC+14."""
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) - LATEST_OFFSET


def closes_at(day: date) -> datetime:
    """When ``day`` has ended everywhere: the midnight after it at UTC−12. A daily left
    unfinished then is over: its deal is in the archive from that moment."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC) \
        - EARLIEST_OFFSET


def utc_today(now: datetime | None = None) -> date:
    return (now or clock()).astimezone(UTC).date()


def is_playable(day: date, now: datetime | None = None) -> bool:
    first, last = current_dates(now)
    return first <= day <= last and day >= settings.FOURSQUARE_LAUNCH_DATE


def is_archived(day: date, now: datetime | None = None) -> bool:
    """Past every time zone: the daily can be replayed without spoiling it for anyone."""
    first, _ = current_dates(now)
    return settings.FOURSQUARE_LAUNCH_DATE <= day < first


def daily_number(day: date) -> int:
    """#1 is the launch date."""
    return (day - settings.FOURSQUARE_LAUNCH_DATE).days + 1
