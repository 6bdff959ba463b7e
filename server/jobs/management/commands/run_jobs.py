"""manage.py run_jobs: the background worker (daily preparation, game analyses, every few
seconds the periodic checks (Spite & Malice's turn clocks and invitations' expiry), and hourly
the housekeeping: expired Idempotency-Key responses deleted, dailies left unfinished when their
date closed marked over, of both games)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from server.api.idempotency import records_prune
from server.foursquare.background import Ticker, job_run_next
from server.foursquare.services import dailies_close
from server.spitemalice.services import dailies_close as spite_malice_dailies_close

PRUNE_EVERY_SECONDS = 3600  # the housekeeping runs hourly


class Command(BaseCommand):
    help = "Run pending background jobs; with --once, until none is left, else forever."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true",
                            help="Stop when no job is pending instead of waiting for more.")
        parser.add_argument("--poll", type=float, default=2.0,
                            help="Seconds to wait when no job is pending (default 2).")

    def handle(self, *args, once, poll, **options):
        pruned_at = None
        ticker = Ticker()
        while True:
            for name, changed in ticker.run_due().items():
                if changed:
                    self.stdout.write(f"{name}: {changed} matches ended or expired")
            if pruned_at is None or time.monotonic() - pruned_at >= PRUNE_EVERY_SECONDS:
                deleted = records_prune()
                closed = dailies_close() + spite_malice_dailies_close()
                pruned_at = time.monotonic()
                if deleted:
                    self.stdout.write(f"deleted {deleted} expired Idempotency-Key responses")
                if closed:
                    self.stdout.write(f"closed {closed} dailies left unfinished")
            job = job_run_next()
            if job is None:
                if once:
                    return
                time.sleep(poll)
                close_old_connections()  # a worker outlives its connections' allowed age
                continue
            self.stdout.write(f"{job.kind} {job.key}: {job.status}")
