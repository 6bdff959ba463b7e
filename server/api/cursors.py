"""What the API's keyset cursors share: moments written as microseconds since 1970 (UTC), and
one ``400 invalid`` for text that is not a cursor.

Every list that pages by place (boards, ratings, games, matches, seeks) publishes its cursor's
pattern in the schema, so every string of the pattern is a place and anything else is refused
the same way, naming the ``cursor`` field.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from server.api.problems import InvalidRequest

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
NEXT = "`next`"
NEXT_OR_PREVIOUS = "`next` or `previous`"


def micros_of(moment: datetime) -> int:
    """``moment`` as whole microseconds since 1970 (UTC), as a cursor writes it."""
    return (moment - EPOCH) // _MICROSECOND


def moment_of(micros: int | str) -> datetime:
    """The moment a cursor's microseconds since 1970 name."""
    return EPOCH + int(micros) * _MICROSECOND


def not_a_cursor(links: str = NEXT) -> InvalidRequest:
    """The refusal of a cursor that no ``links`` link (``NEXT`` or ``NEXT_OR_PREVIOUS``) could
    have carried."""
    message = f"Not a cursor from a {links} link."
    return InvalidRequest(f"cursor: {message}", errors=[{"field": "cursor", "message": message}])


def cursor_parts(text: str, pattern: re.Pattern, links: str = NEXT) -> list[str]:
    """The dot-separated parts of ``text`` if it matches ``pattern``; else the 400."""
    if not pattern.fullmatch(text):
        raise not_a_cursor(links)
    return text.split(".")
