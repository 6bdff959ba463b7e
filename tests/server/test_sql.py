"""Hand-written statements (server.core.sql): prepared once per connection, unless the
connection prepares nothing (DATABASE_PREPARED_STATEMENTS=false, behind a pooler)."""

from __future__ import annotations

import pytest
from django.db import connection

from server.core.sql import execute_prepared

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]


def _prepared(marker: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
                       [f"%{marker}%"])
        return cursor.fetchone()[0]


def test_a_statement_is_prepared_unless_the_connection_prepares_nothing():
    connection.ensure_connection()
    driver = connection.connection
    threshold = driver.prepare_threshold
    try:
        driver.prepare_threshold = None
        assert execute_prepared("SELECT %s::int + 1 AS unprepared_marker", [1]) == (2,)
        assert _prepared("unprepared_marker") == 0

        driver.prepare_threshold = 5
        assert execute_prepared("SELECT %s::int + 1 AS prepared_marker", [1]) == (2,)
        assert _prepared("prepared_marker") == 1
    finally:
        driver.prepare_threshold = threshold
