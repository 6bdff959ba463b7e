"""What hand-written SQL needs from Django to run on every database the service supports."""

from __future__ import annotations

import psycopg
from django.db import connection


def db_value(model, field: str, value):
    """``value`` as the database driver wants it for ``model.field``: a hand-written statement
    bypasses the ORM's conversions, and drivers differ (SQLite's takes a UUID only as text)."""
    return model._meta.get_field(field).get_db_prep_value(value, connection)


def execute_prepared(sql: str, parameters: list):
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
