"""Which daily may be played now, and how its deal is derived from the server's secret.

A date is playable while it is the current date somewhere on Earth: local times run from
UTC−12 to UTC+14, so at any instant up to three dates are current. The deal of a date comes
from ``deal(seed)`` with ``seed = HMAC-SHA256(FOURSQUARE_DAILY_SECRET, "daily/<date>/<n>")``:
without the secret nobody can compute a future deal from the open-source engine.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from foursquare import Card, deal
from server.games.models import Daily, Deal

EARLIEST_OFFSET = timedelta(hours=-12)  # Baker Island
LATEST_OFFSET = timedelta(hours=14)  # Kiribati, Line Islands


def current_dates(now: datetime | None = None) -> tuple[date, date]:
    """The first and last date that are current somewhere on Earth at ``now``."""
    now = now or timezone.now()
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
    return (now or timezone.now()).astimezone(UTC).date()


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


def daily_seed(day: date, attempt: int = 0) -> bytes:
    message = f"daily/{day.isoformat()}/{attempt}".encode()
    return hmac.new(settings.FOURSQUARE_DAILY_SECRET.encode(), message, hashlib.sha256).digest()


def daily_deck(day: date, attempt: int = 0) -> tuple[Card, ...]:
    return deal(daily_seed(day, attempt))


def daily_get_or_create(day: date, *, prepare_later: bool = True) -> Daily:
    """The daily of ``day``, dealt on first use (safe when two requests race to create it).

    A daily that ``manage.py prepare_dailies`` did not create ahead is served at once with the
    deal of attempt 0; with ``prepare_later`` its preparation (proof and bot score) follows in
    a background job.
    """
    daily = Daily.objects.filter(date=day).select_related("deal").first()
    if daily is not None:
        return daily
    try:
        with transaction.atomic():
            deal_row = Deal.from_deck(daily_deck(day))
            deal_row.save()
            daily = Daily.objects.create(date=day, number=daily_number(day), deal=deal_row)
            if prepare_later:
                from server.games.tasks import DAILY_PREPARE
                from server.jobs.background import job_enqueue

                job_enqueue(kind=DAILY_PREPARE, key=day.isoformat())
            return daily
    except IntegrityError:
        return Daily.objects.select_related("deal").get(date=day)
