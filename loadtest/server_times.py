"""The server's own time for the load's busiest routes, printed beside locust's.

Locust times a request from its sending to the answer's last byte. The server's histogram
(``foursquare_request_duration_seconds``, ``server.core.requestlog``) times it from Django's
middleware receiving it to the answer. The difference is everything before and after Django:
the worker's event loop reading the request, the wait for one of its HTTP threads, the hop
back to the loop, the answer's way to the client and the client's own wait for a core. When
locust's p95 is far above the server's, the time is lost there and not in the view: the
paced Spite & Malice mix showed an action's p95 of 137-847 ms at the client against 37-72 ms
in Django (docs/OPERATIONS.md, "The paced mix on a quiet machine").

The players that hold sockets (``loadtest.held_socket``) stamp each request with the time it
was sent (``X-Request-Start``, as a load balancer does), so the server times the answer from
then too (``foursquare_request_proxied_duration_seconds``): the time from the client's send to
Django's answer, less Django's own, is the way in (the connection, the worker's event loop, the
wait for an HTTP thread); locust's time less that is the way back.

The figures come from one scrape of ``/metrics`` at the end of the play (the load's server is
given a metrics token of its own), so they cover the whole run, the start included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import httpx
from prometheus_client.parser import text_string_to_metric_families

from loadtest.prometheus_check import histogram_quantile

DURATION = "foursquare_request_duration_seconds"
SENT = "foursquare_request_proxied_duration_seconds"


@dataclass(frozen=True)
class RouteTime:
    method: str
    route: str
    count: int
    p50_ms: float
    p95_ms: float
    # From the client's send (its X-Request-Start) to the answer; None when none was stamped.
    sent_p50_ms: float | None = None
    sent_p95_ms: float | None = None


def histogram_buckets(exposition: str, name: str, labels: tuple[str, ...] = ("method", "route")
                      ) -> dict[tuple[str, ...], dict[float, float]]:
    """Each series' cumulative buckets of the histogram ``name``, keyed by the values of its
    ``labels`` in that order (series that differ only in other labels are added up)."""
    buckets: dict[tuple[str, ...], dict[float, float]] = {}
    for family in text_string_to_metric_families(exposition):
        if family.name != name:
            continue
        for sample in family.samples:
            if not sample.name.endswith("_bucket"):
                continue
            key = tuple(sample.labels[label] for label in labels)
            bound = float(sample.labels["le"])  # "+Inf" reads as inf
            cumulative = buckets.setdefault(key, {})
            cumulative[bound] = cumulative.get(bound, 0.0) + sample.value
    return buckets


def route_times(exposition: str, least: int = 50) -> list[RouteTime]:
    """Each route's (and method's) count and estimated p50 and p95 from the duration
    histogram in ``exposition`` (Prometheus's text format; a multiprocess registry's samples
    are already summed over the workers), routes answered fewer than ``least`` times left out,
    the busiest first."""
    sent = histogram_buckets(exposition, SENT)
    times = []
    for (method, route), cumulative in histogram_buckets(exposition, DURATION).items():
        count = int(cumulative.get(math.inf, 0))
        if count < least:
            continue
        stamped = sent.get((method, route), {})
        times.append(RouteTime(method, route, count,
                               histogram_quantile(0.5, cumulative) * 1000,
                               histogram_quantile(0.95, cumulative) * 1000,
                               *((histogram_quantile(0.5, stamped) * 1000,
                                  histogram_quantile(0.95, stamped) * 1000)
                                 if stamped.get(math.inf) else ())))
    return sorted(times, key=lambda time: (-time.count, time.route, time.method))


def scrape(host: str, token: str) -> str | None:
    """``/metrics`` of the load's server, or None (and why, printed) when it cannot be read."""
    try:
        answer = httpx.get(f"{host}/metrics", headers={"Authorization": f"Bearer {token}"},
                           timeout=10)
    except httpx.HTTPError as error:
        print(f"server's own times: /metrics not read ({error!r})")
        return None
    if answer.status_code != 200:
        print(f"server's own times: /metrics answered {answer.status_code}")
        return None
    return answer.text


def report_lines(times: list[RouteTime]) -> list[str]:
    if not times:
        return []
    sent = any(time.sent_p95_ms is not None for time in times)
    lines = ["the server's own time (Django's middleware to the answer, estimated from its "
             "histogram's buckets), whole run"
             + (", and from the client's send (its X-Request-Start) to the same answer:"
                if sent else ":"),
             f"{'endpoint':60} {'count':>7} {'p50 ms':>8} {'p95 ms':>8}"
             + (f" {'sent p50':>9} {'sent p95':>9}" if sent else "")]
    for time in times:
        line = (f"{time.method + ' /' + time.route:60} {time.count:7d} "
                f"{time.p50_ms:8.1f} {time.p95_ms:8.1f}")
        if sent:
            line += (f" {time.sent_p50_ms:9.1f} {time.sent_p95_ms:9.1f}"
                     if time.sent_p95_ms is not None else f" {'-':>9} {'-':>9}")
        lines.append(line)
    return lines
