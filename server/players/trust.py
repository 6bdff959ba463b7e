"""Which accounts are trusted with what others can see: one rule for every board.

An account is *established* at a moment once it was claimed (a username and password) at least
``TRUSTED_AFTER`` before it. A guest made in a second has nothing to lose, so results that
others compare - the daily boards' ranks, the ratings board - count only established
accounts: a board that can be climbed with fresh guests is not a board.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.players.models import Player

TRUSTED_AFTER = timedelta(hours=24)


def established_at(player: Player, at: datetime) -> bool:
    """Whether ``player`` had been claimed for at least ``TRUSTED_AFTER`` at ``at``."""
    return player.claimed_at is not None and player.claimed_at <= at - TRUSTED_AFTER
