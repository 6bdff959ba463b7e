"""make load's figures after the start burst (loadtest.verify.steady_latency): only the requests
begun once the burst is over count, so a paced mix's p95 is about play, not sign-ups."""

from __future__ import annotations

from loadtest.verify import WARMUP_SECONDS, settled_at, steady_latency


def merged_run(times: dict[str, list[tuple[float, float]]]) -> dict:
    starts = [started for rows in times.values() for started, _ in rows]
    return {"times": times, "first": min(starts), "last": max(starts)}


def test_only_requests_begun_after_the_burst_count():
    start = 1_000.0
    times = {"POST move": [(start, 900.0), (start + 1, 800.0),
                           (start + WARMUP_SECONDS, 20.0), (start + WARMUP_SECONDS + 5, 30.0)]}
    merged = merged_run(times)
    duration = WARMUP_SECONDS + 10
    assert settled_at(merged, duration) == start + WARMUP_SECONDS
    steady = steady_latency(merged, duration)["POST move"]
    assert steady["count"] == 2 and steady["max"] == 30.0
    assert steady["per_second"] == 2 / 10


def test_a_run_no_longer_than_the_burst_has_no_steady_part():
    merged = merged_run({"POST move": [(5.0, 10.0)]})
    assert settled_at(merged, WARMUP_SECONDS) is None
    assert steady_latency(merged, WARMUP_SECONDS) == {}
