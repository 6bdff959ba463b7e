"""What hand-written SQL needs from Django to run on every database the service supports."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection, connections, router
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


def read_row(model: type[Model], sql: str, parameters: list[Any]) -> Any:
    """The first row of a hand-written read of ``model``'s table, or None, on the database the
    router reads ``model`` from (the replica when this request may read it), on every database.

    For the small reads a frequent request makes: the ORM builds and compiles its query on every
    call, which costs several times the statement itself (a day board's viewer status: 540–570
    µs of CPU through the ORM, 140–160 µs so; docs/OPERATIONS.md, "A seventeenth machine"). The
    parameters are the database's values (``db_value``: SQLite takes a UUID only as text).
    """
    with connections[router.db_for_read(model)].cursor() as cursor:
        cursor.execute(sql, parameters)
        return cursor.fetchone()


def _inserted_fields(model: type[Model]) -> list[Field]:
    """The fields an insert of ``model`` gives: all its columns but an automatic key, which
    the database numbers (as the ORM leaves it out of its inserts)."""
    return [field for field in model._meta.concrete_fields
            if field is not model._meta.auto_field]


def insert_sql(model: type[Model]) -> str:
    """``INSERT INTO`` ``model``'s table, one ``%s`` a column, in the order ``insert_values``
    gives them: for a statement that inserts rows of several tables at once."""
    fields = _inserted_fields(model)
    columns = ", ".join(f'"{field.column}"' for field in fields)
    return (f'INSERT INTO "{model._meta.db_table}" ({columns}) '
            f'VALUES ({", ".join(["%s"] * len(fields))})')


def insert_values(instance: Model) -> list[Any]:
    """The values ``insert_sql`` takes for ``instance``, as the ORM's insert makes them: each
    field's ``pre_save`` (an ``auto_now`` field sets its time on the instance), then its value
    for the database."""
    return [field.get_db_prep_save(field.pre_save(instance, True), connection)
            for field in _inserted_fields(type(instance))]
