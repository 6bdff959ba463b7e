"""manage.py run_jobs: the background worker. It runs the jobs the apps registered (daily
preparation, game analyses, the bot's long turns) and their periodic checks: every few seconds,
on a clock thread of its own with the worker's heartbeat, Spite & Malice's turn clocks, the
invitations' expiry and the races' closing; hourly the housekeeping (expired Idempotency-Key
responses deleted, the dailies left unfinished when their date closed marked over, of both
games), the hourly passes shared with the in-process runners by their leases.

Jobs run on two lanes (``background.LANES``): this thread claims any job, urgent ones first,
and an urgent lane's thread claims only urgent ones (a bot's turn), so one never waits behind an
analysis that is running."""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections, connection

from server.jobs import background, liveness
from server.jobs.background import Lane, Ticker, job_run_next, job_wait, periodic_checks
from server.jobs.models import Heartbeat


class Command(BaseCommand):
    help = "Run pending background jobs; with --once, until none is left, else forever."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true",
                            help="Stop when no job is pending instead of waiting for more.")
        parser.add_argument("--poll", type=float, default=2.0,
                            help="Seconds to wait when no job is pending (default 2); on "
                                 "PostgreSQL a job recorded meanwhile ends the wait at once.")

    def handle(self, *args: Any, once: bool, poll: float, **options: Any) -> None:
        self.reports = {periodic.name: periodic.report for periodic in periodic_checks()}
        if once:
            liveness.role_set(Heartbeat.Role.WORKER)
            self._report(background.clock_ticker(Heartbeat.Role.WORKER).run_due())
            ticker = Ticker(clocks=False)
            while True:
                self._report(ticker.run_due())
                if not self._run_one(None):
                    return
        background.clocks_start(Heartbeat.Role.WORKER)
        urgent = threading.Thread(target=self._lane, args=(background.LANES[0], poll),
                                  name="foursquare-jobs-urgent", daemon=True)
        urgent.start()
        ticker = Ticker(clocks=False)
        while True:
            self._report(ticker.run_due())
            if not self._run_one(background.LANES[-1]):
                job_wait(poll)
                close_old_connections()  # a worker outlives its connections' allowed age

    def _lane(self, lane: Lane, poll: float) -> None:
        try:
            while True:
                if not self._run_one(lane):
                    job_wait(poll)
                    close_old_connections()
        finally:
            connection.close()

    def _run_one(self, lane: Lane | None) -> bool:
        job = job_run_next(None if lane is None else lane.jobs())
        if job is None:
            return False
        self.stdout.write(f"{job.kind} {job.key}: {job.status}")
        return True

    def _report(self, done: dict[str, int]) -> None:
        for name, changed in done.items():
            if changed and name in self.reports:
                self.stdout.write(self.reports[name].format(changed))
