"""manage.py prune_idempotency_keys: delete stored responses older than the retry window."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from server.api.idempotency import records_prune


class Command(BaseCommand):
    help = ("Delete Idempotency-Key responses older than FOURSQUARE_IDEMPOTENCY_KEY_HOURS; "
            "the background work (run_jobs, or each server's runner) does it hourly.")

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = records_prune()
        self.stdout.write(f"deleted {deleted} stored responses older than "
                          f"{settings.IDEMPOTENCY_KEY_HOURS} hours")
