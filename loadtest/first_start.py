"""A newcomer's first start, timed: a fresh clone, `make run`, the seconds until the first page.

    python -m loadtest.first_start [--runs 3] [--cold] [--ref HEAD] [--keep]

Each run clones this repository's commit (``--ref``, default HEAD: what is committed, not the
work tree) into a new temporary folder, runs ``make run PORT=<free port>`` there as a
newcomer would (no DATABASE_URL: SQLite under the clone's data/), and prints the seconds from
``make`` starting until ``GET /`` answers 200, with the moment each step began (uv's bootstrap,
the install, collectstatic, migrate, the server). Then it stops the server (SIGTERM to its
process group) and deletes the clone.

The package caches (uv's, pip's) are the machine's own, as a developer's second clone would
find them; ``--cold`` gives every run empty ones of its own, as a new machine (or CI's first
run) would: everything is downloaded again.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What make prints as each step starts: the first line that matches names the step.
STEPS = [
    ("uv", re.compile(r"--target .*uv==")),
    ("install", re.compile(r"pip install .*-e '")),
    ("migrate", re.compile(r"manage\.py migrate")),
    ("collectstatic", re.compile(r"collectstatic")),
    ("server", re.compile(r"^exec .*gunicorn")),
]
# Variables of the caller that a newcomer would not have set, or that point at our own tools.
DROPPED = {"DATABASE_URL", "REDIS_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VIRTUAL_ENV",
           "FOURSQUARE_STATIC_ROOT", "FOURSQUARE_DATA_DIR"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def one_start(ref: str, cold: bool, keep: bool, timeout: float) -> tuple[float, dict[str, float]]:
    """Seconds until the first page answers, and when each step began (seconds from the start)."""
    folder = Path(tempfile.mkdtemp(prefix="first-start-"))
    clone = folder / "foursquare"
    sha = subprocess.run(["git", "rev-parse", ref], cwd=REPO, check=True, capture_output=True,
                         text=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(clone)], check=True)
    subprocess.run(["git", "checkout", "-q", sha], cwd=clone, check=True)
    environment = {k: v for k, v in os.environ.items() if k not in DROPPED}
    if cold:
        environment["UV_CACHE_DIR"] = str(folder / "uv-cache")
        environment["PIP_CACHE_DIR"] = str(folder / "pip-cache")
    # A venv of ours on PATH would not be a newcomer's.
    environment["PATH"] = os.pathsep.join(
        p for p in environment.get("PATH", "").split(os.pathsep)
        if not p.startswith(sys.prefix))
    port = free_port()
    steps: dict[str, float] = {}
    log_lines: list[str] = []
    started = time.monotonic()
    process = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=clone, env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)

    def read() -> None:
        for line in process.stdout:
            log_lines.append(line)
            for name, pattern in STEPS:
                if name not in steps and pattern.search(line):
                    steps[name] = time.monotonic() - started
                    break

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        while not answers(f"http://127.0.0.1:{port}/"):
            if process.poll() is not None:
                raise RuntimeError("make run exited:\n" + "".join(log_lines[-40:]))
            if time.monotonic() - started > timeout:
                raise RuntimeError(f"no page after {timeout} s:\n" + "".join(log_lines[-40:]))
            time.sleep(0.1)
        return time.monotonic() - started, steps
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if keep:
            print(f"  kept {clone}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ref", default="HEAD", help="the commit to clone (default HEAD)")
    parser.add_argument("--cold", action="store_true",
                        help="empty package caches for every run (a new machine)")
    parser.add_argument("--keep", action="store_true", help="keep the clones")
    parser.add_argument("--timeout", type=float, default=600)
    options = parser.parse_args()
    print(f"first start of {options.ref} on a fresh clone, `make run`, "
          f"{'cold' if options.cold else 'warm'} package caches, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    times = []
    for run in range(1, options.runs + 1):
        seconds, steps = one_start(options.ref, options.cold, options.keep, options.timeout)
        times.append(seconds)
        began = ", ".join(f"{name} {at:.1f}" for name, at in steps.items())
        print(f"run {run}: first page after {seconds:.1f} s (steps began at: {began}; "
              f"load average {os.getloadavg()[0]:.1f})", flush=True)
    print(f"first page: {' / '.join(f'{t:.1f}' for t in times)} s "
          f"(median {statistics.median(times):.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
