"""A race's clock, as each of its sockets keeps it (``consumers.RaceConsumer``): when the race,
as the socket last sent it, next calls for something at an instant of its own, and what.

While the race counts down, its ``starts_at`` is due (the race turns ``playing``); while it is
played, its ``ends_at`` (a race still running then is closed). An instant is due a hair after
it (``MARGIN_SECONDS``), so that the read is past it. Once the clock fired for an instant and
the race has not moved on from it (another process closing it, or this process's clock ahead
of the database's), it is due again after a second, then two, four, … up to
``RETRY_SECONDS``'s longest, until the race shows another instant.

The clock reads the wall time through the ``now`` it is given (``time.time`` by default), and
says how long from now: its tests give it a clock of their own, with no wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

# The retries when the race is not over at ends_at yet: the first after a second, then
# doubling, at most this long apart.
RETRY_SECONDS = (1.0, 30.0)
MARGIN_SECONDS = 0.05  # read just after the instant, so that the read is past it
_RUNNING = ("countdown", "playing")


def instant(text: str | None) -> float | None:
    """An ISO 8601 instant of the API as seconds since 1970."""
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _target(race: Mapping[str, Any]) -> float | None:
    """The instant the race waits for: its end while it is played, else its start."""
    return instant(race.get("ends_at" if race.get("status") == "playing" else "starts_at"))


class RaceClock:
    """The clock of one socket's race: ``due`` says when it next fires and whether that closes
    the race, ``fired`` that it did, ``countdown_over`` whether the race's start has come."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now
        self.fired_for: float | None = None  # the instant the clock last fired for,
        self.fired_at = 0.0  # when (``now()``), and how many times
        self.tries = 0

    def due(self, race: Mapping[str, Any] | None) -> tuple[float | None, bool]:
        """How many seconds from now until ``race`` (as last sent) calls for a read, and
        whether that read closes it: its start while it counts down, its end while it is
        played; again, backing off, while it has not moved on from an instant already fired
        for. (None, False) for a race with nothing to wait for."""
        race = race or {}
        if race.get("status") not in _RUNNING:
            return None, False
        target = _target(race)
        if target is None:
            return None, False
        if target != self.fired_for:
            wall = target + MARGIN_SECONDS
        else:
            first, longest = RETRY_SECONDS
            wall = self.fired_at + min(longest, first * 2 ** (self.tries - 1))
        return max(0.0, wall - self._now()), race.get("status") == "playing"

    def fired(self, race: Mapping[str, Any] | None) -> None:
        """The clock fired for ``race`` (as last sent): a new instant starts its count of
        tries again."""
        target = _target(race or {})
        if target != self.fired_for:
            self.fired_for, self.tries = target, 0
        self.tries += 1
        self.fired_at = self._now()

    def countdown_over(self, race: Mapping[str, Any] | None) -> bool:
        """Whether ``race`` counts down and its ``starts_at`` has come."""
        race = race or {}
        starts_at = instant(race.get("starts_at"))
        return (race.get("status") == "countdown" and starts_at is not None
                and self._now() >= starts_at)
