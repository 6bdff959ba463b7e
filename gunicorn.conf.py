"""gunicorn settings shared by `make run`, the Dockerfile, docker-compose.yml and `make load`.

gunicorn reads ./gunicorn.conf.py by itself; each caller passes only --bind. Each worker process
runs uvicorn (server.worker) with the ASGI app (server.asgi): pages, the API and the live
sockets on one port. The process model is tunable from the environment (docs/OPERATIONS.md has
the measurements behind the defaults): GUNICORN_WORKERS, GUNICORN_THREADS (the threads of each
worker that run HTTP requests), and GUNICORN_WORKER_CLASS: gthread or sync serve the WSGI app
(server.wsgi) instead, HTTP only, no sockets: the previous setup, kept for comparison.
"""

import os
import shutil
import tempfile
from pathlib import Path

ASGI_WORKER = "server.worker.Worker"

workers = int(os.environ.get("GUNICORN_WORKERS", "") or 3)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "") or ASGI_WORKER
threads = int(os.environ.get("GUNICORN_THREADS", "") or 2)
# The app that suits the worker class; an app named on the command line wins.
wsgi_app = "server.asgi:application" if worker_class == ASGI_WORKER else "server.wsgi"
# The app writes one line per request itself, with its route and request id
# (server.core.requestlog): gunicorn's own access log would repeat it.
accesslog = None
# A request blocked longer than this (a hung database) costs its worker, which gunicorn
# replaces; clients retry a move safely with the same Idempotency-Key, and sockets reconnect
# and catch up from the event feed.
timeout = 30
# Open sockets are closed (1012, "service restart") when a worker stops; clients reconnect to
# another.
graceful_timeout = 20
# The default control socket sits at one path in $HOME, which a second server on the same machine
# (a test run beside `make run`) would fight over, and which the container's user has no home for.
control_socket_disable = True


def post_worker_init(worker):
    """Each worker starts its clock thread, whatever runs the jobs: its heartbeat (which,
    after an outage of the whole service, moves the turn clocks on by it before the worker
    serves anything) and the clocks (Spite & Malice's turns, the races' closing), on a thread
    that no job holds. With jobs in-process (FOURSQUARE_BACKGROUND=thread, the default) it
    starts its runner too: its jobs on two lanes (urgent, bulk) and, in one worker an hour (a
    lease), the housekeeping."""
    from server.jobs import background

    background.clocks_start()
    background.runner_start_if_threaded()


# Metrics: each worker writes its values to files in PROMETHEUS_MULTIPROC_DIR, and /metrics adds
# them up (server.core.metrics). The folder belongs to this server run: given one, it is emptied
# as the server starts (values of an earlier run would count again); else one is made and removed
# at exit. Set in the master before any worker forks, so every worker (and its replacements)
# writes there.
_METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"
_made_metrics_dir: list[str] = []


def on_starting(server):
    folder = os.environ.get(_METRICS_DIR, "").strip()
    if folder:
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink()
    else:
        # In memory (tmpfs) where the machine has it: every count writes to these files, and
        # on a disk-backed folder a move's metrics cost several times as much CPU (measured).
        shm = "/dev/shm"
        in_memory = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
        _left_by_killed_servers_remove(Path(in_memory or tempfile.gettempdir()))
        folder = tempfile.mkdtemp(prefix=f"{_MADE_PREFIX}{os.getpid()}-", dir=in_memory)
        _made_metrics_dir.append(folder)
        os.environ[_METRICS_DIR] = folder


_MADE_PREFIX = "foursquare-metrics-"


def _left_by_killed_servers_remove(parent: Path) -> None:
    """The folders of earlier runs whose server was killed (no on_exit ran) and is gone."""
    for folder in parent.glob(f"{_MADE_PREFIX}*-*"):
        pid = folder.name.removeprefix(_MADE_PREFIX).split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except PermissionError:
            pass  # another user's server, alive


def child_exit(server, worker):
    """A worker that stopped (or died) no longer counts in the gauges of what is open now; its
    counters stay in the sums, as counters must."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    for folder in _made_metrics_dir:
        shutil.rmtree(folder, ignore_errors=True)
