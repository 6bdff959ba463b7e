"""Foursquare's part of the fairness log: its dailies as the log reads them, and the
housekeeping that prepares and commits them ahead (docs/FAIRNESS.md)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from django.conf import settings
from django.db.models import Min

from fairness import deal_seed
from server.dailies.calendar import utc_today
from server.fairness import games, services
from server.foursquare import dailies
from server.foursquare.models import Daily, Game, Race

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


# --- Races: one server seed committed at creation, mixed with each racer's client seed ------

def race_subject(race: Race) -> str:
    return f"race/{race.pk}"


def race_commit(race: Race, host_client_seed: str | None) -> None:
    """A fresh server seed for the race being created, committed before any card is dealt.
    While it waits, its client seeds are kept as [player id, seed] pairs in joining order."""
    services.seeds_commit(game=GAME, subject=race_subject(race), client_seeds=[
        [str(race.host_id), services.client_seed_or_random(host_client_seed)]])


def race_client_seed_add(race: Race, player, client_seed: str | None) -> None:
    seeds = services.seeds_of(game=GAME, subject=race_subject(race), lock=True)
    if seeds is None:
        return  # a race made before its seeds were committed
    pairs = [pair for pair in seeds.client_seeds if pair[0] != str(player.pk)]
    seeds.client_seeds = [*pairs, [str(player.pk), services.client_seed_or_random(client_seed)]]
    seeds.save(update_fields=["client_seeds"])


def race_deal_seed(race: Race, player_ids: list) -> bytes | None:
    """The race's deal seed: HMAC(server seed, the racers' client seeds in seat order, the
    order they took their seats); the seeds are kept in that order from now on. None for a
    race made before its seeds were committed."""
    seeds = services.seeds_of(game=GAME, subject=race_subject(race), lock=True)
    if seeds is None:
        return None
    given = {pair[0]: pair[1] for pair in seeds.client_seeds}
    seeds.client_seeds = [given.get(str(pk)) or services.client_seed_or_random(None)
                          for pk in player_ids]
    seeds.save(update_fields=["client_seeds"])
    return deal_seed(seeds.server_seed, seeds.client_seeds)


def race_fairness(race: Race) -> dict | None:
    """The race's commitment; its seeds only with its ranking, once it has finished."""
    seeds = services.seeds_of(game=GAME, subject=race_subject(race))
    return services.seeds_output(seeds, revealed=race.status == Race.Status.FINISHED)
