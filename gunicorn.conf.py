"""gunicorn settings shared by `make run`, the Dockerfile, docker-compose.yml and `make load`.

gunicorn reads ./gunicorn.conf.py by itself; each caller passes only --bind and the app. The
process model is tunable from the environment (docs/OPERATIONS.md has the measurements behind
the defaults): GUNICORN_WORKERS, GUNICORN_WORKER_CLASS (sync or gthread), GUNICORN_THREADS.
"""

import os

workers = int(os.environ.get("GUNICORN_WORKERS", "") or 4)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "") or "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "") or 4)
accesslog = "-"
# A request blocked longer than this (a hung database) costs its worker, which gunicorn
# replaces; clients retry a move safely with the same Idempotency-Key.
timeout = 30
graceful_timeout = 20
# The default control socket sits at one path in $HOME, which a second server on the same machine
# (a test run beside `make run`) would fight over, and which the container's user has no home for.
control_socket_disable = True
