"""The server's own times in the load's report: read from a real registry's exposition."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from loadtest.server_times import report_lines, route_times
from server.core.metrics import DURATION_BUCKETS

ACTION = "api/v1/spite-malice/matches/<uuid:match_id>/actions"


def exposition(observations: dict[tuple[str, str], list[float]],
               sent: dict[tuple[str, str], list[float]] | None = None) -> str:
    registry = CollectorRegistry()
    duration = Histogram("foursquare_request_duration_seconds", "t", ["route", "method"],
                         buckets=DURATION_BUCKETS, registry=registry)
    proxied = Histogram("foursquare_request_proxied_duration_seconds", "t", ["route", "method"],
                        buckets=DURATION_BUCKETS, registry=registry)
    for histogram, observed in ((duration, observations), (proxied, sent or {})):
        for (route, method), seconds in observed.items():
            for value in seconds:
                histogram.labels(route, method).observe(value)
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


def test_the_time_from_the_clients_send_is_shown_beside_djangos_where_it_was_stamped():
    # Django's own 3 ms; from the client's send, 90 at 7 ms and 10 at 200 ms (a wait for a
    # thread): the p95 lands in the 100-250 ms bucket.
    text = exposition({(ACTION, "POST"): [0.003] * 100, ("api/v1/players", "POST"): [0.02] * 60},
                      sent={(ACTION, "POST"): [0.007] * 90 + [0.200] * 10})
    action, players = route_times(text)
    assert 5.0 < action.sent_p50_ms < 10.0
    assert 100.0 < action.sent_p95_ms <= 250.0
    assert players.sent_p95_ms is None  # never stamped
    lines = report_lines([action, players])
    assert "client's send" in lines[0] and lines[1].split()[-2:] == ["sent", "p95"]
    assert lines[2].split()[-1] == f"{action.sent_p95_ms:.1f}"
    assert lines[3].split()[-2:] == ["-", "-"]
