"""gunicorn settings shared by `make run`, the Dockerfile, docker-compose.yml and `make load`.

gunicorn reads ./gunicorn.conf.py by itself; each caller passes only --bind. Each worker process
runs uvicorn (server.worker) with the ASGI app (server.asgi): pages, the API and the live
sockets on one port. The process model is tunable from the environment (docs/OPERATIONS.md has
the measurements behind the defaults): GUNICORN_WORKERS, GUNICORN_THREADS (the threads of each
worker that run HTTP requests), and GUNICORN_WORKER_CLASS: gthread or sync serve the WSGI app
(server.wsgi) instead, HTTP only, no sockets: the previous setup, kept for comparison.
"""

import os

ASGI_WORKER = "server.worker.Worker"

workers = int(os.environ.get("GUNICORN_WORKERS", "") or 3)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "") or ASGI_WORKER
threads = int(os.environ.get("GUNICORN_THREADS", "") or 2)
# The app that suits the worker class; an app named on the command line wins.
wsgi_app = "server.asgi:application" if worker_class == ASGI_WORKER else "server.wsgi"
accesslog = "-"
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
