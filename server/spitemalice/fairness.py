"""Spite & Malice's part of the fairness log (docs/FAIRNESS.md): its dailies as the log reads
them and committed ahead by the housekeeping; a match's server seed committed at its creation
and mixed with the players' client seeds into the match seed."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import date, timedelta

from django.conf import settings
from django.db.models import Min

from fairness import deal_seed
from server.dailies.calendar import utc_today
from server.fairness import games, services
from server.fairness.models import SeedCommitment
from server.spitemalice.models import Daily, Match
from spitemalice import deal, game_seed

GAME = "spitemalice"


def daily_deck(seed: str) -> list[str]:
    """The deal of a daily's first (only) game, as served."""
    return [str(card) for card in deal(game_seed(bytes.fromhex(seed), 0))]


def _dailies(days: Iterable[date]) -> dict[date, games.DailyDeal]:
    days = list(days)
    first_played = dict(Match.objects.filter(mode=Match.Mode.DAILY, daily__in=days)
                        .values("daily").annotate(first=Min("created_at"))
                        .values_list("daily", "first"))
    return {daily.date: games.DailyDeal(attempt=0, seed=daily.seed, deck=daily_deck(daily.seed),
                                        first_played_at=first_played.get(daily.date))
            for daily in Daily.objects.filter(date__in=days)}


def daily_commit(daily: Daily) -> None:
    services.daily_commit(game=GAME, day=daily.date, attempt=0, seed=daily.seed)


def dailies_ahead() -> int:
    """The housekeeping: deal and commit the dailies from today to ``FAIRNESS_DAYS_AHEAD``
    days on that are not committed yet; returns how many it committed."""
    from server.fairness.models import LogEntry
    from server.spitemalice.services import daily_get_or_create

    today = utc_today()
    days = [today + timedelta(days=offset) for offset in range(settings.FAIRNESS_DAYS_AHEAD + 1)]
    done = set(LogEntry.objects.filter(kind=LogEntry.Kind.DAILY, game=GAME,
                                       subject__in=[day.isoformat() for day in days])
               .values_list("subject", flat=True))
    missing = [day for day in days if day.isoformat() not in done]
    for day in missing:
        daily_commit(daily_get_or_create(day))
    return len(missing)


def match_subject(match: Match) -> str:
    return f"match/{match.pk}"


def match_commit(match: Match, client_seeds: list[str | None]) -> SeedCommitment:
    """A fresh server seed for ``match`` (being created), committed before any card is dealt;
    seat 0's client seed (random if it sent none) and seat 1's ``None``: the bot's for good,
    a person's until they join."""
    first, *rest = client_seeds
    return services.seeds_commit(game=GAME, subject=match_subject(match),
                                 client_seeds=[services.client_seed_or_random(first), *rest])


def offer_commit(match_id: uuid.UUID) -> SeedCommitment:
    """A fresh server seed for the bot match that will have ``match_id``, committed before
    the player has sent a client seed: both seats' are still ``None``."""
    return services.seeds_commit(game=GAME, subject=f"match/{match_id}", client_seeds=[None, None])


def offer_take(seeds: SeedCommitment, client_seed: str) -> bytes:
    """The offered seeds with seat 0's ``client_seed``, sent after it saw their commitment;
    the match seed they give."""
    services.client_seed_set(seeds=seeds, seat=0, client_seed=client_seed)
    return match_seed(seeds)


def match_seed(seeds: SeedCommitment) -> bytes:
    """The match seed: HMAC(server seed, the client seeds in seat order)."""
    return deal_seed(seeds.server_seed, seeds.client_seeds)


def match_join(match: Match, client_seed: str | None) -> bytes | None:
    """Seat 1's client seed (random if it sent none) added to the waiting ``match``'s, and
    the match seed they give; None for a match made before its seeds were committed."""
    seeds = services.seeds_of(game=GAME, subject=match_subject(match), lock=True)
    if seeds is None:
        return None
    services.client_seed_set(seeds=seeds, seat=1, client_seed=client_seed)
    return match_seed(seeds)


def match_fairness(match: Match) -> dict | None:
    """What a match shows of its fairness: the commitment from its creation on; the server
    seed and client seeds once it is over (every game's seed derives from them)."""
    if match.mode == Match.Mode.DAILY:
        return None
    seeds = services.seeds_of(game=GAME, subject=match_subject(match))
    return services.seeds_output(seeds, revealed=match.is_over)


def register() -> None:
    games.register(games.FairGame(name=GAME, dailies=_dailies))
