"""What hand-written SQL needs from Django to run on every database the service supports."""

from __future__ import annotations

from django.db import connection


def db_value(model, field: str, value):
    """``value`` as the database driver wants it for ``model.field``: a hand-written statement
    bypasses the ORM's conversions, and drivers differ (SQLite's takes a UUID only as text)."""
    return model._meta.get_field(field).get_db_prep_value(value, connection)
