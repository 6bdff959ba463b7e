"""What the API's keyset cursors share: moments written as microseconds since 1970 (UTC), one
``400 invalid`` for text that is not a cursor, and ``Keyset``, the one helper that pages a list
by place.

Every list that pages by place (boards, ratings, matches, seeks) declares its order as a
``Keyset``: the fields, their directions and how a cursor writes each. It reads and writes the
cursor, filters the rows after (or before) a place, and reads a page with its ``next`` and
``previous`` places. Each list publishes its cursor's pattern in the schema, so every string of
the pattern is a place and anything else is refused the same way, naming the ``cursor`` field.
(``GET /games`` and races page with DRF's own cursor pagination, by moment and an offset among
the games of that moment, ``server.foursquare.pagination``; it shares the refusal.)
"""

from __future__ import annotations

import math
import operator
import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import reduce
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.db.models import Model, Q, QuerySet

from server.api.problems import InvalidRequest

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
NEXT = "`next`"
NEXT_OR_PREVIOUS = "`next` or `previous`"
Row = TypeVar("Row", bound=Model)


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


# --- Keyset pages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Codec:
    """How a cursor writes one value of a place, and reads it back. ``read`` raises
    ``ValueError`` for text the pattern lets through that names no value (a NaN rating)."""

    write: Callable[[Any], str]
    read: Callable[[str], Any]


def _double_of(text: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(text))[0]
    if not math.isfinite(value):
        raise ValueError(text)
    return value


INTEGER = Codec(str, int)
# Microseconds since 1970 (UTC).
MOMENT = Codec(lambda value: str(micros_of(value)), moment_of)
# A UUID as 32 hex digits.
UUID_HEX = Codec(lambda value: value.hex, UUID)
# An exact float: its IEEE 754 double, 16 hex digits (a rating, compared exactly).
DOUBLE_HEX = Codec(lambda value: struct.pack(">d", value).hex(), _double_of)
# False as 0, True as 1.
BOOLEAN = Codec(lambda value: str(int(value)), lambda text: text == "1")


@dataclass(frozen=True)
class Key:
    """One field of a keyset order: its name on the rows (and in the query), its direction,
    and how a cursor writes it."""

    field: str
    codec: Codec
    descending: bool = False


@dataclass(frozen=True)
class Place:
    """A place in a keyset order: the values of the row there, one per key; and whether the
    page it leads to lies before it (a ``previous`` link) or after it."""

    values: tuple[Any, ...]
    backwards: bool = False


@dataclass
class KeysetPage(Generic[Row]):
    """Up to ``limit`` rows, and the places of the pages after and before them (None where
    no row is)."""

    rows: list[Row]
    next: Place | None
    previous: Place | None


@dataclass(frozen=True)
class Keyset:
    """A list ordered by ``keys``, the last of them unique, paged by place: a page is the rows
    strictly after (or, ``backwards``, strictly before) a place, so a row that moves or
    appears while a client pages shifts none of the pages that follow, as an offset would.

    Its cursor is the place's values, each written by its key's codec and joined by dots,
    matching ``pattern`` (the one the OpenAPI document publishes for the list's ``cursor``);
    with ``links=NEXT_OR_PREVIOUS`` led by ``n`` (the page after it) or ``p`` (the page
    before). Every other text is the shared ``400 invalid``."""

    pattern: str
    keys: tuple[Key, ...]
    links: str = NEXT

    @property
    def both_ways(self) -> bool:
        return self.links == NEXT_OR_PREVIOUS

    # The cursor's text.

    def encode(self, place: Place) -> str:
        text = ".".join(key.codec.write(value)
                        for key, value in zip(self.keys, place.values, strict=True))
        if self.both_ways:
            return ("p" if place.backwards else "n") + text
        return text

    def decode(self, text: str) -> Place:
        """The place a ``next`` (or ``previous``) link's cursor names; anything else is 400."""
        if not re.fullmatch(self.pattern, text):
            raise not_a_cursor(self.links)
        backwards = self.both_ways and text[0] == "p"
        parts = (text[1:] if self.both_ways else text).split(".")
        try:
            values = tuple(key.codec.read(part)
                           for key, part in zip(self.keys, parts, strict=True))
        except ValueError:
            raise not_a_cursor(self.links) from None
        return Place(values, backwards)

    # The order and the filters.

    def order_by(self, *, backwards: bool = False) -> list[str]:
        """The list's ``order_by`` (or, ``backwards``, its reverse)."""
        return [("-" if key.descending != backwards else "") + key.field for key in self.keys]

    def place_of(self, row: Any, *, backwards: bool = False) -> Place:
        return Place(tuple(getattr(row, key.field) for key in self.keys), backwards)

    def ranges_after(self, values: Sequence[Any]) -> list[Q]:
        """The rows after ``values`` in the list's order, as ranges in that order: the rows
        level with it on every key but the last and past it on that one, then level on all
        but the last two and past it on the one before, and so on. Each is one range of an
        index on the keys; a key's range past the end of its values (a boolean's) is left
        out."""
        return self._ranges(values, after=True)

    def after(self, values: Sequence[Any]) -> Q:
        """The rows strictly after ``values`` in the list's order."""
        return _any(self._ranges(values, after=True))

    def before(self, values: Sequence[Any]) -> Q:
        """The rows strictly before ``values`` in the list's order."""
        return _any(self._ranges(values, after=False))

    def _ranges(self, values: Sequence[Any], *, after: bool) -> list[Q]:
        ranges = []
        for depth in range(len(self.keys) - 1, -1, -1):
            key, value = self.keys[depth], values[depth]
            later = "lt" if key.descending == after else "gt"
            if isinstance(value, bool) and value == (later == "gt"):
                continue  # nothing lies past True going up, nor past False going down
            level = {self.keys[index].field: values[index] for index in range(depth)}
            ranges.append(Q(**level, **{f"{key.field}__{later}": value}))
        return ranges

    # A page.

    def page(self, ordered: QuerySet[Row], *, limit: int, cursor: Place | None = None,
             offset: int = 0) -> KeysetPage[Row]:
        """Up to ``limit`` rows of ``ordered`` (already in this order) after (or before)
        ``cursor``, else from ``offset`` (the first page at 0), and the places of the pages
        after and before them. One query for a list with only ``next`` links; one more, for
        the other way, with ``previous`` ones."""
        if cursor is not None and cursor.backwards:
            rows = list(ordered.filter(self.before(cursor.values))
                        .order_by(*self.order_by(backwards=True))[:limit + 1])
            before = len(rows) > limit
            rows = rows[:limit][::-1]
            after = bool(rows) and ordered.filter(
                self.after(self.place_of(rows[-1]).values)).exists()
        else:
            page = (ordered.filter(self.after(cursor.values)) if cursor is not None
                    else ordered[offset:])
            rows = list(page[:limit + 1])
            after = len(rows) > limit
            rows = rows[:limit]
            before = (self.both_ways and bool(rows) and (cursor is not None or offset > 0)
                      and ordered.filter(self.before(self.place_of(rows[0]).values)).exists())
        return KeysetPage(
            rows=rows,
            next=self.place_of(rows[-1]) if after else None,
            previous=self.place_of(rows[0], backwards=True) if before else None)


def _any(ranges: list[Q]) -> Q:
    """Any of ``ranges``; none matches no row."""
    return reduce(operator.or_, ranges) if ranges else Q(pk__in=[])
