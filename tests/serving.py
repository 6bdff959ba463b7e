"""What the tests that run a real server in a subprocess share: a free loopback port, a URL's
status, waiting for the server's /healthz and stopping its process group.

tests/asgi_server.py (gunicorn with the ASGI app) and tests/make_run.py (`make run` itself) both
start their server with ``start_new_session=True``, so the process group holds the server and
every worker it forks.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable

# The longest a test waits on a real server for any one thing (a response, a socket's message,
# a page's change): generous, since a busy machine can be slow; a wait ends as soon as the
# thing is there, so a passing test never waits it out.
WAIT_SECONDS = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def status_of(url: str) -> int | None:
    """The HTTP status ``url`` answers with, or None if nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def wait_for_health(base: str, process: subprocess.Popen, log: Callable[[], str],
                    deadline: float, *, name: str) -> None:
    """Until ``base``/healthz answers 200; fails (with the server's log) if ``process`` exits
    first or ``deadline`` (a ``time.monotonic()`` instant) passes."""
    while status_of(f"{base}/healthz") != 200:
        assert process.poll() is None, f"{name} exited early:\n{log()}"
        assert time.monotonic() < deadline, f"/healthz never answered:\n{log()}"
        time.sleep(0.1)


def stop_group(process: subprocess.Popen, *, grace: float | None) -> None:
    """Stop ``process``'s group if it still runs: SIGTERM, then SIGKILL if it lingers ``grace``
    seconds; ``grace=None`` sends SIGKILL straight away."""
    if process.poll() is not None:
        return
    if grace is not None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
