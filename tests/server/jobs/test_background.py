"""The job queue (server.jobs.background): attempts counted at each claim, so a job that keeps
raising or whose process keeps dying ends failed; the apps' registrations; the leases that let
one process of several run a pass; and a queue that imports no game."""

from __future__ import annotations

import ast
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from server.jobs import background
from server.jobs.background import MAX_ATTEMPTS, STALE_AFTER, job_enqueue, job_run, job_run_next
from server.jobs.models import Job, Lease
from tests.server.concurrently import race

pytestmark = pytest.mark.sqlite

JOBS_APP = Path(background.__file__).parent
GAME_PACKAGES = ("foursquare", "spitemalice", "server.foursquare", "server.spitemalice")


@pytest.fixture
def registry(monkeypatch):
    """Tasks and checks a test registers are gone after it."""
    monkeypatch.setattr(background, "_tasks", dict(background._tasks))
    monkeypatch.setattr(background, "_periodic", dict(background._periodic))


def retry_due(job: Job) -> None:
    """The wait before the job's retry is over."""
    Job.objects.filter(pk=job.pk).update(run_after=timezone.now())


def claimed_long_ago(job: Job, stale_after: timedelta = STALE_AFTER) -> None:
    """The job's running attempt started before it counts as dead."""
    Job.objects.filter(pk=job.pk).update(
        started_at=timezone.now() - stale_after - timedelta(seconds=1))


def test_a_job_that_keeps_raising_ends_failed_after_max_attempts(db, registry):
    given_up = []

    def broken(key):
        raise RuntimeError(f"cannot do {key}")

    background.register_task("broken", broken, given_up=given_up.append)
    job = job_enqueue(kind="broken", key="k1")
    for attempt in range(1, MAX_ATTEMPTS):
        job = job_run(job.pk)
        assert (job.status, job.attempts) == ("pending", attempt)
        assert f"Attempt {attempt} of {MAX_ATTEMPTS} failed" in job.error
        assert "cannot do k1" in job.error
        assert job_run(job.pk) is None  # its retry waits a little
        retry_due(job)
    job = job_run(job.pk)

    stored = Job.objects.get(pk=job.pk)
    assert (stored.status, stored.attempts) == ("failed", MAX_ATTEMPTS)
    assert f"Attempt {MAX_ATTEMPTS} of {MAX_ATTEMPTS} failed" in stored.error
    assert "cannot do k1" in stored.error and stored.finished_at is not None
    assert given_up == ["k1"]  # its effect repaired, once
    assert job_run(job.pk) is None and job_run_next() is None
    assert job_enqueue(kind="broken", key="k1").status == "failed"  # no fourth attempt
    assert job_run_next() is None


def test_a_job_that_fails_then_succeeds_is_done_with_no_error(db, registry):
    calls = []

    def flaky(key):
        calls.append(key)
        if len(calls) == 1:
            raise ConnectionError("the database went away")

    background.register_task("flaky", flaky)
    job = job_run(job_enqueue(kind="flaky", key="k").pk)
    assert job.status == "pending" and "went away" in job.error
    retry_due(job)
    job = job_run_next()
    assert (job.status, job.attempts, job.error) == ("done", 2, "")


def test_a_job_whose_process_keeps_dying_is_claimed_again_and_ends_failed(db, registry):
    given_up = []

    def dies(key):  # the process stops mid-job: the row is left running, nothing is stored
        raise SystemExit("the worker was killed")

    background.register_task("dies", dies, given_up=given_up.append)
    job = job_enqueue(kind="dies", key="k2")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        with pytest.raises(SystemExit):
            job_run_next()
        job.refresh_from_db()
        assert (job.status, job.attempts) == ("running", attempt)  # counted at its claim
        assert job_run(job.pk) is None  # running, not stale yet: nobody takes it over
        claimed_long_ago(job)
    job = job_run_next()

    stored = Job.objects.get(pk=job.pk)
    assert (stored.status, stored.attempts) == ("failed", MAX_ATTEMPTS)
    assert f"Attempt {MAX_ATTEMPTS} of {MAX_ATTEMPTS} never finished" in stored.error
    assert given_up == ["k2"]
    assert job_run_next() is None


def test_a_job_left_running_from_before_the_limit_is_given_up_at_once(db, registry):
    background.register_task("old", lambda key: None)
    job = job_enqueue(kind="old", key="k")
    Job.objects.filter(pk=job.pk).update(status="running", attempts=40)
    claimed_long_ago(job)
    assert job_run_next().status == "failed"
    assert Job.objects.get(pk=job.pk).attempts == 40  # not claimed a 41st time


def test_a_task_may_count_its_attempts_dead_sooner(db, registry):
    ran = []
    background.register_task("quick", ran.append, stale_after=timedelta(minutes=2))
    job = job_enqueue(kind="quick", key="k")
    Job.objects.filter(pk=job.pk).update(status="running", attempts=1)
    claimed_long_ago(job, timedelta(minutes=2))
    assert job_run_next().status == "done" and ran == ["k"]


def test_work_recorded_while_its_job_runs_runs_the_job_once_more(db, registry):
    """The reproduction: the bot's turn job stored the bot's moves, the person answered at
    once, and the bot's next turn was recorded while that job had not yet ended: it found
    the job running, and nothing ever played the bot's turn."""
    runs: list[str] = []

    def bot_turn(key: str) -> None:
        runs.append(key)
        if len(runs) == 1:  # the person's answer, before this run ends
            job_enqueue(kind="bot", key=key, fresh=True)

    background.register_task("bot", bot_turn)
    job_enqueue(kind="bot", key="match", fresh=True)

    assert job_run_next().status == "pending"  # ran, and is due again
    assert job_run_next().status == "done"
    assert runs == ["match", "match"] and job_run_next() is None
    job_enqueue(kind="bot", key="match", fresh=True)  # a later turn: the done job runs again
    assert job_run_next().status == "done" and len(runs) == 3
    assert Job.objects.get().attempts == 1


def test_a_job_of_a_kind_nobody_registered_fails_with_that_reason(db, registry):
    job = job_run(job_enqueue(kind="nobody", key="k").pk)
    assert job.status == "pending" and "No task is registered as 'nobody'" in job.error


def test_the_apps_register_their_tasks_and_checks():
    assert {"daily_prepare", "game_analyse", "sm_bot_turn"} <= set(background.tasks())
    checks = {check.name: check for check in background.periodic_checks()}
    assert not checks["spite-malice clocks"].once  # safe in every process: no lease
    for name in ("idempotency keys", "foursquare dailies", "spite-malice dailies"):
        assert checks[name].once and checks[name].seconds == 3600


def test_the_job_queue_imports_no_game():
    for path in JOBS_APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith(GAME_PACKAGES), f"{path.name} imports {name}"


@pytest.mark.django_db(transaction=True)
def test_of_several_processes_asking_at_once_one_takes_a_lease(registry):
    took = race(lambda _: background.lease_take("pass", 60))
    assert took.count(True) == 1
    assert not background.lease_take("pass", 60)
    Lease.objects.filter(name="pass").update(expires_at=timezone.now())  # an hour later
    assert race(lambda _: background.lease_take("pass", 60)).count(True) == 1


@pytest.mark.django_db(transaction=True)
def test_runners_at_once_run_a_once_check_once_per_interval(registry):
    passes = []
    background.register_periodic("test pass", 3600, lambda: passes.append(1) or 1, once=True)
    background.register_periodic("everywhere", 2, lambda: 0)

    done = race(lambda _: background.Ticker().run_due())

    assert len(passes) == 1
    assert [result.get("test pass") for result in done].count(1) == 1
    assert all("everywhere" in result for result in done)  # no lease: every runner
    assert "test pass" not in background.Ticker().run_due()  # a runner started since
    Lease.objects.filter(name="periodic:test pass").update(expires_at=timezone.now())
    assert background.Ticker().run_due()["test pass"] == 1 and len(passes) == 2


@pytest.mark.django_db(transaction=True)
def test_claimers_released_at_once_run_each_job_exactly_once(registry):
    ran = []
    background.register_task("once", ran.append)
    keys = [f"job-{number:02}" for number in range(12)]
    for key in keys:
        job_enqueue(kind="once", key=key)

    def claim_until_none(_):  # a runner: claims and runs until it finds nothing to claim
        claimed = []
        while (job := job_run_next()) is not None:
            claimed.append(job.key)
        return claimed

    claims = race(claim_until_none)

    assert sorted(ran) == keys  # each job's task ran once: none twice, none left out
    assert sorted(key for claimed in claims for key in claimed) == keys
    assert set(Job.objects.values_list("status", "attempts")) == {("done", 1)}


@pytest.mark.django_db(transaction=True)
def test_claimers_of_one_dead_job_released_at_once_take_it_over_once(registry):
    ran = []
    background.register_task("taken over", ran.append)
    job = job_enqueue(kind="taken over", key="k")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, attempts=1)
    claimed_long_ago(job)  # its process died mid-run

    runs = race(lambda _: job_run(job.pk))

    assert ran == ["k"]
    assert sum(run is not None for run in runs) == 1
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("done", 2)


@pytest.mark.postgresql  # elsewhere a worker just waits out its poll
@pytest.mark.django_db(transaction=True)
def test_a_waiting_worker_wakes_as_soon_as_a_job_is_recorded(registry, monkeypatch):
    monkeypatch.setattr(background, "_listening", threading.local())
    background.register_task("wake", lambda key: None)
    listening, waited = threading.Event(), []

    def worker():
        try:
            background.job_wait(0)  # it listens from now on
            listening.set()
            started = time.monotonic()
            background.job_wait(60)
            waited.append(time.monotonic() - started)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    assert listening.wait(10)
    job_enqueue(kind="wake", key="k")  # committed at once: no transaction around it
    thread.join(60)
    assert waited and waited[0] < 30  # woken by the commit, not by the end of its wait


def test_a_periodic_check_that_gives_way_to_a_conflict_warns_and_runs_again(registry, caplog):
    """PostgreSQL breaks a deadlock (a beat meeting a TRUNCATE, say) by aborting one side: the
    check warns without a traceback and runs at its next turn; any other database error is
    still logged as a failure, with its traceback."""
    import psycopg.errors
    from django.db import OperationalError

    calls = []

    def conflicted() -> int:
        calls.append(1)
        try:  # as Django raises it: its own error, the driver's as the cause
            raise psycopg.errors.DeadlockDetected("deadlock detected")
        except psycopg.errors.DeadlockDetected as cause:
            raise OperationalError("deadlock detected") from cause

    def broken() -> int:
        raise OperationalError("no such table")

    background.register_periodic("conflicted", 2, conflicted)
    background.register_periodic("broken", 2, broken)
    ticker = background.Ticker(registered=False, extra=[
        background._periodic["conflicted"], background._periodic["broken"]])
    with caplog.at_level("WARNING", logger="server.jobs.background"):
        assert ticker.run_due(now=100.0) == {}
    [warned] = [r for r in caplog.records if "conflicted" in r.getMessage()]
    assert warned.levelname == "WARNING" and warned.exc_info is None
    assert "gave way to a conflicting transaction (deadlock detected)" in warned.getMessage()
    [failed] = [r for r in caplog.records if "broken" in r.getMessage()]
    assert failed.levelname == "ERROR" and failed.exc_info is not None
    ticker.run_due(now=103.0)  # its next turn
    assert len(calls) == 2
