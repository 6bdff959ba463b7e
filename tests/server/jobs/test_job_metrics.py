"""What the job queue counts for /metrics: the wait before each attempt from pending, every
attempt that raised or never finished, and the jobs given up for good."""

from __future__ import annotations

import pytest

from server.core.metrics import REGISTRY
from server.jobs import background
from server.jobs.background import MAX_ATTEMPTS, job_enqueue, job_run, job_run_next
from tests.server.jobs.test_background import claimed_long_ago, registry, retry_due

pytestmark = pytest.mark.sqlite
__all__ = ["registry"]  # the fixture, used by name


def counted(kind: str) -> tuple[float, float, float]:
    """(attempts failed, given up, starts timed) of ``kind`` so far."""
    def sample(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, {"kind": kind, **labels}) or 0.0

    return (sample("foursquare_job_failures_total", outcome="attempt"),
            sample("foursquare_job_failures_total", outcome="given_up"),
            sample("foursquare_job_start_delay_seconds_count"))


def test_a_job_that_keeps_raising_counts_each_attempt_and_its_giving_up(db, registry):
    def broken(key):
        raise RuntimeError("no")

    background.register_task("m-broken", broken)
    before = counted("m-broken")
    job = job_enqueue(kind="m-broken", key="1")
    for _ in range(MAX_ATTEMPTS):
        job = job_run(job.pk)
        retry_due(job)
    after = counted("m-broken")
    assert [a - b for a, b in zip(after, before, strict=True)] == [MAX_ATTEMPTS, 1, MAX_ATTEMPTS]


def test_a_job_whose_process_keeps_dying_counts_each_attempt_that_never_finished(db, registry):
    def dies(key):
        raise SystemExit("killed")

    background.register_task("m-dies", dies)
    before = counted("m-dies")
    job = job_enqueue(kind="m-dies", key="1")
    for _ in range(MAX_ATTEMPTS):
        with pytest.raises(SystemExit):
            job_run_next()
        job.refresh_from_db()
        claimed_long_ago(job)
    job_run_next()  # finds the last attempt dead: given up
    after = counted("m-dies")
    # One start from pending; each later claim found the attempt before it dead.
    assert [a - b for a, b in zip(after, before, strict=True)] == [MAX_ATTEMPTS, 1, 1]
