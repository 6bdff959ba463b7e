"""What the tests that run a real server in a subprocess share: a free loopback port, a URL's
status, waiting for the server's /healthz and stopping its process group.

tests/asgi_server.py (gunicorn with the ASGI app) and tests/make_run.py (`make run` itself) both
start their server with ``start_new_session=True``, so the process group holds the server and
every worker it forks.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

# The longest a test waits on a real server for any one thing (a response, a socket's message,
# a page's change): generous, since a busy machine can be slow; a wait ends as soon as the
# thing is there, so a passing test never waits it out.
WAIT_SECONDS = 30


REPO_ROOT = Path(__file__).resolve().parents[1]
# One folder of collected static files per checkout, outside it: shared by every server the tests
# start (in any process of a parallel run), never the checkout's own staticfiles/.
STATIC_ROOT = Path(tempfile.gettempdir()) / (
    "foursquare-test-static-" + hashlib.sha256(str(REPO_ROOT).encode()).hexdigest()[:12])


def collected_static() -> Path:
    """The front end's files collected as `make run` collects them (`make static`), into the
    tests' own folder: collected again only when a source changed, by one process at a time."""
    STATIC_ROOT.parent.mkdir(parents=True, exist_ok=True)
    environment = {key: value for key, value in os.environ.items()
                   if key not in {"DATABASE_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    environment["FOURSQUARE_STATIC_ROOT"] = str(STATIC_ROOT)
    # The data folder is the tests' too: collectstatic loads the settings, which make a
    # secret on first start.
    environment["FOURSQUARE_DATA_DIR"] = str(STATIC_ROOT.with_name(STATIC_ROOT.name + "-data"))
    venv = sys.prefix
    with open(STATIC_ROOT.with_name(STATIC_ROOT.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "--no-print-directory", "-o", f"{venv}/.installed", "static",
                        f"VENV={venv}"], cwd=REPO_ROOT, env=environment, check=True)
    return STATIC_ROOT


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
