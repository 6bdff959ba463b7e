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

**Where the app's CPU goes.** The server counts the CPU time of the thread that served each
request (``foursquare_request_cpu_seconds_total``, by route and method): the table shows each
route's CPU per request and its share of all the routes' CPU. A second scrape at the play's
start gives the routes' CPU over the play alone, set beside the app processes' CPU over the
same play (``cpu_lines``): what the processes spent besides is the rest, in no route (the
workers' event loops reading and writing the sockets, the clocks' and the jobs' threads).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import httpx
from prometheus_client.parser import text_string_to_metric_families

from loadtest.prometheus_check import histogram_quantile

DURATION = "foursquare_request_duration_seconds"
SENT = "foursquare_request_proxied_duration_seconds"
CPU = "foursquare_request_cpu_seconds"


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
    # The CPU of the thread that served it, per request, and the route's share of all the
    # routes' CPU (a fraction); None from a server that does not count it.
    cpu_ms: float | None = None
    cpu_share: float | None = None


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


def route_cpu(exposition: str) -> dict[tuple[str, str], float]:
    """Each (method, route)'s CPU seconds so far, from the counter in ``exposition``; empty
    from a server that does not count it."""
    spent: dict[tuple[str, str], float] = {}
    for family in text_string_to_metric_families(exposition):
        if family.name != CPU:  # the parser names a counter's family without "_total"
            continue
        for sample in family.samples:
            if sample.name == f"{CPU}_total":
                key = (sample.labels["method"], sample.labels["route"])
                spent[key] = spent.get(key, 0.0) + sample.value
    return spent


def route_times(exposition: str, least: int = 50) -> list[RouteTime]:
    """Each route's (and method's) count and estimated p50 and p95 from the duration
    histogram in ``exposition`` (Prometheus's text format; a multiprocess registry's samples
    are already summed over the workers), with its CPU per request and share, routes answered
    fewer than ``least`` times left out, the busiest first."""
    sent = histogram_buckets(exposition, SENT)
    spent = route_cpu(exposition)
    all_routes = sum(spent.values())
    times = []
    for (method, route), cumulative in histogram_buckets(exposition, DURATION).items():
        count = int(cumulative.get(math.inf, 0))
        if count < least:
            continue
        stamped = sent.get((method, route), {})
        cpu = spent.get((method, route))
        times.append(RouteTime(method, route, count,
                               histogram_quantile(0.5, cumulative) * 1000,
                               histogram_quantile(0.95, cumulative) * 1000,
                               *((histogram_quantile(0.5, stamped) * 1000,
                                  histogram_quantile(0.95, stamped) * 1000)
                                 if stamped.get(math.inf) else (None, None)),
                               cpu_ms=None if cpu is None else cpu * 1000 / count,
                               cpu_share=cpu / all_routes if cpu is not None and all_routes
                               else None))
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
    cpu = any(time.cpu_ms is not None for time in times)
    lines = ["the server's own time (Django's middleware to the answer, estimated from its "
             "histogram's buckets), whole run"
             + (", with its thread's CPU per request and the route's share of all routes' CPU"
                if cpu else "")
             + (", and from the client's send (its X-Request-Start) to the same answer:"
                if sent else ":"),
             f"{'endpoint':60} {'count':>7} {'p50 ms':>8} {'p95 ms':>8}"
             + (f" {'CPU ms':>7} {'CPU %':>6}" if cpu else "")
             + (f" {'sent p50':>9} {'sent p95':>9}" if sent else "")]
    for time in times:
        line = (f"{time.method + ' /' + time.route:60} {time.count:7d} "
                f"{time.p50_ms:8.1f} {time.p95_ms:8.1f}")
        if cpu:
            line += (f" {time.cpu_ms:7.2f} {100 * (time.cpu_share or 0.0):6.1f}"
                     if time.cpu_ms is not None else f" {'-':>7} {'-':>6}")
        if sent:
            line += (f" {time.sent_p50_ms:9.1f} {time.sent_p95_ms:9.1f}"
                     if time.sent_p95_ms is not None else f" {'-':>9} {'-':>9}")
        lines.append(line)
    return lines


def cpu_lines(before: dict[tuple[str, str], float] | None,
              after: dict[tuple[str, str], float] | None, app_seconds: float | None,
              units: int = 0, unit: str = "move") -> list[str]:
    """The routes' CPU over the play (``route_cpu`` at its start and its end) beside the app
    processes' CPU over the same play: how much of the app's work is in the requests' threads,
    and the rest (the event loops, the sockets, the clocks' and jobs' threads), each also per
    ``unit`` of the load's work when ``units`` were done."""
    if before is None or not after or not app_seconds:
        return []
    spent = {key: seconds - before.get(key, 0.0) for key, seconds in after.items()}
    routes = sum(spent.values())

    article = "an" if unit[:1] in "aeiou" else "a"

    def part(seconds: float) -> str:
        share = f"{seconds:.1f} s, {100 * seconds / app_seconds:.0f}%"
        return f"{share}, {seconds * 1000 / units:.2f} ms {article} {unit}" if units else share

    busiest = sorted(spent.items(), key=lambda item: -item[1])[:4]
    return [f"the app's CPU over the play ({part(app_seconds)}): in the requests' threads "
            f"({part(routes)}), the rest ({part(app_seconds - routes)}: event loops, sockets, "
            "the clocks' and jobs' threads)",
            "  by route: " + "; ".join(f"{method} /{route} ({part(seconds)})"
                                       for (method, route), seconds in busiest)]
