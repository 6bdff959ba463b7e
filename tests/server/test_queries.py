"""Reads of one row (server.core.queries, server.core.sql.read_row): the row or None, without
the ORDER BY that ``first()`` adds, on every database."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.core.queries import one_or_none
from server.core.sql import db_value, read_row
from server.players.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def test_one_or_none_gives_the_row_or_none_and_asks_for_no_order(make_player):
    player, _ = make_player("Ada")
    make_player("Bob")
    with CaptureQueriesContext(connection) as queries:
        found = one_or_none(Player.objects.filter(pk=player.pk))
        name = one_or_none(Player.objects.filter(pk=player.pk).values_list("name", flat=True))
        missing = one_or_none(Player.objects.filter(name="Nobody"))
    assert (found, name, missing) == (player, "Ada", None)
    assert len(queries) == 3
    assert all("ORDER BY" not in query["sql"] for query in queries.captured_queries)
    # first(), which it stands in for, orders: what the reads of one row leave out.
    with CaptureQueriesContext(connection) as ordered:
        Player.objects.filter(pk=player.pk).first()
    assert "ORDER BY" in ordered.captured_queries[0]["sql"]


def test_read_row_gives_the_first_row_or_none(make_player):
    player, _ = make_player("Ada")
    sql = f'SELECT "name" FROM "{Player._meta.db_table}" WHERE "id" = %s'
    assert read_row(Player, sql, [db_value(Player, "id", player.pk)]) == ("Ada",)
    other, _ = make_player("Bob")
    other.delete()
    assert read_row(Player, sql, [db_value(Player, "id", other.pk)]) is None
