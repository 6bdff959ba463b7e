"""The server's own times in the load's report: read from a real registry's exposition."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from loadtest.server_times import cpu_lines, report_lines, route_cpu, route_times
from server.core.metrics import DURATION_BUCKETS

ACTION = "api/v1/spite-malice/matches/<uuid:match_id>/actions"


MOVE = "api/v1/games/<uuid:game_id>/moves"
BOARD = "api/v1/leaderboard"


def exposition(observations: dict[tuple[str, str], list[float]],
               sent: dict[tuple[str, str], list[float]] | None = None,
               cpu: dict[tuple[str, str], float] | None = None) -> str:
    registry = CollectorRegistry()
    duration = Histogram("foursquare_request_duration_seconds", "t", ["route", "method"],
                         buckets=DURATION_BUCKETS, registry=registry)
    proxied = Histogram("foursquare_request_proxied_duration_seconds", "t", ["route", "method"],
                        buckets=DURATION_BUCKETS, registry=registry)
    for histogram, observed in ((duration, observations), (proxied, sent or {})):
        for (route, method), seconds in observed.items():
            for value in seconds:
                histogram.labels(route, method).observe(value)
    if cpu is not None:  # the server's counter, as server.core.metrics names it
        spent = Counter("foursquare_request_cpu_seconds", "t", ["route", "method"],
                        registry=registry)
        for (route, method), seconds in cpu.items():
            spent.labels(route, method).inc(seconds)
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


def test_each_routes_cpu_per_request_and_share_of_all_the_routes_cpu():
    # 100 moves that spent 0.15 s of their threads' CPU, 60 board reads 0.18 s, 3 scrapes
    # 0.03 s (too few to list, but in the share): 1.5 ms a move, 3 ms a read.
    text = exposition({(MOVE, "POST"): [0.003] * 100, (BOARD, "GET"): [0.01] * 60,
                       ("metrics", "GET"): [0.001] * 3},
                      cpu={(MOVE, "POST"): 0.15, (BOARD, "GET"): 0.18, ("metrics", "GET"): 0.03})
    assert route_cpu(text) == {("POST", MOVE): 0.15, ("GET", BOARD): 0.18,
                               ("GET", "metrics"): 0.03}
    move, board = route_times(text)
    assert math.isclose(move.cpu_ms, 1.5) and math.isclose(board.cpu_ms, 3.0)
    assert math.isclose(move.cpu_share, 0.15 / 0.36) and math.isclose(board.cpu_share, 0.5)
    lines = report_lines([move, board])
    assert "thread's CPU" in lines[0] and lines[1].split()[-4:] == ["CPU", "ms", "CPU", "%"]
    assert lines[2].split()[-2:] == ["1.50", "41.7"]
    assert lines[3].split()[-2:] == ["3.00", "50.0"]


def test_a_server_without_the_cpu_counter_gets_no_cpu_columns():
    (move,) = route_times(exposition({(MOVE, "POST"): [0.003] * 60}))
    assert move.cpu_ms is None and move.cpu_share is None
    assert "CPU" not in " ".join(report_lines([move]))
    assert route_cpu(exposition({(MOVE, "POST"): [0.003] * 60})) == {}


def test_the_routes_cpu_over_the_play_is_set_beside_the_apps_and_the_rest_named():
    # Over the play the routes spent 6 s of the app's 8 s (2 s in no route), over 2,000 moves.
    before = {("POST", MOVE): 1.0, ("GET", BOARD): 0.5}
    after = {("POST", MOVE): 5.5, ("GET", BOARD): 2.0, ("GET", "healthz"): 0.0}
    first, routes = cpu_lines(before, after, 8.0, units=2000, unit="move")
    assert "(8.0 s, 100%, 4.00 ms a move)" in first
    assert "in the requests' threads (6.0 s, 75%, 3.00 ms a move)" in first
    assert "the rest (2.0 s, 25%, 1.00 ms a move: event loops" in first
    assert routes.index(f"POST /{MOVE} (4.5 s, 56%") < routes.index(f"GET /{BOARD} (1.5 s, 19%")
    # Nothing to set it beside: no scrape at the start, none at the end, no app CPU.
    assert cpu_lines(None, after, 8.0) == cpu_lines(before, {}, 8.0) == []
    assert cpu_lines(before, after, None) == []
    assert "4.00 ms an action)" in cpu_lines(before, after, 8.0, units=2000, unit="action")[0]
