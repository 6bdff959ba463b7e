"""The house bot's CPU a turn in the load's report: read from a real registry's exposition, with
the server's own buckets."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from loadtest.bot_times import bot_job_wait, bot_turns, report_lines
from server.spitemalice.metrics import BOT_TURN_BUCKETS


def exposition(turns: dict[tuple[str, str], list[float]],
               waits: dict[str, list[float]] | None = None) -> str:
    registry = CollectorRegistry()
    cpu = Histogram("foursquare_bot_turn_cpu_seconds", "t", ["level", "where"],
                    buckets=BOT_TURN_BUCKETS, registry=registry)
    delay = Histogram("foursquare_job_start_delay_seconds", "t", ["kind"],
                      buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25), registry=registry)
    for (level, where), seconds in turns.items():
        for value in seconds:
            cpu.labels(level, where).observe(value)
    for kind, seconds in (waits or {}).items():
        for value in seconds:
            delay.labels(kind).observe(value)
    return generate_latest(registry).decode()


def test_each_level_and_place_gets_its_turns_quantiles_and_turns_over_the_limits():
    # expert in its job: 90 turns at 80 ms, 6 at 1.5 s and 4 at 3 s (over 1 s and 2 s);
    # easy in requests: 50 at 0.3 ms and 2 at 7 ms (over 5 ms).
    text = exposition({("expert", "job"): [0.08] * 90 + [1.5] * 6 + [3.0] * 4,
                       ("easy", "request"): [0.0003] * 48 + [0.007] * 2,
                       ("hard", "request"): []})
    easy, expert = bot_turns(text)  # by level; none for a level that played no turn
    assert (easy.level, easy.where, easy.count, easy.over) == ("easy", "request", 50,
                                                                (2, 0, 0, 0))
    assert (expert.level, expert.where, expert.count) == ("expert", "job", 100)
    assert expert.over == (100, 100, 10, 4)  # exact: the limits are bucket edges
    assert 50.0 < expert.p50_ms <= 100.0
    assert math.isclose(expert.p50_ms, 50 + 50 * 50 / 90)
    assert 1000.0 < expert.p95_ms <= 2000.0  # the 95th of 100 is the 5th of the 6 at 1.5 s
    assert math.isclose(expert.p95_ms, 1000 + 1000 * 5 / 6)
    assert 0.0 < easy.p95_ms <= 1.0


def test_the_bot_jobs_wait_is_read_for_its_own_kind_only():
    text = exposition({("expert", "job"): [0.1]},
                      waits={"sm_bot_turn": [0.007] * 18 + [0.2] * 2, "daily_prepare": [0.25] * 5})
    wait = bot_job_wait(text)
    assert wait is not None and wait.count == 20
    assert 5.0 < wait.p50_ms <= 10.0 and 100.0 < wait.p95_ms <= 250.0
    assert bot_job_wait(exposition({("easy", "request"): [0.001]})) is None


def test_the_report_names_each_row_with_its_figures():
    text = exposition({("expert", "job"): [0.08] * 9 + [1.5]},
                      waits={"sm_bot_turn": [0.007] * 10})
    lines = report_lines(bot_turns(text), bot_job_wait(text))
    assert "CPU a turn" in lines[0]
    assert lines[1].split()[-12:] == [">", "5", "ms", ">", "50", "ms",
                                      ">", "1", "s", ">", "2", "s"]
    assert lines[2].split()[:3] == ["expert", "job", "10"]
    assert lines[2].split()[-4:] == ["10", "10", "1", "0"]  # over 5 ms, 50 ms, 1 s, 2 s
    assert lines[3].startswith("the bot's jobs waited to start") and "over 10 jobs" in lines[3]
    assert report_lines([], None) == []
