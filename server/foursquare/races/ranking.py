"""A race's ranking, the one rule every place comes from (docs/API.md, "Foursquare races"):

1. winners first, by score (cards left in the stock) high to low, then by time low to high;
2. then everyone else (lost, or out of time), by cards placed high to low, then by time low to
   high, an out-of-time racer's time being the whole limit;
3. a tie left after that goes to whoever joined first.

Time is ``seconds``: from the race's ``starts_at`` to the game's end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WON = "won"


@dataclass(frozen=True)
class Standing:
    key: object  # whatever the caller ranks (a racer)
    status: str  # won, lost, out_of_time
    score: int | None
    placed: int
    seconds: float
    joined: int  # the order of joining, 0 first


def sort_key(standing: Standing) -> tuple:
    if standing.status == WON:
        return (0, -(standing.score or 0), standing.seconds, standing.joined)
    return (1, -standing.placed, standing.seconds, standing.joined)


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """The standings in ranking order (place 1 first)."""
    return sorted(standings, key=sort_key)


def places(standings: Sequence[Standing]) -> dict:
    """Each standing's key mapped to its place, 1..n, none shared."""
    return {standing.key: place for place, standing in enumerate(ranked(standings), start=1)}
