"""manage.py run_jobs: the background worker. It runs the jobs the apps registered (daily
preparation, game analyses, the bot's long turns) and their periodic checks: every few seconds
Spite & Malice's turn clocks and invitations' expiry, hourly the housekeeping (expired
Idempotency-Key responses deleted, the dailies left unfinished when their date closed marked
over, of both games), the hourly passes shared with the in-process runners by their leases."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from server.jobs.background import Ticker, job_run_next, job_wait, periodic_checks


class Command(BaseCommand):
    help = "Run pending background jobs; with --once, until none is left, else forever."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true",
                            help="Stop when no job is pending instead of waiting for more.")
        parser.add_argument("--poll", type=float, default=2.0,
                            help="Seconds to wait when no job is pending (default 2); on "
                                 "PostgreSQL a job recorded meanwhile ends the wait at once.")

    def handle(self, *args, once, poll, **options):
        reports = {periodic.name: periodic.report for periodic in periodic_checks()}
        ticker = Ticker()
        while True:
            for name, changed in ticker.run_due().items():
                if changed:
                    self.stdout.write(reports[name].format(changed))
            job = job_run_next()
            if job is None:
                if once:
                    return
                job_wait(poll)
                close_old_connections()  # a worker outlives its connections' allowed age
                continue
            self.stdout.write(f"{job.kind} {job.key}: {job.status}")
