"""What hand-written SQL needs from Django to run on every database the service supports."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection
from django.db.models import Field, Model


def db_value(model: type[Model], field: str, value: object) -> Any:
    """``value`` as the database driver wants it for ``model.field``: a hand-written statement
    bypasses the ORM's conversions, and drivers differ (SQLite's takes a UUID only as text)."""
    found = model._meta.get_field(field)
    if not isinstance(found, Field):  # a reverse relation or a generic key: no column
        raise TypeError(f"{model.__name__}.{field} is not a concrete field")
    return found.get_db_prep_value(value, connection)


# Any: a row's columns differ by statement, and the callers whose statement always returns
# a row unpack it directly (None only for a statement that can return no row).
def execute_prepared(sql: str, parameters: list[Any]) -> Any:
    """Run a hot path's statement and return its one row (PostgreSQL only).

    Prepared: PostgreSQL parses and plans it once per connection, not once per request. Django's
    cursors bind parameters on the client, which rules that out, so it runs on psycopg's own
    (server-side binding) cursor over Django's connection, in its transaction if one is open,
    with Django's translation of driver errors (a database outage stays a 503). Not prepared
    when the connection prepares nothing (``DATABASE_PREPARED_STATEMENTS=false``: a pooler that
    cannot keep prepared statements).
    """
    connection.ensure_connection()
    prepare = connection.connection.prepare_threshold is not None
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, parameters, prepare=prepare)
        return cursor.fetchone()
