"""What the job queue counts for /metrics: the wait before each attempt from pending, every
attempt that raised or never finished, and the jobs given up for good."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.core.metrics import REGISTRY
from server.jobs import background
from server.jobs.background import MAX_ATTEMPTS, job_enqueue, job_run, job_run_next
from server.jobs.models import Job
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


def test_a_job_made_pending_again_has_waited_since_its_new_work_not_since_it_was_made(
        db, registry):
    """A match's bot job is one row for the whole match: each new turn makes it pending again.
    Its wait to start is counted from then, however old the row, and so is the oldest wait."""
    background.register_task("m-again", lambda key: None)
    job = job_enqueue(kind="m-again", key="1")
    assert job_run(job.pk).status == Job.Status.DONE
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(hours=1))
    delays = REGISTRY.get_sample_value("foursquare_job_start_delay_seconds_sum",
                                       {"kind": "m-again"}) or 0.0
    job = job_enqueue(kind="m-again", key="1", fresh=True)  # a new turn's work
    assert job.status == Job.Status.PENDING
    assert oldest_pending_seconds() < 60  # not the hour since the row was made
    assert not background._leftovers_run()  # nor left behind by a process that stopped
    assert job_run(job.pk).status == Job.Status.DONE
    waited = (REGISTRY.get_sample_value("foursquare_job_start_delay_seconds_sum",
                                        {"kind": "m-again"}) or 0.0) - delays
    assert 0 <= waited < 60


def test_work_recorded_while_a_job_ran_is_due_from_the_runs_end(db, registry):
    def records_more(key):  # a person's answer stored while the bot's job runs
        job_enqueue(kind="m-during", key=key, fresh=True)

    background.register_task("m-during", records_more)
    job = job_enqueue(kind="m-during", key="1")
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(hours=1))
    ran = job_run(job.pk)
    assert ran.status == Job.Status.PENDING  # to run once more
    again = Job.objects.get(pk=job.pk)
    assert again.created_at > timezone.now() - timedelta(seconds=60)
    assert oldest_pending_seconds() < 60


def oldest_pending_seconds() -> float:
    family = next(f for f in background.queue_families()
                  if f.name == "foursquare_job_oldest_pending_seconds")
    return family.samples[0].value
