"""The server's own times in the load's report: read from a real registry's exposition."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from loadtest.server_times import report_lines, route_times
from server.core.metrics import DURATION_BUCKETS

ACTION = "api/v1/spite-malice/matches/<uuid:match_id>/actions"


def exposition(observations: dict[tuple[str, str], list[float]]) -> str:
    registry = CollectorRegistry()
    duration = Histogram("foursquare_request_duration_seconds", "t", ["route", "method"],
                         buckets=DURATION_BUCKETS, registry=registry)
    for (route, method), seconds in observations.items():
        for value in seconds:
            duration.labels(route, method).observe(value)
    return generate_latest(registry).decode()


def test_each_busy_route_gets_its_count_and_quantiles_from_the_buckets():
    # 90 actions at 3 ms and 10 at 40 ms: the median is in the 2.5-5 ms bucket, the p95 in
    # the 25-50 ms one (Prometheus's linear estimate inside each).
    text = exposition({(ACTION, "POST"): [0.003] * 90 + [0.040] * 10,
                       ("api/v1/players", "POST"): [0.020] * 60,
                       ("metrics", "GET"): [0.001] * 3})
    times = route_times(text)

    assert [(t.method, t.route, t.count) for t in times] == [
        ("POST", ACTION, 100), ("POST", "api/v1/players", 60)]  # "metrics": fewer than 50
    action = times[0]
    assert 2.5 < action.p50_ms < 5.0
    assert math.isclose(action.p50_ms, 2.5 + 2.5 * 50 / 90)
    assert 25.0 < action.p95_ms <= 50.0
    assert math.isclose(action.p95_ms, 25 + 25 * 5 / 10)


def test_the_report_names_each_route_with_its_figures():
    text = exposition({(ACTION, "POST"): [0.003] * 60})
    lines = report_lines(route_times(text))
    assert "Django's middleware" in lines[0]
    assert lines[2].startswith(f"POST /{ACTION} ") and lines[2].split()[-3] == "60"
    assert report_lines([]) == []
