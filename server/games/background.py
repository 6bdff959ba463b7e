"""Background work without new infrastructure: a job table, an in-process executor, a worker.

``job_enqueue`` records a job (once per kind and key) and, when the surrounding transaction
commits, hands it to a single background thread in this process, so a request never waits
for it. ``FOURSQUARE_BACKGROUND = "off"`` leaves jobs pending for ``manage.py run_jobs``
(a worker process; the better choice in production, since the bot's CPU work then does not
share the web process's interpreter lock) or, in tests, for a direct ``job_run`` call.

Whoever runs a job claims it first by flipping it from pending to running in one statement,
so the thread and a worker never run the same job twice. A job left running by a process that
died is claimable again after ``STALE_AFTER``.

Besides jobs, a few checks run every few seconds (``Ticker``: Spite & Malice's turn clocks):
in the worker's loop and, with ``FOURSQUARE_BACKGROUND = "thread"``, in the runner thread,
which each server process starts as it boots (gunicorn.conf.py's ``post_worker_init``; never
in tests or management commands). Each check is safe to run in several processes at once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import traceback
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from server.games.models import Job

logger = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=15)
MAX_ATTEMPTS = 3
TICK_SECONDS = 1.0  # how often the runner thread looks whether a periodic check is due

_pending: queue.SimpleQueue[int] = queue.SimpleQueue()
_runner: threading.Thread | None = None
_runner_lock = threading.Lock()


def _handlers() -> dict[str, Callable[[str], None]]:
    from server.games import analysis, preparation
    from server.spitemalice import services as spite_malice

    return {Job.Kind.DAILY_PREPARE: preparation.daily_prepare_job,
            Job.Kind.GAME_ANALYSE: analysis.game_analyse_job,
            spite_malice.BOT_JOB: spite_malice.bot_turn_job}


def _periodic() -> list[tuple[str, float, Callable[[], int]]]:
    """(name, every how many seconds, check) of each periodic check; a check returns how many
    things it changed."""
    from server.spitemalice import clocks

    return [("spite-malice clocks", clocks.SWEEP_SECONDS, clocks.sweep)]


class Ticker:
    """Runs each periodic check when its interval has passed since it last ran here."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}

    def run_due(self) -> dict[str, int]:
        """Run the checks that are due; what each changed, by name."""
        done = {}
        for name, every, check in _periodic():
            now = time.monotonic()
            if now - self._last.get(name, float("-inf")) < every:
                continue
            self._last[name] = now
            try:
                done[name] = check()
            except Exception:  # one failing pass must not stop the loop that runs them all
                logger.exception("periodic check %s failed", name)
        return done


def runner_start() -> None:
    """Start this process's runner thread if it is not running (jobs and periodic checks)."""
    global _runner
    with _runner_lock:
        if _runner is None or not _runner.is_alive():
            _runner = threading.Thread(target=_run_forever, name="foursquare-jobs", daemon=True)
            _runner.start()


def runner_start_if_threaded() -> None:
    """A server process's start: its runner thread begins now (and with it the periodic
    checks) when jobs run in-process."""
    if settings.FOURSQUARE_BACKGROUND == "thread":
        runner_start()


def _submit(job_id: int) -> None:
    """Queue a job for this process's runner thread, started on first use.

    One daemon thread rather than a ``ThreadPoolExecutor``: an executor's threads are joined
    at exit, so a web worker told to stop would wait for a solver run to finish. A job cut
    short by the exit stays "running" and is claimed again once stale.
    """
    runner_start()
    _pending.put(job_id)


def _run_forever() -> None:
    ticker = Ticker()
    while True:
        try:
            job_id = _pending.get(timeout=TICK_SECONDS)
        except queue.Empty:
            job_id = None
        close_old_connections()
        if job_id is not None:
            try:
                job_run(job_id)
            except Exception:  # a thread has nobody to raise to
                logger.exception("background job %s failed", job_id)
            finally:
                connection.close()
        ticker.run_due()  # its connection stays open between ticks, within CONN_MAX_AGE


def job_enqueue(*, kind: str, key: str) -> Job:
    """The job of (kind, key), created pending if there is none; a failed job with attempts
    left is made pending again. Submitted to this process's executor on commit."""
    job, _ = Job.objects.get_or_create(kind=kind, key=key)
    if job.status == Job.Status.FAILED and job.attempts < MAX_ATTEMPTS:
        Job.objects.filter(pk=job.pk, status=Job.Status.FAILED).update(status=Job.Status.PENDING)
        job.status = Job.Status.PENDING
    stale = job.status == Job.Status.RUNNING and job.started_at is not None \
        and job.started_at < timezone.now() - STALE_AFTER
    if (job.status == Job.Status.PENDING or stale) \
            and settings.FOURSQUARE_BACKGROUND == "thread":
        transaction.on_commit(lambda: _submit(job.pk))
    return job


def _claim(queryset) -> Job | None:
    """Flip one job of ``queryset`` to running; None if another process holds it."""
    stale = timezone.now() - STALE_AFTER
    with transaction.atomic():
        job = (queryset.filter(Q(status=Job.Status.PENDING)
                               | Q(status=Job.Status.RUNNING, started_at__lt=stale))
               .select_for_update(skip_locked=True).order_by("created_at").first())
        if job is None:
            return None
        Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, started_at=timezone.now(),
                                             attempts=F("attempts") + 1)
    job.refresh_from_db()
    return job


def _execute(job: Job) -> Job:
    try:
        _handlers()[job.kind](job.key)
    except Exception:
        job.status = Job.Status.FAILED
        job.error = traceback.format_exc(limit=8)[-4000:]
        logger.exception("job %s failed", job)
    else:
        job.status = Job.Status.DONE
        job.error = ""
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error", "finished_at"])
    return job


def job_run(job_id: int) -> Job | None:
    """Claim and run one job; None if it is not claimable (done, or running elsewhere)."""
    job = _claim(Job.objects.filter(pk=job_id))
    return None if job is None else _execute(job)


def job_run_next() -> Job | None:
    """Claim and run the oldest claimable job; None if there is none."""
    job = _claim(Job.objects.all())
    return None if job is None else _execute(job)
