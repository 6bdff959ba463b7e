"""Session-wide test setup.

The server's tests run against PostgreSQL, as production does. The modules marked ``sqlite``
run again against SQLite, the embedded default that `make run` serves (`make test-sqlite`
picks them with ``-m sqlite``; `make test` runs both passes):
those that reach code which differs by database (row locks, hand-written SQL, a branch on the
database's vendor, migrations that rewrite rows). The rest (the schema's, the contract's, the
hostile inputs', the engines') would only repeat themselves there. Within a ``sqlite`` module, a
test that pins PostgreSQL's own behaviour (row locks under threads, the prepared statements of
the move fast path, query plans) is marked ``postgresql`` and left out of the SQLite run, which
says how many it left out.

A run that would touch the database checks it first and aborts at once with a message that
says how to fix it: it never falls back to another database than the one named. Tests that
need no database (the engines') don't trigger the check.
"""

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests import migrated_template

# The property tests draw the same examples on every run (derived from each test's name), so a
# run that fails fails again on any machine; HYPOTHESIS_PROFILE=explore draws fresh ones each
# run and keeps what it found in .hypothesis/, for hunting new failures on purpose.
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

_HOW_TO_FIX = (
    "Run `make test`, which sets DATABASE_URL=postgres://postgres@127.0.0.1:5432/test "
    "(`make test TEST_DATABASE_URL=postgres://USER@HOST:PORT/NAME` picks another server) "
    "for the PostgreSQL run and DATABASE_URL=sqlite:///... for the SQLite one, "
    "or set DATABASE_URL yourself"
)


def _engine() -> str:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"]


def on_sqlite() -> bool:
    return _engine() == "django.db.backends.sqlite3"


@functools.cache
def _database_problem() -> str | None:
    """Why the configured database can't run the server's tests, or None if it can."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if on_sqlite():
        # Only when asked for by name: a run without DATABASE_URL would otherwise test the
        # developer's own data/ file's settings without saying so.
        if not os.environ.get("DATABASE_URL", "").startswith("sqlite:"):
            return (f"The server's tests need a database named by DATABASE_URL, but none is "
                    f"set (the default would be {database['NAME']}). {_HOW_TO_FIX}.")
        return None
    if _engine() != "django.db.backends.postgresql":
        return (f"The server's tests run on PostgreSQL or SQLite, not {_engine()}. "
                f"{_HOW_TO_FIX}.")
    import psycopg

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


def worker_suffix() -> str:
    """``_gw0``, ``_gw1``, … in a parallel run's workers (pytest-xdist), else nothing: each
    worker's test database is its own, as pytest-django names it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"_{worker}" if worker else ""


def require_database() -> None:
    problem = _database_problem()
    if problem:
        pytest.exit(problem, returncode=3)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sqlite: reaches code that differs by database (locks, hand-written SQL, vendor "
        "branches, migrations); runs again on SQLite",
    )
    config.addinivalue_line(
        "markers",
        "postgresql: pins PostgreSQL's own behaviour (row locks, prepared statements, plans); "
        "left out of the SQLite run",
    )
    config.addinivalue_line(
        "markers",
        "long: takes 15 s or more (a test, or a file's tests together), mostly waiting on real "
        "servers; started first, so no worker is left running one alone at the end",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Fail before the first test rather than midway, when the run is going to need the database.
    if any(item.get_closest_marker("django_db") for item in items):
        require_database()
    # The longest tests first (marked `long`), the rest in their files' order: the workers
    # take tests (the Python passes: whole files) in this order as they free up, so a long one
    # started last would run on alone while the others sit idle. Stable, so the same order in
    # every worker, as pytest-xdist requires.
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if on_sqlite():
        left_out = [item for item in items if item.get_closest_marker("postgresql")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("postgresql")]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> Iterator[None]:
    # pytest-django calls this before it creates the test database, whichever way a test asked
    # for database access.
    require_database()
    if on_sqlite():
        # A file, as `make run` uses, not SQLite's in-memory test database: in memory,
        # connections share one cache whose table locks fail at once instead of waiting, so
        # simultaneous requests would see errors that the real server never gives.
        from django.conf import settings

        database = settings.DATABASES["default"]
        test_name = f"{database['NAME']}.test{worker_suffix()}"
        database.setdefault("TEST", {})["NAME"] = test_name
        # A copy of the run's one migrated file, kept as it is by `django_db_keepdb` below.
        migrated_template.sqlite_copy(migrated_template.sqlite_template(test_name), test_name)
        yield
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{test_name}{suffix}").unlink(missing_ok=True)
        return
    # Each worker's database is made from the migrated template: migrate finds nothing to do.
    from django.conf import settings

    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["TEMPLATE"] = migrated_template.postgresql_template(database)
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker) -> Iterator[None]:
    """pytest-django's own, with the worker's PostgreSQL database freed before it is dropped.
    A worker's last tests may kill real servers on purpose; PostgreSQL can still be ending
    their backends when pytest-django drops the database, which then fails with "is being
    accessed by other users" (a warning at the end of the run, and a database left behind
    until the next run copies it again). Whatever is still connected is ended first."""
    yield
    if on_sqlite():
        return
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all(initialized_only=True):
            if connection.vendor != "postgresql" or connection.settings_dict.get(
                    "TEST", {}).get("MIRROR"):
                continue
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture(scope="session")
def django_db_keepdb(django_db_keepdb: bool) -> bool:
    """On SQLite the worker's database is the template's copy, made before pytest-django
    looks: kept as it is, not made again empty (and removed by django_db_modify_db_settings)."""
    return django_db_keepdb or on_sqlite()


@pytest.fixture(autouse=True)
def _quick_password_hashes(settings) -> None:
    """Passwords hashed with a quick hasher, as Django advises for tests: the real one
    (PBKDF2, a million rounds) is slow by design, and sign-ins run in hundreds of tests. What
    the tests check (a password is stored hashed, checked, refused) holds for any hasher; the
    servers that tests start in a subprocess keep the real one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _flush_quickly_and_again_after_a_deadlock():
    """A transactional test's database is emptied after it (``flush``). On PostgreSQL the rows
    are deleted from the tables that hold any (``tests.emptied``: a tenth of TRUNCATE's time);
    a flush that resets sequences, and SQLite's, are Django's own.

    The file's live test server, a process of its own that runs between tests by design, may
    be reading meanwhile: its clock thread's passes every 2 s. PostgreSQL ends one side of such
    a deadlock; when that is the emptying, it ran in a transaction that was rolled back, and is
    simply run again (the test under it had passed, and the next one needs an empty database)."""
    import time

    from django.core.management.base import CommandError
    from django.core.management.commands import flush
    from django.db import OperationalError, connections

    from tests import emptied

    original = flush.Command.handle

    def handle(self, **options):
        connection = connections[options["database"]]
        quick = connection.vendor == "postgresql" and not options.get("reset_sequences") \
            and not options.get("allow_cascade")
        for attempt in range(5):
            try:
                if quick:
                    emptied.empty(connection)
                    return None
                return original(self, **options)
            except (CommandError, OperationalError) as error:
                cause = error.__cause__ if isinstance(error, CommandError) else error
                if not (isinstance(cause, OperationalError) and "deadlock" in str(cause)) \
                        or attempt == 4:
                    raise
                time.sleep(0.1 * (attempt + 1))
        return None

    flush.Command.handle = handle
    yield
    flush.Command.handle = original


@pytest.fixture(autouse=True, scope="session")
def _background_jobs_off():
    """No background thread in tests: a job stays pending until a test runs it with
    ``job_run`` (the server's tests), or for good (the browser's). A test that wants the
    runner turns it on with the ``settings`` fixture, for itself only.

    For the whole session, not test by test: the live server's threads serve a request that
    arrives between two tests (a page's last call as its test ends) with the session's
    settings, and a runner started then would outlive its test and keep running housekeeping
    (a daily dealt and proven on the next test's fresh database, which then cannot set up the
    daily it means to). Nor does the housekeeping deal dailies ahead for a runner a test turns
    on (the fairness tests ask for that themselves), nor queue the house bot's levels' games
    (seconds of play that would outlive the test: their tests ask for them)."""
    from django.test import override_settings

    overridden = override_settings(FOURSQUARE_BACKGROUND="off", FAIRNESS_DAYS_AHEAD=-1,
                                   SPITE_MALICE_LEVELS_PLAY=False)
    overridden.enable()
    yield
    overridden.disable()


@pytest.fixture(autouse=True, scope="session")
def _static_files_from_the_sources(tmp_path_factory):
    """The tests serve frontend/ as it is, through the static finders: never the files that a
    `make run` in this checkout collected into staticfiles/ (older, and under hashed names)."""
    from django.test import override_settings

    nowhere = tmp_path_factory.getbasetemp() / "no-collected-static"
    overridden = override_settings(STATIC_ROOT=nowhere)
    overridden.enable()
    yield
    overridden.disable()
