"""``make load LOAD_TOPOLOGY=cluster``'s Prometheus beside locust (loadtest/prometheus_check.py):
its queries name only what the nodes export and parse as PromQL, its quantile is Prometheus's,
and its comparison and report say what they should. Nothing here starts the cluster or a
Prometheus: the queries are checked by ``promtool check rules``, the answers are canned."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import uuid

import pytest
from django.test import Client
from django.urls import resolve

from loadtest import prometheus_check as pc
from server.core import metrics

START, END = 1_796_000_000.0, 1_796_000_040.0
MOVE, ACTION = pc.UNITS["move"], pc.UNITS["action"]


def test_the_buckets_and_the_routes_are_the_servers():
    assert pc.DURATION_BUCKETS == metrics.DURATION_BUCKETS
    # The route label is the URL pattern the request matched (server.core.requestlog.route_of).
    assert resolve(f"/api/v1/games/{uuid.uuid4()}/moves").route == MOVE.route
    assert resolve(f"/api/v1/spite-malice/matches/{uuid.uuid4()}/actions").route == ACTION.route
    assert resolve("/healthz").route in pc.DIRECT_ROUTES
    assert resolve("/metrics").route in pc.DIRECT_ROUTES
    assert pc.unit_of("spite-malice") is ACTION
    assert pc.unit_of("foursquare") is MOVE and pc.unit_of("races") is MOVE


TOKEN = "metrics-token-for-the-tests-only-0123456789"
KINDS = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}


def exported_names(settings) -> set[str]:
    """Every sample name a node can export: what its /metrics answers now (those read at scrape
    time included), the registry's metrics that have counted nothing yet (a labelled counter
    shows no sample before its first), and Prometheus's own series of each scrape."""
    settings.FOURSQUARE_METRICS_TOKEN = TOKEN
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    text = response.content.decode()
    names = {"up", "scrape_duration_seconds"} | set(re.findall(r"^(\w+)[{ ]", text, re.MULTILINE))
    for family in metrics.REGISTRY.collect():
        names |= {family.name + suffix for suffix in KINDS.get(family.type, ("",))}
    return names


@pytest.mark.django_db
def test_every_query_names_only_metrics_the_nodes_export(settings, caplog):
    exported = exported_names(settings)
    # Every reader read (one that fails is left out of the scrape, and logged).
    assert not [record for record in caplog.records if "reader" in record.getMessage()]
    assert {"foursquare_jobs", "foursquare_job_oldest_pending_seconds",
            "foursquare_request_proxied_duration_seconds_bucket"} <= exported
    for unit in (MOVE, ACTION):
        for name, promql in pc.queries(unit, START, END).items():
            used = set(re.findall(r"\b(foursquare_[a-z_]+|up|scrape_duration_seconds)\b",
                                  promql))
            assert used, (name, promql)
            assert used <= exported, (name, used - exported)
        assert unit.stored in exported


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool is missing: `make promtool` installs Debian's prometheus package")
    return found


def test_every_query_parses_as_promql(tmp_path):
    """``promtool check rules`` parses each query as a recording rule's expression."""
    rules = [{"record": f"load:{unit.name}:{index}", "expr": promql}
             for unit in (MOVE, ACTION)
             for index, promql in enumerate(pc.queries(unit, START, END).values())]
    path = tmp_path / "rules.yml"
    path.write_text(json.dumps({"groups": [{"name": "load", "rules": rules}]}))
    checked = subprocess.run([promtool(), "check", "rules", str(path)], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_window_counts_from_the_start_a_series_born_in_it_from_zero():
    assert pc.window_increase("x_total", "node", 12.5) == (
        "sum by (node) (x_total) - (sum by (node) (x_total @ 12.500) "
        "or sum by (node) (x_total) * 0)")
    assert pc.window_increase("x_total", "", 1.0).startswith("sum (x_total) - (sum (x_total @")


def test_the_quantile_is_prometheuss():
    # 100 requests: 10 under 1 ms, 80 more under 2.5 ms, 10 more under 5 ms.
    cumulative = {0.001: 10.0, 0.0025: 90.0, 0.005: 100.0, math.inf: 100.0}
    assert pc.histogram_quantile(0.5, cumulative) == pytest.approx(0.001 + 0.0015 * 40 / 80)
    assert pc.histogram_quantile(0.95, cumulative) == pytest.approx(0.0025 + 0.0025 * 0.5)
    # In the +Inf bucket: the highest finite bound; nothing observed: NaN.
    assert pc.histogram_quantile(0.99, {0.001: 1.0, math.inf: 100.0}) == 0.001
    assert math.isnan(pc.histogram_quantile(0.95, {0.001: 0.0, math.inf: 0.0}))
    assert pc.bucketed([0.5, 2.0, 2.0, 20_000.0], (0.001, 0.0025)) == {
        0.001: 1.0, 0.0025: 3.0, math.inf: 4.0}
    assert pc.bucket_index(0.3) == 8 and pc.bucket_range(8) == "250-500 ms"
    assert pc.bucket_width(8) == 0.25 and pc.bucket_width(0) == 0.001
    assert pc.bucket_width(len(pc.DURATION_BUCKETS)) == math.inf
    assert pc.bucket_index(11.0) == len(pc.DURATION_BUCKETS)


def test_a_query_answer_is_keyed_by_its_labels():
    data = {"resultType": "vector", "result": [
        {"metric": {"__name__": "up", "node": "app1", "job": "foursquare"},
         "value": [END, "1"]},
        {"metric": {}, "value": [END, "NaN"]}]}
    parsed = pc.parse_result(data)
    assert parsed[(("job", "foursquare"), ("node", "app1"))] == 1.0
    assert math.isnan(parsed[()])
    assert pc.parse_result({"resultType": "scalar", "result": [END, "3"]}) == {(): 3.0}


class CannedPrometheus(pc.Prometheus):
    """Answers each query from a table; scraped just after the load's end."""

    def __init__(self, answers: dict[str, dict[tuple, float]]) -> None:
        super().__init__("http://prometheus.invalid")
        self.answers = answers
        self.asked: list[tuple[str, float]] = []

    def last_scrapes(self) -> dict[str, tuple[float, bool]]:
        return {"app1": (END + 1, True), "app2": (END + 2, True)}

    def query(self, promql: str, at: float) -> dict[tuple, float]:
        self.asked.append((promql, at))
        return self.answers.get(promql, {})


def node(name: str) -> tuple:
    return (("instance", f"127.0.0.1:848{name[-1]}"), ("job", "foursquare"), ("node", name))


def figures_of(unit=MOVE, p95=0.9, stored=(500.0, 500.0), requests=(600.0, 600.0),
               refusals: dict[str, float] | None = None, answered_scrapes=(8.0, 7.0),
               answered: tuple[float, float] | None = None) -> dict:
    """What a canned Prometheus answers for the window; the move route's requests are the moves
    stored unless ``answered`` says otherwise."""
    answered = answered or stored
    texts = pc.queries(unit, START, END)
    answers = {
        texts["p95"]: {(): p95},
        texts["p95 by node"]: {(("node", "app1"),): p95, (("node", "app2"),): p95},
        texts["django p95 by node"]: {(("node", "app1"),): 0.05, (("node", "app2"),): 0.06},
        texts["stored by node"]: {(("node", "app1"),): stored[0], (("node", "app2"),): stored[1]},
        texts["unit requests by node"]: {(("node", "app1"),): answered[0],
                                         (("node", "app2"),): answered[1]},
        texts["requests by node"]: {(("node", "app1"),): requests[0],
                                    (("node", "app2"),): requests[1]},
        texts["refusals by scope"]: {(("scope", scope),): value
                                     for scope, value in (refusals or {}).items()},
        texts["queue depth max"]: {(): 3.0},
        texts["oldest pending max"]: {(): 1.5},
        texts["scrapes by node"]: {node("app1"): 8.0, node("app2"): 8.0},
        texts["scrapes answered by node"]: {node("app1"): answered_scrapes[0],
                                            node("app2"): answered_scrapes[1]},
        texts["slowest scrape by node"]: {node("app1"): 0.25, node("app2"): 5.0},
    }
    prometheus = CannedPrometheus(answers)
    figures = pc.collect(prometheus, unit, START, END)
    assert {at for _, at in prometheus.asked} == {END + 2}  # after the last scrape
    return figures


def locust_side(moves: int = 1000, others: int = 200, failures: dict | None = None,
                move_ms: float = 900.0) -> pc.LocustSide:
    journal = {"times": {MOVE.locust_name: [[START + i * 0.01, move_ms] for i in range(moves)],
                         "POST /api/v1/players": [[START, 50.0]] * others,
                         pc.HEALTH: [[START, 5.0]] * 30},
               "failures": failures or {}}
    return pc.LocustSide.of([journal])


def test_figures_that_agree_agree():
    checks = pc.compare(figures_of(), locust_side(), MOVE, acknowledged=1000)
    assert [check.ok for check in checks] == [True] * len(checks), checks
    p95 = next(check for check in checks if "p95" in check.what)
    # 900 ms each: all in the 500-1000 ms bucket, the 95th at 475 of 500 of its width.
    assert p95.locust == "900 (975 bucketed alike)"
    assert p95.prometheus == "900 (500-1000 ms)"
    assert p95.tolerance == "apart by at most its bucket's width, 500 ms"
    # Anywhere in Prometheus's bucket is within its resolution; timed inside Django (a p95 of
    # 99 ms where the client's was 900) is not.
    assert pc.compare(figures_of(p95=0.55), locust_side(), MOVE, 1000)[-1].ok
    assert not pc.compare(figures_of(p95=0.099), locust_side(), MOVE, 1000)[-1].ok


@pytest.mark.parametrize(("figures", "locust", "what"), [
    ({"stored": (500.0, 499.0), "answered": (500.0, 500.0)}, {}, "moves stored"),
    ({"requests": (600.0, 650.0)}, {}, "requests answered (not /healthz, /metrics)"),
    ({"refusals": {"moves": 2.0}}, {}, "rate-limit refusals (HTTP)"),
    ({"p95": 0.3}, {}, "move p95 ms, both nodes, from HAProxy"),
], ids=["stored", "requests", "refusals", "p95"])
def test_figures_that_do_not_agree_are_named(figures, locust, what):
    checks = pc.compare(figures_of(**figures), locust_side(**locust), MOVE, acknowledged=1000)
    assert [check.what for check in checks if not check.ok] == [what]


def test_locusts_failed_attempts_are_the_requests_tolerance():
    # 10 moves locust saw fail (a 503 the node answered, or HAProxy's own): the nodes' count
    # may be up to 10 apart; a socket's 4429 is no HTTP refusal.
    failures = {f"{MOVE.locust_name} 503": 10}
    checks = pc.compare(figures_of(stored=(500.0, 505.0), requests=(600.0, 610.0),
                                   refusals={"sockets": 4.0}),
                        locust_side(failures=failures), MOVE, acknowledged=1005)
    assert all(check.ok for check in checks), checks
    checks = pc.compare(figures_of(stored=(500.0, 511.0)), locust_side(failures=failures), MOVE,
                        acknowledged=1011)
    assert [check.what for check in checks if not check.ok] == ["move requests answered"]


class SlowPrometheus(CannedPrometheus):
    """Its scrape after the load times out on app1 first, then answers."""

    def __init__(self) -> None:
        super().__init__({})
        self.scrapes = iter([{"app1": (END - 3, True), "app2": (END + 1, True)},
                             {"app1": (END + 2, False), "app2": (END + 1, True)},
                             {"app1": (END + 7, True), "app2": (END + 6, True)}])

    def last_scrapes(self) -> dict[str, tuple[float, bool]]:
        return next(self.scrapes)


def test_the_figures_wait_for_an_answered_scrape_of_each_node_after_the_load(monkeypatch):
    monkeypatch.setattr(pc.time, "sleep", lambda seconds: None)
    assert SlowPrometheus().wait_for_scrape_after(END) == END + 7


def test_the_report_prints_the_figures_the_checks_and_the_queries():
    figures = figures_of(unit=ACTION, requests=(500.0, 500.0))
    side = pc.LocustSide({ACTION.locust_name: [900.0] * 1000}, {})
    checks = pc.compare(figures, side, ACTION, acknowledged=1000)
    lines = pc.report_lines(figures, checks, ACTION)
    text = "\n".join(lines)
    assert lines[0] == "-- Prometheus (scraping both nodes' /metrics), the load's 40.0 s"
    assert ("action p95 ms by node, from HAProxy's receipt: app1 900, app2 900; inside Django: "
            "app1 50, app2 60") in text
    assert "requests/s by node (not /healthz, /metrics): app1 12.5, app2 12.5" in text
    assert "job queue depth at most 3, oldest pending job at most 1.5 s" in text
    # A scrape that timed out is shown, not held against the load (the counters lose nothing).
    assert ("scrapes answered within the timeout: app1 8 of 8 (slowest 0.25 s), app2 7 of 8 "
            "(slowest 5.00 s)") in text
    assert "actions stored" in text and ": agree" in text and "DISAGREE" not in text
    assert 'histogram_quantile(0.95, sum by (node, le) (foursquare_request_proxied' in text
