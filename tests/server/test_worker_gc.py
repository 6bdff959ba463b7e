"""The app's worker sets Python's garbage collector for a server's life once its app is loaded:
what was loaded frozen out of the collections, the youngest generation collected less often."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

import pytest
from uvicorn_worker import UvicornWorker

from server import worker


@pytest.fixture
def collector():
    """The collector as it was, put back afterwards (this test process's own)."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_what_is_loaded_is_frozen_and_the_youngest_generation_waits_longer(collector):
    gc.unfreeze()
    _youngest, middle, oldest = gc.get_threshold()
    loaded = [[n] for n in range(1000)]  # containers the collector tracks
    worker.collect_less()
    assert gc.get_threshold() == (worker.GC_YOUNGEST, middle, oldest)
    assert gc.get_freeze_count() >= len(loaded)  # out of every generation the collector walks
    assert not any(item is loaded[0] for item in gc.get_objects())


def test_unreachable_cycles_are_still_freed(collector):
    worker.collect_less()

    class Node:
        pass

    node = Node()
    node.itself = node
    kept = [node]
    ref = weakref.ref(node)
    del node, kept
    gc.collect()
    assert ref() is None


def test_the_worker_sets_the_collector_once_its_app_is_loaded(monkeypatch):
    done: list[str] = []
    monkeypatch.setenv("GUNICORN_THREADS", "")
    monkeypatch.setattr(UvicornWorker, "load_wsgi", lambda self: done.append("app loaded"))
    monkeypatch.setattr(worker, "collect_less", lambda: done.append("collector set"))
    server_worker = worker.Worker.__new__(worker.Worker)
    server_worker.cfg = SimpleNamespace(threads=2)
    server_worker.load_wsgi()
    assert done == ["app loaded", "collector set"]
