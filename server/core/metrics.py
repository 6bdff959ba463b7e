"""The service's metrics for Prometheus: one registry, the metrics every app shares, and
``/metrics`` (docs/OPERATIONS.md, "Metrics", lists each one).

Each process counts in memory. Under gunicorn, whose processes each count their own,
prometheus-client's multiprocess mode writes every value to a small memory-mapped file in
``PROMETHEUS_MULTIPROC_DIR`` (gunicorn.conf.py makes the folder for each server run, empties it
at start and drops the gauges of a worker that died), and ``/metrics`` adds them up: a node
answers for all of its processes. Without that folder (the tests' client, a shell) the
process's own values are served.

A game counts its own plays with metrics of its own module (``server.foursquare.metrics``,
``server.spitemalice.metrics``), made with this registry; nothing here knows a game. What is
read at scrape time rather than counted (the job queue's depth, the turn clocks' lag, the
replica's lag) comes from the readers the apps register (``scrape_reader_register``), each
asked once per scrape and never on a request's path.

Counting costs a counter's increment (about a microsecond: a lock and a write to the mapped
file), so the move's and action's fast paths count without any extra round trip.
"""

from __future__ import annotations

import hmac
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client import multiprocess as _multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest

from server.api.problems import NotAuthenticated, problem_json_response

logger = logging.getLogger(__name__)

# The ``_created`` series of each counter and histogram: the multiprocess mode has none, so a
# single process serves none either, and the two look alike.
disable_created_metrics()

PREFIX = "foursquare"
MULTIPROCESS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"

# Every metric of the service is made in this registry (not prometheus-client's global one,
# which also holds the library's own process collectors).
REGISTRY = CollectorRegistry(auto_describe=True)

# A move answered on its fast path takes about a millisecond; a page a few; a bot's turn or a
# hint up to seconds.
DURATION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                    10.0)

# --- Requests (server.core.requestlog counts them) ----------------------------------------------

requests = Counter(
    f"{PREFIX}_requests", "HTTP requests answered, by the route's pattern, method and status "
    "class.", ["route", "method", "status"], registry=REGISTRY)
request_duration = Histogram(
    f"{PREFIX}_request_duration_seconds", "Time from the request reaching Django's middleware "
    "to its answer, by the route's pattern and method.", ["route", "method"],
    buckets=DURATION_BUCKETS, registry=REGISTRY)
# The same answer timed from the load balancer receiving the request (its ``X-Request-Start``):
# the duration above plus the wait before Django's middleware (for the worker's event loop, a
# free thread, a core), which a client waits through too and the duration above cannot see.
proxied_duration = Histogram(
    f"{PREFIX}_request_proxied_duration_seconds", "Time from the load balancer receiving the "
    "request (its X-Request-Start header) to the answer, by the route's pattern and method; "
    "only for requests that carry the header.", ["route", "method"],
    buckets=DURATION_BUCKETS, registry=REGISTRY)
# Where the app's CPU goes, by route: the CPU time of the thread that served each request, over
# the same span as the duration (a busy machine's waits are not in it, as they are in the
# duration). What a process spends besides (its event loop reading and writing the sockets, the
# clocks' and the jobs' threads) is in no route: the process's CPU less these is that rest.
request_cpu = Counter(
    f"{PREFIX}_request_cpu_seconds", "CPU time of the thread that served the request, from "
    "Django's middleware to its answer, by the route's pattern and method.",
    ["route", "method"], registry=REGISTRY)

# --- What the shared apps count ------------------------------------------------------------------

rate_limit_refusals = Counter(
    f"{PREFIX}_rate_limit_refusals", "Requests and socket handshakes refused for a rate limit "
    "(429, or a socket closed 4429), by the limit's scope.", ["scope"], registry=REGISTRY)
sockets_open = Gauge(
    f"{PREFIX}_sockets_open", "Live sockets open on this node, by kind.", ["socket"],
    multiprocess_mode="livesum", registry=REGISTRY)
live_notices = Counter(
    f"{PREFIX}_live_notices", "Notices to the live sockets and streams handed to the channel "
    "layer (sent) or dropped for an error or a timeout (lost).", ["outcome"],
    registry=REGISTRY)
job_start_delay = Histogram(
    f"{PREFIX}_job_start_delay_seconds", "From a job being due (recorded, or its retry's "
    "time) to an attempt starting, by the job's kind.", ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0),
    registry=REGISTRY)
job_failures = Counter(
    f"{PREFIX}_job_failures", "Attempts of a job that raised or never finished (attempt), "
    "and jobs given up for good after their last attempt (given_up), by kind.",
    ["kind", "outcome"], registry=REGISTRY)
rating_updates = Counter(
    f"{PREFIX}_rating_updates", "Finished matches rated (each updates both players' "
    "ratings), by game.", ["game"], registry=REGISTRY)

# --- Read at scrape time -------------------------------------------------------------------------

ScrapeReader = Callable[[], Iterable[Metric]]
_readers: dict[str, ScrapeReader] = {}


def scrape_reader_register(name: str, reader: ScrapeReader) -> None:
    """Ask ``reader()`` for its metric families at every scrape (an app's ``ready()``
    registers it; registering ``name`` again replaces it). A reader that fails is left out of
    that scrape and logged; the others are served."""
    _readers[name] = reader


class _Readers:
    def collect(self) -> Iterator[Metric]:
        for name, reader in list(_readers.items()):
            try:
                families = list(reader())
            except Exception:  # one failing reader (a database down) must not cost the rest
                logger.warning("metrics: the reader %s failed", name, exc_info=True)
                continue
            yield from families


# The replica's lag. There is no replica unless a deployment's database router registers how to
# read its lag; till then the gauge reads 0.
_replica_lag: Callable[[], float | None] = lambda: 0.0  # noqa: E731 - replaced, not called here


def replica_lag_reader_set(reader: Callable[[], float | None]) -> None:
    """How to read the replica's lag in seconds at scrape time (e.g. ``now() -
    pg_last_xact_replay_timestamp()`` on the replica); a reader returning None leaves the gauge
    out of that scrape (the replica cannot be asked)."""
    global _replica_lag
    _replica_lag = reader


def _replica_lag_families() -> Iterator[Metric]:
    lag = _replica_lag()
    if lag is None:
        return
    family = GaugeMetricFamily(
        f"{PREFIX}_replica_lag_seconds", "How far the read replica's replay is behind the "
        "primary (0 without a replica).")
    family.add_metric([], float(lag))
    yield family


scrape_reader_register("replica", _replica_lag_families)


# --- The exposition ------------------------------------------------------------------------------


# Prometheus's text format, as every Prometheus 2 reads it (the library's newest name for it,
# version=1.0.0, says the same of names like ours).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def multiprocess_dir() -> str | None:
    """The folder the processes of this server write their values to, or None (this process
    counts alone)."""
    return os.environ.get(MULTIPROCESS_DIR_VARIABLE) or None


def multiprocess_files(folder: str) -> list[str]:
    """The processes' value files in ``folder`` that can be read: every ``*.db`` file but
    those still empty.

    prometheus-client creates a process's file and only then gives it its size, so for a
    moment it exists at 0 bytes, and reading it raises (``struct.error``), which fails the
    whole scrape: a scrape made as a new worker counted its first request answered 500, and a
    worker killed in that moment (the drills kill workers) left an empty file that failed
    every scrape after it (prometheus/client_python#1199, open). An empty file holds nothing
    yet, and once sized a file only grows, so leaving the empty ones out loses no count."""
    files = []
    for path in sorted(Path(folder).glob("*.db")):
        try:
            if path.stat().st_size > 0:
                files.append(str(path))
        except FileNotFoundError:  # a dead process's gauge file, removed meanwhile
            continue
    return files


class _ProcessFiles:
    """prometheus-client's multiprocess collector over ``multiprocess_files``."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def collect(self) -> Iterable[Metric]:
        return _multiprocess.MultiProcessCollector.merge(multiprocess_files(self.folder),
                                                         accumulate=True)


def exposition() -> bytes:
    """Every metric in Prometheus's text format: this node's processes added up (or this
    process's own), then what the readers read now."""
    registry = CollectorRegistry()
    folder = multiprocess_dir()
    if folder is not None:
        registry.register(_ProcessFiles(folder))
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    readers = CollectorRegistry()
    readers.register(_Readers())
    return text + generate_latest(readers)


def _authorized(request: HttpRequest, token: str) -> bool:
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                              token.encode())


@csrf_exempt
@never_cache
@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics`` with ``Authorization: Bearer <FOURSQUARE_METRICS_TOKEN>``. Without the
    setting the route answers as one that does not exist (404); with it, a request without the
    token is refused (401 ``not_authenticated``)."""
    token = settings.FOURSQUARE_METRICS_TOKEN
    if not token:
        raise Http404()  # as any path that does not exist
    if not _authorized(request, token):
        response = problem_json_response(NotAuthenticated(
            "Send the metrics token: Authorization: Bearer <FOURSQUARE_METRICS_TOKEN>."))
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE)
