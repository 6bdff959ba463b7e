"""Glicko-2, as the ``glicko2`` package (Ryan Kirkman's implementation) computes it.

Nothing here does rating arithmetic of its own: these functions hand the library a player's
stored values and read back what it computed. The parameters are Glickman's suggested ones,
which are the library's defaults: a new player is 1500 with a deviation (RD) of 350 and a
volatility of 0.06; the system constant tau is the library's 0.5.

Each rated match is a rating period of its own, with one result in it (docs/RATINGS.md).
Time without a match counts too: every full ``IDLE_PERIOD`` since a player's last rated match
is a period in which they did not compete (Glicko-2's step 6, the library's
``did_not_compete``), which widens the deviation by the volatility, up to ``MAX_DEVIATION``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import glicko2

INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
MAX_DEVIATION = INITIAL_DEVIATION  # an idle player is never less known than a new one
IDLE_PERIOD = timedelta(days=7)
# Enough to take any deviation back to MAX_DEVIATION (about 1,100 weeks from 50), so the
# loop below stays short for an account idle since the epoch.
MAX_IDLE_PERIODS = 2000


@dataclass(frozen=True)
class Glicko:
    rating: float
    deviation: float
    volatility: float


NEW = Glicko(INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY)


def _player(values: Glicko) -> glicko2.Player:
    return glicko2.Player(rating=values.rating, rd=values.deviation, vol=values.volatility)


def _values(player: glicko2.Player) -> Glicko:
    return Glicko(player.rating, player.rd, player.vol)


def idle_periods(idle: timedelta) -> int:
    """The whole rating periods without a match in ``idle`` (none if negative)."""
    return max(0, min(idle // IDLE_PERIOD, MAX_IDLE_PERIODS))


def after_idle(values: Glicko, periods: int) -> Glicko:
    """``values`` after ``periods`` rating periods without a match."""
    player = _player(values)
    for _ in range(periods):
        if player.rd >= MAX_DEVIATION:
            break
        player.did_not_compete()
    result = _values(player)
    if result.deviation > MAX_DEVIATION:
        result = Glicko(result.rating, MAX_DEVIATION, result.volatility)
    return result


def after_match(player: Glicko, opponent: Glicko, score: float) -> Glicko:
    """``player`` after one rating period holding one result against ``opponent`` (both as
    they stood before the match): ``score`` 1 a win, 0.5 a draw, 0 a loss."""
    rated = _player(player)
    rated.update_player([opponent.rating], [opponent.deviation], [score])
    return _values(rated)


def weighted(before: Glicko, after: Glicko, weight: float) -> Glicko:
    """A result whose rating change counts for ``weight`` (0-1) of the library's: the rating
    moves that share of the way from ``before`` to ``after``; the deviation and volatility are
    the library's (what was learnt of the player: Glicko already learns less from an opponent
    with a wide deviation). ``server.ratings.services.result_weight`` says when."""
    if weight >= 1:
        return after
    return Glicko(before.rating + weight * (after.rating - before.rating), after.deviation,
                  after.volatility)
