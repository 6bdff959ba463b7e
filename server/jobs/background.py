"""Background work without new infrastructure: a job table, an in-process runner, a worker.

This module knows no game. Each app declares its work from its ``AppConfig.ready()``:

- ``register_task(kind, handler, given_up=...)``: what a job of that kind runs (``handler(key)``)
  and, optionally, what repairs its effect when the job ends failed for good
  (``given_up(key)``: a Spite & Malice bot turn is then played by a fallback that cannot fail
  the same way).
- ``register_task(..., priority=BULK)``: work that no match waits on (an analysis, a daily's
  preparation), run after every ``URGENT`` job (a bot's turn) and on a lane of its own.
- ``register_periodic(name, seconds, check, once=..., clock=...)``: a check run every
  ``seconds``; with ``once`` (the housekeeping), by one process per interval however many run
  it, through a lease row taken by compare-and-set (``lease_take``); without, in every process,
  for checks that are safe to run in several at once (the turn clocks). With ``clock``, it runs
  on each process's clock thread, never behind a job.

**The clock thread** (``clocks_start``), which every process of the service starts (each app
server's worker in gunicorn.conf.py's ``post_worker_init``, whether or not it runs jobs, and
``run_jobs``), beats the process's heartbeat every ``liveness.HEARTBEAT_SECONDS`` (the beat that
ends an outage of the whole service moves the clocks on by it: ``server.jobs.liveness``) and
runs the ``clock`` checks (Spite & Malice's turn clocks, the races' closing). It runs no job, so
a job of any length delays no deadline, and with app servers up a stopped worker stops no clock.

**Priorities.** Each job has its task's ``priority`` (0, ``URGENT``: what a match waits on; 10,
``BULK``: CPU-heavy work nobody waits on in play). Jobs are claimed in order of priority, then
age, and each runner has two lanes, one thread each: the urgent lane claims only urgent jobs,
the bulk lane any, urgent first. A bot's turn queued behind a dozen analyses, or recorded while
a 40-second analysis runs, starts at once on the urgent lane.

``job_enqueue`` records a job (once per kind and key) and, when the surrounding transaction
commits, hands it to this process's runner thread, so a request never waits for it and a bot
turn starts some 10 ms after its request's commit (docs/OPERATIONS.md, "Background work", has
the measurements). ``FOURSQUARE_BACKGROUND = "off"`` leaves jobs pending for
``manage.py run_jobs`` (a worker process; the better choice in production, since the bot's CPU
work then does not share the web process's interpreter lock), which on PostgreSQL the commit
wakes at once (``NOTIFY``; ``job_wait``), or, in tests, for a direct ``job_run`` call.

**Attempts.** Whoever runs a job claims it first, flipping it from pending to running in one
compare-and-set statement that also counts the attempt, so the thread and a worker never run
the same job twice, and an attempt whose process died (the job left running) counts like one
that raised. A job that raised waits ``RETRY_SECONDS`` times its attempts and runs again; one
left running is claimable again after its task's ``stale_after``. After ``MAX_ATTEMPTS``
claims it ends ``failed`` with its last error, and its task's ``given_up`` runs.

**The runner thread** (``FOURSQUARE_BACKGROUND = "thread"``), which each server process starts
as it boots (gunicorn.conf.py's ``post_worker_init``; never in tests or management commands),
runs this process's jobs, every periodic check (the housekeeping included: ``make run`` needs no
worker), and every ``LEFTOVER_SECONDS`` the jobs another process left behind (pending since
before it died, or due for a retry). ``run_jobs`` runs the same periodic checks in its loop.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import (
    DatabaseError,
    IntegrityError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

if TYPE_CHECKING:
    from prometheus_client.core import Metric

from server.core import metrics
from server.jobs import liveness
from server.jobs.models import Heartbeat, Job, Lease

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
STALE_AFTER = timedelta(minutes=15)  # a job running longer was left by a process that died
RETRY_SECONDS = 3.0  # a failed attempt n is tried again after n times this
TICK_SECONDS = 1.0  # how often the runner thread looks whether a periodic check is due
LEASE_POLL_SECONDS = 60.0  # how often a process asks for a ``once`` check's lease, at most
LEFTOVER_SECONDS = 30.0  # the runner's look for jobs nobody is running; also their grace
LEFTOVERS_PER_PASS = 10
URGENT = 0  # a job's priority: what a match waits on (a bot's turn)
BULK = 10  # CPU-heavy work no match waits on (an analysis, a daily's preparation)
NOTIFY_CHANNEL = "foursquare_jobs"  # PostgreSQL: a job was recorded (``job_wait``)
_kind_length = Job._meta.get_field("kind").max_length
assert _kind_length is not None  # a CharField of a set length
_KIND_LENGTH: int = _kind_length
_HOLDER = f"{socket.gethostname()}:{os.getpid()}"[:64]


@dataclass(frozen=True)
class Task:
    kind: str
    run: Callable[[str], None]
    given_up: Callable[[str], None] | None
    stale_after: timedelta
    priority: int = URGENT


@dataclass(frozen=True)
class Periodic:
    name: str
    seconds: float
    check: Callable[[], int]  # returns how many things it changed
    once: bool  # across processes: one pass per interval, under a lease
    report: str  # what ``run_jobs`` prints of a pass that changed something: "{} ..."
    clock: bool = False  # run on the clock thread (``clocks_start``), never behind a job


_tasks: dict[str, Task] = {}
_periodic: dict[str, Periodic] = {}


def register_task(kind: str, handler: Callable[[str], None], *,
                  given_up: Callable[[str], None] | None = None,
                  stale_after: timedelta = STALE_AFTER, priority: int = URGENT) -> None:
    """Run ``handler(key)`` for each job of ``kind``. ``given_up(key)``, if any, runs once the
    job has ended failed for good: it repairs what the job left undone, by a way that cannot
    fail like the job did. ``stale_after``: how long an attempt may run before it counts as
    dead (its process stopped) and the job may be claimed again. ``priority``: ``URGENT`` for
    what a match waits on, ``BULK`` for CPU-heavy work that must not delay one. Registering a
    kind again replaces it (``ready()`` may run more than once)."""
    if len(kind) > _KIND_LENGTH:
        raise ValueError(f"A task's kind has at most {_KIND_LENGTH} characters: {kind!r}")
    _tasks[kind] = Task(kind, handler, given_up, stale_after, priority)


def register_periodic(name: str, seconds: float, check: Callable[[], int], *,
                      once: bool = False, report: str | None = None,
                      clock: bool = False) -> None:
    """Run ``check()`` every ``seconds`` in the runner thread and in ``run_jobs``, or with
    ``clock`` on every process's clock thread. With ``once``, one process runs it per interval
    (a lease); without, every process that runs the periodic checks does, so the check must be
    safe in several at once."""
    _periodic[name] = Periodic(name, seconds, check, once, report or f"{name}: {{}}", clock)


def tasks() -> dict[str, Task]:
    return dict(_tasks)


def periodic_checks() -> list[Periodic]:
    return list(_periodic.values())


# --- Leases -------------------------------------------------------------------------------------


def lease_take(name: str, seconds: float) -> bool:
    """Whether this process may run the pass ``name`` now; if so it holds the pass for
    ``seconds``, and nobody else may run it before they have passed.

    Compare-and-set: the lease's row is moved on only where it has expired, in one statement,
    so of the processes that ask at once exactly one changes it (PostgreSQL re-checks the
    condition after the row lock it waited for; SQLite writes one at a time). A holder that
    dies mid-pass blocks the pass until the lease expires, never longer."""
    now = timezone.now()
    until = now + timedelta(seconds=seconds)
    if Lease.objects.filter(name=name, expires_at__lte=now).update(expires_at=until,
                                                                   holder=_HOLDER):
        return True
    if Lease.objects.filter(name=name).exists():
        return False
    try:
        with transaction.atomic():
            Lease.objects.create(name=name, expires_at=until, holder=_HOLDER)
    except IntegrityError:  # another process created it first
        return False
    return True


# --- Periodic checks ----------------------------------------------------------------------------


class Ticker:
    """Runs each periodic check when its interval has passed since it last ran here; a
    ``once`` check also needs its lease, asked for every ``LEASE_POLL_SECONDS`` at most.
    ``clocks``: only the clock thread's checks (True), only the others (False), or all (None);
    ``registered=False``: none of them. The ``extra`` checks run first, in their order."""

    def __init__(self, extra: list[Periodic] | None = None, clocks: bool | None = None,
                 registered: bool = True) -> None:
        self._last: dict[str, float] = {}
        self._extra = extra or []
        self._clocks = clocks
        self._registered = registered  # False: the ``extra`` checks only

    def run_due(self, now: float | None = None) -> dict[str, int]:
        """Run the checks that are due (``now``: a ``time.monotonic()`` reading); what each
        that ran changed, by name."""
        now = time.monotonic() if now is None else now
        done = {}
        chosen = [periodic for periodic in _periodic.values() if self._registered
                  and (self._clocks is None or periodic.clock == self._clocks)]
        for periodic in [*self._extra, *chosen]:
            every = min(periodic.seconds, LEASE_POLL_SECONDS) if periodic.once \
                else periodic.seconds
            if now - self._last.get(periodic.name, float("-inf")) < every:
                continue
            self._last[periodic.name] = now
            try:
                if periodic.once and not lease_take(f"periodic:{periodic.name}",
                                                    periodic.seconds):
                    continue  # another process ran it within its interval
                done[periodic.name] = periodic.check()
            except DatabaseError as error:
                if not retryable(error):
                    logger.exception("periodic check %s failed", periodic.name)
                    continue
                # Not a fault: PostgreSQL let a conflicting transaction through (a schema
                # change or TRUNCATE meeting a beat, say); the pass runs again at its turn.
                logger.warning("periodic check %s gave way to a conflicting transaction (%s); "
                               "it runs again at its next turn", periodic.name,
                               str(error).splitlines()[0] if str(error) else "conflict")
            except Exception:  # one failing pass must not stop the loop that runs them all
                logger.exception("periodic check %s failed", periodic.name)
        return done


# PostgreSQL's "try again" answers: it aborted this transaction to let a conflicting one
# through (a deadlock broken, a serialization conflict).
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})


def retryable(error: BaseException) -> bool:
    """Whether ``error`` (Django's, wrapping the driver's) is one PostgreSQL asks to retry."""
    return getattr(error.__cause__, "sqlstate", None) in RETRYABLE_SQLSTATES


# --- The clock thread ---------------------------------------------------------------------------

_clock: threading.Thread | None = None
_clock_lock = threading.Lock()
_clock_stop = threading.Event()


def clock_ticker(role: str) -> Ticker:
    """What a clock thread runs: this process's heartbeat first (ending an outage before any
    clock looks at a deadline), then the ``clock`` checks."""
    return Ticker(extra=[Periodic("heartbeat", liveness.HEARTBEAT_SECONDS,
                                  lambda: bool(liveness.beat(role=role)), once=False,
                                  report="ended an outage of {} (no process was alive)")],
                  clocks=True)


def clocks_start(role: str = Heartbeat.Role.APP) -> None:
    """Start this process's clock thread if it is not running: its heartbeat and the clock
    checks, on a thread of their own that no job ever holds. Beats once before returning, so
    a process that starts after an outage has moved the clocks on before it serves anything."""
    global _clock
    liveness.role_set(role)
    with _clock_lock:
        if _clock is not None and _clock.is_alive():
            return
        try:
            liveness.beat(role=role)
        except DatabaseError:  # the database is not there yet: the thread beats when it is
            logger.warning("first heartbeat failed; the clock thread tries again",
                           exc_info=True)
        finally:
            connection.close()  # the thread has its own connection; a forked worker its own
        _clock_stop.clear()
        _clock = threading.Thread(target=_clock_forever, args=(role,),
                                  name="foursquare-clocks", daemon=True)
        _clock.start()


def clocks_stop(timeout: float = 10.0) -> None:
    """Stop the clock thread (tests; a process exits without it)."""
    global _clock
    with _clock_lock:
        clock, _clock = _clock, None
    if clock is not None:
        _clock_stop.set()
        clock.join(timeout)


def _clock_forever(role: str) -> None:
    ticker = clock_ticker(role)
    while not _clock_stop.is_set():
        close_old_connections()
        ticker.run_due()
        _clock_stop.wait(TICK_SECONDS / 2)
    connection.close()


# --- The runner thread --------------------------------------------------------------------------


@dataclass(frozen=True)
class Lane:
    """A runner's thread for some of the jobs: ``urgent`` claims only ``URGENT`` jobs, ``bulk``
    any, ``URGENT`` first."""

    name: str
    most: int  # the highest priority it claims

    def jobs(self) -> QuerySet[Job]:
        return Job.objects.filter(priority__lte=self.most)


LANES = (Lane("urgent", URGENT), Lane("bulk", 2**15))
_pending: dict[str, queue.SimpleQueue[int | None]] = {lane.name: queue.SimpleQueue()
                                                      for lane in LANES}
_runners: dict[str, threading.Thread] = {}
_runner_lock = threading.Lock()
_stop = threading.Event()


def lane_of(kind: str) -> Lane:
    task = _tasks.get(kind)
    return LANES[0] if task is None or task.priority <= URGENT else LANES[1]


def runner_start() -> None:
    """Start this process's runner threads (one per lane) if they are not running: its jobs,
    the periodic checks other than the clocks, and the jobs left behind."""
    with _runner_lock:
        if all(thread.is_alive() for thread in _runners.values()) and len(_runners) == len(LANES):
            return
        _stop.clear()
        for lane in LANES:
            thread = _runners.get(lane.name)
            if thread is None or not thread.is_alive():
                _runners[lane.name] = threading.Thread(
                    target=_run_forever, args=(lane,), name=f"foursquare-jobs-{lane.name}",
                    daemon=True)
                _runners[lane.name].start()


def runner_start_if_threaded() -> None:
    """A server process's start: its runner threads begin now when jobs run in-process."""
    if settings.FOURSQUARE_BACKGROUND == "thread":
        runner_start()


def runner_stop(timeout: float = 10.0) -> None:
    """Stop the runner threads after what they are doing (tests; a process exits without)."""
    with _runner_lock:
        runners = dict(_runners)
        _runners.clear()
    if runners:
        _stop.set()
        for name in runners:
            _pending[name].put(None)
        for thread in runners.values():
            thread.join(timeout)


def _submit(job_id: int, kind: str) -> None:
    """Queue a job for this process's runner thread of its lane, started on first use.

    Daemon threads rather than a ``ThreadPoolExecutor``: an executor's threads are joined at
    exit, so a web worker told to stop would wait for a solver run to finish. A job cut short
    by the exit stays "running" and is claimed again once stale, its attempt counted.
    """
    runner_start()
    _pending[lane_of(kind).name].put(job_id)


def _submit_later(job_id: int, kind: str, seconds: float) -> None:
    timer = threading.Timer(seconds, _submit, args=(job_id, kind))
    timer.daemon = True  # a process told to stop does not wait for a retry
    timer.start()


def _leftovers_run(lane: Lane = LANES[-1]) -> int:
    """Run the jobs nobody is running: pending for longer than ``LEFTOVER_SECONDS`` (the
    process that recorded them stopped before its thread ran them), due for a retry, or left
    running by a process that died. How many were run (at most ``LEFTOVERS_PER_PASS``)."""
    ran = 0
    while ran < LEFTOVERS_PER_PASS:
        grace = timezone.now() - timedelta(seconds=LEFTOVER_SECONDS)
        job = job_run_next(lane.jobs().filter(Q(created_at__lt=grace) | Q(attempts__gt=0)))
        if job is None:
            return ran
        ran += 1
    return ran


def _run_forever(lane: Lane) -> None:
    extra = [Periodic(f"jobs left behind ({lane.name})", LEFTOVER_SECONDS,
                      lambda: _leftovers_run(lane), once=False,
                      report="ran {} jobs left behind")]
    # The housekeeping runs on the bulk lane: an urgent job never waits behind it.
    ticker = Ticker(extra=extra, clocks=False, registered=lane is LANES[-1])
    pending = _pending[lane.name]
    while not _stop.is_set():
        try:
            job_id = pending.get(timeout=TICK_SECONDS)
        except queue.Empty:
            job_id = None
        if _stop.is_set():
            break
        close_old_connections()  # within CONN_MAX_AGE, the thread keeps its connection
        if job_id is not None:
            try:
                job_run(job_id)
            except Exception:  # a thread has nobody to raise to
                logger.exception("background job %s failed", job_id)
        ticker.run_due()
    connection.close()


# --- Jobs ---------------------------------------------------------------------------------------


def job_enqueue(*, kind: str, key: str, fresh: bool = False) -> Job:
    """The job of (kind, key), created pending if there is none; one that failed with
    attempts left (from before retries were automatic, or reset by hand) is made pending
    again. Submitted to this process's runner on commit when it can run now.

    ``fresh``: there is new work for the job since it last started (a bot's next turn in the
    same match), so one that is done or failed runs again, and one that is running now runs
    once more when it ends (``Job.again``): its run may have read the match before this
    transaction changed it."""
    task = _tasks.get(kind)
    job, _ = Job.objects.get_or_create(
        kind=kind, key=key, defaults={"priority": URGENT if task is None else task.priority})
    if fresh:
        job = _again(job)
    if job.status == Job.Status.FAILED and job.attempts < MAX_ATTEMPTS:
        Job.objects.filter(pk=job.pk, status=Job.Status.FAILED).update(status=Job.Status.PENDING)
        job.status = Job.Status.PENDING
    now = timezone.now()
    runnable = job.status == Job.Status.PENDING or (
        job.status == Job.Status.RUNNING and job.started_at is not None
        and job.started_at < now - _stale_after(job.kind))
    if not runnable:
        return job
    _wake(job)
    return job


def _again(job: Job) -> Job:
    """``job`` made to run (again) for work recorded now; compare-and-set on its status, so a
    run ending meanwhile is seen.

    A job made pending again is recorded again (``created_at``, now): its new work has waited
    only since then. Its first recording (a match's first bot turn, minutes ago) would count
    the match's age as the wait in ``foursquare_job_start_delay_seconds`` and
    ``foursquare_job_oldest_pending_seconds``, make it a job "left behind" at once, and put it
    before work recorded earlier in the queue's order."""
    while True:
        if job.status == Job.Status.RUNNING:
            if Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(again=True):
                return job
        elif job.status in (Job.Status.DONE, Job.Status.FAILED):
            now = timezone.now()
            if Job.objects.filter(pk=job.pk, status=job.status).update(
                    status=Job.Status.PENDING, attempts=0, error="", finished_at=None,
                    run_after=None, again=False, created_at=now):
                job.status, job.attempts, job.created_at = Job.Status.PENDING, 0, now
                return job
        else:
            return job
        job.refresh_from_db()


def _wake(job: Job) -> None:
    """Have ``job`` run as soon as the transaction commits: by this process's runner, or a
    worker woken by NOTIFY on PostgreSQL."""
    if settings.FOURSQUARE_BACKGROUND == "thread":
        transaction.on_commit(lambda: _submit(job.pk, job.kind))
    elif connection.vendor == "postgresql":
        # Delivered when the transaction commits, and never if it rolls back.
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {NOTIFY_CHANNEL}")


_listening = threading.local()  # each thread's PostgreSQL connection that LISTENs (``job_wait``)


def job_wait(seconds: float) -> None:
    """Wait for a job to be recorded, ``seconds`` at most (a worker with nothing to do). On
    PostgreSQL ``job_enqueue``'s NOTIFY ends the wait as its transaction commits; elsewhere
    the wait is the whole ``seconds``. A connection opened since (``CONN_MAX_AGE``) LISTENs
    afresh; a job recorded while none listened waits out the rest of one wait at most. Each
    thread (each of ``run_jobs``'s lanes) listens on its own connection."""
    if connection.vendor != "postgresql":
        time.sleep(seconds)
        return
    try:
        connection.ensure_connection()
        raw = connection.connection
        if getattr(_listening, "raw", None) is not raw:
            with connection.cursor() as cursor:
                cursor.execute(f"LISTEN {NOTIFY_CHANNEL}")
            _listening.raw = raw
        for _ in raw.notifies(timeout=seconds, stop_after=1):
            pass
    except DatabaseError:  # the database went away: the next query reconnects
        connection.close()
        _listening.raw = None
        time.sleep(seconds)


def _stale_after(kind: str) -> timedelta:
    task = _tasks.get(kind)
    return STALE_AFTER if task is None else task.stale_after


def _claimable(now: datetime) -> Q:
    """Pending and due, or running for longer than its task allows (its process died)."""
    pending = Q(status=Job.Status.PENDING) & (Q(run_after__isnull=True) | Q(run_after__lte=now))
    special = {task.kind: task.stale_after for task in _tasks.values()
               if task.stale_after != STALE_AFTER}
    stale = Q(status=Job.Status.RUNNING, started_at__lt=now - STALE_AFTER)
    if special:
        stale &= ~Q(kind__in=list(special))
    for kind, after in special.items():
        stale |= Q(status=Job.Status.RUNNING, kind=kind, started_at__lt=now - after)
    return pending | stale


def _claim(queryset: QuerySet[Job]) -> Job | None:
    """Flip one claimable job of ``queryset`` to running and count the attempt; None if there
    is none (or another process took it first). A job that used up its attempts (the last
    one's process died) is returned failed instead, for its task's ``given_up``."""
    now = timezone.now()
    with transaction.atomic():
        job = (queryset.filter(_claimable(now)).select_for_update(skip_locked=True)
               .order_by("priority", "created_at").first())
        if job is None:
            return None
        # SQLite has no row locks: the compare-and-set is what keeps a second claim out.
        same = Job.objects.filter(pk=job.pk, status=job.status, attempts=job.attempts)
        if job.status == Job.Status.RUNNING:
            assert job.started_at is not None  # set by the claim that made it running
            job.error = (f"Attempt {job.attempts} of {MAX_ATTEMPTS} never finished: the process "
                         f"running it stopped (started {job.started_at.isoformat()}, still "
                         f"running after {_stale_after(job.kind)}).")
        died = job.status == Job.Status.RUNNING
        if job.attempts >= MAX_ATTEMPTS:
            if not same.update(status=Job.Status.FAILED, error=job.error, finished_at=now):
                return None
            if died:
                metrics.job_failures.labels(job.kind, "attempt").inc()
            job.status, job.finished_at = Job.Status.FAILED, now
            return job
        if not same.update(status=Job.Status.RUNNING, started_at=now, error=job.error,
                           attempts=F("attempts") + 1, run_after=None):
            return None
    if died:  # its last attempt's process stopped before it finished
        metrics.job_failures.labels(job.kind, "attempt").inc()
    else:  # waited since it was recorded, or since its retry was due
        due = max(job.created_at, job.run_after or job.created_at)
        metrics.job_start_delay.labels(job.kind).observe(max(0.0, (now - due).total_seconds()))
    job.refresh_from_db()
    return job


def _execute(job: Job) -> Job:
    if job.status == Job.Status.FAILED:  # given up at its claim
        logger.error("job %s given up after %s attempts: %s", job, job.attempts, job.error)
        _give_up(job)
        return job
    task = _tasks.get(job.kind)
    try:
        if task is None:
            raise LookupError(f"No task is registered as {job.kind!r}.")
        task.run(job.key)
    except Exception:
        last = job.attempts >= MAX_ATTEMPTS
        logger.exception("job %s failed (attempt %s of %s)", job, job.attempts, MAX_ATTEMPTS)
        metrics.job_failures.labels(job.kind, "attempt").inc()
        error = (f"Attempt {job.attempts} of {MAX_ATTEMPTS} failed:\n"
                 f"{traceback.format_exc(limit=8)[-4000:]}")
        wait = RETRY_SECONDS * job.attempts
        if last:
            job.status, job.finished_at, job.run_after = Job.Status.FAILED, timezone.now(), None
        else:
            job.status = Job.Status.PENDING
            job.run_after = timezone.now() + timedelta(seconds=wait)
        job.error = error
        if not _finish(job):
            return job
        if last:
            _give_up(job)
        elif settings.FOURSQUARE_BACKGROUND == "thread":
            _submit_later(job.pk, job.kind, wait)
    else:
        job.status, job.error, job.finished_at = Job.Status.DONE, "", timezone.now()
        _finish(job)
    return job


def _finish(job: Job) -> bool:
    """Store the outcome of ``job``'s attempt, unless another process has claimed it since
    (its attempt ran past ``stale_after``): then that one's attempt is the job's."""
    stored = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING,
                                attempts=job.attempts).update(
        status=job.status, error=job.error, finished_at=job.finished_at,
        run_after=job.run_after)
    if not stored:
        logger.warning("job %s: attempt %s ended after another claim; its outcome is not kept",
                       job, job.attempts)
    elif job.status == Job.Status.DONE and Job.objects.filter(
            pk=job.pk, status=Job.Status.DONE, again=True).update(
            status=Job.Status.PENDING, attempts=0, finished_at=None, again=False,
            created_at=(ended := job.finished_at or timezone.now())):
        # Work was recorded for it while it ran: once more, due from its run's end (``_again``).
        job.status, job.attempts, job.created_at = Job.Status.PENDING, 0, ended
        job.finished_at = None
        _wake(job)
    return bool(stored)


def _give_up(job: Job) -> None:
    metrics.job_failures.labels(job.kind, "given_up").inc()
    task = _tasks.get(job.kind)
    if task is None or task.given_up is None:
        return
    try:
        task.given_up(job.key)
    except Exception:
        logger.exception("job %s: repairing after its last attempt failed too", job)


def job_run(job_id: int) -> Job | None:
    """Claim and run one job; None if it is not claimable (done, waiting for its retry, or
    running elsewhere)."""
    job = _claim(Job.objects.filter(pk=job_id))
    return None if job is None else _execute(job)


def job_run_next(queryset: QuerySet[Job] | None = None) -> Job | None:
    """Claim and run the claimable job (of ``queryset``) of the lowest priority number, the
    oldest of those; None if there is none."""
    job = _claim(Job.objects.all() if queryset is None else queryset)
    return None if job is None else _execute(job)


# --- Metrics ------------------------------------------------------------------------------------


def queue_families() -> Iterator[Metric]:
    """The queue as the table holds it, read at each scrape (``server.core.metrics``): the jobs
    per status (pending is the queue's depth; failed, those given up for good) and how long the
    oldest pending job that is due has waited."""
    from prometheus_client.core import GaugeMetricFamily

    now = timezone.now()
    rows = (Job.objects.filter(status__in=[Job.Status.PENDING, Job.Status.RUNNING,
                                           Job.Status.FAILED])
            .values_list("status").annotate(count=Count("id")).order_by())
    counts = {status: 0 for status in (Job.Status.PENDING, Job.Status.RUNNING,
                                       Job.Status.FAILED)}
    counts.update(dict(rows))
    jobs = GaugeMetricFamily(
        f"{metrics.PREFIX}_jobs", "Jobs in the queue's table by status: pending (the queue's "
        "depth), running, failed (given up for good, kept for a look).", labels=["status"])
    for status, count in counts.items():
        jobs.add_metric([status], count)
    yield jobs
    oldest = (Job.objects.filter(status=Job.Status.PENDING)
              .filter(Q(run_after__isnull=True) | Q(run_after__lte=now))
              .order_by("created_at").values_list("created_at", flat=True).first())
    waited = GaugeMetricFamily(
        f"{metrics.PREFIX}_job_oldest_pending_seconds", "How long the oldest pending job that "
        "is due has waited since it was recorded (0 with none).")
    waited.add_metric([], 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds()))
    yield waited
