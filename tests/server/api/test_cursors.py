"""The keyset helper every list that pages by place shares (``server.api.cursors.Keyset``):
its cursor text both ways, the refusals, and the ranges it reads after a place. The lists'
own paging is tested with them (matches, seeks, boards, ratings)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest
from django.db.models import Q

from server.api.cursors import Place
from server.api.problems import InvalidRequest
from server.ratings.selectors import KEYSET as RATINGS
from server.spitemalice.selectors import MATCH_KEYSET as BOTH_WAYS

# The lists' own keysets stand for the two kinds: RATINGS pages one way with a flag and an
# exact double in its order, BOTH_WAYS (a player's matches) links next and previous.

ROW_ID = UUID("0123456789abcdef0123456789abcdef")
MOMENT_AT = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)


def test_a_cursor_reads_back_as_the_place_it_was_written_from() -> None:
    place = Place((1, MOMENT_AT, ROW_ID), backwards=True)
    text = BOTH_WAYS.encode(place)
    assert text == f"p1.1772366400123456.{ROW_ID.hex}"
    assert BOTH_WAYS.decode(text) == place
    assert BOTH_WAYS.decode("n" + text[1:]) == Place(place.values, backwards=False)


def test_an_exact_rating_survives_its_cursor() -> None:
    place = Place((False, 1512.3456789012345, ROW_ID))
    assert RATINGS.decode(RATINGS.encode(place)) == place


@pytest.mark.parametrize("text", [
    "n1.5",  # not the pattern
    f"x1.5.{ROW_ID.hex}",  # another direction
    f"0.7ff8000000000000.{ROW_ID.hex}",  # the pattern's, but a NaN rating
])
def test_text_that_names_no_place_is_the_shared_refusal(text: str) -> None:
    keyset = RATINGS if text.startswith("0.") else BOTH_WAYS
    with pytest.raises(InvalidRequest) as refused:
        keyset.decode(text)
    assert refused.value.extra["errors"] == [{"field": "cursor", "message": (
        f"Not a cursor from a {keyset.links} link.")}]


def test_the_order_and_its_reverse() -> None:
    assert BOTH_WAYS.order_by() == ["-waiting", "-updated_at", "-id"]
    assert BOTH_WAYS.order_by(backwards=True) == ["waiting", "updated_at", "id"]


def test_the_ranges_after_a_place_come_in_the_lists_order() -> None:
    assert RATINGS.ranges_after((False, 1500.0, ROW_ID)) == [
        Q(provisional=False, rating=1500.0, player_id__gt=ROW_ID),
        Q(provisional=False, rating__lt=1500.0),
        Q(provisional__gt=False),
    ]


def test_nothing_lies_past_the_last_value_of_a_boolean() -> None:
    assert RATINGS.ranges_after((True, 1500.0, ROW_ID)) == [
        Q(provisional=True, rating=1500.0, player_id__gt=ROW_ID),
        Q(provisional=True, rating__lt=1500.0),
    ]


def test_before_a_place_is_the_other_way_on_every_key() -> None:
    assert BOTH_WAYS.before((1, MOMENT_AT, ROW_ID)) == (
        Q(waiting=1, updated_at=MOMENT_AT, id__gt=ROW_ID)
        | Q(waiting=1, updated_at__gt=MOMENT_AT) | Q(waiting__gt=1))
