"""Reads on the fairness log: a game's daily commitments with what is revealed of them, and the
log's entries in order."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from server.dailies.calendar import closes_at
from server.fairness.games import DailyDeal, FairGame
from server.fairness.models import LogEntry


@dataclass(frozen=True)
class DailyCommitment:
    game: str
    date: date
    entry: LogEntry
    deal: DailyDeal | None  # as served, if dealt
    revealed: bool  # the date is over everywhere

    @property
    def first_played_at(self) -> datetime | None:
        return None if self.deal is None else self.deal.first_played_at

    @property
    def seed(self) -> str | None:
        """The seed kept with the commitment (the game's own for an older entry)."""
        kept = getattr(self.entry, "seeds", None)
        if kept is not None:
            return kept.server_seed
        return None if self.deal is None else self.deal.seed

    @property
    def late(self) -> bool:
        """Served before it was committed: never hidden."""
        first = self.first_played_at
        return first is not None and first < self.entry.committed_at


def is_revealed(day: date, now: datetime | None = None) -> bool:
    """A daily's seed is published once its date is over everywhere (UTC−12)."""
    return (now or timezone.now()) >= closes_at(day)


def daily_commitments(*, game: FairGame, first: date, last: date, limit: int,
                      now: datetime | None = None) -> tuple[list[DailyCommitment], bool]:
    """The commitments of ``game``'s dailies from ``first`` to ``last``, by date, at most
    ``limit``; and whether more follow."""
    rows = list(LogEntry.objects.select_related("seeds").filter(
        kind=LogEntry.Kind.DAILY, game=game.name, subject__gte=first.isoformat(),
        subject__lte=last.isoformat()).order_by("subject")[:limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    days = [date.fromisoformat(row.subject) for row in rows]
    deals = game.dailies(days)
    return [DailyCommitment(game.name, day, row, deals.get(day), is_revealed(day, now))
            for day, row in zip(days, rows, strict=True)], more


def log_entries(*, after: int, limit: int) -> list[LogEntry]:
    return list(LogEntry.objects.filter(seq__gt=after).order_by("seq")[:limit])
