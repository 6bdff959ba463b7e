"""Foursquare's dailies: how a date's deal is derived from the server's secret, and the daily
dealt once. Which dates are current is the shared calendar's (``server.dailies.calendar``).

The deal of a date comes
from ``deal(seed)`` with ``seed = HMAC-SHA256(FOURSQUARE_DAILY_SECRET, "daily/<date>/<n>")``:
without the secret nobody can compute a future deal from the open-source engine.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction

from foursquare import Card, deal
from server.core.queries import one_or_none
from server.dailies.calendar import (
    daily_number,
)
from server.foursquare.models import Daily, Deal


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
    daily = one_or_none(Daily.objects.filter(date=day).select_related("deal"))
    if daily is not None:
        return daily
    try:
        with transaction.atomic():
            deal_row = Deal.from_deck(daily_deck(day))
            deal_row.save()
            daily = Daily.objects.create(date=day, number=daily_number(day), deal=deal_row)
            if prepare_later:
                from server.foursquare.tasks import DAILY_PREPARE
                from server.jobs.background import job_enqueue

                job_enqueue(kind=DAILY_PREPARE, key=day.isoformat())
            return daily
    except IntegrityError:
        return Daily.objects.select_related("deal").get(date=day)
