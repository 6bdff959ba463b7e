"""Session-wide test setup.

The server's tests run against PostgreSQL, as production does: SQLite locks, orders and checks
constraints differently, so a green run on SQLite would prove little. A run that would touch the
database aborts at once with a message that says how to fix it; it never falls back to SQLite.
Tests that need no database (the engine's) don't trigger the check.
"""

import functools

import pytest

_HOW_TO_FIX = (
    "Run `make test`, which sets DATABASE_URL=postgres://postgres@127.0.0.1:5432/test "
    "(`make test TEST_DATABASE_URL=postgres://USER@HOST:PORT/NAME` picks another server), "
    "or set DATABASE_URL to a PostgreSQL URL yourself"
)


@functools.cache
def _postgresql_problem() -> str | None:
    """Why the configured database can't run the server's tests, or None if it can."""
    import psycopg
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        return (
            f"The server's tests need PostgreSQL, but the configured database is "
            f"{database['ENGINE']} ({database['NAME']}). {_HOW_TO_FIX}."
        )
    where = f"{database.get('HOST') or 'localhost'}:{database.get('PORT') or 5432}"
    try:
        psycopg.connect(
            dbname=database["NAME"],
            user=database.get("USER") or None,
            password=database.get("PASSWORD") or None,
            host=database.get("HOST") or None,
            port=database.get("PORT") or None,
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        return (
            f"PostgreSQL is not reachable at {where} (database {database['NAME']!r}). "
            "Start it (e.g. `pg_ctlcluster 15 main start`, or `docker compose up -d db`). "
            f"{_HOW_TO_FIX}.\npsycopg said: {' '.join(str(error).split())}"
        )
    return None


def require_postgresql() -> None:
    problem = _postgresql_problem()
    if problem:
        pytest.exit(problem, returncode=3)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Fail before the first test rather than midway, when the run is going to need the database.
    if any(item.get_closest_marker("django_db") for item in items):
        require_postgresql()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    # pytest-django calls this before it creates the test database, whichever way a test asked
    # for database access.
    require_postgresql()



@pytest.fixture(autouse=True)
def _background_jobs_off(settings) -> None:
    """No background thread in tests: a job stays pending until a test runs it with
    ``job_run`` (the server's tests), or for good (the browser's)."""
    settings.FOURSQUARE_BACKGROUND = "off"
