"""`make run` itself, started as a newcomer would, for the tests that use the real server.

The server runs on its own default database (SQLite in a data folder of the test's, never the
test database), with gunicorn's workers and the shared cache exactly as `make run` sets them up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.serving import (
    WAIT_SECONDS,
    collected_static,
    free_port,
    status_of,
    stop_group,
    wait_for_health,
)

__all__ = ["REPO_ROOT", "Served", "call", "free_port", "make_run", "status_of"]

REPO_ROOT = Path(__file__).resolve().parents[1]


def call(base: str, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    """One JSON request; every write carries an Idempotency-Key, as the browser app's do."""
    request = urllib.request.Request(
        base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {}),
                 **({"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


@dataclass
class Served:
    base: str
    process: subprocess.Popen
    log_path: Path
    data_dir: Path

    def log(self) -> str:
        return self.log_path.read_text()


@contextmanager
def make_run(tmp_path: Path, **env: str) -> Iterator[Served]:
    """`make run` on a free port with its data in ``tmp_path/data``, answering /healthz; killed
    (if still running) on exit. ``env`` adds variables (rate limits, say)."""
    port = free_port()
    environment = {
        key: value
        for key, value in os.environ.items()
        # Not the test database, and not the jobserver of a make that may be running us.
        if key not in {"DATABASE_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
    }
    data_dir = tmp_path / "data"
    environment["FOURSQUARE_DATA_DIR"] = str(data_dir)
    # The tests' collected files: `make run` collects them again only if a source changed.
    environment["FOURSQUARE_STATIC_ROOT"] = str(collected_static())
    environment.update(env)
    log_path = tmp_path / "make-run.log"
    # `-o` takes the environment running this test as installed instead of rebuilding .venv.
    venv = sys.prefix
    command = ["make", "-o", f"{venv}/.installed", "run", f"VENV={venv}", f"PORT={port}"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=REPO_ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    served = Served(f"http://127.0.0.1:{port}", process, log_path, data_dir)
    try:
        # Generous: migrate and collectstatic run first, and a busy machine is slow (at a load
        # average of 18 on two cores, the workers had only just booted after 90 s).
        deadline = time.monotonic() + 180
        wait_for_health(served.base, process, served.log, deadline, name="make run")
        yield served
    finally:
        stop_group(process, grace=None)
