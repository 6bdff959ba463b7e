"""The real server, as `make run`, the container and production run it, in a subprocess: gunicorn
with uvicorn workers (server.worker) serving the ASGI app (server.asgi) — pages, the API and the
live sockets on one port — for tests that talk to it over real HTTP and WebSocket.

    from tests.asgi_server import asgi_server, database_url

    with asgi_server(database_url=database_url(), redis_url="redis://127.0.0.1:6379/15",
                     log_dir=tmp_path) as server:
        server.base                    # "http://127.0.0.1:<port>"
        server.ws(f"/ws/spite-malice/matches/{match_id}", token=token)  # a connected socket
        server.worker_pids()           # its worker processes (to kill one, say)
        server.log()                   # what it wrote (warnings and errors; each request's
                                       # line too with DJANGO_LOG_LEVEL=INFO in env)

- ``database_url``: the database it serves. In a test that is pytest-django's test database,
  which ``database_url()`` names once the database is set up: use the fixtures with
  ``django_db(transaction=True)`` (``transactional_db``, ``live_server`` does the same), since
  the server sees only committed rows. Rows the test writes through the ORM are then the
  server's too; the test database is flushed after each test, while the server keeps running.
- ``redis_url``: the cache and the channel layer (throttling, presence, the sockets'
  notices), under a key and channel prefix of the server's own (``server.prefix``), so runs
  beside each other on one Redis do not meet. ``None``: the embedded default (a file cache in
  the server's data folder, the in-memory channel layer, each worker's sockets checking the
  feed every second for the others' events).
- The secrets (``SECRET_KEY``, the dailies' secrets) are the test process's, so both deal the
  same dailies; the request limits are off unless ``env`` sets them (``FOURSQUARE_RATE_*``).
- ``collect_static=True`` serves the front end's files collected as `make run` collects them
  (``tests.serving.collected_static``: once per change, shared by every test server), for a
  browser that loads the pages' files; the API and sockets need nothing collected.
- 2 workers by default: a socket and the request that stores its events are often served by
  different processes, as in production.

The browser tests (tests/e2e) use it the same way: ``asgi_server(database_url=database_url(),
redis_url=..., log_dir=tmp_path, collect_static=True)`` inside a test marked
``django_db(transaction=True)``, and point the browser at ``server.base``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.serving import WAIT_SECONDS, collected_static, free_port, stop_group, wait_for_health

REPO_ROOT = Path(__file__).resolve().parents[1]
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def database_url(alias: str = "default") -> str:
    """The URL of the database Django is connected to now (in a test: the test database)."""
    from django.db import connections

    db = connections[alias].settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = db.get("USER") or ""
    if db.get("PASSWORD"):
        auth += f":{db['PASSWORD']}"
    return (f"postgres://{auth}{'@' if auth else ''}{db.get('HOST') or '127.0.0.1'}:"
            f"{db.get('PORT') or 5432}/{db['NAME']}")


def redis_reachable(url: str = TEST_REDIS_URL) -> str | None:
    """None if Redis answers at ``url``, else why not."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as error:
        return f"no Redis at {url} (set TEST_REDIS_URL): {error}"
    return None


@dataclass
class AsgiServer:
    base: str
    process: subprocess.Popen
    log_path: Path
    prefix: str

    @property
    def ws_base(self) -> str:
        return "ws" + self.base.removeprefix("http")

    def ws(self, path: str, *, token: str | None = None, origin: str | None = None,
           timeout: float = WAIT_SECONDS, headers: dict[str, str] | None = None):
        """A connected ``websockets`` client (sync API) on ``path``; ``token`` is sent as the
        handshake's ``Authorization: Bearer`` header, ``origin`` as its Origin, ``headers``
        besides (an ``X-Forwarded-For``, say)."""
        from websockets.sync.client import connect

        headers = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
        return connect(self.ws_base + path, additional_headers=headers, origin=origin,
                       open_timeout=timeout, close_timeout=2, legacy=True)

    def worker_pids(self) -> list[int]:
        """The gunicorn workers' process ids (the master's children)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                    pids.append(int(entry.name))
        return sorted(pids)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def asgi_server(*, database_url: str, redis_url: str | None, log_dir: Path, workers: int = 2,
                threads: int = 4, collect_static: bool = False, prefix: str | None = None,
                env: dict[str, str] | None = None) -> Iterator[AsgiServer]:
    """The server on a free loopback port, answering /healthz; stopped on exit (SIGTERM, then
    SIGKILL if it lingers). Two servers given the same ``prefix`` (and database and Redis) are
    two app servers of one deployment."""
    from django.conf import settings

    port = free_port()
    prefix = prefix or f"test-{uuid.uuid4().hex[:12]}"
    environment = {
        key: value for key, value in os.environ.items()
        # Not the caller's database or Redis, and not the jobserver of a make running us.
        if key not in {"DATABASE_URL", "REDIS_URL", "REDIS_KEY_PREFIX", "MAKEFLAGS", "MFLAGS",
                       "MAKELEVEL"}
    }
    environment.update({
        "DATABASE_URL": database_url,
        "REDIS_KEY_PREFIX": prefix,
        "FOURSQUARE_DATA_DIR": str(log_dir / f"data-{prefix}"),
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "FOURSQUARE_DAILY_SECRET": settings.FOURSQUARE_DAILY_SECRET,
        "SPITE_MALICE_DAILY_SECRET": settings.SPITE_MALICE_DAILY_SECRET,
        "FAIRNESS_SIGNING_KEY": settings.FAIRNESS_SIGNING_KEY,
        "FAIRNESS_DAYS_AHEAD": "-1",  # no week of dailies proven winnable by each test server
        "SPITE_MALICE_LEVELS_PLAY": "false",  # nor the bot's levels playing one another
        "GUNICORN_WORKERS": str(workers),
        "GUNICORN_THREADS": str(threads),
        "DJANGO_LOG_LEVEL": "WARNING",
        **{f"FOURSQUARE_RATE_{scope.upper().replace('.', '_')}": "off"
           for scope in settings.THROTTLE_RATES},
    })
    environment.pop("GUNICORN_WORKER_CLASS", None)  # the ASGI worker, whatever the caller's is
    if redis_url:
        environment["REDIS_URL"] = redis_url
    environment.update(env or {})
    bin_dir = Path(sys.executable).parent
    log_path = log_dir / f"asgi-server-{port}.log"
    if collect_static:
        environment["FOURSQUARE_STATIC_ROOT"] = str(collected_static())
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [str(bin_dir / "gunicorn"), "--bind", f"127.0.0.1:{port}"],
            cwd=REPO_ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = AsgiServer(f"http://127.0.0.1:{port}", process, log_path, prefix)
    try:
        deadline = time.monotonic() + 60
        wait_for_health(server.base, process, server.log, deadline, name="the server")
        # Every worker up, not just the first: a test that counts on two processes gets two.
        while len(server.worker_pids()) < workers and time.monotonic() < deadline:
            time.sleep(0.1)
        yield server
    finally:
        stop_group(process, grace=15)
