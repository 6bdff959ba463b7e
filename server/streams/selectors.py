"""Reading a player's account events after a number."""

from __future__ import annotations

from typing import Any

from server.streams.models import AccountEvent
from server.streams.services import event_output

EVENTS_PER_PAGE = 100
MAX_AFTER = 10**15


def account_events_after(player_id: Any, after: int, limit: int = EVENTS_PER_PAGE
                         ) -> tuple[list[dict[str, Any]], bool]:
    """The player's events numbered after ``after``, oldest first, at most ``limit``, and
    whether more follow (read as one row past the page)."""
    rows = list(AccountEvent.objects.filter(player_id=player_id, number__gt=after)
                .order_by("number").values_list("number", "kind", "payload", "created_at")
                [:limit + 1])
    return [event_output(*row) for row in rows[:limit]], len(rows) > limit


def account_last(player_id: Any) -> int:
    """The number of the player's latest event (0: none yet)."""
    number = (AccountEvent.objects.filter(player_id=player_id).order_by("-number")
              .values_list("number", flat=True).first())
    return number or 0
