"""One migrated database that every test database of a run is copied from.

pytest-django makes a test database per xdist worker and migrates each: three workers ran the
same 40 migrations three times at once, in every pass (PostgreSQL's, SQLite's, the browser's),
a first test's setup of 20 s or more on a busy machine. Instead the first worker to need it
migrates one template under a lock, and each worker's database is copied from it:

- **PostgreSQL**: a database named after the test database and a hash of every installed
  app's migrations (``tpl_<name>_<hash>``), kept on the server between runs, so a run whose
  migrations are unchanged migrates nothing; each worker's ``CREATE DATABASE`` names it as
  ``TEMPLATE``, and Django's ``migrate`` then finds every migration applied. Templates of
  other hashes for the same name are dropped when a new one is made.
- **SQLite**: a file beside the test databases (the run's scratch folder under `make
  test-sqlite`), copied to each worker's file.

The hash covers the migration files themselves: on an empty database the data migrations
write nothing, so the schema they leave depends on those files (and Django's own, whose
version is hashed too) alone.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]


def migrations_hash() -> str:
    """A digest of every installed app's migration files and Django's version."""
    import django
    from django.apps import apps

    digest = hashlib.sha256(django.get_version().encode())
    for config in sorted(apps.get_app_configs(), key=lambda config: config.label):
        folder = Path(config.path) / "migrations"
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            digest.update(f"{config.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _migrate(database_url: str) -> None:
    """``manage.py migrate`` on ``database_url``, in a process of its own: the test process's
    connections and settings stay as they are."""
    environment = {**os.environ, "DATABASE_URL": database_url}
    environment.pop("DATABASE_REPLICA_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=REPO_ROOT, env=environment, capture_output=True, text=True, check=False)
    if result.returncode:
        raise RuntimeError(f"migrating the test template failed:\n{result.stdout}{result.stderr}")


def _postgresql_url(database: dict[str, Any], name: str) -> str:
    from urllib.parse import quote

    user = quote(database.get("USER") or "")
    password = quote(database.get("PASSWORD") or "")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = database.get("HOST") or "localhost"
    port = database.get("PORT") or 5432
    return f"postgres://{credentials}{host}:{port}/{name}"


def postgresql_template(database: dict[str, Any]) -> str:
    """The migrated template's name for this PostgreSQL database, made if missing."""
    import psycopg
    from psycopg import sql

    template = f"tpl_{database['NAME']}_{migrations_hash()}"[:63]
    building = f"{template[:54]}_building"
    with psycopg.connect(
        dbname="postgres", user=database.get("USER") or None,
        password=database.get("PASSWORD") or None, host=database.get("HOST") or None,
        port=database.get("PORT") or None, autocommit=True,
    ) as connection:
        # One maker at a time: every worker of every pass on this database name waits here
        # while the first migrates, then finds the template made.
        lock = int(hashlib.sha256(f"tpl_{database['NAME']}".encode()).hexdigest()[:15], 16)
        connection.execute("SELECT pg_advisory_lock(%s)", (lock,))
        try:
            exists = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (template,)).fetchone()
            if not exists:
                # Made under another name and renamed when whole: a run killed while migrating
                # leaves no half-made template behind under the real name.
                connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(
                    sql.Identifier(building)))
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
                _migrate(_postgresql_url(database, building))
                connection.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
                    sql.Identifier(building), sql.Identifier(template)))
                stale = connection.execute(
                    "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s",
                    (f"tpl\\_{database['NAME']}\\_%", template)).fetchall()
                for (name,) in stale:
                    connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(
                        sql.Identifier(name)))
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (lock,))
    return template


def sqlite_template(test_name: str) -> Path:
    """The migrated template file beside the SQLite test database ``test_name``, made if
    missing (one maker at a time, by a lock file beside it)."""
    folder = Path(test_name).resolve().parent
    template = folder / f"template-{migrations_hash()}.sqlite3"
    with (folder / f"{template.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            building = template.with_suffix(".building")
            building.unlink(missing_ok=True)
            _migrate(f"sqlite:///{building}")
            # Whole in one file: what the WAL held written back, and no WAL left to copy.
            with closing(sqlite3.connect(building)) as connection:
                connection.execute("PRAGMA journal_mode=DELETE")
            building.replace(template)
    return template


def sqlite_copy(template: Path, test_name: str) -> None:
    """The worker's test database as a copy of the template (its journal files gone)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{test_name}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(template, test_name)
