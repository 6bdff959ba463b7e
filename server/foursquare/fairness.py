"""Foursquare's part of the fairness log: its dailies as the log reads them, and the
housekeeping that prepares and commits them ahead (docs/FAIRNESS.md)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from django.conf import settings
from django.db.models import Min

from server.dailies.calendar import utc_today
from server.fairness import games, services
from server.foursquare import dailies
from server.foursquare.models import Daily, Game

GAME = "foursquare"


def _dailies(days: Iterable[date]) -> dict[date, games.DailyDeal]:
    days = list(days)
    first_played = dict(Game.objects.filter(daily__in=days).values("daily")
                        .annotate(first=Min("created_at")).values_list("daily", "first"))
    return {
        daily.date: games.DailyDeal(
            attempt=daily.attempt, seed=dailies.daily_seed(daily.date, daily.attempt).hex(),
            deck=daily.deal.cards.split(), first_played_at=first_played.get(daily.date))
        for daily in Daily.objects.filter(date__in=days).select_related("deal")
    }


def daily_commit(daily: Daily) -> None:
    """Commit to ``daily``'s deal, now that its attempt is final."""
    services.daily_commit(game=GAME, day=daily.date, attempt=daily.attempt,
                          seed=dailies.daily_seed(daily.date, daily.attempt).hex())


def dailies_ahead() -> int:
    """The housekeeping: ask for the preparation (and so the commitment) of every date from
    today to ``FAIRNESS_DAYS_AHEAD`` days on that is not prepared yet; returns how many."""
    from server.foursquare.tasks import DAILY_PREPARE
    from server.jobs.background import job_enqueue

    today = utc_today()
    days = {today + timedelta(days=offset)
            for offset in range(settings.FAIRNESS_DAYS_AHEAD + 1)}
    days -= set(Daily.objects.filter(date__in=days, prepared_at__isnull=False)
                .values_list("date", flat=True))
    for day in sorted(days):
        job_enqueue(kind=DAILY_PREPARE, key=day.isoformat())
    return len(days)


def register() -> None:
    games.register(games.FairGame(name=GAME, dailies=_dailies))
