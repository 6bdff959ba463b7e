"""The in-process runner thread in a test: started for a block, stopped after it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from server.jobs import background


@contextmanager
def runner() -> Iterator[None]:
    """This process's runner thread, as each server process starts it (gunicorn.conf.py)."""
    background.runner_start()
    try:
        yield
    finally:
        background.runner_stop()


def eventually(condition: Callable[[], bool], seconds: float = 20.0) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (the runner works in its own time)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
