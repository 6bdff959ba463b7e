"""What the ORM's reads need to stay cheap on a frequent request."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import QuerySet

_Row = TypeVar("_Row")


def one_or_none(queryset: QuerySet[Any, _Row]) -> _Row | None:
    """The one row of ``queryset``, which filters on a key or on unique fields, or None.

    ``first()`` without the ORDER BY it adds (the model's ordering, or the key): a query that
    can find one row at most needs no order, and compiling one costs more than running the
    whole read when the query selects many columns (Django hashes every selected column
    against the ordering). A match read with its players, invitee and rematch (the match page's):
    3.0–4.0 ms of CPU with ``first()``, 1.7–2.6 ms without the order (docs/OPERATIONS.md,
    "A seventeenth machine: reads of one row without an order").
    """
    found = list(queryset.order_by()[:1])
    return found[0] if found else None
