"""Prometheus beside locust in ``make load LOAD_TOPOLOGY=cluster``: what the cluster's own
Prometheus (cluster/topology.py, scraping both nodes' ``/metrics``) saw of the load, its
queries printed beside locust's figures, and whether the two agree.

The queries read each counter's and histogram's increase over the load's window, from its
value at the window's start to its value at the end (PromQL's ``@`` modifier: ``x - (x @
start or x * 0)``, a series born in the window counting from 0). Not ``increase(x[w])``: that
extrapolates from the first and last samples inside the window, and a series born in it (the
moves' route only exists after the first move) would lose its first scrape's counts.

What is checked, and why each tolerance:

- **Moves (actions) stored** by the nodes' counters against those acknowledged to the players
  and found once in the database by the audit: **equal**. A move is counted once, on its
  commit; a retry answered from its idempotency record stores (and counts) nothing.
- **Requests answered by the nodes** (every route but ``/healthz`` and ``/metrics``, which
  HAProxy's checks and Prometheus itself ask directly), and the move's (action's) route alone,
  against the requests locust saw answered: **within locust's failed attempts**. A failure is
  an answer locust did not count (a 409, a 503) or no answer at all; the node may have answered
  it (counted) or never seen it (HAProxy's own 502/503, a refused connection): either way it is
  at most one request apart.
- **Rate-limit refusals** against the 429s locust got: **equal** (the load's limits are set
  so high that both should be 0; a socket closed 4429 is counted under ``sockets*`` and left
  out).
- **p95 of the move's (action's) latency**, both nodes together, timed from HAProxy receiving
  the request (``foursquare_request_proxied_duration_seconds``: its ``X-Request-Start`` to the
  answer), against locust's p95 of the same requests: **apart by at most the width of the
  bucket holding Prometheus's estimate**. The histogram knows only how many requests fell in
  each bucket (1 ms … 10 s, each 2-2.5x the last); ``histogram_quantile`` finds the bucket
  holding the 95th percentile and places it inside by assuming the requests spread evenly
  there, so the true p95 can be anywhere in that bucket (the first run: 2,028 ms from
  Prometheus, 1,221 ms locust's exact p95, both in the 1-2.5 s bucket). That is the
  histogram's resolution, and nothing finer can be asked of it. Beside it, locust's time also
  holds what the node's cannot (the way from HAProxy and back, the answer's last bytes,
  locust's own wait for a core to read it), which only adds and is small beside a bucket
  here (tens of ms). Locust's requests put into the same buckets and interpolated the same
  way are printed too: that figure differs from Prometheus's by that time alone, and by the
  jump across a bucket's edge when the two fall on either side of one (a races run: 481 ms
  from Prometheus in the 250-500 ms bucket, 649 ms from locust's bucketed alike, 573 ms its
  exact p95). Checks of finer grain tried first failed on such runs for no fault: the
  figures' milliseconds within 25 %, and the share of requests under the bucket's bounds
  within 5 points (7.7 points apart under 250 ms, a bound many moves lay close to, which the
  time outside the node carried past it for locust). Timing from elsewhere fails it: Django's own
  duration gave a p95 of 99 ms where locust's was 806. The node's own duration
  (``foursquare_request_duration_seconds``, from Django's middleware) is printed beside it, not
  checked: it leaves out the wait for the worker's loop and a free thread, which on this
  machine was most of a move's time (the first runs: p95 99 ms inside Django, 806 ms at the
  client).
- The figures are read once both nodes have been scraped successfully after the load's end
  (else nothing agrees). Scrapes that failed during the load are printed, not held against it:
  the counters are cumulative, so a missed scrape costs resolution, never a count. They do
  fail on this machine: ``/metrics`` is served by the same threads as the players, and waits
  in the same queue; past Prometheus's 5 s timeout the scrape counts as failed (``up`` 0).
"""

from __future__ import annotations

import json
import math
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass

# The buckets of foursquare_request_duration_seconds (server.core.metrics.DURATION_BUCKETS, not
# imported: this runs in the load's process, without Django's settings; a test keeps them equal).
DURATION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                    10.0)
# Routes asked directly of each node, not through HAProxy (its checks, Prometheus's scrapes).
DIRECT_ROUTES = ("healthz", "metrics")
HEALTH = "GET /healthz"  # locust's own /healthz requests, through HAProxy


@dataclass(frozen=True)
class Unit:
    """A load's unit of work: its route's label in the metrics, its counter of stored units,
    and locust's name for its request."""

    name: str
    route: str
    locust_name: str
    stored: str
    method: str = "POST"


UNITS = {
    "move": Unit("move", "api/v1/games/<uuid:game_id>/moves",
                 "POST /api/v1/games/{id}/moves", "foursquare_moves_stored_total"),
    "action": Unit("action", "api/v1/spite-malice/matches/<uuid:match_id>/actions",
                   "POST /api/v1/spite-malice/matches/{id}/actions",
                   "foursquare_actions_stored_total"),
}


def unit_of(game: str) -> Unit:
    """Spite & Malice's loads play actions; Foursquare's and the races' play moves."""
    return UNITS["action" if game == "spite-malice" else "move"]


# --- the queries ---------------------------------------------------------------------------------

def window_increase(selector: str, by: str, start: float) -> str:
    """PromQL for the increase of ``selector``'s series summed ``by`` those labels ("" for one
    sum) from ``start`` (a Unix time) to the query's time: a group with no series yet at
    ``start`` counts from 0."""
    total = f"sum by ({by}) " if by else "sum "
    return (f"{total}({selector}) - ({total}({selector} @ {start:.3f}) "
            f"or {total}({selector}) * 0)")


def queries(unit: Unit, start: float, end: float) -> dict[str, str]:
    """The load's queries, by name, for a window from ``start`` to ``end`` (Unix times),
    evaluated at ``end`` or just after (its last scrape)."""
    seconds = max(1, math.ceil(end - start))
    route = f'route="{unit.route}", method="{unit.method}"'
    direct = "|".join(DIRECT_ROUTES)
    buckets = f"foursquare_request_duration_seconds_bucket{{{route}}}"
    proxied = f"foursquare_request_proxied_duration_seconds_bucket{{{route}}}"
    return {
        "p95 by node": f"histogram_quantile(0.95, {window_increase(proxied, 'node, le', start)})",
        "p95": f"histogram_quantile(0.95, {window_increase(proxied, 'le', start)})",
        "django p95 by node": "histogram_quantile(0.95, "
                              f"{window_increase(buckets, 'node, le', start)})",
        "unit requests by node": window_increase(f"foursquare_requests_total{{{route}}}",
                                                 "node", start),
        "requests by node": window_increase(
            f'foursquare_requests_total{{route!~"{direct}"}}', "node", start),
        "5xx by node": window_increase(
            f'foursquare_requests_total{{route!~"{direct}", status="5xx"}}', "node", start),
        "stored by node": window_increase(unit.stored, "node", start),
        "refusals by scope": window_increase("foursquare_rate_limit_refusals_total", "scope",
                                             start),
        "queue depth max": f'max_over_time(max(foursquare_jobs{{status="pending"}})'
                           f"[{seconds}s:1s])",
        "oldest pending max": f"max_over_time(max(foursquare_job_oldest_pending_seconds)"
                              f"[{seconds}s:1s])",
        "scrapes by node": f'count_over_time(up{{job="foursquare"}}[{seconds}s])',
        "scrapes answered by node": f'sum_over_time(up{{job="foursquare"}}[{seconds}s])',
        "slowest scrape by node": 'max_over_time(scrape_duration_seconds{job="foursquare"}'
                                  f"[{seconds}s])",
    }


# --- asking Prometheus ---------------------------------------------------------------------------

class Prometheus:
    """Prometheus's HTTP API (``/api/v1/query``) at ``url``."""

    def __init__(self, url: str, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout

    def query(self, promql: str, at: float) -> dict[tuple, float]:
        """An instant query at ``at``: each series' value, keyed by its labels (name, value)
        sorted; a scalar's key is ``()``."""
        params = urllib.parse.urlencode({"query": promql, "time": f"{at:.3f}"})
        with urllib.request.urlopen(f"{self.url}/api/v1/query?{params}",
                                    timeout=self.timeout) as response:
            body = json.load(response)
        if body.get("status") != "success":
            raise RuntimeError(f"Prometheus refused {promql!r}: {body}")
        return parse_result(body["data"])

    def last_scrapes(self) -> dict[str, tuple[float, bool]]:
        """When each node was last scraped (Unix time) and whether that scrape was answered
        (``up`` 1), by its ``node`` label."""
        now = time.time()
        when = self.query('timestamp(up{job="foursquare"})', now)
        up = self.query('up{job="foursquare"}', now)
        return {dict(labels).get("node", "?"): (value, up.get(labels) == 1.0)
                for labels, value in when.items()}

    def wait_for_scrape_after(self, moment: float, seconds: float = 40.0) -> float:
        """Wait until every node was scraped successfully after ``moment`` (the load's end), so
        the counters hold all of it; returns the latest scrape's time (when to query). A scrape
        can time out on a busy node: the next one, 5 s later, may answer."""
        deadline = time.monotonic() + seconds
        while True:
            scrapes = self.last_scrapes()
            if scrapes and all(at > moment and up for at, up in scrapes.values()):
                return max(at for at, _ in scrapes.values())
            if time.monotonic() > deadline:
                raise RuntimeError("Prometheus has no answered scrape of every node after the "
                                   f"load's end: {scrapes}")
            time.sleep(0.5)


def parse_result(data: dict) -> dict[tuple, float]:
    """The ``data`` of a query's answer as {labels: value}: a vector's series (labels sorted,
    ``__name__`` left out) or a scalar (key ``()``). NaN stays NaN (an empty histogram)."""
    if data["resultType"] == "scalar":
        return {(): float(data["result"][1])}
    return {tuple(sorted((k, v) for k, v in series["metric"].items() if k != "__name__")):
            float(series["value"][1]) for series in data["result"]}


def collect(prometheus: Prometheus, unit: Unit, start: float, end: float) -> dict:
    """Every query of the load's window, asked once its last scrape is in: {"promql": {name:
    text}, "values": {name: {label value: number}}, "at": time asked, "window": seconds}.
    Values are keyed by the query's one grouping label's value ("" for a single sum)."""
    at = prometheus.wait_for_scrape_after(end)
    texts = queries(unit, start, end)
    values = {}
    for name, promql in texts.items():
        values[name] = {_key(labels): value
                        for labels, value in prometheus.query(promql, at).items()}
    return {"promql": texts, "values": values, "at": at, "window": end - start}


def _key(labels: tuple) -> str:
    """A series' key in ``collect``'s values: the value of its ``node``, ``scope`` or ``le``
    label (the one a query groups by), or "" for a sum without labels."""
    named = dict(labels)
    return next((named[label] for label in ("node", "scope", "le") if label in named), "")


# --- locust's side -------------------------------------------------------------------------------

@dataclass
class LocustSide:
    """What locust's journals say of the same requests: each request's answered latencies (ms)
    by name, and the failed attempts by "name status"."""

    times: dict[str, list[float]]
    failures: dict[str, int]

    @classmethod
    def of(cls, journals: Iterable[dict]) -> LocustSide:
        times: dict[str, list[float]] = {}
        failures: dict[str, int] = {}
        for journal in journals:
            for name, rows in journal["times"].items():
                times.setdefault(name, []).extend(ms for _started, ms in rows)
            for key, count in journal["failures"].items():
                failures[key] = failures.get(key, 0) + count
        return cls(times, failures)

    def answered(self, name: str | None = None) -> int:
        """Requests answered (all but locust's /healthz, which the check leaves out as the
        nodes' /healthz is left out), or those of ``name``."""
        if name is not None:
            return len(self.times.get(name, []))
        return sum(len(rows) for key, rows in self.times.items() if key != HEALTH)

    def failed(self, name: str | None = None) -> int:
        return sum(count for key, count in self.failures.items()
                   if not key.startswith(HEALTH + " ")
                   and (name is None or key.rsplit(" ", 1)[0] == name))

    def refused(self) -> int:
        """429s locust got."""
        return sum(count for key, count in self.failures.items() if key.endswith(" 429"))


def percentile(values: list[float], fraction: float) -> float:
    """The load report's own percentile (loadtest.verify.percentile): the nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def bucket_index(seconds: float, bounds: tuple[float, ...] = DURATION_BUCKETS) -> int:
    """The histogram bucket a duration falls in: the first whose upper bound (``le``) holds
    it; ``len(bounds)`` for +Inf."""
    return next((i for i, bound in enumerate(bounds) if seconds <= bound), len(bounds))


def bucket_range(index: int, bounds: tuple[float, ...] = DURATION_BUCKETS) -> str:
    """A bucket as milliseconds, "100-250 ms"."""
    low = 0.0 if index == 0 else bounds[index - 1]
    high = "+Inf" if index >= len(bounds) else f"{bounds[index] * 1000:g}"
    return f"{low * 1000:g}-{high} ms"


def histogram_quantile(fraction: float, cumulative: dict[float, float]) -> float:
    """Prometheus's ``histogram_quantile`` over cumulative bucket counts {le: count} (le as a
    float, +Inf included): the bucket holding the rank, then linear inside it; in the +Inf
    bucket, the highest finite bound. NaN without observations."""
    bounds = sorted(cumulative)
    if not bounds or cumulative[bounds[-1]] <= 0:
        return math.nan
    rank = fraction * cumulative[bounds[-1]]
    below, low = 0.0, 0.0
    for bound in bounds:
        count = cumulative[bound]
        if count >= rank:
            if math.isinf(bound):
                return low
            if count == below:
                return bound
            return low + (bound - low) * (rank - below) / (count - below)
        below, low = count, bound
    return low


def bucket_width(index: int, bounds: tuple[float, ...] = DURATION_BUCKETS) -> float:
    """A bucket's width in seconds (the first's from 0; +Inf's is infinite)."""
    if index >= len(bounds):
        return math.inf
    return bounds[index] - (bounds[index - 1] if index else 0.0)


def bucketed(values_ms: list[float], bounds: tuple[float, ...] = DURATION_BUCKETS
             ) -> dict[float, float]:
    """Latencies (ms) as a histogram's cumulative counts {le seconds: count}, +Inf included."""
    seconds = sorted(value / 1000 for value in values_ms)
    cumulative = {bound: float(sum(1 for value in seconds if value <= bound)) for bound in bounds}
    cumulative[math.inf] = float(len(seconds))
    return cumulative


# --- the comparison ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Check:
    """One figure of Prometheus's against locust's (or the audit's), with its tolerance."""

    what: str
    prometheus: str
    locust: str
    tolerance: str
    ok: bool


def compare(figures: dict, locust: LocustSide, unit: Unit, acknowledged: int) -> list[Check]:
    """The checks of the module's docstring, from ``collect``'s figures, locust's journals and
    the audit's count of acknowledged units."""
    values = figures["values"]
    checks = []

    stored = sum(values["stored by node"].values())
    checks.append(Check(f"{unit.name}s stored", f"{stored:.0f}", f"{acknowledged} acknowledged",
                        "equal", round(stored) == acknowledged))

    answered = sum(values["unit requests by node"].values())
    mine, failed = locust.answered(unit.locust_name), locust.failed(unit.locust_name)
    checks.append(Check(f"{unit.name} requests answered", f"{answered:.0f}", f"{mine}",
                        f"<= {failed} apart (locust's failed attempts)",
                        abs(round(answered) - mine) <= failed))

    everything = sum(values["requests by node"].values())
    mine, failed = locust.answered(), locust.failed()
    checks.append(Check("requests answered (not /healthz, /metrics)", f"{everything:.0f}",
                        f"{mine}", f"<= {failed} apart (locust's failed attempts)",
                        abs(round(everything) - mine) <= failed))

    refusals = sum(value for scope, value in values["refusals by scope"].items()
                   if not scope.startswith("sockets"))
    checks.append(Check("rate-limit refusals (HTTP)", f"{refusals:.0f}",
                        f"{locust.refused()} (429)", "equal", round(refusals) == locust.refused()))

    server = next(iter(values["p95"].values()), math.nan)
    client = percentile(locust.times.get(unit.locust_name, []), 0.95)
    if math.isnan(server) or math.isnan(client):
        checks.append(Check(f"{unit.name} p95, both nodes", "none", "none", "", False))
    else:
        alike = histogram_quantile(0.95, bucketed(locust.times[unit.locust_name]))
        width = bucket_width(bucket_index(server))
        checks.append(Check(
            f"{unit.name} p95 ms, both nodes, from HAProxy",
            f"{server * 1000:.0f} ({bucket_range(bucket_index(server))})",
            f"{client:.0f} ({alike * 1000:.0f} bucketed alike)",
            f"apart by at most its bucket's width, {width * 1000:g} ms",
            abs(server * 1000 - client) <= width * 1000))
    return checks


def report_lines(figures: dict, checks: list[Check], unit: Unit) -> list[str]:
    """The report's lines: the queries' figures per node, the checks, and the PromQL."""
    values, seconds = figures["values"], figures["window"]
    nodes = sorted(set(values["requests by node"]) | set(values["scrapes by node"]))

    def per_node(name: str, scale: float = 1.0, digits: int = 0) -> str:
        return ", ".join(f"{node} {values[name].get(node, 0.0) * scale:.{digits}f}"
                         for node in nodes)

    lines = [f"-- Prometheus (scraping both nodes' /metrics), the load's {seconds:.1f} s",
             f"{unit.name} p95 ms by node, from HAProxy's receipt: "
             f"{per_node('p95 by node', 1000)}; inside Django: "
             f"{per_node('django p95 by node', 1000)}",
             f"requests/s by node (not /healthz, /metrics): "
             f"{per_node('requests by node', 1 / seconds, 1)}",
             f"{unit.name}s stored/s by node: {per_node('stored by node', 1 / seconds, 1)}",
             f"5xx answered by node: {per_node('5xx by node')}",
             "rate-limit refusals: " + (", ".join(
                 f"{scope} {value:.0f}" for scope, value in sorted(
                     values["refusals by scope"].items())) or "0"),
             "scrapes answered within the timeout: " + ", ".join(
                 f"{node} {values['scrapes answered by node'].get(node, 0):.0f} of "
                 f"{values['scrapes by node'].get(node, 0):.0f} (slowest "
                 f"{values['slowest scrape by node'].get(node, 0):.2f} s)" for node in nodes),
             f"job queue depth at most {next(iter(values['queue depth max'].values()), 0):.0f}, "
             f"oldest pending job at most "
             f"{next(iter(values['oldest pending max'].values()), 0):.1f} s",
             f"{'Prometheus against locust':44} {'prometheus':>20} {'locust':>26}  tolerance"]
    for check in checks:
        lines.append(f"{check.what:44} {check.prometheus:>20} {check.locust:>26}  "
                     f"{check.tolerance}: {'agree' if check.ok else 'DISAGREE'}")
    lines.append("queries (at the window's end):")
    for name in ("p95 by node", "requests by node", "stored by node", "refusals by scope",
                 "queue depth max"):
        lines.append(f"  {figures['promql'][name]}")
    return lines
